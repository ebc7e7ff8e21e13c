"""Human output of `missing`."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from i18nprune.cli.globals import GlobalOptions
from i18nprune.cli.output import print_limited
from i18nprune.cli.renderers.validate import twin_lines
from i18nprune.ops.missing import MissingData


def render(data: MissingData, out: Console, options: GlobalOptions) -> None:
    names = data.locale_names
    where = ", ".join(names.get(code, code) for code in data.targets) or "no locale"
    out.print(f"{len(data.paths)} missing key(s) for {where}")
    print_limited(
        out,
        [
            f"  {escape(path)}"
            + (f" {escape(repr(data.messages[path]))}" if path in data.messages else "")
            for path in data.paths
        ],
        options,
    )
    renamed = [pair for pair in data.near_twins if pair.twin_unused]
    if renamed:
        out.print(
            f"[yellow]not added: {len(renamed)} key(s) with an unused near twin holding their "
            "translations (rename the twin, or change the code):[/]"
        )
        print_limited(out, twin_lines(renamed), options)
    if data.skipped_targets:
        skipped = ", ".join(names.get(code, code) for code in data.skipped_targets)
        out.print(f"[yellow]skipped: {skipped}[/]")
    if data.paths_added:
        out.print(f"[green]added {data.paths_added} placeholder(s)[/]")
