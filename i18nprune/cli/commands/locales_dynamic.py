"""Human output of `locales dynamic`."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from i18nprune.cli.globals import GlobalOptions
from i18nprune.cli.output import print_limited
from i18nprune.ops.locales_dynamic import LocalesDynamicData


def render(data: LocalesDynamicData, out: Console, options: GlobalOptions) -> None:
    out.print(
        f"{data.active} dynamic site(s)"
        + (f", {data.commented} commented" if data.commented else "")
        + (f"; protected prefixes: {', '.join(data.prefixes)}" if data.prefixes else "")
    )
    lines = [
        f"  {site.file}:{site.line}:{site.column}  [dim]{site.kind}[/]"
        f"  prefix={site.prefix or '-'}  {escape(site.preview)}"
        for site in data.sites
    ]
    print_limited(out, lines, options)
