"""An `i18nprune lsp` session: the message loop, requests as cancellable tasks, the open
documents, each project's state (light first, then with the whole scan), and publishing
diagnostics. The methods themselves are in `lsp.methods`; the process in `lsp.server`.
"""

from __future__ import annotations

import os
import traceback
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import msgspec
import trio

from i18nprune.envelope import ProblemError
from i18nprune.lsp import features
from i18nprune.lsp.engine import (
    CodeFile,
    ProjectState,
    build_state,
    complete_state,
    current_generation,
    relative,
)
from i18nprune.lsp.framing import BodyTooLarge, FrameReader, frame
from i18nprune.lsp.text import Document, Encoding, LineMap
from i18nprune.ops.cleanup import CleanupData, CleanupOptions
from i18nprune.ops.engine.events import discard
from i18nprune.ops.engine.registry import CLEANUP, QUALITY, execute
from i18nprune.ops.engine.scanning import scanning_with
from i18nprune.ops.quality import QualityData, QualityOptions
from i18nprune.project import ProjectHandle, ProjectRequest
from i18nprune.routing import FolderRouting, route_folder
from i18nprune.scan.callees import reads_templates
from i18nprune.scan.grammars import SCANNED_SUFFIXES, TEMPLATE_SUFFIX
from i18nprune.serve.index import ScanIndex
from i18nprune.serve.shared_pool import SharedPool
from i18nprune.serve.transport import LineWriter, notice

EXIT_OK, EXIT_NO_SHUTDOWN = 0, 1
FIRST_ANSWER_GRACE = 0.5
"""How long the whole scan of a project waits for its first diagnostics to go out."""

# JSON-RPC and LSP error codes.
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR = (
    -32700,
    -32600,
    -32601,
    -32602,
    -32603,
)
SERVER_NOT_INITIALIZED, REQUEST_FAILED, REQUEST_CANCELLED = -32002, -32803, -32800


@dataclass(frozen=True)
class LspSettings:
    """How the server was started: `allow_writes` enables the translate command (the only
    thing that writes); `workers` sizes the translation worker pool (None: as `generate` asks)."""

    allow_writes: bool = False
    workers: int | None = None


Request = Callable[["Session", dict[str, Any]], Awaitable[Any]]
"""A request's handler: its params → its result. Raises LspError for an error answer."""
Notification = Callable[["Session", dict[str, Any]], None]
"""A notification's handler, performed in order on the loop."""


class Incoming(msgspec.Struct, frozen=True):
    jsonrpc: str | None = None
    id: int | str | None = None
    method: str | None = None
    params: msgspec.Raw = msgspec.Raw(b"null")
    result: msgspec.Raw | None = None
    error: msgspec.Raw | None = None


class LspError(Exception):
    """A request's error answer."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


_decoder = msgspec.json.Decoder(Incoming)
_encoder = msgspec.json.Encoder()


@dataclass
class OpenDocument:
    """An open document and what was last computed of it."""

    document: Document
    root: Path | None
    relpath: str | None
    dirty: bool = True
    computed: tuple[int, ProjectState, CodeFile] | None = None
    """(version, state, code file) of the last diagnostics of a source file."""


@dataclass
class Session:
    """One client connection: reads framed messages until `exit` or end of input, runs each
    request as a task (its handler from `requests`, cancelled by `$/cancelRequest`), performs
    notifications in order (`notifications`), keeps the open documents and each project's
    state, and publishes diagnostics. `ended` is set when the session is over."""

    settings: LspSettings
    writer: LineWriter
    nursery: trio.Nursery
    requests: Mapping[str, Request]
    notifications: Mapping[str, Notification]
    index: ScanIndex = field(default_factory=ScanIndex)
    ended: trio.Event = field(default_factory=trio.Event)
    exit_code: int = EXIT_NO_SHUTDOWN
    state: str = "new"
    encoding: Encoding = "utf-16"
    display_locale: str | None = None
    folders: dict[Path, FolderRouting | None] = field(default_factory=dict)
    documents: dict[str, OpenDocument] = field(default_factory=dict)
    states: dict[Path, ProjectState] = field(default_factory=dict)
    completed: dict[Path, trio.Event] = field(default_factory=dict)
    """Set when the project's state holds the whole scan (or the scan failed)."""
    answered: dict[Path, trio.Event] = field(default_factory=dict)
    """Set once a document of the project has had its first diagnostics."""
    state_locks: defaultdict[Path, trio.Lock] = field(
        default_factory=lambda: defaultdict(trio.Lock)
    )
    publishing: set[str] = field(default_factory=set)
    in_flight: dict[int | str, trio.CancelScope] = field(default_factory=dict)
    told: set[str] = field(default_factory=set)
    """Messages shown to the user once (a project that cannot be opened)."""
    outgoing: int = 0
    pools: SharedPool | None = None
    progress_scopes: dict[str, trio.CancelScope] = field(default_factory=dict)
    """The running translations, by their work-done progress token."""
    watched_files: bool = False

    # --- the loop ------------------------------------------------------------------------

    async def read_messages(self, reader: FrameReader) -> None:
        while True:
            body = await reader.receive()
            if body is None:
                break
            if isinstance(body, BodyTooLarge):
                notice(f"lsp: a message of {body.size} bytes was skipped (limit {reader.limit})")
                continue
            try:
                message = _decoder.decode(body)
            except (msgspec.DecodeError, msgspec.ValidationError) as exc:
                self.send(
                    {
                        "jsonrpc": "2.0",
                        "id": None,
                        "error": {"code": PARSE_ERROR, "message": f"Invalid message: {exc}"},
                    }
                )
                continue
            await trio.lowlevel.checkpoint()
            if message.method is None:
                continue  # an answer to one of our requests: nothing waits on them
            if message.id is None:
                await self._notification(message.method, message.params)
            else:
                self._request(message.id, message.method, message.params)
        self.ended.set()

    def send(self, message: object) -> None:
        self.writer.send(frame(_encoder.encode(message)))

    def notify(self, method: str, params: object) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request_client(self, method: str, params: object) -> None:
        """Send a request to the client (its answer is not awaited)."""
        self.outgoing += 1
        self.send(
            {
                "jsonrpc": "2.0",
                "id": f"i18nprune-{self.outgoing}",
                "method": method,
                "params": params,
            }
        )

    def show(self, kind: int, text: str, once: str | None = None) -> None:
        """`window/showMessage` (1 error, 2 warning, 3 info), once per `once` when given."""
        if once is not None:
            if once in self.told:
                return
            self.told.add(once)
        self.notify("window/showMessage", {"type": kind, "message": f"i18nprune: {text}"})

    # --- requests ------------------------------------------------------------------------

    def _request(self, request_id: int | str, method: str, raw: msgspec.Raw) -> None:
        if self.state == "new" and method != "initialize":
            self._error(request_id, SERVER_NOT_INITIALIZED, f"Send `initialize` before `{method}`.")
            return
        if self.state == "shutting_down":
            self._error(request_id, INVALID_REQUEST, "The server is shutting down.")
            return
        handler = self.requests.get(method)
        if handler is None:
            self._error(request_id, METHOD_NOT_FOUND, f"There is no method `{method}`.")
            return
        scope = trio.CancelScope()
        self.in_flight[request_id] = scope
        self.nursery.start_soon(self._run_request, request_id, method, handler, raw, scope)

    async def _run_request(
        self,
        request_id: int | str,
        method: str,
        handler: Any,
        raw: msgspec.Raw,
        scope: trio.CancelScope,
    ) -> None:
        try:
            with scope:
                params = msgspec.json.decode(raw) if raw else None
                result = await handler(self, params if params is not None else {})
            if scope.cancelled_caught:
                self._error(request_id, REQUEST_CANCELLED, f"`{method}` was cancelled.")
            else:
                self.send({"jsonrpc": "2.0", "id": request_id, "result": result})
        except LspError as failure:
            self._error(request_id, failure.code, failure.message)
        except (msgspec.ValidationError, KeyError, TypeError, ValueError) as exc:
            self._error(request_id, INVALID_PARAMS, f"Invalid params for `{method}`: {exc}")
        except Exception as exc:  # a bug: this request fails, the session goes on
            notice(f"lsp: internal error in {method}:")
            notice("".join(traceback.format_exception(exc)))
            self._error(
                request_id,
                INTERNAL_ERROR,
                f"{method} failed with an internal error; see the server's stderr.",
            )
        finally:
            self.in_flight.pop(request_id, None)

    def _error(self, request_id: int | str | None, code: int, message: str) -> None:
        self.send({"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}})

    # --- notifications -------------------------------------------------------------------

    async def _notification(self, method: str, raw: msgspec.Raw) -> None:
        if method == "exit":
            self.exit_code = EXIT_OK if self.state == "shutting_down" else EXIT_NO_SHUTDOWN
            self.ended.set()
            return
        if self.state == "new":
            return  # LSP: notifications before initialize are dropped
        handler = self.notifications.get(method)
        if handler is None:
            return  # `$/…` and unknown notifications are ignored
        try:
            params = msgspec.json.decode(raw) if raw else {}
            handler(self, params or {})
        except Exception as exc:
            notice(f"lsp: notification {method} not handled:")
            notice("".join(traceback.format_exception(exc)))

    # --- projects and documents --------------------------------------------------------------

    def add_folder(self, folder: Path) -> None:
        folder = Path(os.path.realpath(folder))
        if folder not in self.folders:
            self.folders[folder] = None
            self.nursery.start_soon(self._route, folder)

    async def _route(self, folder: Path) -> None:
        try:
            routing = await trio.to_thread.run_sync(lambda: route_folder(folder, look_above=True))
        except ProblemError as exc:
            self.show(1, str(exc), once=f"route {folder}")
            return
        self.folders[folder] = routing
        for uri, opened in self.documents.items():
            if opened.root is None:
                self.place(uri, opened)
                self.schedule(uri)

    def place(self, uri: str, opened: OpenDocument) -> None:
        path = path_of(uri)
        if path is None:
            return
        owner = self.project_of(path)
        if owner is not None:
            opened.root = owner
            opened.relpath = relative(owner, path)

    def project_of(self, path: Path) -> Path | None:
        """The root of the project that owns `path`, among the workspace folders' projects (a
        file outside every folder: its own folder's project when that holds a config)."""
        best: Path | None = None
        for routing in self.folders.values():
            if routing is None:
                continue
            project = routing.project_of(path)
            if project is not None and (best is None or len(project.root.parts) > len(best.parts)):
                best = project.root
        return best

    async def project_state(self, root: Path, *, complete: bool = False) -> ProjectState | None:
        """The project as its files are now (read again when anything under it changed); None
        when it cannot be opened (said once). The first answer does not wait for the scan of
        the whole project (each file is then read on its own); `complete` waits for it (what
        needs every code site: references, rename)."""
        async with self.state_locks[root]:
            kept = self.states.get(root)
            if kept is not None and kept.generation is not None:
                generation = await trio.to_thread.run_sync(current_generation, root, self.index)
                if generation != kept.generation:
                    kept = None
            elif kept is not None:
                kept = None  # not watched: every question reads the project afresh
            if kept is None:
                try:
                    kept = await trio.to_thread.run_sync(
                        lambda: build_state(root, self.index, read_only=True)
                    )
                except ProblemError as exc:
                    self.show(2, f"{root}: {exc}", once=f"open {root} {exc}")
                    return None
                self.states[root] = kept
                self.completed[root] = trio.Event()
                self.answered.setdefault(root, trio.Event())
                self.nursery.start_soon(self._complete, root, kept, self.completed[root])
            done = self.completed[root]
        if not complete or kept.complete:
            return kept
        await done.wait()
        return self.states.get(root)

    async def _complete(self, root: Path, light: ProjectState, done: trio.Event) -> None:
        """Scan the whole project, make it the project's state (unless a newer one replaced
        the light one meanwhile), refresh its open documents, then run the slower checks.

        Starts once the first diagnostics of the project are out (or after FIRST_ANSWER_GRACE
        seconds when no document asks): the whole scan would take the CPU from them."""
        with trio.move_on_after(FIRST_ANSWER_GRACE):
            await self.answered[root].wait()
        try:
            state = await trio.to_thread.run_sync(complete_state, light, self.index)
        except Exception as exc:
            notice(f"lsp: the scan of {root} failed:")
            notice("".join(traceback.format_exception(exc)))
            done.set()
            return
        if self.states.get(root) is light:
            self.states[root] = state
            for uri, opened in self.documents.items():
                if opened.root == root and is_code(opened.relpath, state):
                    self.schedule(uri)
        done.set()
        await self._find_unused(root, state)

    async def _find_unused(self, root: Path, state: ProjectState) -> None:
        """Ask `cleanup --dry-run` what it would remove (its refusal leaves no unused hint)
        and `quality` what looks wrong in the targets, then refresh the project's open locale
        files."""
        handle = ProjectHandle(ProjectRequest(cwd=root, project=root, read_only=True))
        try:
            with scanning_with(self.index.scan, self.index):
                envelope = await execute(CLEANUP, handle, CleanupOptions(dry_run=True), discard)
        except Exception as exc:
            notice(f"lsp: cleanup dry run of {root} failed:")
            notice("".join(traceback.format_exception(exc)))
            return
        if envelope.ok and isinstance(envelope.data, CleanupData):
            state.unused = envelope.data
        try:
            with scanning_with(self.index.scan, self.index):
                checked = await execute(QUALITY, handle, QualityOptions(), discard)
        except Exception as exc:
            notice(f"lsp: quality check of {root} failed:")
            notice("".join(traceback.format_exception(exc)))
        else:
            if isinstance(checked.data, QualityData):
                state.quality = checked.data.findings
        for uri, opened in self.documents.items():
            if opened.root == root and not is_code(opened.relpath, state):
                self.schedule(uri)

    def schedule(self, uri: str) -> None:
        """Publish the document's diagnostics soon (once more if it changes meanwhile)."""
        opened = self.documents.get(uri)
        if opened is None:
            return
        opened.dirty = True
        if uri not in self.publishing:
            self.publishing.add(uri)
            self.nursery.start_soon(self._publish, uri)

    async def _publish(self, uri: str) -> None:
        try:
            while (opened := self.documents.get(uri)) is not None and opened.dirty:
                opened.dirty = False
                found = await self._diagnostics(opened)
                if found is not None and self.documents.get(uri) is opened:
                    version, diagnostics = found
                    self.notify(
                        "textDocument/publishDiagnostics",
                        {
                            "uri": uri,
                            "version": version,
                            "diagnostics": msgspec.to_builtins(diagnostics),
                        },
                    )
                    if opened.root is not None:
                        self.answered.setdefault(opened.root, trio.Event()).set()
        except Exception as exc:
            notice(f"lsp: diagnostics of {uri} failed:")
            notice("".join(traceback.format_exception(exc)))
        finally:
            self.publishing.discard(uri)

    async def _diagnostics(
        self, opened: OpenDocument
    ) -> tuple[int, list[features.Diagnostic]] | None:
        if opened.root is None or opened.relpath is None:
            self._say_outside(opened)
            return None
        state = await self.project_state(opened.root)
        if state is None:
            return None
        document = opened.document
        version, text, relpath = document.version, document.text, opened.relpath
        encoding = self.encoding
        if is_code(relpath, state):
            file = await trio.to_thread.run_sync(state.code_file, relpath, text, self.index)
            opened.computed = (version, state, file)
            findings = await trio.to_thread.run_sync(state.code_findings, file)
        else:
            if state.locale_file(relpath) is None:
                return version, []
            findings = await trio.to_thread.run_sync(state.locale_findings, relpath, text)
        return version, features.diagnostics(findings, LineMap(text), encoding)

    def _say_outside(self, opened: OpenDocument) -> None:
        """Tell the user once per folder that an open source file is in none of its projects
        (once every folder is routed): nothing checks it, and silence would look like health."""
        path = path_of(opened.document.uri)
        if path is None or not is_code(path.name) or None in self.folders.values():
            return
        for folder, routing in self.folders.items():
            if routing is not None and (folder == path or folder in path.parents):
                projects = ", ".join(p.rel for p in routing.projects) or "none"
                self.show(
                    3,
                    f"{path.relative_to(folder)} is in none of the i18nprune projects of "
                    f"{folder} ({projects}), so nothing checks its keys; an "
                    "i18nprune.config.json (`i18nprune init`) in the folder that holds its "
                    "code says which locales it uses",
                    once=f"outside {folder}",
                )
                return

    async def code_file(self, uri: str) -> tuple[ProjectState, CodeFile, OpenDocument] | None:
        """The open source file's sites at its current version."""
        opened = self.documents.get(uri)
        if opened is None or opened.root is None or opened.relpath is None:
            return None
        state = await self.project_state(opened.root)
        if state is None or not is_code(opened.relpath, state):
            return None
        computed = opened.computed
        if computed is not None and computed[0] == opened.document.version and computed[1] is state:
            return state, computed[2], opened
        file = await trio.to_thread.run_sync(
            state.code_file, opened.relpath, opened.document.text, self.index
        )
        opened.computed = (opened.document.version, state, file)
        return state, file, opened

    def is_code(self, opened: OpenDocument) -> bool:
        """Whether the open document is source code (see `is_code`), as far as its project's
        last state tells."""
        state = self.states.get(opened.root) if opened.root is not None else None
        return is_code(opened.relpath, state)

    def lines_of(self, path: Path) -> LineMap | None:
        """A file's lines as the editor sees them: its open buffer, else the disk."""
        opened = self.documents.get(path.as_uri())
        if opened is not None:
            return opened.document.lines
        try:
            return LineMap(path.read_bytes().decode("utf-8-sig", "replace"))
        except OSError:
            return None

    def text_of(self, path: Path) -> str | None:
        lines = self.lines_of(path)
        return lines.text if lines is not None else None

    def republish(self, roots: set[Path] | None = None) -> None:
        for uri, opened in self.documents.items():
            if roots is None or opened.root in roots:
                self.schedule(uri)


def path_of(uri: str) -> Path | None:
    """The local path of a `file:` URI (None for another scheme)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


def is_code(relpath: str | None, state: ProjectState | None = None) -> bool:
    """Whether a file is source code: a scanned suffix, or an Angular template (`.html`) of a
    project whose scan reads templates (`state`)."""
    if relpath is None:
        return False
    suffix = Path(relpath).suffix.lower()
    if suffix == TEMPLATE_SUFFIX:
        return state is not None and reads_templates(state.options.functions)
    return suffix in SCANNED_SUFFIXES
