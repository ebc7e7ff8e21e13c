"""Human output of `languages`."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from i18nprune.cli.globals import GlobalOptions
from i18nprune.cli.output import print_limited
from i18nprune.locales.catalog import LanguageRow


def render(data: list[LanguageRow], out: Console, options: GlobalOptions) -> None:
    lines = [
        f"{row.code:<12} {escape(row.english)} — {escape(row.native)}"
        f"  [dim]{row.direction}, plurals: {' '.join(row.plurals)}[/]"
        for row in data
    ]
    print_limited(out, lines, options)
