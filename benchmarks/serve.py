"""`serve` latency: start-up, ping idle and under a translate load, warm validate, cancel.

    python benchmarks/serve.py [--leaves 20000] [--pings 500] [--cancels 20]

Drives real `i18nprune serve` subprocesses through `i18nprune.testing.ServeClient`:
1. spawn → `initialize` answer (median of 5 fresh servers);
2. `ping` round trips on an idle server (p50/p99);
3. warm `op.validate` on a copy of `examples/` (median after a warm-up);
4. `ping` round trips while an `op.generate` of `--leaves` leaves runs against the loopback
   LibreTranslate fake at 20 ms per request;
5. `$/cancelRequest` → response for a running `op.generate` (p99).
Prints one JSON document with measurements, limits and ratios, and saves it to `--out`.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

# The same synthetic project as the translate-pool benchmark (this script's folder is on sys.path).
from harness import cli_environment, percentile, write_report
from translate_pool import write_project

from i18nprune.testing import FakeProvider, ServeClient

LIMITS = {
    "initialize_ms": 500.0,
    "ping_idle_p99_ms": 10.0,
    "ping_load_p99_ms": 25.0,
    "validate_warm_ms": 50.0,
    "cancel_p99_ms": 100.0,
}
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def _stop(client: ServeClient) -> None:
    client.shutdown()
    client.exit()
    client.wait_exit(timeout=10)


def time_initialize(root: Path, env: dict[str, str]) -> float:
    started = time.perf_counter()
    with ServeClient.spawn("--project", str(root), env=env) as client:
        client.initialize()
        elapsed = time.perf_counter() - started
        _stop(client)
    return elapsed


def time_pings(client: ServeClient, count: int) -> list[float]:
    times = []
    for _ in range(count):
        started = time.perf_counter()
        client.ping()
        times.append(time.perf_counter() - started)
    return times


def time_validate(client: ServeClient, runs: int) -> list[float]:
    client.request("op.validate", {"options": {}}).unwrap()  # warm-up
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        client.request("op.validate", {"options": {}}).unwrap()
        times.append(time.perf_counter() - started)
    return times


def pings_under_generate(client: ServeClient) -> tuple[list[float], float, dict[str, object]]:
    """Ping round trips while one generate runs; (pings, generate seconds, its envelope)."""
    started = time.perf_counter()
    request = client.submit("op.generate", {"options": {"target": "fr"}})
    times: list[float] = []
    while not client.progress(request) or time.perf_counter() - started < 0.05:
        time.sleep(0.001)
    while True:
        ping_started = time.perf_counter()
        client.ping()
        times.append(time.perf_counter() - ping_started)
        try:
            response = client.wait_response(request, timeout=0.002)
        except TimeoutError:
            continue
        return times, time.perf_counter() - started, response.unwrap()


def cancel_latencies(client: ServeClient, rounds: int) -> list[float]:
    times = []
    for _ in range(rounds):
        request = client.submit("op.generate", {"options": {"target": "de"}})
        deadline = time.perf_counter() + 30
        while not any(e.get("phase") == "translate" for e in client.progress(request)):
            if time.perf_counter() > deadline:
                raise TimeoutError("generate never reached the translate phase")
            time.sleep(0.002)
        time.sleep(0.05)  # requests are in flight now
        started = time.perf_counter()
        client.cancel(request)
        response = client.wait_response(request, timeout=10)
        times.append(time.perf_counter() - started)
        if response.error is None or response.error.data.get("code") != "SERVE_REQUEST_CANCELLED":
            raise RuntimeError(f"cancel did not cancel: {response.raw!r}")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--leaves", type=int, default=20_000)
    parser.add_argument("--pings", type=int, default=500)
    parser.add_argument("--cancels", type=int, default=20)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/serve.json"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="i18nprune-bench-") as tmp:
        home = Path(tmp) / "home"
        env = cli_environment(home)
        example = Path(tmp) / "example"
        shutil.copytree(EXAMPLES, example, ignore=shutil.ignore_patterns("de.json"))
        initialize = sorted(time_initialize(example, env) for _ in range(5))[2]
        with ServeClient.spawn("--project", str(example), env=env) as client:
            client.initialize()
            idle = time_pings(client, args.pings)
            validate = time_validate(client, 20)
            _stop(client)
        with FakeProvider("libre", latency=0.02) as fake:
            big = Path(tmp) / "big"
            write_project(big, args.leaves, fake.base_url)
            with ServeClient.spawn("--project", str(big), "--allow-writes", env=env) as client:
                client.initialize()
                loaded, generate_s, envelope = pings_under_generate(client)
                _stop(client)
        with FakeProvider("libre", latency=1.0) as slow:
            small = Path(tmp) / "small"
            write_project(small, 2_000, slow.base_url)
            with ServeClient.spawn("--project", str(small), "--allow-writes", env=env) as client:
                client.initialize()
                cancels = cancel_latencies(client, args.cancels)
                _stop(client)
    measured = {
        "initialize_ms": _ms(initialize),
        "ping_idle_p99_ms": _ms(percentile(idle, 0.99)),
        "ping_load_p99_ms": _ms(percentile(loaded, 0.99)),
        "validate_warm_ms": _ms(statistics.median(validate)),
        "cancel_p99_ms": _ms(percentile(cancels, 0.99)),
    }
    result = envelope["data"]["targetResults"][0]  # type: ignore[index]
    details = {
        "ping_idle_p50_ms": _ms(percentile(idle, 0.5)),
        "ping_load_p50_ms": _ms(percentile(loaded, 0.5)),
        "pings_under_load": len(loaded),
        "generate_leaves": result["translatedLeafCount"],
        "generate_s": round(generate_s, 3),
        "cancel_p50_ms": _ms(percentile(cancels, 0.5)),
    }
    write_report("serve", details, measured, LIMITS, args.out)


if __name__ == "__main__":
    main()
