"""The whole benchmark suite: every figure of issue 11's table, the translate-pool latency, the
scaling runs, and the charts.

    python benchmarks/run_all.py [--quick | --smoke] [--runs 3] [--peer-cmd 'CMD {root}']
                                 [--out DIR] [--only scan,translate_pool:pseudo_2000,...]

Runs micro.py, scan.py, translate_pool.py, serve.py, lsp.py and fleet.py in this process on
fixtures written once (deterministic, `fixtures.py`) in a temp folder; every measured command
gets a fresh `I18NPRUNE_HOME` and a timeout. Writes into `--out` (default benchmarks/results/):
one JSON per benchmark, `suite.json` (all of them, with the machine and its load), `table.md`
(the issue's table with the measured column), `fleet.md` (the fleet's table) and the PNG
charts. `--quick` shrinks the expensive sizes and takes a few minutes; the full suite takes an
hour or more on a 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import fleet
import lsp
import micro
import scan
import serve
import table
import translate_pool
from fixtures import FixtureStore
from harness import Homes, add_common_arguments, loadavg, machine, mode, scratch

BENCHMARKS = ("micro", "scan", "translate_pool", "serve", "lsp", "fleet")
STEPS = {
    "micro": ("all",),
    "scan": scan.FIGURES,
    "translate_pool": translate_pool.FIGURES,
    "serve": serve.FIGURES,
    "lsp": lsp.FIGURES,
    "fleet": fleet.FIGURES,
}


def selection(only: list[str] | None) -> dict[str, list[str] | None]:
    """`--only` as {benchmark: its steps (None: all)}, from items `bench` or `bench:step`;
    raises ValueError naming an unknown item."""
    chosen: dict[str, list[str] | None] = {}
    for item in only or BENCHMARKS:
        name, _, step = item.partition(":")
        if name not in STEPS or (step and step not in STEPS[name]):
            raise ValueError(f"unknown benchmark or step {item!r}")
        if not step:
            chosen[name] = None
        elif name not in chosen:
            chosen[name] = [step]
        elif (steps := chosen[name]) is not None:
            steps.append(step)
    return chosen


def _namespace(args: argparse.Namespace, **overrides: Any) -> argparse.Namespace:
    return argparse.Namespace(**{**vars(args), **overrides})


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Run the chosen benchmarks, save every report, the suite JSON, the table and the charts;
    returns the suite document."""
    started = time.perf_counter()
    chosen = selection(args.only)
    suite: dict[str, Any] = {
        "suite": "i18nprune benchmarks",
        "machine": machine(),
        "load_before": loadavg(),
        "settings": {
            "mode": mode(args),
            "runs": args.runs,
            "peer_cmd": args.peer_cmd,
            "latency_s": args.latency,
            "only": args.only,
        },
        "reports": {},
    }
    with scratch() as folder:
        store, homes = FixtureStore(folder / "fixtures"), Homes(folder / "homes")
        for name in BENCHMARKS:
            if name not in chosen:
                continue
            print(f"== {name}", file=sys.stderr, flush=True)
            bench_args = _namespace(args, only=chosen[name])
            if name == "micro":
                report = micro.run(_namespace(bench_args, runs=max(args.runs, 5)))
            elif name == "scan":
                report = scan.run(bench_args, store, homes)
            elif name == "translate_pool":
                report = translate_pool.run(bench_args, store, homes)
            elif name == "lsp":
                report = lsp.run(_namespace(bench_args, calls=lsp.CALLS), store, homes)
            elif name == "fleet":
                report = fleet.run(bench_args, store, homes)
            else:
                report = serve.run(_namespace(bench_args, pings=300), store, homes)
            report.save(args.out)
            suite["reports"][name] = report.data
    suite["load_after"] = loadavg()
    suite["elapsed_s"] = round(time.perf_counter() - started, 1)
    args.out.mkdir(parents=True, exist_ok=True)
    text = table.markdown(suite["reports"], mode=mode(args))
    (args.out / "table.md").write_text(text)
    suite["charts"] = charts(suite["reports"], args.out, mode(args))
    (args.out / "suite.json").write_text(json.dumps(suite, indent=1) + "\n")
    print(text)
    return suite


def charts(reports: dict[str, Any], folder: Path, size_mode: str) -> list[str] | str:
    """Write the PNG charts of a run in `size_mode`; their file names, or why there are none
    (no matplotlib: the `bench` extra is not installed)."""
    try:
        import plots
    except ImportError as missing:
        note = f"charts skipped ({missing}): pip install -e '.[bench]'"
        print(note, file=sys.stderr)
        return note
    rows = [(row.label, row.figure) for row in table.ROWS]
    made = plots.write_all(reports, folder, rows, size_mode)
    for path in made:
        print(f"chart: {path}", file=sys.stderr)
    return [path.name for path in made]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    steps = [*BENCHMARKS, *(f"{name}:{step}" for name in BENCHMARKS[1:] for step in STEPS[name])]
    add_common_arguments(parser, steps)
    translate_pool.add_arguments(parser)
    scan.add_arguments(parser)
    fleet.add_arguments(parser)
    args = parser.parse_args()
    try:
        selection(args.only)
    except ValueError as problem:
        parser.error(str(problem))
    run(args)


if __name__ == "__main__":
    main()
