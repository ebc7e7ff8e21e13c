"""Diagnostics on stderr that never hold up the protocol: lines queue in a bounded buffer that a
thread writes out, repeats collapse while they wait, and what does not fit is counted and
reported once stderr takes lines again (docs/serve.md#standard-streams).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass

from i18nprune.system.descriptors import write_all

PENDING_LIMIT_BYTES = 1 << 16
"""The most diagnostic text that waits for stderr; a line that does not fit is dropped."""


@dataclass
class _Pending:
    text: str
    kind: str | None
    repeats: int = 0

    def render(self) -> bytes:
        more = f" (and {self.repeats} more like it)" if self.repeats else ""
        return f"{self.text.rstrip()}{more}\n".encode("utf-8", "replace")


class StderrLog:
    """Lines for a file descriptor (stderr) that `say` never blocks on.

    A daemon thread writes the lines in order, all those waiting in one write; while stderr is
    slow or never read they wait in memory, up to `limit` bytes. A line said while the last
    waiting line has the same `kind` is folded into it (`… (and 41 more like it)`); a line that
    does not fit is dropped and counted, and the count is written before the next line that
    gets through, and by `close`.
    """

    def __init__(self, fd: int = 2, limit: int = PENDING_LIMIT_BYTES) -> None:
        self._fd = fd
        self._limit = limit
        self._changed = threading.Condition()
        self._pending: deque[_Pending] = deque()
        self._pending_bytes = 0
        self._writing = False
        self._dropped = 0
        self._thread: threading.Thread | None = None
        self._broken = False

    def say(self, text: str, *, kind: str | None = None) -> None:
        """Queue one diagnostic line (or a block of lines, such as a traceback) without waiting.

        `kind` names lines that differ only in details (the id of an ignored cancel): while one
        of a kind waits, the next of that kind is counted into it instead of queued.
        """
        with self._changed:
            if self._broken:
                return
            last = self._pending[-1] if self._pending else None
            if kind is not None and last is not None and last.kind == kind:
                last.repeats += 1
                return
            entry = _Pending(text, kind)
            size = len(entry.render())
            if self._pending_bytes + size > self._limit:
                self._dropped += 1
                return
            self._pending.append(entry)
            self._pending_bytes += size
            self._changed.notify_all()
            self._start()

    def close(self, timeout: float) -> bool:
        """Report the lines dropped so far, then wait up to `timeout` seconds for the queue to
        reach stderr; whether it did. Later lines are still accepted."""
        with self._changed:
            if self._dropped and not self._broken:
                self._pending.append(_Pending(self._dropped_line(), None))
                self._dropped = 0
                self._changed.notify_all()
                self._start()
            deadline = time.monotonic() + timeout
            return self._changed.wait_for(
                lambda: self._broken or not (self._pending or self._writing),
                max(0.0, deadline - time.monotonic()),
            )

    def _start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="serve-stderr", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: bool(self._pending))
                blocks = [entry.render() for entry in self._pending]
                if self._dropped:
                    blocks.insert(0, (self._dropped_line() + "\n").encode())
                    self._dropped = 0
                self._pending.clear()
                self._pending_bytes = 0
                self._writing = True
            try:
                # Everything queued goes in one write; it blocks while the pipe is full, and
                # only this thread waits.
                write_all(self._fd, b"".join(blocks))
            except OSError:  # stderr is closed: nobody will read diagnostics
                with self._changed:
                    self._broken = True
                    self._pending.clear()
                    self._writing = False
                    self._changed.notify_all()
                return
            with self._changed:
                self._writing = False
                self._changed.notify_all()

    def _dropped_line(self) -> str:
        return (
            f"serve: {self._dropped} diagnostic line(s) dropped: stderr was not being read "
            "(read it continuously, or send it to a file or /dev/null)"
        )


stderr_log = StderrLog()
"""The server's stderr diagnostics."""
