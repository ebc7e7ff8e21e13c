"""Scan speed and memory: cold and warm `validate` over TSX/Vue/Svelte trees of 1k–100k files.

    python benchmarks/scan.py [--quick | --smoke] [--runs 3] [--peer-cmd 'CMD {root}'] [--out DIR]

Each run is the real CLI (`i18nprune validate --json`) in a fresh process: cold with a fresh
`I18NPRUNE_HOME` (empty scan cache), warm right after in the same home. Wall time, CPU time
summed over the process tree (rusage of the reaped tree), and memory as the peak of RSS summed
over the tree (front process + scan workers), sampled every 50 ms. Files average ~4 KB; 35 %
call `t()` on leaves of the source locale. Each run at the main size is followed by a bare
parse of the same files (`bare_parse.py`: the same grammars, no extraction, as many processes as
`validate` uses): cold `validate` is stated as a ratio to it, and warm `validate` as a ratio to
the cold one, both measured in the same run, so that the figures can be checked on another
machine. `--peer-cmd` (a shell command, `{root}` replaced by the fixture's folder) times another
tool on the same fixture in the same session, run after run with ours: install and build it
yourself, nothing in the repository does.
Step `validate_namespaced_warm`: cold and warm CPU of a homarr-shaped next-i18next app (33
target locales × 78 namespace files in `public/locales/<locale>/`, also with a lock file), each
read against the same app with only its source locale in the same session.
Step `validate_zero_config`: cold and warm CPU of the main fixture with its config file and of
a copy without one (discovery reads the layout, source and source folders), run after run.
Step `report_command`: `report --out report.html` and `report --format json --out report.json`,
cold and warm, of the main fixture as written (nothing to act on) and of a copy with findings
(`fixtures.with_findings`; at 10k files: 5,000 unused keys, two partly translated targets with
review marks and lost placeholders, 200 missing keys): wall, CPU and the file's bytes, each read
against `validate` of the same tree in the same run (cold, and warm).
Saves `scan.json` in `--out` (default benchmarks/results/).
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import statistics
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from fixtures import FixtureStore, NamespacedShape, NamespacedWritten, Shape, Written
from harness import (
    Homes,
    Limit,
    Mode,
    Report,
    Run,
    Spec,
    cli,
    cli_environment,
    loadavg,
    mode,
    run_alone,
    run_steps,
    scaling,
    warm_bytecode,
)
from processes import Measured, run_measured

BARE_PARSE = Path(__file__).resolve().parent / "bare_parse.py"


def validate_shape(files: int) -> Shape:
    """`files` components of ~4 KB, 35 % of them calling `t()`, one leaf per file."""
    return Shape(leaves=files, files=files, share_with_sites=0.35, blocks=16)


@dataclass(frozen=True)
class Sizes:
    """The file counts of one suite mode."""

    files: int  # the cold/warm figures
    memory: int  # the memory figure
    scale: tuple[int, ...]
    timeout: float

    @classmethod
    def of(cls, mode: Mode) -> Sizes:
        """The sizes of `mode`: the issue's (full), smaller (quick), tiny (smoke)."""
        return {
            "full": cls(10_000, 100_000, (1_000, 10_000, 100_000), 1200.0),
            "quick": cls(10_000, 10_000, (1_000, 10_000), 300.0),
            "smoke": cls(200, 200, (50, 200), 120.0),
        }[mode]


def _cold_wall(files: int, references: dict[str, Limit]) -> Spec:
    return Spec(
        "validate_cold_wall",
        f"cold validate, {files:,} files, wall",
        "s",
        "lower",
        Limit(2.0, "issue 11 goal: ≤ 2 s wall"),
        references,
    )


def _cold_cpu(files: int, references: dict[str, Limit]) -> Spec:
    return Spec(
        "validate_cold_cpu",
        f"cold validate, {files:,} files, CPU summed over the process tree",
        "s",
        "lower",
        None,
        references,
    )


def _warm(files: int, cold_wall: float) -> Spec:
    return Spec(
        "validate_warm_wall",
        f"warm validate, {files:,} files, wall",
        "s",
        "lower",
        Limit(0.3, "issue 11 goal: ≤ 0.3 s"),
        {"cold": Limit(cold_wall, "cold validate of the same files, median wall in this session")},
    )


def _bare(files: int, what: str) -> Spec:
    measure = "CPU summed over the process tree" if what == "cpu" else "wall"
    return Spec(
        f"bare_parse_{what}",
        f"bare parse of the same {files:,} files (bare_parse.py: the grammars only, "
        f"as many processes as validate), {measure}",
        "s",
        "lower",
    )


def _memory(files: int) -> Spec:
    return Spec(
        "memory_files_mb",
        f"memory, cold validate of {files:,} files, peak RSS summed over the process tree",
        "MB",
        "lower",
    )


def _per_file(files: int) -> Spec:
    return Spec(
        "memory_per_file_kb",
        f"memory per file at {files:,} files ((peak − 1-file baseline) ÷ files)",
        "KB",
        "lower",
        Limit(1.0, "issue 11 goal: ≤ 1 KB per file"),
    )


class Validator:
    """Runs `validate --json` cold and warm on a fixture, one fresh home per cold run."""

    def __init__(self, homes: Homes, timeout: float) -> None:
        self.homes = homes
        self.timeout = timeout

    def once(self, root: Path, home: Path, *flags: str) -> Measured:
        """One measured `validate --json` of the project at `root` in `home`, with `flags`
        besides (exit 1, keys missing, is fine)."""
        argv = cli(root, *flags, "validate", "--json", "--json-compact")
        measured = run_measured(argv, env=cli_environment(home), timeout=self.timeout, check=False)
        if measured.returncode not in (0, 1) or '"kind":"validate"' not in measured.stdout:
            raise RuntimeError(
                f"validate failed: {measured.stdout[:1000]} {measured.stderr[-2000:]}"
            )
        return measured

    def cold_and_warm(self, root: Path, *flags: str) -> tuple[Measured, Measured]:
        """A cold run in a fresh home, then a warm run in it (`flags` as in `once`)."""
        home = self.homes.new()
        cold = self.once(root, home, *flags)
        return cold, self.once(root, home, *flags)


def details(measured: Measured, written: Written) -> dict[str, Any]:
    """What a validate run's JSON keeps."""
    return {
        "files": written.files,
        "source_mb": round(written.source_bytes / 1e6, 1),
        "wall_s": round(measured.wall_s, 3),
        "cpu_s": round(measured.cpu_s, 3),
        "cpu_sampled_s": round(measured.cpu_sampled_s, 3),
        "peak_rss_sum_mb": round(measured.peak_rss_mb, 1),
        "peak_front_rss_mb": round(measured.peak_root_rss / 1e6, 1),
        "peak_processes": measured.peak_processes,
    }


def _run(value: float, before: list[float], measured: Measured, written: Written) -> Run:
    return Run(value, before, loadavg(), details(measured, written))


def bare_parse_once(written: Written, home: Path, timeout: float) -> Measured:
    """One run of `bare_parse.py` on the fixture, with the worker count `validate` uses."""
    argv = [sys.executable, str(BARE_PARSE), str(written.root)]
    return run_measured(argv, env=cli_environment(home), timeout=timeout)


def peer_once(command: str, written: Written, home: Path, timeout: float) -> Measured:
    """One run of the peer's shell command on the fixture (any exit code: finding missing keys
    may be non-zero)."""
    line = command.replace("{root}", shlex.quote(str(written.root)))
    return run_measured([line], env=cli_environment(home), timeout=timeout, check=False, shell=True)


@dataclass
class SizeRuns:
    """The runs at one fixture size: cold wall, cold CPU, warm wall, cold memory (tree RSS
    peak), the bare parse's and the peer's runs (main size only), and the memory timeline of
    the first cold run."""

    cold_wall: list[Run]
    cold_cpu: list[Run]
    warm: list[Run]
    memory: list[Run]
    bare: list[Run]
    peer: list[Run]
    timeline: dict[str, Any]

    def median(self, series: str) -> float:
        """The median value of one of the series."""
        runs: list[Run] = getattr(self, series)
        return statistics.median(run.value for run in runs)


class Benchmark:
    """The scan figures of one session."""

    def __init__(self, args: argparse.Namespace, store: FixtureStore, homes: Homes) -> None:
        self.args = args
        self.sizes = Sizes.of(mode(args))
        self.store = store
        self.homes = homes
        self.validator = Validator(homes, self.sizes.timeout)
        settings = {
            "mode": mode(args),
            "runs": args.runs,
            "peer_cmd": args.peer_cmd,
            "sizes": self.sizes.__dict__,
        }
        self.report = Report("scan", settings)
        self.measured: dict[int, SizeRuns] = {}
        self.baseline = 0.0

    def _measure(self, files: int) -> SizeRuns:
        """`--runs` cold + warm runs at `files`; at the main size a bare parse after each, and
        the peer's (ratios per run: each to what was measured right before or after it)."""
        if files in self.measured:
            return self.measured[files]
        written = self.store.get(validate_shape(files))
        out = SizeRuns([], [], [], [], [], [], {})
        for _ in range(self.args.runs):
            before = loadavg()
            cold, warm = self.validator.cold_and_warm(written.root)
            out.cold_wall.append(_run(cold.wall_s, before, cold, written))
            out.cold_cpu.append(_run(cold.cpu_s, before, cold, written))
            out.memory.append(_run(cold.peak_rss_mb, before, cold, written))
            out.warm.append(_run(warm.wall_s, before, warm, written))
            out.warm[-1].details["ratio_to_cold_wall"] = round(warm.wall_s / cold.wall_s, 4)
            out.timeline = out.timeline or _memory_timeline(cold)
            if files == self.sizes.files:
                before = loadavg()
                bare = bare_parse_once(written, self.homes.new(), self.sizes.timeout)
                out.bare.append(_run(bare.cpu_s, before, bare, written))
                out.bare[-1].details.update(json.loads(bare.stdout))
                out.cold_cpu[-1].details["ratio_to_bare_parse_cpu"] = round(
                    cold.cpu_s / bare.cpu_s, 3
                )
                out.cold_wall[-1].details["ratio_to_bare_parse_wall"] = round(
                    cold.wall_s / bare.wall_s, 3
                )
            if self.args.peer_cmd and files == self.sizes.files:
                before = loadavg()
                peer = peer_once(self.args.peer_cmd, written, self.homes.new(), self.sizes.timeout)
                out.peer.append(_run(peer.wall_s, before, peer, written))
                out.peer[-1].details.update(
                    returncode=peer.returncode, stdout_tail=peer.stdout[-300:]
                )
        self.measured[files] = out
        return out

    def validate(self) -> None:
        files = self.sizes.files
        runs = self._measure(files)
        bare_wall = [
            Run(r.details["wall_s"], r.load_before, r.load_after, r.details) for r in runs.bare
        ]
        self.report.add(_bare(files, "wall"), bare_wall)
        self.report.add(_bare(files, "cpu"), runs.bare)
        note = "bare parse of the same files (bare_parse.py), median {} in this session"
        wall_references = {
            "bare_parse": Limit(statistics.median(r.value for r in bare_wall), note.format("wall"))
        }
        cpu_references = {"bare_parse": Limit(runs.median("bare"), note.format("CPU"))}
        if runs.peer:
            peer_cpu = [
                Run(r.details["cpu_s"], r.load_before, r.load_after, r.details) for r in runs.peer
            ]
            self.report.add(
                Spec(
                    "peer_cold_wall",
                    f"peer (--peer-cmd) on the same {files:,} files, wall",
                    "s",
                    "lower",
                ),
                runs.peer,
            )
            self.report.add(
                Spec(
                    "peer_cold_cpu",
                    "peer (--peer-cmd), CPU summed over the process tree",
                    "s",
                    "lower",
                ),
                peer_cpu,
            )
            peer_wall = statistics.median(run.value for run in runs.peer)
            peer_cpu_median = statistics.median(run.value for run in peer_cpu)
            measured = "measured by hand: --peer-cmd, median {} in this session"
            wall_references["peer"] = Limit(peer_wall, measured.format("wall"))
            cpu_references["peer"] = Limit(peer_cpu_median, measured.format("CPU"))
        self.report.add(_cold_wall(files, wall_references), runs.cold_wall)
        self.report.add(_cold_cpu(files, cpu_references), runs.cold_cpu)
        self.report.add(_warm(files, runs.median("cold_wall")), runs.warm)

    def memory(self) -> None:
        baseline_fixture = self.store.get(Shape(leaves=10, files=1, blocks=1))
        self.baseline = statistics.median(
            self.validator.once(baseline_fixture.root, self.homes.new()).peak_rss_mb
            for _ in range(3)
        )
        files = self.sizes.memory
        runs = self._measure(files)
        self.report.add_series("memory_timeline", {"files": files, **runs.timeline})
        self.report.add(_memory(files), runs.memory, baseline_mb=round(self.baseline, 1))
        per_file = [
            Run(
                (run.value - self.baseline) * 1e3 / files,
                run.load_before,
                run.load_after,
                {"peak_rss_sum_mb": run.value, "baseline_mb": round(self.baseline, 1)},
            )
            for run in runs.memory
        ]
        self.report.add(_per_file(files), per_file)

    def scaling_files(self) -> None:
        for files in self.sizes.scale:
            runs = self._measure(files)
            if files == self.sizes.files:
                continue
            for kind, kind_runs in (
                ("cold wall", runs.cold_wall),
                ("cold CPU", runs.cold_cpu),
                ("warm wall", runs.warm),
            ):
                key = f"validate_{kind.lower().replace(' ', '_')}_{files}"
                spec = Spec(key, f"validate {kind}, {files:,} files", "s", "lower")
                self.report.add(spec, kind_runs)
        for key, field, unit in (
            ("cold_wall", "cold_wall", "ms wall"),
            ("cold_cpu", "cold_cpu", "ms CPU"),
            ("warm_wall", "warm", "ms wall"),
        ):
            points = [(n, sized.median(field), n) for n, sized in self._scale()]
            title = f"validate {key.replace('_', ' ')}: {unit} per file"
            series = scaling(title, unit, points, size_unit="files", scale=1e3)
            self.report.add_scaling(f"validate_{key}", series)
        memory = [(n, runs.median("memory") - self.baseline, n) for n, runs in self._scale()]
        title = "cold validate: KB of tree RSS per file (above a 1-file baseline)"
        series = scaling(title, "KB", memory, size_unit="files", scale=1e3)
        self.report.add_scaling("validate_memory", series)

    def validate_namespaced_warm(self) -> None:
        """Cold and warm `validate` of a homarr-shaped next-i18next app (33 target locales × 78
        namespace files), with and without a lock file, each beside the same app with only its
        source locale, measured in the same run: its warm ÷ the source-only warm is what the
        target files cost a warm run."""
        shape = NamespacedShape(**NAMESPACED_SIZES[mode(self.args)])
        variants = {
            "source_only": replace(shape, targets=0),
            "targets": shape,
            "lock": replace(shape, lock=True),
        }
        runs: dict[str, tuple[list[Run], list[Run]]] = {name: ([], []) for name in variants}
        for _ in range(self.args.runs):
            measured: dict[str, Measured] = {}
            for name, variant in variants.items():
                written = self.store.namespaced(variant)
                before = loadavg()
                cold, warm = self.validator.cold_and_warm(written.root)
                measured[name] = warm
                cold_runs, warm_runs = runs[name]
                cold_runs.append(Run(cold.cpu_s, before, loadavg(), namespaced(cold, written)))
                warm_runs.append(Run(warm.cpu_s, before, loadavg(), namespaced(warm, written)))
            alone = measured["source_only"].cpu_s
            for _, warm_runs in runs.values():
                warm_runs[-1].details["ratio_to_source_only_warm"] = round(
                    warm_runs[-1].value / alone, 3
                )
        for name, (cold_runs, warm_runs) in runs.items():
            self.report.add(_namespaced(name, "cold", variants[name], runs), cold_runs)
            self.report.add(_namespaced(name, "warm", variants[name], runs), warm_runs)

    def validate_repository(self) -> None:
        """Cold and warm `validate` of the main-size fixture with repository-wide literal
        evidence on (the default) and off (`reference.repository.enabled: false`), back to
        back in each run: what the repository pass costs, as a ratio to the same command
        without it in the same session."""
        files = self.sizes.files
        written = self.store.get(validate_shape(files))
        config = json.loads((written.root / "i18nprune.config.json").read_text())
        config.setdefault("reference", {})["repository"] = {"enabled": False}
        off = self.homes.new() / "repository-off.json"
        off.write_text(json.dumps(config))
        runs = self._back_to_back(
            written, {"on": (written.root, ()), "off": (written.root, ("-c", str(off)))}
        )
        for kind in ("cold", "warm"):
            without = statistics.median(run.value for run in runs[("off", kind)])
            for run in runs[("on", kind)]:
                run.details["ratio_to_off_median"] = round(run.value / without, 3)
            self.report.add(
                Spec(
                    f"validate_repository_off_{kind}_cpu",
                    f"{kind} validate, {files:,} files, repository-wide evidence off, CPU",
                    "s",
                    "lower",
                ),
                runs[("off", kind)],
            )
            self.report.add(
                Spec(
                    f"validate_repository_on_{kind}_cpu",
                    f"{kind} validate, {files:,} files, repository-wide evidence on, CPU",
                    "s",
                    "lower",
                    Limit(
                        without * (1.15 if kind == "cold" else 1.05),
                        "issue 25 goal: ≤ 15 % over the same run without it cold, ~0 warm",
                    ),
                    {"off": Limit(without, f"evidence off, median {kind} CPU in this session")},
                ),
                runs[("on", kind)],
            )

    def _back_to_back(
        self, written: Written, variants: dict[str, tuple[Path, tuple[str, ...]]]
    ) -> dict[tuple[str, str], list[Run]]:
        """Cold and warm CPU of `validate` on each variant (a root and the flags to run it
        with), the variants one after another in each of the session's runs, keyed by
        (variant, "cold" | "warm")."""
        runs: dict[tuple[str, str], list[Run]] = {
            (name, kind): [] for name in variants for kind in ("cold", "warm")
        }
        for _ in range(self.args.runs):
            for name, (root, flags) in variants.items():
                before = loadavg()
                cold, warm = self.validator.cold_and_warm(root, *flags)
                runs[(name, "cold")].append(_run(cold.cpu_s, before, cold, written))
                runs[(name, "warm")].append(_run(warm.cpu_s, before, warm, written))
        return runs

    def validate_zero_config(self) -> None:
        """Cold and warm `validate` of the main-size fixture with its config file and of a copy
        without one (the detector reads the locale folder, source, separators and source
        folders from the tree), back to back in each run: what zero-config discovery costs,
        as a ratio to the configured run in the same session."""
        files = self.sizes.files
        written = self.store.get(validate_shape(files))
        bare = self.homes.new() / "zero-config"
        shutil.copytree(written.root, bare, ignore=shutil.ignore_patterns("i18nprune.config.json"))
        runs = self._back_to_back(written, {"configured": (written.root, ()), "zero": (bare, ())})
        for kind in ("cold", "warm"):
            configured = statistics.median(run.value for run in runs[("configured", kind)])
            for run in runs[("zero", kind)]:
                run.details["ratio_to_configured_median"] = round(run.value / configured, 3)
            self.report.add(
                Spec(
                    f"validate_configured_{kind}_cpu",
                    f"{kind} validate, {files:,} files, with its config file, CPU",
                    "s",
                    "lower",
                ),
                runs[("configured", kind)],
            )
            self.report.add(
                Spec(
                    f"validate_zero_config_{kind}_cpu",
                    f"{kind} validate, {files:,} files, no config file (discovery), CPU",
                    "s",
                    "lower",
                    None,
                    {
                        "configured": Limit(
                            configured, f"with its config file, median {kind} CPU this session"
                        )
                    },
                ),
                runs[("zero", kind)],
            )

    def report_command(self) -> None:
        """`report` of the main-size fixture, as written and with findings, in each format:
        a cold run in a fresh home and a warm one, each read against `validate` of the same
        tree in the same run (cold in a fresh home, warm in the report's): the report runs it
        and four more read ops on the same scan."""
        files = self.sizes.files
        shape = validate_shape(files)
        written = self.store.get(shape)
        trees = {"clean": written.root, "findings": self.store.findings(shape).root}
        runs: dict[tuple[str, str, str], list[Run]] = {}
        for _ in range(self.args.runs):
            for tree, root in trees.items():
                validate_cold = self.validator.once(root, self.homes.new()).cpu_s
                for kind in ("html", "json"):
                    home = self.homes.new()
                    target = home / f"report.{kind}"
                    before = loadavg()
                    cold = self._report_once(root, home, target)
                    size = target.stat().st_size
                    warm = self._report_once(root, home, target)
                    validate_warm = self.validator.once(root, home).cpu_s
                    after = loadavg()
                    for when, measured, validate in (
                        ("cold", cold, validate_cold),
                        ("warm", warm, validate_warm),
                    ):
                        seen = {**details(measured, written), "bytes": size}
                        seen["validate_cpu_s"] = round(validate, 3)
                        runs.setdefault((tree, kind, when), []).append(
                            Run(measured.cpu_s, before, after, seen)
                        )
                    runs.setdefault((tree, kind, "bytes"), []).append(
                        Run(size, before, after, {"bytes": size})
                    )
        for (tree, kind, when), tree_runs in runs.items():
            what = "as written" if tree == "clean" else "with findings"
            if when == "bytes":
                title = f"report --format {kind} of the {files:,}-file fixture {what}: bytes"
                self.report.add(Spec(f"report_{tree}_{kind}_bytes", title, "B", "lower"), tree_runs)
                continue
            validate = statistics.median(run.details["validate_cpu_s"] for run in tree_runs)
            note = f"{when} validate of the same tree, median CPU in this session"
            self.report.add(
                Spec(
                    f"report_{tree}_{kind}_{when}_cpu",
                    f"{when} report --format {kind}, {files:,} files {what}, CPU summed over "
                    "the process tree",
                    "s",
                    "lower",
                    None,
                    {"validate": Limit(validate, note)},
                ),
                tree_runs,
            )

    def _report_once(self, root: Path, home: Path, target: Path) -> Measured:
        """One measured `report --out target` of the project at `root` in `home`."""
        argv = cli(root, "report", "--out", str(target))
        measured = run_measured(argv, env=cli_environment(home), timeout=self.sizes.timeout)
        if not target.is_file():
            raise RuntimeError(f"report wrote nothing: {measured.stderr[-2000:]}")
        return measured

    def _scale(self) -> list[tuple[int, SizeRuns]]:
        return [(n, self.measured[n]) for n in self.sizes.scale if n in self.measured]


NAMESPACED_SIZES: dict[Mode, dict[str, int]] = {
    "full": {"targets": 33, "namespaces": 78, "files": 350},
    "quick": {"targets": 33, "namespaces": 78, "files": 350},
    "smoke": {"targets": 3, "namespaces": 10, "files": 40},
}
"""The homarr-shaped app of each mode (quick keeps the real size: it takes seconds)."""


def namespaced(measured: Measured, written: NamespacedWritten) -> dict[str, Any]:
    """What a run on the namespaced app keeps."""
    return {
        "targets": written.shape.targets,
        "namespaces": written.shape.namespaces,
        "lock": written.shape.lock,
        "locale_files": written.locale_files,
        "locale_mb": round(written.locale_bytes / 1e6, 2),
        "source_leaves": written.source_leaves,
        "files": written.files,
        "wall_s": round(measured.wall_s, 3),
        "cpu_s": round(measured.cpu_s, 3),
        "cpu_sampled_s": round(measured.cpu_sampled_s, 3),
        "peak_rss_sum_mb": round(measured.peak_rss_mb, 1),
    }


def _namespaced(
    name: str,
    run: str,
    shape: NamespacedShape,
    runs: dict[str, tuple[list[Run], list[Run]]],
) -> Spec:
    """The figure of one variant's cold or warm runs, read against the source-only app's
    runs of the same kind in this session."""
    what = {
        "source_only": "the source locale only",
        "targets": f"{shape.targets} target locales",
        "lock": f"{shape.targets} target locales and a lock file",
    }[name]
    spec = Spec(
        f"validate_namespaced_{name}_{run}_cpu",
        f"{run} validate, next-i18next app of {shape.namespaces} namespace files with {what}, "
        "CPU summed over the process tree",
        "s",
        "lower",
    )
    if name == "source_only":
        return spec
    alone = runs["source_only"][0 if run == "cold" else 1]
    reference = Limit(
        statistics.median(r.value for r in alone),
        f"the same app with the source locale only, median {run} CPU in this session",
    )
    return replace(spec, references={"source_only": reference})


def _memory_timeline(measured: Measured) -> dict[str, Any]:
    return {
        "at": [round(s.at, 3) for s in measured.samples],
        "front_mb": [round(s.root_rss / 1e6, 1) for s in measured.samples],
        "children_mb": [round(s.children_rss / 1e6, 1) for s in measured.samples],
    }


FIGURES = (
    "validate",
    "memory",
    "scaling_files",
    "validate_namespaced_warm",
    "validate_repository",
    "validate_zero_config",
    "report_command",
)


def run(args: argparse.Namespace, store: FixtureStore, homes: Homes) -> Report:
    """Measure the scan figures and return the report."""
    bench = Benchmark(args, store, homes)
    warm_bytecode(homes.new())
    names = args.only or FIGURES
    return run_steps(bench.report, [(name, getattr(bench, name)) for name in names])


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags this benchmark takes beyond the common ones (shared with run_all.py)."""
    parser.add_argument(
        "--peer-cmd",
        default=None,
        help="shell command of another tool to time on the same fixture, run after run with "
        "ours; {root} is replaced by the fixture's folder. Install it yourself: nothing in the "
        "repository builds another project",
    )


def main() -> None:
    run_alone(__doc__, FIGURES, add_arguments, run)


if __name__ == "__main__":
    main()
