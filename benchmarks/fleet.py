"""A fleet of `generate` members against one provider's hard limit, with and without a shared
translation memory on Redis (issue 31).

    python benchmarks/fleet.py [--quick | --smoke] [--runs 3] [--out DIR] [--latency 0.02]
                               [--limit-rps 40] [--limit-concurrency 8] [--members 4,8]
                               [--only solo,sharded,unsharded,no_redis]

Each member is a real CLI process (`i18nprune generate --json`) with its own copy of one
generated project (`fixtures.py`) and its own empty `I18NPRUNE_HOME`; its provider's `rateLimit`
(`maxConcurrency`, `rps`) is the fake's limit, as a fleet's user would set it. ONE loopback fake
(`FakeProvider` with a `HardLimit`) serves them all: at most `--limit-rps` requests admitted in
any sliding second and `--limit-concurrency` at once; past either it answers 429 with
`Retry-After: 1`. Scenarios, taken in turn within each run so that the load drifts over all
of them alike:

- solo: one member alone, no Redis: what one process gets under the limit (the yardstick);
- sharded: the members run `generate --shard K/N` at once on one Redis, then one final
  unsharded `generate` (a fresh copy, a fresh home) writes every file and must send nothing;
- unsharded: the same fleet, every member unsharded on one Redis (the claims share the texts);
- no_redis: the same fleet, each member with its own SQLite cache only: the baseline.

Reported per scenario and fleet size, from the fake's record of the fleet's requests:
requests answered per second over the time the fake was busy with them, as a share of the
limit; distinct texts answered per second; 429s; texts answered more than once; the final
run's requests (sharded); wall time; min / median over `--runs`, with the machine and its load.
Saves `fleet.json`, `fleet.md` (the table) and, with matplotlib, `fleet.png` and
`fleet_timeline.png` in `--out` (default benchmarks/results/).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import table
import translate_pool
from fixtures import FixtureStore, Shape, Written, provider_env, write_config
from harness import (
    Better,
    Homes,
    Limit,
    Mode,
    Report,
    Run,
    Spec,
    cli,
    cli_environment,
    json_of,
    loadavg,
    mode,
    run_alone,
    run_steps,
    warm_bytecode,
)
from poolstats import fake_timeline, pool_of
from processes import Measured, run_measured

from i18nprune.testing import FakeProvider, HardLimit, RecordedRequest
from i18nprune.testing.redis_server import RedisServer

SCENARIOS = ("sharded", "unsharded", "no_redis")
FIGURES = ("solo", *SCENARIOS)
BATCH = 20
"""Texts per request: small, so that a few thousand texts make hundreds of requests."""
WINDOW_S = 1.0
RETRY_AFTER_S = 1.0
MEMBER_WORKERS = 1
"""Worker processes per member: 8 members share 2 cores here, and the limit, not the CPU,
bounds a member."""
TIMELINE_BIN_S = 0.25
GOAL_SHARE = 0.9


@dataclass(frozen=True)
class Sizes:
    """The sizes of one mode: source leaves (a few more texts: plurals), targets, fleet sizes,
    and each member's timeout."""

    leaves: int
    targets: str
    members: tuple[int, ...]
    timeout: float

    @classmethod
    def of(cls, mode: Mode) -> Sizes:
        """The sizes of `mode`: the issue's (full), smaller (quick), tiny (smoke)."""
        return {
            "full": cls(3_000, "fr,de,es", (4, 8), 900.0),
            "quick": cls(1_000, "fr,de,es", (4, 8), 300.0),
            "smoke": cls(30, "fr,de", (2,), 120.0),
        }[mode]


@dataclass(frozen=True)
class Limits:
    """The fake's hard limit, which every member's provider `rateLimit` repeats."""

    rps: float
    concurrency: int
    latency: float

    def hard_limit(self) -> HardLimit:
        """The fake's `HardLimit`."""
        return HardLimit(
            rps=self.rps, window=WINDOW_S, concurrency=self.concurrency, retry_after=RETRY_AFTER_S
        )

    def rate_limit(self) -> dict[str, float]:
        """A member's provider `rateLimit`: the same limit."""
        return {"maxConcurrency": self.concurrency, "rps": self.rps}

    @property
    def requests_per_s(self) -> float:
        """Requests per second the fake admits at most: its rps, unless its concurrency over
        the latency allows fewer."""
        if self.latency <= 0:
            return self.rps
        return min(self.rps, self.concurrency / self.latency)

    @property
    def texts_per_s(self) -> float:
        """Texts per second at the limit with full batches."""
        return self.requests_per_s * BATCH


@dataclass(frozen=True)
class Launch:
    """One member's command: its argv and environment."""

    argv: list[str]
    env: dict[str, str]


def launch_all(launches: Sequence[Launch], timeout: float) -> tuple[list[Measured], float]:
    """Start every member at once and wait for all; (each one's measure, wall from the start
    to the last exit). Raises CommandFailed when one runs past `timeout` (its group killed)."""
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=len(launches)) as pool:
        measured = list(
            pool.map(
                lambda launch: run_measured(
                    launch.argv, env=launch.env, timeout=timeout, check=False, sample_tree=False
                ),
                launches,
            )
        )
    return measured, time.perf_counter() - started


def member_summary(measured: Measured) -> dict[str, Any]:
    """What one member said it did: exit, wall and CPU, statuses, failed leaves, its fleet
    statistics (texts sent, found in the shared memory, received from another member), and its
    pool's 429s and pauses."""
    out: dict[str, Any] = {
        "exit": measured.returncode,
        "wall_s": round(measured.wall_s, 3),
        "cpu_s": round(measured.cpu_s, 3),
    }
    try:
        envelope = json_of(measured.stdout)
    except ValueError:
        out["error"] = measured.stderr[-800:] or measured.stdout[-800:]
        return out
    data = envelope.get("data") or {}
    results = data.get("targetResults") or []
    fleet = data.get("fleet") or {}
    pool = pool_of(envelope) or {}
    out.update(
        {
            "ok": envelope.get("ok"),
            "statuses": sorted({result["status"] for result in results}),
            "failed_leaves": sum(result.get("failedLeafCount", 0) for result in results),
            "sent": fleet.get("sent"),
            "shared_hits": fleet.get("sharedHits"),
            "received": fleet.get("received"),
            "requests": pool.get("requests"),
            "rate_limited": pool.get("rateLimited"),
            "rate_limit_pause_s": pool.get("rateLimitPauseSeconds"),
            "retries": pool.get("retries"),
        }
    )
    problems = [
        issue.get("message", "")[:300]
        for issue in envelope.get("issues") or []
        if issue.get("severity") == "error"
    ]
    if problems:
        out["errors"] = problems[:3]
    return out


def provider_view(records: Sequence[RecordedRequest], limits: Limits) -> dict[str, Any]:
    """What the fake saw of a fleet: requests answered and refused, texts answered (and how
    many more than once), and the rates over the time it was busy with them (first request's
    arrival to last answer)."""
    answered = [record for record in records if record.status == 200]
    sends = Counter((record.target, text) for record in answered for text in record.texts)
    span = _busy_span(records)
    per_s = len(answered) / span if span else 0.0
    return {
        "requests": len(records),
        "answered": len(answered),
        "status_429": sum(record.status == 429 for record in records),
        "limited_rps": sum(record.limited == "rps" for record in records),
        "limited_concurrency": sum(record.limited == "concurrency" for record in records),
        "other_failures": sum(record.status not in (200, 429) for record in records),
        "texts_answered": sum(sends.values()),
        "distinct_texts": len(sends),
        "sent_twice": sum(count > 1 for count in sends.values()),
        "extra_sends": sum(sends.values()) - len(sends),
        "busy_span_s": round(span, 3),
        "requests_per_s": round(per_s, 2),
        "share_of_limit": round(per_s / limits.requests_per_s, 4),
        "texts_per_s": round(len(sends) / span, 1) if span else 0.0,
        "max_in_flight": max((count for _, count in fake_timeline(records)), default=0),
    }


def _busy_span(records: Sequence[RecordedRequest]) -> float:
    if not records:
        return 0.0
    first = min(record.started for record in records)
    last = max(record.finished or record.started for record in records)
    return last - first


def timeline(records: Sequence[RecordedRequest], origin: float) -> dict[str, Any]:
    """Requests answered and refused (429) per second, in bins of `TIMELINE_BIN_S` seconds of
    arrival since `origin`."""
    bins = int(max((record.started - origin for record in records), default=0) / TIMELINE_BIN_S)
    answered, refused = [0.0] * (bins + 1), [0.0] * (bins + 1)
    for record in records:
        index = int((record.started - origin) / TIMELINE_BIN_S)
        if record.status == 200:
            answered[index] += 1 / TIMELINE_BIN_S
        elif record.status == 429:
            refused[index] += 1 / TIMELINE_BIN_S
    return {"bin_s": TIMELINE_BIN_S, "answered_per_s": answered, "refused_per_s": refused}


class FleetRunner:
    """Runs one scenario of one fleet size: fresh copies of the project, fresh homes, a fresh
    fake and (with Redis) a fresh server; keeps the last timeline of each."""

    def __init__(
        self, project: Written, homes: Homes, limits: Limits, targets: str, timeout: float
    ) -> None:
        self.project = project
        self.homes = homes
        self.limits = limits
        self.targets = targets
        self.timeout = timeout
        self.timelines: dict[str, dict[str, Any]] = {}
        self._copies = 0

    def once(self, scenario: str, members: int) -> dict[str, Any]:
        """The details of one run of `scenario` ("solo": one member, no Redis)."""
        with ExitStack() as stack:
            fake = stack.enter_context(
                FakeProvider(
                    "libre",
                    latency=self.limits.latency,
                    limit=self.limits.hard_limit(),
                    max_lifetime=3 * self.timeout + 60,
                )
            )
            url = None
            if scenario in ("sharded", "unsharded"):
                url = stack.enter_context(RedisServer()).url
            folder = stack.enter_context(self._folder())
            launches = [
                self._member(folder, f"member{index}", fake, url, shard)
                for index, shard in enumerate(_shards(scenario, members), start=1)
            ]
            measured, fleet_wall = launch_all(launches, self.timeout)
            records = fake.requests
            details = self._details(scenario, members, measured, fleet_wall, records)
            if scenario == "sharded":
                details.update(self._final(folder, fake, url, len(records)))
                details["wall_s"] = round(fleet_wall + details["final"]["wall_s"], 3)
        origin = min((record.started for record in records), default=0.0)
        self.timelines[f"{scenario}_{members}"] = timeline(records, origin)
        return details

    def _details(
        self,
        scenario: str,
        members: int,
        measured: list[Measured],
        wall: float,
        records: list[RecordedRequest],
    ) -> dict[str, Any]:
        summaries = [member_summary(one) for one in measured]
        return {
            "scenario": scenario,
            "members": members,
            "wall_s": round(wall, 3),
            "fleet_wall_s": round(wall, 3),
            "members_ok": all(summary["exit"] == 0 for summary in summaries),
            "provider": provider_view(records, self.limits),
            "member": summaries,
        }

    def _final(
        self, folder: Path, fake: FakeProvider, url: str | None, before: int
    ) -> dict[str, Any]:
        """The final unsharded run of a sharded fleet: a fresh copy and home; it must send
        nothing and write every target."""
        launch = self._member(folder, "final", fake, url, None)
        [measured], wall = launch_all([launch], self.timeout)
        summary = member_summary(measured)
        after = fake.requests[before:]
        return {
            "final": {
                "wall_s": round(wall, 3),
                "requests": len(after),
                "texts": sum(len(record.texts) for record in after),
                "written": summary.get("statuses") == ["written"],
                "member": summary,
            }
        }

    def _member(
        self, folder: Path, name: str, fake: FakeProvider, url: str | None, shard: str | None
    ) -> Launch:
        root = folder / name
        shutil.copytree(self.project.root, root)
        write_config(root, workers=MEMBER_WORKERS, batch=BATCH, rate_limit=self.limits.rate_limit())
        extra = provider_env(fake.base_url)
        if url is not None:
            extra["I18NPRUNE_CACHE_URL"] = url
        argv = cli(root, "generate", "--target", self.targets, "--json", "--json-compact")
        if shard is not None:
            argv += ["--shard", shard]
        return Launch(argv, cli_environment(self.homes.new(), extra))

    @contextmanager
    def _folder(self) -> Iterator[Path]:
        """A folder for one run's copies of the project, removed afterwards."""
        self._copies += 1
        folder = self.homes.folder.parent / "fleet-copies" / f"run-{self._copies}"
        folder.mkdir(parents=True)
        try:
            yield folder
        finally:
            shutil.rmtree(folder, ignore_errors=True)


def _shards(scenario: str, members: int) -> list[str | None]:
    if scenario == "sharded":
        return [f"{index}/{members}" for index in range(1, members + 1)]
    return [None] * members


@dataclass(frozen=True)
class Kind:
    """A figure every scenario gets: its id suffix, title, unit, direction, how a run's value is
    read from its details, and its goal."""

    suffix: str
    title: str
    unit: str
    better: Better
    value: Callable[[dict[str, Any]], float]
    goal: Limit | None = None


KINDS = (
    Kind(
        "share_of_limit",
        "requests answered per second while the fake was busy with the fleet, ÷ its limit",
        "× limit",
        "higher",
        lambda details: details["provider"]["share_of_limit"],
        Limit(GOAL_SHARE, "issue 31 goal: aggregate ≥ 90 % of the limit"),
    ),
    Kind(
        "texts_per_s",
        "distinct texts answered per second while the fake was busy with the fleet",
        "texts/s",
        "higher",
        lambda details: details["provider"]["texts_per_s"],
    ),
    Kind(
        "status_429",
        "429 answers of the fake's hard limit",
        "answers",
        "lower",
        lambda details: details["provider"]["status_429"],
        Limit(0, "issue 31 goal: zero 429s"),
    ),
    Kind(
        "sent_twice",
        "texts the fake answered more than once",
        "texts",
        "lower",
        lambda details: details["provider"]["sent_twice"],
        Limit(0, "issue 31 goal: zero texts sent twice"),
    ),
    Kind(
        "wall_s",
        "wall, every member's start to the last exit (sharded: and the final run)",
        "s",
        "lower",
        lambda details: details["wall_s"],
    ),
)
FINAL = Kind(
    "final_requests",
    "requests of the final unsharded run after the shards",
    "requests",
    "lower",
    lambda details: details["final"]["requests"],
    Limit(0, "issue 31 goal: the final write sends nothing"),
)


class Benchmark:
    """The fleet figures of one session (see the module)."""

    def __init__(self, args: argparse.Namespace, store: FixtureStore, homes: Homes) -> None:
        self.args = args
        self.sizes = Sizes.of(mode(args))
        self.members = tuple(args.members) if args.members else self.sizes.members
        self.limits = Limits(args.limit_rps, args.limit_concurrency, args.latency)
        self.scenarios = [name for name in SCENARIOS if name in (args.only or FIGURES)]
        project = store.get(Shape(leaves=self.sizes.leaves, files=max(1, self.sizes.leaves // 40)))
        self.runner = FleetRunner(
            project, homes, self.limits, self.sizes.targets, self.sizes.timeout
        )
        self.report = Report("fleet", self._settings())
        self.solo: dict[str, float] = {}

    def _settings(self) -> dict[str, Any]:
        return {
            "mode": mode(self.args),
            "runs": self.args.runs,
            "members": list(self.members),
            "scenarios": self.scenarios,
            "leaves": self.sizes.leaves,
            "targets": self.sizes.targets,
            "batch_size": BATCH,
            "member_workers": MEMBER_WORKERS,
            "latency_s": self.limits.latency,
            "limit": {
                "rps": self.limits.rps,
                "window_s": WINDOW_S,
                "concurrency": self.limits.concurrency,
                "retry_after_s": RETRY_AFTER_S,
                "requests_per_s": self.limits.requests_per_s,
                "texts_per_s": self.limits.texts_per_s,
            },
            "member_rate_limit": self.limits.rate_limit(),
        }

    def solo_step(self) -> None:
        runs = self._runs(["solo"], 1).get("solo")
        if not runs:
            raise RuntimeError("no run of the solo member succeeded (see the errors)")
        for kind in KINDS:
            self._add("solo", kind, runs, _label("solo", 1))
            self.solo[kind.suffix] = statistics.median(kind.value(run.details) for run in runs)

    def fleet_step(self, members: int) -> None:
        """Every chosen scenario with `members` members, taken in turn in each run."""
        for scenario, runs in self._runs(self.scenarios, members).items():
            for kind in KINDS:
                self._add(f"fleet{members}_{scenario}", kind, runs, _label(scenario, members))
            if scenario == "sharded":
                self._add(f"fleet{members}_{scenario}", FINAL, runs, _label(scenario, members))

    def _runs(self, scenarios: Sequence[str], members: int) -> dict[str, list[Run]]:
        """`--runs` runs of each of `scenarios`, in turn; a run that fails is recorded in the
        report's errors and left out."""
        out: dict[str, list[Run]] = {scenario: [] for scenario in scenarios}
        errors = self.report.data.setdefault("errors", {})
        for index in range(self.args.runs):
            for scenario in scenarios:
                before = loadavg()
                try:
                    details = self.runner.once(scenario, members)
                except Exception as problem:  # one broken run must not hide the others
                    name = f"{scenario}_{members}_run{index + 1}"
                    errors[name] = f"{type(problem).__name__}: {problem}"
                    print(f"[fleet] {name} failed: {errors[name]}", file=sys.stderr, flush=True)
                    continue
                out[scenario].append(Run(0.0, before, loadavg(), details))
        return {scenario: runs for scenario, runs in out.items() if runs}

    def _add(self, prefix: str, kind: Kind, runs: list[Run], label: str) -> None:
        spec = Spec(
            f"{prefix}_{kind.suffix}",
            f"{label}: {kind.title}",
            kind.unit,
            kind.better,
            kind.goal,
            self._references(kind),
        )
        # A run's details (every member's summary) are kept once, in the first kind's figure.
        first = kind is KINDS[0]
        details = [run.details if first else {"in": f"{prefix}_{KINDS[0].suffix}"} for run in runs]
        valued = [
            Run(float(kind.value(run.details)), run.load_before, run.load_after, kept)
            for run, kept in zip(runs, details, strict=True)
        ]
        self.report.add(spec, valued)

    def _references(self, kind: Kind) -> dict[str, Limit]:
        references = {}
        if kind.suffix == "texts_per_s":
            note = f"the fake's limit: {self.limits.requests_per_s:g} requests/s × {BATCH} texts"
            references["provider_limit"] = Limit(self.limits.texts_per_s, note)
        if kind.suffix in ("texts_per_s", "share_of_limit", "wall_s") and kind.suffix in self.solo:
            note = "median of one member alone in this session (no Redis)"
            references["solo"] = Limit(self.solo[kind.suffix], note)
        return references

    def finish(self) -> None:
        """Save the timelines, write the table and the charts into `--out`."""
        self.report.add_series("timeline", self.runner.timelines)
        out: Path = self.args.out
        out.mkdir(parents=True, exist_ok=True)
        text = markdown(self.report.data)
        (out / "fleet.md").write_text(text)
        print(text)
        try:
            import plots
        except ImportError as missing:
            print(f"charts skipped ({missing}): pip install -e '.[bench]'", file=sys.stderr)
            return
        made = plots.fleet(self.report.data, out / "fleet.png")
        made_timeline = plots.fleet_timeline(self.report.data, out / "fleet_timeline.png")
        for path in (made, made_timeline):
            if path is not None:
                print(f"chart: {path}", file=sys.stderr)


def _label(scenario: str, members: int) -> str:
    return {
        "solo": "one member alone, no Redis",
        "sharded": f"{members} members, Redis, --shard K/{members}, then a final run",
        "unsharded": f"{members} members, Redis, unsharded",
        "no_redis": f"{members} members, no Redis (own SQLite caches)",
    }[scenario]


def markdown(data: dict[str, Any]) -> str:
    """The fleet table: one row per scenario and fleet size, each cell min / median of the
    runs (counts: every run's), with the machine, the sizes and the limit above it."""
    settings, figures = data["settings"], data["figures"]
    limit = settings["limit"]
    lines = [
        table.caption(data["machine"]),
        "",
        f"{settings['mode']} sizes: {settings['leaves']:,} source leaves × targets "
        f"{settings['targets']}, batch {settings['batch_size']}; the fake's hard limit "
        f"{limit['rps']:g} requests in any {limit['window_s']:g} s and {limit['concurrency']} "
        f"at once (429, Retry-After {limit['retry_after_s']:g} s past it), "
        f"{settings['latency_s'] * 1000:g} ms per request; each member's rateLimit "
        f"{settings['member_rate_limit']}, {settings['member_workers']} worker.",
        "",
        "| members | scenario | requests/s ÷ limit | distinct texts/s | 429s | texts sent twice "
        "| final run's requests | wall s | members exit 0 | load before each run |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for members in [1, *settings["members"]]:
        for scenario in ("solo",) if members == 1 else SCENARIOS:
            prefix = "solo" if members == 1 else f"fleet{members}_{scenario}"
            share = figures.get(f"{prefix}_share_of_limit")
            if share is None:
                continue
            cells = [
                str(members),
                scenario,
                _min_median(share, "{:.2f}"),
                _min_median(figures[f"{prefix}_texts_per_s"], "{:,.0f}"),
                _each(figures[f"{prefix}_status_429"]),
                _each(figures[f"{prefix}_sent_twice"]),
                _each(figures[f"{prefix}_final_requests"]) if scenario == "sharded" else "—",
                _min_median(figures[f"{prefix}_wall_s"], "{:.1f}"),
                ", ".join("yes" if details["members_ok"] else "no" for details in share["details"]),
                ", ".join(f"{run['before'][0]:.1f}" for run in share["load"]),
            ]
            lines.append("| " + " | ".join(cells) + " |")
    lines += [
        "",
        f"Goals (issue 31): requests/s ≥ {GOAL_SHARE:g}× the limit, zero 429s, zero texts sent "
        "twice, the final run sends nothing. Counts are listed per run.",
    ]
    return "\n".join(lines) + "\n"


def _min_median(figure: dict[str, Any], spelled: str) -> str:
    return f"{spelled.format(figure['min'])} / {spelled.format(figure['median'])}"


def _each(figure: dict[str, Any]) -> str:
    return ", ".join(f"{value:g}" for value in figure["values"])


def run(args: argparse.Namespace, store: FixtureStore, homes: Homes) -> Report:
    """Measure the scenarios `args.only` names (all by default) and return the report; writes
    the table and the charts into `args.out`."""
    bench = Benchmark(args, store, homes)
    warm_bytecode(homes.new())
    steps: list[tuple[str, Callable[[], None]]] = []
    if "solo" in (args.only or FIGURES):
        steps.append(("solo", bench.solo_step))
    if bench.scenarios:
        steps += [(f"members_{n}", partial(bench.fleet_step, n)) for n in bench.members]
    report = run_steps(bench.report, steps)
    bench.finish()
    return report


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of this benchmark that run_all.py adds too (`--latency` is translate_pool's)."""
    parser.add_argument(
        "--limit-rps", type=float, default=40.0, help="the fake's requests per sliding second"
    )
    parser.add_argument(
        "--limit-concurrency", type=int, default=8, help="the fake's requests in flight at most"
    )
    parser.add_argument(
        "--members",
        type=lambda text: [int(part) for part in text.split(",")],
        default=None,
        help="fleet sizes, a comma list (default: 4,8; smoke: 2)",
    )


def _arguments_alone(parser: argparse.ArgumentParser) -> None:
    translate_pool.add_arguments(parser)
    add_arguments(parser)


def main() -> None:
    run_alone(__doc__, FIGURES, _arguments_alone, run)


if __name__ == "__main__":
    main()
