"""Human output of `languages`."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from i18nprune.cli.globals import GlobalOptions
from i18nprune.cli.output import print_limited
from i18nprune.locales.catalog import LanguageRow

# Longer names overflow their column rather than push every row's details far right.
_NAME_COLUMN = 44


def render(data: list[LanguageRow], out: Console, options: GlobalOptions) -> None:
    code_width = max((len(row.code) for row in data), default=0)
    names = [len(f"{row.english} — {row.native}") for row in data]
    name_width = min(max(names, default=0), _NAME_COLUMN)
    lines = [
        f"{row.code:<{code_width}}  {escape(f'{row.english} — {row.native}'):<{name_width}}"
        f"  [dim]{row.direction}, plurals: {' '.join(row.plurals)}[/]"
        for row in data
    ]
    print_limited(out, lines, options)
