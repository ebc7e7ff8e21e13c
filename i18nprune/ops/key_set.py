"""`op.key.set`: set one leaf of one locale through the format-preserving writer — an editor's
"add missing key" and "edit translation" (docs/serve.md#editor-ops)."""

from __future__ import annotations

import time
from typing import Annotated

import msgspec
import trio

from i18nprune.envelope import (
    Code,
    Envelope,
    Issue,
    ProblemError,
    error,
    has_errors,
    make_envelope,
)
from i18nprune.locale_codes import normalize_code
from i18nprune.locales.editor import FileChange
from i18nprune.locales.leaves import is_message_object
from i18nprune.ops.engine.events import EventSink
from i18nprune.ops.missing import HomeFiles
from i18nprune.ops.shared.targets import select_targets
from i18nprune.project import Project, ProjectHandle

KIND = "key.set"


class KeySetOptions(msgspec.Struct, frozen=True, kw_only=True):
    key: Annotated[
        str, msgspec.Meta(min_length=1, description="the key as code writes it (`ns:path`)")
    ]
    locale: Annotated[str, msgspec.Meta(description="the locale to write")]
    value: Annotated[str, msgspec.Meta(description="the text to set")]
    create: Annotated[
        bool,
        msgspec.Meta(description="create the locale file the leaf goes to when there is none"),
    ] = False


class KeySetData(msgspec.Struct, frozen=True):
    key: str
    locale: str
    file: str | None
    """The file that holds the leaf (relative to the root); None when nothing was written."""
    changed: bool
    """Whether the file's bytes changed (setting the text a leaf already has changes none)."""
    files: list[FileChange]


async def run(handle: ProjectHandle, options: KeySetOptions, emit: EventSink) -> Envelope:
    """Set `key` to `value` in `locale`, in the file that holds it, or (a new key) where
    `missing` would put it; the write is atomic and keeps the file's format. A file that does
    not exist yet (a new locale, a new namespace) is created only with `create`; without it
    nothing is written (`i18nprune.key.no_file`). Runs off the loop.
    """
    started = time.perf_counter()
    data, issues = await trio.to_thread.run_sync(_set, handle, options)
    return make_envelope(KIND, data, issues, started=started)


def _set(handle: ProjectHandle, options: KeySetOptions) -> tuple[KeySetData, list[Issue]]:
    project = handle.open()
    locale = normalize_code(options.locale)
    issues = project.readiness()
    unchanged = KeySetData(options.key, locale, None, False, [])
    if locale != project.source_locale():
        _, found = select_targets(project, [options.locale], allow_new=True)
        issues.extend(found)
    if has_errors(issues):
        return unchanged, issues
    syntax = project.key_syntax()
    namespace, path = syntax.split_namespace(options.key)
    if syntax.uses_namespaces and namespace is None:
        namespace = syntax.default_namespace
    view = project.load(locale, namespace)
    if has_errors(view.issues):  # never rewrite a file that does not parse
        return unchanged, [*issues, *view.issues]
    editor = project.editor(view)
    holder = editor.segment_of(path)
    file = holder or HomeFiles(view).file_for(path)
    if file is None:
        inventory, _ = project.inventory()
        segments = inventory.segments.get(locale)
        name = segments[0].name if segments else options.locale.strip()
        file = project.namespace_file(name, namespace or syntax.default_namespace)
    if not options.create and not file.exists():
        message = (
            f"{project.locale_name(options.locale)} has no file for `{options.key}` "
            f"({project.relative(file)} would be created): set `create: true` to create it"
        )
        return unchanged, [*issues, error(Code.KEY_NO_FILE, message)]
    try:
        if not editor.document(file).reaches(path):
            # An array item past the end of its array, or a key the grammar gives no path.
            message = (
                f"`{options.key}` cannot be set in {project.locale_name(options.locale)}: its "
                f"path {path!r} names no place a "
                "leaf can go (an array cannot have a gap; the empty key has no path)"
            )
            return unchanged, [*issues, error(Code.KEY_NO_PLACE, message)]
        existing = editor.get(path)
        editor.set(path, _leaf(project, options.value, existing), file)
        changes = editor.changes()
        editor.save()
    except ProblemError as exc:  # unwritable, outside the root: the file stays as it was
        return unchanged, [*issues, *exc.issues]
    [change] = changes
    return KeySetData(options.key, locale, change.path, change.changed, changes), issues


def _leaf(project: Project, text: str, existing: object) -> object:
    """What to store: the bare text, or a structured leaf (a person's text: reviewed) that keeps
    the other fields of the leaf it replaces. A structured-JSON message takes the bare text
    (the writer keeps its fields)."""
    structured = project.config.locale_leaves.mode == "structured"
    if is_message_object(existing) or not (structured or isinstance(existing, dict)):
        return text
    leaf: dict[str, object] = dict(existing) if isinstance(existing, dict) else {}
    leaf["value"] = text
    for flag in ("needsTranslationAgain", "needsReview"):  # a person wrote this text
        leaf.pop(flag, None)
    return leaf
