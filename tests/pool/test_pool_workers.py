"""Worker processes: start-up, crashes and replacement, clean exits, protected frame channels."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from i18nprune.pool import JobOutcome, PoolStatistics, WorkerPool, open_pool
from i18nprune.pool.messages import Ready, from_worker_decoder
from i18nprune.testing import FakeProvider, fake_translation
from tests.pool.conftest import job_for, process_exists, settings_for, texts, with_pool

REPO = Path(__file__).resolve().parents[2]


def test_job_completes_when_a_worker_is_killed_mid_run() -> None:
    items = texts(40)
    with FakeProvider("libre", latency=0.3) as fake:
        settings = settings_for("libre", fake.base_url, batch_size=5, max_concurrency=8)

        async def body(pool: WorkerPool) -> tuple[JobOutcome, PoolStatistics, int]:
            victim = pool.statistics().pids[0]
            outcome: list[JobOutcome] = []

            async def run() -> None:
                outcome.append(await pool.translate(job_for(items, settings)))

            async with trio.open_nursery() as nursery:
                nursery.start_soon(run)
                assert await trio.to_thread.run_sync(fake.wait_for_requests, 8)
                os.kill(victim, signal.SIGKILL)
            await pool.wait_ready()
            return outcome[0], pool.statistics(), victim

        outcome, statistics, victim = with_pool(body)

    assert outcome.translations == [fake_translation(text, "fr") for text in items]
    assert statistics.requeued == 4  # the victim held half of the 8 batches
    assert statistics.respawned == 1
    assert statistics.alive == 2
    assert victim not in statistics.pids


def test_statistics_count_workers_and_batches() -> None:
    job = job_for(texts(30), settings_for("pseudo", batch_size=10))

    async def body(pool: WorkerPool) -> PoolStatistics:
        await pool.translate(job)
        return pool.statistics()

    statistics = with_pool(body, size=3)

    assert statistics == PoolStatistics(
        workers=3,
        alive=3,
        pids=statistics.pids,
        spawned=3,
        respawned=0,
        start_failures=0,
        batches_sent=3,
        batches_in_flight=0,
        requeued=0,
        cancelled=0,
        killed=0,
    )
    assert len(set(statistics.pids)) == 3


def test_closing_the_pool_leaves_no_worker_process() -> None:
    async def main() -> list[int]:
        async with open_pool(2) as pool:
            await pool.wait_ready()
            return pool.statistics().pids

    pids = trio.run(main)

    assert len(pids) == 2
    assert not any(process_exists(pid) for pid in pids)


def test_cancelling_out_of_the_pool_mid_job_leaves_no_worker_process() -> None:
    pids: list[int] = []
    with FakeProvider("libre", latency=5.0) as fake:
        settings = settings_for("libre", fake.base_url)

        async def main() -> None:
            with trio.CancelScope() as scope:
                async with open_pool(2) as pool, trio.open_nursery() as nursery:
                    await pool.wait_ready()
                    pids.extend(pool.statistics().pids)
                    nursery.start_soon(pool.translate, job_for(texts(40), settings))
                    assert await trio.to_thread.run_sync(fake.wait_for_requests, 4)
                    scope.cancel()

        trio.run(main)

    assert len(pids) == 2
    assert not any(process_exists(pid) for pid in pids)


def test_ctrl_c_closes_the_pool_and_its_workers() -> None:
    script = (
        "import trio\n"
        "from i18nprune.pool import open_pool\n"
        "async def main():\n"
        "    async with open_pool(2) as pool:\n"
        "        await pool.wait_ready()\n"
        "        print(*pool.statistics().pids, flush=True)\n"
        "        await trio.sleep_forever()\n"
        "trio.run(main)\n"
    )
    front = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    assert front.stdout is not None
    pids = [int(pid) for pid in front.stdout.readline().split()]
    os.killpg(front.pid, signal.SIGINT)  # what Ctrl+C sends: to the front and its workers
    _, stderr = front.communicate(timeout=10)

    assert len(pids) == 2
    assert b"KeyboardInterrupt" in stderr
    assert not any(process_exists(pid) for pid in pids)


def test_errors_of_the_pool_block_propagate_unwrapped() -> None:
    async def main() -> None:
        async with open_pool(1):
            raise LookupError("from the block")

    with pytest.raises(LookupError, match="from the block"):
        trio.run(main)


def test_texts_fail_when_no_worker_can_start() -> None:
    job = job_for(texts(3), settings_for("pseudo"), max_attempts=1)

    async def main() -> tuple[JobOutcome, PoolStatistics]:
        broken = {**os.environ, "PYTHONHOME": "/nonexistent"}  # the interpreter cannot start
        async with open_pool(2, env=broken) as pool:
            return await pool.translate(job), pool.statistics()

    outcome, statistics = trio.run(main)

    assert outcome.translations == [None] * 3
    assert all(
        reason == "transient: pseudo: no worker process could be started"
        for reason in outcome.failures.values()
    )
    assert statistics.start_failures == 2
    assert statistics.alive == 0


def test_a_workers_package_in_the_current_directory_is_not_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    decoy = tmp_path / "workers"
    decoy.mkdir()
    (decoy / "__init__.py").write_text("")
    (decoy / "__main__.py").write_text("raise SystemExit('decoy workers package ran')\n")
    monkeypatch.chdir(tmp_path)
    items = texts(3)

    outcome = with_pool(lambda pool: pool.translate(job_for(items, settings_for("pseudo"))))

    assert outcome.failures == {}


def test_stray_output_and_input_cannot_touch_the_frame_channels() -> None:
    script = (
        "import os, sys\n"
        "from workers.runtime import protect_stdio\n"
        "input_fd, output_fd = protect_stdio()\n"
        "print('stray print')\n"
        "sys.stdout.flush()\n"
        "os.write(1, b'stray write\\n')\n"
        "assert sys.stdin.read() == ''\n"
        "os.write(output_fd, os.read(input_fd, 100))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        input=b"frame bytes",
        capture_output=True,
        cwd=REPO,
        timeout=30,
        check=True,
    )

    assert done.stdout == b"frame bytes"
    assert b"stray print" in done.stderr
    assert b"stray write" in done.stderr


def test_a_worker_exits_when_its_input_ends() -> None:
    worker = subprocess.Popen(
        [sys.executable, "-m", "workers"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=REPO,
    )
    assert worker.stdin is not None and worker.stdout is not None
    length = int.from_bytes(worker.stdout.read(4), "big")
    ready = from_worker_decoder.decode(worker.stdout.read(length))
    worker.stdin.close()

    assert worker.wait(timeout=10) == 0
    assert ready == Ready(worker.pid)
    assert worker.stdout.read() == b""
    worker.stdout.close()
