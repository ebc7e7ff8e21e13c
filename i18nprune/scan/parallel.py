"""Examining many files at once in `python -m i18nprune.scan.parse_worker` subprocesses fed
over pipes (no fork of a threaded process, no re-import of the caller's `__main__`).
"""

from __future__ import annotations

import contextlib
import os
import selectors
import subprocess
import sys
from collections import deque
from collections.abc import Callable, Sequence

from i18nprune.scan.discovery import SourceFile
from i18nprune.scan.examine import Examined
from i18nprune.scan.parse_worker import WorkerRequest, reply_decoder, request_encoder
from i18nprune.system.children import child_python
from i18nprune.system.frames import take_frames, write_frame
from i18nprune.system.interrupts import raise_if_interrupted

# A batch is a share of what is left to examine (guided scheduling): large while much is left,
# so that the cost of each batch stays small, and smaller towards the end, so that no process is
# left working through a long batch while the others wait for it.
_SHARES_PER_JOB = 4
_MIN_BATCH_BYTES = 64 << 10
_MAX_BATCH_BYTES = 1 << 20
# How long the front waits for replies at most before it looks whether it was interrupted.
_INTERRUPT_POLL_SECONDS = 0.1


class _Worker:
    """One worker process and the batch it is working on."""

    def __init__(self, environment: dict[str, str], cwd: str) -> None:
        # A process group of its own: a terminal's Ctrl+C reaches the front's group, and the
        # front decides what ends (it stops its workers at once); a worker that got the SIGINT
        # too, even while it still imports, would die of it with a traceback, and the front
        # would then parse its batch itself.
        self.process = subprocess.Popen(
            [sys.executable, "-m", "i18nprune.scan.parse_worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=environment,
            cwd=cwd,
            process_group=0,
        )
        self.batch: WorkerRequest | None = None
        self.received = bytearray()
        self.replies: deque[bytes] = deque()

    def give(self, queue: _Queue) -> bool:
        """Send the next batch of `queue`; `False` when there is none or the worker is gone."""
        assert self.process.stdin is not None
        self.batch = None
        if not queue:
            return False
        batch = queue.take()
        try:
            write_frame(self.process.stdin, request_encoder.encode(batch))
        except OSError:  # the worker exited: its batch goes back to the queue
            queue.put_back(batch)
            return False
        self.batch = batch
        return True

    def take_reply(self) -> bytes | None:
        """The next complete reply frame received so far, if there is one."""
        self.replies.extend(take_frames(self.received))
        return self.replies.popleft() if self.replies else None

    def stop(self) -> None:
        """End the process now. It is stopped when it has no batch, or when the examination is
        interrupted: either way nothing it would still do is wanted (and killing it spares the
        teardown of its interpreter, ~20 ms of CPU and of waiting at the end of every scan)."""
        self.process.kill()
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


class ParseWorkers:
    """Worker processes started before the files they will examine are known: their
    interpreters start while the scan discovers files. Hand them to `examine_in_processes`,
    and `stop` them in any case (those it did not take are ended; stopping twice is fine)."""

    def __init__(self, count: int) -> None:
        self._idle: list[_Worker] = []
        if count < 1:
            return
        environment, cwd = child_python()
        for _ in range(count):
            try:
                self._idle.append(_Worker(environment, cwd))
            except OSError:
                break

    def __len__(self) -> int:
        return len(self._idle)

    def take(self, count: int) -> list[_Worker]:
        """Up to `count` of the started workers, no longer this object's to stop."""
        taken, self._idle = self._idle[:count], self._idle[count:]
        return taken

    def stop(self) -> None:
        """End the workers nobody took (they have been given no work)."""
        idle, self._idle = self._idle, []
        for worker in idle:
            worker.stop()


class _Queue:
    """The files no worker has taken yet, `files[start:end]`: taken in batches from the front
    and, by a caller that examines files too, one at a time from the end."""

    def __init__(
        self, root: str, files: Sequence[SourceFile], functions: tuple[str, ...], jobs: int
    ) -> None:
        self.root = root
        self.functions = functions
        self.files = files
        self.start, self.end = 0, len(files)
        self.bytes_left = sum(file.size for file in files)
        self.jobs = jobs

    def __bool__(self) -> bool:
        return self.start < self.end

    def take(self) -> WorkerRequest:
        """The next batch from the front (there must be one): files from the front until they
        make a share of what is left (see `_SHARES_PER_JOB`)."""
        share = self.bytes_left // (self.jobs * _SHARES_PER_JOB)
        limit = min(_MAX_BATCH_BYTES, max(_MIN_BATCH_BYTES, share))
        batch: list[str] = []
        taken = 0
        while self.start < self.end and taken < limit:
            file = self.files[self.start]
            self.start += 1
            batch.append(file.relpath)
            taken += file.size
        self.bytes_left -= taken
        return WorkerRequest(self.functions, self.root, batch)

    def put_back(self, batch: WorkerRequest) -> None:
        """Return the batch `take` gave last, which no worker could take."""
        self.start -= len(batch.files)
        self.bytes_left += sum(
            self.files[index].size for index in range(self.start, self.start + len(batch.files))
        )

    def take_last_file(self) -> WorkerRequest:
        """The last file (there must be one), as a batch of one."""
        self.end -= 1
        file = self.files[self.end]
        self.bytes_left -= file.size
        return WorkerRequest(self.functions, self.root, [file.relpath])


def examine_in_processes(
    root: str,
    files: Sequence[SourceFile],
    functions: tuple[str, ...],
    jobs: int,
    on_examined: Callable[[list[Examined]], None],
    *,
    examine_here: bool = False,
    started: ParseWorkers | None = None,
) -> None:
    """Examine `files` (their paths are relative to `root`) in `jobs` worker processes.

    With `examine_here`, this process is one of the `jobs`: it starts one worker fewer and
    examines files itself, one at a time from the end of the queue while the workers take
    batches from its front, answering the workers between two files (one interpreter fewer to
    start and to hold in memory; the caller's thread holds the GIL while it parses, so a host
    whose event loop must answer quickly leaves this off).

    `on_examined` is called in this thread with each completed batch, in completion order.
    Work that no worker can do (processes that cannot start or that die) is done in this
    process. Workers `started` earlier are used first (the ones not needed are left to their
    owner). Every worker used is stopped before this returns, also when this raises or is
    interrupted (a worker busy with a batch is not left to finish it). On a thread of trio's,
    an interrupt or cancellation of its task ends the examination within a tenth of a second
    or one file (see `raise_if_interrupted`).
    """
    queue = _Queue(root, files, functions, jobs)
    wanted = min(jobs - 1 if examine_here else jobs, len(files))
    workers: list[_Worker] = started.take(wanted) if started is not None else []
    try:
        if len(workers) < wanted:
            environment, cwd = child_python()
            for _ in range(wanted - len(workers)):
                try:
                    workers.append(_Worker(environment, cwd))
                except OSError:
                    break
        with selectors.DefaultSelector() as selector:
            busy = 0
            for worker in workers:
                assert worker.process.stdout is not None
                selector.register(worker.process.stdout, selectors.EVENT_READ, worker)
                if worker.give(queue):
                    busy += 1
                else:
                    selector.unregister(worker.process.stdout)
            while busy:
                raise_if_interrupted()
                # Between two files of its own, this process only looks for replies.
                timeout = 0 if examine_here and queue else _INTERRUPT_POLL_SECONDS
                for key, _ in selector.select(timeout):
                    worker = key.data
                    chunk = os.read(key.fd, 1 << 20)
                    if not chunk:  # the worker died: do its batch here
                        if worker.batch is not None:
                            on_examined(worker.batch.examine())
                    else:
                        worker.received.extend(chunk)
                        reply = worker.take_reply()
                        if reply is None:
                            continue
                        on_examined(reply_decoder.decode(reply))
                        if worker.give(queue):
                            continue
                    selector.unregister(key.fileobj)
                    busy -= 1
                if examine_here and queue:
                    on_examined(queue.take_last_file().examine())
        while queue:  # left over only when no worker could take it
            raise_if_interrupted()
            on_examined(queue.take().examine())
    finally:
        for worker in workers:
            worker.stop()
