"""Human output of `cleanup`."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from i18nprune.cli.commands.validate import twin_lines
from i18nprune.cli.globals import GlobalOptions
from i18nprune.cli.output import print_limited
from i18nprune.ops.cleanup import CleanupData


def render(data: CleanupData, out: Console, options: GlobalOptions) -> None:
    where = ", ".join(data.targets)
    out.print(f"{data.would_remove} unused key(s) in {where}")
    print_limited(out, [f"  {escape(key)}" for key in data.keys], options)
    if data.near_twins:
        out.print(
            f"[yellow]kept {len(data.near_twins)} near twin(s) of missing keys "
            "(rename them to the code's key, or change the code):[/]"
        )
        print_limited(out, twin_lines(data.near_twins), options)
    if data.uncertain_prefixes:
        out.print(f"[dim]kept under dynamic prefixes: {', '.join(data.uncertain_prefixes)}[/]")
    if data.removed:
        out.print(f"[green]removed {data.removed} key(s)[/]")
