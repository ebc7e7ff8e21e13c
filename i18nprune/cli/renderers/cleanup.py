"""Human output of `cleanup`."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from i18nprune.cli.globals import GlobalOptions
from i18nprune.cli.output import print_limited
from i18nprune.cli.renderers.validate import twin_lines
from i18nprune.ops.cleanup import CleanupData
from i18nprune.ops.shared.evidence_report import NamedKey


def render(data: CleanupData, out: Console, options: GlobalOptions) -> None:
    where = ", ".join(data.locale_names.get(code, code) for code in data.targets)
    out.print(f"{data.would_remove} unused key(s) in {where}")
    print_limited(out, [f"  {escape(key)}" for key in data.keys], options)
    if data.near_twins:
        out.print(
            f"[yellow]kept {len(data.near_twins)} near twin(s) of missing keys "
            "(rename them to the code's key, or change the code):[/]"
        )
        print_limited(out, twin_lines(data.near_twins), options)
    if data.uncertain_prefixes:
        prefixes = escape(", ".join(data.uncertain_prefixes))
        out.print(f"[dim]kept under dynamic prefixes: {prefixes}[/]")
    if data.uncertain_suffixes:
        suffixes = escape(", ".join(data.uncertain_suffixes))
        out.print(f"[dim]kept by dynamic suffixes: {suffixes}[/]")
    if data.named_in_messages:
        out.print("[dim]kept, named inside the message of a used key:[/]")
        print_limited(out, [_named(entry) for entry in data.named_in_messages], options)
    if data.removed:
        out.print(f"[green]removed {data.removed} key(s)[/]")


def _named(entry: NamedKey) -> str:
    first = entry.sites[0] if entry.sites else None
    where = f" (in {first.message}, {first.file}:{first.line})" if first is not None else ""
    more = f" and {len(entry.sites) - 1} more" if len(entry.sites) > 1 else ""
    return f"  {escape(entry.key)}{escape(where)}{more}"
