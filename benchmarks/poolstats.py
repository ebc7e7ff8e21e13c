"""Reading translate-pool latency: `data.pool` of `generate --json` (queue wait, worker and HTTP
time per batch, requests in flight over time, retries, 429 pauses), and the same in-flight view
from the loopback fake's own request records, which needs nothing from the product."""

from __future__ import annotations

import argparse
import itertools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from harness import percentile

from i18nprune.testing import RecordedRequest

LATENCIES = ("queueWaitMs", "workerMs", "httpMs")
COUNTS = (
    "workers",
    "spawned",
    "respawned",
    "batches",
    "requests",
    "retries",
    "rateLimited",
    "rateLimitPauseSeconds",
)


def pool_of(envelope: dict[str, Any]) -> dict[str, Any] | None:
    """`data.pool` of a generate envelope, or None when the product does not report it (or the
    run used no pool)."""
    pool = envelope.get("data", {}).get("pool")
    return pool if isinstance(pool, dict) else None


def busy_seconds(timeline: Sequence[Sequence[float]]) -> float:
    """Seconds with at least one request in flight, from `[[seconds, in_flight], …]` points
    (each count holds until the next point)."""
    busy = 0.0
    for (at, count), (following, _) in itertools.pairwise(timeline):
        if count >= 1:
            busy += following - at
    return busy


def fake_timeline(records: Sequence[RecordedRequest]) -> list[list[float]]:
    """The in-flight timeline the fake saw: `[[seconds since the first request, in flight], …]`
    at each change (a request still open when the records were taken counts until the last
    change)."""
    if not records:
        return []
    origin = min(record.started for record in records)
    changes = [(record.started - origin, 1) for record in records]
    changes += [(record.finished - origin, -1) for record in records if record.finished]
    changes.sort()
    timeline: list[list[float]] = []
    current = 0
    for at, step in changes:
        current += step
        if timeline and timeline[-1][0] == at:
            timeline[-1][1] = current
        else:
            timeline.append([round(at, 6), current])
    return timeline


def latency_summary(values: Sequence[float]) -> dict[str, float]:
    """min / p50 / p95 / p99 / max / mean (nearest rank) of `values`, in their unit."""
    if not values:
        return {}
    return {
        "min": round(min(values), 3),
        "p50": round(percentile(values, 0.5), 3),
        "p95": round(percentile(values, 0.95), 3),
        "p99": round(percentile(values, 0.99), 3),
        "max": round(max(values), 3),
        "mean": round(sum(values) / len(values), 3),
    }


def run_summary(pool: dict[str, Any] | None, records: Sequence[RecordedRequest]) -> dict[str, Any]:
    """What one generate run says about the pool: the product's statistics when present
    (`source: "data.pool"`), and always the fake's view (requests, texts, 429s, the most in
    flight at once, texts per second while at least one request was in flight)."""
    texts = sum(len(record.texts) for record in records)
    timeline = fake_timeline(records)
    busy = busy_seconds(timeline)
    fake = {
        "requests": len(records),
        "texts": texts,
        "status_429": sum(record.status == 429 for record in records),
        "max_in_flight": max((count for _, count in timeline), default=0),
        "busy_s": round(busy, 4),
        "texts_per_busy_s": round(texts / busy, 1) if busy else None,
        "http_ms": latency_summary(
            [(r.finished - r.started) * 1000 for r in records if r.finished is not None]
        ),
    }
    out: dict[str, Any] = {"fake": fake, "source": "data.pool" if pool else "fake only"}
    if pool is None:
        return out
    stats: dict[str, Any] = {key: pool.get(key) for key in COUNTS}
    for key in LATENCIES:
        stats[key] = pool.get(key)
    in_flight = pool.get("inFlight") or {}
    pool_timeline = in_flight.get("timeline") or []
    pool_busy = busy_seconds(pool_timeline)
    sent = sum(batch.get("texts", 0) for batch in pool.get("batchTimings") or [])
    stats["inFlight"] = {
        "limit": in_flight.get("limit"),
        "max": in_flight.get("max"),
        "mean": in_flight.get("mean"),
        "busy_s": round(pool_busy, 4),
        "texts_sent": sent,
        "texts_per_busy_s": round(sent / pool_busy, 1) if pool_busy else None,
    }
    out["pool"] = stats
    return out


def plot_series(pool: dict[str, Any]) -> dict[str, Any]:
    """What the charts read from `data.pool`: the in-flight timeline, its limit, and each
    batch's queue wait, worker time and HTTP time (ms)."""
    in_flight = pool.get("inFlight") or {}
    timings = pool.get("batchTimings") or []
    series: dict[str, Any] = {
        "timeline": in_flight.get("timeline") or [],
        "limit": in_flight.get("limit"),
    }
    for key in LATENCIES:
        series[key] = [batch[key] for batch in timings if batch.get(key) is not None]
    return series


def in_flight_throughput(summary: dict[str, Any]) -> tuple[float | None, str]:
    """Texts per second while at least one request was in flight, and where it came from: the
    pool's own timeline and batch timings when `data.pool` is there, else the fake's records."""
    pool = summary.get("pool")
    if pool and pool["inFlight"]["texts_per_busy_s"]:
        return pool["inFlight"]["texts_per_busy_s"], "data.pool"
    return summary["fake"]["texts_per_busy_s"], "fake"


def describe(pool: dict[str, Any]) -> str:
    """A few lines a person reads: counts, retries and 429 pauses, latency percentiles, and the
    throughput while requests were in flight."""
    summary = run_summary(pool, [])["pool"]
    lines = [
        "workers {workers} (spawned {spawned}, respawned {respawned}); batches {batches}, "
        "requests {requests}, retries {retries}, 429s {rateLimited}, "
        "paused {rateLimitPauseSeconds} s".format(**summary),
    ]
    for key in LATENCIES:
        stats = summary.get(key) or {}
        cells = ", ".join(
            f"{name} {stats[name]}" for name in ("p50", "p95", "p99", "max") if name in stats
        )
        lines.append(f"{key:12} {cells}")
    flight = summary["inFlight"]
    lines.append(
        f"in flight: max {flight['max']} of limit {flight['limit']}, mean {flight['mean']}; "
        f"{flight['texts_sent']} texts in {flight['busy_s']} s with ≥ 1 in flight = "
        f"{flight['texts_per_busy_s']} texts/s"
    )
    return "\n".join(lines)


def main() -> None:
    """Analyse your own run: `i18nprune generate --json > run.json`, then
    `python benchmarks/poolstats.py run.json [--plot DIR]`."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("envelope", type=Path, help="the JSON output of `generate --json`")
    parser.add_argument("--plot", type=Path, default=None, help="write the charts into DIR")
    args = parser.parse_args()
    pool = pool_of(json.loads(args.envelope.read_text()))
    if pool is None:
        raise SystemExit("no data.pool in this envelope (no pool was used, or an older version)")
    print(describe(pool))
    if args.plot is not None:
        from plots import batch_latency, in_flight

        args.plot.mkdir(parents=True, exist_ok=True)
        runs = [(args.envelope.stem, plot_series(pool))]
        for made in (
            batch_latency(runs, args.plot / "batch_latency.png"),
            in_flight(runs, args.plot / "in_flight_timeline.png"),
        ):
            print(made)


if __name__ == "__main__":
    main()
