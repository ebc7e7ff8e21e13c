"""Where the CLI's output goes: the JSON document on stdout, people's text on the consoles."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, TextIO, cast

import msgspec

from i18nprune.cli.globals import GlobalOptions
from i18nprune.envelope import Envelope, Issue
from i18nprune.system.descriptors import write_stream_all

if TYPE_CHECKING:
    from rich.console import Console

_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
# What makes rich take a stream for a terminal although it is not a TTY.
_TERMINAL_VARIABLES = ("FORCE_COLOR", "TTY_COMPATIBLE")


def consoles(options: GlobalOptions) -> tuple[Console, Console]:
    """(report, diagnostics): under --json and --format sarif the report is stderr too, so
    stdout holds only the document.

    `--no-color` or a non-empty `NO_COLOR` turns off every style, bold and dim included. Each
    console is made the first time it is used (see `_Deferred`).
    """
    plain = options.no_color or bool(os.environ.get("NO_COLOR"))
    style: dict[str, Any] = {"color_system": None} if plain else {}
    err = _Deferred(partial(_console, True, style), sys.stderr)
    out = err if options.document_output else _Deferred(partial(_console, False, style), sys.stdout)
    return cast("Console", out), cast("Console", err)


def rich_console(console: Console) -> Console:
    """The rich Console itself behind one of `consoles()` (for rich APIs that take one)."""
    return console.made() if isinstance(console, _Deferred) else console


def _console(stderr: bool, style: dict[str, Any]) -> Console:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True, **style)


class _Deferred:
    """A rich Console made the first time it is used: a run that prints nothing on a console
    (`--json` piped, the common case in CI and in benchmarks) never imports rich. Whether it
    is a terminal is answered without rich when rich would certainly say no: the stream is
    not a TTY and no variable forces a terminal."""

    def __init__(self, make: Callable[[], Console], stream: TextIO) -> None:
        self._make = make
        self._stream = stream
        self._console: Console | None = None

    @property
    def is_terminal(self) -> bool:
        """As rich's `Console.is_terminal`."""
        if self._console is None and not _may_be_terminal(self._stream):
            return False
        return self.made().is_terminal

    def made(self) -> Console:
        """The console, made now if it was not yet."""
        if self._console is None:
            self._console = self._make()
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.made(), name)


def _may_be_terminal(stream: TextIO) -> bool:
    if any(name in os.environ for name in _TERMINAL_VARIABLES):
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no such method, or closed: rich says no too
        return False


def write_json(envelope: Envelope, compact: bool) -> None:
    """Print the envelope as one JSON document (pretty unless `compact`)."""
    encoded = msgspec.json.encode(envelope)
    if not compact:
        encoded = msgspec.json.format(encoded, indent=2)
    write_stream_all(sys.stdout.buffer, encoded + b"\n")  # whole, even when unbuffered
    sys.stdout.flush()


def write_document(document: object) -> None:
    """Print any JSON-able document (the SARIF log) on stdout, indented."""
    encoded = msgspec.json.format(msgspec.json.encode(document), indent=2)
    write_stream_all(sys.stdout.buffer, encoded + b"\n")
    sys.stdout.flush()


def print_issues(console: Console, issues: list[Issue]) -> None:
    """One line an issue: `error: message (path)`."""
    from rich.markup import escape

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
