"""The one worker pool a `serve` session lends to every op: opened on first use, kept warm
between requests, closed only when the session ends.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager

import trio

from i18nprune.pool import WorkerPool, open_pool

WORKER_NICENESS = 5
"""How much lower the workers' CPU priority is than the server's: they mostly wait on HTTP, and
when both want the CPU (workers starting while a scan runs), the loop that answers the client
should get it first."""


class SharedPool:
    """A `PoolLease` for `ProjectHandle` that lends the same pool to every request.

    The pool lives in the session's nursery, so it outlives each lease and is closed (its
    workers asked to exit, then killed) when that nursery ends. Its workers run at
    WORKER_NICENESS below the server's priority. Its size is `workers` when
    given, else the size the first lease asks for; its environment is the first lease's.
    """

    def __init__(self, nursery: trio.Nursery, workers: int | None = None) -> None:
        self._nursery = nursery
        self._workers = workers
        self._pool: WorkerPool | None = None
        self._lock = trio.Lock()

    @asynccontextmanager
    async def lease(self, size: int, env: Mapping[str, str]) -> AsyncIterator[WorkerPool]:
        """The shared pool for the length of the block; leaving the block never closes it.

        The first lease starts the pool (its workers start in the background). Cancelling
        a lease that is starting the pool cancels the start; the next lease starts it again.
        """
        async with self._lock:
            if self._pool is None:
                self._pool = await self._nursery.start(self._keep, self._workers or size, env)
        yield self._pool

    async def _keep(
        self,
        size: int,
        env: Mapping[str, str],
        task_status: trio.TaskStatus[WorkerPool] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        try:
            async with open_pool(size, env=env, niceness=WORKER_NICENESS) as pool:
                task_status.started(pool)
                await trio.sleep_forever()
        finally:
            self._pool = None
