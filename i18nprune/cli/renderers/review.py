"""Human output of `review`."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from i18nprune.cli.globals import GlobalOptions
from i18nprune.cli.output import print_limited
from i18nprune.ops.review import ReviewData


def render(data: ReviewData, out: Console, options: GlobalOptions) -> None:
    names = data.locale_names
    where = ", ".join(names.get(code, code) for code in data.targets) or "no target locale"
    out.print(f"{len(data.marks)} leaf(s) marked needsReview in {where}")
    lines = [
        f"  {'[green]✓[/] ' if mark.selected else ''}{names.get(mark.target, mark.target)} "
        f"{escape(mark.path)}  "
        f"[dim]{escape(mark.value)}[/]"
        for mark in data.marks
    ]
    print_limited(out, lines, options)
    if data.accepted:
        out.print(f"[green]accepted {data.accepted} mark(s)[/]")
    elif data.would_accept and data.dry_run:
        out.print(f"would accept {data.would_accept} mark(s) (dry run)")
