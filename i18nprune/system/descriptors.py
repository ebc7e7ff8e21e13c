"""Raw file-descriptor I/O: writing every byte of a buffer, and taking the standard streams away
from stray output so that a protocol owns them."""

from __future__ import annotations

import os
import select
import sys
from typing import IO


def write_all(fd: int, data: bytes) -> None:
    """Write all of `data` to `fd`, however many `write` calls it takes (a pipe or a full disk
    may take less at a time). Raises `OSError` from the first write that fails."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def write_stream_all(stream: IO[bytes], data: bytes) -> None:
    """Write all of `data` to binary `stream` and flush it, however many `write` calls it takes.

    The stream may be unbuffered: under `PYTHONUNBUFFERED=1` or `python -u` (the Docker image
    sets it) `sys.stdout.buffer` is a raw file, whose `write` is one system call; a pipe write
    that a signal interrupts after sending part of the data (a stop and continue — Ctrl+Z then
    `fg` —, a profiler attaching) returns early, and a non-blocking pipe that is full takes
    nothing (`None`: this waits until it can take more).
    """
    view = memoryview(data)
    while view:
        written = stream.write(view)
        if written is None:
            select.select([], [stream.fileno()], [])
            continue
        view = view[written:]
    stream.flush()


def claim_stdout() -> int:
    """Keep a private duplicate of fd 1 for a protocol's output and point fd 1 at stderr.

    From then on a stray `print`, a library warning or a child process that inherits fd 1
    writes to stderr; only what goes through the returned fd reaches the real stdout. The
    duplicate is not inherited by child processes.
    """
    sys.stdout.flush()
    private = os.dup(1)
    os.dup2(2, 1)
    return private


def claim_stdin() -> int:
    """Keep a private duplicate of fd 0 for a protocol's input and point fd 0 at the null
    device, so a stray `input()` cannot steal it. Not inherited by child processes."""
    private = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    return private
