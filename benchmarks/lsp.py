"""`i18nprune lsp` at typing speed, over a real server subprocess and its pipes
(`i18nprune.testing.lsp.LspClient`), on the 10k-file scan fixture with a French target that
lacks every tenth key.

    python benchmarks/lsp.py [--quick | --smoke] [--runs 3] [--calls 200] [--out DIR]

1. spawn → `initialize` → `didOpen` of a source file → its first `publishDiagnostics`: cold (a
   fresh `I18NPRUNE_HOME`, no scan cache) and with the disk cache a CLI `validate` wrote;
2. `didChange` of that file (an unsaved edit that adds a call of a new key each time) → the
   `publishDiagnostics` of that version: each run's p99 over `--calls` changes;
3. `hover`, `completion` and `definition` at a key site: each run's p99 over `--calls` calls;
4. the server's resident memory per source file: RSS with the 10k-file fixture open minus RSS
   with a one-file project, over the file count.
Each run has a fresh home. Saves `lsp.json` (and `lsp_latency.png` with matplotlib) in `--out`.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fixtures import FixtureStore, write_config
from harness import (
    Homes,
    Limit,
    Mode,
    Report,
    Spec,
    cli,
    cli_environment,
    measure_runs,
    mode,
    percentile,
    run_alone,
    run_steps,
    warm_bytecode,
)
from processes import resident_bytes
from scan import validate_shape

from i18nprune.scan.markup import source_document
from i18nprune.syntax_tree import parse
from i18nprune.testing.lsp import LspClient

CALLS = 200
"""Changes, and calls of each request, per run (`--calls`)."""


@dataclass(frozen=True)
class Sizes:
    files: int
    timeout: float

    @classmethod
    def of(cls, mode: Mode) -> Sizes:
        return {
            "full": cls(10_000, 600.0),
            "quick": cls(10_000, 300.0),
            "smoke": cls(200, 120.0),
        }[mode]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def _with_target(root: Path) -> None:
    """A French locale holding nine keys in ten of the source's."""
    source = json.loads((root / "locales/en.json").read_text())
    count = 0

    def french(node: dict[str, Any]) -> dict[str, Any]:
        nonlocal count
        out: dict[str, Any] = {}
        for key, value in node.items():
            if isinstance(value, dict):
                out[key] = french(value)
                continue
            count += 1
            if count % 10:
                out[key] = f"fr {value}"
        return out

    (root / "locales/fr.json").write_text(json.dumps(french(source), ensure_ascii=False))


def _bare_parse_p99(path: Path, text: str, parses: int) -> float:
    """The p99 in ms of parsing `text` (the edited file) as the scan would, `parses` times."""
    durations = []
    for edit in range(parses):
        edited = text.replace("\n}", f"\n  t('typed.key{edit}');\n}}", 1).encode()
        started = time.perf_counter()
        document, grammar = source_document(edited, path.suffix)
        parse(document, grammar)
        durations.append(time.perf_counter() - started)
    return _ms(percentile(durations, 0.99))


def _site_file(root: Path) -> tuple[Path, int, int]:
    """A source file with a `t('…')` call: the file, the call's line and the key's column."""
    for path in sorted((root / "src").rglob("*.tsx")):
        for number, line in enumerate(path.read_text().splitlines()):
            found = re.search(r"\bt\('([^']+)'", line)
            if found:
                return path, number, found.start(1) + 1
    raise RuntimeError("no t('…') call in the fixture")


class Benchmark:
    def __init__(self, args: argparse.Namespace, store: FixtureStore, homes: Homes) -> None:
        self.args = args
        self.sizes = Sizes.of(mode(args))
        self.store = store
        self.homes = homes
        self.report = Report(
            "lsp",
            {
                "mode": mode(args),
                "runs": args.runs,
                "calls": args.calls,
                "sizes": self.sizes.__dict__,
            },
        )
        self.series: dict[str, list[float]] = {}

    def _project(self) -> Path:
        written = self.store.get(validate_shape(self.sizes.files))
        write_config(written.root)
        _with_target(written.root)
        return written.root

    def _start(self, home: Path) -> LspClient:
        return LspClient.start(env=cli_environment(home))

    def first_diagnostics(self) -> None:
        root = self._project()
        path, _, _ = _site_file(root)

        def opened(home: Path) -> float:
            client = self._start(home)
            started = time.perf_counter()
            try:
                client.initialize(root)
                client.diagnostics(client.open(path, language="typescriptreact"))
                return time.perf_counter() - started
            finally:
                client.close()

        def cold(_: int) -> tuple[float, dict[str, Any]]:
            return _ms(opened(self.homes.new())), {}

        def cached(_: int) -> tuple[float, dict[str, Any]]:
            home = self.homes.new()
            done = subprocess.run(
                cli(root, "validate", "--json"),
                env=cli_environment(home),
                capture_output=True,
                timeout=self.sizes.timeout,
            )
            if done.returncode not in (0, 1):
                raise RuntimeError(done.stderr.decode()[-2000:])
            return _ms(opened(home)), {}

        files = self.sizes.files
        self.report.add(
            Spec(
                "lsp_first_diagnostics_cold",
                f"lsp initialize → first diagnostics, cold, {files:,} files",
                "ms",
                "lower",
                Limit(2000.0, "issue 29 goal: ≤ 2 s"),
            ),
            measure_runs(self.args.runs, cold),
            files=files,
        )
        self.report.add(
            Spec(
                "lsp_first_diagnostics_cached",
                f"lsp initialize → first diagnostics, disk cache, {files:,} files",
                "ms",
                "lower",
                Limit(300.0, "issue 29 goal: ≤ 300 ms"),
            ),
            measure_runs(self.args.runs, cached),
            files=files,
        )

    def typing(self) -> None:
        root = self._project()
        path, line, column = _site_file(root)
        text = path.read_text()
        calls = self.args.calls
        client = self._start(self.homes.new())
        try:
            client.initialize(root)
            uri = client.open(path, language="typescriptreact")
            client.diagnostics(uri)
            edits = 0

            def changes(_: int) -> tuple[float, dict[str, Any]]:
                nonlocal edits
                latencies = []
                for _ in range(calls):
                    edits += 1
                    edited = text.replace("\n}", f"\n  t('typed.key{edits}');\n}}", 1)
                    start = len(client.messages)
                    started = time.perf_counter()
                    version = client.change(path, edited)
                    found = client.diagnostics(uri, version, start)
                    latencies.append(time.perf_counter() - started)
                    if not any(f"typed.key{edits}" in d["message"] for d in found):
                        raise RuntimeError(
                            f"the diagnostics of version {version} missed typed.key{edits}"
                        )
                self.series.setdefault("change", []).extend(_ms(v) for v in latencies)
                return _ms(percentile(latencies, 0.99)), {"p50_ms": _ms(percentile(latencies, 0.5))}

            measured = measure_runs(self.args.runs, changes)
            parse_p99 = _bare_parse_p99(path, text, calls * self.args.runs)
            self.report.add(
                Spec(
                    "lsp_change_p99",
                    f"lsp didChange → publishDiagnostics p99, {self.sizes.files:,} files",
                    "ms",
                    "lower",
                    Limit(50.0, "issue 29 goal: ≤ 50 ms"),
                    references={
                        "bare_parse_p99": Limit(
                            parse_p99,
                            "p99 of a bare tree-sitter parse of the edited file, as many "
                            "parses, in this process, this session: the least any server does",
                        )
                    },
                ),
                measured,
                calls=calls,
            )
            version = client.change(path, text)
            client.diagnostics(uri, version)
            for method, name, at in (
                ("textDocument/hover", "hover", column + 1),
                ("textDocument/completion", "completion", column + 2),
                ("textDocument/definition", "definition", column + 1),
            ):
                self.report.add(
                    Spec(
                        f"lsp_{name}_p99",
                        f"lsp {name} p99, {self.sizes.files:,} files",
                        "ms",
                        "lower",
                        Limit(20.0, "issue 29 goal: ≤ 20 ms"),
                    ),
                    measure_runs(
                        self.args.runs, self._calls(client, method, client.at(uri, line, at), name)
                    ),
                    calls=calls,
                )
        finally:
            client.close()

    def _calls(
        self, client: LspClient, method: str, params: Any, name: str
    ) -> Callable[[int], tuple[float, dict[str, Any]]]:
        def once(_: int) -> tuple[float, dict[str, Any]]:
            latencies = []
            for _ in range(self.args.calls):
                started = time.perf_counter()
                if not client.request(method, params):
                    raise RuntimeError(f"{method} answered nothing")
                latencies.append(time.perf_counter() - started)
            self.series.setdefault(name, []).extend(_ms(v) for v in latencies)
            return _ms(percentile(latencies, 0.99)), {"p50_ms": _ms(percentile(latencies, 0.5))}

        return once

    def memory(self) -> None:
        root = self._project()
        path, _, _ = _site_file(root)
        tiny = self.store.get(validate_shape(1)).root
        tiny_path, _, _ = _site_file(tiny)

        def resident(project: Path, opened: Path) -> int:
            client = self._start(self.homes.new())
            try:
                client.initialize(project)
                uri = client.open(opened, language="typescriptreact")
                client.diagnostics(uri)
                client.request("textDocument/hover", client.at(uri, 0, 0))
                time.sleep(1.0)  # the cleanup and quality checks that follow the first answer
                return resident_bytes(client.process.pid) // 1024
            finally:
                client.close()

        def once(_: int) -> tuple[float, dict[str, Any]]:
            big, small = resident(root, path), resident(tiny, tiny_path)
            per_file = (big - small) * 1024 / self.sizes.files
            return round(per_file, 1), {"rss_kib": big, "baseline_rss_kib": small}

        self.report.add(
            Spec(
                "lsp_memory_per_file",
                f"lsp resident memory per source file, {self.sizes.files:,} files",
                "bytes",
                "lower",
                Limit(1024.0, "issue 29 goal: ≤ 1 KB"),
            ),
            measure_runs(self.args.runs, once),
            files=self.sizes.files,
        )

    def plot(self) -> None:
        self.report.add_series("latency_ms", self.series)
        try:
            import plots
        except ImportError:
            return
        self.args.out.mkdir(parents=True, exist_ok=True)  # the report is saved after this
        plots.lsp_latency(self.series, self.args.out / "lsp_latency.png", self.sizes.files)


FIGURES = ("first_diagnostics", "typing", "memory")


def run(args: argparse.Namespace, store: FixtureStore, homes: Homes) -> Report:
    bench = Benchmark(args, store, homes)
    warm_bytecode(homes.new())
    names = args.only or FIGURES
    report = run_steps(bench.report, [(name, getattr(bench, name)) for name in names])
    bench.plot()
    return report


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--calls", type=int, default=CALLS, help="changes and calls per run")


def main() -> None:
    run_alone(__doc__, FIGURES, add_arguments, run)


if __name__ == "__main__":
    sys.exit(main())
