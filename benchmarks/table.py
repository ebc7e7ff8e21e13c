"""The table of issue 11 with a measured column, from a suite run's reports.

python benchmarks/table.py [benchmarks/results/suite.json]
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Row:
    """A row of the issue's table: its label, the figure that measures it, figures shown
    beside it, and the goal as the issue words it."""

    label: str
    figure: str
    goal: str
    extra: tuple[str, ...] = ()


ROWS = (
    Row(
        "generate 20k leaves, call sites, cold, end to end",
        "generate_sites_cold",
        "≥ 14,000/s (35 %)",
    ),
    Row(
        "generate 100k leaves over 10k files, scan cache warm",
        "generate_warm_scan",
        "≥ 20,000/s (50 %)",
    ),
    Row(
        "generate 100k leaves, one 3 MB source, 100k call sites",
        "generate_one_file",
        "≥ 15,000/s; cost linear in sites",
    ),
    Row("generate 100k leaves, no call sites", "generate_no_sites", "≥ 25,000/s"),
    Row(
        "while requests are in flight",
        "in_flight_throughput",
        "≥ 90 % of the limit",
        ("fake_ceiling",),
    ),
    Row("2,000 pseudo leaves", "pseudo_2000", "≤ 0.5 s"),
    Row("cold validate, 10k files, wall", "validate_cold_wall", "≤ 2 s wall"),
    Row(
        "cold validate, 10k files, CPU",
        "validate_cold_cpu",
        "none: read as a ratio to a bare parse of the same files",
        ("bare_parse_cpu",),
    ),
    Row("warm validate, 10k files", "validate_warm_wall", "≤ 0.3 s"),
    Row("serve warm op.validate, 10k files", "serve_validate_warm", "≤ 30 ms"),
    Row("memory, 100k files", "memory_per_file_kb", "≤ 1 KB per file", ("memory_files_mb",)),
    Row(
        "serve ping p99 during a 20k generate", "serve_ping_p99_under_generate", "≤ 10 ms every run"
    ),
)


def _figures(reports: Mapping[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for report in reports.values():
        out.update(report.get("figures", {}))
    return out


def _number(value: float) -> str:
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}"


def _load(figure: dict[str, Any]) -> str:
    """The 1-minute load before each run, in run order."""
    loads = [run["before"][0] for run in figure.get("load", []) if run.get("before")]
    return f"load {', '.join(f'{load:.1f}' for load in loads)}" if loads else ""


UNRECORDED_CPU = "a CPU whose model the run did not record"


def caption(machine: Mapping[str, Any]) -> str:
    """The line above the table: the machine every figure was measured on."""
    dirty = " with changes" if machine.get("git_dirty") else ""
    return (
        f"Measured on {machine.get('cpu_model') or UNRECORDED_CPU} "
        f"({machine.get('cpu_count')} CPUs), Python {machine.get('python')}, commit "
        f"{str(machine.get('git_commit', ''))[:7]}{dirty}; each cell: min / median of the runs, "
        "ratios of the median to what the same session measured, the 1-minute load before "
        "each run."
    )


def measured(figure: dict[str, Any]) -> str:
    """`min X / median Y unit` plus the ratios and the load of a figure."""
    unit = figure["unit"]
    text = f"{_number(figure['min'])} / {_number(figure['median'])} {unit}"
    notes = []
    for name, reference in figure.get("references", {}).items():
        if reference.get("ratio") is not None:
            notes.append(f"{reference['ratio']:.2f}× {name.replace('_', ' ')}")
    if "goal" in figure:
        notes.append(f"{figure['ratio_to_goal']:.2f}× goal")
    if "every_run_meets_goal" in figure:
        each = ", ".join(_number(value) for value in figure["values"])
        notes.append(f"runs: {each}; every run met it: {figure['every_run_meets_goal']}")
    load = _load(figure)
    runs = f"{load}, n={figure['runs']}" if load else f"n={figure['runs']}"
    return f"{text} ({'; '.join([*notes, runs])})"


def markdown(reports: Mapping[str, dict[str, Any]], *, mode: str = "full") -> str:
    """The issue's table, measured column = min / median of the runs, with ratios and load
    (in `quick` or `smoke` mode sizes are reduced, so each row also names what was measured)."""
    figures = _figures(reports)
    machines = [report["machine"] for report in reports.values() if "machine" in report]
    lines = [
        *([caption(machines[0]), ""] if machines else []),
        "| | measured: min / median (ratios; load per run; runs) | goal | met (median) |",
        "|---|---|---|---|",
    ]
    for row in ROWS:
        figure = figures.get(row.figure)
        if figure is None:
            lines.append(f"| {row.label} | not measured | {row.goal} | |")
            continue
        cell = measured(figure)
        for extra in row.extra:
            if extra in figures:
                cell += f"<br>{figures[extra]['title']}: {measured(figures[extra])}"
        label = row.label if mode == "full" else f"{row.label} — {mode}: {figure['title']}"
        met = "—" if "meets_goal" not in figure else "yes" if figure["meets_goal"] else "no"
        lines.append(f"| {label} | {cell} | {row.goal} | {met} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("benchmarks/results/suite.json")
    suite = json.loads(path.read_text())
    print(markdown(suite["reports"], mode=suite["settings"]["mode"]), end="")


if __name__ == "__main__":
    main()
