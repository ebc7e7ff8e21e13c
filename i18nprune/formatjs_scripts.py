"""Where `formatjs extract` gives FormatJS messages written without an id their ids: the
`package.json` scripts that run it (or the shell scripts they run), and the id interpolation
pattern they pass (FormatJS's documented default when they pass none).

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
        texts = _script_texts(scripts, manifest.parent) if isinstance(scripts, dict) else []
        runs, forwarded = _extract_runs(texts)
        if runs:
            return _scope(folder, where, runs, forwarded)
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
    given = {_flag_value(arguments, _PATTERN_FLAG) for arguments in runs}
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


def _script_texts(scripts: dict[str, Any], folder: Path) -> list[str]:
    """The scripts' commands, and the text of each shell script they run (`bash
    bin/i18n-extract.sh`), line continuations joined."""
    texts = [script for script in scripts.values() if isinstance(script, str)]
    for script in list(texts):
        for word in script.split():
            path = folder / word.strip("'\"")
            if word.endswith(".sh") and path.is_file():
                try:
                    texts.append(path.read_text(encoding="utf-8"))
                except (OSError, UnicodeDecodeError):
                    continue
    return [text.replace("\\\n", " ") for text in texts]


def _extract_runs(texts: list[str]) -> tuple[list[list[str]], list[str]]:
    """The arguments of each `formatjs extract` the texts run, and the id patterns other
    commands pass on (`npm run extract -- --id-interpolation-pattern …`)."""
    runs: list[list[str]] = []
    forwarded: list[str] = []
    for text in texts:
        if "formatjs" not in text and _PATTERN_FLAG not in text:
            continue
        for command in _COMMANDS.split(text):
            try:
                words = shlex.split(command, comments=True)
            except ValueError:
                continue
            run = next(
                (
                    words[index + 2 :]
                    for index, word in enumerate(words[:-1])
                    if word.rsplit("/", 1)[-1] == "formatjs" and words[index + 1] == "extract"
                ),
                None,
            )
            if run is not None:
                runs.append(run)
            elif (pattern := _flag_value(words, _PATTERN_FLAG)) is not None:
                forwarded.append(pattern)
    return runs, forwarded


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
