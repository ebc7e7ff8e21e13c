"""Worker processes: start-up, crashes, outside kills and replacement, clean exits, protected
frame channels."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from i18nprune.pool import JobOutcome, PoolStatistics, TranslateJob, WorkerPool, open_pool
from i18nprune.pool.handle import WORKER_COMMAND, WORKER_PACKAGE, error_line
from i18nprune.pool.messages import Ready, from_worker_decoder
from i18nprune.testing import FakeProvider, Fault, fake_translation
from tests.pool.conftest import (
    job_for,
    process_exists,
    settings_for,
    texts,
    wait_until,
    with_pool,
    worker_env,
)

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
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
                assert await trio.to_thread.run_sync(fake.wait_for_requests, 8, 30)
                os.kill(victim, signal.SIGKILL)
            await pool.wait_ready()
            return outcome[0], pool.statistics(), victim

        outcome, statistics, victim = with_pool(body)

    assert outcome.translations == [fake_translation(text, "fr") for text in items]
    assert statistics.requeued == 4  # the victim held half of the 8 batches
    assert statistics.respawned == 1
    assert statistics.alive == 2
    assert victim not in statistics.pids


@pytest.mark.slow
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


@pytest.mark.slow
def test_closing_the_pool_leaves_no_worker_process() -> None:
    async def main() -> list[int]:
        async with open_pool(2) as pool:
            await pool.wait_ready()
            return pool.statistics().pids

    pids = trio.run(main)

    assert len(pids) == 2
    assert not any(process_exists(pid) for pid in pids)


@pytest.mark.slow
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


@pytest.mark.slow
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
    _, stderr = front.communicate(timeout=60)

    assert len(pids) == 2
    assert b"KeyboardInterrupt" in stderr
    assert not any(process_exists(pid) for pid in pids)


def test_errors_of_the_pool_block_propagate_unwrapped() -> None:
    async def main() -> None:
        async with open_pool(1):
            raise LookupError("from the block")

    with pytest.raises(LookupError, match="from the block"):
        trio.run(main)


def test_texts_fail_naming_the_cause_when_no_worker_can_start() -> None:
    job = job_for(texts(3), settings_for("pseudo"), max_attempts=1)

    async def main() -> tuple[JobOutcome, PoolStatistics]:
        broken = {**os.environ, "PYTHONHOME": "/nonexistent"}  # the interpreter cannot start
        async with open_pool(2, env=broken) as pool:
            return await pool.translate(job), pool.statistics()

    outcome, statistics = trio.run(main)

    assert outcome.translations == [None] * 3
    prefix = "transient: pseudo: no worker process could be started (3 attempts): "
    for reason in outcome.failures.values():
        assert reason.startswith(prefix + "the last one exited with status 1: ")
        assert reason.endswith("No module named 'encodings'")
    assert statistics.start_failures == 6  # each of the 2 slots tried 3 times
    assert statistics.alive == 0


def _refusing_env(directory: Path, refusal: Path) -> dict[str, str]:
    """Workers that, while `refusal` exists, write an error to stderr and exit with status 3."""
    return worker_env(
        directory,
        f"""
        if os.path.exists({str(refusal)!r}):
            sys.stderr.write("Traceback (most recent call last):\\n  a frame\\n")
            sys.stderr.write("RuntimeError: this worker refuses to start\\n")
            sys.stderr.flush()
            os._exit(3)
        """,
    )


@pytest.mark.slow
def test_a_worker_that_cannot_start_is_reported_with_its_stderr(tmp_path: Path) -> None:
    refusal = tmp_path / "refuse"
    refusal.touch()
    env = _refusing_env(tmp_path / "hook", refusal)
    job = job_for(texts(2), settings_for("pseudo"), max_attempts=1)

    outcome = trio.run(_translate_in_new_pool, job, env)

    assert outcome.failures == {
        index: "transient: pseudo: no worker process could be started (3 attempts): the last "
        "one exited with status 3: RuntimeError: this worker refuses to start"
        for index in range(2)
    }


async def _translate_in_new_pool(job: TranslateJob, env: dict[str, str]) -> JobOutcome:
    async with open_pool(1, env=env) as pool:
        return await pool.translate(job)


@pytest.mark.slow
def test_a_pool_whose_workers_could_not_start_tries_again_for_the_next_job(
    tmp_path: Path,
) -> None:
    refusal = tmp_path / "refuse"
    refusal.touch()
    env = _refusing_env(tmp_path / "hook", refusal)
    items = texts(2)
    job = job_for(items, settings_for("pseudo"), max_attempts=1)

    async def main() -> tuple[JobOutcome, JobOutcome]:
        async with open_pool(1, env=env) as pool:
            refused = await pool.translate(job)
            refusal.unlink()  # whatever kept the workers from starting is gone
            return refused, await pool.translate(job)

    refused, outcome = trio.run(main)

    assert set(refused.failures) == {0, 1}
    assert outcome.failures == {}
    assert all(translation is not None for translation in outcome.translations)


def _pids_in(directory: Path) -> set[int]:
    return {int(path.name) for path in directory.iterdir() if path.name.isdigit()}


@pytest.mark.slow
def test_workers_killed_while_they_start_are_replaced(tmp_path: Path) -> None:
    # Each worker announces itself with a file named by its pid, then waits for `go` before it
    # becomes ready: the first two are killed as they start, as an OOM killer or a kill would.
    started = tmp_path / "started"
    started.mkdir()
    env = worker_env(
        tmp_path / "hook",
        f"""
        open(os.path.join({str(started)!r}, str(os.getpid())), "w").close()
        while not os.path.exists(os.path.join({str(started)!r}, "go")):
            time.sleep(0.01)
        """,
    )
    items = texts(20)

    async def main() -> tuple[set[int], JobOutcome, PoolStatistics]:
        async with open_pool(2, env=env) as pool:
            assert await trio.to_thread.run_sync(wait_until, lambda: len(_pids_in(started)) == 2)
            first = _pids_in(started)
            for pid in first:
                os.kill(pid, signal.SIGKILL)
            replaced = await trio.to_thread.run_sync(
                wait_until, lambda: len(_pids_in(started)) == 4
            )
            assert replaced, "the killed workers were not replaced"
            (started / "go").touch()
            outcome = await pool.translate(job_for(items, settings_for("pseudo")))
            await pool.wait_ready()
            return first, outcome, pool.statistics()

    first, outcome, statistics = trio.run(main)

    assert outcome.failures == {}
    assert all(translation is not None for translation in outcome.translations)
    assert statistics.start_failures == 2
    assert statistics.respawned == 2
    assert statistics.alive == 2
    assert not first & set(statistics.pids)


@pytest.mark.slow
def test_a_batch_is_sent_again_each_time_an_outside_kill_takes_its_worker() -> None:
    # More kills than the two losses a crashing batch is allowed: kills say nothing about it.
    kills = 3
    items = texts(1)
    with FakeProvider("libre", faults=[Fault(kind="hang", times=kills)]) as fake:
        settings = settings_for("libre", fake.base_url)

        async def body(pool: WorkerPool) -> tuple[JobOutcome, PoolStatistics]:
            outcome: list[JobOutcome] = []

            async def run() -> None:
                outcome.append(await pool.translate(job_for(items, settings)))

            async with trio.open_nursery() as nursery:
                nursery.start_soon(run)
                for kill in range(1, kills + 1):
                    assert await trio.to_thread.run_sync(fake.wait_for_requests, kill, 30)
                    (holder,) = pool.statistics().pids
                    os.kill(holder, signal.SIGKILL)
            return outcome[0], pool.statistics()

        outcome, statistics = with_pool(body, size=1)
        requests = fake.stats().requests

    assert outcome.translations == [fake_translation(items[0], "fr")]
    assert requests == kills + 1
    assert statistics.requeued == kills
    assert statistics.respawned == kills


@pytest.mark.slow
def test_a_batch_that_crashes_its_workers_fails_after_two_and_the_pool_goes_on(
    tmp_path: Path,
) -> None:
    # A worker exits by itself (status 70) whenever it connects to the poisoned provider.
    with FakeProvider("libre") as poisoned, FakeProvider("libre") as healthy:
        port = int(poisoned.base_url.rsplit(":", 1)[1])
        env = worker_env(
            tmp_path / "hook",
            f"""
            def crash_on_connect(event, args):
                if event == "socket.connect" and args[1][1] == {port}:
                    os._exit(70)
            sys.addaudithook(crash_on_connect)
            """,
        )
        items = texts(3)

        async def body(pool: WorkerPool) -> tuple[JobOutcome, JobOutcome, PoolStatistics]:
            poison = settings_for("libre", poisoned.base_url)
            crashing = await pool.translate(job_for(texts(1), poison))
            outcome = await pool.translate(job_for(items, settings_for("libre", healthy.base_url)))
            return crashing, outcome, pool.statistics()

        crashing, outcome, statistics = with_pool(body, env=env)

    assert crashing.failures == {
        0: "transient: libre: 2 worker processes died while translating this batch "
        "(the last exited with status 70)"
    }
    assert statistics.requeued == 1
    assert outcome.translations == [fake_translation(text, "fr") for text in items]


def test_the_last_error_line_of_stderr_names_the_cause() -> None:
    stderr = (
        b"Fatal Python error: init_fs_encoding: failed to get the Python codec\n"
        b"Python runtime state: core initialized\n"
        b"ModuleNotFoundError: No module named 'encodings'\n\n"
        b"Current thread 0x00007f (most recent call first):\n  <no Python frame>\n"
    )

    assert error_line(stderr) == "ModuleNotFoundError: No module named 'encodings'"
    assert error_line(b"/usr/bin/python: No module named x\n") == (
        "/usr/bin/python: No module named x"
    )
    assert error_line(b"just a line\n") == "just a line"
    assert error_line(b"") is None


@pytest.mark.slow
def test_a_workers_package_in_the_current_directory_is_not_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    decoy = tmp_path / WORKER_PACKAGE
    decoy.mkdir()
    (decoy / "__init__.py").write_text("")
    (decoy / "__main__.py").write_text("raise SystemExit('decoy workers package ran')\n")
    monkeypatch.chdir(tmp_path)
    items = texts(3)

    outcome = with_pool(lambda pool: pool.translate(job_for(items, settings_for("pseudo"))))

    assert outcome.failures == {}


@pytest.mark.slow
def test_stray_output_and_input_cannot_touch_the_frame_channels() -> None:
    script = (
        "import os, sys\n"
        f"from {WORKER_PACKAGE}.runtime import protect_stdio\n"
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


@pytest.mark.slow
def test_a_worker_exits_when_its_input_ends() -> None:
    worker = subprocess.Popen(
        list(WORKER_COMMAND),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=REPO,
    )
    assert worker.stdin is not None and worker.stdout is not None
    length = int.from_bytes(worker.stdout.read(4), "big")
    ready = from_worker_decoder.decode(worker.stdout.read(length))
    worker.stdin.close()

    assert worker.wait(timeout=60) == 0
    assert ready == Ready(worker.pid)
    assert worker.stdout.read() == b""
    worker.stdout.close()
