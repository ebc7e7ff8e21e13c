"""Lifecycle conformance of the real server (docs/serve.md §1, §2, §4): initialize and what it
describes, the not-initialized gate, ping, shutdown, every way the process ends, startup
failures, and a stdout that nothing but protocol lines can reach."""

from __future__ import annotations

import json
import os
import platform
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from i18nprune import __version__
from i18nprune.ops.engine.registry import OPS
from i18nprune.testing import FakeProvider
from tests.serve.conftest import (
    Gate,
    ServeEnv,
    ServeFactory,
    assert_protocol_line,
    lines_before_ping,
    start_generate,
    translating_project,
)

NOT_INITIALIZED = (-32002, "SERVE_NOT_INITIALIZED")
SHUTTING_DOWN = (-32600, "SERVE_SHUTTING_DOWN")
UNSUPPORTED = (-32602, "SERVE_UNSUPPORTED_PROTOCOL")
GATED = "locales/en.json"
"""The file a gated `op.generate` of `translating_project` waits to read (in a worker thread)."""
REQUIRED_OPS = {
    "config",
    "doctor",
    "validate",
    "languages",
    "providers",
    "sync",
    "generate",
    "cleanup",
    "locales.delete",
}
GENERATE_FR = {"options": {"target": "fr"}}


def codes(response: object) -> tuple[int, str]:
    error = getattr(response, "error", None)
    assert error is not None, getattr(response, "raw", response)
    return error.code, error.data["code"]


# --- initialize -------------------------------------------------------------------------------


def test_initialize_describes_a_sandbox_server(
    serve: ServeFactory, example_project: Path, tmp_path: Path
) -> None:
    link = tmp_path / "link-to-app"
    link.symlink_to(example_project)
    result = serve("--project", str(link), init=False).initialize()
    assert set(result) == {
        "protocolVersion",
        "serverInfo",
        "apiVersion",
        "rootMode",
        "projectRoot",
        "capabilities",
    }
    assert result["protocolVersion"] == "1"
    assert result["serverInfo"] == {
        "name": "i18nprune",
        "version": __version__,
        "python": platform.python_version(),  # the server runs on this interpreter
    }
    assert result["apiVersion"] == "1"
    assert result["rootMode"] == "sandbox"
    assert result["projectRoot"] == os.path.realpath(example_project)


def test_capabilities_are_derived_from_the_op_registry(serve: ServeFactory) -> None:
    capabilities = serve(init=False).initialize()["capabilities"]
    assert set(capabilities) == {
        "ops",
        "progress",
        "progressOps",
        "writeOps",
        "cancelScope",
        "writes",
        "watch",
    }
    assert sorted(capabilities["ops"]) == sorted(OPS)
    assert len(capabilities["ops"]) == len(set(capabilities["ops"]))
    assert set(capabilities["ops"]) >= REQUIRED_OPS
    assert set(capabilities["progressOps"]) == {"validate", "sync", "generate"}
    assert set(capabilities["progressOps"]) == {name for name, op in OPS.items() if op.progress}
    assert set(capabilities["writeOps"]) == {name for name, op in OPS.items() if op.writes}
    assert {"sync", "generate", "cleanup", "locales.delete"} <= set(capabilities["writeOps"])
    assert set(capabilities["writeOps"]) <= set(capabilities["ops"])
    assert capabilities["progress"] is True
    assert capabilities["cancelScope"] == "running"
    assert capabilities["writes"] is False


def test_the_initialize_answer_in_the_docs_is_the_real_one(
    serve: ServeFactory, example_project: Path
) -> None:
    """docs/serve.md shows a read-only server's `initialize` answer: its capabilities are
    what the server answers today (the root and the Python version are the reader's own)."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "serve.md").read_text("utf-8")
    start = text.index("```json", text.index("This is the real answer of")) + len("```json")
    documented = json.loads(text[start : text.index("```", start)])

    real = serve("--project", str(example_project), init=False).initialize()

    assert documented["capabilities"] == real["capabilities"]
    assert set(documented) == set(real)


def test_hub_mode_has_a_null_project_root(serve: ServeFactory) -> None:
    result = serve(init=False).initialize()
    assert result["rootMode"] == "hub"
    assert "projectRoot" in result and result["projectRoot"] is None


@pytest.mark.slow
def test_allow_writes_is_reported_in_capabilities(
    serve: ServeFactory, example_project: Path
) -> None:
    client = serve("--project", str(example_project), "--allow-writes", init=False)
    assert client.initialize()["capabilities"]["writes"] is True


@pytest.mark.slow
def test_initialize_ignores_other_params(serve: ServeFactory) -> None:
    client = serve(init=False)
    result = client.initialize(
        clientInfo={"name": "editor", "version": "9"}, capabilities={"x": [1]}, trace="off"
    )
    assert result["protocolVersion"] == "1"


@pytest.mark.slow
def test_an_unsupported_or_missing_protocol_version_fails_closed_naming_the_supported_ones(
    serve: ServeFactory,
) -> None:
    client = serve(init=False)
    for params in [None, {}, {"protocolVersion": "2"}, {"protocolVersion": 1},
                   {"protocolVersion": "1.0"}, {"protocolVersion": None},
                   {"protocolVersion": ["1"]}, {"version": "1"}]:  # fmt: skip
        response = client.request("initialize", params)
        assert codes(response) == UNSUPPORTED, params
        assert response.error is not None
        assert response.error.data["supported"] == ["1"]
        assert '"1"' in response.error.message
        # Still not initialized: ops are refused.
        assert codes(client.request("op.languages")) == NOT_INITIALIZED
    assert client.initialize()["protocolVersion"] == "1"


@pytest.mark.slow
def test_a_second_initialize_is_refused_and_the_session_goes_on(serve: ServeFactory) -> None:
    client = serve()
    again = client.request("initialize", {"protocolVersion": "1"})
    assert codes(again) == (-32600, "SERVE_INVALID_REQUEST")
    assert client.request("op.languages", {"options": {"filter": "fr"}}).ok


# --- before initialize ------------------------------------------------------------------------


@pytest.mark.slow
def test_every_op_and_unknown_method_is_refused_before_initialize(serve: ServeFactory) -> None:
    client = serve(init=False)
    for method in [*(f"op.{name}" for name in OPS), "op.bogus", "bogus"]:
        response = client.request(method, {"options": {}})
        assert codes(response) == NOT_INITIALIZED, method


@pytest.mark.slow
def test_ping_and_cancel_are_answered_before_initialize(serve: ServeFactory) -> None:
    client = serve(init=False)
    assert client.ping() == {}
    assert client.request("$/cancelRequest", {"id": 42}).result == {}
    since = len(client.lines)
    client.cancel(43)
    assert lines_before_ping(client, since) == []
    client.initialize()
    assert client.ping() == {}


@pytest.mark.slow
def test_shutdown_before_initialize_is_accepted(serve: ServeFactory) -> None:
    client = serve(init=False)
    assert client.shutdown() == {}
    assert codes(client.request("initialize", {"protocolVersion": "1"})) == SHUTTING_DOWN
    client.exit()
    assert client.wait_exit() == 0


@pytest.mark.slow
def test_exit_before_initialize_ends_with_code_0(serve: ServeFactory) -> None:
    client = serve(init=False)
    client.exit()
    assert client.wait_exit() == 0


# --- shutdown and exit ------------------------------------------------------------------------


@pytest.mark.slow
def test_after_shutdown_every_new_request_is_refused_shutting_down(serve: ServeFactory) -> None:
    client = serve()
    assert client.shutdown() == {}
    for method, params in [
        ("ping", None),
        ("initialize", {"protocolVersion": "1"}),
        ("op.languages", None),
        ("op.bogus", None),
        ("bogus", None),
        ("shutdown", None),
    ]:
        assert codes(client.request(method, params)) == SHUTTING_DOWN, method
    client.exit()
    assert client.wait_exit() == 0


@pytest.mark.slow
def test_shutdown_as_a_notification_also_shuts_down(serve: ServeFactory) -> None:
    client = serve()
    client.notify("shutdown")
    assert codes(client.request("ping")) == SHUTTING_DOWN


@pytest.mark.slow
def test_a_request_in_flight_at_shutdown_is_still_answered(
    serve: ServeFactory, tmp_path: Path, gate: Gate
) -> None:
    with FakeProvider("libre") as fake:
        root = translating_project(tmp_path / "app", fake).resolve()
        # generate stays in flight, reading the source locale, until the gate opens.
        client = serve("--project", str(root), "--allow-writes", env=gate.env(root / GATED))
        job = client.submit("op.generate", {"options": {"target": "fr"}})
        gate.wait_held(client)
        shut = client.request("shutdown")
        refused = client.request("ping")
        gate.release()
        envelope = client.wait_response(job, timeout=20)
    # The shutdown answer does not wait for the request in flight.
    assert client.lines.index(shut.raw) < client.lines.index(envelope.raw)
    assert shut.result == {}
    assert codes(refused) == SHUTTING_DOWN
    assert envelope.ok and envelope.result["ok"] is True
    assert (root / "locales" / "fr.json").exists()
    client.exit()
    assert client.wait_exit() == 0


@pytest.mark.slow
def test_exit_notification_ends_with_code_0(serve: ServeFactory) -> None:
    client = serve()
    client.exit()
    assert client.wait_exit() == 0
    assert "Traceback" not in client.stderr_text()


@pytest.mark.slow
def test_end_of_input_ends_with_code_0(serve: ServeFactory) -> None:
    client = serve()
    client.close_stdin()
    assert client.wait_exit() == 0
    assert "Traceback" not in client.stderr_text()


@pytest.mark.slow
def test_end_of_input_answers_the_requests_in_flight_first(
    serve: ServeFactory, tmp_path: Path, gate: Gate
) -> None:
    with FakeProvider("libre") as fake:
        root = translating_project(tmp_path / "app", fake).resolve()
        client = serve("--project", str(root), "--allow-writes", env=gate.env(root / GATED))
        job = client.submit("op.generate", {"options": {"target": "fr"}})
        gate.wait_held(client)
        client.close_stdin()  # while generate is held in flight
        gate.release()
        envelope = client.wait_response(job, timeout=20)
        assert client.wait_exit(timeout=20) == 0
    assert envelope.ok and envelope.result["ok"] is True


@pytest.mark.slow
def test_a_closed_stdout_ends_with_code_0_quietly(serve_env: ServeEnv) -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "i18nprune", "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=serve_env(None),
    )
    assert server.stdin is not None and server.stdout is not None and server.stderr is not None
    try:
        server.stdin.write(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n')
        server.stdin.flush()
        assert server.stdout.readline() == b'{"jsonrpc":"2.0","id":1,"result":{}}\n'
        server.stdout.close()  # the client went away; stdin stays open
        server.stdin.write(b'{"jsonrpc":"2.0","id":2,"method":"ping"}\n')
        server.stdin.flush()
        code = server.wait(timeout=10)
        stderr = server.stderr.read().decode()
    finally:
        server.kill()
        server.wait()
        server.stdin.close()
        server.stderr.close()
    assert code == 0
    assert "Traceback" not in stderr and "Error" not in stderr


@pytest.mark.slow
def test_sigint_ends_with_code_130_quietly(serve: ServeFactory) -> None:
    client = serve()
    client.process.send_signal(signal.SIGINT)
    assert client.wait_exit() == 130
    assert "Traceback" not in client.stderr_text()


# --- idle timeout -----------------------------------------------------------------------------


@pytest.mark.slow
def test_idle_timeout_ends_with_code_0_and_a_stderr_line(serve: ServeFactory) -> None:
    client = serve("--idle-timeout", "1", init=False)
    # Timed from before the last message is sent: the server reads it later, so a slow
    # answer cannot make a correct server look early.
    sent = time.monotonic()
    client.initialize()
    assert client.wait_exit(timeout=10) == 0
    assert time.monotonic() - sent >= 0.9
    assert "serve: idle for 1 s; exiting" in client.stderr_text()
    assert "Traceback" not in client.stderr_text()


@pytest.mark.slow
def test_idle_timeout_does_not_fire_while_a_request_is_in_flight(
    serve: ServeFactory, tmp_path: Path, hanging: FakeProvider
) -> None:
    root = translating_project(tmp_path / "app", hanging)
    client = serve("--project", str(root), "--allow-writes", "--idle-timeout", "0.5")
    job = start_generate(client, hanging)
    time.sleep(1.2)  # what is measured: more than the idle timeout with no message sent
    assert client.process.poll() is None
    client.cancel(job)
    assert codes(client.wait_response(job)) == (-32800, "SERVE_REQUEST_CANCELLED")
    # Idle again once nothing is in flight.
    assert client.wait_exit(timeout=10) == 0
    assert "idle for 0.5 s" in client.stderr_text()


@pytest.mark.slow
def test_every_incoming_message_restarts_the_idle_timeout(serve: ServeFactory) -> None:
    # A message every 0.1 s for 1.5 times the timeout: the server would have to stall for
    # nearly the whole timeout (2 s) to miss one.
    client = serve("--idle-timeout", "2")
    started = time.monotonic()
    while time.monotonic() - started < 3:
        client.notify("ping")  # a notification resets it too
        time.sleep(0.1)
    assert client.process.poll() is None
    assert client.ping() == {}
    assert client.wait_exit(timeout=10) == 0


@pytest.mark.slow
def test_idle_timeout_0_disables_it(serve: ServeFactory) -> None:
    client = serve("--idle-timeout", "0")
    time.sleep(1.0)  # what is measured: the server is still there, idle
    assert client.process.poll() is None
    assert client.ping() == {}


# --- startup failures -------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ["serve", "--project", "{missing}"],
        ["serve", "--project", "{file}"],
        ["--project", "{missing}", "serve"],
        ["serve", "--bogus"],
        ["--json", "serve", "--bogus"],
        ["serve", "--idle-timeout", "soon"],
        ["serve", "--idle-timeout", "-1"],
        ["serve", "--idle-timeout", "nan"],
        ["serve", "--idle-timeout", "inf"],
        ["serve", "--workers", "0"],
        ["serve", "extra-argument"],
        ["--config", "{file}", "serve"],
    ],
    ids=lambda args: " ".join(args),
)
def test_a_server_that_cannot_start_writes_nothing_to_stdout_and_exits_non_zero(
    serve_env: ServeEnv, tmp_path: Path, args: list[str]
) -> None:
    file = tmp_path / "file.txt"
    file.write_text("not a directory\n")
    argv = [arg.format(missing=tmp_path / "missing", file=file) for arg in args]
    done = subprocess.run(
        [sys.executable, "-m", "i18nprune", *argv],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=serve_env(None),
        timeout=60,
    )
    assert done.returncode == 2  # non-zero, 2 as docs/serve.md §13 says
    assert done.stdout == b""
    assert done.stderr.strip(), "the reason goes to stderr"
    assert b"Traceback" not in done.stderr


# --- stdout purity ----------------------------------------------------------------------------

# Stray output injected into the server and its workers (not into our code): whenever the
# server opens a JSON file of the project, or any process opens a socket, it prints, writes to
# fd 1 directly, warns, and runs a child process that writes to the fd 1 it inherited.
STRAY_OUTPUT = """
import os, subprocess, sys, warnings

_root = os.environ.get("I18NPRUNE_TEST_STRAY_ROOT", "\\0")
_busy = False


def _stray(where):
    global _busy
    _busy = True
    try:
        print("STRAY print " + where)
        sys.stdout.flush()
        os.write(1, ("STRAY fd1 " + where + "\\n").encode())
        warnings.warn("STRAY warning " + where)
        subprocess.run(["/bin/echo", "STRAY child " + where], check=False)
    finally:
        _busy = False


def _hook(event, args):
    if _busy:
        return
    if event == "open" and isinstance(args[0], str) and args[0].startswith(_root):
        if args[0].endswith(".json"):
            _stray("server")
    elif event == "socket.connect":
        _stray("worker")


sys.addaudithook(_hook)
"""


@pytest.mark.slow
def test_stray_output_of_ops_libraries_and_children_never_reaches_stdout(
    serve: ServeFactory, tmp_path: Path
) -> None:
    inject = tmp_path / "inject"
    inject.mkdir()
    (inject / "sitecustomize.py").write_text(STRAY_OUTPUT)
    with FakeProvider("libre") as fake:
        root = translating_project(tmp_path / "app", fake).resolve()
        env = {"PYTHONPATH": str(inject), "I18NPRUNE_TEST_STRAY_ROOT": str(root)}
        client = serve("--project", str(root), "--allow-writes", env=env)
        assert client.request("op.validate", {"options": {}}).ok
        generated = client.request("op.generate", GENERATE_FR, timeout=30).unwrap()
    assert generated["ok"] is True, generated["issues"]
    stderr = client.stderr_text()
    for marker in ("print", "fd1", "warning", "child"):
        assert f"STRAY {marker} server" in stderr
        assert f"STRAY {marker} worker" in stderr
    for line in client.lines:
        assert b"STRAY" not in line
        assert_protocol_line(line)
