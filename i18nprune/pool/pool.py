"""The worker pool: N long-lived worker processes kept alive (respawned with backoff when they
die), requests dispatched to the least-loaded one through the provider gates, batches of a dead
worker sent again, and cancellation relayed to them.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager

import msgspec
import trio

from i18nprune.pool.handle import InFlight, WorkerExit, WorkerHandle
from i18nprune.pool.job import (
    BatchLost,
    JobOutcome,
    ProgressCallback,
    TranslatedCallback,
    TranslateJob,
    run_job,
)
from i18nprune.pool.messages import Batch, Failure, ProviderSettings, Result, TextNote
from i18nprune.pool.scheduler import ProviderGate, ProviderGates, ProviderHealth
from i18nprune.pool.statistics import PoolRecorder
from i18nprune.system.children import child_python, usable_cpus

CANCEL_GRACE_SECONDS = 1.0
"""How long a worker has to acknowledge a cancel before it is killed and replaced."""
SHUTDOWN_GRACE_SECONDS = 1.0
"""How long workers have to exit after Shutdown before they are killed."""
START_ATTEMPTS = 3
"""Start-ups in a row of one worker slot that may fail by themselves (bad interpreter, import
error: an exit status or a crash) before the slot gives up."""
START_KILLS = 10
"""Start-ups in a row of one worker slot that may be killed from outside (a kill, the OOM killer)
before the slot gives up."""
RESPAWN_BACKOFF_SECONDS = 0.1
RESPAWN_BACKOFF_CAP_SECONDS = 5.0
BATCH_CRASHES = 2
"""Workers that may die by themselves while holding one batch before it fails (it is sent
again once): a batch that crashes workers cannot kill them all."""
BATCH_KILLS = 6
"""Workers that may be killed from outside while holding one batch before it fails; more than
BATCH_CRASHES, since a kill says nothing about the batch, but bounded, since the OOM killer's
SIGKILL may be the batch's own doing."""


def worker_ceiling() -> int:
    """The most workers worth starting on this machine: one per usable CPU beyond the one the
    front process keeps busy, and at least one.

    A worker keeps every request it holds in flight at once, so more workers add no
    concurrency; what they add is CPU, which only helps up to the cores the front leaves free,
    while each costs a start-up of a quarter of a CPU second that competes with the front's own
    scan and planning. On two cores a second worker cost a 10k-leaf run ~0.5 s of its ~2 s of
    CPU and sent no faster; a worker that dies is replaced and its batches are sent again.
    """
    return max(1, usable_cpus() - 1)


def respawn_delay(unproductive: int) -> float:
    """Seconds to wait before a slot starts its next worker, after `unproductive` workers in a
    row died without answering a batch (0 when the last one did answer): 0.1, 0.2, 0.4, … up to
    5 s, so a pool whose workers are killed as they start does not spin."""
    if unproductive <= 0:
        return 0.0
    return min(RESPAWN_BACKOFF_CAP_SECONDS, RESPAWN_BACKOFF_SECONDS * 2 ** (unproductive - 1))


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
    """Workers that exited, were killed, or could not be started before they were ready."""
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

    def __init__(
        self,
        nursery: trio.Nursery,
        size: int,
        env: Mapping[str, str],
        cwd: str,
        niceness: int = 0,
    ) -> None:
        self._nursery = nursery
        self._size = size
        self._env = env
        self._cwd = cwd
        self._niceness = niceness
        self._handles: list[WorkerHandle] = []
        self._starting = 0
        self._start_problem: str | None = None
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
        recorder: PoolRecorder | None = None,
    ) -> JobOutcome:
        """Translate `job` on this pool's workers; see `run_job` for the contract.

        Cancellation cancels every batch of the job in the workers (their HTTP requests are
        aborted) and raises Cancelled at once, without waiting for the workers to acknowledge.
        """
        return await run_job(job, self, on_progress, on_translated, recorder)

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
        """Wait until every worker is ready or its slot has given up starting one; the number
        ready."""
        while self._starting or any(not handle.ready for handle in self._handles):
            await self._changed.wait()
        return len(self._handles)

    async def wait_for_worker(self) -> None:
        """Wait until a worker is ready to take a batch, or no worker can be started (the next
        `request` then says so). Returns at once while one is ready."""
        if self._closing or self._handles or self._starting:
            await self._ready_worker()

    async def request(
        self,
        settings: ProviderSettings,
        source: str,
        target: str,
        texts: list[str],
        admit: Callable[[], bool],
        notes: list[TextNote | None] | None = None,
    ) -> Result | Failure | BatchLost | None:
        """Send one batch (with `notes`, one per text, when given) to the least-loaded worker
        once the provider's gate admits it, and wait for the answer. `admit()` is called right
        before each send; when it returns False nothing is sent and the result is `None`.

        A batch whose worker dies is sent again: after BATCH_CRASHES workers that died by
        themselves, or BATCH_KILLS killed from outside, it is BatchLost, as it is when no worker
        can be started. Cancellation asks the worker to cancel the batch and returns at once; the
        gate slot is given back when the worker acknowledges (or has been killed for not doing
        so). A pool whose workers could not be started (every slot gave up) starts them again
        for the next request.
        """
        if not (self._closing or self._handles or self._starting):
            self._start_workers()  # every slot gave up: try again for this request
        gate = self._gates.gate(settings)
        health = self._gates.health(settings)
        chars = sum(map(len, texts))
        losses: list[WorkerExit] = []
        while True:
            handle = await self._ready_worker()
            if handle is None:
                return BatchLost(self._start_problem or "no worker process could be started")
            await gate.acquire(chars)
            handle = self._least_loaded()
            if handle is None:  # every worker exited while this waited for the gate
                gate.release()
                continue
            if not admit():
                gate.release()
                return None
            if losses:
                self._requeued += 1
            batch = Batch(next(self._batch_ids), settings, source, target, texts, notes)
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
            reply = in_flight.reply
            if isinstance(reply, Result):
                health.succeeded()
                return reply
            if isinstance(reply, Failure):
                health.failed(f"{reply.kind}: {reply.message}")
                return reply
            assert reply is None  # Cancelled answers only a Cancel, sent when this raised
            await handle.exited.wait()
            assert handle.exit is not None
            losses.append(handle.exit)
            lost = _too_many_losses(losses)
            if lost is not None:
                return BatchLost(lost)

    def pause(self, settings: ProviderSettings, seconds: float) -> float:
        """No request to the endpoint of `settings` may start for `seconds` (any job); returns
        by how much that lengthened its pause."""
        return self._gates.gate(settings).pause(seconds)

    def health(self, settings: ProviderSettings) -> ProviderHealth:
        """Whether the endpoint of `settings` still answers, as the jobs using it see it."""
        return self._gates.health(settings)

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
        """Run one worker slot: start a worker, and another each time one exits (after
        `respawn_delay`), until the pool closes or the slot gives up: START_ATTEMPTS start-ups
        in a row failed by themselves, or START_KILLS were killed from outside."""
        failed = killed = unproductive = 0
        replacing = False
        try:
            while not self._closing:
                await trio.sleep(respawn_delay(unproductive))
                if self._closing:
                    return
                if replacing:
                    self._respawned += 1
                replacing = True
                self._spawned += 1
                try:
                    handle = await WorkerHandle.start(
                        self._env, self._cwd, self._notify, niceness=self._niceness
                    )
                except OSError as problem:
                    ending = f"could not be started: {problem}"
                    outside = False
                else:
                    await self._run_worker(handle)
                    assert handle.exit is not None
                    if handle.was_ready:
                        failed = killed = 0
                        unproductive = 0 if handle.answered else unproductive + 1
                        continue
                    ending, outside = handle.exit.cause, handle.exit.outside
                self._start_failures += 1
                unproductive += 1
                if outside:
                    killed += 1
                else:
                    failed += 1
                if failed >= START_ATTEMPTS or killed >= START_KILLS:
                    attempts = failed + killed
                    self._start_problem = (
                        f"no worker process could be started ({attempts} attempts): "
                        f"the last one {ending}"
                    )
                    return
        finally:
            self._starting -= 1
            self._notify()

    async def _run_worker(self, handle: WorkerHandle) -> None:
        self._handles.append(handle)
        self._starting -= 1
        try:
            await handle.run()
        finally:
            self._handles.remove(handle)
            self._starting += 1
            self._notify()

    async def _close(self) -> None:
        """Ask every worker to exit, wait briefly, then kill those that did not."""
        self._closing = True
        handles = list(self._handles)
        try:
            for handle in handles:
                if handle.ready:
                    handle.shutdown()
                else:
                    handle.kill()  # still starting: it holds no batch, and exiting takes long
            with trio.move_on_after(SHUTDOWN_GRACE_SECONDS):
                for handle in handles:
                    await handle.exited.wait()
        finally:
            for handle in self._handles:
                handle.kill()


def _too_many_losses(losses: list[WorkerExit]) -> str | None:
    """Why a batch whose workers ended as `losses` is not sent again, or None to send it again.

    A worker that died by itself (an exit status, a crash signal, a garbled frame) may have been
    killed by this very batch; one killed from outside says nothing about it.
    """
    crashes = [loss for loss in losses if not loss.outside]
    if len(crashes) >= BATCH_CRASHES:
        return (
            f"{len(crashes)} worker processes died while translating this batch "
            f"(the last {crashes[-1].cause})"
        )
    if len(losses) - len(crashes) >= BATCH_KILLS:
        return (
            f"{len(losses) - len(crashes)} worker processes were killed while translating this "
            f"batch (the last {losses[-1].cause})"
        )
    return None


@asynccontextmanager
async def open_pool(
    size: int, *, env: Mapping[str, str] | None = None, niceness: int = 0
) -> AsyncIterator[WorkerPool]:
    """A pool of `size` worker processes (`python -m i18nprune_workers`, started in parallel right
    away; requests wait for the first ready one). `env` is their environment (default: this
    one's). `niceness` > 0 runs them that much below this process's CPU priority (POSIX), for a
    host whose own event loop must win the CPU when both want it.

    On exit, even by cancellation or KeyboardInterrupt, workers are asked to exit, killed after
    SHUTDOWN_GRACE_SECONDS if they have not, and reaped: no process outlives the block.
    """
    environment, cwd = child_python(env)
    try:
        async with trio.open_nursery() as nursery:
            pool = WorkerPool(nursery, max(1, size), environment, cwd, niceness)
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
