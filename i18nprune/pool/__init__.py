"""The front side of the translate worker pool: `open_pool` starts the
`python -m i18nprune_workers` processes, `WorkerPool.translate` runs a job on them under
per-provider rate limits and the translate policy.
"""

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
