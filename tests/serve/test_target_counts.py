"""A `serve` session over a namespaced app with several targets: what `op.validate` counts from
target files (keys the source lacks, stale leaves) is kept between requests, and a target file
changed between two requests is seen by the second — each answer equals a fresh CLI run's."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from i18nprune.testing import ServeClient
from tests.ops.test_validate_warm import cold_cli, rewrite, write_app
from tests.serve.conftest import ServeFactory

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return write_app(tmp_path / "app")


@pytest.fixture(params=["read-only", "writes"])
def server(request: pytest.FixtureRequest, serve: ServeFactory, project: Path) -> ServeClient:
    flags = ["--allow-writes"] if request.param == "writes" else []
    return serve("--project", str(project), *flags)


def validate(client: ServeClient) -> dict[str, Any]:
    envelope: dict[str, Any] = client.request("op.validate", {"options": {}}).unwrap()
    del envelope["meta"]
    return envelope


def edit_target(project: Path) -> None:
    rewrite(project / "public/locales/it/auth.json", {"login": {"title": "Accedi", "old": "x"}})


def delete_target(project: Path) -> None:
    (project / "public/locales/de/errors.json").unlink()


def add_locale(project: Path) -> None:
    (project / "public/locales/es").mkdir()
    rewrite(project / "public/locales/es/common.json", {"save": "Guardar", "legacy": "Viejo"})


def edit_source(project: Path) -> None:
    rewrite(project / "public/locales/en/errors.json", {"404": "Not found", "500": "Oops"})


def edit_just_now(project: Path) -> None:
    (project / "public/locales/fr/common.json").write_text('{"save": "Sauver", "x": "y"}\n')


@pytest.mark.slow
def test_a_session_of_target_changes_keeps_equalling_fresh_cli_runs(
    server: ServeClient, project: Path, tmp_path: Path
) -> None:
    changes: list[Callable[[Path], None]] = [
        edit_target,
        delete_target,
        add_locale,
        edit_source,
        edit_just_now,
    ]
    assert validate(server) == cold_cli(project, tmp_path / "cli-start")
    for number, change in enumerate(changes):
        change(project)
        served = validate(server)
        assert served == cold_cli(project, tmp_path / f"cli-{number}"), change.__name__
        assert validate(server) == served, change.__name__
