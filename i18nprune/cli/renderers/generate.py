"""Human output of `generate`: one summary row per target."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from i18nprune.cli.globals import GlobalOptions
from i18nprune.cli.output import print_limited
from i18nprune.ops.generate import GenerateData

_STATUS_STYLE = {
    "written": "green",
    "dry_run": "cyan",
    "skipped": "dim",
    "failed": "bold red",
    "sharded": "cyan",
}


def render(data: GenerateData, out: Console, options: GlobalOptions) -> None:
    if not data.target_results:
        return  # the run stopped before planning: its issues say why
    prefix = "\\[dry run] " if data.dry_run else ""
    out.print(
        f"{prefix}{data.leaves_processed} leaf(s) to fill in {len(data.targets)} target(s) "
        f"with {escape(data.provider_id or '-')}"
    )
    table = Table(box=None, pad_edge=False, header_style="bold")
    columns = ("target", "status", "template", "written", "cached", "failed", "stale", "time")
    for column in columns:
        table.add_column(column, justify="left" if column in ("target", "status") else "right")
    for result in data.target_results:
        style = _STATUS_STYLE[result.status]
        status = result.status + (" (partial)" if result.partial else "")
        table.add_row(
            escape(data.locale_names.get(result.target, result.target)),
            f"[{style}]{status}[/]",
            str(result.source_leaf_count),
            str(result.translated_leaf_count),
            str(result.cached_leaf_count),
            str(result.failed_leaf_count),
            _stale_cell(result.stale_leaf_count, result.retranslated_leaf_count, data.dry_run),
            f"{result.duration_ms / 1000:.1f}s",
        )
    out.print(table)
    fleet = data.fleet
    if fleet is not None:
        shard = f"shard {fleet.shard}, nothing written; " if fleet.shard else ""
        out.print(
            f"shared memory {escape(fleet.memory)}: {shard}{fleet.sent} text(s) sent, "
            f"{fleet.shared_hits} found in the fleet's memory, {fleet.received} received from "
            "other members"
        )
    written = [path for result in data.target_results for path in result.output_paths]
    if data.lock_file is not None:  # what was machine-translated, for the next run
        written.append(data.lock_file)
    print_limited(out, [f"  [green]wrote[/] {escape(path)}" for path in written], options)


def _stale_cell(stale: int, retranslated: int, dry_run: bool) -> str:
    """Stale leaves found, and how many of them were re-translated (the others were kept)."""
    if not stale or dry_run:
        return str(stale)
    kept = stale - retranslated
    return f"{stale} ({retranslated} redone)" if not kept else f"[yellow]{stale} ({kept} kept)[/]"
