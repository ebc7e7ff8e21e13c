"""The stdio byte streams of `serve`: fd-level protection of stdout, a line reader and a
whole-line writer that keep the event loop free, and diagnostics on stderr (PROTOCOL §2).
"""

from __future__ import annotations

import os
import sys
from collections import deque

import trio

from i18nprune.system.descriptors import write_all

MAX_LINE_BYTES = 16 * 1024 * 1024
"""The longest line read (bytes before its newline); a longer one is skipped and reported."""
_READ_CHUNK_BYTES = 1 << 20
_COMPACT_AFTER_BYTES = 1 << 16


def notice(text: str) -> None:
    """Write one diagnostic line to stderr; a closed stderr is ignored."""
    try:
        sys.stderr.write(text.rstrip("\n") + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


class LineTooLong:
    """A line longer than MAX_LINE_BYTES, already drained up to its newline."""

    def __init__(self, size: int) -> None:
        self.size = size


class LineReader:
    """Reads newline-terminated lines from a file descriptor without blocking the event loop.

    Reads run in a worker thread, one at a time under the reader's own limiter rather than
    trio's shared one, so busy ops never delay the reader. The fd is never switched to
    non-blocking mode, so a terminal or a pipe shared with other processes is left as it was.
    """

    def __init__(self, fd: int, limit: int = MAX_LINE_BYTES) -> None:
        """Read from `fd`; lines longer than `limit` bytes are skipped."""
        self._fd = fd
        self.limit = limit
        self._buffer = bytearray()
        self._start = 0
        self._scanned = 0
        self._eof = False
        self._limiter = trio.CapacityLimiter(1)

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
            chunk = await trio.to_thread.run_sync(
                os.read, self._fd, _READ_CHUNK_BYTES, abandon_on_cancel=True, limiter=self._limiter
            )
            if chunk:
                self._buffer += chunk
            else:
                self._eof = True

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

    `send` never blocks: lines queue in memory and one task writes them from a thread, so a
    client that reads slowly cannot stall the event loop, and two messages never interleave.
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._queue: deque[bytes] = deque()
        self._wakeup = trio.Event()
        self._closed = False
        self._limiter = trio.CapacityLimiter(1)
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
                    await trio.to_thread.run_sync(
                        write_all, self._fd, data, abandon_on_cancel=True, limiter=self._limiter
                    )
                except OSError:  # EPIPE and friends: the client is gone
                    self._queue.clear()
                    self.broken.set()
                    return
        finally:
            self.finished.set()
