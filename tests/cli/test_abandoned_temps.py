"""Temp files a killed write left beside a locale file (`.de.json.<hex>.tmp`) are removed by the
next write of that file: only names the atomic writer makes, only when no live writer holds
them, and only once nothing wrote to them for a minute. The real CLI, killed for real by a
start-up hook just before it renames its temp file into place."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from i18nprune.system.atomic import ABANDONED_AFTER
from tests.conftest import CliResult, write_tree

RunCli = Callable[..., CliResult]

KEYS = {f"k{n}": f"Text {n}" for n in range(6)}

# Loaded at start-up by a CLI run whose PYTHONPATH holds it: the process kills itself when it
# is about to rename a temp file over a locale file (its bytes are written and flushed).
KILL_HOOK = """
import os, signal, sys

def _hook(event, args):
    if event == "os.rename" and str(args[1]).endswith(".json") and "locales" in str(args[1]):
        os.kill(os.getpid(), signal.SIGKILL)

sys.addaudithook(_hook)
"""


def app(root: Path) -> Path:
    return write_tree(
        root,
        {
            "i18nprune.config.json": {"locales": {"source": "en"}},
            "src/app.ts": "".join(f"t('{key}');\n" for key in KEYS),
            "locales/en.json": KEYS,
            "locales/de.json": {"k0": "Text 0 (de)"},
        },
    )


def temps(root: Path) -> list[Path]:
    return sorted((root / "locales").glob(".*.tmp"))


def age(path: Path, seconds: float) -> None:
    """Make `path` look last written `seconds` ago."""
    then = time.time() - seconds
    os.utime(path, (then, then))


def sync_de(run_cli: RunCli, root: Path, **env: str) -> CliResult:
    return run_cli("sync", "--target", "de", "--json", cwd=root, env=env or None)


def killed_mid_write(tmp_path: Path, run_cli: RunCli) -> tuple[Path, Path]:
    """A project whose `sync` of de was killed with its temp file written, not yet renamed."""
    hook = tmp_path / "kill-hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(KILL_HOOK)
    root = app(tmp_path / "app")
    killed = sync_de(run_cli, root, PYTHONPATH=str(hook))
    assert killed.code == -signal.SIGKILL, killed.stdout + killed.stderr
    [left] = temps(root)
    assert left.name.startswith(".de.json.")
    return root, left


@pytest.mark.slow
def test_the_next_write_removes_a_temp_file_a_kill_left(tmp_path: Path, run_cli: RunCli) -> None:
    root, left = killed_mid_write(tmp_path, run_cli)
    age(left, ABANDONED_AFTER + 60)
    (root / "locales/en.json").write_text(json.dumps({**KEYS, "k6": "Text 6"}))
    done = sync_de(run_cli, root)
    assert done.code == 0, done.stdout + done.stderr
    assert done.envelope["data"]["writtenFiles"] == ["locales/de.json"]
    assert temps(root) == []


@pytest.mark.slow
def test_a_temp_file_written_to_within_the_minute_stays(tmp_path: Path, run_cli: RunCli) -> None:
    root, left = killed_mid_write(tmp_path, run_cli)
    done = sync_de(run_cli, root)
    assert done.code == 0, done.stdout + done.stderr
    assert temps(root) == [left]


@contextmanager
def held_by_another_process(path: Path) -> Iterator[None]:
    """A live process holding `path` as a writer does (an exclusive flock) until the end."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, os, sys; d = os.open(sys.argv[1], os.O_RDONLY); "
            "fcntl.flock(d, fcntl.LOCK_EX); print('held', flush=True); sys.stdin.read()",
            str(path),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        yield
    finally:
        holder.communicate("")


def test_a_temp_file_a_live_writer_holds_stays(tmp_path: Path, run_cli: RunCli) -> None:
    root = app(tmp_path / "app")
    (root / "locales/en.json").write_text(json.dumps({**KEYS, "k6": "Text 6"}))
    busy = root / "locales" / f".de.json.{'a1' * 8}.tmp"
    busy.write_text("{")
    age(busy, ABANDONED_AFTER + 60)
    with held_by_another_process(busy):
        done = sync_de(run_cli, root)
    assert done.code == 0, done.stdout + done.stderr
    assert done.envelope["data"]["writtenFiles"] == ["locales/de.json"]
    assert temps(root) == [busy]


def test_only_the_written_files_own_temp_names_are_removed(tmp_path: Path, run_cli: RunCli) -> None:
    root = app(tmp_path / "app")
    (root / "locales/en.json").write_text(json.dumps({**KEYS, "k6": "Text 6"}))
    ours = root / "locales" / f".de.json.{'0f' * 8}.tmp"
    others = [
        root / "locales" / f".fr.json.{'0f' * 8}.tmp",  # another file's
        root / "locales" / ".de.json.backup.tmp",  # not a name the writer makes
        root / "locales" / f".de.json.{'0F' * 8}.tmp",
    ]
    for path in [ours, *others]:
        path.write_text("{")
        age(path, ABANDONED_AFTER + 60)
    done = sync_de(run_cli, root)
    assert done.code == 0, done.stdout + done.stderr
    assert temps(root) == sorted(others)
