"""Where `formatjs extract` gives FormatJS messages written without an id their ids: the
`package.json` scripts that run it (or the shell scripts they run), and the id interpolation
pattern they pass (FormatJS's documented default when they pass none).

A project that depends on FormatJS's extracting tools without such a script (the CLI run by
hand, babel-plugin-formatjs, the ts-transformer) gets a scope whose ids are unknown: nothing
may be removed on its messages without an id.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from i18nprune.config.formatjs_cli import PATTERN_FLAG, ExtractRuns, flag_value
from i18nprune.scan.content_ids import FORMATJS_DEFAULT_PATTERN, pattern_problem
from i18nprune.scan.message_ids import MessageIdScope

_TOOLS = ("@formatjs/cli", "babel-plugin-formatjs", "@formatjs/ts-transformer")


def extractor_scope(root: Path, folder: str, manifests: list[Path]) -> MessageIdScope | None:
    """The scope of `formatjs extract` for the source folder `folder`, from the first of
    `manifests` (nearest first) that runs it in a script or depends on one of its tools."""
    for manifest in manifests:
        found = ExtractRuns(manifest)
        data = found.data
        if data is None:
            continue
        where = manifest.relative_to(root).as_posix()
        if found.runs:
            return _scope(folder, where, found.runs, found.forwarded)
        if any(_depends_on(data, tool) for tool in _TOOLS):
            problem = (
                "FormatJS's extractor is a dependency, but no package.json script runs "
                "`formatjs extract`, so the id pattern it gives messages without an id is not known"
            )
            return MessageIdScope(folder=folder, config=where, options=None, problem=problem)
    return None


def _scope(folder: str, where: str, runs: list[list[str]], forwarded: list[str]) -> MessageIdScope:
    """The scope of the `formatjs extract` runs found; `forwarded` are the patterns other
    commands pass on to a script that runs it (`npm run extract -- --id-interpolation-pattern
    …`)."""
    given = {flag_value(arguments, PATTERN_FLAG) for arguments in runs}
    patterns = {pattern for pattern in given if pattern is not None} | set(forwarded)
    if None in given and not forwarded:
        patterns.add(FORMATJS_DEFAULT_PATTERN)
    preserve = {"--preserve-whitespace" in arguments for arguments in runs}
    problem: str | None = None
    if len(patterns) > 1 or len(preserve) > 1:
        problem = "its scripts run `formatjs extract` with different id patterns or white space"
    elif any("--flatten" in arguments for arguments in runs):
        problem = "`formatjs extract --flatten` rewrites each message before hashing it"
    else:
        problem = pattern_problem(next(iter(patterns)))
    if problem is not None:
        return MessageIdScope(folder=folder, config=where, options=None, problem=problem)
    return MessageIdScope(
        folder=folder,
        config=where,
        options=None,
        pattern=next(iter(patterns)),
        preserve_whitespace=preserve.pop(),
    )


def _depends_on(data: dict[str, Any], name: str) -> bool:
    return any(
        isinstance(section := data.get(field), dict) and name in section
        for field in ("dependencies", "devDependencies")
    )


__all__ = ["extractor_scope"]
