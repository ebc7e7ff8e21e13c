"""The fleet benchmark runs end to end at its smallest size and reports what the fake provider
saw (behaviour only: how close a fleet comes to the limit is the benchmark's business)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.fleet.conftest import require_redis

REPO = Path(__file__).resolve().parents[2]
SCENARIOS = ("sharded", "unsharded", "no_redis")


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    require_redis()
    out = tmp_path_factory.mktemp("fleet")
    env = {k: v for k, v in os.environ.items() if not k.startswith("I18NPRUNE_")}
    command = [
        sys.executable, str(REPO / "benchmarks" / "fleet.py"),
        "--smoke", "--runs", "1", "--members", "2", "--out", str(out),
    ]  # fmt: skip
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=110)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads((out / "fleet.json").read_text())
    assert report["errors"] == {}, report["errors"]
    return report, out


def _run(report: dict[str, Any], prefix: str) -> dict[str, Any]:
    """The details of the one run of a scenario (every figure of it shares them)."""
    figure = report["figures"][f"{prefix}_share_of_limit"]
    assert figure["runs"] == len(figure["load"]) == 1
    [details] = figure["details"]
    return dict(details)


@pytest.mark.slow
def test_every_scenario_sends_the_same_texts_and_the_fleets_with_redis_send_each_once(
    fleet: tuple[dict[str, Any], Path],
) -> None:
    report, _ = fleet
    solo = _run(report, "solo")["provider"]
    assert solo["distinct_texts"] > 0 and solo["sent_twice"] == 0
    for scenario in SCENARIOS:
        details = _run(report, f"fleet2_{scenario}")
        provider = details["provider"]
        assert details["members"] == 2 and details["members_ok"], details["member"]
        assert provider["distinct_texts"] == solo["distinct_texts"], scenario
        assert provider["status_429"] == provider["limited_rps"] + provider["limited_concurrency"]
        if scenario == "no_redis":  # each member its own cache: every text sent by both
            assert provider["sent_twice"] == provider["distinct_texts"]
            assert provider["extra_sends"] == provider["distinct_texts"]
        else:
            assert provider["sent_twice"] == provider["extra_sends"] == 0, scenario
            sent = sum(member["sent"] for member in details["member"])
            assert sent == provider["distinct_texts"]


@pytest.mark.slow
def test_shards_write_nothing_and_the_final_run_writes_every_file_sending_nothing(
    fleet: tuple[dict[str, Any], Path],
) -> None:
    report, _ = fleet
    details = _run(report, "fleet2_sharded")
    assert [member["statuses"] for member in details["member"]] == [["sharded"]] * 2
    final = details["final"]
    assert final["requests"] == final["texts"] == 0
    assert final["written"] and final["member"]["exit"] == 0
    assert final["member"]["shared_hits"] == details["provider"]["distinct_texts"]
    assert report["figures"]["fleet2_sharded_final_requests"]["values"] == [0]
    assert details["wall_s"] >= details["fleet_wall_s"] + final["wall_s"] - 0.01


@pytest.mark.slow
def test_figures_are_read_against_the_limit_and_the_solo_member(
    fleet: tuple[dict[str, Any], Path],
) -> None:
    report, _ = fleet
    settings = report["settings"]
    assert settings["member_rate_limit"] == {
        "maxConcurrency": settings["limit"]["concurrency"],
        "rps": settings["limit"]["rps"],
    }
    assert report["machine"]["cpu_count"] == os.cpu_count()
    solo_texts = report["figures"]["solo_texts_per_s"]["median"]
    for scenario in SCENARIOS:
        share = report["figures"][f"fleet2_{scenario}_share_of_limit"]
        provider = share["details"][0]["provider"]
        assert share["goal"]["value"] == 0.9
        assert share["median"] == pytest.approx(
            provider["requests_per_s"] / settings["limit"]["requests_per_s"], rel=0.01
        )
        texts = report["figures"][f"fleet2_{scenario}_texts_per_s"]
        assert texts["references"]["solo"]["value"] == solo_texts
        assert texts["references"]["provider_limit"]["value"] == settings["limit"]["texts_per_s"]
        for kind in ("status_429", "sent_twice"):
            assert report["figures"][f"fleet2_{scenario}_{kind}"]["goal"]["value"] == 0


@pytest.mark.slow
def test_the_table_has_a_row_per_scenario_and_the_charts_are_written(
    fleet: tuple[dict[str, Any], Path],
) -> None:
    _, out = fleet
    rows = [line for line in (out / "fleet.md").read_text().splitlines() if line.startswith("|")]
    assert len(rows) == 2 + 1 + len(SCENARIOS)
    assert [row.split("|")[2].strip() for row in rows[2:]] == ["solo", *SCENARIOS]
    if importlib.util.find_spec("matplotlib") is not None:
        for name in ("fleet.png", "fleet_timeline.png"):
            assert (out / name).read_bytes().startswith(b"\x89PNG")
