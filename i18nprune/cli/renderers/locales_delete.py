"""Human output of `locales delete`."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from i18nprune.cli.globals import GlobalOptions
from i18nprune.cli.output import print_limited
from i18nprune.ops.locales_delete import LocalesDeleteData


def render(data: LocalesDeleteData, out: Console, options: GlobalOptions) -> None:
    names = ", ".join(data.locale_names.get(code, code) for code in data.targets)
    out.print(f"{len(data.files)} file(s) of {names or 'no locale'}")
    print_limited(out, [f"  {escape(path)}" for path in data.files], options)
    if data.deleted:
        out.print(f"[green]deleted {len(data.deleted)} file(s)[/]")
