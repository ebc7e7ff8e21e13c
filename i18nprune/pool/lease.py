"""Where ops get a worker pool from: by default a pool of their own for the length of a block; a
long-lived host (`serve`) lends one pool to every op it runs instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractAsyncContextManager, contextmanager
from contextvars import ContextVar

from i18nprune.pool.pool import WorkerPool, open_pool

PoolLease = Callable[[int, Mapping[str, str]], AbstractAsyncContextManager[WorkerPool]]
"""Lends a worker pool of (at least) a size, with an environment, for the length of a block."""

_lender: ContextVar[PoolLease | None] = ContextVar("i18nprune_pool_lender", default=None)


def lease_pool(size: int, env: Mapping[str, str]) -> AbstractAsyncContextManager[WorkerPool]:
    """A worker pool for the length of an `async with` block: the one the host lends (see
    `lending`), else a new pool of `size` workers with environment `env`, closed (its workers
    reaped) when the block ends."""
    lender = _lender.get()
    if lender is not None:
        return lender(size, env)
    return open_pool(size, env=env)


@contextmanager
def lending(lease: PoolLease) -> Iterator[None]:
    """Within the block, and in the tasks started from it, `lease_pool` lends from `lease`."""
    token = _lender.set(lease)
    try:
        yield
    finally:
        _lender.reset(token)
