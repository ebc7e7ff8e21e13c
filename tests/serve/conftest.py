"""Shared fixtures for the serve conformance tests: a factory that spawns real servers with an
isolated home and, at teardown, closes them and checks that stdout carried JSON-RPC lines only.

API (stable; other test files depend on it):

- `serve(*args, env=None, cwd=None, init=True) -> ServeClient` — spawn
  `python -m i18nprune serve *args` (pass `"--project", str(path)`, `"--allow-writes"`, …
  yourself; no arguments means hub mode) in `cwd` (None: the test's working directory).
  The environment is the test process's minus every `I18NPRUNE_*` variable and `CI`, plus
  `I18NPRUNE_HOME=<the home fixture>`, plus `env` (added on top). With `init=True` the client has
  sent `initialize` (protocol "1") and the server accepted it; `init=False` returns it untouched.
  Every client made is closed at teardown, then each stdout line it saw is checked by
  `assert_protocol_line`.
- `module_server(folder, *args)` — a generator for a module-scoped fixture: one initialized
  server (home under `folder`) shared by tests whose requests it refuses before any op runs;
  closed and its stdout checked like `serve`'s at the end.
- `serve_env(extra=None) -> dict[str, str]` (fixture `serve_env`, type `ServeEnv`) — that
  environment, for tests that spawn the process themselves.
- `hanging` (fixture) — a libre `FakeProvider` whose every request hangs until the client goes
  away.
- `assert_protocol_line(line)` — a complete stdout line (ends with `\\n`) holding one JSON-RPC 2.0
  object: a response (`id` plus exactly one non-null `result`/`error`; an error has an int
  `code`, a `message` and `data.code`) or a notification: `$/progress` with `params.id` and
  `params.event`, `$/changed` or `$/diagnostics`
  (docs/serve.md#watching-changed-and-diagnostics) with their params.
- `lines_before_ping(client, since) -> list[bytes]` — send a `ping` with a fresh string id, wait
  for its answer, and return the stdout lines after the first `since` that came before it: how a
  test shows that something sent earlier was never answered (`since = len(client.lines)` taken
  before sending it).
- `start_generate(client, fake, id=None) -> bytes` — submit `op.generate` with
  `{"target": "fr"}` and return its raw id once `fake` has received the op's first request.
- `translating_project(root, fake) -> Path` — write a one-key project under `root` (source `en`,
  key `greeting`, used in `src/app.ts`) whose `op.generate` with `{"target": "fr"}` translates
  through the loopback `fake` (a libre `FakeProvider`); with a `hang` fault that op stays in
  flight until cancelled.
- `gate` (fixture, type `Gate`) — holds an op in flight for as long as a test needs, without
  timing: `gate.env(path)` is the `env` for a server in which opening the file `path` (absolute,
  as the server names it) blocks the opening thread until `gate.release()`; `gate.wait_held(client)`
  returns once the server is blocked there. Ops open project files in worker threads, so the
  server keeps answering meanwhile.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import pytest

from i18nprune.testing import FakeProvider, Fault, ServeClient
from i18nprune.testing.client import RequestId
from tests.conftest import worker_zygote, write_tree

_probe_ids = itertools.count(1)
PUSHED = {
    "$/progress": {"id", "event"},
    "$/changed": {"projectRoot", "files", "summary"},
    "$/diagnostics": {"projectRoot", "path", "diagnostics"},
}
"""The notifications a server sends and their params keys (docs/serve.md#10-progress)."""
ServeEnv = Callable[[Mapping[str, str] | None], dict[str, str]]
"""The `serve_env` fixture's signature."""


LONG_AGO_NS = 1_600_000_000 * 10**9
"""An mtime far before any scan, so a scan trusts it (no racy-window doubt)."""


def watched_project(root: Path) -> Path:
    """A project for the scan index's tests whose code uses `home.title` (present) and
    `home.lost` (missing), its sources dated long ago."""
    write_tree(
        root,
        {
            "i18nprune.config.json": {"locales": {"source": "en"}},
            "locales/en.json": {"home": {"title": "Home", "intro": "Hi"}},
            "src/app.ts": "t('home.title');\nt('home.lost');\n",
            "src/feature/panel.ts": "t('home.intro');\n",
        },
    )
    for path in (root / "src").rglob("*"):
        os.utime(path, ns=(LONG_AGO_NS, LONG_AGO_NS))
    return root


class ServeFactory(Protocol):
    """The `serve` fixture's signature."""

    def __call__(
        self,
        *args: str,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
        init: bool = True,
    ) -> ServeClient: ...


def assert_protocol_line(line: bytes) -> None:
    """Fail unless `line` is one whole JSON-RPC 2.0 message the server may send."""
    assert line.endswith(b"\n"), f"partial stdout line: {line!r}"
    message = json.loads(line)
    assert isinstance(message, dict), f"not a JSON object: {line!r}"
    assert message.get("jsonrpc") == "2.0", f"jsonrpc is not '2.0': {line!r}"
    if "method" in message:
        assert message["method"] in PUSHED, f"unexpected server notification: {line!r}"
        assert "id" not in message, f"a notification with an id: {line!r}"
        params = message.get("params")
        assert isinstance(params, dict), f"notification without params: {line!r}"
        assert set(params) == PUSHED[message["method"]], f"params keys: {line!r}"
        if message["method"] == "$/progress":
            assert isinstance(params.get("event"), dict), line
        return
    assert "id" in message, f"a response without id: {line!r}"
    members = [key for key in ("result", "error") if key in message]
    assert len(members) == 1, f"not exactly one of result/error: {line!r}"
    assert message[members[0]] is not None, f"null {members[0]}: {line!r}"
    assert set(message) == {"jsonrpc", "id", members[0]}, f"extra keys: {line!r}"
    if members == ["error"]:
        error = message["error"]
        assert isinstance(error.get("code"), int), f"error code is not an int: {line!r}"
        assert isinstance(error.get("message"), str) and error["message"], line
        assert isinstance(error.get("data", {}).get("code"), str), f"no data.code: {line!r}"


def lines_before_ping(client: ServeClient, since: int) -> list[bytes]:
    """The stdout lines after the first `since` and before the answer to a fresh `ping`.

    The server reads lines in order and answers a line it refuses before reading the next, so
    any answer to what was sent before the ping is among these lines.
    """
    token = client.submit("ping", id=f"probe-{next(_probe_ids)}")
    answer = client.wait_response(token)
    assert answer.ok, answer.raw
    lines = client.lines
    return lines[since : lines.index(answer.raw, since)]


def start_generate(client: ServeClient, fake: FakeProvider, id: RequestId | None = None) -> bytes:
    """Submit `op.generate` into `fr`; its raw id, once `fake` has received its first request."""
    raw_id = client.submit("op.generate", {"options": {"target": "fr"}}, id=id)
    assert fake.wait_for_requests(1, timeout=20), client.stderr_text()
    return raw_id


def translating_project(root: Path, fake: FakeProvider) -> Path:
    """A one-key project under `root` whose `op.generate` translates through `fake` (libre)."""
    config = {
        "locales": {"source": "en"},
        "translate": {"primary": "libre", "providers": [{"id": "libre", "baseUrl": fake.base_url}]},
    }
    files: dict[str, str | bytes | dict[str, Any]] = {
        "i18nprune.config.json": config,
        "locales/en.json": {"greeting": "Hello"},
        "src/app.ts": "t('greeting');\n",
    }
    return write_tree(root, files)


# Injected into the server process (and its children) through PYTHONPATH, like a slow disk: it
# changes no code of ours, only how long one `open` takes.
GATE_HOOK = """
import os, sys, time

_held = os.environ.get("I18NPRUNE_TEST_GATE_PATH")
_release = os.environ.get("I18NPRUNE_TEST_GATE_RELEASE", "")


def _hook(event, args):
    if event == "open" and _held and isinstance(args[0], str) and args[0] == _held:
        if not os.path.exists(_release):
            os.write(2, ("test gate: holding " + args[0] + "\\n").encode())
        while not os.path.exists(_release):
            time.sleep(0.005)


sys.addaudithook(_hook)
"""


class Gate:
    """Blocks a server's `open` of one file until released (see the module docstring)."""

    def __init__(self, folder: Path) -> None:
        self._hook = folder / "gate-hook"
        self._hook.mkdir()
        (self._hook / "sitecustomize.py").write_text(GATE_HOOK)
        self._release = folder / "gate-released"

    def env(self, path: Path) -> dict[str, str]:
        """The environment additions for a server whose opening of `path` waits for release."""
        return {
            "PYTHONPATH": str(self._hook),
            "I18NPRUNE_TEST_GATE_PATH": str(path),
            "I18NPRUNE_TEST_GATE_RELEASE": str(self._release),
        }

    def wait_held(self, client: ServeClient) -> None:
        """Return once `client`'s server is blocked opening the gated file."""
        client.wait_stderr("test gate: holding", timeout=30)

    def release(self) -> None:
        """Let every blocked and later `open` of the file go on."""
        self._release.touch()


@pytest.fixture
def gate(tmp_path: Path) -> Gate:
    """A gate on one file for the servers of this test."""
    return Gate(tmp_path)


@pytest.fixture
def hanging() -> Iterator[FakeProvider]:
    """A libre fake whose every request hangs until the client goes away."""
    with FakeProvider("libre", faults=[Fault(kind="hang", times=-1)]) as fake:
        yield fake


@pytest.fixture
def serve_env(home: Path) -> ServeEnv:
    """Build a server environment: ours minus I18NPRUNE_* and CI, with the isolated home."""

    def build(extra: Mapping[str, str] | None = None) -> dict[str, str]:
        environ = {k: v for k, v in os.environ.items() if not k.startswith("I18NPRUNE_")}
        environ.pop("CI", None)
        environ["I18NPRUNE_HOME"] = str(home)
        environ.update(extra or {})
        return environ

    return build


def spawn_server(args: Sequence[str], env: Mapping[str, str], cwd: Path | None) -> ServeClient:
    """`ServeClient.spawn(*args, env=env, cwd=cwd)`, forked from the worker's fork server
    (`tests/zygote.py`) unless its start-up could differ there (then a fresh interpreter)."""
    zygote = worker_zygote()
    if zygote is not None and zygote.serves_server(cwd or Path.cwd(), env):
        return ServeClient(zygote.spawn(["serve", *args], cwd, env))  # type: ignore[arg-type]
    return ServeClient.spawn(*args, env=env, cwd=cwd)


def module_server(folder: Path, *args: str) -> Iterator[ServeClient]:
    """Yield an initialized server (`args` as for `serve`) whose home is `folder / "home"`, for a
    module-scoped fixture shared by tests whose every request the server refuses before any op
    runs (invalid params, unknown method, no root): a refusal leaves the session as it was, so
    one process answers them all instead of one per test. Closed at the end, then its stdout
    checked as the `serve` fixture checks its servers'."""
    home = folder / "home"
    home.mkdir()
    environ = {k: v for k, v in os.environ.items() if not k.startswith("I18NPRUNE_")}
    environ.pop("CI", None)
    environ["I18NPRUNE_HOME"] = str(home)
    client = spawn_server(args, environ, None)
    try:
        client.initialize()
        yield client
    finally:
        client.close()
    for line in client.lines:
        assert_protocol_line(line)


@pytest.fixture
def serve(serve_env: ServeEnv) -> Iterator[ServeFactory]:
    """Spawn servers for one test; close them all and check their stdout at teardown."""
    clients: list[ServeClient] = []

    def spawn(
        *args: str,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
        init: bool = True,
    ) -> ServeClient:
        client = spawn_server(args, serve_env(env), cwd)
        clients.append(client)
        if init:
            client.initialize()
        return client

    yield spawn
    for client in clients:
        client.close()
    for client in clients:
        for line in client.lines:
            assert_protocol_line(line)
