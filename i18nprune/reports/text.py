"""The report as plain text: what a terminal or a `.txt` artifact shows."""

from __future__ import annotations

from i18nprune.ops.report import ReportData


def percent(value: float) -> str:
    """`87.5 %`, `100 %`: one decimal unless whole."""
    shown = round(value * 100, 1)
    return f"{shown:g} %"


def render_text(data: ReportData, limit: int | None = 20) -> str:
    """The summary, each locale's coverage, the changes, then up to `limit` keys (all: None)."""
    counts = data.counts
    lines = [
        f"{data.project}: {counts.source_keys} source keys ({data.source_locale}), "
        f"{counts.files_scanned} files scanned — {data.tool}, {data.generated_at}",
        f"missing {counts.missing} · unused "
        + ("not judged (cleanup refused)" if counts.cleanup_refused else str(counts.unused))
        + f" · stale {counts.stale} · needs review {counts.needs_review}"
        f" · quality {counts.quality_errors} error(s), {counts.quality_warnings} warning(s)"
        f" · dynamic sites {counts.dynamic}",
        "",
        "coverage:",
    ]
    width = max((len(row.locale) for row in data.locales), default=0)
    for row in data.locales:
        role = " (source)" if row.source else ""
        lines.append(
            f"  {row.locale:<{width}}  {percent(row.coverage):>7}  "
            f"{row.translated}/{row.leaves}{role}"
        )
    if data.changes is not None:
        lines += ["", f"since {data.changes.baseline_generated_at}:"]
        for status, keys in data.changes.newly.items():
            lines.append(f"  newly {status}: {len(keys)} ({', '.join(keys[:5])})")
        for status, keys in data.changes.resolved.items():
            lines.append(f"  no longer {status}: {len(keys)}")
        for change in data.changes.coverage:
            before = "—" if change.before is None else percent(change.before)
            after = "—" if change.after is None else percent(change.after)
            lines.append(f"  coverage {change.locale}: {before} → {after}")
        if not (data.changes.newly or data.changes.resolved or data.changes.coverage):
            lines.append("  nothing changed")
    shown = data.keys if limit is None else data.keys[:limit]
    if shown:
        lines += ["", "keys:"]
    for key in shown:
        place = f"{key.file}:{key.line}" if key.file and key.line else (key.file or "")
        where = f" [{key.locale}]" if key.locale else ""
        lines.append(f"  {key.status:<11} {key.key}{where}  {place}  {key.detail}".rstrip())
    if len(shown) < len(data.keys):
        lines.append(f"  … and {len(data.keys) - len(shown)} more (--full lists every key)")
    for note in data.notes:
        lines.append(f"{note.severity} ({note.op}): {note.message}")
    return "\n".join(lines) + "\n"
