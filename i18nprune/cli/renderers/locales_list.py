"""Human output of `locales list`."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from i18nprune.cli.globals import GlobalOptions
from i18nprune.cli.output import print_limited
from i18nprune.ops.locales_list import LocalesListData


def render(data: LocalesListData, out: Console, options: GlobalOptions) -> None:
    source = next((row.name for row in data.locales if row.is_source), data.source)
    out.print(f"{data.locales_dir}: {len(data.locales)} locale(s), source `{escape(source)}`")
    lines = []
    for row in data.locales:
        role = (
            "[bold]source[/]"
            if row.is_source
            else (f"{row.missing_from_source} source key(s) absent, {row.extra} not in the source")
        )
        placeholders = f", {row.placeholders} placeholder(s)" if row.placeholders else ""
        if row.unreadable:
            role += f"; [bold red]does not parse[/]: {escape(', '.join(row.unreadable))}"
        lines.append(
            f"  {row.name:<10} {row.keys} key(s){placeholders} in {len(row.files)} file(s)  {role}"
        )
        lines.extend(f"    [dim]{escape(path)}[/]" for path in row.files if options.full)
    print_limited(out, lines, options)
    if any(not row.is_source for row in data.locales):
        out.print(
            "[dim]Counts compare with every source key; `sync` adds only the keys the code "
            "uses (its template).[/]"
        )
