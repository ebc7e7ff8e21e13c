"""A synchronous client for `i18nprune serve`: spawns the server, writes protocol lines, and
correlates answers and `$/progress` by the raw id token, keeping a full transcript of stdout.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import queue
import select
import signal
import subprocess
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from types import TracebackType
from typing import IO, Any

import msgspec

RequestId = int | str | bytes
"""An id as the client API takes it: an int or str is JSON-encoded; bytes is a raw JSON token
(`b"1.10"`, `b'"7"'`) sent and matched byte for byte."""


class _Outgoing:
    """A line for the writer thread (None: close stdin), and how writing it went."""

    def __init__(self, data: bytes | None) -> None:
        self.data = data
        self.done = threading.Event()
        self.failed = False


_STOP = _Outgoing(None)
_DIRECT_WRITE_BYTES: int = getattr(select, "PIPE_BUF", 512)
"""A line this small goes straight into a pipe that has room: such a write never blocks."""


class ErrorObject(msgspec.Struct, frozen=True):
    """The `error` member of a response: JSON-RPC code, a sentence, and `data` (`data["code"]` is
    the `SERVE_…` code)."""

    code: int
    message: str
    data: dict[str, Any] = msgspec.field(default_factory=dict)


class ServeError(Exception):
    """A response carried an `error`; raised by `Response.unwrap`."""

    def __init__(self, error: ErrorObject) -> None:
        super().__init__(f"{error.code} {error.data.get('code', '')}: {error.message}")
        self.error = error

    @property
    def code(self) -> int:
        return self.error.code

    @property
    def serve_code(self) -> str | None:
        """`error.data.code` (`SERVE_WRITES_DISABLED`, …), when the server sent one."""
        code = self.error.data.get("code")
        return code if isinstance(code, str) else None


# How long a closed stdout waits for the rest of stderr (EOF comes once the server has exited).
_STDERR_GRACE = 2.0


class Notification(msgspec.Struct, frozen=True):
    """A message from the server without an id: `$/changed`, `$/diagnostics`, …"""

    method: str
    params: Any


class ServeTimeout(TimeoutError):
    """No answer (or exit, or stdin write) within the timeout; the message ends with the tail of
    the server's stderr."""


class ServeClosed(ConnectionError):
    """The server's stdout closed (or its stdin broke) before the awaited answer; the message ends
    with the tail of the server's stderr (a server that could not start says why there)."""


class Response(msgspec.Struct, frozen=True, kw_only=True):
    """One response line. `raw` is the line exactly as read (with its `\\n`), `id` the raw id token
    (`b"1.10"`, `b'"7"'`, `b"null"`). `has_result` / `has_error` say which key was present, so a
    `"result": null` is told apart from an absent result."""

    raw: bytes
    id: bytes
    result: Any = None
    error: ErrorObject | None = None
    has_result: bool = False
    has_error: bool = False

    @property
    def ok(self) -> bool:
        """A result and no error."""
        return self.has_result and not self.has_error

    def unwrap(self) -> Any:
        """The result; raises ServeError for an error response (or a line that is neither a
        result nor a well-formed error, with code 0)."""
        if self.has_error or not self.has_result:
            raise ServeError(self.error or ErrorObject(0, f"not a result: {self.raw!r}"))
        return self.result


class _Incoming(msgspec.Struct):
    # An empty Raw means "key absent"; a present null is Raw(b"null").
    id: msgspec.Raw = msgspec.Raw()
    method: str | None = None
    params: msgspec.Raw = msgspec.Raw()
    result: msgspec.Raw = msgspec.Raw()
    error: msgspec.Raw = msgspec.Raw()


class _ProgressParams(msgspec.Struct):
    id: msgspec.Raw
    event: dict[str, Any]


_incoming = msgspec.json.Decoder(_Incoming)
_progress_params = msgspec.json.Decoder(_ProgressParams)
_error_object = msgspec.json.Decoder(ErrorObject)
_any = msgspec.json.Decoder()
_encoder = msgspec.json.Encoder()


def raw_id(id: RequestId) -> bytes:
    """The raw JSON token of an id: bytes as given, an int or str JSON-encoded."""
    return id if isinstance(id, bytes) else _encoder.encode(id)


class ServeClient:
    """Drives one server subprocess over its pipes. Thread-safe: any thread may send and wait.

    A reader thread keeps every stdout line and routes responses by raw id (several answers to one
    id, e.g. a refused duplicate, queue up in order) and `$/progress` events by `params.id`; a
    second thread drains stderr so the server never blocks on it; a writer thread writes lines in
    the order they were sent. Every wait has a timeout. Use it as a context manager: leaving the
    block closes stdin, waits briefly, and kills the server (and its process group) if needed.
    """

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        """Take over a process started with stdin, stdout and stderr pipes."""
        if process.stdin is None or process.stdout is None or process.stderr is None:
            raise ValueError("the process needs stdin, stdout and stderr pipes")
        self.process = process
        self._changed = threading.Condition()
        self._lines: list[bytes] = []
        self._responses: dict[bytes, list[Response]] = defaultdict(list)
        self._progress: dict[bytes, list[dict[str, Any]]] = defaultdict(list)
        self._notifications: list[Notification] = []
        self._unroutable = 0
        self._stdout_closed = False
        self._stderr = bytearray()
        self._ids = itertools.count(1)
        self._outbox: queue.SimpleQueue[_Outgoing] = queue.SimpleQueue()
        self._write_turn = threading.Lock()
        self._queued = 0
        """Lines handed to the writer thread and not yet written (guarded by `_write_turn`)."""
        self._threads = [
            self._start(self._read_stdout, process.stdout),
            self._start(self._drain_stderr, process.stderr),
            self._start(self._write_stdin, process.stdin),
        ]

    @classmethod
    def spawn(
        cls,
        *args: str,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        command: Sequence[str] | None = None,
    ) -> ServeClient:
        """Start `python -m i18nprune serve *args` (or `command`, e.g. `["wsl.exe", …]`).

        `env` replaces the environment, as in `subprocess` (None: inherit). On POSIX the server
        gets its own process group so that `close` can kill it together with its workers.
        """
        argv = [sys.executable, "-m", "i18nprune", "serve", *args] if command is None else command
        process = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(env) if env is not None else None,
            cwd=cwd,
            start_new_session=os.name == "posix",
        )
        return cls(process)

    # -- sending ---------------------------------------------------------------------------

    def send(self, message: Mapping[str, Any] | bytes, *, timeout: float = 10.0) -> None:
        """Write one message: a mapping as compact JSON plus `\\n`, bytes exactly as given (so a
        test can send broken or partial lines). Raises ServeTimeout when the server does not read
        it in time, ServeClosed when its stdin is gone."""
        data = message if isinstance(message, bytes) else _encoder.encode(message) + b"\n"
        self._enqueue(data, timeout)

    def submit(
        self, method: str, params: Mapping[str, Any] | None = None, *, id: RequestId | None = None
    ) -> bytes:
        """Send a request without waiting; returns its raw id token for `wait_response`,
        `progress` and `cancel`. `id=None` picks the next auto id (1, 2, …; do not mix it with
        explicit int ids you also use)."""
        token = raw_id(id if id is not None else next(self._ids))
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": msgspec.Raw(token), "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return token

    def request(
        self,
        method: str,
        params: Mapping[str, Any] | None = None,
        *,
        id: RequestId | None = None,
        timeout: float = 10.0,
    ) -> Response:
        """Send a request and wait for its response (see `wait_response`)."""
        return self.wait_response(self.submit(method, params, id=id), timeout=timeout)

    def request_raw_id(
        self,
        raw_id: bytes,
        method: str,
        params: Mapping[str, Any] | None = None,
        *,
        timeout: float = 10.0,
    ) -> Response:
        """Send a request whose id is the raw JSON token `raw_id` and wait for its response."""
        return self.request(method, params, id=raw_id, timeout=timeout)

    def notify(self, method: str, params: Mapping[str, Any] | None = None) -> None:
        """Send a notification (no id; never answered)."""
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def cancel(self, id: RequestId) -> None:
        """Send `$/cancelRequest` for `id` (bytes: the raw token, sent verbatim)."""
        self.notify("$/cancelRequest", {"id": msgspec.Raw(raw_id(id))})

    def initialize(self, *, timeout: float = 10.0, **extra: Any) -> Any:
        """`initialize` with protocol version "1" (plus `extra` params); returns the result.
        Raises ServeError when refused."""
        params = {"protocolVersion": "1", **extra}
        return self.request("initialize", params, timeout=timeout).unwrap()

    def ping(self, *, timeout: float = 10.0) -> Any:
        """`ping`; returns the result (`{}`). Raises ServeError when refused."""
        return self.request("ping", timeout=timeout).unwrap()

    def op(
        self,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        root: str | os.PathLike[str] | None = None,
        timeout: float = 60.0,
    ) -> dict[str, Any]:
        """Run `op.<name>` with `options` (in `root`, for a hub-mode server) and return its
        envelope (`{ok, kind, data, issues, meta}`). Raises ServeError when refused."""
        params: dict[str, Any] = {"options": dict(options or {})}
        if root is not None:
            params["projectRoot"] = os.fspath(root)
        envelope: dict[str, Any] = self.request(f"op.{name}", params, timeout=timeout).unwrap()
        return envelope

    def file(self, path: str, *, text: str | None = None, **params: Any) -> dict[str, Any]:
        """`op.file`: diagnostics and key sites of one file (of the unsaved `text` when given);
        returns the envelope. `params` may carry `root` and `timeout` (see `op`)."""
        options = {"path": path} if text is None else {"path": path, "text": text}
        return self.op("file", options, **params)

    def key(self, key: str | None = None, **params: Any) -> dict[str, Any]:
        """`op.key` by name (`key`) or by position (`path=…, line=…, column=…`); returns the
        envelope. `root` and `timeout` go to `op`."""
        extra = {name: params.pop(name) for name in ("root", "timeout") if name in params}
        options = {**params, **({"key": key} if key is not None else {})}
        return self.op("key", options, **extra)

    def keys(self, prefix: str = "", *, limit: int = 100, **params: Any) -> dict[str, Any]:
        """`op.keys`: source-locale keys starting with `prefix`; returns the envelope."""
        return self.op("keys", {"prefix": prefix, "limit": limit}, **params)

    def set_key(
        self, key: str, locale: str, value: str, *, create: bool = False, **params: Any
    ) -> dict[str, Any]:
        """`op.key.set` (a write op: the server needs `--allow-writes`), creating the locale
        file when there is none only with `create`; returns the envelope."""
        options = {"key": key, "locale": locale, "value": value, "create": create}
        return self.op("key.set", options, **params)

    def workspace(self, **params: Any) -> dict[str, Any]:
        """`op.workspace`: the projects of the workspace at the root; returns the envelope."""
        return self.op("workspace", **params)

    def shutdown(self, *, timeout: float = 10.0) -> Any:
        """`shutdown`; returns the result (`{}`). The server answers at once; requests in flight
        are still answered after it."""
        return self.request("shutdown", timeout=timeout).unwrap()

    def exit(self) -> None:
        """Send the `exit` notification."""
        self.notify("exit")

    def close_stdin(self, *, timeout: float = 10.0) -> None:
        """Close the server's stdin (end of input) after every line sent before it."""
        self._enqueue(None, timeout)

    # -- receiving -------------------------------------------------------------------------

    def wait_response(self, id: RequestId, *, timeout: float = 10.0) -> Response:
        """The next unclaimed response for `id` (bytes: raw token; `b"null"` for answers the
        server could not attach to an id). Raises ServeTimeout after `timeout` seconds and
        ServeClosed as soon as stdout has closed with no such response left."""
        token = raw_id(id)
        with self._changed:
            arrived = self._changed.wait_for(
                lambda: bool(self._responses.get(token)) or self._stdout_closed, timeout
            )
            if self._responses.get(token):
                return self._responses[token].pop(0)
            unroutable = self._unroutable
        if arrived:
            # The reason a server ended is on stderr, which its own thread may not have read yet.
            self._threads[1].join(_STDERR_GRACE)
            raise ServeClosed(f"stdout closed without a response to id {token!r}{self._tail()}")
        extra = f" ({unroutable} unroutable stdout line(s) seen)" if unroutable else ""
        raise ServeTimeout(f"no response to id {token!r} within {timeout} s{extra}{self._tail()}")

    def notifications(self, method: str | None = None) -> list[Notification]:
        """Every notification the server sent so far other than `$/progress` (`$/changed`,
        `$/diagnostics`, …), in order; only those of `method` when given."""
        with self._changed:
            return [n for n in self._notifications if method is None or n.method == method]

    def wait_notification(
        self,
        method: str,
        matches: Callable[[Any], bool] | None = None,
        *,
        after: int = 0,
        timeout: float = 10.0,
    ) -> Notification:
        """The first `method` notification whose params satisfy `matches` (any, when None),
        among those received after the first `after` notifications (see `notifications`: pass
        `len(client.notifications())` taken before the action that should cause it). Raises
        ServeTimeout after `timeout` seconds, ServeClosed when stdout closed first."""

        def found() -> Notification | None:
            for notification in self._notifications[after:]:
                if notification.method == method and (
                    matches is None or matches(notification.params)
                ):
                    return notification
            return None

        with self._changed:
            self._changed.wait_for(lambda: found() is not None or self._stdout_closed, timeout)
            hit = found()
        if hit is not None:
            return hit
        if self._stdout_closed:
            raise ServeClosed(f"stdout closed before a matching {method}{self._tail()}")
        raise ServeTimeout(f"no matching {method} within {timeout} s{self._tail()}")

    def progress(self, id: RequestId) -> list[dict[str, Any]]:
        """The `event` objects of every `$/progress` received for `id` so far, in order."""
        with self._changed:
            return list(self._progress.get(raw_id(id), []))

    @property
    def lines(self) -> list[bytes]:
        """Every stdout line so far, in order, exactly as read (each ends with `\\n` unless the
        stream ended mid-line)."""
        with self._changed:
            return list(self._lines)

    def stderr_text(self) -> str:
        """Everything the server wrote to stderr so far (invalid UTF-8 replaced)."""
        with self._changed:
            return self._stderr.decode("utf-8", "replace")

    def wait_stderr(self, text: str, *, timeout: float = 10.0) -> None:
        """Wait until stderr contains `text` (e.g. `serve: ready`). Raises ServeTimeout."""
        needle = text.encode()
        with self._changed:
            if self._changed.wait_for(lambda: needle in self._stderr, timeout):
                return
        raise ServeTimeout(f"{text!r} not seen on stderr within {timeout} s{self._tail()}")

    def wait_exit(self, *, timeout: float = 10.0) -> int:
        """Wait for the process to end and its stdout/stderr to be read to the end; returns the
        exit code. Raises ServeTimeout when it is still running after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            raise ServeTimeout(
                f"the server did not exit within {timeout} s{self._tail()}"
            ) from None
        for thread in self._threads[:2]:
            # A grandchild that inherited the pipes could hold them open; never wait past the
            # deadline for it.
            thread.join(max(0.0, deadline - time.monotonic()))
        return code

    # -- ending ----------------------------------------------------------------------------

    def close(self, *, grace: float = 2.0) -> None:
        """End the session: close stdin, give the server `grace` seconds to exit, then kill it
        (with its process group on POSIX). Never leaves the process running; safe to repeat."""
        if self.process.poll() is None:
            with contextlib.suppress(ServeTimeout, ServeClosed):
                self.close_stdin(timeout=grace)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(grace)
        self._kill()
        self.process.wait()
        self._outbox.put(_STOP)
        for thread in self._threads:
            thread.join(1.0)
        streams = (self.process.stdout, self.process.stderr)
        for stream, reader in zip(streams, self._threads[:2], strict=True):
            if stream is not None and not reader.is_alive():
                stream.close()

    def __enter__(self) -> ServeClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # -- internals -------------------------------------------------------------------------

    def _kill(self) -> None:
        if os.name == "posix":
            # The group also holds the server's workers; it exists while any member lives.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)
        if self.process.poll() is None:
            self.process.kill()

    def _start(self, target: Callable[[Any], None], stream: IO[bytes]) -> threading.Thread:
        thread = threading.Thread(target=target, args=(stream,), daemon=True)
        thread.start()
        return thread

    def _enqueue(self, item: bytes | None, timeout: float) -> None:
        if item is not None and self._write_now(item):
            return
        outgoing = _Outgoing(item)
        with self._write_turn:
            self._queued += 1
            self._outbox.put(outgoing)
        if not outgoing.done.wait(timeout):
            raise ServeTimeout(
                f"the server did not read its stdin within {timeout} s{self._tail()}"
            )
        if outgoing.failed:
            self._threads[1].join(_STDERR_GRACE)
            raise ServeClosed(f"the server's stdin is closed{self._tail()}")

    def _write_now(self, data: bytes) -> bool:
        """Write a short line from the calling thread when no line is waiting for the writer
        thread and the pipe has room (it then cannot block); whether it was written. Spares a
        round trip through the writer thread, which under load waits for a CPU each way."""
        stdin = self.process.stdin
        if os.name != "posix" or len(data) > _DIRECT_WRITE_BYTES or stdin is None:
            return False
        with self._write_turn:
            if self._queued or stdin.closed:
                return False
            try:
                if not _writable_now(stdin.fileno()):
                    return False
                stdin.write(data)
                stdin.flush()
            except (OSError, ValueError):
                return False  # the writer thread meets the same failure and reports it
        return True

    def _write_stdin(self, stdin: IO[bytes]) -> None:
        while (outgoing := self._outbox.get()) is not _STOP:
            try:
                if outgoing.data is None:
                    stdin.close()
                elif stdin.closed:
                    outgoing.failed = True
                else:
                    stdin.write(outgoing.data)
                    stdin.flush()
            except (OSError, ValueError):
                outgoing.failed = outgoing.data is not None
                with contextlib.suppress(OSError):
                    stdin.close()
            with self._write_turn:
                self._queued -= 1
            outgoing.done.set()
        with contextlib.suppress(OSError):
            stdin.close()

    def _read_stdout(self, stdout: IO[bytes]) -> None:
        for line in iter(stdout.readline, b""):
            with self._changed:
                self._lines.append(line)
                self._route(line)
                self._changed.notify_all()
        with self._changed:
            self._stdout_closed = True
            self._changed.notify_all()

    def _route(self, line: bytes) -> None:
        try:
            message = _incoming.decode(line)
            if message.method == "$/progress":
                progress = _progress_params.decode(message.params)
                self._progress[bytes(progress.id)].append(progress.event)
            elif message.id:
                self._responses[bytes(message.id)].append(_response(line, message))
            elif message.method is not None:
                params = _any.decode(message.params) if message.params else None
                self._notifications.append(Notification(message.method, params))
            else:
                self._unroutable += 1
        except msgspec.DecodeError:
            self._unroutable += 1

    def _drain_stderr(self, stderr: IO[bytes]) -> None:
        for chunk in iter(lambda: os.read(stderr.fileno(), 65536), b""):
            with self._changed:
                self._stderr += chunk
                self._changed.notify_all()

    def _tail(self) -> str:
        tail = self.stderr_text()[-2000:].strip()
        return f"; stderr:\n{tail}" if tail else "; stderr is empty"


def _writable_now(fd: int) -> bool:
    """Whether the pipe `fd` takes a short write without waiting (a closed reader counts: the
    write then fails at once)."""
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    return bool(poller.poll(0))


def _response(line: bytes, message: _Incoming) -> Response:
    has_result = bool(message.result)
    has_error = bool(message.error)
    error = None
    if has_error:
        # A malformed error member still answers its request; `unwrap` reports it.
        with contextlib.suppress(msgspec.DecodeError):
            error = _error_object.decode(message.error)
    return Response(
        raw=line,
        id=bytes(message.id),
        result=_any.decode(message.result) if has_result else None,
        error=error,
        has_result=has_result,
        has_error=has_error,
    )
