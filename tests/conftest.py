"""Shared fixtures: temp projects written from dicts, and the real CLI run as its own process
(forked from a pre-imported server, `tests/zygote.py`, or a fresh interpreter)."""

from __future__ import annotations

import compileall
import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from tests.zygote import FRESH_VARIABLE, FRESH_WORKERS_VARIABLE, Zygote, run_fresh

# Property tests run on a shared, loaded machine: Hypothesis's per-example deadline and its
# "input generation is slow" check are wall-clock thresholds, which the house keeps out of
# tests. Tests that set `settings` keep their own example counts.
settings.register_profile(
    "shared-machine", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("shared-machine")

# A suite started in the background of a shell without job control (`cmd &` in a script,
# `nohup … &`) inherits SIGINT ignored, and so would every process it starts: Python keeps an
# ignored SIGINT ignored, and the Ctrl+C tests would wait for an interrupt that never comes. A
# handler (unlike SIG_IGN) does not survive exec, so the processes the tests start get the
# default, as under a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

REPO = Path(__file__).resolve().parent.parent
PACKAGES = (REPO / "i18nprune", REPO / "workers")
"""The folders of the packages the tests' processes import (`workers` installs as
`i18nprune_workers`)."""
EXAMPLES = REPO / "examples"
# What the README's quick start writes into examples/ (git-ignored); tests start without it.
QUICK_START_OUTPUT = ("de.json", "i18nprune.lock.json")


def pytest_configure(config: pytest.Config) -> None:
    """Compile the packages' bytecode once, before any test (in xdist's controller, before its
    workers start), as installing a wheel does.

    With PYTHONDONTWRITEBYTECODE set (as on the machine this was measured on) an editable
    install is never compiled, and a read-only `serve` never compiles either: each of the
    suite's thousand-odd `serve`, `lsp` and CLI processes would compile every module it
    imports from source, which doubled their start-up. `compileall` writes whatever that
    setting says, and only the modules whose source changed since. The no-bytecode test runs
    its server from a copy made without any (tests/serve/test_no_bytecode.py).
    """
    if hasattr(config, "workerinput"):  # an xdist worker: its controller compiled already
        return
    for package in PACKAGES:
        compileall.compile_dir(package, quiet=1)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every Hypothesis test `property` (`-m property` selects the property runs that
    `.ci/run` repeats at their thorough example counts: `tests/properties.py`)."""
    for item in items:
        if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
            item.add_marker(pytest.mark.property)


def require_tool(found: bool, what: str, how: str, skipped: str) -> None:
    """Skip (locally) or fail (in CI, `CI` set) when a tool the tests drive is not installed:
    `.ci/run` installs every one, so a CI run never passes by skipping `skipped`."""
    if found:
        return
    message = f"{what} is not installed ({how})"
    if os.environ.get("CI"):
        pytest.fail(f"{message}; .ci/run installs it, and CI must not skip {skipped}")
    pytest.skip(message)


@dataclass
class CliResult:
    code: int
    stdout: str
    stderr: str

    @property
    def envelope(self) -> dict[str, Any]:
        return json.loads(self.stdout)


def write_tree(root: Path, files: dict[str, str | bytes | dict[str, Any]]) -> Path:
    """Write files under root; dict values are written as pretty JSON."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        elif isinstance(content, dict):
            path.write_text(json.dumps(content, indent=2, ensure_ascii=False) + "\n")
        else:
            path.write_text(content)
    return root


def modules_after(code: str) -> set[str]:
    """The names in `sys.modules` once a fresh interpreter (this one's environment) has run
    `code`: what importing and calling something really loads."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    loaded: list[str] = json.loads(done.stdout.splitlines()[-1])
    return set(loaded)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """An isolated I18NPRUNE_HOME."""
    path = tmp_path / "home"
    path.mkdir()
    return path


def cli_environment_without_home() -> dict[str, str]:
    """This process's environment without `I18NPRUNE_*` variables, `CI` nor
    `GITHUB_WORKSPACE` (annotations name files relative to it)."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("I18NPRUNE_")}
    environ.pop("CI", None)
    environ.pop("GITHUB_WORKSPACE", None)
    return environ


def cli_environment(home: Path, **extra: str) -> dict[str, str]:
    """This process's environment for a CLI run: no `I18NPRUNE_*` variables of the caller's, no
    `CI` nor `GITHUB_WORKSPACE`, the data home `home`, then `extra`."""
    environ = cli_environment_without_home()
    environ["I18NPRUNE_HOME"] = str(home)
    environ.update(extra)
    return environ


CLI_TIMEOUT = 120.0
"""Seconds a CLI run may take before it is killed (and the test fails)."""


_worker_zygote: list[Zygote] = []
_WORKER_ENVIRON = cli_environment_without_home()
"""The fork server's environment: the worker's as it started, before any test changed it."""


def worker_zygote() -> Zygote | None:
    """This worker's fork server for CLI runs and servers (`tests/zygote.py`), made on first
    use (its process starts on the first run); None under `I18NPRUNE_TEST_FRESH=1`."""
    if os.environ.get(FRESH_VARIABLE) == "1":
        return None
    if not _worker_zygote:
        fork_workers = os.environ.get(FRESH_WORKERS_VARIABLE) != "1"
        _worker_zygote.append(Zygote(_WORKER_ENVIRON, REPO, fork_workers=fork_workers))
    return _worker_zygote[0]


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Stop this worker's fork server (the controller, which runs no test, has none)."""
    for zygote in _worker_zygote:
        zygote.close()


@pytest.fixture
def cli_zygote() -> Zygote | None:
    """`worker_zygote()`."""
    return worker_zygote()


@pytest.fixture
def run_cli(home: Path, cli_zygote: Zygote | None) -> Callable[..., CliResult]:
    """Run `python -m i18nprune ARGS` in `cwd`, with an isolated home and no CI variable:
    forked from this worker's fork server, which has the CLI imported already, or in a fresh
    interpreter when a run's start-up could differ (`Zygote.serves`) or under
    `I18NPRUNE_TEST_FRESH=1`. Either way the same (code, stdout, stderr)."""

    def run(*args: str, cwd: Path, env: dict[str, str] | None = None) -> CliResult:
        environ = cli_environment(home, **(env or {}))
        if cli_zygote is not None and cli_zygote.serves(args, cwd, environ):
            return CliResult(*cli_zygote.run(args, cwd, environ, CLI_TIMEOUT))
        return CliResult(*run_fresh(args, cwd, environ, CLI_TIMEOUT))

    return run


@pytest.fixture
def example_project(tmp_path: Path) -> Path:
    """A private copy of the bundled example app."""
    target = tmp_path / "app"
    shutil.copytree(EXAMPLES, target, ignore=shutil.ignore_patterns(*QUICK_START_OUTPUT))
    return target


@pytest.fixture
def make_project(tmp_path: Path) -> Callable[[dict[str, Any]], Path]:
    def make(files: dict[str, Any]) -> Path:
        root = tmp_path / "project"
        root.mkdir(exist_ok=True)
        return write_tree(root, files)

    return make
