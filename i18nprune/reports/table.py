"""The report's keys as CSV: one row per key and place, for a spreadsheet or a diff.

Compared with a baseline, a `change` column says which rows are `new` in their status, and a
row for each key no longer in one says `resolved` (a workspace's gone project: a row saying
`project removed`)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator

from i18nprune.ops.report import KeyRow, ReportData, WorkspaceChanges

COLUMNS = ("status", "key", "locale", "file", "line", "detail")


def render_csv(data: ReportData) -> str:
    """A header row, then every key of the report in the document's order (and, compared
    with a baseline, the keys resolved since, after them)."""
    if data.changes is None:
        return _table(COLUMNS, (_cells(row) for row in data.keys))
    return _table((*COLUMNS, "change"), _compared(data))


def render_workspace_csv(
    projects: list[tuple[str, ReportData | None, list[str]]],
    changes: WorkspaceChanges | None = None,
) -> str:
    """Every project's keys, each row led by the project's folder (a failed project has
    none); compared with a baseline, with `render_csv`'s `change` column."""
    if changes is None:
        rows = (
            [rel, *_cells(row)]
            for rel, data, _ in projects
            if data is not None
            for row in data.keys
        )
        return _table(("project", *COLUMNS), rows)
    gone: list[list[object]] = [
        [rel, "", "", "", "", "", "", "project removed"] for rel in changes.removed_projects
    ]
    compared = (
        [rel, *cells]
        for rel, data, _ in projects
        if data is not None
        for cells in (_compared(data) if data.changes is not None else _unchanged(data))
    )
    return _table(("project", *COLUMNS, "change"), [*gone, *compared])


def _compared(data: ReportData) -> Iterator[list[object]]:
    """`data`'s rows with their `change`, then a row for each key resolved since."""
    assert data.changes is not None
    newly = {(status, key) for status, keys in data.changes.newly.items() for key in keys}
    for row in data.keys:
        yield [*_cells(row), "new" if (row.status, row.key) in newly else ""]
    for status, keys in data.changes.resolved.items():
        for key in keys:
            yield [status, key, "", "", "", "", "resolved"]


def _unchanged(data: ReportData) -> Iterator[list[object]]:
    """`data`'s rows, not compared with anything (an empty `change`)."""
    return ([*_cells(row), ""] for row in data.keys)


def _cells(row: KeyRow) -> list[object]:
    """`row` in the order of `COLUMNS` (an absent locale, file or line: empty)."""
    return [row.status, row.key, row.locale or "", row.file or "", row.line or "", row.detail]


def _table(header: Iterable[str], rows: Iterable[list[object]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()
