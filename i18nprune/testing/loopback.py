"""A small HTTP/1.1 server on 127.0.0.1, run by trio in a background thread: keep-alive,
concurrent connections, and noticing when a client hangs up while its answer is still pending.
"""

from __future__ import annotations

import contextlib
import http
import socket
import struct
import threading
from collections.abc import Awaitable, Callable
from functools import partial
from types import TracebackType
from urllib.parse import unquote

import h11
import msgspec
import trio

_RECEIVE_BYTES = 65536
# How long `__exit__` waits for the server thread; stopping cancels every task, so it is quick.
_STOP_SECONDS = 5.0


class HttpRequest(msgspec.Struct, frozen=True, kw_only=True):
    """One complete request: `path` without the query, `query` raw, header names lower-cased."""

    method: str
    path: str
    query: str
    headers: dict[str, str]
    body: bytes


class HttpReply(msgspec.Struct, frozen=True, kw_only=True):
    """One complete answer; `headers` are sent after content-type and content-length."""

    status: int
    body: bytes
    content_type: str = "application/json"
    headers: tuple[tuple[str, str], ...] = ()


class Client:
    """The connection a request arrived on, as the request's handler sees it."""

    def __init__(self, stream: trio.SocketStream, connection: h11.Connection) -> None:
        self._stream = stream
        self._connection = connection

    async def wait_gone(self, seconds: float) -> bool:
        """Wait up to `seconds` (`math.inf` for ever); True as soon as the client closes or resets
        the connection, False when the time passes with the client still there.

        Cancellation leaves the connection usable.
        """
        with trio.move_on_after(seconds):
            while True:
                try:
                    data = await self._stream.receive_some(_RECEIVE_BYTES)
                except trio.BrokenResourceError:
                    return True
                if not data:
                    return True
                # Bytes sent ahead of our answer belong to the next request: keep them for h11.
                self._connection.receive_data(data)
        return False


# Answers one request; `None` resets the connection (RST) without an answer.
Handler = Callable[[HttpRequest, Client], Awaitable[HttpReply | None]]


class LoopbackServer:
    """Serves `handler` on 127.0.0.1 at a random port from a background thread.

    `__enter__` returns once the port listens. `__exit__` cancels every connection, including
    handlers still waiting on a client, closes the sockets and joins the thread; it re-raises a
    crash of the server (a bug in a handler) unless the `with` body is already raising. The server
    also stops by itself `max_lifetime` seconds after it started.
    """

    def __init__(self, handler: Handler, *, name: str, max_lifetime: float) -> None:
        self._handler = handler
        self._max_lifetime = max_lifetime
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._ready = threading.Event()
        self._port: int | None = None
        self._token: trio.lowlevel.TrioToken | None = None
        self._scope: trio.CancelScope | None = None
        self._crash: BaseException | None = None

    @property
    def port(self) -> int:
        """The port the server listens on; raises RuntimeError before `__enter__`."""
        if self._port is None:
            raise RuntimeError("the loopback server is not started")
        return self._port

    def __enter__(self) -> LoopbackServer:
        self._thread.start()
        self._ready.wait()
        if self._port is None:
            raise RuntimeError("the loopback server failed to start") from self._crash
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._token is not None and self._scope is not None:
            with contextlib.suppress(trio.RunFinishedError):
                self._token.run_sync_soon(self._scope.cancel)
        self._thread.join(_STOP_SECONDS)
        if self._thread.is_alive():
            raise RuntimeError(f"loopback server {self._thread.name} did not stop")
        if self._crash is not None and exc is None:
            raise RuntimeError(f"loopback server {self._thread.name} crashed") from self._crash

    def _run(self) -> None:
        try:
            trio.run(self._serve)
        except BaseException as crash:  # the thread has no caller: `__exit__` reports it
            self._crash = crash
        finally:
            self._ready.set()

    async def _serve(self) -> None:
        with trio.move_on_after(self._max_lifetime) as scope:
            async with trio.open_nursery() as nursery:
                listeners = await nursery.start(
                    partial(trio.serve_tcp, self._serve_connection, 0, host="127.0.0.1")
                )
                self._port = listeners[0].socket.getsockname()[1]
                self._token = trio.lowlevel.current_trio_token()
                self._scope = scope
                self._ready.set()

    async def _serve_connection(self, stream: trio.SocketStream) -> None:
        connection = h11.Connection(h11.SERVER)
        client = Client(stream, connection)
        async with stream:
            with contextlib.suppress(trio.BrokenResourceError, h11.RemoteProtocolError):
                while await self._exchange(stream, connection, client):
                    connection.start_next_cycle()

    async def _exchange(
        self, stream: trio.SocketStream, connection: h11.Connection, client: Client
    ) -> bool:
        """Read one request and answer it; False when the connection must close."""
        request = await _receive_request(stream, connection)
        if request is None:
            return False
        reply = await self._handler(request, client)
        if reply is None:
            # An abortive close (RST), as from a crashed upstream, rather than a polite FIN.
            stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            return False
        await stream.send_all(_encode_reply(connection, reply))
        return connection.our_state is h11.DONE and connection.their_state is h11.DONE


async def _next_event(stream: trio.SocketStream, connection: h11.Connection) -> object:
    while True:
        event = connection.next_event()
        if event is not h11.NEED_DATA:
            return event
        connection.receive_data(await stream.receive_some(_RECEIVE_BYTES))


async def _receive_request(
    stream: trio.SocketStream, connection: h11.Connection
) -> HttpRequest | None:
    """The next complete request on the connection; `None` when the client closed it."""
    head = await _next_event(stream, connection)
    if not isinstance(head, h11.Request):
        return None
    body = bytearray()
    while True:
        event = await _next_event(stream, connection)
        if isinstance(event, h11.Data):
            body += event.data
        elif isinstance(event, h11.EndOfMessage):
            break
        else:
            return None
    headers: dict[str, str] = {}
    for raw_name, raw_value in head.headers:
        name, value = raw_name.decode("latin-1"), raw_value.decode("latin-1")
        headers[name] = f"{headers[name]}, {value}" if name in headers else value
    path, _, query = head.target.decode("latin-1").partition("?")
    return HttpRequest(
        method=head.method.decode("ascii"),
        path=unquote(path),
        query=query,
        headers=headers,
        body=bytes(body),
    )


def _encode_reply(connection: h11.Connection, reply: HttpReply) -> bytes:
    try:
        reason = http.HTTPStatus(reply.status).phrase
    except ValueError:  # DeepL's 456 and friends have no standard phrase
        reason = ""
    headers = [
        ("content-type", reply.content_type),
        ("content-length", str(len(reply.body))),
        *reply.headers,
    ]
    events: list[h11.Event] = [
        h11.Response(status_code=reply.status, headers=headers, reason=reason),
        h11.Data(data=reply.body),
        h11.EndOfMessage(),
    ]
    return b"".join(connection.send(event) or b"" for event in events)
