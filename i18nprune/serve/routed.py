"""A request whose root is a workspace root (a monorepo's root, as an editor opens it): where it
runs. Project-wide ops run in every project, as `--workspace` runs them (`fanout`); an op about
one file runs in the project that owns the file; `op.workspace` answers for the root itself.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

import msgspec

from i18nprune.envelope import Code, Envelope, Issue, error, make_envelope
from i18nprune.fanout import ProjectOutcome, WorkspaceRun, run_workspace
from i18nprune.ops.engine.events import EventSink
from i18nprune.ops.engine.scanning import Scanner, Snapshots, scanning_with
from i18nprune.ops.key import KeyOptions
from i18nprune.pool.lease import PoolLease, lending
from i18nprune.project import ProjectHandle, ProjectRequest
from i18nprune.routing import FolderRouting
from i18nprune.serve.dispatch import OpCall
from i18nprune.workspace import Workspace, WorkspaceProject

AT_THE_ROOT = frozenset({"workspace"})
"""Ops about the workspace itself: they run at its root."""
BY_PATH = frozenset({"file", "key"})
"""Ops that run in the project owning their `path` option (`op.key` when asked by position)."""
IN_ONE_PROJECT = frozenset({"key.set"})
"""Ops that change one project and say nothing of which: `projectRoot` must name it."""


@dataclass(frozen=True)
class FanOut:
    """Run the call in every project of `routing`; `by_key`: answer with the projects that
    know the key only (`op.key` asked by name)."""

    call: OpCall
    routing: FolderRouting
    by_key: bool = False


@dataclass(frozen=True)
class Refused:
    """The call cannot run at the workspace root: answered `ok:false` with `issue`."""

    call: OpCall
    issue: Issue


Route = OpCall | FanOut | Refused


def roots_of(where: Route) -> list[Path]:
    """The project roots a routed call runs in (none for one that needs no project or is
    refused)."""
    if isinstance(where, FanOut):
        return where.routing.roots
    if isinstance(where, Refused) or where.root is None:
        return []
    return [where.root]


def route(call: OpCall, routing: FolderRouting) -> Route:
    """Where `call`, whose root is the folder of `routing`, runs: itself (the folder is one
    project, or the op is about the workspace), in one project (an `OpCall` there, its `path`
    relative to that project), in every project, or nowhere."""
    name = call.spec.name
    if not routing.workspace or name in AT_THE_ROOT or not call.spec.needs_project:
        return call
    options = call.options
    path = getattr(options, "path", None) if name in BY_PATH else None
    if isinstance(path, str):
        return _by_path(call, routing, path)
    if name in IN_ONE_PROJECT:
        listed = ", ".join(str(root) for root in routing.roots)
        message = (
            f"{routing.folder} is a workspace root: `op.{name}` changes one project; send the "
            f"project's folder as `projectRoot` (one of: {listed})"
        )
        return Refused(call, error(Code.WORKSPACE_PROJECT_REQUIRED, message))
    return FanOut(call, routing, by_key=isinstance(options, KeyOptions))


def _by_path(call: OpCall, routing: FolderRouting, path: str) -> OpCall | Refused:
    owner = routing.project_of(path)
    if owner is None:
        listed = ", ".join(project.rel for project in sorted_projects(routing))
        message = (
            f"`{path}` is in none of the projects of the workspace at {routing.folder} ({listed})"
        )
        return Refused(call, error(Code.WORKSPACE_OUTSIDE_PROJECTS, message, path))
    absolute = os.path.realpath(routing.folder / path)
    relative = Path(os.path.relpath(absolute, owner.root)).as_posix()
    options = msgspec.structs.replace(call.options, path=relative)
    return OpCall(call.spec, owner.root, options)


def sorted_projects(routing: FolderRouting) -> list[WorkspaceProject]:
    """The projects of `routing` sorted by their folder relative to it, as a workspace lists
    them."""
    return sorted(routing.projects, key=lambda project: project.rel)


async def run_fan_out(
    fan_out: FanOut,
    *,
    read_only: bool,
    pools: PoolLease,
    scanner: Scanner,
    emit: EventSink,
    snapshots: Snapshots | None = None,
) -> Envelope:
    """Run the call in every project of the workspace, as `--workspace` does (read ops a few
    projects at a time, write ops one project after another); `data` is a `WorkspaceRun`."""
    routing = fan_out.routing
    call = fan_out.call
    request = ProjectRequest(cwd=routing.folder, project=routing.folder, read_only=read_only)
    handle = ProjectHandle(request, long_lived=True)
    workspace = Workspace(
        routing.folder,
        routing.workspace_file,
        sorted_projects(routing),
        list(routing.issues),
        discovered=any(project.reason is not None for project in routing.projects),
    )
    keep = _knows_the_key if fan_out.by_key else None
    with lending(pools), scanning_with(scanner, snapshots):
        envelope = await run_workspace(call.spec, handle, workspace, call.options, emit, keep=keep)
    if fan_out.by_key and isinstance(envelope.data, WorkspaceRun) and not envelope.data.projects:
        assert isinstance(call.options, KeyOptions)
        message = (
            f"`{call.options.key}` is neither used in the code nor defined in any locale of "
            f"the projects of {routing.folder}"
        )
        issues = [*envelope.issues, error(Code.KEY_NOT_FOUND, message)]
        envelope = msgspec.structs.replace(envelope, ok=False, issues=issues)
    envelope.meta = msgspec.structs.replace(envelope.meta, cwd=str(routing.folder))
    return envelope


def refusal(refused: Refused) -> Envelope:
    """The `ok:false` answer of a call that cannot run at the workspace root."""
    envelope = make_envelope(
        refused.call.spec.name, None, [refused.issue], started=time.perf_counter()
    )
    envelope.meta = msgspec.structs.replace(envelope.meta, cwd=str(refused.call.root))
    return envelope


def _knows_the_key(outcome: ProjectOutcome) -> bool:
    return not any(issue.code == Code.KEY_NOT_FOUND for issue in outcome.issues)
