"""Where `formatjs extract` gives FormatJS messages written without an id their ids: the
`package.json` scripts that run it, and the id interpolation pattern they pass (FormatJS's
documented default when they pass none).

A project that depends on FormatJS's extracting tools without such a script (the CLI run by
hand, babel-plugin-formatjs, the ts-transformer) gets a scope whose ids are unknown: nothing
may be removed on its messages without an id.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

from i18nprune.scan.content_ids import FORMATJS_DEFAULT_PATTERN, pattern_problem
from i18nprune.scan.message_ids import MessageIdScope

_TOOLS = ("@formatjs/cli", "babel-plugin-formatjs", "@formatjs/ts-transformer")
_COMMANDS = re.compile(r"&&|\|\||[;|&\n]")
_PATTERN_FLAG = "--id-interpolation-pattern"


def extractor_scope(root: Path, folder: str, manifests: list[Path]) -> MessageIdScope | None:
    """The scope of `formatjs extract` for the source folder `folder`, from the first of
    `manifests` (nearest first) that runs it in a script or depends on one of its tools."""
    for manifest in manifests:
        data = _manifest(manifest)
        if data is None:
            continue
        where = manifest.relative_to(root).as_posix()
        scripts = data.get("scripts")
        runs = _extract_runs(scripts) if isinstance(scripts, dict) else []
        if runs:
            return _scope(folder, where, runs)
        if any(_depends_on(data, tool) for tool in _TOOLS):
            problem = (
                "FormatJS's extractor is a dependency, but no package.json script runs "
                "`formatjs extract`, so the id pattern it gives messages without an id is not known"
            )
            return MessageIdScope(folder=folder, config=where, options=None, problem=problem)
    return None


def _scope(folder: str, where: str, runs: list[list[str]]) -> MessageIdScope:
    patterns = {
        _flag_value(arguments, _PATTERN_FLAG) or FORMATJS_DEFAULT_PATTERN for arguments in runs
    }
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


def _extract_runs(scripts: dict[str, Any]) -> list[list[str]]:
    """The arguments of each `formatjs extract` the scripts run."""
    runs = []
    for script in scripts.values():
        if not isinstance(script, str) or "formatjs" not in script:
            continue
        for command in _COMMANDS.split(script):
            try:
                words = shlex.split(command)
            except ValueError:
                continue
            for index, word in enumerate(words[:-1]):
                if word.rsplit("/", 1)[-1] == "formatjs" and words[index + 1] == "extract":
                    runs.append(words[index + 2 :])
                    break
    return runs


def _flag_value(arguments: list[str], flag: str) -> str | None:
    for index, argument in enumerate(arguments):
        if argument == flag and index + 1 < len(arguments):
            return arguments[index + 1]
        if argument.startswith(flag + "="):
            return argument[len(flag) + 1 :]
    return None


def _manifest(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _depends_on(data: dict[str, Any], name: str) -> bool:
    return any(
        isinstance(section := data.get(field), dict) and name in section
        for field in ("dependencies", "devDependencies")
    )


__all__ = ["extractor_scope"]
