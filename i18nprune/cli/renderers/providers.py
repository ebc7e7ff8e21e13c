"""Human output of `providers`."""

from __future__ import annotations

import msgspec
from rich.console import Console
from rich.markup import escape

from i18nprune.cli.globals import GlobalOptions
from i18nprune.ops.providers import ProvidersData


def render(data: ProvidersData, out: Console, options: GlobalOptions) -> None:
    for row in data.providers:
        key = "API key required" if row.needs_api_key else "no key needed"
        out.print(f"[bold]{row.id}[/]  {escape(row.label)}  [dim]({row.kind}, {key})[/]")
        defaults = row.defaults
        rate = f", {defaults.rps:g} req/s" if defaults.rps else ""
        out.print(
            f"  batch {defaults.batch_size} (max {row.batch_limit}), "
            f"{defaults.max_concurrency} concurrent{rate}, timeout {defaults.timeout_seconds:g}s"
        )
        if defaults.base_url:
            out.print(f"  url: {escape(defaults.base_url)}")
        if row.env_vars:
            out.print(f"  env: {', '.join(row.env_vars)}")
        out.print(f"  config: {', '.join(row.config_keys)}")
        for option in row.options:
            shape = f"{option.accepts}, or per target" if option.per_target else option.accepts
            out.print(f"  [bold]{option.key}[/] ({escape(shape)}): {escape(option.description)}")
            out.print(f"    e.g. {escape(msgspec.json.encode(option.example).decode())}")
        if row.reads_descriptions:
            out.print("  sends each text's key paths and description (*.meta.json, // i18n:)")
    out.print("")
    for line in data.merge_precedence:
        out.print(f"[dim]{escape(line)}[/]")
