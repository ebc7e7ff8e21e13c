"""Where `report` goes: a page, CSV, text or the JSON envelope, on stdout or into `--out`.

The format is `--format` when given, else the `--out` file's extension (`.html`, `.csv`,
`.json`; anything else is text), else text on the terminal. A file is written atomically
(`system.atomic`), its missing folders made first: a killed run leaves the old report or the
new one, never half of either."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import msgspec

from i18nprune.cli.globals import GlobalOptions
from i18nprune.cli.output import print_issues, write_json
from i18nprune.envelope import Envelope
from i18nprune.system.atomic import write_atomically

_EXTENSIONS = {".html": "html", ".htm": "html", ".csv": "csv", ".json": "json"}


class ReportOutputError(Exception):
    """`--out` names a file that cannot be written (the message says which and why)."""


def report_format(options: GlobalOptions, out: str | None) -> str:
    """The format `report` writes: `--format`, else `--out`'s extension, else text."""
    if options.format != "text" or out is None:
        return options.format
    return _EXTENSIONS.get(Path(out).suffix.lower(), "text")


def emit_report(
    envelope: Envelope,
    options: GlobalOptions,
    out: str | None,
    root: Path | None,
    consoles: tuple[Any, Any],
) -> None:
    """Print or write `envelope` (a `report` envelope of the project at `root`) as
    `report_format` says. Raises ReportOutputError when `out` cannot be written."""
    from i18nprune.ops.report import ReportData

    _, err = consoles
    chosen = report_format(options, out)
    data = envelope.data
    if chosen != "json" and data is not None and not isinstance(data, ReportData):
        text = _workspace_text(data, chosen, out, root, options)
        _deliver(text, chosen, out, err)
        print_issues(err, envelope.issues)
        return
    if chosen == "json" or not isinstance(data, ReportData):
        if out is None or data is None:
            if chosen == "json":
                write_json(envelope, options.json_compact)
            print_issues(err, envelope.issues)
            return
        _write(Path(out), msgspec.json.format(msgspec.json.encode(envelope), indent=2) + b"\n")
        err.print(f"wrote {out}")
        return
    if chosen == "html":
        from i18nprune.reports.page import render_page

        text = render_page(data, _link_base(out, root))
    elif chosen == "csv":
        from i18nprune.reports.table import render_csv

        text = render_csv(data)
    else:
        from i18nprune.reports.text import render_text

        text = render_text(data, None if (options.full or out is not None) else options.top)
    _deliver(text, chosen, out, err)
    print_issues(err, envelope.issues)


def _deliver(text: str, chosen: str, out: str | None, err: Any) -> None:
    """`text` on stdout, or written to `out`."""
    if out is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        _write(Path(out), text.encode())
        err.print(f"wrote {out} ({chosen})")


def _workspace_text(
    run: Any, chosen: str, out: str | None, root: Path | None, options: GlobalOptions
) -> str:
    """A workspace run's reports (`fanout.WorkspaceRun`) as one page, CSV or text: every
    project's document, a failed project by its errors."""
    from i18nprune.ops.report import ReportData, WorkspaceChanges

    changes = run.changes if isinstance(run.changes, WorkspaceChanges) else None
    projects = [
        (
            outcome.root,
            outcome.data if isinstance(outcome.data, ReportData) else None,
            [issue.message for issue in outcome.issues if issue.severity == "error"],
        )
        for outcome in run.projects
    ]
    name = root.name if root is not None else "workspace"
    if chosen == "html":
        from i18nprune.reports.page import render_workspace_page

        return render_workspace_page(name, projects, _link_base(out, root), changes)
    if chosen == "csv":
        from i18nprune.reports.table import render_workspace_csv

        return render_workspace_csv(projects, changes)
    from i18nprune.reports.text import render_text, render_workspace_changes

    limit = None if (options.full or out is not None) else options.top
    parts = [f"{name}: {len(projects)} project(s) \u2014 i18nprune report\n"]
    if changes is not None:
        parts.append(render_workspace_changes(changes, [rel for rel, _, _ in projects]))
    for rel, data, errors in projects:
        parts.append(f"── {rel}\n")
        parts.append(
            render_text(data, limit) if data is not None else f"failed: {'; '.join(errors)}\n"
        )
    return "".join(parts)


def _link_base(out: str | None, root: Path | None) -> str:
    """The path from the page's folder to the project root (file links start there)."""
    if out is None or root is None:
        return ""
    folder = os.path.dirname(os.path.abspath(out))
    relative = os.path.relpath(os.path.realpath(root), os.path.realpath(folder))
    return "" if relative == "." else relative.replace(os.sep, "/")


def _write(target: Path, content: bytes) -> None:
    """Write `content` to `target` atomically, making its missing folders first (a CI job's
    `artifacts/report.html`)."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(target, content)
    except OSError as exc:
        raise ReportOutputError(
            f"{target}: cannot write the report ({exc.strerror or exc}); choose another --out"
        ) from exc
