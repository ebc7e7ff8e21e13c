"""Watching a child process that writes into a pipe, for tests that interrupt it mid-write
(Linux: pipe sizes, `FIONREAD` and `/proc`)."""

from __future__ import annotations

import array
import fcntl
import os
import signal
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path

import pytest

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="pipe sizes, /proc and stop signals of Linux"
)
SMALL_PIPE = 4096
WAIT_SECONDS = 30.0
"""How long a condition may take before the test gives up (it only ever waits that long when
the code under test hangs)."""


def buffered_bytes(fd: int) -> int:
    """How many bytes wait in the pipe `fd` is an end of."""
    count = array.array("i", [0])
    fcntl.ioctl(fd, termios.FIONREAD, count)
    return count[0]


def wait_until(condition: str, check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting: {condition}")
        time.sleep(0.01)


def stop_and_continue_while_blocked(pid: int, read_end: int) -> None:
    """Once the process is blocked writing into the pipe (`read_end` holds what it sent, and
    the rest waits for room), stop it and let it continue: the write returns having sent only
    that part."""
    wait_until(
        "the write to block",
        lambda: buffered_bytes(read_end) > 0 and "pipe_write" in _wait_channel(pid),
    )
    os.kill(pid, signal.SIGSTOP)
    wait_until("the process to stop", lambda: _state(pid) == "T")
    os.kill(pid, signal.SIGCONT)


def _wait_channel(pid: int) -> str:
    """The kernel function process `pid` sleeps in (`anon_pipe_write`: a blocked pipe write)."""
    return Path(f"/proc/{pid}/wchan").read_text()


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
