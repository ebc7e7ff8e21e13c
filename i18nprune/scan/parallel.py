"""Examining many files at once in worker processes (tree-sitter parsing is CPU-bound).

Workers are plain `python -m i18nprune.scan.parse_worker` subprocesses fed over pipes, not a
`multiprocessing` pool: nothing is forked from a process that may run other threads, and the
caller's `__main__` is never re-imported. Workers read the files themselves, so only paths go
out and compact msgpack facts come back; a batch whose worker dies is examined in-process.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import subprocess
import sys
from collections import deque
from collections.abc import Callable, Iterator
from typing import IO

import msgspec

import i18nprune
from i18nprune.scan.examine import Examined, examine_path

# Batches small enough to balance the load, large enough that per-batch overhead stays small.
_BATCHES_PER_WORKER = 8
_MAX_BATCH_BYTES = 1 << 20
_LENGTH_BYTES = 4
_WORKER_EXIT_SECONDS = 5


class WorkerRequest(msgspec.Struct, frozen=True, array_like=True):
    """One batch for a worker: the configured functions and (relpath, path) pairs."""

    functions: tuple[str, ...]
    files: list[tuple[str, str]]


request_encoder = msgspec.msgpack.Encoder()
request_decoder = msgspec.msgpack.Decoder(WorkerRequest)
_reply_decoder = msgspec.msgpack.Decoder(list[Examined])


def write_frame(stream: IO[bytes], body: bytes) -> None:
    """Write one length-prefixed frame and flush it."""
    stream.write(len(body).to_bytes(_LENGTH_BYTES, "big") + body)
    stream.flush()


def read_frame(stream: IO[bytes]) -> bytes | None:
    """Read one length-prefixed frame; `None` at end of stream."""
    header = stream.read(_LENGTH_BYTES)
    if len(header) < _LENGTH_BYTES:
        return None
    return stream.read(int.from_bytes(header, "big"))


def _batches(files: list[tuple[str, str, int]], jobs: int) -> Iterator[list[tuple[str, str]]]:
    total = sum(size for _, _, size in files)
    limit = max(1, min(_MAX_BATCH_BYTES, total // (jobs * _BATCHES_PER_WORKER)))
    batch: list[tuple[str, str]] = []
    batch_bytes = 0
    for relpath, path, size in files:
        batch.append((relpath, path))
        batch_bytes += size
        if batch_bytes >= limit:
            yield batch
            batch, batch_bytes = [], 0
    if batch:
        yield batch


class _Worker:
    """One worker process and the batch it is working on."""

    def __init__(self, environment: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "i18nprune.scan.parse_worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=environment,
        )
        self.batch: list[tuple[str, str]] | None = None
        self.received = bytearray()

    def send(self, functions: tuple[str, ...], batch: list[tuple[str, str]]) -> None:
        assert self.process.stdin is not None
        self.batch = batch
        write_frame(self.process.stdin, request_encoder.encode(WorkerRequest(functions, batch)))

    def take_reply(self) -> bytes | None:
        """The complete reply frame received so far, if there is one."""
        if len(self.received) < _LENGTH_BYTES:
            return None
        length = int.from_bytes(self.received[:_LENGTH_BYTES], "big")
        if len(self.received) < _LENGTH_BYTES + length:
            return None
        reply = bytes(self.received[_LENGTH_BYTES : _LENGTH_BYTES + length])
        del self.received[: _LENGTH_BYTES + length]
        return reply

    def stop(self) -> None:
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


def _worker_environment() -> dict[str, str]:
    """This environment, with the directory holding the `i18nprune` package importable."""
    environment = dict(os.environ)
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(i18nprune.__file__)))
    existing = environment.get("PYTHONPATH")
    environment["PYTHONPATH"] = (
        package_parent if not existing else package_parent + os.pathsep + existing
    )
    return environment


def examine_in_processes(
    files: list[tuple[str, str, int]],
    functions: tuple[str, ...],
    jobs: int,
    on_examined: Callable[[list[Examined]], None],
) -> None:
    """Examine `files` (relpath, path, size) in `jobs` worker processes.

    `on_examined` is called in this thread with each completed batch, in completion order.
    Every worker is stopped before this returns, also when it raises or is interrupted.
    """
    queue = deque(_batches(files, jobs))
    environment = _worker_environment()
    workers = [_Worker(environment) for _ in range(min(jobs, len(queue)))]
    try:
        with selectors.DefaultSelector() as selector:
            for worker in workers:
                assert worker.process.stdout is not None
                selector.register(worker.process.stdout, selectors.EVENT_READ, worker)
                worker.send(functions, queue.popleft())
            busy = len(workers)
            while busy:
                for key, _ in selector.select():
                    worker = key.data
                    chunk = os.read(key.fd, 1 << 20)
                    if not chunk:  # the worker died: do its batch here, give it no more
                        selector.unregister(key.fileobj)
                        busy -= 1
                        lost = worker.batch or []
                        on_examined(
                            [examine_path(rel, path, functions, force=False) for rel, path in lost]
                        )
                        continue
                    worker.received.extend(chunk)
                    reply = worker.take_reply()
                    if reply is None:
                        continue
                    worker.batch = None
                    on_examined(_reply_decoder.decode(reply))
                    if queue:
                        worker.send(functions, queue.popleft())
                    else:
                        selector.unregister(key.fileobj)
                        busy -= 1
        for batch in queue:  # left over only if every worker died
            on_examined([examine_path(rel, path, functions, force=False) for rel, path in batch])
    finally:
        for worker in workers:
            worker.stop()
