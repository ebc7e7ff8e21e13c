"""`--json` output arrives whole when stdout is unbuffered and the write is interrupted.

Under `PYTHONUNBUFFERED=1` (the Docker image sets it) `sys.stdout.buffer` is a raw file: one
`write` is one system call. A reader slower than the output (a pipe that fills) and a stop and
continue (Ctrl+Z then `fg`, a debugger attaching) made the write return early, and the
envelope a script parses ended mid-document.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import cli_environment, write_tree
from tests.pipes import SMALL_PIPE, linux_only, stop_and_continue_while_blocked

pytestmark = pytest.mark.slow


def _app(tmp_path: Path) -> Path:
    """A project whose `locales dynamic` report is much longer than a 4 KB pipe."""
    calls = "".join(f"t(`page.section{index}.${{name}}`);\n" for index in range(400))
    return write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": {"locales": {"source": "en"}},
            "locales/en.json": {"page": {"title": "Title"}},
            "src/page.ts": calls,
        },
    )


def _printed_while_interrupted(
    command: list[str], root: Path, environment: dict[str, str]
) -> bytes:
    """What `command` prints into a 4 KB pipe when it is stopped and continued mid-write."""
    read_end, write_end = os.pipe()
    fcntl.fcntl(read_end, fcntl.F_SETPIPE_SZ, SMALL_PIPE)
    child = subprocess.Popen(
        command,
        cwd=root,
        env=environment,
        stdin=subprocess.DEVNULL,
        stdout=write_end,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_end)
    try:
        stop_and_continue_while_blocked(child.pid, read_end)
        with open(read_end, "rb") as output:
            printed = output.read()  # to the end: the child has exited and closed it
        child.wait(timeout=60)
    finally:
        child.kill()
        child.wait()
    return printed


@linux_only
def test_a_large_envelope_interrupted_mid_write_arrives_whole(tmp_path: Path, home: Path) -> None:
    printed = _printed_while_interrupted(
        [sys.executable, "-m", "i18nprune", "locales", "dynamic", "--json"],
        _app(tmp_path),
        cli_environment(home, PYTHONUNBUFFERED="1"),
    )
    envelope = json.loads(printed)
    assert envelope["kind"] == "locales.dynamic"
    assert len(printed) > SMALL_PIPE
    assert len(json.dumps(envelope["data"])) > SMALL_PIPE


@linux_only
def test_a_long_report_interrupted_mid_write_arrives_whole(tmp_path: Path, home: Path) -> None:
    root = _app(tmp_path)
    command = [sys.executable, "-m", "i18nprune", "locales", "dynamic", "--full"]
    environment = cli_environment(home, PYTHONUNBUFFERED="1", NO_COLOR="1")
    expected = subprocess.run(
        command, cwd=root, env=environment, capture_output=True, check=True, timeout=60
    ).stdout
    printed = _printed_while_interrupted(command, root, environment)
    assert len(expected) > SMALL_PIPE
    assert printed == expected
