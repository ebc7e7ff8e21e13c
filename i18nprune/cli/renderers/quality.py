"""Human output of `quality`."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from i18nprune.cli.globals import GlobalOptions
from i18nprune.cli.output import print_limited
from i18nprune.ops.quality import QualityData

_STYLE = {"error": "red", "warning": "yellow", "info": "dim"}


def render(data: QualityData, out: Console, options: GlobalOptions) -> None:
    if not data.targets:
        out.print("no target locale to check")
        return
    for row in data.targets:
        found = [finding for finding in data.findings if finding.target == row.target]
        counts = f"{row.errors} error(s), {row.warnings} warning(s), {row.infos} note(s)"
        name = escape(data.locale_names.get(row.target, row.target))
        out.print(f"[bold]{name}[/]: {row.checked_leaves} leaf(s) checked, {counts}")
        lines = [
            f"  [{_STYLE[f.severity]}]{f.severity:<7}[/] {escape(f.path)}  "
            f"[dim]{f.kind}:[/] {escape(f.message)}"
            for f in found
        ]
        print_limited(out, lines, options)
