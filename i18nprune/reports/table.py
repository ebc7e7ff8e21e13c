"""The report's keys as CSV: one row per key and place, for a spreadsheet or a diff."""

from __future__ import annotations

import csv
import io

from i18nprune.ops.report import ReportData

COLUMNS = ("status", "key", "locale", "file", "line", "detail")


def render_csv(data: ReportData) -> str:
    """A header row, then every key of the report in the document's order."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in data.keys:
        writer.writerow(
            [row.status, row.key, row.locale or "", row.file or "", row.line or "", row.detail]
        )
    return buffer.getvalue()


def render_workspace_csv(projects: list[tuple[str, ReportData | None, list[str]]]) -> str:
    """Every project's keys, each row led by the project's folder (a failed project has
    none)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(("project", *COLUMNS))
    for rel, data, _ in projects:
        for row in data.keys if data is not None else []:
            place = [row.locale or "", row.file or "", row.line or ""]
            writer.writerow([rel, row.status, row.key, *place, row.detail])
    return buffer.getvalue()
