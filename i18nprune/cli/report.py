"""A finished run, printed in the chosen `--format`: people's text (per project in a workspace),
the JSON envelope, GitHub workflow commands or a SARIF log."""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from i18nprune.cli.formats import (
    Finding,
    ReportPlace,
    annotation_root,
    findings,
    github_commands,
    sarif_log,
    workspace_findings,
)
from i18nprune.cli.globals import GlobalOptions
from i18nprune.cli.output import print_issues, write_document, write_json
from i18nprune.envelope import Envelope, Issue, ProblemError
from i18nprune.project import Project, ProjectHandle
from i18nprune.workspace import Workspace

if TYPE_CHECKING:
    from rich.console import Console

    from i18nprune.fanout import WorkspaceRun

Renderer = Callable[[Any, "Console", GlobalOptions], None]
"""A command's `render(data, out, options)`: `data` is the envelope's data of that command's
kind (each renderer names its own type; the table below is looked up by kind, so here it is
any)."""
# Each command's people's text: the `render` of its module in `cli/commands/`, imported when it
# prints (so a command loads one renderer, and `--json` none).
_RENDERERS: dict[str, str] = {
    "config": "config",
    "doctor": "doctor",
    "validate": "validate",
    "languages": "languages",
    "locales.list": "locales_list",
    "locales.dynamic": "locales_dynamic",
    "missing": "missing",
    "providers": "providers",
    "sync": "sync",
    "generate": "generate",
    "cleanup": "cleanup",
    "locales.delete": "locales_delete",
    "workspace": "workspace",
    "quality": "quality",
    "review": "review",
    "init": "init",
}


def _renderer(kind: str) -> Renderer:
    """The function that prints the data of an envelope of `kind` for people."""
    module = importlib.import_module(f"i18nprune.cli.commands.{_RENDERERS[kind]}")
    return cast(Renderer, module.render)


@dataclass(frozen=True)
class Reported:
    """What a run is over: one project (`handle`), or every project of `workspace`."""

    handle: ProjectHandle
    workspace: Workspace | None


def emit(
    envelope: Envelope,
    options: GlobalOptions,
    reported: Reported,
    consoles: tuple[Any, Any],
    hide: str | None = None,
) -> None:
    """Print `envelope` as `options.format` asks; `hide` leaves one issue code out of people's
    text (the confirmation a prompt replaces)."""
    out, err = consoles
    if options.json:
        write_json(envelope, options.json_compact)
        return
    if options.format == "sarif":
        place = report_place(reported)
        write_document(sarif_log(_findings(envelope, reported, place), place))
        return
    if reported.workspace is not None and _is_workspace_run(envelope.data):
        _print_projects(envelope.data, options, (out, err), hide)
    elif envelope.data is not None and not options.quiet:
        _renderer(envelope.kind)(envelope.data, out, options)
    if options.format == "github":
        found = _findings(envelope, reported, report_place(reported))
        for command in github_commands([f for f in found if _shown(f, options, hide)]):
            print(command, flush=True)
        return
    print_issues(err, [issue for issue in envelope.issues if _shown(issue, options, hide)])


def _is_workspace_run(data: object) -> bool:
    """Whether `data` is a workspace run's (asked only of a workspace run, which imported the
    fan-out already: a single project's run never imports it)."""
    from i18nprune.fanout import WorkspaceRun

    return isinstance(data, WorkspaceRun)


def _print_projects(
    run: WorkspaceRun, options: GlobalOptions, consoles: tuple[Any, Any], hide: str | None
) -> None:
    """Each project under a heading, then one summary line."""
    from rich.markup import escape

    out, err = consoles
    for project in run.projects:
        status = "[green]ok[/]" if project.ok else "[red]failed[/]"
        out.print(f"[bold]── {escape(project.root)}[/] {status}")
        if project.data is not None and not options.quiet:
            _renderer(project.kind)(project.data, out, options)
        if options.format != "github":
            print_issues(err, [issue for issue in project.issues if _shown(issue, options, hide)])
    failed = sum(1 for project in run.projects if not project.ok)
    out.print(
        f"{len(run.projects)} project(s): {len(run.projects) - failed} ok"
        + (f", [red]{failed} failed[/]" if failed else "")
    )


def _shown(issue: Issue | Any, options: GlobalOptions, hidden: str | None) -> bool:
    """Whether people see an issue (or finding): all but `hidden`; only errors under --quiet."""
    return issue.code != hidden and (not options.quiet or issue.severity == "error")


def _findings(envelope: Envelope, reported: Reported, place: ReportPlace) -> list[Finding]:
    if reported.workspace is not None and _is_workspace_run(envelope.data):
        return workspace_findings(envelope, place)
    return findings(envelope, place)


def report_place(reported: Reported) -> ReportPlace:
    """Where a report's findings are: the folder its relative paths start from (the workspace
    or project root, else the folder the command was given), the repository root above it, and
    the files to place findings without a file at (the workspace file or the project's config;
    each project's config in a workspace)."""
    workspace = reported.workspace
    if workspace is not None:
        root = Path(os.path.realpath(workspace.root))
        anchors = {
            project.rel: _inside(project.config_path, root / project.rel)
            or _inside(root / project.rel / "package.json", root / project.rel)
            for project in workspace.projects
        }
        return ReportPlace(
            root,
            annotation_root(root),
            workspace.file.name if workspace.file is not None else None,
            {rel: anchor for rel, anchor in anchors.items() if anchor is not None},
        )
    try:
        project = reported.handle.open()
    except ProblemError:
        request = reported.handle.request
        root = Path(os.path.realpath(request.project or request.cwd))
        return ReportPlace(root, annotation_root(root))
    root = Path(os.path.realpath(project.root))
    return ReportPlace(root, annotation_root(root), _project_anchor(project, root))


def _project_anchor(project: Project, root: Path) -> str | None:
    """The file a project's findings without a file are placed at: its config file, else (a
    run without one) the source locale's first file, else its `package.json`."""
    anchor = _inside(project.loaded.config_path, root)
    if anchor is not None:
        return anchor
    try:
        segments = project.segments(project.source_locale())
    except ProblemError:
        segments = []
    for segment in segments:
        anchor = _inside(segment.path, root)
        if anchor is not None:
            return anchor
    return _inside(root / "package.json", root)


def _inside(file: Path | None, folder: Path) -> str | None:
    """`file` relative to `folder`, when it is a file inside it."""
    if file is None:
        return None
    file = Path(os.path.realpath(file))
    if not file.is_file():
        return None
    return file.relative_to(folder).as_posix() if file.is_relative_to(folder) else None
