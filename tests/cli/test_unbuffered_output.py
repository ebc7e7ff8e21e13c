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

from tests.conftest import cli_environment, write_tree
from tests.pipes import SMALL_PIPE, linux_only, stop_and_continue_while_blocked


@linux_only
def test_a_large_envelope_interrupted_mid_write_arrives_whole(tmp_path: Path, home: Path) -> None:
    calls = "".join(f"t(`page.section{index}.${{name}}`);\n" for index in range(400))
    root = write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": {"locales": {"source": "en"}},
            "locales/en.json": {"page": {"title": "Title"}},
            "src/page.ts": calls,
        },
    )
    read_end, write_end = os.pipe()
    fcntl.fcntl(read_end, fcntl.F_SETPIPE_SZ, SMALL_PIPE)
    child = subprocess.Popen(
        [sys.executable, "-m", "i18nprune", "locales", "dynamic", "--json"],
        cwd=root,
        env=cli_environment(home, PYTHONUNBUFFERED="1"),
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
    envelope = json.loads(printed)
    assert envelope["kind"] == "locales.dynamic"
    assert len(printed) > SMALL_PIPE
    assert len(json.dumps(envelope["data"])) > SMALL_PIPE


@linux_only
def test_a_long_report_interrupted_mid_write_arrives_whole(tmp_path: Path, home: Path) -> None:
    calls = "".join(f"t(`page.section{index}.${{name}}`);\n" for index in range(400))
    root = write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": {"locales": {"source": "en"}},
            "locales/en.json": {"page": {"title": "Title"}},
            "src/page.ts": calls,
        },
    )
    command = [sys.executable, "-m", "i18nprune", "locales", "dynamic", "--full"]
    environment = cli_environment(home, PYTHONUNBUFFERED="1", NO_COLOR="1")
    expected = subprocess.run(
        command, cwd=root, env=environment, capture_output=True, check=True, timeout=60
    ).stdout
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
            printed = output.read()
        child.wait(timeout=60)
    finally:
        child.kill()
        child.wait()
    assert len(expected) > SMALL_PIPE
    assert printed == expected
