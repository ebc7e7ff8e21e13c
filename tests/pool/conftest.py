"""Pool test helpers: provider settings pointed at a loopback fake, jobs, a pool to run in, and
code run at the start of its worker processes."""

from __future__ import annotations

import os
import textwrap
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import trio

from i18nprune.config.schema import TranslatePolicy
from i18nprune.pool import TranslateJob, WorkerPool, open_pool
from i18nprune.pool.handle import WORKER_COMMAND
from i18nprune.pool.messages import ProviderSettings

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


def with_pool(
    body: Callable[[WorkerPool], Awaitable[T]],
    size: int = 2,
    *,
    env: dict[str, str] | None = None,
    clock: trio.abc.Clock | None = None,
) -> T:
    """Run `body(pool)` in a fresh pool of `size` ready workers (environment `env`), on `clock`."""

    async def main() -> T:
        async with open_pool(size, env=env) as pool:
            await pool.wait_ready()
            return await body(pool)

    return trio.run(main, clock=clock)


def worker_env(directory: Path, code: str) -> dict[str, str]:
    """This environment, where every worker process runs `code` (Python) as it starts, before
    it is ready: a `sitecustomize` module in `directory`, put on PYTHONPATH, that other
    processes (the test's own subprocesses, a CLI front) skip."""
    directory.mkdir(parents=True, exist_ok=True)
    worker = list(WORKER_COMMAND[1:])
    body = textwrap.indent(textwrap.dedent(code).strip(), "    ")
    hook = f"import os, sys, time\nif sys.orig_argv[-{len(worker)}:] == {worker!r}:\n{body}\n"
    (directory / "sitecustomize.py").write_text(hook)
    path = os.pathsep.join(filter(None, [str(directory), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path}


def wait_until(condition: Callable[[], bool], timeout: float = 30.0) -> bool:
    """Poll `condition()` until it is true; False after `timeout` seconds (a bound, not a
    measurement: the tests never depend on how fast anything is)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.01)
    return True


def process_exists(pid: int) -> bool:
    """True while process `pid` exists (a reaped child no longer does)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
