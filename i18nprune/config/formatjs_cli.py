"""What a project's `package.json` scripts pass `formatjs extract` (FormatJS's message
extractor), read without running anything: the scripts' commands and the shell scripts they
run (`bash bin/i18n-extract.sh`)."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

_COMMANDS = re.compile(r"&&|\|\||[;|&\n]")
PATTERN_FLAG = "--id-interpolation-pattern"
_NAME_FLAGS = {"--additional-function-names": "{}", "--additional-component-names": "<{}>"}


class ExtractRuns:
    """The `formatjs extract` runs of one `package.json`: each run's arguments, and the id
    patterns other commands pass on to a script that runs it (`npm run extract --
    --id-interpolation-pattern …`)."""

    def __init__(self, manifest: Path) -> None:
        self.data = read_manifest(manifest)
        scripts = self.data.get("scripts") if self.data is not None else None
        texts = _script_texts(scripts, manifest.parent) if isinstance(scripts, dict) else []
        self.runs, self.forwarded = _extract_runs(texts)

    def additional_names(self) -> list[str]:
        """The names `--additional-function-names` and `--additional-component-names` add,
        components written `<Name>` (as `functions` spells them)."""
        names: list[str] = []
        for arguments in self.runs:
            for flag, spelling in _NAME_FLAGS.items():
                for given in flag_values(arguments, flag):
                    names.extend(
                        spelling.format(name.strip()) for name in given.split(",") if name.strip()
                    )
        return list(dict.fromkeys(names))


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
        if "formatjs" not in text and PATTERN_FLAG not in text:
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
            elif (pattern := flag_value(words, PATTERN_FLAG)) is not None:
                forwarded.append(pattern)
    return runs, forwarded


def flag_value(arguments: list[str], flag: str) -> str | None:
    for index, argument in enumerate(arguments):
        if argument == flag and index + 1 < len(arguments):
            return arguments[index + 1]
        if argument.startswith(flag + "="):
            return argument[len(flag) + 1 :]
    return None


def flag_values(arguments: list[str], flag: str) -> list[str]:
    """Every value given to `flag` (`--flag value` or `--flag=value`)."""
    values = []
    for index, argument in enumerate(arguments):
        if argument == flag and index + 1 < len(arguments):
            values.append(arguments[index + 1])
        elif argument.startswith(flag + "="):
            values.append(argument[len(flag) + 1 :])
    return values


def read_manifest(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return data if isinstance(data, dict) else None


__all__ = ["PATTERN_FLAG", "ExtractRuns", "flag_value", "flag_values", "read_manifest"]
