"""`generate` interrupted with Ctrl+C, and with worker processes killed mid-run or as they
start, as the real CLI process against a loopback fake whose later requests hang (no timing
guesses)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from i18nprune.testing import FakeProvider, Fault
from tests.generate.conftest import (
    code_using,
    gone,
    provider_config,
    read_json,
    start_cli,
    wait_for_workers,
    wait_until,
)
from tests.pool.conftest import worker_env

pytestmark = pytest.mark.slow

MakeProject = Callable[[dict[str, Any]], Path]

EN = {f"k{index}": f"Text number {index}" for index in range(6)}
FR = {"k0": "Texte numéro 0"}
ANSWERED = 2
"""Requests the fake answers before every later one hangs."""


def hanging_fake(answered: int = ANSWERED, hanging: int = -1) -> FakeProvider:
    """A libre fake that answers `answered` requests, then lets `hanging` requests hang.

    drop_placeholder answers normally here: these texts hold no placeholder to drop; it only
    keeps the hang queued behind the first answers.
    """
    faults = [Fault(kind="hang", times=hanging)]
    if answered:
        faults.insert(0, Fault(kind="drop_placeholder", times=answered))
    return FakeProvider("libre", faults=faults)


def one_at_a_time_project(make_project: MakeProject, fake: FakeProvider) -> Path:
    """Five texts to translate for fr, one text per request, one request at a time, 2 workers
    configured (a run that needs both passes `--workers 2`: the machine may allow fewer)."""
    config = provider_config(fake, batchSize=1, rateLimit={"maxConcurrency": 1})
    config["translate"]["workers"] = 2
    return make_project(
        {
            "i18nprune.config.json": config,
            "src/app.ts": code_using(*EN),
            "locales/en.json": EN,
            "locales/fr.json": FR,
        }
    )


def interrupt_when_hanging(
    root: Path, home: Path, fake: FakeProvider
) -> tuple[subprocess.Popen[str], list[int]]:
    """Run generate until a request hangs, then press Ctrl+C (SIGINT to the process group).

    Returns the finished process and the worker pids it had. The hanging request would time
    out only after 60 s (libre's default), so a run that ends within the bound below did not
    wait for it.
    """
    process = start_cli(
        "generate", "--target", "fr", "--workers", "2", "--json", cwd=root, home=home
    )
    try:
        assert fake.wait_for_requests(ANSWERED + 1, timeout=60), process.communicate()
        workers = wait_for_workers(process.pid, 2)
        os.killpg(process.pid, signal.SIGINT)
        process.communicate(timeout=45)
        return process, workers
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def test_ctrl_c_exits_130_without_writing_or_leaving_workers(
    make_project: MakeProject, home: Path
) -> None:
    with hanging_fake() as fake:
        root = one_at_a_time_project(make_project, fake)
        before = (root / "locales/fr.json").read_bytes()
        process, workers = interrupt_when_hanging(root, home, fake)
        assert wait_until(lambda: fake.stats().in_flight == 0, timeout=30)
        hung = fake.requests[ANSWERED]
    assert process.returncode == 130
    assert hung.fault == "hang" and hung.aborted  # the worker abandoned its HTTP request
    assert (root / "locales/fr.json").read_bytes() == before
    assert sorted(path.name for path in (root / "locales").iterdir()) == ["en.json", "fr.json"]
    assert len(workers) == 2 and all(gone(pid, timeout=30) for pid in workers)


def test_ctrl_c_reports_the_interruption_in_the_envelope(
    make_project: MakeProject, home: Path
) -> None:
    with hanging_fake() as fake:
        root = one_at_a_time_project(make_project, fake)
        process = start_cli("generate", "--target", "fr", "--json", cwd=root, home=home)
        assert fake.wait_for_requests(ANSWERED + 1, timeout=60)
        os.killpg(process.pid, signal.SIGINT)
        stdout, _ = process.communicate(timeout=45)
    envelope = json.loads(stdout)
    assert envelope["ok"] is False and envelope["kind"] == "generate"
    assert [issue["code"] for issue in envelope["issues"]] == ["i18nprune.run.interrupted"]


def test_translations_received_before_ctrl_c_stay_in_the_cache(
    make_project: MakeProject, home: Path
) -> None:
    with hanging_fake() as fake:
        root = one_at_a_time_project(make_project, fake)
        interrupt_when_hanging(root, home, fake)
        answered = {text for request in fake.requests[:ANSWERED] for text in request.texts}
    with FakeProvider("libre") as fresh:
        config = read_json(root / "i18nprune.config.json")
        config["translate"]["providers"][0]["baseUrl"] = fresh.base_url
        (root / "i18nprune.config.json").write_text(json.dumps(config))
        process = start_cli("generate", "--target", "fr", "--json", cwd=root, home=home)
        stdout, stderr = process.communicate(timeout=120)
        again = {text for request in fresh.requests for text in request.texts}
    assert process.returncode == 0, stdout + stderr
    to_translate = {text for key, text in EN.items() if key not in FR}
    assert len(answered) == ANSWERED and answered < to_translate
    assert again == to_translate - answered
    [target] = json.loads(stdout)["data"]["targetResults"]
    assert target["cachedLeafCount"] == ANSWERED
    fr = read_json(root / "locales/fr.json")
    assert fr == {**FR, **{key: f"FR:{text}" for key, text in EN.items() if key not in FR}}


def test_killed_workers_do_not_stop_the_run(make_project: MakeProject, home: Path) -> None:
    # Every first request hangs; both workers are killed while they hold them; the pool starts
    # new workers and sends each batch once more, which the fake now answers.
    en = dict(list(EN.items())[:4])
    with hanging_fake(answered=0, hanging=len(en)) as fake:
        # Only the kill ends a hanging request: under load, the default timeout (60 s) could
        # pass first, and the retry would be a send the kill did not cause.
        config = provider_config(fake, batchSize=1, timeoutSeconds=3600)
        config["translate"]["workers"] = 2
        root = make_project(
            {
                "i18nprune.config.json": config,
                "src/app.ts": code_using(*en),
                "locales/en.json": en,
            }
        )
        process = start_cli(
            "generate", "--target", "fr", "--workers", "2", "--json", cwd=root, home=home
        )
        try:
            assert fake.wait_for_requests(len(en), timeout=60)
            workers = wait_for_workers(process.pid, 2)
            assert len(workers) == 2
            # Both die before the front sees either: were it to see the first death before the
            # second kill (a loaded machine may pause this test between the two), it could send
            # the first worker's batches to the second, which would be killed holding them.
            os.kill(process.pid, signal.SIGSTOP)
            try:
                for pid in workers:
                    os.kill(pid, signal.SIGKILL)
                assert all(gone(pid) for pid in workers)
            finally:
                os.kill(process.pid, signal.SIGCONT)
            stdout, stderr = process.communicate(timeout=120)
        finally:
            if process.poll() is None:
                process.kill()
                process.communicate()
        # the killed workers' connections close with them; the fake notices in its own time
        assert wait_until(lambda: fake.stats().aborted == len(en), timeout=30)
        sent = Counter(text for request in fake.requests for text in request.texts)
    assert process.returncode == 0, stdout + stderr
    assert sent == {text: 2 for text in en.values()}  # each lost once, then answered
    assert read_json(root / "locales/fr.json") == {key: f"FR:{text}" for key, text in en.items()}


def _pids_in(directory: Path) -> set[int]:
    return {int(path.name) for path in directory.iterdir() if path.name.isdigit()}


def test_workers_killed_while_they_start_are_replaced(
    make_project: MakeProject, home: Path, tmp_path: Path
) -> None:
    # Each worker announces itself with a file named by its pid, then waits for `go` before it
    # becomes ready: the first two are killed as they start, as an OOM killer or a kill would.
    started = tmp_path / "started"
    started.mkdir()
    hook = worker_env(
        tmp_path / "hook",
        f"""
        open(os.path.join({str(started)!r}, str(os.getpid())), "w").close()
        while not os.path.exists(os.path.join({str(started)!r}, "go")):
            time.sleep(0.01)
        """,
    )
    en = dict(list(EN.items())[:4])
    with FakeProvider("libre") as fake:
        config = provider_config(fake, batchSize=1)
        config["translate"]["workers"] = 2
        root = make_project(
            {
                "i18nprune.config.json": config,
                "src/app.ts": code_using(*en),
                "locales/en.json": en,
            }
        )
        env = {"PYTHONPATH": hook["PYTHONPATH"]}
        process = start_cli(
            "generate", "--target", "fr", "--workers", "2", "--json", cwd=root, home=home, env=env
        )
        try:
            assert wait_until(lambda: len(_pids_in(started)) == 2, timeout=60)
            for pid in _pids_in(started):
                os.kill(pid, signal.SIGKILL)
            replaced = wait_until(lambda: len(_pids_in(started)) == 4, timeout=60)
            (started / "go").touch()
            stdout, stderr = process.communicate(timeout=120)
        finally:
            if process.poll() is None:
                process.kill()
                process.communicate()
        sent = Counter(text for request in fake.requests for text in request.texts)
    assert replaced, stdout + stderr
    assert process.returncode == 0, stdout + stderr
    assert sent == {text: 1 for text in en.values()}
    assert read_json(root / "locales/fr.json") == {key: f"FR:{text}" for key, text in en.items()}
