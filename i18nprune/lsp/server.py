"""`i18nprune lsp`: a Language Server Protocol 3.17 session over stdio.

One trio loop reads framed messages and answers them; requests run as tasks (so `$/cancelRequest`
reaches them), CPU and file work runs in worker threads, and the session shares `serve`'s engine:
the scan index (`ScanIndex`, kept per root while inotify sees no change), the ops registry and the
worker pool. Each workspace folder is routed to its projects (`routing.route_folder`); a file
belongs to the deepest project holding it. Read-only: edits go back to the editor as
`WorkspaceEdit`s it applies (so undo works); only the translate command writes, through
`generate`, and only with `--allow-writes`. See docs/editors.md.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import msgspec
import trio

from i18nprune import __version__
from i18nprune.envelope import ProblemError
from i18nprune.lsp import features
from i18nprune.lsp.engine import (
    MISSING_SOURCE,
    MISSING_TARGETS,
    UNUSED,
    CodeFile,
    ProjectState,
    build_state,
    complete_state,
    current_generation,
    relative,
)
from i18nprune.lsp.framing import BodyTooLarge, FrameReader, frame
from i18nprune.lsp.text import ContentChange, Document, Encoding, LineMap, Position, Range
from i18nprune.ops.cleanup import CleanupData, CleanupOptions
from i18nprune.ops.events import discard
from i18nprune.ops.quality import QualityData, QualityOptions
from i18nprune.ops.registry import OPS, execute
from i18nprune.ops.scanning import scanning_with
from i18nprune.project import ProjectHandle, ProjectRequest
from i18nprune.routing import FolderRouting, route_folder
from i18nprune.scan.grammars import SCANNED_SUFFIXES
from i18nprune.serve.index import ScanIndex
from i18nprune.serve.shared_pool import SharedPool
from i18nprune.serve.transport import LineWriter, notice
from i18nprune.system.descriptors import claim_stdout

EXIT_OK, EXIT_NO_SHUTDOWN, EXIT_INTERRUPTED = 0, 1, 130
FIRST_ANSWER_GRACE = 0.5
"""How long the whole scan of a project waits for its first diagnostics to go out."""
GIL_SWITCH_SECONDS = 0.00025
"""As in `serve`: threads doing CPU work give the loop the GIL back often."""

# JSON-RPC and LSP error codes.
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR = (
    -32700,
    -32600,
    -32601,
    -32602,
    -32603,
)
SERVER_NOT_INITIALIZED, REQUEST_FAILED, REQUEST_CANCELLED = -32002, -32803, -32800

TRANSLATE_COMMAND = "i18nprune.translateKey"
REMOVE_UNUSED_KIND = "source.i18nprune.removeUnused"
DISPLAY_LOCALE_SETTING = "displayLocale"


@dataclass(frozen=True)
class LspSettings:
    """How the server was started: `allow_writes` enables the translate command (the only
    thing that writes); `workers` sizes the translation worker pool (None: as `generate` asks)."""

    allow_writes: bool = False
    workers: int | None = None


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
class _Open:
    """An open document and what was last computed of it."""

    document: Document
    root: Path | None
    relpath: str | None
    dirty: bool = True
    computed: tuple[int, ProjectState, CodeFile] | None = None
    """(version, state, code file) of the last diagnostics of a source file."""


@dataclass
class _Progress:
    """A translate command's work-done progress token."""

    token: str
    started: bool = False


@dataclass
class Session:
    settings: LspSettings
    writer: LineWriter
    nursery: trio.Nursery
    index: ScanIndex = field(default_factory=ScanIndex)
    ended: trio.Event = field(default_factory=trio.Event)
    exit_code: int = EXIT_NO_SHUTDOWN
    state: str = "new"
    encoding: Encoding = "utf-16"
    display_locale: str | None = None
    folders: dict[Path, FolderRouting | None] = field(default_factory=dict)
    documents: dict[str, _Open] = field(default_factory=dict)
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
        handler = _REQUESTS.get(method)
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
        handler = _NOTIFICATIONS.get(method)
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
            routing = await trio.to_thread.run_sync(route_folder, folder)
        except ProblemError as exc:
            self.show(1, str(exc), once=f"route {folder}")
            return
        self.folders[folder] = routing
        for uri, opened in self.documents.items():
            if opened.root is None:
                self._place(uri, opened)
                self.schedule(uri)

    def _place(self, uri: str, opened: _Open) -> None:
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
                if opened.root == root and _is_code(opened.relpath):
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
                envelope = await execute(
                    OPS["cleanup"], handle, CleanupOptions(dry_run=True), discard
                )
        except Exception as exc:
            notice(f"lsp: cleanup dry run of {root} failed:")
            notice("".join(traceback.format_exception(exc)))
            return
        if envelope.ok and isinstance(envelope.data, CleanupData):
            state.unused = envelope.data
        try:
            with scanning_with(self.index.scan, self.index):
                checked = await execute(OPS["quality"], handle, QualityOptions(), discard)
        except Exception as exc:
            notice(f"lsp: quality check of {root} failed:")
            notice("".join(traceback.format_exception(exc)))
        else:
            if isinstance(checked.data, QualityData):
                state.quality = checked.data.findings
        for uri, opened in self.documents.items():
            if opened.root == root and not _is_code(opened.relpath):
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

    async def _diagnostics(self, opened: _Open) -> tuple[int, list[features.Diagnostic]] | None:
        if opened.root is None or opened.relpath is None:
            return None
        state = await self.project_state(opened.root)
        if state is None:
            return None
        document = opened.document
        version, text, relpath = document.version, document.text, opened.relpath
        encoding = self.encoding
        if _is_code(relpath):
            file = await trio.to_thread.run_sync(state.code_file, relpath, text, self.index)
            opened.computed = (version, state, file)
            findings = await trio.to_thread.run_sync(state.code_findings, file)
        else:
            if state.locale_file(relpath) is None:
                return version, []
            findings = await trio.to_thread.run_sync(state.locale_findings, relpath, text)
        return version, features.diagnostics(findings, LineMap(text), encoding)

    async def code_file(self, uri: str) -> tuple[ProjectState, CodeFile, _Open] | None:
        """The open source file's sites at its current version."""
        opened = self.documents.get(uri)
        if (
            opened is None
            or opened.root is None
            or opened.relpath is None
            or not _is_code(opened.relpath)
        ):
            return None
        state = await self.project_state(opened.root)
        if state is None:
            return None
        computed = opened.computed
        if computed is not None and computed[0] == opened.document.version and computed[1] is state:
            return state, computed[2], opened
        file = await trio.to_thread.run_sync(
            state.code_file, opened.relpath, opened.document.text, self.index
        )
        opened.computed = (opened.document.version, state, file)
        return state, file, opened

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


# --- lifecycle ---------------------------------------------------------------------------------


async def _initialize(session: Session, params: dict[str, Any]) -> dict[str, Any]:
    if session.state != "new":
        raise LspError(INVALID_REQUEST, "The session is already initialized.")
    capabilities = params.get("capabilities") or {}
    offered = (capabilities.get("general") or {}).get("positionEncodings") or []
    if "utf-8" in offered:
        session.encoding = "utf-8"
    elif "utf-32" in offered:
        session.encoding = "utf-32"
    workspace = capabilities.get("workspace") or {}
    session.watched_files = bool(
        (workspace.get("didChangeWatchedFiles") or {}).get("dynamicRegistration")
    )
    options = params.get("initializationOptions") or {}
    if isinstance(options, dict) and isinstance(options.get(DISPLAY_LOCALE_SETTING), str):
        session.display_locale = options[DISPLAY_LOCALE_SETTING]
    for folder in params.get("workspaceFolders") or []:
        path = path_of(folder.get("uri", ""))
        if path is not None:
            session.add_folder(path)
    if not session.folders:
        root = path_of(params["rootUri"]) if params.get("rootUri") else None
        if root is None and params.get("rootPath"):
            root = Path(params["rootPath"])
        if root is not None:
            session.add_folder(root)
    session.state = "running"
    return {
        "capabilities": {
            "positionEncoding": session.encoding,
            "textDocumentSync": {"openClose": True, "change": 2, "save": {"includeText": False}},
            "hoverProvider": True,
            "completionProvider": {
                "triggerCharacters": ["'", '"', "`", ".", ":"],
                "resolveProvider": True,
            },
            "definitionProvider": True,
            "referencesProvider": True,
            "inlayHintProvider": True,
            "codeActionProvider": {"codeActionKinds": ["quickfix", REMOVE_UNUSED_KIND]},
            "renameProvider": {"prepareProvider": True},
            "documentSymbolProvider": True,
            "workspaceSymbolProvider": True,
            "executeCommandProvider": {"commands": [TRANSLATE_COMMAND]},
            "workspace": {"workspaceFolders": {"supported": True, "changeNotifications": True}},
        },
        "serverInfo": {"name": "i18nprune", "version": __version__},
    }


def _initialized(session: Session, params: dict[str, Any]) -> None:
    if session.watched_files:
        watchers = [{"globPattern": "**/*.json"}, {"globPattern": "**/i18nprune.*"}]
        session.request_client(
            "client/registerCapability",
            {
                "registrations": [
                    {
                        "id": "i18nprune-files",
                        "method": "workspace/didChangeWatchedFiles",
                        "registerOptions": {"watchers": watchers},
                    }
                ]
            },
        )


async def _shutdown(session: Session, params: dict[str, Any]) -> None:
    session.state = "shutting_down"
    return None


# --- documents ---------------------------------------------------------------------------------


def _did_open(session: Session, params: dict[str, Any]) -> None:
    item = params["textDocument"]
    document = Document(
        item["uri"], item.get("languageId", ""), item.get("version", 0), item["text"]
    )
    opened = _Open(document, None, None)
    session.documents[document.uri] = opened
    path = path_of(document.uri)
    if path is not None and session.project_of(path) is None and not session.folders:
        session.add_folder(path.parent)  # a single file opened without a workspace
    session._place(document.uri, opened)
    session.schedule(document.uri)


def _did_change(session: Session, params: dict[str, Any]) -> None:
    item = params["textDocument"]
    opened = session.documents.get(item["uri"])
    if opened is None:
        return
    changes = msgspec.convert(params["contentChanges"], list[ContentChange])
    opened.document.apply(
        changes, item.get("version", opened.document.version + 1), session.encoding
    )
    session.schedule(item["uri"])


def _did_save(session: Session, params: dict[str, Any]) -> None:
    uri = params["textDocument"]["uri"]
    opened = session.documents.get(uri)
    session.republish({opened.root} if opened is not None and opened.root is not None else None)


def _did_close(session: Session, params: dict[str, Any]) -> None:
    uri = params["textDocument"]["uri"]
    if session.documents.pop(uri, None) is not None:
        session.notify("textDocument/publishDiagnostics", {"uri": uri, "diagnostics": []})


def _did_change_folders(session: Session, params: dict[str, Any]) -> None:
    event = params.get("event") or {}
    for folder in event.get("removed") or []:
        path = path_of(folder.get("uri", ""))
        if path is not None:
            session.folders.pop(Path(os.path.realpath(path)), None)
    for folder in event.get("added") or []:
        path = path_of(folder.get("uri", ""))
        if path is not None:
            session.add_folder(path)


def _did_change_watched(session: Session, params: dict[str, Any]) -> None:
    roots: set[Path] = set()
    for change in params.get("changes") or []:
        path = path_of(change.get("uri", ""))
        if path is None:
            continue
        if path.name.startswith("i18nprune."):  # a config or the workspace file: route again
            for folder in list(session.folders):
                session.folders.pop(folder)
                session.add_folder(folder)
        owner = session.project_of(path)
        if owner is not None:
            roots.add(owner)
    session.republish(roots or None)


def _did_change_configuration(session: Session, params: dict[str, Any]) -> None:
    settings = params.get("settings")
    if isinstance(settings, dict):
        ours = settings.get("i18nprune", settings)
        if isinstance(ours, dict) and isinstance(ours.get(DISPLAY_LOCALE_SETTING), str):
            session.display_locale = ours[DISPLAY_LOCALE_SETTING]


def _cancel_progress(session: Session, params: dict[str, Any]) -> None:
    scope = session.progress_scopes.get(str(params.get("token")))
    if scope is not None:
        scope.cancel()


def _cancel(session: Session, params: dict[str, Any]) -> None:
    scope = session.in_flight.get(params.get("id"))  # type: ignore[arg-type]
    if scope is not None:
        scope.cancel()


# --- features ----------------------------------------------------------------------------------


def _position(params: dict[str, Any]) -> Position:
    return msgspec.convert(params["position"], Position)


async def _site(
    session: Session, params: dict[str, Any]
) -> tuple[ProjectState, CodeFile, _Open, Any] | None:
    found = await session.code_file(params["textDocument"]["uri"])
    if found is None:
        return None
    state, file, opened = found
    line, column = opened.document.lines.engine(_position(params), session.encoding)
    site = file.site_at(line, column)
    return (state, file, opened, site) if site is not None else None


async def _key_at(
    session: Session, params: dict[str, Any]
) -> tuple[ProjectState, str | None, str] | None:
    """(state, namespace, path) of the key at the position: a code site or a locale file's key."""
    uri = params["textDocument"]["uri"]
    opened = session.documents.get(uri)
    if opened is None or opened.root is None or opened.relpath is None:
        return None
    if _is_code(opened.relpath):
        found = await _site(session, params)
        if found is None:
            return None
        code_state, _, _, site = found
        return code_state, code_state.namespace_of(site), site.key
    state = await session.project_state(opened.root)
    if state is None:
        return None
    line, column = opened.document.lines.engine(_position(params), session.encoding)
    key = features.locale_key_at(state, opened.relpath, opened.document.text, line, column)
    return (state, *key) if key is not None else None


async def _whole(session: Session, state: ProjectState) -> ProjectState:
    """`state` once it holds the whole project's scan (what needs every code site)."""
    if state.complete:
        return state
    whole = await session.project_state(state.root, complete=True)
    if whole is None:
        raise LspError(REQUEST_FAILED, f"{state.root} could not be read again; see stderr.")
    return whole


async def _hover(session: Session, params: dict[str, Any]) -> dict[str, Any] | None:
    found = await _site(session, params)
    if found is None:
        key = await _key_at(session, params)
        if key is None:
            return None
        state, namespace, path = key
        state = await _whole(session, state)
        text = await trio.to_thread.run_sync(features.hover_for_key, state, namespace, path)
        return {"contents": {"kind": "markdown", "value": text}}
    state, _, opened, site = found
    text = await trio.to_thread.run_sync(features.hover_markdown, state, site)
    return {
        "contents": {"kind": "markdown", "value": text},
        "range": msgspec.to_builtins(
            features.site_range(site, opened.document.lines, session.encoding)
        ),
    }


async def _completion(session: Session, params: dict[str, Any]) -> dict[str, Any] | None:
    found = await session.code_file(params["textDocument"]["uri"])
    if found is None:
        return None
    state, file, opened = found
    relpath = file.relpath

    def read(text: str) -> CodeFile:
        return state.code_file(relpath, text, session.index)

    return await trio.to_thread.run_sync(
        features.completion_items,
        state,
        opened.document.lines,
        _position(params),
        session.encoding,
        read,
    )


async def _resolve_completion(session: Session, params: dict[str, Any]) -> dict[str, Any]:
    data = params.get("data") or {}
    state = session.states.get(Path(str(data.get("root", ""))))
    if state is None:
        return params
    return await trio.to_thread.run_sync(features.resolved_item, state, params)


async def _definition(session: Session, params: dict[str, Any]) -> list[Any]:
    key = await _key_at(session, params)
    if key is None:
        return []
    state, namespace, path = key

    def locate() -> list[features.Location]:
        return features.definition_locations(
            state, state.definitions(namespace, path), session.lines_of, session.encoding
        )

    return msgspec.to_builtins(await trio.to_thread.run_sync(locate))


async def _references(session: Session, params: dict[str, Any]) -> list[Any]:
    key = await _key_at(session, params)
    if key is None:
        return []
    state, namespace, path = key
    state = await _whole(session, state)
    include = bool((params.get("context") or {}).get("includeDeclaration"))

    def find() -> list[features.Location]:
        found = features.usage_locations(
            state, state.usages(namespace, path), session.lines_of, session.encoding
        )
        if include:
            found += features.definition_locations(
                state, state.definitions(namespace, path), session.lines_of, session.encoding
            )
        return found

    return msgspec.to_builtins(await trio.to_thread.run_sync(find))


async def _inlay_hints(session: Session, params: dict[str, Any]) -> list[Any]:
    found = await session.code_file(params["textDocument"]["uri"])
    if found is None:
        return []
    state, file, opened = found
    window = msgspec.convert(params["range"], Range)
    locale = session.display_locale if session.display_locale in state.locales else state.source
    assert locale is not None
    return await trio.to_thread.run_sync(
        features.inlay_hints, state, file, opened.document.lines, window, locale, session.encoding
    )


async def _document_symbols(session: Session, params: dict[str, Any]) -> list[Any]:
    uri = params["textDocument"]["uri"]
    opened = session.documents.get(uri)
    if opened is None or opened.root is None or opened.relpath is None or _is_code(opened.relpath):
        return []
    return await trio.to_thread.run_sync(
        features.locale_symbols, uri, opened.document.text, session.encoding
    )


async def _workspace_symbols(session: Session, params: dict[str, Any]) -> list[Any]:
    query = str(params.get("query", ""))
    found: list[Any] = []
    for root in sorted(
        {p.root for r in session.folders.values() if r is not None for p in r.projects}
    ):
        state = await session.project_state(root)
        if state is not None:
            found += await trio.to_thread.run_sync(
                features.key_symbols, state, query, session.lines_of, session.encoding
            )
    return found[: features.MAX_COMPLETIONS]


async def _code_actions(session: Session, params: dict[str, Any]) -> list[Any]:
    uri = params["textDocument"]["uri"]
    opened = session.documents.get(uri)
    if opened is None or opened.root is None or opened.relpath is None:
        return []
    state = await session.project_state(opened.root)
    if state is None:
        return []
    context = params.get("context") or {}
    diagnostics = msgspec.convert(context.get("diagnostics") or [], list[features.Diagnostic])
    only = context.get("only")
    actions: list[Any] = []
    if _is_code(opened.relpath):
        found = await session.code_file(uri)
        if found is None:
            return []
        state, file, opened = found
        if not diagnostics:  # a client that sends none: the findings under the range
            window = msgspec.convert(params["range"], Range)
            findings = await trio.to_thread.run_sync(state.code_findings, file)
            all_found = features.diagnostics(findings, opened.document.lines, session.encoding)
            diagnostics = [
                d
                for d in all_found
                if d.range.start.line <= window.end.line and d.range.end.line >= window.start.line
            ]
        for diagnostic in diagnostics:
            if diagnostic.code not in (MISSING_SOURCE, MISSING_TARGETS) or not diagnostic.data:
                continue
            key = str(diagnostic.data["key"])
            actions += await trio.to_thread.run_sync(
                features.add_key_actions,
                state,
                file,
                key,
                diagnostic,
                session.text_of,
                session.encoding,
            )
            if diagnostic.code == MISSING_TARGETS and session.settings.allow_writes:
                actions.append(
                    {
                        "title": f"Translate `{key}` into its missing locales",
                        "kind": "quickfix",
                        "diagnostics": [msgspec.to_builtins(diagnostic)],
                        "command": {
                            "title": "Translate",
                            "command": TRANSLATE_COMMAND,
                            "arguments": [{"projectRoot": str(state.root), "key": key}],
                        },
                    }
                )
    else:
        if state.unused is None:
            return []
        for diagnostic in diagnostics:
            if diagnostic.code == UNUSED and diagnostic.data:
                key = str(diagnostic.data["key"])
                actions += await trio.to_thread.run_sync(
                    features.remove_key_actions,
                    state,
                    [key],
                    session.text_of,
                    session.encoding,
                    diagnostic,
                )
        if not only or any(kind.startswith("source") for kind in only):
            relpath = opened.relpath
            assert relpath is not None
            keys = await trio.to_thread.run_sync(features.unused_in_file, state, relpath)
            if keys:
                actions += await trio.to_thread.run_sync(
                    lambda: features.remove_key_actions(
                        state, keys, session.text_of, session.encoding, None
                    )
                )
    if only:
        actions = [a for a in actions if any(a.get("kind", "").startswith(kind) for kind in only)]
    return actions


async def _prepare_rename(session: Session, params: dict[str, Any]) -> dict[str, Any] | None:
    found = await _site(session, params)
    if found is None:
        key = await _key_at(session, params)
        if key is None:
            raise LspError(REQUEST_FAILED, "There is no literal translation key here to rename.")
        state, namespace, path = key
        placeholder = state.syntax.display(namespace, path)
    else:
        state, _, opened, site = found
        namespace, path = state.namespace_of(site), site.key
        placeholder = state.display(site)
    state = await _whole(session, state)
    refusal = await trio.to_thread.run_sync(
        features.rename_refusal, state, namespace, path, session.text_of
    )
    if refusal is not None:
        raise LspError(REQUEST_FAILED, refusal)
    return {"placeholder": placeholder} | (
        {
            "range": msgspec.to_builtins(
                features.site_range(site, opened.document.lines, session.encoding)
            )
        }
        if found is not None
        else {}
    )


async def _rename(session: Session, params: dict[str, Any]) -> dict[str, Any]:
    key = await _key_at(session, params)
    if key is None:
        raise LspError(REQUEST_FAILED, "There is no literal translation key here to rename.")
    state, namespace, path = key
    state = await _whole(session, state)
    new_name = str(params["newName"])
    refusal = await trio.to_thread.run_sync(
        features.rename_refusal, state, namespace, path, session.text_of
    )
    if refusal is not None:
        raise LspError(REQUEST_FAILED, refusal)
    new_namespace, new_path = state.split(new_name)
    if new_namespace != namespace:
        raise LspError(
            REQUEST_FAILED,
            "Renaming a key into another namespace is not supported; move it by hand.",
        )
    if new_path == path:
        return {"changes": {}}
    taken = state.values(namespace, new_path)
    if any(value is not None for value in taken.values()):
        raise LspError(REQUEST_FAILED, f"`{new_name}` exists already; pick a name no locale holds.")
    edits = await trio.to_thread.run_sync(
        features.rename_edits, state, namespace, path, new_path, session.text_of, session.encoding
    )
    return {"changes": msgspec.to_builtins(edits)}


async def _execute_command(session: Session, params: dict[str, Any]) -> Any:
    if params.get("command") != TRANSLATE_COMMAND:
        raise LspError(INVALID_PARAMS, f"Unknown command `{params.get('command')}`.")
    if not session.settings.allow_writes:
        raise LspError(
            REQUEST_FAILED,
            "Translating writes locale files: start the server with "
            "`i18nprune lsp --allow-writes`.",
        )
    arguments = params.get("arguments") or [{}]
    argument = arguments[0] if isinstance(arguments[0], dict) else {}
    root = Path(str(argument.get("projectRoot", "")))
    if root not in session.states:
        raise LspError(INVALID_PARAMS, f"`{root}` is not an open project.")
    return await _translate_key(session, root, str(argument.get("key", "")))


async def _translate_key(session: Session, root: Path, key: str) -> dict[str, Any]:
    """Translate what the project's targets lack through `generate` (the pool and the
    configured provider), reporting work-done progress; the locale files are written by
    `generate`'s writer, the lock with them."""
    from i18nprune.ops.generate import GenerateOptions

    state = session.states[root]
    namespace, path = state.split(key)
    targets = [locale for locale, value in state.values(namespace, path).items() if value is None]
    if not targets:
        return {"translated": [], "message": f"`{key}` is in every locale already"}
    token = f"i18nprune-translate-{session.outgoing + 1}"
    session.request_client("window/workDoneProgress/create", {"token": token})
    begin = {"kind": "begin", "title": f"Translating {key}", "cancellable": True}
    session.notify("$/progress", {"token": token, "value": begin})
    handle = ProjectHandle(ProjectRequest(cwd=root, project=root, read_only=False))
    assert session.pools is not None
    from i18nprune.pool.lease import lending

    scope = session.progress_scopes[token] = trio.CancelScope()
    envelope = None
    try:
        with scope, lending(session.pools.lease), scanning_with(session.index.scan, session.index):
            envelope = await execute(
                OPS["generate"], handle, GenerateOptions(target=targets), discard
            )
    finally:
        del session.progress_scopes[token]
        session.index.invalidate(root)
        ended = "cancelled" if envelope is None else "done"
        session.notify("$/progress", {"token": token, "value": {"kind": "end", "message": ended}})
    if envelope is None:
        session.republish({root})
        raise LspError(REQUEST_CANCELLED, f"Translating `{key}` was cancelled.")
    session.republish({root})
    messages = [issue.message for issue in envelope.issues if issue.severity == "error"]
    if not envelope.ok:
        raise LspError(REQUEST_FAILED, "; ".join(messages) or "generate failed")
    return {"translated": targets}


_REQUESTS: dict[str, Any] = {
    "initialize": _initialize,
    "shutdown": _shutdown,
    "textDocument/hover": _hover,
    "textDocument/completion": _completion,
    "completionItem/resolve": _resolve_completion,
    "textDocument/definition": _definition,
    "textDocument/references": _references,
    "textDocument/inlayHint": _inlay_hints,
    "textDocument/documentSymbol": _document_symbols,
    "textDocument/codeAction": _code_actions,
    "textDocument/prepareRename": _prepare_rename,
    "textDocument/rename": _rename,
    "workspace/symbol": _workspace_symbols,
    "workspace/executeCommand": _execute_command,
}
_NOTIFICATIONS: dict[str, Any] = {
    "initialized": _initialized,
    "textDocument/didOpen": _did_open,
    "textDocument/didChange": _did_change,
    "textDocument/didSave": _did_save,
    "textDocument/didClose": _did_close,
    "workspace/didChangeWorkspaceFolders": _did_change_folders,
    "workspace/didChangeWatchedFiles": _did_change_watched,
    "workspace/didChangeConfiguration": _did_change_configuration,
    "$/cancelRequest": _cancel,
    "window/workDoneProgress/cancel": _cancel_progress,
}


def path_of(uri: str) -> Path | None:
    """The local path of a `file:` URI (None for another scheme)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


def _is_code(relpath: str | None) -> bool:
    return relpath is not None and Path(relpath).suffix.lower() in SCANNED_SUFFIXES


# --- process -----------------------------------------------------------------------------------


def serve_lsp(settings: LspSettings) -> int:
    """Serve LSP on this process's stdin/stdout until `exit`; the exit code (0 after
    `shutdown` then `exit`, 1 for `exit` without `shutdown` or end of input, 130 on Ctrl+C)."""
    sys.dont_write_bytecode = True
    protocol_fd = claim_stdout()
    sys.setswitchinterval(GIL_SWITCH_SECONDS)
    try:
        return trio.run(_serve, settings, protocol_fd)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BaseExceptionGroup as group:
        if group.subgroup(KeyboardInterrupt) is None:
            raise
        return EXIT_INTERRUPTED


async def _serve(settings: LspSettings, protocol_fd: int) -> int:
    writer = LineWriter(protocol_fd)
    async with trio.open_nursery() as outer:
        outer.start_soon(writer.run)
        async with trio.open_nursery() as nursery:
            session = Session(settings, writer, nursery)
            session.pools = SharedPool(nursery, settings.workers)
            nursery.start_soon(session.read_messages, FrameReader(0))
            nursery.start_soon(_end_when_broken, writer, session)
            notice(f"lsp: ready ({'writes enabled' if settings.allow_writes else 'read-only'})")
            await session.ended.wait()
            nursery.cancel_scope.cancel()
        session.index.close()
        writer.close()
        with trio.move_on_after(2.0):
            await writer.finished.wait()
        outer.cancel_scope.cancel()
    return session.exit_code


async def _end_when_broken(writer: LineWriter, session: Session) -> None:
    await writer.broken.wait()
    session.ended.set()
