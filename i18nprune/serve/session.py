"""A `serve` session: lifecycle (initialize, shutdown, exit, end of input, idle timeout),
the in-flight table, cancellation, the writes gate and per-root write queues
(docs/serve.md §4–§11).
"""

from __future__ import annotations

import gc
import math
import os
import platform
import sys
import traceback
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AsyncExitStack, contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar

import msgspec
import trio

from i18nprune import __version__
from i18nprune.envelope import API_VERSION, Envelope, ProblemError
from i18nprune.ops.engine.events import discard
from i18nprune.ops.engine.registry import OPS
from i18nprune.routing import FolderRouting
from i18nprune.serve.diagnostics import stderr_log
from i18nprune.serve.dispatch import (
    OP_PREFIX,
    OpCall,
    find_op,
    prepare_call,
    run_call,
    sandbox_project_mismatch,
)
from i18nprune.serve.folders import routing_of
from i18nprune.serve.index import ScanIndex
from i18nprune.serve.progress import ProgressRelay
from i18nprune.serve.protocol import (
    NULL_ID,
    PROTOCOL_VERSIONS,
    ErrorCode,
    Rejected,
    Request,
    RpcError,
    error_line,
    named_params,
    param_value,
    parse_request,
    result_line,
)
from i18nprune.serve.routed import (
    AT_THE_ROOT,
    FanOut,
    Refused,
    Route,
    refusal,
    roots_of,
    route,
    run_fan_out,
)
from i18nprune.serve.shared_pool import SharedPool
from i18nprune.serve.transport import LineReader, LineTooLong, LineWriter, notice
from i18nprune.serve.watch import Watcher, inotify_problem
from i18nprune.system.descriptors import claim_stdout

EXIT_OK, EXIT_INTERRUPTED = 0, 130
LIFECYCLE_METHODS = frozenset({"initialize", "ping", "shutdown", "exit", "$/cancelRequest"})
"""The methods that are not ops; each is accepted before `initialize`."""
FLUSH_GRACE_SECONDS = 2.0
"""How long queued lines may take to reach the client once the session has ended."""
GIL_SWITCH_SECONDS = 0.00025
"""The interpreter's thread switch interval while serving (the default is 5 ms): how long the
event loop may wait for the GIL, each time it takes it back after a system call, while a thread
does CPU work (a ping takes it back three or four times)."""
GC_YOUNG_THRESHOLD = 100_000
"""Allocations between collections of the youngest generation (CPython's default is 700)."""
_PARSE_IN_THREAD_BYTES = 1 << 16
"""Longer lines are parsed in a thread: up to ~0.1 s/MiB past the nesting limit, ~0.5 s/MiB for
the careful reader (a lone surrogate in a long line)."""
_SHOWN_ID_BYTES = 80
"""How much of an id a stderr notice shows (ids can be arbitrarily long)."""


@dataclass(frozen=True)
class ServeSettings:
    """How the server was started: `sandbox` is the pinned root (realpath) or None for hub
    mode; `idle_timeout` is in seconds, 0 for never; `workers` sizes the shared worker pool
    (None: the size the first op asks for)."""

    sandbox: Path | None
    allow_writes: bool
    idle_timeout: float
    workers: int | None


class ServerInfo(msgspec.Struct, frozen=True):
    name: str
    version: str
    python: str


class Capabilities(msgspec.Struct, frozen=True, rename="camel"):
    ops: list[str]
    progress: bool
    progress_ops: list[str]
    write_ops: list[str]
    cancel_scope: str
    writes: bool
    watch: bool


class InitializeResult(msgspec.Struct, frozen=True, rename="camel"):
    protocol_version: str
    server_info: ServerInfo
    api_version: str
    root_mode: Literal["sandbox", "hub"]
    project_root: str | None
    capabilities: Capabilities


def describe(settings: ServeSettings, *, watch: bool = False) -> InitializeResult:
    """The `initialize` result: who this server is and what it can do (`watch`: whether it
    pushes changes of the watched roots)."""
    progress_ops = [name for name, spec in OPS.items() if spec.progress]
    return InitializeResult(
        protocol_version=PROTOCOL_VERSIONS[0],
        server_info=ServerInfo("i18nprune", __version__, platform.python_version()),
        api_version=API_VERSION,
        root_mode="hub" if settings.sandbox is None else "sandbox",
        project_root=None if settings.sandbox is None else str(settings.sandbox),
        capabilities=Capabilities(
            ops=list(OPS),
            progress=bool(progress_ops),
            progress_ops=progress_ops,
            write_ops=[name for name, spec in OPS.items() if spec.writes],
            cancel_scope="running",
            writes=settings.allow_writes,
            watch=watch,
        ),
    )


class CollectorPause:
    """Keeps the cyclic garbage collector off while any op runs, and on otherwise.

    A collection holds the GIL, so it stalls the event loop for as long as it takes, and during
    an op it mostly walks the op's own data as that data is built (a young collection right after
    a 5k-leaf generate prepared its texts took ~20 ms; every ping behind it waited). That data is
    freed by reference counting, not by the collector: the cycles a 5k-leaf generate leaves
    behind are ~100 objects, which the first collection after the op frees.
    """

    def __init__(self) -> None:
        self._running = 0

    @contextmanager
    def paused(self) -> Iterator[None]:
        """No automatic collection until the block ends and no other block is open."""
        self._running += 1
        if self._running == 1:
            gc.disable()
        try:
            yield
        finally:
            self._running -= 1
            if not self._running:
                gc.enable()


@dataclass
class InFlight:
    """A request received and not yet answered."""

    id: bytes
    call: OpCall
    scope: trio.CancelScope = field(default_factory=trio.CancelScope)
    started: bool = False
    """False while queued (before the op runs): any request can be cancelled then."""


class Session:
    """One client connection: reads request lines, answers them, ends the session.

    Every request is handled in the order its line arrives; `op.*` requests run as tasks in
    `nursery`, so `ping` and `$/cancelRequest` are answered while ops run. `ended` is set when
    the session is over (exit, end of input once in-flight requests are answered, a closed
    stdout, the idle timeout).
    """

    def __init__(self, settings: ServeSettings, writer: LineWriter, nursery: trio.Nursery) -> None:
        self.settings = settings
        self.ended = trio.Event()
        self._writer = writer
        self._nursery = nursery
        self._state: Literal["new", "running", "shutting_down"] = "new"
        self._in_flight: dict[bytes, InFlight] = {}
        self._write_locks: defaultdict[Path | None, trio.Lock] = defaultdict(trio.Lock)
        self._pools = SharedPool(nursery, settings.workers)
        self.index = ScanIndex()
        """The scans of every root, kept while no file under the root changes."""
        self._watcher: Watcher | None = None
        """Set when the client asked for pushed changes and they can be watched."""
        self._idle = trio.CancelScope()
        self._input_ended = False
        self._collector = CollectorPause()

    async def read_requests(self, reader: LineReader) -> None:
        """Handle every line until end of input; then end once in-flight requests are answered."""
        while True:
            line = await reader.receive_line()
            if line is None:
                break
            await trio.lowlevel.checkpoint()  # a burst of buffered lines must not hog the loop
            self._touch()
            if isinstance(line, LineTooLong):
                message = (
                    f"The line of {line.size} bytes is larger than the server's limit of "
                    f"{reader.limit} bytes; it was skipped."
                )
                self._answer_error(NULL_ID, RpcError(ErrorCode.INVALID_REQUEST, message))
                continue
            line = line.rstrip()
            if not line:
                continue
            if len(line) > _PARSE_IN_THREAD_BYTES:
                parsed = await trio.to_thread.run_sync(parse_request, line)
            else:
                parsed = parse_request(line)
            if isinstance(parsed, Rejected):
                self._answer_error(parsed.id, parsed.error)
            elif parsed.id is None:
                self._perform_notification(parsed)
            else:
                await self._handle_request(parsed, parsed.id)
        self._input_ended = True
        self._end_when_idle()

    async def watch_idle(self) -> None:
        """End the session after `idle_timeout` seconds with nothing in flight and no input."""
        if not self.settings.idle_timeout:
            return
        self._idle.deadline = trio.current_time() + self.settings.idle_timeout
        with self._idle:
            await trio.sleep_forever()
        notice(f"serve: idle for {self.settings.idle_timeout:g} s; exiting")
        self.ended.set()

    def _touch(self) -> None:
        """A message arrived: the idle clock restarts (it runs only while nothing is in flight)."""
        if self._in_flight or not self.settings.idle_timeout:
            self._idle.deadline = math.inf
        else:
            self._idle.deadline = trio.current_time() + self.settings.idle_timeout

    def _end_when_idle(self) -> None:
        if self._input_ended and not self._in_flight:
            self.ended.set()

    # --- requests and notifications ---------------------------------------------------

    async def _handle_request(self, request: Request, request_id: bytes) -> None:
        if request_id in self._in_flight:
            message = f"A request with id {request_id.decode(errors='replace')} is in flight."
            self._answer_error(request_id, RpcError(ErrorCode.INVALID_REQUEST, message))
            return
        try:
            self._check_lifecycle(request.method)
            if request.method.startswith(OP_PREFIX):
                self._start_op(request, request_id)
                return
            result = await self._lifecycle_request(request)
        except RpcError as failure:
            self._answer_error(request_id, failure)
            return
        except Exception as exc:  # a bug: this request fails, the session goes on
            self._answer_error(request_id, internal_error(request.method, exc))
            return
        self._writer.send(result_line(request_id, result))
        if request.method == "exit":
            self.ended.set()

    def _check_lifecycle(self, method: str) -> None:
        if self._state == "shutting_down" and method not in ("exit", "$/cancelRequest"):
            raise RpcError(
                ErrorCode.SHUTTING_DOWN,
                "The server is shutting down; it accepts only `exit` and `$/cancelRequest` now.",
            )
        if self._state == "new" and method not in LIFECYCLE_METHODS:
            raise RpcError(
                ErrorCode.NOT_INITIALIZED,
                f"Send `initialize` before `{method}`.",
            )

    async def _lifecycle_request(self, request: Request) -> object:
        """Perform a non-op request and return its result. Raises RpcError."""
        if request.method not in LIFECYCLE_METHODS:
            raise RpcError(ErrorCode.METHOD_NOT_FOUND, f"There is no method `{request.method}`.")
        params = named_params(request)
        if request.method == "initialize":
            return await self._initialize(params)
        if request.method == "shutdown":
            self._shut_down()
        elif request.method == "$/cancelRequest":
            self._cancel(params)
        return {}

    async def _initialize(self, params: dict[str, msgspec.Raw]) -> InitializeResult:
        """Check the version and start the session; with `capabilities.watch`, watch the pinned
        root before answering (so every change after the answer is reported)."""
        if self._state != "new":
            raise RpcError(ErrorCode.INVALID_REQUEST, "The session is already initialized.")
        raw = params.get("protocolVersion")
        if raw is None or msgspec.json.decode(raw) not in PROTOCOL_VERSIONS:
            given = (
                "no protocolVersion" if raw is None else f"protocolVersion {bytes(raw).decode()}"
            )
            raise RpcError(
                ErrorCode.UNSUPPORTED_PROTOCOL,
                f"Unsupported protocol ({given}); this server supports protocolVersion "
                f"{msgspec.json.encode(PROTOCOL_VERSIONS).decode()}.",
                supported=PROTOCOL_VERSIONS,
            )
        wants_watch = client_wants_watch(params)
        self._state = "running"
        return describe(self.settings, watch=wants_watch and await self._start_watching())

    async def _start_watching(self) -> bool:
        """Whether changes are watched from now on (False: said once on stderr)."""
        problem = await trio.to_thread.run_sync(inotify_problem)
        if problem is not None:
            notice(f"serve: cannot watch files ({problem}); capabilities.watch is false")
            return False
        watcher = Watcher(
            self.index,
            self._writer.send,
            self._nursery,
            read_only=not self.settings.allow_writes,
        )
        if self.settings.sandbox is not None and not await watcher.watch(self.settings.sandbox):
            return False  # the watcher said why
        self._watcher = watcher
        return True

    def _shut_down(self) -> None:
        """Refuse new requests from now on; no change is pushed after this."""
        self._state = "shutting_down"
        if self._watcher is not None:
            self._watcher.stop()

    def _perform_notification(self, request: Request) -> None:
        """Notifications are never answered; what cannot be performed is noted on stderr."""
        method = request.method
        if method == "exit":
            self.ended.set()
        elif method == "shutdown":
            self._shut_down()
        elif method == "$/cancelRequest":
            try:
                self._cancel(named_params(request))
            except RpcError as failure:
                notice(f"serve: $/cancelRequest ignored: {failure}", kind="cancel.invalid")
        elif method != "ping":
            notice(
                f"serve: notification `{method}` not run: only exit, shutdown, ping and "
                "$/cancelRequest are performed without an id; send an id to get an answer",
                kind="notification.not_run",
            )

    def _cancel(self, params: dict[str, msgspec.Raw]) -> None:
        """Cancel a queued request, or a running op that stops on cancel; ignore the rest."""
        raw = params.get("id")
        if raw is None:
            raise RpcError(
                ErrorCode.INVALID_PARAMS, "`$/cancelRequest` needs the `id` to cancel.", key="id"
            )
        target = self._in_flight.get(bytes(raw))
        shown = bytes(raw)[:_SHOWN_ID_BYTES].decode(errors="replace")
        if len(raw) > _SHOWN_ID_BYTES:
            shown += "…"
        if target is None:
            notice(
                f"serve: cancel for {shown} ignored: no such request in flight",
                kind="cancel.unknown",
            )
        elif target.started and not target.call.spec.cancellable:
            notice(
                f"serve: cancel for {shown} ignored: {target.call.method} finishes once started",
                kind="cancel.uncancellable",
            )
        else:
            target.scope.cancel()

    # --- ops -----------------------------------------------------------------------------

    def _start_op(self, request: Request, request_id: bytes) -> None:
        spec = find_op(request.method)
        if spec is None:
            raise RpcError(
                ErrorCode.METHOD_NOT_FOUND,
                f"There is no method `{request.method}`; `initialize` lists the ops.",
            )
        call = prepare_call(
            spec,
            request,
            sandbox=self.settings.sandbox,
            allow_writes=self.settings.allow_writes,
        )
        entry = InFlight(request_id, call)
        self._in_flight[request_id] = entry
        self._touch()
        self._nursery.start_soon(self._run_op, entry, name=f"{request.method} {request_id!r}")

    async def _run_op(self, entry: InFlight) -> None:
        relay = (
            ProgressRelay(entry.id, self._writer.send, self._nursery)
            if entry.call.spec.progress
            else None
        )
        try:
            with entry.scope, self._collector.paused():
                envelope = await self._queue_and_run(entry, relay)
            if entry.scope.cancelled_caught:
                cancelled = f"`{entry.call.method}` was cancelled."
                line = error_line(entry.id, RpcError(ErrorCode.REQUEST_CANCELLED, cancelled))
            else:
                line = result_line(entry.id, envelope)
        except RpcError as failure:
            line = error_line(entry.id, failure)
        except Exception as exc:
            line = error_line(entry.id, internal_error(entry.call.method, exc))
        finally:
            if relay is not None:
                relay.close()
            del self._in_flight[entry.id]
            self._touch()
            self._end_when_idle()
        self._writer.send(line)

    async def _queue_and_run(self, entry: InFlight, relay: ProgressRelay | None) -> Envelope:
        """Find where the op runs (at a workspace root: which projects), wait in the write
        queue of each project it changes when it writes, then run it."""
        await trio.lowlevel.checkpoint()  # a cancel sent right after the request finds it queued
        where = await self._route(entry.call)
        async with AsyncExitStack() as queues:
            if entry.call.spec.writes:
                for root in sorted(roots_of(where)):
                    await queues.enter_async_context(self._write_locks[root])
            return await self._execute(entry, where, relay)

    async def _route(self, call: OpCall) -> Route:
        """Where `call` runs (see `serve.routed`). Raises RpcError for a `projectRoot` below the
        sandbox's root that is not one of the projects there."""
        if call.in_sandbox:
            assert self.settings.sandbox is not None
            routing = await self._routing(self.settings.sandbox)
            if routing is None or call.root not in routing.roots:
                raise sandbox_project_mismatch(str(call.root), self.settings.sandbox)
            return call
        if call.root is None or not call.spec.needs_project or call.spec.name in AT_THE_ROOT:
            return call
        routing = await self._routing(call.root)
        return call if routing is None else route(call, routing)

    async def _routing(self, folder: Path) -> FolderRouting | None:
        """The projects of `folder`; None when they cannot be found (a broken workspace file:
        the op, run at the folder, reports it as it does without a server)."""
        try:
            return await trio.to_thread.run_sync(routing_of, self.index, folder)
        except ProblemError:
            return None

    async def _execute(
        self, entry: InFlight, where: Route, relay: ProgressRelay | None
    ) -> Envelope:
        entry.started = True
        if self._watcher is not None and entry.call.root is not None:
            await self._watcher.watch(entry.call.root)  # hub mode: a root named is watched
        if isinstance(where, Refused):
            return refusal(where)
        emit = discard if relay is None else relay.emit
        try:
            if isinstance(where, FanOut):
                return await run_fan_out(
                    where,
                    read_only=not self.settings.allow_writes,
                    pools=self._pools.lease,
                    scanner=self.index.scan,
                    emit=emit,
                    snapshots=self.index,
                )
            return await run_call(
                where,
                read_only=not self.settings.allow_writes,
                pools=self._pools.lease,
                scanner=self.index.scan,
                emit=emit,
                snapshots=self.index,
                buffers=self.index.read_buffer,
            )
        finally:
            if entry.call.spec.writes:
                for root in roots_of(where):
                    self.index.invalidate(root)  # fresh reads (docs/serve.md#5-root-modes)

    def _answer_error(self, request_id: bytes, failure: RpcError) -> None:
        self._writer.send(error_line(request_id, failure))


def client_wants_watch(params: dict[str, msgspec.Raw]) -> bool:
    """Whether `initialize` params ask for pushed changes (`capabilities.watch: true`).
    Raises RpcError for `capabilities` that is not an object or a `watch` that is not a
    boolean."""
    capabilities = param_value(params, "capabilities", dict[str, Any], "a JSON object") or {}
    watch = capabilities.get("watch", False)
    if not isinstance(watch, bool):
        raise RpcError(
            ErrorCode.INVALID_PARAMS,
            "`capabilities.watch` must be a boolean.",
            key="capabilities.watch",
        )
    return watch


def internal_error(method: str, exc: Exception) -> RpcError:
    """Report a bug met while handling `method`: the traceback goes to stderr, the returned
    error (SERVE_INTERNAL_ERROR) says only that it happened."""
    notice(f"serve: internal error in {method}:")
    notice("".join(traceback.format_exception(exc)))
    return RpcError(
        ErrorCode.INTERNAL_ERROR,
        f"{method} failed with an internal error; the details are on the server's stderr.",
    )


def serve_stdio(settings: ServeSettings) -> int:
    """Serve on this process's stdin/stdout until the session ends; return the exit code.

    0 for every normal end; 130 on Ctrl+C (quietly). From the start, fd 1 points at stderr
    and protocol lines go to a private duplicate of it. A read-only session writes no file:
    no caches, and no bytecode from this process or its children.
    """
    if not settings.allow_writes:
        sys.dont_write_bytecode = True
        os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
    return host_stdio(partial(_serve, settings))


class HostedSession(Protocol):
    """What `run_session` needs of a stdio session (`serve`'s, `lsp`'s)."""

    ended: trio.Event
    index: ScanIndex


S = TypeVar("S", bound=HostedSession)


def host_stdio(main: Callable[[int], Awaitable[int]]) -> int:
    """Run a stdio host process (`serve`, `lsp`): `main(protocol_fd)` under trio, with fd 1
    pointing at stderr from the start (protocol messages go to the private duplicate
    `protocol_fd`), a short GIL switch interval and the collector tuned; its exit code, or 130
    on Ctrl+C (quietly)."""
    protocol_fd = claim_stdout()  # stray output goes to stderr
    # Threads doing CPU work (parsing, planning, writing) hold the GIL for up to the switch
    # interval at a time; a short one keeps `ping` and cancel latency low while they run.
    sys.setswitchinterval(GIL_SWITCH_SECONDS)
    tune_collector()
    try:
        return trio.run(main, protocol_fd)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BaseExceptionGroup as group:
        if group.subgroup(KeyboardInterrupt) is None:
            raise
        return EXIT_INTERRUPTED


async def run_session(protocol_fd: int, begin: Callable[[LineWriter, trio.Nursery], S]) -> S:
    """Run one session on `protocol_fd` until it has `ended`: `begin(writer, nursery)` makes
    it and starts its tasks in `nursery`; a closed stdout ends it too. Then its index is
    closed, queued messages get FLUSH_GRACE_SECONDS to reach the client, and stderr's log says
    what a full pipe cost it."""
    writer = LineWriter(protocol_fd)
    async with trio.open_nursery() as outer:
        outer.start_soon(writer.run)
        async with trio.open_nursery() as nursery:
            session = begin(writer, nursery)
            nursery.start_soon(_end_when_broken, writer, session)
            await session.ended.wait()
            nursery.cancel_scope.cancel()
        session.index.close()
        writer.close()
        with trio.move_on_after(FLUSH_GRACE_SECONDS):
            await writer.finished.wait()
        outer.cancel_scope.cancel()
    # Says how many diagnostics a full stderr cost, if it takes lines by now.
    await trio.to_thread.run_sync(stderr_log.close, FLUSH_GRACE_SECONDS, abandon_on_cancel=True)
    return session


def tune_collector() -> None:
    """Keep the cyclic garbage collector's pauses short while serving.

    A collection holds the GIL, so whichever thread triggers it stalls the event loop (and every
    `ping`) for as long as it takes; a full one over an op's data (a 20k-leaf generate) took
    70–380 ms and found nothing to collect: that data is freed by reference counting. Objects
    alive at start (modules, functions, classes) are frozen out of every collection, and the
    young generation is collected after GC_YOUNG_THRESHOLD allocations rather than 700, so the
    older generations, whose collections are the long ones, run that much less often. (No
    collection first: it would cost start-up ~20 ms to free a few cycles left by imports.)
    While an op runs there is no automatic collection at all (`CollectorPause`).
    """
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, old)


async def _serve(settings: ServeSettings, protocol_fd: int) -> int:
    def begin(writer: LineWriter, nursery: trio.Nursery) -> Session:
        session = Session(settings, writer, nursery)
        nursery.start_soon(session.read_requests, LineReader(0))
        nursery.start_soon(session.watch_idle)
        mode = "hub" if settings.sandbox is None else f"sandbox {settings.sandbox}"
        writes = "writes enabled" if settings.allow_writes else "read-only"
        notice(f"serve: ready ({mode}, {writes})")
        return session

    await run_session(protocol_fd, begin)
    return EXIT_OK


async def _end_when_broken(writer: LineWriter, session: HostedSession) -> None:
    """A closed stdout means the client went away: end quietly."""
    await writer.broken.wait()
    session.ended.set()
