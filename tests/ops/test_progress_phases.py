"""Progress names what a run does: a run that writes nothing never reports a `write` step (the
CLI's bars and serve's `$/progress` show the phase as it is)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from i18nprune.ops.engine.events import ProgressEvent
from i18nprune.ops.engine.registry import OPS, execute
from i18nprune.ops.generate import GenerateOptions
from i18nprune.ops.sync import SyncOptions
from i18nprune.project import ProjectHandle, ProjectRequest

MakeProject = Callable[[dict[str, Any]], Path]
FILES = {
    "i18nprune.config.json": {},
    "src/app.ts": "t('a'); t('b');\n",
    "locales/en.json": {"a": "A", "b": "B"},
    "locales/fr.json": {"a": "A (fr)", "gone": "Plus utilisé"},
}


def run_op(root: Path, home: Path, op: str, options: Any) -> list[ProgressEvent]:
    """Run `op` in this process (serve coalesces events, the CLI draws them): every event."""
    events: list[ProgressEvent] = []
    handle = ProjectHandle(
        ProjectRequest(cwd=root), env={**os.environ, "I18NPRUNE_HOME": str(home)}
    )
    envelope = trio.run(execute, OPS[op], handle, options, events.append)
    assert envelope.kind == op, envelope.issues
    return events


@pytest.mark.parametrize(
    "options", [SyncOptions(dry_run=True), SyncOptions(check=True)], ids=["dry-run", "check"]
)
def test_a_sync_that_writes_nothing_compares_each_target(
    make_project: MakeProject, home: Path, options: SyncOptions
) -> None:
    root = make_project(FILES)

    events = run_op(root, home, "sync", options)

    phases = [event.phase for event in events]
    assert "write" not in phases
    assert [(e.target, e.done, e.total) for e in events if e.phase == "compare"] == [("fr", 0, 1)]
    assert json.loads((root / "locales/fr.json").read_text()) == FILES["locales/fr.json"]


def test_a_sync_that_writes_reports_writing_each_target(
    make_project: MakeProject, home: Path
) -> None:
    root = make_project(FILES)

    events = run_op(root, home, "sync", SyncOptions())

    phases = [event.phase for event in events]
    assert "compare" not in phases
    assert [(e.target, e.done, e.total) for e in events if e.phase == "write"] == [("fr", 0, 1)]
    assert json.loads((root / "locales/fr.json").read_text()) == {"a": "A (fr)", "b": "B"}


@pytest.mark.parametrize(
    "options",
    [
        GenerateOptions(target=["de"], provider="pseudo", dry_run=True),
        GenerateOptions(target=["de"], provider="pseudo", check=True),
    ],
    ids=["dry-run", "check"],
)
def test_a_generate_that_writes_nothing_plans_and_reports_no_write(
    make_project: MakeProject, home: Path, options: GenerateOptions
) -> None:
    root = make_project(FILES)

    events = run_op(root, home, "generate", options)

    phases = [event.phase for event in events]
    assert "plan" in phases and phases[-1] == "done"
    assert "write" not in phases and "translate" not in phases
    assert not (root / "locales/de.json").exists()
