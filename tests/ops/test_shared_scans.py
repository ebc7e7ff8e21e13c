"""`one_scan_per_options`: ops run one after another in its block (a `report`) share one scan
for equal scan options, on a real project; outside it, each asks for its own."""

from __future__ import annotations

from pathlib import Path

import trio

from i18nprune.ops.engine.events import discard
from i18nprune.ops.engine.scanning import one_scan_per_options, scan_code
from i18nprune.project import Project, ProjectHandle, ProjectRequest
from i18nprune.reference import Evidence
from tests.conftest import write_tree


def _project(tmp_path: Path) -> Project:
    root = write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": {"locales": {"source": "en", "directory": "locales"}},
            "src/app.ts": "t('home.title');\n",
            "locales/en.json": {"home": {"title": "Welcome", "old": "Old"}},
        },
    )
    return ProjectHandle(ProjectRequest(cwd=root, no_cache=True), env={}).open()


def test_equal_options_share_one_scan_in_the_block_and_only_there(tmp_path: Path) -> None:
    project = _project(tmp_path)
    literals = {1: "Welcome"}

    async def scans() -> tuple[list[Evidence], list[Evidence]]:
        with one_scan_per_options():
            inside = [
                await scan_code(project, "validate", discard),
                await scan_code(project, "locales.dynamic", discard),
                await scan_code(project, "cleanup", discard, literals),
            ]
        outside = [
            await scan_code(project, "validate", discard),
            await scan_code(project, "validate", discard),
        ]
        return inside, outside

    inside, outside = trio.run(scans)

    assert inside[0].scan is inside[1].scan  # equal options: one scan
    assert inside[2].scan is not inside[0].scan  # literal texts asked: a scan of its own
    assert outside[0].scan is not outside[1].scan
    assert outside[0].scan == inside[0].scan
