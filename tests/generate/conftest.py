"""Helpers for the `generate` CLI tests: projects pointed at a loopback fake provider, the CLI
started as a background process, and the worker processes it spawns."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from i18nprune.pool.handle import WORKER_COMMAND
from i18nprune.testing import FakeProvider


def provider_config(fake: FakeProvider, provider_id: str = "libre", **row: Any) -> dict[str, Any]:
    """A config translating from en with `provider_id` served by `fake` (row fields added)."""
    return {
        "locales": {"source": "en"},
        "translate": {
            "primary": provider_id,
            "providers": [{"id": provider_id, "baseUrl": fake.base_url, **row}],
        },
    }


def code_using(*keys: str) -> str:
    """Source code calling `t` on every key; `name#count` is called with a count (plural)."""
    calls = []
    for key in keys:
        name, _, count = key.partition("#")
        calls.append(f"t('{name}', {{ count: n }});" if count else f"t('{name}');")
    return "\n".join(calls) + "\n"


def read_json(path: Path) -> Any:
    return json.loads(path.read_text())


def flatten(tree: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Dotted leaf paths of a locale tree; structured leaves (with `value`) stay whole."""
    leaves: dict[str, Any] = {}
    for key, value in tree.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and "value" not in value:
            leaves.update(flatten(value, path + "."))
        else:
            leaves[path] = value
    return leaves


def start_cli(
    *args: str, cwd: Path, home: Path, env: dict[str, str] | None = None
) -> subprocess.Popen[str]:
    """Start `python -m i18nprune ARGS` in its own session (like a terminal's foreground job),
    with an isolated home (and `env` added), as the `run_cli` fixture would run it."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("I18NPRUNE_")}
    environ.pop("CI", None)
    environ["I18NPRUNE_HOME"] = str(home)
    environ.update(env or {})
    return subprocess.Popen(
        [sys.executable, "-m", "i18nprune", *args],
        cwd=cwd,
        env=environ,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (state first), None if gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return text.rsplit(")", 1)[1].split()


def worker_pids(parent: int) -> list[int]:
    """The worker process children (`python -m i18nprune_workers`) of process `parent`."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        fields = _stat(int(entry.name))
        if fields is None or fields[1] != str(parent):
            continue
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except (FileNotFoundError, ProcessLookupError):
            continue
        if command[1 : len(WORKER_COMMAND)] == [os.fsencode(part) for part in WORKER_COMMAND[1:]]:
            pids.append(int(entry.name))
    return pids


def wait_for_workers(parent: int, count: int, timeout: float = 60.0) -> list[int]:
    """Wait until `parent` has `count` worker children; their pids (fewer on timeout)."""
    deadline = time.monotonic() + timeout
    pids = worker_pids(parent)
    while len(pids) < count and time.monotonic() < deadline:
        time.sleep(0.02)
        pids = worker_pids(parent)
    return pids


def gone(pid: int, timeout: float = 5.0) -> bool:
    """Whether process `pid` has exited (or is a zombie) within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        fields = _stat(pid)
        if fields is None or fields[0] == "Z":
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    """Poll `condition()` until it is true; False after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)
    return True
