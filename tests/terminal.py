"""Running the CLI on a real pseudo-terminal, for tests of what it asks a person."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import cli_environment


def run_on_tty(args: list[str], cwd: Path, home: Path, answers: list[str]) -> tuple[int, str]:
    """Run the CLI with a terminal as stdin/stdout/stderr, answering each prompt (a line
    ending in `]:`, such as `[y/N]:` or `Source locale [en]:`) in turn; returns the exit code
    and everything the terminal showed."""
    leader, follower = pty.openpty()
    env = cli_environment(home, TERM="dumb", COLUMNS="200")
    process = subprocess.Popen(
        [sys.executable, "-m", "i18nprune", *args],
        cwd=cwd,
        env=env,
        stdin=follower,
        stdout=follower,
        stderr=follower,
    )
    os.close(follower)
    seen, pending, deadline = b"", list(answers), time.monotonic() + 60
    answered = 0
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
            if pending and seen.rstrip().endswith(b"]:") and seen.count(b"]:") > answered:
                os.write(leader, pending.pop(0).encode() + b"\n")
                answered += 1
        elif process.poll() is not None:
            break
    code = process.wait(timeout=10)
    os.close(leader)
    return code, seen.decode(errors="replace")
