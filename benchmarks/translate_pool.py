"""Translate-pool latency and `generate` throughput against the loopback LibreTranslate fake.

    python benchmarks/translate_pool.py [--quick | --smoke] [--runs 3] [--latency 0.02]
                                        [--out DIR] [--only generate_sites_cold,...]

Every run is the real CLI (`i18nprune generate --json`) in a fresh process with a fresh
`I18NPRUNE_HOME` (an empty translation and scan cache) on a fixture from `fixtures.py` (TSX,
Vue and Svelte files whose `t()` calls reference leaves with placeholders and plurals), against
a fake that answers each request after `--latency` seconds. With batch 100 and 8 requests in
flight the provider allows 40,000 texts/s; throughputs are reported as a ratio to that and to
the issue's goal. Each run also reports the pool's latency (`data.pool`: queue wait, worker
time, HTTP time per batch with p50/p95/p99, requests in flight over time, retries, 429
pauses), one run has 429 answers injected, and the cancel latency of the pool is measured in
this process. Scaling series: 20k/100k/300k leaves, 20k/100k sites in one file, 1 vs 10
targets. Saves `translate_pool.json` in `--out` (default benchmarks/results/).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import trio
from fixtures import (
    BATCH,
    CONCURRENCY,
    WORKERS,
    FixtureStore,
    Shape,
    Written,
    provider_env,
    provider_limit,
)
from harness import (
    Homes,
    Limit,
    Mode,
    Report,
    Run,
    Spec,
    cli,
    cli_environment,
    json_of,
    measure_runs,
    mode,
    percentile,
    run_alone,
    run_steps,
    scaling,
    warm_bytecode,
)
from poolstats import fake_timeline, in_flight_throughput, plot_series, pool_of, run_summary
from processes import run_measured

from i18nprune.testing import FakeProvider, Fault

LIMIT = provider_limit()
PROVIDER = {"provider_limit": Limit(LIMIT, "batch 100 × concurrency 8 ÷ 20 ms latency")}
TEN_TARGETS = "fr,de,es,it,pt,nl,pl,ru,ja,ar"


@dataclass(frozen=True)
class Sizes:
    """The sizes of one suite mode (the issue's in full mode; smaller in quick mode)."""

    sites: int  # leaves of the cold generate with call sites
    warm_leaves: int
    warm_files: int
    one_file: int
    no_sites: int
    pseudo: int
    leaves_scale: tuple[int, ...]
    one_file_scale: tuple[int, ...]
    targets_leaves: int
    targets: str
    rate_limited: int
    rate_limit_every: int  # one 429 per this many requests
    cancels: int
    timeout: float

    @classmethod
    def of(cls, mode: Mode) -> Sizes:
        """The sizes of `mode`: the issue's (full), smaller (quick), tiny (smoke)."""
        return {
            "full": cls(20_000, 100_000, 10_000, 100_000, 100_000, 2_000,
                        (20_000, 100_000, 300_000), (20_000, 100_000), 20_000, TEN_TARGETS,
                        20_000, 15, 50, 1200.0),
            "quick": cls(10_000, 20_000, 2_000, 20_000, 20_000, 2_000, (10_000, 20_000),
                         (5_000, 20_000), 5_000, "fr,de,ar", 5_000, 15, 10, 300.0),
            "smoke": cls(300, 400, 20, 300, 300, 200, (150, 300), (150, 300), 300, "fr,de",
                         300, 1, 3, 120.0),
        }[mode]  # fmt: skip


def sites_shape(leaves: int) -> Shape:
    """Leaves with call sites spread over files of 40 calls each (TSX, Vue, Svelte)."""
    return Shape(leaves=leaves, files=max(1, leaves // 40))


def _spec_sites(leaves: int) -> Spec:
    return Spec(
        "generate_sites_cold",
        f"generate {leaves:,} leaves, source with call sites, cold, end to end",
        "leaves/s",
        "higher",
        Limit(14_000, "issue 11 goal: ≥ 14,000/s (35 % of the provider limit)"),
        PROVIDER,
    )


def _spec_warm(leaves: int, files: int) -> Spec:
    return Spec(
        "generate_warm_scan",
        f"generate {leaves:,} leaves over {files:,} source files, scan cache warm",
        "leaves/s",
        "higher",
        Limit(20_000, "issue 11 goal: ≥ 20,000/s (50 % of the provider limit)"),
        PROVIDER,
    )


def _spec_one_file(sites: int) -> Spec:
    return Spec(
        "generate_one_file",
        f"generate {sites:,} leaves, one source file with {sites:,} call sites",
        "leaves/s",
        "higher",
        Limit(15_000, "issue 11 goal: ≥ 15,000/s, cost linear in sites"),
        PROVIDER,
    )


def _spec_no_sites(leaves: int) -> Spec:
    return Spec(
        "generate_no_sites",
        f"generate {leaves:,} leaves, no call sites",
        "leaves/s",
        "higher",
        Limit(25_000, "issue 11 goal: ≥ 25,000/s"),
        PROVIDER,
    )


FAKE_CEILING = Spec(
    "fake_ceiling",
    "the fake's ceiling: texts/s a client costing next to nothing gets from it (8 keep-alive "
    "connections, batches of 100, benchmarks/bare_client.py)",
    "texts/s",
    "higher",
    None,
    PROVIDER,
)
BARE_CLIENT = Path(__file__).resolve().parent / "bare_client.py"
CEILING_NOTE = (
    "median of the fake_ceiling runs in this session: what the fake gives a client that costs "
    "next to nothing (a leaf is one text but for plurals)"
)

IN_FLIGHT = Spec(
    "in_flight_throughput",
    "throughput while requests are in flight (texts sent ÷ time with ≥ 1 request in flight)",
    "texts/s",
    "higher",
    Limit(0.9 * LIMIT, "issue 11 goal: ≥ 90 % of the provider limit"),
    PROVIDER,
)


def _spec_pseudo(leaves: int) -> Spec:
    return Spec(
        "pseudo_2000",
        f"generate {leaves:,} pseudo leaves, end to end",
        "s",
        "lower",
        Limit(0.5, "issue 11 goal: ≤ 0.5 s (pseudo needs no process)"),
    )


RATE_LIMITED = Spec(
    "generate_rate_limited",
    "generate with 429 answers injected (Retry-After 0.25 s), end to end",
    "leaves/s",
    "higher",
    None,
    PROVIDER,
)
CANCEL = Spec(
    "pool_cancel_p99",
    "pool cancel latency p99 (cancel while requests are in flight → translate returns)",
    "ms",
    "lower",
    Limit(100.0, "the pool benchmark's standing limit"),
)


class GenerateRunner:
    """Runs one cold `generate` of a fixture against a fresh fake and keeps what it saw."""

    def __init__(self, homes: Homes, latency: float, timeout: float) -> None:
        self.homes = homes
        self.latency = latency
        self.timeout = timeout
        self.kept: dict[str, dict[str, Any]] = {}

    def once(
        self,
        written: Written,
        *,
        targets: str = "fr",
        warm_scan: bool = False,
        provider: str | None = None,
        rate_limit_every: int = 0,
    ) -> tuple[float, dict[str, Any]]:
        """(leaves/s end to end, details) of one run; raises when generate is not ok, except
        for leaves that failed under injected 429s (`rate_limit_every`), which the details
        count: a batch answered 429 on each of its attempts fails, as the policy says."""
        written.reset_targets()
        home = self.homes.new()
        argv = cli(written.root, "generate", "--target", targets, "--json", "--json-compact")
        if provider:
            argv += ["--provider", provider]
        with FakeProvider("libre", latency=self.latency, max_lifetime=self.timeout + 60) as fake:
            env = cli_environment(home, provider_env(fake.base_url))
            if warm_scan:
                run_measured(
                    cli(written.root, "validate", "--json"),
                    env=env,
                    timeout=self.timeout,
                    check=False,
                )
            stop = threading.Event()
            armer = threading.Thread(target=_arm_429s, args=(fake, rate_limit_every, stop))
            if rate_limit_every:
                armer.start()
            try:
                measured = run_measured(argv, env=env, timeout=self.timeout, check=False)
            finally:
                stop.set()
                if armer.is_alive():
                    armer.join()
            records = fake.requests
        envelope = json_of(measured.stdout or "{}")
        if not envelope.get("ok") and not (rate_limit_every and _rate_limited_only(envelope)):
            raise RuntimeError(
                f"generate failed: {measured.stdout[:2000]} {measured.stderr[-2000:]}"
            )
        results = envelope["data"]["targetResults"]
        leaves = sum(result["translatedLeafCount"] for result in results)
        pool = pool_of(envelope)
        summary = run_summary(pool, records)
        details: dict[str, Any] = {
            "leaves": leaves,
            "targets": targets,
            "files": written.files,
            "call_sites": written.call_sites,
            "source_mb": round(written.source_bytes / 1e6, 2),
            "wall_s": round(measured.wall_s, 3),
            "cpu_s": round(measured.cpu_s, 3),
            "cpu_sampled_s": round(measured.cpu_sampled_s, 3),
            "peak_rss_sum_mb": round(measured.peak_rss_mb, 1),
            "peak_front_rss_mb": round(measured.peak_root_rss / 1e6, 1),
            "peak_processes": measured.peak_processes,
            "texts_sent": summary["fake"]["texts"],
            "texts_per_s": round(summary["fake"]["texts"] / measured.wall_s, 1),
            "failed_leaves": sum(result["failedLeafCount"] for result in results),
            "pool": summary,
        }
        origin = min((record.started for record in records), default=0.0)
        self.kept["last"] = {
            "pool": pool,
            "fake_timeline": _downsample(fake_timeline(records)),
            "status_429_at": [
                round(r.finished - origin, 4) for r in records if r.status == 429 and r.finished
            ],
            "fake_http_ms": [
                round((r.finished - r.started) * 1000, 3) for r in records if r.finished
            ],
        }
        return leaves / measured.wall_s, details


def _rate_limited_only(envelope: dict[str, Any]) -> bool:
    """Whether a run that is not ok wrote every target and failed only leaves whose batches
    were answered 429 on every attempt."""
    data = envelope.get("data") or {}
    issues = envelope.get("issues") or []
    return (
        bool(issues)
        and all(
            issue.get("code") == "i18nprune.generate.partial_failure"
            and "rate_limited" in issue.get("message", "")
            for issue in issues
            if issue.get("severity") == "error"
        )
        and all(result["status"] == "written" for result in data.get("targetResults", []))
    )


def _arm_429s(fake: FakeProvider, every: int, stop: threading.Event) -> None:
    """Arm one 429 (Retry-After 0.25 s) after every `every` requests until `stop`."""
    count = every // 2
    while not stop.is_set():
        if fake.wait_for_requests(count, timeout=0.05):
            fake.add_fault(Fault(kind="rate_limit", times=1, retry_after=0.25))
            count += every


def _downsample(timeline: list[list[float]], points: int = 2000) -> list[list[float]]:
    if len(timeline) <= points:
        return timeline
    step = len(timeline) / points
    return [timeline[int(index * step)] for index in range(points)] + [timeline[-1]]


def _series_of(kept: dict[str, Any]) -> dict[str, Any]:
    """The raw data the charts read for one run: the pool's when `data.pool` is reported, else
    the fake's in-flight timeline and HTTP times."""
    pool = kept.get("pool")
    if pool:
        series = plot_series(pool)
        series["limit"] = series["limit"] or CONCURRENCY
    else:
        series = {
            "timeline": kept["fake_timeline"],
            "limit": CONCURRENCY,
            "httpMs": kept["fake_http_ms"],
            "source": "the fake's records (data.pool absent)",
        }
    series["fake_timeline"] = kept["fake_timeline"]
    series["status_429_at"] = kept["status_429_at"]
    return series


def _pool_latency(runs: list[Run]) -> list[dict[str, Any]]:
    """Per run: queue wait, worker time and HTTP time percentiles, in flight, retries, 429s."""
    out = []
    for run in runs:
        summary = run.details["pool"]
        pool = summary.get("pool")
        row: dict[str, Any] = {"source": summary["source"], "fake": summary["fake"]}
        if pool:
            row.update(pool)
        out.append(row)
    return out


class Benchmark:
    """The translate-pool figures of one session, each a method so `--only` can pick them."""

    def __init__(self, args: argparse.Namespace, store: FixtureStore, homes: Homes) -> None:
        self.args = args
        self.sizes = Sizes.of(mode(args))
        self.store = store
        self.runner = GenerateRunner(homes, args.latency, self.sizes.timeout)
        self.report = Report("translate_pool", _settings(args, self.sizes))
        self.cold_per_leaf: dict[int, tuple[float, float, float]] = {}
        self.ceiling: float | None = None

    def _generate(
        self,
        spec: Spec,
        once: Callable[[int], tuple[float, dict[str, Any]]],
        series: str | None = None,
    ) -> list[Run]:
        if spec.unit == "leaves/s":
            ceiling = Limit(self._ceiling(), CEILING_NOTE)
            spec = replace(spec, references={**spec.references, "fake_ceiling": ceiling})
        runs = measure_runs(self.args.runs, once)
        self.report.add(spec, runs)
        self.report.data.setdefault("pool_latency", {})[spec.id] = _pool_latency(runs)
        if series:
            self.report.add_series(series, _series_of(self.runner.kept["last"]))
        return runs

    def generate_sites_cold(self) -> None:
        written = self.store.get(sites_shape(self.sizes.sites))
        runs = self._generate(
            _spec_sites(self.sizes.sites),
            _cold(self.runner, written),
            "generate_sites_cold",
        )
        self._in_flight(runs)
        self._cold_point(self.sizes.sites, runs)

    def _in_flight(self, runs: list[Run]) -> None:
        flown = [(in_flight_throughput(run.details["pool"]), run) for run in runs]
        in_flight = [
            Run(value or 0.0, run.load_before, run.load_after, {"source": source})
            for (value, source), run in flown
        ]
        ceiling = self._ceiling()
        spec = replace(
            IN_FLIGHT,
            references={**IN_FLIGHT.references, "fake_ceiling": Limit(ceiling, CEILING_NOTE)},
        )
        self.report.add(spec, in_flight, measured_on="generate_sites_cold")

    def fake_ceiling(self) -> None:
        self._ceiling()

    def _ceiling(self) -> float:
        """The median of the `fake_ceiling` runs, measured once per session."""
        if self.ceiling is None:
            runs = measure_runs(self.args.runs, lambda _: _bare_client_run(self.args.latency))
            self.report.add(FAKE_CEILING, runs)
            self.ceiling = statistics.median(run.value for run in runs)
        return self.ceiling

    def _cold_point(self, leaves: int, runs: list[Run]) -> None:
        """Keep the medians (wall s, CPU s, translated leaves) of a cold run at `leaves`."""
        self.cold_per_leaf[leaves] = (
            _median(runs, "wall_s"), _median(runs, "cpu_s"), _median(runs, "leaves"))  # fmt: skip

    def generate_warm_scan(self) -> None:
        sizes = self.sizes
        written = self.store.get(Shape(leaves=sizes.warm_leaves, files=sizes.warm_files, blocks=4))
        spec = _spec_warm(sizes.warm_leaves, sizes.warm_files)
        self._generate(spec, lambda _: self.runner.once(written, warm_scan=True))

    def generate_one_file(self) -> None:
        points = []
        for sites in self.sizes.one_file_scale:
            written = self.store.get(Shape(leaves=sites, files=1, sites="one_file"))
            spec = _spec_one_file(sites)
            if sites != self.sizes.one_file:
                spec = Spec(
                    f"generate_one_file_{sites}", spec.title, spec.unit, spec.better, None, PROVIDER
                )
            runs = self._generate(spec, _cold(self.runner, written))
            points.append((sites, _median(runs, "wall_s"), written.call_sites))
        series = scaling("generate µs wall per call site, all sites in one file", "µs", points,
                         size_unit="sites", scale=1e6)  # fmt: skip
        self.report.add_scaling("one_file_sites", series)

    def generate_no_sites(self) -> None:
        written = self.store.get(Shape(leaves=self.sizes.no_sites, files=1, sites="none"))
        self._generate(_spec_no_sites(self.sizes.no_sites), _cold(self.runner, written))

    def pseudo_2000(self) -> None:
        written = self.store.get(sites_shape(self.sizes.pseudo))
        start = [self._cli_start() for _ in range(self.args.runs)]
        note = "`i18nprune --version` (interpreter and CLI start), median wall in this session"
        spec = replace(
            _spec_pseudo(self.sizes.pseudo),
            references={"cli_start": Limit(statistics.median(start), note)},
        )

        def once(_: int) -> tuple[float, dict[str, Any]]:
            details = self.runner.once(written, provider="pseudo")[1]
            return float(details["wall_s"]), details

        self._generate(spec, once)

    def _cli_start(self) -> float:
        """Seconds of wall of one `i18nprune --version` in a fresh home."""
        argv = [sys.executable, "-m", "i18nprune", "--version"]
        home = self.runner.homes.new()
        return run_measured(argv, env=cli_environment(home), timeout=60).wall_s

    def generate_rate_limited(self) -> None:
        written = self.store.get(sites_shape(self.sizes.rate_limited))
        spec = Spec(
            RATE_LIMITED.id,
            f"generate {self.sizes.rate_limited:,} leaves with 429 "
            "answers injected (Retry-After 0.25 s), end to end",
            RATE_LIMITED.unit,
            RATE_LIMITED.better,
            None,
            PROVIDER,
        )
        self._generate(
            spec,
            lambda _: self.runner.once(written, rate_limit_every=self.sizes.rate_limit_every),
            "generate_rate_limited",
        )

    def scaling_leaves(self) -> None:
        for leaves in self.sizes.leaves_scale:
            if leaves in self.cold_per_leaf:
                continue
            written = self.store.get(sites_shape(leaves))
            spec = Spec(
                f"generate_sites_cold_{leaves}",
                _spec_sites(leaves).title,
                "leaves/s",
                "higher",
                None,
                PROVIDER,
            )
            runs = self._generate(spec, _cold(self.runner, written))
            self._cold_point(leaves, runs)
        for key, index, unit in (("wall", 0, "µs wall"), ("cpu", 1, "µs CPU")):
            points = [(n, cost[index], cost[2]) for n, cost in self.cold_per_leaf.items()]
            series = scaling(f"generate (call sites, cold): {unit} per translated leaf", unit,
                             points, size_unit="source leaves", scale=1e6)  # fmt: skip
            self.report.add_scaling(f"generate_leaves_{key}", series)

    def scaling_targets(self) -> None:
        sizes = self.sizes
        written = self.store.get(sites_shape(sizes.targets_leaves))
        count = len(sizes.targets.split(","))
        spec = Spec(
            "generate_targets",
            f"generate {sizes.targets_leaves:,} leaves × {count} targets, cold, end to end",
            "leaves/s",
            "higher",
            None,
            PROVIDER,
        )
        runs = self._generate(spec, lambda _: self.runner.once(written, targets=sizes.targets))
        one = self.cold_per_leaf.get(sizes.targets_leaves)
        if one is None:
            one_runs = measure_runs(self.args.runs, _cold(self.runner, written))
            self._cold_point(sizes.targets_leaves, one_runs)
            one = self.cold_per_leaf[sizes.targets_leaves]
        points = [
            (1.0, one[0], one[2]),
            (float(count), _median(runs, "wall_s"), _median(runs, "leaves")),
        ]
        title = f"generate {sizes.targets_leaves:,} leaves: µs wall per translated leaf, by targets"
        series = scaling(title, "µs wall", points, size_unit="targets", scale=1e6)
        self.report.add_scaling("generate_targets_wall", series)

    def pool_cancel_p99(self) -> None:
        with FakeProvider("libre", latency=1.0, max_lifetime=self.sizes.timeout) as slow:
            latencies = trio.run(_cancel_latencies, slow, self.sizes.cancels)
            aborted = slow.stats().aborted
        per_run = max(1, len(latencies) // self.args.runs)
        runs = []
        for index in range(self.args.runs):
            chunk = latencies[index * per_run : (index + 1) * per_run] or latencies
            runs.append(
                Run(
                    percentile(chunk, 0.99) * 1000,
                    [],
                    [],
                    {"cancels": len(chunk), "p50_ms": round(percentile(chunk, 0.5) * 1000, 2)},
                )
            )
        self.report.add(
            CANCEL,
            runs,
            p50_ms=round(percentile(latencies, 0.5) * 1000, 2),
            p99_ms=round(percentile(latencies, 0.99) * 1000, 2),
            cancels=len(latencies),
            aborted_requests=aborted,
        )


def _cold(
    runner: GenerateRunner, written: Written
) -> Callable[[int], tuple[float, dict[str, Any]]]:
    """One cold `generate --target fr` of `written` per call (the run index is unused)."""
    return lambda _: runner.once(written)


def _bare_client_run(latency: float) -> tuple[float, dict[str, Any]]:
    """(texts/s, details) of one `bare_client.py` run against a fresh fake."""
    batches = 25 * CONCURRENCY
    with FakeProvider("libre", latency=latency, max_lifetime=120) as fake:
        argv = [sys.executable, str(BARE_CLIENT), fake.base_url, "--batches", str(batches)]
        argv += ["--concurrency", str(CONCURRENCY), "--batch", str(BATCH)]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=90, check=True)
        served = fake.stats()
    figures = json.loads(done.stdout)
    figures["fake_max_in_flight"] = served.max_concurrency
    return float(figures["texts_per_s"]), figures


def _median(runs: list[Run], key: str) -> float:
    return statistics.median(float(run.details[key]) for run in runs)


async def _cancel_latencies(fake: FakeProvider, rounds: int) -> list[float]:
    """Seconds from cancelling a pool translate, once the fake has requests in flight, to its
    return."""
    from i18nprune.config.schema import ProviderRow, RateLimit, TranslateConfig
    from i18nprune.pool import TranslateJob, open_pool
    from i18nprune.translate.providers import provider_chain

    row = ProviderRow(
        id="libre",
        base_url=fake.base_url,
        batch_size=BATCH,
        rate_limit=RateLimit(max_concurrency=CONCURRENCY),
    )
    config = TranslateConfig(primary="libre", providers=[row])
    chain = provider_chain("libre", config, {})
    texts = [f"Text number {index}" for index in range(BATCH * CONCURRENCY * 2)]
    job = TranslateJob(texts=texts, source="en", target="fr", chain=chain, policy=config.policy)
    rng = random.Random(7)
    latencies = []
    async with open_pool(WORKERS) as pool:
        for _ in range(rounds):
            with trio.CancelScope() as scope:
                async with trio.open_nursery() as nursery:
                    sent = fake.stats().requests
                    nursery.start_soon(pool.translate, job)
                    with trio.fail_after(30):
                        while fake.stats().requests == sent:
                            await trio.sleep(0.002)
                    await trio.sleep(rng.random() * 0.05)
                    cancelled_at = time.perf_counter()
                    scope.cancel()
            latencies.append(time.perf_counter() - cancelled_at)
    return latencies


FIGURES = (
    "fake_ceiling",
    "generate_sites_cold",
    "generate_warm_scan",
    "generate_one_file",
    "generate_no_sites",
    "pseudo_2000",
    "generate_rate_limited",
    "scaling_leaves",
    "scaling_targets",
    "pool_cancel_p99",
)


def _settings(args: argparse.Namespace, sizes: Sizes) -> dict[str, Any]:
    return {
        "mode": mode(args),
        "runs": args.runs,
        "latency_s": args.latency,
        "batch_size": BATCH,
        "max_concurrency": CONCURRENCY,
        "workers": WORKERS,
        "provider_limit_texts_per_s": provider_limit(args.latency),
        "sizes": sizes.__dict__,
    }


def run(args: argparse.Namespace, store: FixtureStore, homes: Homes) -> Report:
    """Measure the figures `args.only` names (all by default) and return the report."""
    bench = Benchmark(args, store, homes)
    warm_bytecode(homes.new())
    names = args.only or FIGURES
    return run_steps(bench.report, [(name, getattr(bench, name)) for name in names])


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags this benchmark takes (shared with run_all.py)."""
    parser.add_argument("--latency", type=float, default=0.02, help="fake latency per request")


def main() -> None:
    run_alone(__doc__, FIGURES, add_arguments, run)


if __name__ == "__main__":
    main()
