"""Global flags: accepted before or after the command name, and what they mean for a run."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

# Global flags that take a value; every other global flag is a switch.
_VALUED = {
    "-C",
    "--project",
    "-c",
    "--config",
    "--source",
    "--locales-dir",
    "--src",
    "--functions",
    "--exclude",
    "--top",
    "--format",
}
_SWITCHES = {
    "--json",
    "--json-compact",
    "--yes",
    "-y",
    "-q",
    "--quiet",
    "--no-color",
    "--no-cache",
    "--full",
    "--version",
    "--workspace",
}


def hoist_global_flags(argv: list[str]) -> list[str]:
    """Move global flags that follow the command name in front of it.

    `i18nprune validate --json` then parses exactly like `i18nprune --json validate`.
    Everything after `--` is left alone.
    """
    hoisted: list[str] = []
    rest: list[str] = []
    index = 0
    while index < len(argv):
        token = argv[index]
        if token == "--":
            rest.extend(argv[index:])
            break
        name = token.split("=", 1)[0]
        if token in _SWITCHES or (name in _VALUED and "=" in token):
            hoisted.append(token)
        elif token in _VALUED and index + 1 < len(argv):
            hoisted.extend(argv[index : index + 2])
            index += 1
        else:
            rest.append(token)
        index += 1
    return hoisted + rest


FORMATS = ("text", "json", "github", "sarif", "html", "csv")
"""`--format`: people's text, the JSON envelope (`--json`), GitHub workflow commands, SARIF;
`report` alone also writes a page (`html`) or `csv`."""
DOCUMENT_FORMATS = ("html", "csv")
"""The formats only `report` writes."""


def wants_json(argv: list[str]) -> bool:
    """Whether the raw command line asked for JSON (so even a usage error gets an envelope)."""
    for index, token in enumerate(argv):
        if token in ("--json", "--json-compact", "--format=json"):
            return True
        if token == "--format" and argv[index + 1 : index + 2] == ["json"]:
            return True
    return False


@dataclass(frozen=True)
class GlobalOptions:
    """The global flags of one invocation."""

    project: Path | None = None
    config: Path | None = None
    json: bool = False
    """Print the JSON envelope (`--json`, `--json-compact`, `--format json`)."""
    json_compact: bool = False
    format: str = "text"
    """One of FORMATS; `json` whenever `json` is set."""
    yes: bool = False
    quiet: bool = False
    no_color: bool = False
    source: str | None = None
    locales_dir: str | None = None
    src: str | None = None
    functions: list[str] | None = None
    exclude: list[str] | None = None
    no_cache: bool = False
    top: int = 20
    full: bool = False
    workspace: bool = False
    """Run per project of the workspace at the root (also without a workspace file)."""

    @property
    def document_output(self) -> bool:
        """Whether stdout carries one machine-readable document (JSON or SARIF) and nothing
        else, so people's text goes to stderr."""
        return self.format in ("json", "sarif", *DOCUMENT_FORMATS)

    @property
    def interactive(self) -> bool:
        """Nothing prompts outside `--format text`, in CI, or when stdin/stdout is not a
        terminal."""
        if self.format != "text" or os.environ.get("CI", "").lower() in ("1", "true"):
            return False
        return sys.stdin.isatty() and sys.stdout.isatty()

    @property
    def row_limit(self) -> int | None:
        """How many rows human output lists before it summarises the rest."""
        return None if self.full else self.top
