"""Raw file-descriptor I/O: writing every byte of a buffer, and taking the standard streams away
from stray output so that a protocol owns them."""

from __future__ import annotations

import io
import os
import select
import sys
from typing import IO, TextIO, cast


def write_all(fd: int, data: bytes | bytearray | memoryview) -> None:
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


class _WholeWrites(io.RawIOBase):
    """A raw binary stream whose `write` sends every byte to the raw stream under it."""

    def __init__(self, raw: IO[bytes]) -> None:
        super().__init__()
        self._raw = raw

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._raw.fileno()

    def isatty(self) -> bool:
        return self._raw.isatty()

    def write(self, data: bytes | bytearray | memoryview) -> int:  # type: ignore[override]
        write_stream_all(self._raw, bytes(data))
        return len(data)


def whole_writes(stream: TextIO) -> TextIO:
    """`stream` itself, or, when it writes straight to a raw file (`PYTHONUNBUFFERED=1`,
    `python -u`), an equal text stream whose writes are whole.

    Python's text layer ignores how much a raw `write` took, so text printed under `-u` lost
    the tail of a write that a stop and continue interrupted (see `write_stream_all`). The
    returned stream still writes through at once, as `-u` asks.
    """
    raw = getattr(stream, "buffer", None)
    if not isinstance(stream, io.TextIOWrapper) or not isinstance(raw, io.FileIO):
        return stream
    return io.TextIOWrapper(
        cast("IO[bytes]", _WholeWrites(raw)),
        encoding=stream.encoding,
        errors=stream.errors,
        line_buffering=stream.line_buffering,
        write_through=True,
    )


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
