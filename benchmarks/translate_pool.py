"""Translate-pool throughput, cancel latency and memory, against the LibreTranslate fake.

    python benchmarks/translate_pool.py [--leaves 20000] [--latency 0.02] [--cancels 50]

1. Throughput: the real CLI (`i18nprune generate --target fr --json`) translates `--leaves`
   leaves into one new target through the loopback LibreTranslate fake at `--latency` seconds
   per request, with an empty cache. Reports leaves/s end to end, next to the limit the provider
   settings imply (max concurrency × batch size ÷ latency), and the peak RSS of the run.
2. Cancel latency: in this process, a worker pool translates a job against a slow fake and the
   caller's trio scope is cancelled while requests are in flight; reports p50/p99 of the time
   from cancel to `translate` returning.
Prints one JSON document with measurements, limits and ratios, and saves it to `--out`.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import trio
from harness import cli_environment, percentile, write_report

from i18nprune.config.schema import TranslatePolicy
from i18nprune.pool import TranslateJob, open_pool
from i18nprune.testing import FakeProvider
from i18nprune.translate.providers import ProviderSettings

LIMITS = {"leaves_per_s": 5000.0, "cancel_p99_ms": 100.0, "peak_rss_mb": 300.0}
BATCH, CONCURRENCY, WORKERS = 100, 8, 4
WORDS = ("save", "cancel", "profile", "settings", "welcome", "back", "next", "items", "account")


def write_project(root: Path, leaves: int, base_url: str) -> None:
    """A project whose source locale has `leaves` distinct strings, some with placeholders."""
    rng = random.Random(20261129)
    source: dict[str, dict[str, str]] = {}
    for index in range(leaves):
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 6)))
        text = f"{words.capitalize()} {index}"
        if index % 5 == 0:
            text += ", {{name}}"
        if index % 11 == 0:
            text = f"<b>{text}</b>"
        source.setdefault(f"section{index // 200}", {})[f"key{index}"] = text
    (root / "src").mkdir(parents=True)
    (root / "src" / "App.tsx").write_text("export const App = () => null;\n")
    (root / "locales").mkdir()
    (root / "locales" / "en.json").write_text(json.dumps(source, indent=2, ensure_ascii=False))
    config = {
        "locales": {"source": "en"},
        "translate": {
            "primary": "libre",
            "workers": WORKERS,
            "providers": [
                {
                    "id": "libre",
                    "baseUrl": base_url,
                    "batchSize": BATCH,
                    "rateLimit": {"maxConcurrency": CONCURRENCY},
                }
            ],
        },
    }
    (root / "i18nprune.config.json").write_text(json.dumps(config, indent=2))


def timed_generate(root: Path, home: Path) -> tuple[float, float, dict[str, object]]:
    """Wall seconds, peak RSS (MB) and the envelope of one `generate` in a fresh process."""
    probe = (
        "import resource, subprocess, sys, time;"
        "t = time.perf_counter();"
        "out = subprocess.run(sys.argv[1:], capture_output=True);"
        "elapsed = time.perf_counter() - t;"
        "sys.stderr.buffer.write(out.stdout);"
        "print(elapsed, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    command = [
        sys.executable, "-m", "i18nprune", "-C", str(root), "generate", "--target", "fr",
        "--json", "--json-compact",
    ]  # fmt: skip
    out = subprocess.run(
        [sys.executable, "-c", probe, *command],
        env=cli_environment(home),
        capture_output=True,
        text=True,
        check=True,
    )
    seconds, rss_kb = out.stdout.split()
    return float(seconds), int(rss_kb) / 1024, json.loads(out.stderr)


async def _cancel_latencies(base_url: str, rounds: int) -> list[float]:
    settings = ProviderSettings(
        id="libre",
        base_url=base_url,
        api_key=None,
        model=None,
        region=None,
        batch_size=BATCH,
        timeout_seconds=30.0,
        max_concurrency=CONCURRENCY,
        rps=None,
        rpm=None,
    )
    texts = [f"Text number {index}" for index in range(BATCH * CONCURRENCY * 2)]
    job = TranslateJob(
        texts=texts, source="en", target="fr", chain=[settings], policy=TranslatePolicy()
    )
    rng = random.Random(7)
    latencies = []
    async with open_pool(WORKERS) as pool:
        for _ in range(rounds):
            with trio.CancelScope() as scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(pool.translate, job)
                    await trio.sleep(0.05 + rng.random() * 0.1)
                    cancelled_at = time.perf_counter()
                    scope.cancel()
            latencies.append(time.perf_counter() - cancelled_at)
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--leaves", type=int, default=20_000)
    parser.add_argument("--latency", type=float, default=0.02)
    parser.add_argument("--cancels", type=int, default=50)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/translate_pool.json"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="i18nprune-bench-") as tmp:
        root, home = Path(tmp) / "repo", Path(tmp) / "home"
        with FakeProvider("libre", latency=args.latency) as fake:
            write_project(root, args.leaves, fake.base_url)
            subprocess.run(  # compile bytecode once, as an installed package has it
                [sys.executable, "-m", "i18nprune", "--version"],
                env=cli_environment(home),
                capture_output=True,
                check=True,
            )
            seconds, rss_mb, envelope = timed_generate(root, home)
            stats = fake.stats()
        with FakeProvider("libre", latency=1.0) as slow:
            latencies = trio.run(_cancel_latencies, slow.base_url, args.cancels)
            aborted = slow.stats().aborted
    result = envelope["data"]["targetResults"][0]  # type: ignore[index]
    measured = {
        "leaves_per_s": round(result["translatedLeafCount"] / seconds, 1),
        "cancel_p99_ms": round(percentile(latencies, 0.99) * 1000, 1),
        "peak_rss_mb": round(rss_mb, 1),
    }
    details = {
        "leaves": args.leaves,
        "latency_s": args.latency,
        "workers": WORKERS,
        "batch_size": BATCH,
        "max_concurrency": CONCURRENCY,
        "provider_limit_leaves_per_s": round(CONCURRENCY * BATCH / args.latency, 1),
        "wall_s": round(seconds, 3),
        "ok": envelope["ok"],
        "translated": result["translatedLeafCount"],
        "failed": result["failedLeafCount"],
        "fake_requests": stats.requests,
        "fake_max_concurrency": stats.max_concurrency,
        "cancel_p50_ms": round(percentile(latencies, 0.5) * 1000, 1),
        "cancel_rounds": args.cancels,
        "cancel_aborted_requests": aborted,
    }
    write_report("translate_pool", details, measured, LIMITS, args.out, floors={"leaves_per_s"})


if __name__ == "__main__":
    main()
