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
from collections.abc import Callable, Collection, Iterator

from i18nprune.scan.discovery import SourceFile
from i18nprune.scan.examine import Examined
from i18nprune.scan.parse_worker import WorkerRequest, reply_decoder, request_encoder
from i18nprune.system.children import child_python
from i18nprune.system.frames import take_frames, write_frame

# Batches small enough to balance the load, large enough that per-batch overhead stays small.
_BATCHES_PER_WORKER = 8
_MAX_BATCH_BYTES = 1 << 20
_WORKER_EXIT_SECONDS = 5


def _batches(files: Collection[SourceFile], jobs: int) -> Iterator[list[str]]:
    total = sum(file.size for file in files)
    limit = max(1, min(_MAX_BATCH_BYTES, total // (jobs * _BATCHES_PER_WORKER)))
    batch: list[str] = []
    batch_bytes = 0
    for file in files:
        batch.append(file.relpath)
        batch_bytes += file.size
        if batch_bytes >= limit:
            yield batch
            batch, batch_bytes = [], 0
    if batch:
        yield batch


class _Worker:
    """One worker process and the batch it is working on."""

    def __init__(self, environment: dict[str, str], cwd: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "i18nprune.scan.parse_worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=environment,
            cwd=cwd,
        )
        self.batch: WorkerRequest | None = None
        self.received = bytearray()
        self.replies: deque[bytes] = deque()

    def give(self, queue: _Queue) -> bool:
        """Send the next batch of `queue`; `False` when there is none or the worker is gone."""
        assert self.process.stdin is not None
        self.batch = None
        if not queue.batches:
            return False
        batch = queue.take()
        try:
            write_frame(self.process.stdin, request_encoder.encode(batch))
        except OSError:  # the worker exited: its batch goes back to the queue
            queue.batches.appendleft(batch.files)
            return False
        self.batch = batch
        return True

    def take_reply(self) -> bytes | None:
        """The next complete reply frame received so far, if there is one."""
        self.replies.extend(take_frames(self.received))
        return self.replies.popleft() if self.replies else None

    def stop(self, *, kill: bool) -> None:
        """End the process: let it finish (stdin closed) or, with `kill`, end it now."""
        if kill:
            self.process.kill()
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        try:
            self.process.wait(timeout=_WORKER_EXIT_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
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
            worker.stop(kill=True)


class _Queue:
    """The batches no worker has taken yet."""

    def __init__(
        self, root: str, files: Collection[SourceFile], functions: tuple[str, ...], jobs: int
    ) -> None:
        self.root = root
        self.functions = functions
        self.batches = deque(_batches(files, jobs))

    def take(self) -> WorkerRequest:
        """The first batch (there must be one), removed."""
        return WorkerRequest(self.functions, self.root, self.batches.popleft())

    def take_last_file(self) -> WorkerRequest:
        """The last file of the last batch (there must be one), removed, as a batch of one."""
        batch = self.batches[-1]
        file = batch.pop()
        if not batch:
            self.batches.pop()
        return WorkerRequest(self.functions, self.root, [file])


def examine_in_processes(
    root: str,
    files: Collection[SourceFile],
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
    owner). Every worker used is stopped before this returns; when this raises or is
    interrupted, workers are killed rather than left to finish their batch.
    """
    queue = _Queue(root, files, functions, jobs)
    wanted = min(jobs - 1 if examine_here else jobs, len(queue.batches))
    workers: list[_Worker] = started.take(wanted) if started is not None else []
    interrupted = True
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
                # Between two files of its own, this process only looks for replies.
                timeout = 0 if examine_here and queue.batches else None
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
                if examine_here and queue.batches:
                    on_examined(queue.take_last_file().examine())
        while queue.batches:  # left over only when no worker could take it
            on_examined(queue.take().examine())
        interrupted = False
    finally:
        for worker in workers:
            worker.stop(kill=interrupted)
