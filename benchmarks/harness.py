"""What every benchmark shares: an isolated environment per run, the machine's description, and
figures (min / median of several runs, each beside its limit as a ratio) collected into one JSON
report."""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from fixtures import FixtureStore

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "benchmarks" / "results"
Better = Literal["higher", "lower"]
Mode = Literal["full", "quick", "smoke"]


def cli_environment(home: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a measured CLI or server: an isolated home, and bytecode caching as on
    a user's install (pip compiles it; PYTHONDONTWRITEBYTECODE, which this machine sets, would
    make every run recompile every module). Provider variables of the caller's shell are
    dropped, so a run reaches only the loopback fakes that `extra` names."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("I18NPRUNE_") and name not in ("PYTHONDONTWRITEBYTECODE", "CI")
    }
    env["I18NPRUNE_HOME"] = str(home)
    env.update(extra or {})
    return env


def add_common_arguments(parser: argparse.ArgumentParser, steps: Sequence[str]) -> None:
    """The flags every benchmark takes: the size mode, runs per figure, the output folder, and
    `--only` (a comma list of `steps`)."""
    sizes = parser.add_mutually_exclusive_group()
    sizes.add_argument("--quick", action="store_true", help="smaller sizes: a few minutes")
    sizes.add_argument(
        "--smoke", action="store_true", help="tiny sizes: checks the suite runs; measures nothing"
    )
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (≥ 3 for figures)")
    parser.add_argument("--out", type=Path, default=RESULTS, help="folder for the JSON and charts")
    parser.add_argument(
        "--only",
        type=lambda text: text.split(","),
        default=None,
        help=f"comma list of steps to run (default: all): {', '.join(steps)}",
    )


def mode(args: argparse.Namespace) -> Mode:
    """The size mode `--quick` / `--smoke` chose (default: full, the issue's sizes)."""
    if getattr(args, "smoke", False):
        return "smoke"
    return "quick" if getattr(args, "quick", False) else "full"


def cli(root: Path, *args: str) -> list[str]:
    """The argv of `i18nprune -C root *args` with this interpreter."""
    return [sys.executable, "-m", "i18nprune", "-C", str(root), *args]


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank value below which `share` (0–1) of `values` lie."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def loadavg() -> list[float]:
    """The 1, 5 and 15 minute load averages from /proc/loadavg."""
    return [float(part) for part in Path("/proc/loadavg").read_text().split()[:3]]


def _git(*args: str) -> str:
    try:
        done = subprocess.run(
            ["git", "-C", str(REPO), *args], capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip()


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo ("" where there is none)."""
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        return ""
    return next((line.split(":", 1)[1].strip() for line in lines if "model name" in line), "")


def machine() -> dict[str, Any]:
    """CPU count and model, Python, platform and the git commit (with whether the tree had
    changes)."""
    return {
        "cpu_count": os.cpu_count(),
        "cpu_model": cpu_model(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "git_commit": _git("rev-parse", "HEAD"),
        "git_dirty": bool(_git("status", "--porcelain", "--untracked-files=no")),
    }


@contextmanager
def scratch(prefix: str = "i18nprune-bench-") -> Iterator[Path]:
    """A temp folder for one benchmark session, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix=prefix) as folder:
        yield Path(folder)


class Homes:
    """Fresh, empty `I18NPRUNE_HOME` folders (one per run) under a session folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._count = 0

    def new(self) -> Path:
        """A new empty home."""
        self._count += 1
        home = self.folder / f"home-{self._count}"
        home.mkdir(parents=True)
        return home


def warm_bytecode(home: Path) -> None:
    """Compile the package's bytecode once, as an installed package has it, without touching
    any project cache."""
    command = [sys.executable, "-m", "i18nprune", "--version"]
    subprocess.run(command, env=cli_environment(home), capture_output=True, check=True, timeout=60)


@dataclass(frozen=True)
class Limit:
    """A value a figure is compared with: `value` in the figure's unit and where it comes from."""

    value: float
    note: str


@dataclass(frozen=True)
class Spec:
    """What a figure measures. `goal` is the issue's limit (a floor when `better` is "higher",
    a ceiling otherwise); `references` are other values to report a ratio to, each measured in
    the same session (the fake's ceiling, a bare parse, a cold run, a peer CLI timed by hand)
    but for the provider limit, which is arithmetic."""

    id: str
    title: str
    unit: str
    better: Better
    goal: Limit | None = None
    references: Mapping[str, Limit] = field(default_factory=dict)


@dataclass
class Run:
    """One run of a figure: its value, the load average before and after, and what else was
    seen (counts, CPU, memory, pool statistics)."""

    value: float
    load_before: list[float]
    load_after: list[float]
    details: dict[str, Any] = field(default_factory=dict)


def measure_runs(runs: int, once: Callable[[int], tuple[float, dict[str, Any]]]) -> list[Run]:
    """Call `once(index)` `runs` times, recording the load average around each call."""
    out = []
    for index in range(runs):
        before = loadavg()
        value, details = once(index)
        out.append(Run(value, before, loadavg(), details))
    return out


def _ratio(value: float, limit: float) -> float | None:
    return float(f"{value / limit:.4g}") if limit else None


def figure(spec: Spec, runs: Sequence[Run], **extra: Any) -> dict[str, Any]:
    """The JSON of a figure: every run, min / median / max, the best run, and each ratio
    (median ÷ limit; `meets_goal` compares the median with the goal)."""
    values = [run.value for run in runs]
    median = statistics.median(values)
    best = max(values) if spec.better == "higher" else min(values)
    out: dict[str, Any] = {
        "title": spec.title,
        "unit": spec.unit,
        "better": spec.better,
        "runs": len(values),
        "values": [_round(value) for value in values],
        "min": _round(min(values)),
        "median": _round(median),
        "max": _round(max(values)),
        "best": _round(best),
    }
    if spec.goal is not None:
        out["goal"] = {"value": spec.goal.value, "note": spec.goal.note}
        out["ratio_to_goal"] = _ratio(median, spec.goal.value)
        out["meets_goal"] = (
            median >= spec.goal.value if spec.better == "higher" else median <= spec.goal.value
        )
        out["best_meets_goal"] = (
            best >= spec.goal.value if spec.better == "higher" else best <= spec.goal.value
        )
    if spec.references:
        out["references"] = {
            name: {"value": limit.value, "note": limit.note, "ratio": _ratio(median, limit.value)}
            for name, limit in spec.references.items()
        }
    out["load"] = [{"before": run.load_before, "after": run.load_after} for run in runs]
    out["details"] = [run.details for run in runs]
    out.update(extra)
    return out


def _round(value: float) -> float:
    return round(value, 4) if abs(value) < 10 else round(value, 1)


def scaling(
    title: str,
    unit: str,
    points: Sequence[tuple[float, float, float]],
    *,
    size_unit: str,
    scale: float = 1.0,
) -> dict[str, Any]:
    """A scaling series from `(size, total cost, units)` points (medians): at each size the
    per-unit cost (total ÷ units × `scale`, in `unit`) and the marginal cost from the previous
    size (Δtotal ÷ Δunits × `scale`: what one more unit costs, free of fixed start-up costs).
    `growth` is the per-unit cost at the largest size ÷ at the smallest; `marginal_growth` the
    last marginal ÷ the first (with three sizes or more). Either above 1.5 flags `superlinear`.
    """
    ordered = sorted(points)
    rows: list[dict[str, Any]] = []
    for index, (size, total, units) in enumerate(ordered):
        row = {"size": size, "units": units, "total": _round(total),
               "per_unit": _round(total / units * scale)}  # fmt: skip
        if index:
            _, previous_total, previous_units = ordered[index - 1]
            if units != previous_units:
                row["marginal"] = _round(
                    (total - previous_total) / (units - previous_units) * scale
                )
        rows.append(row)
    growth = (
        rows[-1]["per_unit"] / rows[0]["per_unit"]
        if len(rows) > 1 and rows[0]["per_unit"]
        else None
    )
    marginals = [row["marginal"] for row in rows if "marginal" in row]
    marginal_growth = (
        marginals[-1] / marginals[0] if len(marginals) > 1 and marginals[0] > 0 else None
    )
    return {
        "title": title,
        "unit": unit,
        "size_unit": size_unit,
        "points": rows,
        "growth": round(growth, 3) if growth is not None else None,
        "marginal_growth": round(marginal_growth, 3) if marginal_growth is not None else None,
        "superlinear": any(
            value is not None and value > 1.5 for value in (growth, marginal_growth)
        ),
    }


class Report:
    """The figures, scaling series and raw series of one benchmark, saved as JSON."""

    def __init__(self, name: str, settings: Mapping[str, Any]) -> None:
        self.name = name
        self.data: dict[str, Any] = {
            "benchmark": name,
            "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "machine": machine(),
            "load_before": loadavg(),
            "settings": dict(settings),
            "figures": {},
            "scaling": {},
            "series": {},
        }

    def add(self, spec: Spec, runs: Sequence[Run], **extra: Any) -> dict[str, Any]:
        """Add the figure of `spec` over `runs`; print a one-line summary."""
        result = figure(spec, runs, **extra)
        result["cpu_model"] = self.data["machine"]["cpu_model"]
        self.data["figures"][spec.id] = result
        goal = f" goal {spec.goal.value:g}" if spec.goal else ""
        ratio = f" ({result['ratio_to_goal']}× goal)" if result.get("ratio_to_goal") else ""
        print(
            f"[{self.name}] {spec.title}: min {result['min']:g} / median {result['median']:g}"
            f" {spec.unit}{goal}{ratio}",
            file=sys.stderr,
            flush=True,
        )
        return result

    def add_scaling(self, key: str, series: dict[str, Any]) -> None:
        """Add a scaling series (see `scaling`)."""
        self.data["scaling"][key] = series

    def add_series(self, key: str, value: Any) -> None:
        """Keep raw data for the plots (timelines, batch timings)."""
        self.data["series"][key] = value

    def save(self, folder: Path) -> Path:
        """Write `<folder>/<name>.json` (with the load average at the end) and return its path."""
        self.data["load_after"] = loadavg()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.name}.json"
        path.write_text(json.dumps(self.data, indent=1) + "\n")
        return path


def run_steps(report: Report, steps: Sequence[tuple[str, Callable[[], None]]]) -> Report:
    """Run each named step of a benchmark; a step that raises is recorded in the report's
    `errors` (and printed) while the others still run. Each step's seconds go to `elapsed_s`."""
    errors, elapsed = report.data.setdefault("errors", {}), report.data.setdefault("elapsed_s", {})
    for name, step in steps:
        started = time.perf_counter()
        try:
            step()
        except Exception as problem:  # one broken figure must not hide the others
            errors[name] = f"{type(problem).__name__}: {problem}"
            print(f"[{report.name}] {name} failed: {errors[name]}", file=sys.stderr, flush=True)
        elapsed[name] = round(time.perf_counter() - started, 1)
    return report


def json_of(text: str) -> dict[str, Any]:
    """The JSON envelope a `--json` command printed."""
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError(f"not an envelope: {text[:200]!r}")
    return value


def run_alone(
    description: str | None,
    figures: Sequence[str],
    add_arguments: Callable[[argparse.ArgumentParser], None],
    run: Callable[[argparse.Namespace, FixtureStore, Homes], Report],
) -> None:
    """The command line of one benchmark script: the common flags and its own, then `run` on
    fixtures and homes in a scratch folder; prints where the report was saved."""
    parser = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_common_arguments(parser, figures)
    add_arguments(parser)
    args = parser.parse_args()
    with scratch() as folder:
        report = run(args, FixtureStore(folder / "fixtures"), Homes(folder / "homes"))
        print(report.save(args.out))
