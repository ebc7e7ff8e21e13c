"""The worker pool of one `generate` run: when it is leased and how large, where the run's
batches go, and what the pool did for the run."""

from __future__ import annotations

import math
from contextlib import AsyncExitStack
from types import TracebackType

from i18nprune.fleet.limits import FleetLimits
from i18nprune.ops.generate.model import GenerateOptions
from i18nprune.pool import WorkerPool
from i18nprune.pool.fleet_limited import FleetLimitedRequester
from i18nprune.pool.job import Requester
from i18nprune.pool.lease import lease_pool
from i18nprune.pool.messages import ProviderSettings
from i18nprune.pool.pool import PoolStatistics, worker_ceiling
from i18nprune.pool.statistics import PoolRecorder, RunPoolStatistics
from i18nprune.project import Project
from i18nprune.translate.local import LocalRequester, runs_locally


class RunPool:
    """The worker pool of one run and its statistics.

    Leased as soon as the run will likely need workers (before the scan, so the workers start
    while the code is scanned and the targets planned), else once translation turns out to need
    them; released as soon as translation ends, and on any early exit: no worker outlives it.
    """

    def __init__(self, project: Project, options: GenerateOptions, chain: list[ProviderSettings]):
        self._project = project
        self._options = options
        self._chain = chain
        self._stack = AsyncExitStack()
        self._pool: WorkerPool | None = None
        self._before: PoolStatistics | None = None
        self._after: PoolStatistics | None = None
        self.recorder = PoolRecorder()

    @property
    def needs_workers(self) -> bool:
        """Whether a provider this run can reach runs in worker processes."""
        return not self._options.dry_run and not all(map(runs_locally, self._chain))

    async def __aenter__(self) -> RunPool:
        await self._stack.__aenter__()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> bool | None:
        return await self._stack.__aexit__(exc_type, exc, traceback)

    async def lease(self, texts: int) -> None:
        """Lease the pool, sized for `texts` texts to send, unless it is leased already, the
        run needs no workers, or there is nothing to send."""
        if self._before is not None or not self.needs_workers:
            return
        if texts <= 0:
            return
        # `translate.workers` is a most, bounded by the CPUs; a `--workers` given is kept.
        configured = min(self._project.config.translate.workers, worker_ceiling())
        wanted = self._options.workers or configured
        batches = math.ceil(texts / max(self._chain[0].batch_size, 1))
        size = max(1, min(wanted, batches))
        self._pool = await self._stack.enter_async_context(lease_pool(size, self._project.env))
        self._before = self._pool.statistics()

    async def release(self) -> None:
        """Give the pool back (its workers exit unless the host keeps it); idempotent."""
        if self._pool is not None:
            self._after = self._pool.statistics()
            self._pool = None
        await self._stack.aclose()

    def requester(self, limits: FleetLimits | None = None) -> Requester:
        """Where the run's batches go: the pool, with local providers answered in process;
        with a fleet's `limits`, the pool's requests also hold the fleet's rate limit (local
        providers cost no request to anyone)."""
        remote: Requester | None = self._pool
        if remote is not None and limits is not None:
            remote = FleetLimitedRequester(remote, limits)
        if remote is not None and not any(map(runs_locally, self._chain)):
            return remote
        return LocalRequester(remote)

    def statistics(self) -> RunPoolStatistics | None:
        """The pool statistics of the run, or None when it sent nothing to a pool."""
        if self._before is None or not self.recorder.timings:
            return None
        after = self._pool.statistics() if self._pool is not None else self._after
        assert after is not None  # leased, so either still held or released
        return self.recorder.statistics(
            workers=after.workers,
            spawned=after.spawned - self._before.spawned,
            respawned=after.respawned - self._before.respawned,
        )
