"""Human output of `validate`."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from i18nprune.cli.globals import GlobalOptions
from i18nprune.cli.output import print_limited
from i18nprune.ops.shared.near_twins import NearTwinPair, SourceRange
from i18nprune.ops.shared.suggestions import Suggestion
from i18nprune.ops.validate import ValidateData


def print_suggestions(out: Console, suggestions: list[Suggestion]) -> None:
    for suggestion in suggestions:
        out.print(f"[cyan]\\[tip][/] {escape(suggestion.message)}: [bold]{suggestion.command}[/]")


SITES_SHOWN = 3
"""Where each missing key is used: its first sites (`--full`: all)."""


def used_at(sites: list[SourceRange], options: GlobalOptions) -> str:
    """`  [dim](src/app.tsx:12, src/b.ts:3, +2 more)[/]`, or nothing without a site."""
    if not sites:
        return ""
    shown = sites if options.full else sites[:SITES_SHOWN]
    places = [f"{site.file}:{site.line}" for site in shown]
    if len(shown) < len(sites):
        places.append(f"+{len(sites) - len(shown)} more")
    return f"  [dim]({escape(', '.join(places))})[/]"


def twin_lines(twins: list[NearTwinPair]) -> list[str]:
    """Each near twin on one line: the code's key, the source's twin, where the code uses it,
    and what to do."""
    lines = []
    for pair in twins:
        site = pair.sites[0]
        state = "unused" if pair.twin_unused else "used elsewhere"
        fix = "rename the twin or change the code" if pair.twin_unused else "change the code?"
        lines.append(
            f"  {escape(pair.key)} [dim]→[/] {escape(pair.twin)} [dim]({state}; "
            f"{escape(site.file)}:{site.line}; {fix})[/]"
        )
    return lines


def render(data: ValidateData, out: Console, options: GlobalOptions) -> None:
    dynamic = data.dynamic
    out.print(
        f"Scanned {data.files_scanned} file(s): {data.key_observations.count} key use(s), "
        f"{dynamic.active} dynamic site(s)"
        + (f", {dynamic.commented} commented" if dynamic.commented else "")
    )
    source = escape(data.locale_names.get(data.source_locale, data.source_locale))
    for reason in data.not_read:
        out.print(f"[red]Not read: {escape(reason)}.[/]")
    if data.not_read and not data.missing:
        out.print("[red]No key was compared.[/]")
    elif data.missing:
        out.print(f"[red]{data.count} key(s) missing from `{source}`:[/]")
        twinned = {pair.key for pair in data.near_twins}
        alone = [
            f"  {escape(key)}"
            + (f" {escape(repr(data.messages[key]))}" if key in data.messages else "")
            + used_at(data.missing_sites.get(key, []), options)
            for key in data.missing
            if key not in twinned
        ]
        print_limited(out, alone, options)
        if data.near_twins:
            out.print(f"[yellow]{len(data.near_twins)} of them with a near twin in the source:[/]")
            print_limited(out, twin_lines(data.near_twins), options)
    else:
        out.print(f"[green]All literal keys exist in `{source}`.[/]")
    print_suggestions(out, data.suggestions)
