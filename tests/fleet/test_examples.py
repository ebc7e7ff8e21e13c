"""The fleet examples of docs/fleet.md run: each file's commands, as real CLI processes with
the environment the file gives them, against a real `redis-server` and a loopback fake provider
(the app's config names it, as a user's names theirs). The shards run at once on one folder —
proving they write nothing, as their read-only mounts require — and the final command writes
every file, sending nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from i18nprune.testing import FakeProvider
from i18nprune.testing.redis_server import RedisServer
from tests.conftest import write_tree
from tests.generate.conftest import code_using, provider_config, start_cli

pytestmark = pytest.mark.slow

EXAMPLES = Path(__file__).parents[2] / "docs" / "examples" / "fleet"
EN = {f"k{index}": f"Sentence {index} of the app" for index in range(30)}
TARGETS = ("fr", "de", "it")
SECRET = "(from a Kubernetes secret)"


def app(base: Path, fake: FakeProvider) -> Path:
    return write_tree(
        base / "app",
        {
            "i18nprune.config.json": provider_config(fake, batchSize=5),
            "src/app.ts": code_using(*EN),
            "locales/en.json": EN,
            **{f"locales/{target}.json": {} for target in TARGETS},
        },
    )


def files(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def run_all(
    commands: list[tuple[list[str], dict[str, str]]], root: Path, base: Path
) -> list[dict[str, Any]]:
    """Run `i18nprune ARGS` for each (args, env) at once, each with a home of its own; their
    envelopes (every run must succeed)."""
    processes = [
        start_cli(*args, "--json", cwd=root, home=base / f"home{index}", env=env)
        for index, (args, env) in enumerate(commands)
    ]
    envelopes = []
    for process in processes:
        stdout, stderr = process.communicate(timeout=120)
        assert process.returncode == 0, stdout + stderr
        envelopes.append(json.loads(stdout))
    return envelopes


def check_the_fleet(
    shards: list[tuple[list[str], dict[str, str]]],
    final: tuple[list[str], dict[str, str]],
    tmp_path: Path,
) -> None:
    """Shards at once on one folder (nothing written, every text sent once), then the final
    command: it sends nothing and writes every target."""
    with FakeProvider("libre") as fake:
        root = app(tmp_path, fake)
        before = files(root)
        reports = run_all(shards, root, tmp_path)
        assert files(root) == before
        assert sorted(report["data"]["fleet"]["shard"] for report in reports) == [
            f"{index}/{len(shards)}" for index in range(1, len(shards) + 1)
        ]
        texts = [(r.target, text) for r in fake.requests if r.status == 200 for text in r.texts]
        assert len(texts) == len(set(texts)) == len(EN) * len(TARGETS)
        requests = len(fake.requests)
        [written] = run_all([final], root, tmp_path / "final")
        assert len(fake.requests) == requests
    assert {r["status"] for r in written["data"]["targetResults"]} == {"written"}
    for target in TARGETS:
        assert (root / "locales" / f"{target}.json").read_text().count('"k') == len(EN)
    assert (root / "i18nprune.lock.json").exists()


def environment(pairs: dict[str, Any], url: str) -> dict[str, str]:
    """A service's environment with the test's Redis in place of the example's."""
    found = {name: str(value) for name, value in pairs.items()}
    named = found.pop("I18NPRUNE_CACHE_URL")
    assert named.startswith(("redis://", "${{")) or named == SECRET, named
    found.pop("I18NPRUNE_TRANSLATE_DEEPL_API_KEY", None)  # the app's config names the fake
    return {**found, "I18NPRUNE_CACHE_URL": url}


def test_the_compose_files_shards_then_writer(tmp_path: Path, redis_server: RedisServer) -> None:
    services = yaml.safe_load((EXAMPLES / "compose.yaml").read_text())["services"]
    shards = {name: service for name, service in services.items() if name.startswith("shard-")}
    assert services["redis"]["image"].startswith("redis:")
    for service in shards.values():
        assert service["volumes"] == ["${APP:-.}:/project:ro"]
        assert service["depends_on"] == {"redis": {"condition": "service_healthy"}}
    writer = services["write"]
    assert writer["depends_on"] == {
        name: {"condition": "service_completed_successfully"} for name in shards
    }
    url = redis_server.url
    check_the_fleet(
        [(s["command"], environment(s["environment"], url)) for s in shards.values()],
        (writer["command"], environment(writer["environment"], url)),
        tmp_path,
    )


def test_the_indexed_job_then_the_write_job(tmp_path: Path, redis_server: RedisServer) -> None:
    shards_job, write_job = yaml.safe_load_all((EXAMPLES / "indexed-job.yaml").read_text())
    spec = shards_job["spec"]
    assert spec["completionMode"] == "Indexed" and spec["completions"] == spec["parallelism"]
    [container] = spec["template"]["spec"]["containers"]
    env = {item["name"]: item.get("value", SECRET) for item in container["env"]}
    assert env["JOB_COMPLETION_COUNT"] == str(spec["completions"])
    assert container["volumeMounts"][0]["readOnly"] is True
    [writer] = write_job["spec"]["template"]["spec"]["containers"]
    writer_env = {item["name"]: item.get("value", SECRET) for item in writer["env"]}
    url = redis_server.url
    # Kubernetes gives each pod its index; the Job's own variables come from the manifest.
    check_the_fleet(
        [
            (container["args"], {**environment(env, url), "JOB_COMPLETION_INDEX": str(index)})
            for index in range(spec["completions"])
        ],
        (writer["args"], environment(writer_env, url)),
        tmp_path,
    )


def test_the_actions_matrix_then_the_write_job(tmp_path: Path, redis_server: RedisServer) -> None:
    workflow = yaml.safe_load((EXAMPLES / "github-actions.yml").read_text())
    jobs = workflow["jobs"]
    assert jobs["write"]["needs"] == "shard"
    matrix = jobs["shard"]["strategy"]["matrix"]["shard"]
    env = environment(workflow["env"], redis_server.url)
    env.pop("I18NPRUNE_PIP")

    def command(job: dict[str, Any], shard: int | None) -> list[str]:
        [line] = [s["run"] for s in job["steps"] if s.get("run", "").startswith("i18nprune ")]
        line = line.replace("${{ matrix.shard }}", str(shard))
        words = line.split()[1:]
        assert words[:2] == ["-C", '"$APP"'] and env["APP"] == "."
        return words[2:]

    shards = [(command(jobs["shard"], shard), env) for shard in matrix]
    assert all(re.fullmatch(rf"\d+/{len(matrix)}", args[-1]) for args, _ in shards)
    check_the_fleet(shards, (command(jobs["write"], None), env), tmp_path)
