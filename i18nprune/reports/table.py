"""The report's keys as CSV: one row per key and place, for a spreadsheet or a diff."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from i18nprune.ops.report import KeyRow, ReportData

COLUMNS = ("status", "key", "locale", "file", "line", "detail")


def render_csv(data: ReportData) -> str:
    """A header row, then every key of the report in the document's order."""
    return _table(COLUMNS, (_cells(row) for row in data.keys))


def render_workspace_csv(projects: list[tuple[str, ReportData | None, list[str]]]) -> str:
    """Every project's keys, each row led by the project's folder (a failed project has
    none)."""
    rows = (
        [rel, *_cells(row)] for rel, data, _ in projects if data is not None for row in data.keys
    )
    return _table(("project", *COLUMNS), rows)


def _cells(row: KeyRow) -> list[object]:
    """`row` in the order of `COLUMNS` (an absent locale, file or line: empty)."""
    return [row.status, row.key, row.locale or "", row.file or "", row.line or "", row.detail]


def _table(header: Iterable[str], rows: Iterable[list[object]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()
