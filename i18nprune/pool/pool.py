"""The worker pool: N long-lived worker processes kept alive (respawned when they die), requests
dispatched to the least-loaded one through the provider gates, and cancellation relayed to them.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager

import msgspec
import trio

import i18nprune
from i18nprune.pool.handle import InFlight, WorkerHandle
from i18nprune.pool.job import (
    JobOutcome,
    ProgressCallback,
    TranslatedCallback,
    TranslateJob,
    run_job,
)
from i18nprune.pool.messages import Batch, Failure, Result
from i18nprune.pool.scheduler import ProviderGate, ProviderGates
from i18nprune.translate.providers import ProviderSettings

CANCEL_GRACE_SECONDS = 1.0
"""How long a worker has to acknowledge a cancel before it is killed and replaced."""
SHUTDOWN_GRACE_SECONDS = 1.0
"""How long workers have to exit after Shutdown before they are killed."""


class PoolStatistics(msgspec.Struct, frozen=True, kw_only=True):
    """A snapshot of a pool's workers and batches (counters are totals since the pool opened)."""

    workers: int
    """The pool's size."""
    alive: int
    """Workers ready for batches now."""
    pids: list[int]
    """Process ids of the workers ready now."""
    spawned: int
    respawned: int
    """Workers started to replace one that exited or was killed."""
    start_failures: int
    """Workers that exited (or could not be started) before they were ready."""
    batches_sent: int
    batches_in_flight: int
    requeued: int
    """Batches sent again because their worker exited."""
    cancelled: int
    """Batches whose job stopped waiting for them (cancelled or aborted)."""
    killed: int
    """Workers killed because they did not acknowledge a cancel in time."""


class WorkerPool:
    """Translate jobs with a set of worker processes; open it with `open_pool`.

    Rate limits are per provider endpoint and shared by every job running on the pool.
    """

    def __init__(self, nursery: trio.Nursery, size: int, env: Mapping[str, str], cwd: str) -> None:
        self._nursery = nursery
        self._size = size
        self._env = env
        self._cwd = cwd
        self._handles: list[WorkerHandle] = []
        self._starting = 0
        self._changed = trio.Event()
        self._closing = False
        self._gates = ProviderGates()
        self._batch_ids = itertools.count()
        self._spawned = 0
        self._respawned = 0
        self._start_failures = 0
        self._batches_sent = 0
        self._requeued = 0
        self._cancelled = 0
        self._killed = 0

    async def translate(
        self,
        job: TranslateJob,
        on_progress: ProgressCallback | None = None,
        *,
        on_translated: TranslatedCallback | None = None,
    ) -> JobOutcome:
        """Translate `job.texts`, batched per provider, following `job.policy`.

        As each batch settles, `on_translated(provider_id, indices, translations)` receives the
        translations of `job.texts[i]` for i in `indices` (so they can be kept even if the job is
        cancelled later), and `on_progress(done_texts, failed_texts)` the cumulative counts.
        Provider failures never raise: they end up in the outcome's `failures`. Cancellation
        cancels every batch of the job in the workers (their HTTP requests are aborted) and
        raises Cancelled at once, without waiting for the workers to acknowledge.
        """
        return await run_job(job, self, on_progress, on_translated)

    def statistics(self) -> PoolStatistics:
        """The pool's current counters."""
        ready = [handle for handle in self._handles if handle.ready]
        return PoolStatistics(
            workers=self._size,
            alive=len(ready),
            pids=[handle.pid for handle in ready],
            spawned=self._spawned,
            respawned=self._respawned,
            start_failures=self._start_failures,
            batches_sent=self._batches_sent,
            batches_in_flight=sum(len(handle.in_flight) for handle in self._handles),
            requeued=self._requeued,
            cancelled=self._cancelled,
            killed=self._killed,
        )

    async def wait_ready(self) -> int:
        """Wait until every worker is ready or has failed to start; the number ready."""
        while self._starting or any(not handle.ready for handle in self._handles):
            await self._changed.wait()
        return len(self._handles)

    async def request(
        self,
        settings: ProviderSettings,
        source: str,
        target: str,
        texts: list[str],
        admit: Callable[[], bool],
    ) -> Result | Failure | None:
        """Send one batch to the least-loaded worker once the provider's gate admits it, and
        wait for the answer. `admit()` is called right before each send; when it returns False
        nothing is sent and the result is `None`.

        A batch whose worker exits is sent once more; `None` when that one is lost too. A
        Failure("transient") when no worker can be started. Cancellation asks the worker to
        cancel the batch and returns at once; the gate slot is given back when the worker
        acknowledges (or has been killed for not doing so).
        """
        gate = self._gates.gate(settings)
        sends = 0
        while True:
            handle = await self._ready_worker()
            if handle is None:
                message = f"{settings.id}: no worker process could be started"
                return Failure(-1, "transient", message, None, None)
            await gate.acquire()
            handle = self._least_loaded()
            if handle is None:  # every worker exited while this waited for the gate
                gate.release()
                continue
            if not admit():
                gate.release()
                return None
            if sends:
                self._requeued += 1
            sends += 1
            batch = Batch(next(self._batch_ids), settings, source, target, texts)
            in_flight = handle.submit(batch)
            self._batches_sent += 1
            try:
                await in_flight.settled.wait()
            except BaseException:
                if in_flight.settled.is_set():
                    gate.release()
                else:
                    self._abandon(in_flight, gate)
                raise
            gate.release()
            if isinstance(in_flight.reply, Result | Failure):
                return in_flight.reply
            if sends == 2:
                return None

    def pause(self, settings: ProviderSettings, seconds: float) -> None:
        """No request to the endpoint of `settings` may start for `seconds` (any job)."""
        self._gates.gate(settings).pause(seconds)

    def _least_loaded(self) -> WorkerHandle | None:
        ready = [handle for handle in self._handles if handle.ready]
        return min(ready, key=lambda handle: len(handle.in_flight)) if ready else None

    async def _ready_worker(self) -> WorkerHandle | None:
        while True:
            handle = self._least_loaded()
            if handle is not None or not (self._handles or self._starting):
                return handle
            await self._changed.wait()

    def _notify(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    def _abandon(self, in_flight: InFlight, gate: ProviderGate) -> None:
        self._cancelled += 1
        in_flight.handle.cancel(in_flight.batch_id)
        self._nursery.start_soon(self._await_cancel, in_flight, gate)

    async def _await_cancel(self, in_flight: InFlight, gate: ProviderGate) -> None:
        try:
            with trio.move_on_after(CANCEL_GRACE_SECONDS):
                await in_flight.settled.wait()
            if not in_flight.settled.is_set():
                self._killed += 1
                in_flight.handle.kill()
                await in_flight.settled.wait()
        finally:
            gate.release()

    def _start_workers(self) -> None:
        for _ in range(self._size):
            self._starting += 1
            self._nursery.start_soon(self._keep_worker)

    async def _keep_worker(self) -> None:
        """Run one worker slot: start a worker, and start another each time one exits after it
        was ready. A worker that exits before it is ready is not replaced (it would only fail
        again)."""
        try:
            while not self._closing:
                self._spawned += 1
                try:
                    handle = await WorkerHandle.start(self._env, self._cwd, self._notify)
                except OSError:
                    self._start_failures += 1
                    return
                self._handles.append(handle)
                self._starting -= 1
                try:
                    await handle.run()
                finally:
                    self._handles.remove(handle)
                    self._starting += 1
                    self._notify()
                if not handle.was_ready:
                    self._start_failures += 1
                    return
                if not self._closing:
                    self._respawned += 1
        finally:
            self._starting -= 1
            self._notify()

    async def _close(self) -> None:
        """Ask every worker to exit, wait briefly, then kill those that did not."""
        self._closing = True
        handles = list(self._handles)
        try:
            for handle in handles:
                handle.shutdown()
            with trio.move_on_after(SHUTDOWN_GRACE_SECONDS):
                for handle in handles:
                    await handle.exited.wait()
        finally:
            for handle in self._handles:
                handle.kill()


def _worker_environment(env: Mapping[str, str] | None) -> tuple[dict[str, str], str]:
    """The environment and working directory of workers. They run in the directory this
    `i18nprune` comes from: `python -m` imports from its working directory first, so `workers`
    and `i18nprune` come from there, whatever the caller's directory holds."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(i18nprune.__file__)))
    return dict(os.environ if env is None else env), root


@asynccontextmanager
async def open_pool(
    size: int, *, env: Mapping[str, str] | None = None
) -> AsyncIterator[WorkerPool]:
    """A pool of `size` worker processes (`python -m workers`, started in parallel right away;
    requests wait for the first ready one). `env` is their environment (default: this one's).

    On exit, even by cancellation or KeyboardInterrupt, workers are asked to exit, killed after
    SHUTDOWN_GRACE_SECONDS if they have not, and reaped: no process outlives the block.
    """
    environment, cwd = _worker_environment(env)
    try:
        async with trio.open_nursery() as nursery:
            pool = WorkerPool(nursery, max(1, size), environment, cwd)
            pool._start_workers()
            try:
                yield pool
            finally:
                with trio.CancelScope(shield=True):
                    await pool._close()
                nursery.cancel_scope.cancel()
    except BaseExceptionGroup as group:
        # The nursery wraps what the caller's block raised; give it back to them as raised.
        if len(group.exceptions) == 1 and not isinstance(group.exceptions[0], BaseExceptionGroup):
            raise group.exceptions[0] from None
        raise
