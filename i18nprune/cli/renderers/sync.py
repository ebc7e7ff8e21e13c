"""Human output of `sync`."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from i18nprune.cli.globals import GlobalOptions
from i18nprune.cli.output import print_limited
from i18nprune.cli.renderers.validate import print_suggestions, twin_lines
from i18nprune.locales.editor import FileChange
from i18nprune.ops.sync import SyncData


def change_lines(files: list[FileChange], dry_run: bool) -> list[str]:
    verb = "would change" if dry_run else "changed"
    return [
        f"  {escape(change.path)}: +{change.added} -{change.removed}"
        + (f"  [yellow]{verb}[/]" if change.changed else "  [dim]unchanged[/]")
        for change in files
    ]


def render(data: SyncData, out: Console, options: GlobalOptions) -> None:
    changed = sum(1 for change in data.files if change.changed)
    prefix = "\\[dry run] " if data.dry_run else ""
    out.print(f"{prefix}{changed} of {len(data.files)} target file(s) out of sync")
    print_limited(out, change_lines(data.files, data.dry_run), options)
    kept = [pair for pair in data.near_twins if pair.twin_unused]
    if kept:
        out.print(f"[yellow]kept in the targets: {len(kept)} near twin(s) of missing keys:[/]")
        print_limited(out, twin_lines(kept), options)
    if data.written_files:
        out.print(f"[green]wrote {len(data.written_files)} file(s)[/]")
    print_suggestions(out, data.suggestions)
