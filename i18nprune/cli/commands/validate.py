"""Human output of `validate`."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from i18nprune.cli.globals import GlobalOptions
from i18nprune.cli.output import print_limited
from i18nprune.ops.suggestions import Suggestion
from i18nprune.ops.validate import ValidateData


def print_suggestions(out: Console, suggestions: list[Suggestion]) -> None:
    for suggestion in suggestions:
        out.print(f"[cyan]\\[tip][/] {escape(suggestion.message)}: [bold]{suggestion.command}[/]")


def render(data: ValidateData, out: Console, options: GlobalOptions) -> None:
    dynamic = data.dynamic
    out.print(
        f"Scanned {data.files_scanned} file(s): {data.key_observations.count} key use(s), "
        f"{dynamic.active} dynamic site(s)"
        + (f", {dynamic.commented} commented" if dynamic.commented else "")
    )
    source = escape(data.locale_names.get(data.source_locale, data.source_locale))
    if data.missing:
        out.print(f"[red]{data.count} key(s) missing from `{source}`:[/]")
        print_limited(out, [f"  {escape(key)}" for key in data.missing], options)
    else:
        out.print(f"[green]All literal keys exist in `{source}`.[/]")
    print_suggestions(out, data.suggestions)
