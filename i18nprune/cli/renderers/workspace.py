"""Human output of `workspace list`."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from i18nprune.cli.globals import GlobalOptions
from i18nprune.cli.output import print_limited
from i18nprune.ops.workspace import WorkspaceData


def render(data: WorkspaceData, out: Console, options: GlobalOptions) -> None:
    found_by = data.workspace_file or (
        "discovery (no workspace file, no i18nprune config)"
        if data.discovered
        else "their config files"
    )
    out.print(f"{len(data.projects)} project(s), listed by {escape(found_by)}:")
    width = max(len(project.root) for project in data.projects)
    lines = []
    for project in data.projects:
        config = escape(project.config_path) if project.config_path else "[dim]no config[/]"
        if project.source is None:
            locales = "[red]cannot be opened[/]"
        else:
            names = project.locale_names
            others = [names.get(code, code) for code in project.locales if code != project.source]
            locales = f"source `{names.get(project.source, project.source)}`" + (
                f", targets {', '.join(others)}" if others else ""
            )
        lines.append(f"  {escape(project.root):<{width}}  {locales}  [dim]{config}[/]")
    print_limited(out, lines, options)
