"""The stdio byte streams of `serve`: fd-level protection of stdout, a line reader and a
whole-line writer that keep the event loop free, and diagnostics on stderr
(docs/serve.md#2-framing, docs/serve.md#standard-streams).
"""

from __future__ import annotations

import contextlib
import os
import select
import stat
from collections import deque

import trio

from i18nprune.serve.diagnostics import stderr_log
from i18nprune.system.descriptors import write_all

MAX_LINE_BYTES = 16 * 1024 * 1024
"""The longest line read (bytes before its newline); a longer one is skipped and reported."""
_READ_CHUNK_BYTES = 1 << 20
_COMPACT_AFTER_BYTES = 1 << 16
_DIRECT_WRITE_BYTES: int = getattr(select, "PIPE_BUF", 512)
"""A line block this small is written on the event loop when the pipe has room: such a write
into a pipe that is not full never blocks, and it spares the hops to a thread and back."""


def pollable(fd: int) -> bool:
    """Whether the event loop can wait on `fd` (a POSIX pipe or socket): once it is readable a
    read returns at once, and once a pipe is writable a write of up to PIPE_BUF bytes fits.
    Terminals and regular files are not (their reads and writes go to a thread)."""
    if os.name != "posix":
        return False
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def writable_now(fd: int) -> bool:
    """Whether `fd` accepts a write without waiting (a pipe with room; a closed reader counts,
    the write then fails at once)."""
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    return bool(poller.poll(0))


def notice(text: str, *, kind: str | None = None) -> None:
    """Queue one diagnostic line for stderr without waiting for it (see StderrLog: a stderr
    that nobody reads never blocks the server); `kind` lets repeats of a line collapse."""
    stderr_log.say(text, kind=kind)


class ByteSource:
    """Reads what a file descriptor has, without blocking the event loop.

    From a pipe or a socket, the event loop waits until it is readable and reads what is there
    (no thread: under load every hop to a thread and back waits for the GIL). Other inputs (a
    terminal, a file) are read in a worker thread, one read at a time under the source's own
    limiter rather than trio's shared one, so busy ops never delay the reader. The fd is never
    switched to non-blocking mode.
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._limiter = trio.CapacityLimiter(1)
        self._pollable = pollable(fd)

    async def read(self) -> bytes:
        """The next bytes (up to 1 MiB); empty at end of input. Cancellation abandons a
        pending read: the bytes it returns later are lost."""
        while self._pollable:
            await trio.lowlevel.wait_readable(self._fd)
            try:
                return os.read(self._fd, _READ_CHUNK_BYTES)  # readable: returns without waiting
            except BlockingIOError:  # another reader of a non-blocking pipe was first
                continue
        return await trio.to_thread.run_sync(
            os.read, self._fd, _READ_CHUNK_BYTES, abandon_on_cancel=True, limiter=self._limiter
        )


class LineTooLong:
    """A line longer than MAX_LINE_BYTES, already drained up to its newline."""

    def __init__(self, size: int) -> None:
        self.size = size


class LineReader:
    """Reads newline-terminated lines from a file descriptor without blocking the event loop
    (see `ByteSource`), so a terminal or a pipe shared with other processes is left as it was.
    """

    def __init__(self, fd: int, limit: int = MAX_LINE_BYTES) -> None:
        """Read from `fd`; lines longer than `limit` bytes are skipped."""
        self._fd = fd
        self.limit = limit
        self._buffer = bytearray()
        self._start = 0
        self._scanned = 0
        self._eof = False
        self._source = ByteSource(fd)

    async def receive_line(self) -> bytes | LineTooLong | None:
        """The next line without its `\\n` (a final line without one counts), a LineTooLong for
        an oversized line, or None at end of input.

        Cancellation abandons a pending read: the bytes it returns later are lost, which only
        matters to a reader that is being discarded anyway.
        """
        drained = 0
        while True:
            end = self._buffer.find(b"\n", self._scanned)
            if end >= 0:
                line = bytes(self._buffer[self._start : end])
                self._consume(end + 1)
                if drained or len(line) > self.limit:
                    return LineTooLong(drained + len(line))
                return line
            self._scanned = len(self._buffer)
            if len(self._buffer) - self._start > self.limit:
                drained += len(self._buffer) - self._start
                self._consume(len(self._buffer))
            if self._eof:
                return self._final_line(drained)
            chunk = await self._read()
            if chunk:
                self._buffer += chunk
            else:
                self._eof = True

    async def _read(self) -> bytes:
        return await self._source.read()

    def _final_line(self, drained: int) -> bytes | LineTooLong | None:
        rest = bytes(self._buffer[self._start :])
        self._consume(len(self._buffer))
        if drained:
            return LineTooLong(drained + len(rest))
        return rest or None

    def _consume(self, end: int) -> None:
        self._start = end
        self._scanned = end
        if self._start >= _COMPACT_AFTER_BYTES or self._start == len(self._buffer):
            del self._buffer[: self._start]
            self._scanned -= self._start
            self._start = 0


class LineWriter:
    """Writes whole lines to a file descriptor in the order they were sent; lines queued
    together are written as one block.

    `send` never blocks: lines queue in memory and one task writes them, so a client that reads
    slowly cannot stall the event loop, and two messages never interleave. A small block goes
    straight into a pipe or socket that has room; the rest is written from a thread.
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._queue: deque[bytes] = deque()
        self._wakeup = trio.Event()
        self._closed = False
        self._limiter = trio.CapacityLimiter(1)
        self._pollable = pollable(fd)
        self.broken = trio.Event()
        """Set when the reader of the stream has gone away (EPIPE): nothing more is written."""
        self.finished = trio.Event()
        """Set when `run` has returned: closed and drained, or broken."""

    def send(self, line: bytes) -> None:
        """Queue one complete line (it must end with `\\n`); ignored once closed or broken."""
        if self._closed or self.broken.is_set():
            return
        self._queue.append(line)
        self._wakeup.set()

    def close(self) -> None:
        """Accept no more lines; `run` returns once the queued ones are written."""
        self._closed = True
        self._wakeup.set()

    async def run(self) -> None:
        """Write queued lines until closed and drained, or until the stream breaks.

        Cancellation abandons a write in progress (the process is ending).
        """
        try:
            while True:
                if not self._queue:
                    if self._closed:
                        return
                    await self._wakeup.wait()
                    self._wakeup = trio.Event()
                    continue
                data = b"".join(self._queue)
                self._queue.clear()
                try:
                    await self._write(data)
                except OSError:  # EPIPE and friends: the client is gone
                    self._queue.clear()
                    self.broken.set()
                    return
        finally:
            self.finished.set()

    async def _write(self, data: bytes) -> None:
        if self._pollable and len(data) <= _DIRECT_WRITE_BYTES and writable_now(self._fd):
            with contextlib.suppress(BlockingIOError):  # a pipe the client made non-blocking
                data = data[os.write(self._fd, data) :]  # a socket may take less
            await trio.lowlevel.checkpoint()
        if data:
            await trio.to_thread.run_sync(
                write_all, self._fd, data, abandon_on_cancel=True, limiter=self._limiter
            )
