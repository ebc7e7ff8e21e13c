"""Worker priority: a pool opened with a niceness runs its workers that much below the opener's
CPU priority (serve does, so its event loop wins the CPU from workers that start or work)."""

from __future__ import annotations

import os
import sys

import pytest
import trio

from i18nprune.pool import open_pool

pytestmark = pytest.mark.skipif(not hasattr(os, "setpriority"), reason="POSIX priorities")


def worker_priorities(niceness: int) -> list[int]:
    """The priorities of the workers of a 2-worker pool opened with `niceness`, once ready."""

    async def main() -> list[int]:
        async with open_pool(2, niceness=niceness) as pool:
            await pool.wait_ready()
            return [os.getpriority(os.PRIO_PROCESS, pid) for pid in pool.statistics().pids]

    return trio.run(main)


@pytest.mark.slow
def test_workers_run_at_the_openers_priority_by_default() -> None:
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    assert worker_priorities(0) == [ours, ours]


@pytest.mark.slow
def test_a_niceness_lowers_every_workers_priority_by_that_much() -> None:
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    if ours + 3 > 19:
        pytest.skip("this process already runs at the lowest priority")
    assert worker_priorities(3) == [ours + 3, ours + 3]


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a worker's threads: Linux")
def test_the_workers_own_threads_keep_the_lower_priority() -> None:
    # Linux gives each thread its own priority; threads a worker starts inherit its main one's.
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    if ours + 3 > 19:
        pytest.skip("this process already runs at the lowest priority")

    async def main() -> set[int]:
        async with open_pool(1, niceness=3) as pool:
            await pool.wait_ready()
            (pid,) = pool.statistics().pids
            tasks = os.listdir(f"/proc/{pid}/task")
            return {os.getpriority(os.PRIO_PROCESS, int(task)) for task in tasks}

    assert trio.run(main) == {ours + 3}
