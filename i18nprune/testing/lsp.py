"""A small LSP client for tests and benchmarks: a real `i18nprune lsp` subprocess over pipes, framed
messages, a reader thread that collects what the server sends.

API: `LspClient.start(env, cwd)`; `request(method, params) -> result` (raises `LspFailure` for an
error answer); `notify(method, params)`; `wait_for(predicate, what)` → the first message the
predicate accepts (waits without a wall-clock assertion: a generous timeout only ends a hung
test); `diagnostics(uri, version=None)` → the newest `publishDiagnostics` of `uri` (at that
version, when given); `initialize(folders)`; `open(path, text=None)`; `change(path, text)`;
`close()` (shutdown, exit, and the exit code).
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

HUNG_TEST_SECONDS = 60.0
"""Only for a server that never answers: ends the test instead of hanging it."""


class LspFailure(Exception):
    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(f"{error.get('code')}: {error.get('message')}")
        self.code = error.get("code")
        self.message = str(error.get("message"))


class LspClient:
    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.messages: list[dict[str, Any]] = []
        self._changed = threading.Condition()
        self._ids = itertools.count(1)
        self._versions: dict[str, int] = {}
        self.stderr = b""
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._err = threading.Thread(target=self._read_stderr, daemon=True)
        self._err.start()

    @classmethod
    def start(
        cls, *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
    ) -> LspClient:
        process = subprocess.Popen(
            [sys.executable, "-m", "i18nprune", "lsp", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env if env is not None else dict(os.environ),
            cwd=cwd,
        )
        return cls(process)

    # --- wire ----------------------------------------------------------------------------

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            assert length is not None, "a message without Content-Length"
            message = json.loads(stream.read(length))
            with self._changed:
                self.messages.append(message)
                self._changed.notify_all()

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            with self._changed:
                self.stderr += line
                self._changed.notify_all()

    def wait_stderr(self, text: str) -> None:
        """Return once the server's stderr holds `text`."""
        with self._changed:
            while text.encode() not in self.stderr:
                if not self._changed.wait(HUNG_TEST_SECONDS):
                    raise AssertionError(f"{text!r} never reached stderr")

    def wait_for(
        self, predicate: Callable[[dict[str, Any]], bool], what: str, start: int = 0
    ) -> dict[str, Any]:
        with self._changed:
            seen = start
            while True:
                for message in self.messages[seen:]:
                    if predicate(message):
                        return message
                seen = len(self.messages)
                if self.process.poll() is not None and not self._reader.is_alive():
                    raise AssertionError(f"the server ended before {what}: {self.stderr.decode()}")
                if not self._changed.wait(HUNG_TEST_SECONDS):
                    raise AssertionError(f"no {what} (stderr: {self.stderr.decode()[-2000:]})")

    # --- requests ------------------------------------------------------------------------

    def request(self, method: str, params: Any) -> Any:
        request_id = next(self._ids)
        self.send({"id": request_id, "method": method, "params": params})
        answer = self.wait_for(
            lambda m: m.get("id") == request_id and "method" not in m, f"answer to {method}"
        )
        if "error" in answer:
            raise LspFailure(answer["error"])
        return answer["result"]

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def initialize(
        self,
        *folders: Path,
        capabilities: dict[str, Any] | None = None,
        options: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        result = self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": folders[0].as_uri() if folders else None,
                "workspaceFolders": [{"uri": f.as_uri(), "name": f.name} for f in folders],
                "capabilities": capabilities or {},
                "initializationOptions": options,
            },
        )
        self.notify("initialized", {})
        return result

    def open(self, path: Path, text: str | None = None, language: str = "typescript") -> str:
        uri = path.as_uri()
        self._versions[uri] = 1
        self.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": uri,
                    "languageId": language,
                    "version": 1,
                    "text": path.read_text() if text is None else text,
                }
            },
        )
        return uri

    def change(self, path: Path, text: str) -> int:
        uri = path.as_uri()
        self._versions[uri] += 1
        version = self._versions[uri]
        self.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
        )
        return version

    def diagnostics(
        self, uri: str, version: int | None = None, start: int = 0
    ) -> list[dict[str, Any]]:
        """The first publishDiagnostics of `uri` (at `version`) after message `start`."""

        def wanted(message: dict[str, Any]) -> bool:
            params = message.get("params") or {}
            return (
                message.get("method") == "textDocument/publishDiagnostics"
                and params.get("uri") == uri
                and (version is None or params.get("version") == version)
            )

        return self.wait_for(wanted, f"diagnostics of {uri}", start)["params"]["diagnostics"]

    def at(self, uri: str, line: int, character: int) -> dict[str, Any]:
        return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}

    def close(self) -> int:
        if self.process.poll() is None:
            try:
                self.request("shutdown", None)
                self.notify("exit", None)
            except (BrokenPipeError, AssertionError):
                pass
        try:
            return self.process.wait(HUNG_TEST_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise
