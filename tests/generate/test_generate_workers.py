"""How many worker processes `generate` starts: as many as `translate.workers` asks for, fewer
when fewer batches are needed, and never more than the CPUs the front process leaves free (at
least one); a `--workers` given on the command line is kept."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from i18nprune.pool.pool import worker_ceiling
from i18nprune.system.children import usable_cpus
from i18nprune.testing import FakeProvider
from tests.conftest import CliResult
from tests.generate.conftest import code_using, provider_config, read_json

RunCli = Callable[..., CliResult]
MakeProject = Callable[[dict[str, Any]], Path]

EN = {f"k{index}": f"Text number {index}" for index in range(24)}


def project_with_workers(make_project: MakeProject, fake: FakeProvider, workers: int) -> Path:
    """24 leaves to translate one per request, with `translate.workers` set to `workers`."""
    config = provider_config(fake, batchSize=1)
    config["translate"]["workers"] = workers
    return make_project(
        {
            "i18nprune.config.json": config,
            "src/app.ts": code_using(*EN),
            "locales/en.json": EN,
        }
    )


def generate(run_cli: RunCli, root: Path) -> dict[str, Any]:
    result = run_cli("generate", "--target", "fr", "--json", cwd=root)
    assert result.code == 0, result.stdout + result.stderr
    data: dict[str, Any] = json.loads(result.stdout)["data"]
    return data


@pytest.mark.slow
def test_workers_beyond_the_cpus_are_not_started(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = project_with_workers(make_project, fake, workers=64)
        data = generate(run_cli, root)
    assert worker_ceiling() == max(1, usable_cpus() - 1)
    assert data["pool"]["workers"] == data["pool"]["spawned"] == worker_ceiling()
    assert data["targetResults"][0]["translatedLeafCount"] == len(EN)
    assert read_json(root / "locales/fr.json") == {key: f"FR:{text}" for key, text in EN.items()}


@pytest.mark.slow
def test_fewer_workers_than_the_cpus_start_as_configured(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = project_with_workers(make_project, fake, workers=1)
        data = generate(run_cli, root)
    assert data["pool"]["workers"] == data["pool"]["spawned"] == 1
    assert data["targetResults"][0]["translatedLeafCount"] == len(EN)


@pytest.mark.slow
def test_an_explicit_workers_flag_is_kept(make_project: MakeProject, run_cli: RunCli) -> None:
    wanted = worker_ceiling() + 1  # more than the machine would start by itself
    with FakeProvider("libre") as fake:
        root = project_with_workers(make_project, fake, workers=1)
        result = run_cli("generate", "--target", "fr", "--workers", str(wanted), "--json", cwd=root)
    assert result.code == 0, result.stdout + result.stderr
    pool = json.loads(result.stdout)["data"]["pool"]
    assert pool["workers"] == pool["spawned"] == wanted


def test_the_readme_states_the_worker_rule_the_pool_follows() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text("utf-8")
    rule = " ".join(readme.split())  # as a sentence, whatever the wrapping

    assert "at least two" not in rule
    assert (
        "at most one per CPU beyond the one the front process keeps busy, and at least one — "
        "one on 2 cores"
    ) in rule  # worker_ceiling: max(1, usable CPUs - 1), tested above
