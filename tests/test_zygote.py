"""The CLI's fork server (tests/zygote.py): a run forked from it is the run a fresh
interpreter makes — exit status, stdout and stderr — and runs do not see one another.

The server's machinery is driven with a probe command (tests/zygote_probe.py) run both ways;
the real CLI is compared on a few commands.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import (
    REPO,
    cli_environment,
    cli_environment_without_home,
    worker_zygote,
    write_tree,
)
from tests.zygote import Forked, Zygote, run_fresh, starts_differently

PROBE = "tests.zygote_probe"


@pytest.fixture(scope="module")
def probe_environ() -> dict[str, str]:
    """The environment of the probe's runs (and its server): the repository importable."""
    return {**cli_environment_without_home(), "PYTHONPATH": str(REPO)}


@pytest.fixture(scope="module")
def probe_zygote(probe_environ: dict[str, str]) -> Iterator[Zygote]:
    zygote = Zygote(probe_environ, REPO, module=PROBE)
    yield zygote
    zygote.close()


def both_ways(
    zygote: Zygote, cwd: Path, environ: dict[str, str], *args: str
) -> tuple[tuple[int, str, str], tuple[int, str, str]]:
    """(forked, fresh) results of one command."""
    assert zygote.serves(args, cwd, environ)
    forked = zygote.run(args, cwd, environ, 120)
    fresh = run_fresh(args, cwd, environ, 120, module=zygote.module)
    return forked, fresh


@pytest.mark.parametrize("code", ["0", "1", "2", "3"])
def test_an_exit_status_comes_back_as_a_fresh_run_gives_it(
    probe_zygote, probe_environ, tmp_path, code
):
    forked, fresh = both_ways(probe_zygote, tmp_path, probe_environ, "exit", code)

    assert forked == fresh == (int(code), "", "")


def test_an_exit_with_a_message_prints_it_and_exits_1(probe_zygote, probe_environ, tmp_path):
    forked, fresh = both_ways(probe_zygote, tmp_path, probe_environ, "exit", "no such thing")

    assert forked == fresh == (1, "", "no such thing\n")


def test_a_crash_prints_the_traceback_a_fresh_interpreter_prints(
    probe_zygote, probe_environ, tmp_path
):
    forked, fresh = both_ways(probe_zygote, tmp_path, probe_environ, "crash")

    assert forked == fresh
    code, stdout, stderr = forked
    assert (code, stdout) == (1, "")
    assert stderr.startswith('Traceback (most recent call last):\n  File "<frozen runpy>"')
    assert stderr.endswith("RuntimeError: the probe crashed\n")


def test_an_escaping_keyboard_interrupt_ends_the_run_by_sigint(
    probe_zygote, probe_environ, tmp_path
):
    forked, fresh = both_ways(probe_zygote, tmp_path, probe_environ, "interrupt")

    assert forked == fresh
    assert forked[0] == -signal.SIGINT
    assert forked[2].endswith("KeyboardInterrupt\n")


def test_stdout_and_stderr_are_read_whole_and_apart_when_both_fill_at_once(
    probe_zygote, probe_environ, tmp_path
):
    size = 300_000  # several times what a pipe holds, on both at once
    forked, fresh = both_ways(probe_zygote, tmp_path, probe_environ, "write", str(size))

    assert forked == fresh == (0, "o" * size, "e" * size)


def test_a_run_sees_its_own_environment_and_nothing_an_earlier_run_set(
    probe_zygote, probe_environ, tmp_path
):
    names = ("ZYGOTE_PROBE_GIVEN", "ZYGOTE_PROBE_LEFT_BEHIND")
    given = {**probe_environ, "ZYGOTE_PROBE_GIVEN": "this run's"}

    first = probe_zygote.run(["env", *names], tmp_path, given, 120)
    second = probe_zygote.run(["env", *names], tmp_path, probe_environ, 120)

    assert first == (0, "this run's\n<unset>\n", "")
    assert second == (0, "<unset>\n<unset>\n", "")


def test_a_run_has_its_cwd_path_and_arguments_as_python_m_sets_them(
    probe_zygote, probe_environ, tmp_path
):
    folder = tmp_path / "here"
    folder.mkdir()
    forked, fresh = both_ways(probe_zygote, folder, probe_environ, "where", "a b", "--c")

    assert forked == fresh
    real = os.path.realpath(folder)
    assert forked == (0, f"{real}\n{real}\n['where', 'a b', '--c']\n", "")


def test_a_run_starts_single_threaded(probe_zygote, probe_environ, tmp_path):
    forked, fresh = both_ways(probe_zygote, tmp_path, probe_environ, "threads")

    assert forked == fresh == (0, "1\n", "")


def test_a_run_has_a_fresh_runs_signal_handlers_and_only_its_three_descriptors(
    probe_zygote, probe_environ, tmp_path
):
    forked, fresh = both_ways(probe_zygote, tmp_path, probe_environ, "signals")

    assert forked == fresh
    assert forked[1].splitlines()[1:] == ["-1", "[0, 1, 2, 3]"]  # 3: the listing's own


def test_a_run_past_its_timeout_is_killed_and_the_server_serves_on(
    probe_zygote, probe_environ, tmp_path
):
    with pytest.raises(subprocess.TimeoutExpired) as expired:
        probe_zygote.run(["hang"], tmp_path, probe_environ, 0.5)

    assert expired.value.cmd[-2:] == [PROBE, "hang"]
    assert probe_zygote.run(["exit", "0"], tmp_path, probe_environ, 120) == (0, "", "")


@contextlib.contextmanager
def spawned(zygote: Zygote, environ: dict[str, str], cwd: Path, *args: str) -> Iterator[Forked]:
    """A child spawned from `zygote`, its pipes closed (and the child killed) on leaving."""
    child = zygote.spawn(args, cwd, environ)
    try:
        yield child
    finally:
        child.kill()
        for stream in (child.stdin, child.stdout, child.stderr):
            stream.close()


def test_a_spawned_child_reads_its_stdin_pipe_and_leads_its_own_session(
    probe_zygote, probe_environ, tmp_path
):
    with spawned(probe_zygote, probe_environ, tmp_path, "echo") as child:
        child.stdin.write(b"line one\n")
        child.stdin.close()

        assert child.wait(120) == 0
        assert child.stdout.read() == b"line one\nTrue\n"
        assert child.poll() == 0


def test_a_spawned_child_is_killed_by_its_handle_and_waits_time_out_until_then(
    probe_zygote, probe_environ, tmp_path
):
    with spawned(probe_zygote, probe_environ, tmp_path, "hang") as child:
        assert child.poll() is None
        with pytest.raises(subprocess.TimeoutExpired):
            child.wait(0.1)
        child.kill()
        assert child.wait(120) == -signal.SIGKILL
        child.kill()  # ended: nothing to signal
        assert child.returncode == -signal.SIGKILL


def test_a_run_whose_start_up_could_differ_is_left_to_a_fresh_interpreter(
    probe_zygote, probe_environ, tmp_path
):
    server = probe_zygote.environ
    for name, value in [
        ("PYTHONPATH", "/elsewhere"),
        ("LANG", "C"),
        ("LC_ALL", "C"),
        ("TZ", "UTC"),
    ]:
        assert starts_differently({**server, name: value}, server), name
    assert starts_differently({k: v for k, v in server.items() if k != "PYTHONPATH"}, server)
    for name in ("I18NPRUNE_HOME", "NO_COLOR", "COLUMNS", "FORCE_COLOR", "CI"):
        assert not starts_differently({**server, name: "1"}, server), name
    assert not probe_zygote.serves(["serve"], tmp_path, server)
    assert probe_zygote.serves_server(tmp_path, server)
    assert not probe_zygote.serves(["exit", "0"], tmp_path / "absent", server)
    assert probe_zygote.serves(["exit", "0"], tmp_path, server)


# The real CLI, forked from the suite's own server and run fresh.


@pytest.fixture(scope="module")
def cli_server() -> Iterator[Zygote]:
    """The worker's fork server, or one of this module's own under `I18NPRUNE_TEST_FRESH=1`."""
    shared = worker_zygote()
    if shared is not None:
        yield shared
        return
    own = Zygote(cli_environment_without_home(), REPO)
    yield own
    own.close()


def cli_both_ways(
    zygote: Zygote, home: Path, cwd: Path, *args: str
) -> tuple[tuple[int, str, str], tuple[int, str, str]]:
    return both_ways(zygote, cwd, cli_environment(home), *args)


def without_duration(envelope: dict[str, Any]) -> dict[str, Any]:
    meta = dict(envelope["meta"])
    assert isinstance(meta.pop("durationMs"), int)
    return {**envelope, "meta": meta}


def test_validate_json_on_the_example_is_the_fresh_run(cli_server, home, example_project):
    forked, fresh = cli_both_ways(cli_server, home, example_project, "validate", "--json")

    assert (forked[0], forked[2]) == (fresh[0], fresh[2]) == (1, "")
    assert without_duration(json.loads(forked[1])) == without_duration(json.loads(fresh[1]))
    assert json.loads(forked[1])["data"]["missing"] == ["footer.copyright", "settings.search"]


def test_validate_text_on_the_example_is_the_fresh_run(cli_server, home, example_project):
    forked, fresh = cli_both_ways(cli_server, home, example_project, "validate")

    assert forked == fresh
    assert forked[0] == 1 and "footer.copyright" in forked[1]


def test_an_unknown_flag_is_the_fresh_run(cli_server, home, example_project):
    forked, fresh = cli_both_ways(cli_server, home, example_project, "validate", "--bogus")

    assert forked == fresh
    assert forked[0] == 2 and "--bogus" in forked[2]


def test_a_broken_config_is_the_fresh_run(cli_server, home, tmp_path):
    root = write_tree(tmp_path / "app", {"i18nprune.config.json": '{"locales": {"source": '})

    forked, fresh = cli_both_ways(cli_server, home, root, "validate", "--json")

    assert (forked[0], forked[2]) == (fresh[0], fresh[2])
    assert forked[0] != 0
    assert without_duration(json.loads(forked[1])) == without_duration(json.loads(fresh[1]))
    assert re.search(r"i18nprune\.config\.json", forked[1])
