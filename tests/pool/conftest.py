"""Pool test helpers: provider settings pointed at a loopback fake, jobs, and a pool to run in."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import msgspec
import trio

from i18nprune.config.schema import TranslatePolicy
from i18nprune.pool import TranslateJob, WorkerPool, open_pool
from i18nprune.translate.providers import ProviderSettings

T = TypeVar("T")


def settings_for(provider_id: str, base_url: str = "", **changes: Any) -> ProviderSettings:
    """Settings of `provider_id` at `base_url`: batches of 10, 4 in flight, no pacing."""
    base = ProviderSettings(
        id=provider_id,
        base_url=base_url,
        api_key=None,
        model=None,
        region=None,
        batch_size=10,
        timeout_seconds=5.0,
        max_concurrency=4,
        rps=None,
        rpm=None,
    )
    return msgspec.structs.replace(base, **changes)


def job_for(
    texts: list[str], *chain: ProviderSettings, isolated: bool = False, **policy: Any
) -> TranslateJob:
    """A job from en to fr over `chain` with the default policy changed by `policy`."""
    return TranslateJob(
        texts=texts,
        source="en",
        target="fr",
        chain=list(chain),
        policy=msgspec.structs.replace(TranslatePolicy(), **policy),
        isolated=isolated,
    )


def texts(count: int) -> list[str]:
    """`count` distinct masked texts."""
    return [f'Item <x id="0"/> number {index}' for index in range(count)]


def with_pool(body: Callable[[WorkerPool], Awaitable[T]], size: int = 2) -> T:
    """Run `body(pool)` in a fresh pool of `size` ready workers."""

    async def main() -> T:
        async with open_pool(size) as pool:
            await pool.wait_ready()
            return await body(pool)

    return trio.run(main)


def process_exists(pid: int) -> bool:
    """True while process `pid` exists (a reaped child no longer does)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
