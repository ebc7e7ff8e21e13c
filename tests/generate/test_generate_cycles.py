"""What a `generate` run read and wrote is freed by reference counting when the run lets go of
it (in a thread), never left in a reference cycle: in `serve`, the garbage collector would free
a cycle holding every leaf of a target on the event loop, pausing every other request. For a
long-lived host, it is freed before the op returns: `serve` turns the collector back on then,
and its first collection would walk whatever were still alive."""

from __future__ import annotations

import gc
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from i18nprune.envelope import Envelope
from i18nprune.ops.engine.events import discard
from i18nprune.ops.engine.registry import OPS, execute
from i18nprune.ops.generate import GenerateOptions, TargetRun, TargetWriter
from i18nprune.project import ProjectHandle, ProjectRequest
from tests.generate.conftest import code_using, wait_until

MakeProject = Callable[[dict[str, Any]], Path]
EN = {f"k{index}": f"Text {index} for {{{{name}}}}" for index in range(50)}


def project(make_project: MakeProject) -> Path:
    return make_project(
        {
            "i18nprune.config.json": {"locales": {"source": "en"}},
            "src/app.ts": code_using(*EN),
            "locales/en.json": EN,
        }
    )


@pytest.mark.slow
def test_a_finished_run_leaves_no_cycle_holding_its_targets(
    make_project: MakeProject, home: Path
) -> None:
    root = project(make_project)
    handle = ProjectHandle(
        ProjectRequest(cwd=root), env={**os.environ, "I18NPRUNE_HOME": str(home)}
    )
    options = GenerateOptions(target=["fr", "de"], provider="pseudo")
    gc.collect()
    flags = gc.get_debug()
    gc.set_debug(gc.DEBUG_SAVEALL)  # keep what a collection finds, to look at it
    try:
        envelope = trio.run(execute, OPS["generate"], handle, options, discard)
        # The run lets go of its targets in a thread of its own: wait until that is done (no
        # target is alive any more), and look at what the collector found meanwhile.
        cycles: list[object] = []

        def freed() -> bool:
            gc.collect()
            cycles.extend(item for item in gc.garbage if isinstance(item, TargetRun | TargetWriter))
            gc.garbage.clear()
            alive = [item for item in gc.get_objects() if isinstance(item, TargetRun)]
            return bool(cycles) or not alive

        assert wait_until(freed, timeout=30)
    finally:
        gc.set_debug(flags)
        gc.garbage.clear()
    assert envelope.ok, envelope.issues
    assert (root / "locales/fr.json").exists() and (root / "locales/de.json").exists()
    assert cycles == []


def test_for_a_long_lived_host_the_run_is_freed_before_it_returns(
    make_project: MakeProject, home: Path
) -> None:
    root = project(make_project)
    env = {**os.environ, "I18NPRUNE_HOME": str(home)}
    handle = ProjectHandle(ProjectRequest(cwd=root), env=env, long_lived=True)
    options = GenerateOptions(target=["fr", "de"], provider="pseudo")
    before = {id(item) for item in gc.get_objects() if isinstance(item, TargetRun)}

    async def run() -> tuple[Envelope, list[object]]:
        envelope = await execute(OPS["generate"], handle, options, discard)
        # At once, as a host would go on: nothing of the run may be left to free.
        alive = [item for item in gc.get_objects() if isinstance(item, TargetRun)]
        return envelope, [item for item in alive if id(item) not in before]

    envelope, left = trio.run(run)
    assert envelope.ok, envelope.issues
    assert envelope.data.targets == ["fr", "de"]
    assert left == []
