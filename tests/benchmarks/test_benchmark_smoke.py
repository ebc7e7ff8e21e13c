"""The benchmark suite's smallest configuration runs end to end and writes the report it
documents (structure only: how fast things are is the suite's business, not a test's)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow  # every test reads one run of the benchmarks (its fixture)

REPO = Path(__file__).resolve().parents[2]
STEPS = (
    "scan:validate,scan:validate_namespaced_warm,scan:report_command,"
    "translate_pool:generate_sites_cold,"
    "translate_pool:pseudo_2000"
)


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    out = tmp_path_factory.mktemp("bench")
    env = {k: v for k, v in os.environ.items() if not k.startswith("I18NPRUNE_")}
    command = [
        sys.executable, str(REPO / "benchmarks" / "run_all.py"),
        "--smoke", "--runs", "1", "--only", STEPS, "--out", str(out),
    ]  # fmt: skip
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=110)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads((out / "suite.json").read_text()), out


def _figure(suite: dict[str, Any], report: str, figure: str) -> dict[str, Any]:
    found = suite["reports"][report]["figures"]
    assert figure in found, f"{figure} missing; errors: {suite['reports'][report].get('errors')}"
    return found[figure]


def test_suite_records_the_machine_and_its_load(suite: tuple[dict[str, Any], Path]) -> None:
    document, _ = suite
    assert document["machine"]["cpu_count"] == os.cpu_count()
    assert document["machine"]["python"].count(".") == 2
    assert isinstance(document["machine"]["cpu_model"], str)
    assert len(document["load_before"]) == len(document["load_after"]) == 3
    assert document["settings"]["mode"] == "smoke"


def test_namespaced_warm_figures_are_read_against_the_source_only_app(
    suite: tuple[dict[str, Any], Path],
) -> None:
    document, _ = suite
    alone = _figure(document, "scan", "validate_namespaced_source_only_warm_cpu")
    for variant in ("targets", "lock"):
        warm = _figure(document, "scan", f"validate_namespaced_{variant}_warm_cpu")
        reference = warm["references"]["source_only"]
        assert reference["value"] == pytest.approx(alone["median"], rel=0.01)
        assert reference["ratio"] == pytest.approx(warm["median"] / reference["value"], rel=0.01)
        [details] = warm["details"]
        assert details["ratio_to_source_only_warm"] == pytest.approx(
            warm["median"] / alone["median"], rel=0.01
        )
        assert details["locale_files"] > details["namespaces"] * details["targets"]
    assert _figure(document, "scan", "validate_namespaced_lock_cold_cpu")["details"][0]["lock"]


def test_every_figure_has_runs_min_median_and_its_ratio_to_the_goal(
    suite: tuple[dict[str, Any], Path],
) -> None:
    document, _ = suite
    for report, figure in (
        ("scan", "validate_cold_wall"),
        ("scan", "validate_warm_wall"),
        ("translate_pool", "generate_sites_cold"),
        ("translate_pool", "in_flight_throughput"),
        ("translate_pool", "pseudo_2000"),
    ):
        found = _figure(document, report, figure)
        assert found["runs"] == len(found["values"]) == len(found["load"]) == 1
        assert found["min"] <= found["median"] <= found["max"]
        assert found["ratio_to_goal"] == pytest.approx(
            found["median"] / found["goal"]["value"], rel=0.01
        )
    generate = _figure(document, "translate_pool", "generate_sites_cold")
    assert generate["references"]["provider_limit"]["value"] == 40_000


def test_cold_validate_is_read_against_a_bare_parse_of_the_same_files_in_the_same_run(
    suite: tuple[dict[str, Any], Path],
) -> None:
    document, _ = suite
    bare = _figure(document, "scan", "bare_parse_cpu")
    [parsed] = bare["details"]
    assert parsed["files"] == _figure(document, "scan", "validate_cold_cpu")["details"][0]["files"]
    assert parsed["jobs"] == len(os.sched_getaffinity(0))
    assert parsed["syntax_errors"] == 0
    for figure, what in (("validate_cold_cpu", "cpu"), ("validate_cold_wall", "wall")):
        cold = _figure(document, "scan", figure)
        reference = cold["references"]["bare_parse"]
        yardstick = _figure(document, "scan", f"bare_parse_{what}")
        assert reference["value"] == pytest.approx(yardstick["median"], rel=0.01)
        assert reference["ratio"] == pytest.approx(cold["median"] / reference["value"], rel=0.01)
        assert cold["details"][0][f"ratio_to_bare_parse_{what}"] > 0
    warm = _figure(document, "scan", "validate_warm_wall")
    cold_wall = _figure(document, "scan", "validate_cold_wall")
    assert warm["references"]["cold"]["value"] == pytest.approx(cold_wall["median"], rel=0.01)


def test_report_figures_give_each_format_s_bytes_and_read_against_validate(
    suite: tuple[dict[str, Any], Path],
) -> None:
    document, _ = suite
    for kind in ("html", "json"):
        clean = _figure(document, "scan", f"report_clean_{kind}_bytes")["median"]
        found = _figure(document, "scan", f"report_findings_{kind}_bytes")["median"]
        assert 0 < clean < found  # the findings are listed
        for when in ("cold", "warm"):
            figure = _figure(document, "scan", f"report_findings_{kind}_{when}_cpu")
            validate = figure["references"]["validate"]
            assert validate["value"] == pytest.approx(figure["details"][0]["validate_cpu_s"])
            assert figure["details"][0]["bytes"] == found


def test_no_figure_is_compared_with_a_figure_stated_elsewhere(
    suite: tuple[dict[str, Any], Path],
) -> None:
    document, _ = suite
    measured_here = {
        *("bare_parse", "cold", "fake_ceiling", "cli_start", "source_only", "off", "validate")
    }
    for report in document["reports"].values():
        for name, figure in report["figures"].items():
            assert set(figure.get("references", {})) <= measured_here | {"provider_limit"}, name
            assert "upstream" not in figure.get("goal", {}).get("note", ""), name
            assert figure["cpu_model"] == document["machine"]["cpu_model"], name


def test_generate_rows_are_read_against_the_fakes_ceiling_and_pseudo_against_a_cli_start(
    suite: tuple[dict[str, Any], Path],
) -> None:
    document, _ = suite
    ceiling = _figure(document, "translate_pool", "fake_ceiling")["median"]
    generate = _figure(document, "translate_pool", "generate_sites_cold")
    reference = generate["references"]["fake_ceiling"]
    assert reference["value"] == ceiling
    assert reference["ratio"] == pytest.approx(generate["median"] / ceiling, rel=0.01)
    pseudo = _figure(document, "translate_pool", "pseudo_2000")
    start = pseudo["references"]["cli_start"]
    assert start["value"] > 0
    assert start["ratio"] == pytest.approx(pseudo["median"] / start["value"], rel=0.01)


def test_in_flight_throughput_is_also_read_against_the_fakes_own_ceiling(
    suite: tuple[dict[str, Any], Path],
) -> None:
    document, _ = suite
    ceiling = _figure(document, "translate_pool", "fake_ceiling")
    assert ceiling["details"][0]["texts"] == 25 * 8 * 100
    assert ceiling["details"][0]["fake_max_in_flight"] == 8
    in_flight = _figure(document, "translate_pool", "in_flight_throughput")
    reference = in_flight["references"]["fake_ceiling"]
    assert reference["value"] == ceiling["median"] > 0
    assert reference["ratio"] == pytest.approx(in_flight["median"] / ceiling["median"], rel=0.01)


def test_generate_runs_report_the_pool_latency(suite: tuple[dict[str, Any], Path]) -> None:
    document, _ = suite
    run = document["reports"]["translate_pool"]["pool_latency"]["generate_sites_cold"][0]
    assert run["fake"]["requests"] > 0
    assert run["fake"]["texts"] > 0
    assert run["fake"]["max_in_flight"] >= 1
    assert run["source"] == "data.pool"
    for key in ("queueWaitMs", "workerMs", "httpMs"):
        assert set(run[key]) >= {"p50", "p95", "p99"}
    assert run["inFlight"]["limit"] == 8
    assert run["inFlight"]["texts_sent"] == run["fake"]["texts"]
    assert {"retries", "rateLimited", "rateLimitPauseSeconds"} <= set(run)


def test_the_table_has_every_row_of_the_issue(suite: tuple[dict[str, Any], Path]) -> None:
    document, out = suite
    lines = (out / "table.md").read_text().splitlines()
    rows = [line for line in lines if line.startswith("|")]
    assert len(rows) == 2 + 12
    assert sum("not measured" in row for row in rows) == 12 - 6
    assert lines[0].startswith(f"Measured on {document['machine']['cpu_model'] or 'a CPU whose'}")
    [cpu_row] = [row for row in rows if "cold validate, 10k files, CPU" in row]
    assert "bare parse" in cpu_row
    assert "upstream" not in "\n".join(lines)


@pytest.mark.skipif(
    importlib.util.find_spec("matplotlib") is None, reason="charts need the bench extra"
)
def test_charts_are_written_beside_the_json(suite: tuple[dict[str, Any], Path]) -> None:
    document, out = suite
    for name in ("goals.png", "batch_latency.png", "in_flight_timeline.png"):
        assert name in document["charts"]
        assert (out / name).read_bytes().startswith(b"\x89PNG")
