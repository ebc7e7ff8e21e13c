"""The report as plain text: what a terminal or a `.txt` artifact shows."""

from __future__ import annotations

from i18nprune.ops.report import Changes, CoverageChange, ReportData, WorkspaceChanges


def percent(value: float) -> str:
    """`87.5 %`, `100 %`: one decimal unless whole."""
    shown = round(value * 100, 1)
    return f"{shown:g} %"


def coverage_move(change: CoverageChange) -> str:
    """`up: 60 % → 80 %` (`—` where the locale was not, or is no more)."""
    before = "—" if change.before is None else percent(change.before)
    after = "—" if change.after is None else percent(change.after)
    then, now = change.before or 0, change.after or 0
    direction = "up" if now > then else "down" if now < then else "changed"
    return f"{direction}: {before} → {after}"


def change_summary(changes: Changes) -> str:
    """One line of a project's changes: `newly missing 1 · no longer unused 2 · fr up: …`."""
    phrases = [f"newly {status} {len(keys)}" for status, keys in changes.newly.items()]
    phrases += [f"no longer {status} {len(keys)}" for status, keys in changes.resolved.items()]
    phrases += [f"{change.locale} coverage {coverage_move(change)}" for change in changes.coverage]
    return " · ".join(phrases) or "nothing changed"


def render_workspace_changes(changes: WorkspaceChanges, roots: list[str]) -> str:
    """What changed across a workspace (of the projects at `roots`) since its baseline:
    the projects new, gone, compared and not (each project's changes are in its part)."""
    lines = [f"since {changes.baseline_generated_at}:"]
    if changes.new_projects:
        lines.append(f"  new project(s): {', '.join(changes.new_projects)}")
    if changes.removed_projects:
        lines.append(f"  removed project(s): {', '.join(changes.removed_projects)}")
    lines.append(f"  compared: {', '.join(changes.compared) or 'none'}")
    seen = {*changes.compared, *changes.new_projects}
    if others := [root for root in roots if root not in seen]:
        lines.append(f"  not compared (the baseline has no report of them): {', '.join(others)}")
    return "\n".join(lines) + "\n"


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
        if data.changes.new_project:
            lines.append("  new project: not in the baseline, every key is new")
        for status, keys in data.changes.newly.items():
            more = ", …" if len(keys) > 5 else ""
            lines.append(f"  newly {status}: {len(keys)} ({', '.join(keys[:5])}{more})")
        for status, keys in data.changes.resolved.items():
            lines.append(f"  no longer {status}: {len(keys)}")
        for change in data.changes.coverage:
            lines.append(f"  coverage {change.locale} {coverage_move(change)}")
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
