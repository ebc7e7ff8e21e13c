"""Human output of `locales dynamic`."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from i18nprune.cli.globals import GlobalOptions
from i18nprune.cli.output import print_limited
from i18nprune.ops.locales_dynamic import LocalesDynamicData
from i18nprune.scan import DynamicSite


def render(data: LocalesDynamicData, out: Console, options: GlobalOptions) -> None:
    out.print(
        f"{data.active} dynamic site(s)"
        + (f", {data.commented} commented" if data.commented else "")
        + (f"; protected prefixes: {escape(', '.join(data.prefixes))}" if data.prefixes else "")
        + (f"; protected suffixes: {escape(', '.join(data.suffixes))}" if data.suffixes else "")
    )
    lines = [
        f"  {site.file}:{site.line}:{site.column}  [dim]{site.kind}[/]"
        f"  {escape(_reached(site))}  {escape(site.preview)}"
        for site in data.sites
    ]
    print_limited(out, lines, options)


def _reached(site: DynamicSite) -> str:
    if site.suffix:
        return f"suffix={site.suffix}"
    return f"prefix={site.prefix or '-'}"
