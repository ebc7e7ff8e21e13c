"""The language server's benchmark runs end to end at its smallest size and writes the figures
it documents (structure only: how fast is the benchmark's business)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_lsp_benchmark_smoke_writes_its_typing_figures(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("I18NPRUNE_")}
    command = [
        sys.executable, str(REPO / "benchmarks" / "lsp.py"),
        "--smoke", "--runs", "1", "--calls", "5", "--only", "typing", "--out", str(tmp_path),
    ]  # fmt: skip
    done = subprocess.run(
        command, cwd=REPO / "benchmarks", env=env, capture_output=True, text=True, timeout=110
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads((tmp_path / "lsp.json").read_text())
    assert report.get("errors") == {}, report.get("errors")
    figures = report["figures"]
    for name in ("lsp_change_p99", "lsp_hover_p99", "lsp_completion_p99", "lsp_definition_p99"):
        assert figures[name]["runs"] == 1 and figures[name]["goal"]["value"] > 0
    assert len(report["series"]["latency_ms"]["change"]) == 5
    # The change figure is read against a bare parse of the edited file, measured in the run.
    reference = figures["lsp_change_p99"]["references"]["bare_parse_p99"]
    assert reference["value"] > 0 and reference["ratio"] > 0
