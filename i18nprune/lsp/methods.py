"""The LSP methods `i18nprune lsp` answers: lifecycle, document sync, and each feature, as
handlers of a `Session` (`REQUESTS`, `NOTIFICATIONS`). CPU and file work goes to threads; the
answers are made by `lsp.features` from `lsp.engine`'s project states.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import trio

from i18nprune import __version__
from i18nprune.locales.formats import LOCALE_SUFFIXES
from i18nprune.lsp import features
from i18nprune.lsp.engine import MISSING_SOURCE, MISSING_TARGETS, UNUSED, CodeFile, ProjectState
from i18nprune.lsp.session import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    REQUEST_CANCELLED,
    REQUEST_FAILED,
    LspError,
    Notification,
    OpenDocument,
    Request,
    Session,
    path_of,
)
from i18nprune.lsp.text import ContentChange, Document, LineMap, Position, Range
from i18nprune.ops.engine.events import discard
from i18nprune.ops.engine.registry import GENERATE, execute
from i18nprune.ops.engine.scanning import scanning_with
from i18nprune.project import ProjectHandle, ProjectRequest
from i18nprune.scan import KeyObservation

TRANSLATE_COMMAND = "i18nprune.translateKey"
REMOVE_UNUSED_KIND = "source.i18nprune.removeUnused"
DISPLAY_LOCALE_SETTING = "displayLocale"


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
        watchers = [
            *({"globPattern": f"**/*{suffix}"} for suffix in LOCALE_SUFFIXES),
            {"globPattern": "**/i18nprune.*"},
        ]
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
    opened = OpenDocument(document, None, None)
    session.documents[document.uri] = opened
    path = path_of(document.uri)
    if path is not None and session.project_of(path) is None and not session.folders:
        session.add_folder(path.parent)  # a single file opened without a workspace
    session.place(document.uri, opened)
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


@dataclass(frozen=True)
class KeyAt:
    """The key at a position: a code site's (`site` set) or a locale file's key."""

    state: ProjectState
    namespace: str | None
    path: str
    site: KeyObservation | None
    lines: LineMap
    """The document's lines (for the site's range)."""


async def _key_at(session: Session, params: dict[str, Any]) -> KeyAt | None:
    """The key at the request's position, or None."""
    uri = params["textDocument"]["uri"]
    opened = session.documents.get(uri)
    if opened is None or opened.root is None or opened.relpath is None:
        return None
    if session.is_code(opened):
        found = await session.code_file(uri)
        if found is None:
            return None
        code_state, file, _ = found
        lines = opened.document.lines  # as of the sites just read
        line, column = lines.engine(_position(params), session.encoding)
        site = file.site_at(line, column)
        if site is None:
            return None
        site = code_state.held(file, site)  # the spelling the locales hold
        return KeyAt(code_state, code_state.namespace_of(site), site.key, site, lines)
    state = await session.project_state(opened.root)
    if state is None:
        return None
    lines = opened.document.lines
    line, column = lines.engine(_position(params), session.encoding)
    key = features.locale_key_at(state, opened.relpath, opened.document.text, line, column)
    return KeyAt(state, *key, None, lines) if key is not None else None


async def _whole(session: Session, state: ProjectState) -> ProjectState:
    """`state` once it holds the whole project's scan (what needs every code site)."""
    if state.complete:
        return state
    whole = await session.project_state(state.root, complete=True)
    if whole is None:
        raise LspError(REQUEST_FAILED, f"{state.root} could not be read again; see stderr.")
    return whole


async def _hover(session: Session, params: dict[str, Any]) -> dict[str, Any] | None:
    key = await _key_at(session, params)
    if key is None:
        return None
    if key.site is None:
        state = await _whole(session, key.state)
        text = await trio.to_thread.run_sync(features.hover_for_key, state, key.namespace, key.path)
        return {"contents": {"kind": "markdown", "value": text}}
    text = await trio.to_thread.run_sync(features.hover_markdown, key.state, key.site)
    where = features.site_range(key.site, key.lines, session.encoding)
    return {"contents": {"kind": "markdown", "value": text}, "range": msgspec.to_builtins(where)}


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
    state, namespace, path = key.state, key.namespace, key.path

    def locate() -> list[features.Location]:
        return features.definition_locations(
            state, state.definitions(namespace, path), session.lines_of, session.encoding
        )

    return msgspec.to_builtins(await trio.to_thread.run_sync(locate))


async def _references(session: Session, params: dict[str, Any]) -> list[Any]:
    key = await _key_at(session, params)
    if key is None:
        return []
    state, namespace, path = key.state, key.namespace, key.path
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
    if opened is None or opened.root is None or opened.relpath is None or session.is_code(opened):
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
    # Only ours: a client sends every diagnostic under the range, other servers' too.
    ours = [
        d
        for d in context.get("diagnostics") or []
        if isinstance(d, dict) and d.get("source") == features.SOURCE
    ]
    diagnostics = msgspec.convert(ours, list[features.Diagnostic])
    only = context.get("only")
    actions: list[Any] = []
    if session.is_code(opened):
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
    key = await _key_at(session, params)
    if key is None:
        raise LspError(REQUEST_FAILED, "There is no literal translation key here to rename.")
    state = await _whole(session, key.state)
    refusal = await trio.to_thread.run_sync(
        features.rename_refusal, state, key.namespace, key.path, session.text_of
    )
    if refusal is not None:
        raise LspError(REQUEST_FAILED, refusal)
    prepared: dict[str, Any] = {"placeholder": state.syntax.display(key.namespace, key.path)}
    if key.site is not None:
        where = features.site_range(key.site, key.lines, session.encoding)
        prepared["range"] = msgspec.to_builtins(where)
    return prepared


async def _rename(session: Session, params: dict[str, Any]) -> dict[str, Any]:
    key = await _key_at(session, params)
    if key is None:
        raise LspError(REQUEST_FAILED, "There is no literal translation key here to rename.")
    state, namespace, path = key.state, key.namespace, key.path
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
            envelope = await execute(GENERATE, handle, GenerateOptions(target=targets), discard)
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


REQUESTS: dict[str, Request] = {
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
NOTIFICATIONS: dict[str, Notification] = {
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
