"""One op over every project of a workspace, gathered into one envelope (`--workspace`).

Read ops run side by side (a few projects at a time); write ops run one project after another,
so two projects never write at once and a `generate` never shares its providers' limits.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import msgspec
import trio

from i18nprune.envelope import Code, Envelope, Issue, error, has_errors, make_envelope
from i18nprune.ops.engine.events import EventSink, discard
from i18nprune.ops.engine.registry import OpSpec, execute
from i18nprune.ops.workspace import project_handle
from i18nprune.project import ProjectHandle
from i18nprune.workspace import Workspace

_SIDE_BY_SIDE = max(1, min(4, os.cpu_count() or 1))
"""Read ops at once: each already scans in parallel, so more would only contend."""


class ProjectOutcome(msgspec.Struct, frozen=True, rename="camel"):
    """One project's run: its folder relative to the workspace and its envelope's parts."""

    root: str
    ok: bool
    kind: str
    data: Any
    issues: list[Issue]


class WorkspaceRun(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """`data` of an op run over a workspace."""

    workspace_file: str | None
    projects: list[ProjectOutcome]
    changes: Any = None
    """What changed across the workspace since a baseline, for an op that compares with one
    (`OpSpec.workspace_changes`: `report --baseline`); absent otherwise."""


async def run_workspace(
    spec: OpSpec,
    handle: ProjectHandle,
    workspace: Workspace,
    options: msgspec.Struct,
    emit: EventSink,
    *,
    keep: Callable[[ProjectOutcome], bool] | None = None,
) -> Envelope:
    """Run `spec` with `options` in every project of `workspace` (each opened with the host's
    overrides from `handle`); `ok` only when every project's run is. Progress events are passed
    on for runs that go one project at a time. `keep`: which projects' outcomes the answer
    holds (default: all); one left out does not count as failed."""
    started = time.perf_counter()
    changes: Any = None
    found: list[Issue] = []
    if spec.workspace_changes:
        changes, found = await trio.to_thread.run_sync(
            spec.load().workspace_changes, handle.request, workspace, options
        )
        if has_errors(found):  # e.g. a baseline none of the projects can be compared with
            return make_envelope(spec.name, None, [*workspace.issues, *found], started=started)
    members = workspace.projects
    outcomes: list[ProjectOutcome | None] = [None] * len(members)

    async def run_one(index: int, sink: EventSink) -> None:
        member = members[index]
        envelope = await execute(spec, project_handle(handle, member), options, sink)
        outcomes[index] = ProjectOutcome(
            member.rel, envelope.ok, envelope.kind, envelope.data, envelope.issues
        )

    if spec.writes:
        for index in range(len(members)):
            await run_one(index, emit)
    else:
        limiter = trio.CapacityLimiter(_SIDE_BY_SIDE)

        async def limited(index: int) -> None:
            async with limiter:
                await run_one(index, discard)  # interleaved progress would mislead

        async with trio.open_nursery() as nursery:
            for index in range(len(members)):
                nursery.start_soon(limited, index)
    projects = [
        outcome for outcome in outcomes if outcome is not None and (keep is None or keep(outcome))
    ]
    issues = [*workspace.issues, *found]
    failed = [outcome.root for outcome in projects if not outcome.ok]
    if failed:
        issues.append(
            error(
                Code.WORKSPACE_PROJECT_FAILED,
                f"{len(failed)} of {len(projects)} project(s) failed: {', '.join(failed)}",
            )
        )
    file = workspace.file.name if workspace.file is not None else None
    data = WorkspaceRun(workspace_file=file, projects=projects, changes=changes)
    return make_envelope(spec.name, data, issues, started=started, ok=not has_errors(issues))
