"""A headless Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`:
commands on the child's fd 3, answers and events on its fd 4, each a JSON text ended by NUL),
so the tests need no browser driver package, only Debian's `chromium`."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# How long one protocol answer may take before the test fails (a hung browser, not a slow one).
_ANSWER_TIMEOUT = 60.0


class Chromium:
    """One headless browser with one page attached; `events` keeps every event received."""

    def __init__(self) -> None:
        assert CHROMIUM is not None
        self._profile = tempfile.mkdtemp(prefix="i18nprune-chromium-")
        to_child, self._commands = os.pipe()
        self._answers, from_child = os.pipe()

        def place_pipes() -> None:  # in the child, before exec: fds 3 and 4 as Chromium wants
            os.dup2(to_child, 3)
            os.dup2(from_child, 4)

        self.process = subprocess.Popen(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",  # CI runs as root
                "--disable-gpu",
                "--no-first-run",
                "--disable-extensions",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={self._profile}",
                "--remote-debugging-pipe",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(3, 4),
            preexec_fn=place_pipes,
        )
        os.close(to_child)
        os.close(from_child)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self._session = self.call("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]

    def call(self, method: str, session: bool = False, **params: Any) -> dict[str, Any]:
        """Send one command (to the page when `session`) and return its result."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self._session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        while True:
            received = self._receive(time.monotonic() + _ANSWER_TIMEOUT)
            if received.get("id") == self._next_id:
                if "error" in received:
                    raise RuntimeError(f"{method}: {received['error']}")
                result: dict[str, Any] = received.get("result", {})
                return result
            if "method" in received:
                self.events.append(received)

    def page(self, method: str, **params: Any) -> dict[str, Any]:
        return self.call(method, session=True, **params)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (raises on an exception)."""
        answer = self.page("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in answer:
            raise RuntimeError(f"{expression}: {answer['exceptionDetails']}")
        return answer["result"].get("value")

    def wait_for(self, method: str, after: int = 0) -> dict[str, Any]:
        """The first event `method` among those from index `after` on, waiting for it."""
        deadline = time.monotonic() + _ANSWER_TIMEOUT
        while True:
            for event in self.events[after:]:
                if event["method"] == method:
                    return event
            received = self._receive(deadline)
            if "method" in received:
                self.events.append(received)

    def press(self, key: str, code: str, key_code: int, text: str = "") -> None:
        """One key pressed and released, as a keyboard would."""
        for kind in ("keyDown", "keyUp"):
            self.page(
                "Input.dispatchKeyEvent",
                type=kind,
                key=key,
                code=code,
                windowsVirtualKeyCode=key_code,
                text=text if kind == "keyDown" else "",
            )

    def screenshot(self, path: Path) -> None:
        data = self.page("Page.captureScreenshot", format="png", captureBeyondViewport=True)
        path.write_bytes(base64.b64decode(data["data"]))

    def close(self) -> None:
        with contextlib.suppress(OSError, RuntimeError, TimeoutError, EOFError):
            self.call("Browser.close")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._commands)
        os.close(self._answers)
        shutil.rmtree(self._profile, ignore_errors=True)

    def _receive(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._answers], [], [], max(left, 0))
            if not ready:
                raise TimeoutError("chromium did not answer")
            chunk = os.read(self._answers, 1 << 16)
            if not chunk:
                raise EOFError("chromium closed its pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        decoded: dict[str, Any] = json.loads(message)
        return decoded
