"""Where the CLI's output goes: the JSON document on stdout, people's text on the consoles."""

from __future__ import annotations

import os
import sys
from typing import Any

import msgspec
from rich.console import Console
from rich.markup import escape

from i18nprune.cli.globals import GlobalOptions
from i18nprune.envelope import Envelope, Issue

_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def consoles(options: GlobalOptions) -> tuple[Console, Console]:
    """(report, diagnostics): under --json and --format sarif the report is stderr too, so
    stdout holds only the document.

    `--no-color` or a non-empty `NO_COLOR` turns off every style, bold and dim included.
    """
    plain = options.no_color or bool(os.environ.get("NO_COLOR"))
    style: dict[str, Any] = {"color_system": None} if plain else {}
    err = Console(stderr=True, highlight=False, soft_wrap=True, **style)
    out = err if options.document_output else Console(highlight=False, soft_wrap=True, **style)
    return out, err


def write_json(envelope: Envelope, compact: bool) -> None:
    """Print the envelope as one JSON document (pretty unless `compact`)."""
    encoded = msgspec.json.encode(envelope)
    if not compact:
        encoded = msgspec.json.format(encoded, indent=2)
    sys.stdout.buffer.write(encoded + b"\n")
    sys.stdout.flush()


def write_document(document: object) -> None:
    """Print any JSON-able document (the SARIF log) on stdout, indented."""
    sys.stdout.buffer.write(msgspec.json.format(msgspec.json.encode(document), indent=2) + b"\n")
    sys.stdout.flush()


def print_issues(console: Console, issues: list[Issue]) -> None:
    """One line an issue: `error: message (path)`."""
    for issue in issues:
        # A message that already names its file (`file:line: …`) needs no `(file)` after it.
        named = issue.path and issue.path not in issue.message
        where = f" [dim]({escape(issue.path)})[/]" if named and issue.path else ""
        style = _STYLE[issue.severity]
        console.print(f"[{style}]{issue.severity}[/]: {escape(issue.message)}{where}")


def print_limited(console: Console, lines: list[str], options: GlobalOptions) -> None:
    """Print up to `--top` lines (all with `--full`), then how many were left out."""
    limit = options.row_limit
    shown = lines if limit is None else lines[:limit]
    for line in shown:
        console.print(line)
    if len(shown) < len(lines):
        console.print(f"[dim]… {len(lines) - len(shown)} more (--full shows all)[/]")
