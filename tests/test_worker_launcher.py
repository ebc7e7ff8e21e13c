"""The suite's translate workers forked from the fork server (tests/worker_launcher.py): the
pool's child lives exactly as long as its worker and ends as it ended, signals reach the
worker, a killed launcher leaves no worker behind, and a worker whose start-up could differ is
the real command in a fresh interpreter."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from i18nprune.pool.messages import Ready, from_worker_decoder
from i18nprune.system.frames import take_frames
from i18nprune.testing import FakeProvider, fake_translation
from tests.conftest import REPO, cli_environment_without_home, write_tree
from tests.generate.conftest import code_using, provider_config
from tests.pool.conftest import process_exists, wait_until
from tests.zygote import FRESH_WORKERS_VARIABLE, Zygote

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads /proc; the fork server is POSIX"
)


@pytest.fixture(scope="module")
def zygote() -> Iterator[Zygote]:
    server = Zygote(cli_environment_without_home(), REPO)
    yield server
    server.close()


def launch(zygote: Zygote, **extra: str) -> tuple[subprocess.Popen[bytes], int]:
    """A launcher started as the pool starts a worker, and the pid its worker said Ready with."""
    process = subprocess.Popen(
        zygote.worker_command(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**zygote.environ, **extra},
    )
    assert process.stdout is not None
    buffer = bytearray()
    while not (bodies := take_frames(buffer)):
        chunk = os.read(process.stdout.fileno(), 1 << 16)
        assert chunk, process.communicate()[1].decode()
        buffer += chunk
    ready = from_worker_decoder.decode(bodies[0])
    assert isinstance(ready, Ready)
    return process, ready.pid


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def command_line(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")[:-1]


def finish(process: subprocess.Popen[bytes]) -> int:
    """Close the pool's end of the worker's stdin (the pool went away) and wait."""
    _, stderr = process.communicate(timeout=60)
    assert b"Traceback" not in stderr, stderr.decode()
    return process.returncode


def test_a_launched_worker_is_forked_from_the_server_and_ends_with_its_input(zygote):
    process, worker = launch(zygote)

    assert worker != process.pid
    assert parent_of(worker) == zygote.pid
    assert finish(process) == 0
    assert wait_until(lambda: not process_exists(worker))


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM, signal.SIGSEGV])
def test_a_worker_killed_by_a_signal_ends_its_launcher_by_the_same_signal(zygote, signum):
    process, worker = launch(zygote)
    os.kill(worker, signum)

    assert process.wait(timeout=60) == -signum
    finish(process)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGUSR1])
def test_a_signal_to_the_launcher_reaches_its_worker(zygote, signum):
    process, worker = launch(zygote)
    process.send_signal(signum)

    assert process.wait(timeout=60) == -signum
    assert wait_until(lambda: not process_exists(worker))


def test_sigint_to_the_launcher_is_ignored_as_the_worker_ignores_it(zygote):
    process, worker = launch(zygote)
    process.send_signal(signal.SIGINT)
    os.kill(worker, signal.SIGINT)

    assert finish(process) == 0


def test_a_killed_launcher_leaves_no_worker_behind(zygote):
    process, worker = launch(zygote)
    process.kill()

    assert process.wait(timeout=60) == -signal.SIGKILL
    assert wait_until(lambda: not process_exists(worker))
    finish(process)


@pytest.mark.parametrize(
    "extra",
    [{"PYTHONHASHSEED": "7"}, {FRESH_WORKERS_VARIABLE: "1"}],
    ids=["start-up-differs", "asked-fresh"],
)
def test_a_worker_that_could_start_differently_is_the_real_command(zygote, extra):
    process, worker = launch(zygote, **extra)

    assert worker == process.pid  # the launcher became the worker
    assert command_line(worker) == [sys.executable, "-m", "i18nprune_workers"]
    assert finish(process) == 0


@pytest.mark.slow
def test_generate_with_forked_workers_writes_what_fresh_workers_write(run_cli, tmp_path):
    en = {f"k{index}": f"Text number {index}" for index in range(12)}
    outputs = []
    with FakeProvider("libre") as fake:
        for fresh in ("0", "1"):
            root = write_tree(
                tmp_path / f"app-{fresh}",
                {
                    "i18nprune.config.json": provider_config(fake),
                    "src/app.ts": code_using(*en),
                    "locales/en.json": en,
                },
            )
            done = run_cli(
                "generate",
                "--target",
                "fr",
                "--no-cache",
                cwd=root,
                env={FRESH_WORKERS_VARIABLE: fresh},
            )
            assert done.code == 0, done.stderr
            outputs.append((root / "locales/fr.json").read_bytes())
        assert fake.stats().requests >= 2

    assert outputs[0] == outputs[1]
    assert json.loads(outputs[0])["k11"] == fake_translation("Text number 11", "fr")
