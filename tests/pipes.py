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
    """Once the pipe the process writes into is full (its write blocked with part of the data
    sent), stop it and let it continue: the write returns having sent only that part."""
    wait_until("the pipe to fill", lambda: buffered_bytes(read_end) >= SMALL_PIPE)
    os.kill(pid, signal.SIGSTOP)
    wait_until("the process to stop", lambda: _state(pid) == "T")
    os.kill(pid, signal.SIGCONT)


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
