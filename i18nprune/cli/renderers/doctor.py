"""Human output of `doctor`."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from i18nprune.cli.globals import GlobalOptions
from i18nprune.ops.doctor import DoctorData

_MARK = {"error": "[red]✗[/]", "warning": "[yellow]![/]", "info": "[red]✗[/]"}


def render(data: DoctorData, out: Console, options: GlobalOptions) -> None:
    for finding in data.findings:
        mark = "[green]✓[/]" if finding.ok else _MARK[finding.severity]
        out.print(f"{mark} {escape(finding.title)}: {escape(finding.detail)}")
