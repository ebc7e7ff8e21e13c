"""`serve` latency over a real server subprocess and its pipes (`i18nprune.testing.ServeClient`).

    python benchmarks/serve.py [--quick | --smoke] [--runs 3] [--pings 300] [--saves 50] [--out DIR]

1. warm `op.validate` on the 10k-file scan fixture (one server and home: a first, cold call,
   then each run is the median of five warm calls);
2. `ping` round trips every 10 ms while an `op.generate` of 20k leaves (with call sites) runs
   against the loopback LibreTranslate fake at 20 ms per request: each run's p99, and whether
   every run met the limit;
3. spawn → `initialize` answer; idle `ping` p50/p99; `$/cancelRequest` → answer of a running
   `op.generate`;
4. save → `$/changed` on the 10k-file scan fixture (a server watching it, `capabilities.watch`):
   p50/p95/p99 over a run's saves of a source file (`--saves`, default 50);
5. `op.validate` right after a one-file edit on the 10k-file fixture: each run's median over
   `EDITS` edits (each adds a key the answer must report missing), the index updated from the
   changed path rather than a walk;
6. on a 3,000-file / 18k-key project with three target locales (issue 29's size), a server
   watching it: save of a source file → its `$/diagnostics` and → `$/changed` (p50/p99 over a
   run's saves, `PUSH_SAVES`), and warm `op.key` p50/p99 over `KEY_CALLS` calls.
Each run has a fresh `I18NPRUNE_HOME`. Saves `serve.json` in `--out`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fixtures import SOURCE, FixtureStore, Shape, provider_env
from harness import (
    Homes,
    Limit,
    Mode,
    Report,
    Run,
    Spec,
    cli_environment,
    loadavg,
    measure_runs,
    mode,
    percentile,
    run_alone,
    run_steps,
    warm_bytecode,
)
from scan import validate_shape
from translate_pool import sites_shape

from i18nprune.testing import FakeProvider, ServeClient

PING_EVERY_S = 0.010
EDITOR_CALLS = 100
"""Calls of `op.key` and of `op.file` per run of the editor figure."""
SAVE_GAP_S = 0.2
"""The pause between two saves of the watch figure: each save is its own burst."""
SAVES = 50
"""Saves per run of the watch figure (`--saves`; run_all.py keeps this default)."""
EDITS = 10
"""Edits per run of the after-an-edit figure."""
PUSH_TARGETS = ("fr", "de", "es")
"""Its target locales: each a full copy of the source's leaves, as a translated project has."""
PUSH_SAVES = 20
"""Saves per run of the push figure."""
KEY_CALLS = 200
"""Warm `op.key` calls per run."""


@dataclass(frozen=True)
class Sizes:
    """The sizes of one suite mode."""

    validate_files: int
    generate_leaves: int
    cancel_leaves: int
    cancels: int
    timeout: float
    push_files: int
    """Files of the push and `op.key` figures' project (issue 29's: 3,000 files, 18k keys)."""

    @classmethod
    def of(cls, mode: Mode) -> Sizes:
        """The sizes of `mode`: the issue's (full), smaller (quick), tiny (smoke)."""
        return {
            "full": cls(10_000, 20_000, 2_000, 20, 600.0, 3_000),
            "quick": cls(10_000, 5_000, 2_000, 5, 120.0, 3_000),
            "smoke": cls(200, 300, 200, 2, 120.0, 200),
        }[mode]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def _stop(client: ServeClient) -> None:
    client.shutdown()
    client.exit()
    client.wait_exit(timeout=30)


def _spawn(root: Path, env: dict[str, str], *flags: str) -> ServeClient:
    client = ServeClient.spawn("--project", str(root), *flags, env=env)
    client.initialize(timeout=60)
    return client


class Benchmark:
    """The serve figures of one session."""

    def __init__(self, args: argparse.Namespace, store: FixtureStore, homes: Homes) -> None:
        self.args = args
        self.sizes = Sizes.of(mode(args))
        self.store = store
        self.homes = homes
        settings = {
            "mode": mode(args),
            "runs": args.runs,
            "pings": args.pings,
            "saves": _saves(args),
            "ping_every_s": PING_EVERY_S,
            "sizes": self.sizes.__dict__,
        }
        self.report = Report("serve", settings)

    def validate_warm(self) -> None:
        files = self.sizes.validate_files
        written = self.store.get(validate_shape(files))
        timeout = self.sizes.timeout
        env = cli_environment(self.homes.new())
        with _spawn(written.root, env) as client:

            def validate() -> float:
                started = time.perf_counter()
                client.request("op.validate", {"options": {}}, timeout=timeout).unwrap()
                return time.perf_counter() - started

            cold = validate()

            def once(_: int) -> tuple[float, dict[str, Any]]:
                warm = [validate() for _ in range(5)]
                return statistics.median(warm) * 1000, {"warm_ms": [_ms(w) for w in warm]}

            runs = measure_runs(self.args.runs, once)
            _stop(client)
        spec = Spec(
            "serve_validate_warm",
            f"serve warm op.validate, {files:,} files (median of 5 calls a run)",
            "ms",
            "lower",
            Limit(30.0, "issue 11 goal: ≤ 30 ms"),
        )
        self.report.add(spec, runs, files=files, first_call_ms=_ms(cold))

    def validate_after_edit(self) -> None:
        files = self.sizes.validate_files
        written = self.store.get(validate_shape(files))
        edited = _edited_sources(written.root)
        originals = {path: path.read_bytes() for path in edited}
        timeout = self.sizes.timeout
        env = cli_environment(self.homes.new())
        edits = 0
        try:
            with _spawn(written.root, env) as client:
                client.request("op.validate", {"options": {}}, timeout=timeout).unwrap()

                def once(_: int) -> tuple[float, dict[str, Any]]:
                    nonlocal edits
                    latencies = []
                    cpu_before = _cpu_seconds(client.process.pid)
                    for _ in range(EDITS):
                        path = edited[edits % len(edited)]
                        key = _append_call(path, edits)
                        edits += 1
                        started = time.perf_counter()
                        answer = client.request("op.validate", {"options": {}}, timeout=timeout)
                        latencies.append(time.perf_counter() - started)
                        if key not in answer.unwrap()["data"]["missing"]:
                            raise RuntimeError(f"op.validate after an edit missed {key}")
                    cpu = _cpu_seconds(client.process.pid) - cpu_before
                    return statistics.median(latencies) * 1000, {
                        "edits": EDITS,
                        "after_edit_ms": [_ms(latency) for latency in latencies],
                        "server_cpu_ms_per_edit": _ms(cpu / EDITS),
                    }

                runs = measure_runs(self.args.runs, once)
                _stop(client)
        finally:
            for path, content in originals.items():
                path.write_bytes(content)
        spec = Spec(
            "serve_validate_after_edit",
            f"serve op.validate right after a one-file edit, {files:,} files "
            f"(median of {EDITS} edits a run)",
            "ms",
            "lower",
        )
        self.report.add(spec, runs, files=files)

    def editor_ops(self) -> None:
        """`op.file` and `op.key` on the 10k-file fixture, warm: each run's p99 over
        `EDITOR_CALLS` calls of each (the files and keys come from `op.keys` and the usages)."""
        files = self.sizes.validate_files
        written = self.store.get(validate_shape(files))
        timeout = self.sizes.timeout
        env = cli_environment(self.homes.new())
        with _spawn(written.root, env) as client:
            client.request("op.validate", {"options": {}}, timeout=timeout).unwrap()
            keys = [entry["key"] for entry in client.keys(limit=EDITOR_CALLS)["data"]["keys"]]
            file_runs: list[Run] = []

            def once(_: int) -> tuple[float, dict[str, Any]]:
                key_times: list[float] = []
                file_times: list[float] = []
                for key in keys:
                    started = time.perf_counter()
                    usages = client.key(key, timeout=timeout)["data"]["usages"]
                    key_times.append(time.perf_counter() - started)
                    for usage in usages[:1]:  # a key only defined has no file to ask about
                        started = time.perf_counter()
                        client.file(usage["file"], timeout=timeout)
                        file_times.append(time.perf_counter() - started)
                if file_times:
                    file_runs.append(
                        Run(_ms(percentile(file_times, 0.99)), loadavg(), loadavg(), {})
                    )
                details = {"p50_ms": _ms(percentile(key_times, 0.5)), "calls": len(keys)}
                return _ms(percentile(key_times, 0.99)), details

            key_runs = measure_runs(self.args.runs, once)
            _stop(client)
        goal = Limit(20.0, "issue 12 goal: p99 ≤ 20 ms")
        self.report.add(
            Spec("serve_op_key_p99", f"serve op.key p99, {files:,} files", "ms", "lower", goal),
            key_runs,
            files=files,
        )
        self.report.add(
            Spec("serve_op_file_p99", f"serve op.file p99, {files:,} files", "ms", "lower", goal),
            file_runs,
            files=files,
        )

    def ping_under_generate(self) -> None:
        leaves = self.sizes.generate_leaves
        written = self.store.get(sites_shape(leaves))
        kept: list[dict[str, Any]] = []

        def once(_: int) -> tuple[float, dict[str, Any]]:
            written.reset_targets()
            with FakeProvider("libre", latency=0.02, max_lifetime=self.sizes.timeout + 60) as fake:
                env = cli_environment(self.homes.new(), provider_env(fake.base_url))
                with _spawn(written.root, env, "--allow-writes") as client:
                    pings, generate_s, envelope = _pings_under_generate(client, self.sizes.timeout)
                    _stop(client)
            rtts = [rtt for _, rtt in pings]
            if not kept:
                kept.append(
                    {"at": [round(at, 4) for at, _ in pings], "rtt_ms": [_ms(rtt) for rtt in rtts]}
                )
            results = envelope["data"]["targetResults"]
            return percentile(rtts, 0.99) * 1000, {
                "pings": len(rtts),
                "p50_ms": _ms(percentile(rtts, 0.5)),
                "max_ms": _ms(max(rtts)),
                "generate_s": round(generate_s, 3),
                "leaves": sum(result["translatedLeafCount"] for result in results),
            }

        spec = Spec(
            "serve_ping_p99_under_generate",
            f"serve ping p99 during a {leaves:,}-leaf op.generate (a ping every 10 ms)",
            "ms",
            "lower",
            Limit(10.0, "issue 11 goal: ≤ 10 ms every run"),
        )
        runs = measure_runs(self.args.runs, once)
        self.report.add(spec, runs, every_run_meets_goal=all(run.value <= 10.0 for run in runs))
        if kept:
            self.report.add_series("ping_under_generate", kept[0])

    def session_latency(self) -> None:
        written = self.store.get(sites_shape(self.sizes.cancel_leaves))
        initialize, idle = [], []
        for _ in range(max(3, self.args.runs)):
            env = cli_environment(self.homes.new())
            before = loadavg()
            started = time.perf_counter()
            with _spawn(written.root, env) as client:
                spawned = time.perf_counter() - started
                pings = [_timed_ping(client) for _ in range(self.args.pings)]
                _stop(client)
            initialize.append(Run(spawned * 1000, before, loadavg(), {}))
            idle.append(
                Run(
                    percentile(pings, 0.99) * 1000,
                    before,
                    loadavg(),
                    {"p50_ms": _ms(percentile(pings, 0.5)), "pings": len(pings)},
                )
            )
        self.report.add(
            Spec(
                "serve_initialize",
                "serve spawn → initialize answer",
                "ms",
                "lower",
                Limit(500.0, "the serve benchmark's standing limit"),
            ),
            initialize,
        )
        self.report.add(
            Spec(
                "serve_ping_idle_p99",
                "serve idle ping p99",
                "ms",
                "lower",
                Limit(10.0, "the serve benchmark's standing limit"),
            ),
            idle,
        )

    def cancel(self) -> None:
        written = self.store.get(sites_shape(self.sizes.cancel_leaves))

        def once(_: int) -> tuple[float, dict[str, Any]]:
            written.reset_targets()
            with FakeProvider("libre", latency=1.0, max_lifetime=self.sizes.timeout + 60) as slow:
                env = cli_environment(self.homes.new(), provider_env(slow.base_url))
                with _spawn(written.root, env, "--allow-writes") as client:
                    times = _cancel_latencies(client, self.sizes.cancels)
                    _stop(client)
            return percentile(times, 0.99) * 1000, {
                "cancels": len(times),
                "p50_ms": _ms(percentile(times, 0.5)),
            }

        spec = Spec(
            "serve_cancel_p99",
            "serve $/cancelRequest → answer of a running op.generate, p99",
            "ms",
            "lower",
            Limit(100.0, "the serve benchmark's standing limit"),
        )
        self.report.add(spec, measure_runs(self.args.runs, once))

    def watch_latency(self) -> None:
        files = self.sizes.validate_files
        written = self.store.get(validate_shape(files))
        edited = _edited_sources(written.root)
        originals = {path: path.read_bytes() for path in edited}

        def once(_: int) -> tuple[float, dict[str, Any]]:
            env = cli_environment(self.homes.new())
            client = ServeClient.spawn("--project", str(written.root), env=env)
            try:
                with client:
                    init = client.initialize(capabilities={"watch": True}, timeout=60)
                    if init["capabilities"]["watch"] is not True:
                        raise RuntimeError("the server does not watch: " + client.stderr_text())
                    client.request("op.validate", {"options": {}}, timeout=self.sizes.timeout)
                    cpu_before = _cpu_seconds(client.process.pid)
                    latencies = _save_latencies(client, written.root, edited, _saves(self.args))
                    cpu = _cpu_seconds(client.process.pid) - cpu_before
                    _stop(client)
            finally:
                for path, content in originals.items():
                    path.write_bytes(content)
            return percentile(latencies, 0.99) * 1000, {
                "saves": len(latencies),
                "p50_ms": _ms(percentile(latencies, 0.5)),
                "p95_ms": _ms(percentile(latencies, 0.95)),
                "max_ms": _ms(max(latencies)),
                "server_cpu_ms_per_save": _ms(cpu / len(latencies)),
            }

        spec = Spec(
            "serve_watch_save_to_changed_p99",
            f"serve save of a source file → $/changed, {files:,} files, p99 of "
            f"{_saves(self.args)} saves",
            "ms",
            "lower",
            Limit(500.0, "issue 12 goal: ≤ 500 ms"),
        )
        self.report.add(spec, measure_runs(self.args.runs, once), files=files)

    def push_latency(self) -> None:
        """Save → `$/diagnostics` and save → `$/changed` on the 3,000-file / 18k-key project:
        each run's p99 over `PUSH_SAVES` saves, a fresh server watching it per run."""
        root = self._push_project()
        edited = _edited_sources(root)
        originals = {path: path.read_bytes() for path in edited}
        changed_runs: list[Run] = []
        kept: list[dict[str, Any]] = []

        def once(_: int) -> tuple[float, dict[str, Any]]:
            env = cli_environment(self.homes.new())
            before = loadavg()
            client = ServeClient.spawn("--project", str(root), env=env)
            try:
                with client:
                    init = client.initialize(capabilities={"watch": True}, timeout=60)
                    if init["capabilities"]["watch"] is not True:
                        raise RuntimeError("the server does not watch: " + client.stderr_text())
                    client.request("op.validate", {"options": {}}, timeout=self.sizes.timeout)
                    cpu_before = _cpu_seconds(client.process.pid)
                    pushes = _push_latencies(client, root, edited, PUSH_SAVES)
                    cpu = _cpu_seconds(client.process.pid) - cpu_before
                    _stop(client)
            finally:
                for path, content in originals.items():
                    path.write_bytes(content)
            diagnostics = [first for first, _ in pushes]
            changed = [second for _, second in pushes]
            if not kept:
                kept.append(
                    {
                        "diagnostics_ms": [_ms(value) for value in diagnostics],
                        "changed_ms": [_ms(value) for value in changed],
                    }
                )
            changed_runs.append(
                Run(
                    _ms(percentile(changed, 0.99)),
                    before,
                    loadavg(),
                    {"p50_ms": _ms(percentile(changed, 0.5)), "saves": len(changed)},
                )
            )
            return _ms(percentile(diagnostics, 0.99)), {
                "saves": len(diagnostics),
                "p50_ms": _ms(percentile(diagnostics, 0.5)),
                "max_ms": _ms(max(diagnostics)),
                "server_cpu_ms_per_save": _ms(cpu / len(diagnostics)),
            }

        files = self.sizes.push_files
        size = f"{files:,} files, {push_shape(files).leaves:,} keys"
        goal = Limit(500.0, "issue 29 goal: ≤ 0.5 s (docs/serve.md: the first notice)")
        spec = Spec(
            "serve_push_diagnostics_p99",
            f"serve save → its $/diagnostics, {size}, p99 of {PUSH_SAVES} saves",
            "ms",
            "lower",
            goal,
        )
        self.report.add(spec, measure_runs(self.args.runs, once), files=files)
        spec = Spec(
            "serve_push_changed_p99",
            f"serve save → $/changed (with the unused count), {size}, p99 of {PUSH_SAVES} saves",
            "ms",
            "lower",
            goal,
        )
        self.report.add(spec, changed_runs, files=files)
        if kept:
            self.report.add_series("push_latency", kept[0])

    def op_key_18k(self) -> None:
        """Warm `op.key` on the 3,000-file / 18k-key project with three targets: each run's
        p99 over `KEY_CALLS` calls (each a different key, from `op.keys`), after an untimed
        pass over the same keys."""
        root = self._push_project()
        files = self.sizes.push_files
        env = cli_environment(self.homes.new())
        kept: list[list[float]] = []
        with _spawn(root, env) as client:
            client.request("op.validate", {"options": {}}, timeout=self.sizes.timeout).unwrap()
            keys = [entry["key"] for entry in client.keys(limit=KEY_CALLS)["data"]["keys"]]
            for key in keys:  # warm: the first lookup scans and reads the locales
                client.key(key, timeout=self.sizes.timeout)

            def once(_: int) -> tuple[float, dict[str, Any]]:
                times = []
                for key in keys:
                    started = time.perf_counter()
                    client.key(key, timeout=self.sizes.timeout)
                    times.append(time.perf_counter() - started)
                if not kept:
                    kept.append([_ms(value) for value in times])
                return _ms(percentile(times, 0.99)), {
                    "p50_ms": _ms(percentile(times, 0.5)),
                    "calls": len(times),
                }

            runs = measure_runs(self.args.runs, once)
            _stop(client)
        spec = Spec(
            "serve_op_key_18k_p99",
            f"serve warm op.key p99, {files:,} files, {push_shape(files).leaves:,} keys, "
            f"{len(PUSH_TARGETS)} targets ({KEY_CALLS} calls a run)",
            "ms",
            "lower",
            Limit(20.0, "issue 12 goal for editor ops: p99 ≤ 20 ms"),
        )
        self.report.add(spec, runs, files=files)
        if kept:
            self.report.add_series("op_key_18k", {"key_ms": kept[0]})

    def _push_project(self) -> Path:
        """The 3,000-file / 18k-key project, with a full copy of the source in each target."""
        written = self.store.get(push_shape(self.sizes.push_files))
        source = json.loads((written.root / "locales" / f"{SOURCE}.json").read_text())
        for code in PUSH_TARGETS:
            translated = _translated_tree(source, code)
            (written.root / "locales" / f"{code}.json").write_text(
                json.dumps(translated, indent=2, ensure_ascii=False) + "\n"
            )
        return written.root


def push_shape(files: int) -> Shape:
    """Issue 29's project shape: `files` files calling six keys each (3,000 files: 18,000
    keys)."""
    return Shape(leaves=6 * files, files=files)


def _translated_tree(node: Any, code: str) -> Any:
    if isinstance(node, dict):
        return {key: _translated_tree(value, code) for key, value in node.items()}
    return f"[{code}] {node}" if isinstance(node, str) else node


def _push_latencies(
    client: ServeClient, root: Path, edited: list[Path], saves: int
) -> list[tuple[float, float]]:
    """Save one of `edited` at a time (a new missing key each time): for each save, the time
    until its `$/diagnostics` (naming the new key) and until the `$/changed` naming it."""
    latencies = []
    for number in range(saves):
        path = edited[number % len(edited)]
        relative = path.relative_to(root).as_posix()
        since = len(client.notifications())
        started = time.perf_counter()
        key = _append_call(path, number)
        client.wait_notification("$/diagnostics", _reports(relative, key), after=since, timeout=30)
        diagnostics = time.perf_counter() - started
        client.wait_notification("$/changed", _names(relative), after=since, timeout=30)
        latencies.append((diagnostics, time.perf_counter() - started))
        time.sleep(SAVE_GAP_S)
    return latencies


def _reports(relative: str, key: str) -> Callable[[Any], bool]:
    return lambda params: (
        params["path"] == relative
        and any(diagnostic.get("key") == key for diagnostic in params["diagnostics"])
    )


def _cpu_seconds(pid: int) -> float:
    """User + system CPU of the process `pid` so far (Linux /proc; its own threads, not its
    children): the load-independent cost of what it did meanwhile."""
    raw = Path(f"/proc/{pid}/stat").read_bytes()
    fields = raw[raw.rindex(b")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _saves(args: argparse.Namespace) -> int:
    saves: int = getattr(args, "saves", SAVES)
    return saves


def _save_latencies(client: ServeClient, root: Path, edited: list[Path], saves: int) -> list[float]:
    """Save one of `edited` at a time (a new missing key each time) and time each save until
    the `$/changed` naming it has arrived (and its `$/diagnostics`, before the next save)."""
    latencies = []
    for number in range(saves):
        path = edited[number % len(edited)]
        relative = path.relative_to(root).as_posix()
        since = len(client.notifications())
        started = time.perf_counter()
        _append_call(path, number)
        client.wait_notification("$/changed", _names(relative), after=since, timeout=30)
        latencies.append(time.perf_counter() - started)
        client.wait_notification("$/diagnostics", _is(relative), after=since, timeout=30)
        time.sleep(SAVE_GAP_S)
    return latencies


def _edited_sources(root: Path) -> list[Path]:
    """Five TSX files spread over the fixture: a call appended to one is a call (in a Vue or
    Svelte file it would land after the markup, outside any script)."""
    sources = sorted(path for path in (root / "src").rglob("*.tsx") if path.is_file())
    return sources[:: max(1, len(sources) // 5)][:5]


def _append_call(path: Path, number: int) -> str:
    """Save `path` with one call of a new key (replacing the call an earlier edit appended);
    the key."""
    key = f"bench.watch.k{number}"
    text = path.read_text().split("\n// bench.watch", 1)[0]
    path.write_text(f"{text}\n// bench.watch\nt('{key}');\n")
    return key


def _names(relative: str) -> Callable[[Any], bool]:
    return lambda params: relative in params["files"]


def _is(relative: str) -> Callable[[Any], bool]:
    return lambda params: bool(params["path"] == relative)


def _timed_ping(client: ServeClient) -> float:
    started = time.perf_counter()
    client.ping()
    return time.perf_counter() - started


def _pings_under_generate(
    client: ServeClient, timeout: float
) -> tuple[list[tuple[float, float]], float, dict[str, Any]]:
    """Ping every 10 ms from the first progress of an `op.generate` until its answer:
    ([(seconds since the request, round trip)], generate seconds, its result)."""
    started = time.perf_counter()
    request = client.submit("op.generate", {"options": {"target": ["fr"]}})
    deadline = started + timeout
    while not client.progress(request):
        if time.perf_counter() > deadline:
            raise TimeoutError("op.generate sent no progress")
        time.sleep(0.001)
    pings: list[tuple[float, float]] = []
    next_at = time.perf_counter()
    while True:
        next_at += PING_EVERY_S
        pause = next_at - time.perf_counter()
        if pause > 0:
            time.sleep(pause)
        sent = time.perf_counter()
        client.ping(timeout=timeout)
        pings.append((sent - started, time.perf_counter() - sent))
        try:
            response = client.wait_response(request, timeout=0.0005)
        except TimeoutError:
            if time.perf_counter() > deadline:
                raise
            continue
        return pings, time.perf_counter() - started, response.unwrap()


def _cancel_latencies(client: ServeClient, rounds: int) -> list[float]:
    times = []
    for _ in range(rounds):
        request = client.submit("op.generate", {"options": {"target": ["de"]}})
        deadline = time.perf_counter() + 60
        while not any(e.get("phase") == "translate" for e in client.progress(request)):
            if time.perf_counter() > deadline:
                raise TimeoutError("generate never reached the translate phase")
            time.sleep(0.002)
        time.sleep(0.05)  # requests are in flight now
        started = time.perf_counter()
        client.cancel(request)
        response = client.wait_response(request, timeout=30)
        times.append(time.perf_counter() - started)
        if response.error is None or response.error.data.get("code") != "SERVE_REQUEST_CANCELLED":
            raise RuntimeError(f"cancel did not cancel: {response.raw!r}")
    return times


FIGURES = (
    "validate_warm",
    "validate_after_edit",
    "editor_ops",
    "ping_under_generate",
    "session_latency",
    "cancel",
    "watch_latency",
    "push_latency",
    "op_key_18k",
)


def run(args: argparse.Namespace, store: FixtureStore, homes: Homes) -> Report:
    """Measure the serve figures and return the report."""
    bench = Benchmark(args, store, homes)
    warm_bytecode(homes.new())
    names = args.only or FIGURES
    return run_steps(bench.report, [(name, getattr(bench, name)) for name in names])


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags this benchmark takes beyond the common ones (shared with run_all.py)."""
    parser.add_argument("--pings", type=int, default=300, help="idle pings per server")
    parser.add_argument("--saves", type=int, default=SAVES, help="saves per watch run")


def main() -> None:
    run_alone(__doc__, FIGURES, add_arguments, run)


if __name__ == "__main__":
    main()
