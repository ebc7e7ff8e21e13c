"""The front side of the translate worker pool: `open_pool` starts the
`python -m i18nprune_workers` processes, `WorkerPool.translate` runs a job on them under
per-provider rate limits and the translate policy.

The names below load their modules on first use: a worker imports `pool.messages` and
`pool.framing` alone.
"""

from typing import TYPE_CHECKING

from i18nprune.system.lazy import lazy_exports

if TYPE_CHECKING:
    from i18nprune.pool.job import JobOutcome, ProviderAttempt, TranslateJob
    from i18nprune.pool.pool import PoolStatistics, WorkerPool, open_pool

__all__ = [
    "JobOutcome",
    "PoolStatistics",
    "ProviderAttempt",
    "TranslateJob",
    "WorkerPool",
    "open_pool",
]

__getattr__ = lazy_exports(
    __name__,
    {
        "JobOutcome": "job",
        "ProviderAttempt": "job",
        "TranslateJob": "job",
        "PoolStatistics": "pool",
        "WorkerPool": "pool",
        "open_pool": "pool",
    },
)
