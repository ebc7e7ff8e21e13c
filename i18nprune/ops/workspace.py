"""`workspace list` / `op.workspace`: the projects of the workspace at the root, each with its
config file, source locale and locales."""

from __future__ import annotations

import time
from pathlib import Path

import msgspec

from i18nprune.envelope import Envelope, Issue, ProblemError, make_envelope
from i18nprune.ops.engine.events import EventSink
from i18nprune.ops.engine.offload import run_blocking
from i18nprune.project import ProjectHandle, ProjectRequest
from i18nprune.workspace import Workspace, WorkspaceProject, find_workspace

KIND = "workspace"


class WorkspaceOptions(msgspec.Struct, frozen=True, kw_only=True):
    """`workspace list` has no options of its own."""


class WorkspaceProjectRow(msgspec.Struct, frozen=True, rename="camel"):
    root: str
    """Relative to the workspace, `/`-separated (`.`: the workspace root itself)."""
    config_path: str | None
    """The project's config file relative to the workspace; None: the project has none."""
    source: str | None
    """The source locale; None when the project's config cannot be read (see the issues)."""
    locales: list[str]
    locale_names: dict[str, str] = {}
    """The source and each of `locales` (normalised: `pt-br`) → how the project spells it
    (`pt_BR`)."""
    reason: str | None = None
    """Why discovery took the folder for a project (`discovered` workspaces only)."""


class WorkspaceData(msgspec.Struct, frozen=True, rename="camel"):
    workspace_file: str | None
    """`i18nprune.workspace.json` when it lists the projects; None: found by their configs, or
    by discovery."""
    projects: list[WorkspaceProjectRow]
    discovered: bool = False
    """True when neither a workspace file nor config files named the projects: they are the
    package manager's workspace packages that hold locale files."""


async def run(handle: ProjectHandle, options: WorkspaceOptions, emit: EventSink) -> Envelope:
    """Find the workspace's projects and read what each one is (config files are read in a
    thread, off the loop)."""
    started = time.perf_counter()
    root = workspace_root(handle.request)
    data, issues = await run_blocking(_describe, handle, root, abandon_on_cancel=True)
    return make_envelope(KIND, data, issues, started=started)


def workspace_root(request: ProjectRequest) -> Path:
    """The folder a host was pointed at: `--project`, else where it runs."""
    return (request.cwd / request.project) if request.project else request.cwd


def project_handle(handle: ProjectHandle, project: WorkspaceProject) -> ProjectHandle:
    """A handle on one project of a workspace, with the host's overrides, environment and
    lifetime."""
    request = msgspec.structs.replace(
        handle.request, project=project.root, config_file=None, workspace_folder=project.rel
    )
    return ProjectHandle(request, handle.env, long_lived=handle.long_lived)


def _describe(handle: ProjectHandle, root: Path) -> tuple[WorkspaceData, list[Issue]]:
    workspace: Workspace = find_workspace(root, handle.env)
    issues = list(workspace.issues)
    rows = []
    for member in workspace.projects:
        source: str | None = None
        locales: list[str] = []
        names: dict[str, str] = {}
        try:
            project = project_handle(handle, member).open()
            source = project.source_locale()
            inventory, found = project.inventory()
            locales = inventory.locales()
            names = project.locale_names(sorted({source, *locales}))
            issues.extend(found)
        except ProblemError as exc:
            issues.extend(exc.issues)
        config = member.config_path
        rows.append(
            WorkspaceProjectRow(
                root=member.rel,
                config_path=config.relative_to(workspace.root).as_posix() if config else None,
                source=source,
                locales=locales,
                locale_names=names,
                reason=member.reason,
            )
        )
    file = workspace.file.name if workspace.file is not None else None
    data = WorkspaceData(workspace_file=file, projects=rows, discovered=workspace.discovered)
    return data, list(dict.fromkeys(issues))
