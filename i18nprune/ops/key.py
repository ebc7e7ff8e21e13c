"""`op.key`: one key's text in every locale, where each locale file defines it and where the
code uses it — asked by name, or by a position in a source file (docs/serve.md#editor-ops)."""

from __future__ import annotations

import time
from typing import Annotated

import msgspec
import trio

from i18nprune.envelope import Code, Envelope, Issue, error, make_envelope
from i18nprune.locales.positions import KeyLocation, locate_paths
from i18nprune.locales.view import LocaleView
from i18nprune.ops.engine.events import EventSink
from i18nprune.ops.engine.scanning import remembered_value, scan_code
from i18nprune.ops.file import Range, site_range, source_relpath
from i18nprune.ops.keys import text_of
from i18nprune.project import Project, ProjectHandle, ProjectRequest
from i18nprune.reference import Evidence
from i18nprune.scan import KeyObservation

KIND = "key"


class KeyOptions(msgspec.Struct, frozen=True, kw_only=True):
    key: Annotated[str | None, msgspec.Meta(description="the key as code writes it")] = None
    path: Annotated[str | None, msgspec.Meta(description="or: a source file …")] = None
    line: Annotated[int, msgspec.Meta(ge=1, description="… a line in it (1-based) …")] | None = None
    column: (
        Annotated[int, msgspec.Meta(ge=1, description="… and a column (1-based, characters)")]
        | None
    ) = None


class Usage(msgspec.Struct, frozen=True):
    file: str
    range: Range


class KeyData(msgspec.Struct, frozen=True):
    key: str
    values: dict[str, str | None]
    """Locale → the key's text there (its `_other` plural form for a plural key); None where
    the locale lacks it."""
    definitions: list[KeyLocation]
    usages: list[Usage]


async def run(handle: ProjectHandle, options: KeyOptions, emit: EventSink) -> Envelope:
    """Look the key up (the scan comes from the server's index when it keeps one)."""
    started = time.perf_counter()
    project = await trio.to_thread.run_sync(handle.open)
    issues = project.readiness()
    problem = _options_problem(options)
    if problem is not None:
        return make_envelope(KIND, None, [*issues, problem], started=started)
    evidence = await scan_code(project, KIND, emit)
    data, found = await trio.to_thread.run_sync(
        _look_up, project, evidence, options, handle.request
    )
    return make_envelope(KIND, data, [*issues, *found], started=started)


def _options_problem(options: KeyOptions) -> Issue | None:
    by_position = (options.path, options.line, options.column)
    if options.key is not None and any(part is not None for part in by_position):
        message = "give `key`, or `path` with `line` and `column`, not both"
    elif options.key is None and any(part is None for part in by_position):
        message = "give `key`, or `path` with `line` and `column`"
    else:
        return None
    return error(Code.USAGE_ERROR, message)


def _look_up(
    project: Project, evidence: Evidence, options: KeyOptions, request: ProjectRequest
) -> tuple[KeyData | None, list[Issue]]:
    syntax = evidence.syntax
    if options.key is not None:
        namespace, path = syntax.split_namespace(options.key)
    else:
        assert options.path is not None and options.line and options.column
        relpath = source_relpath(project, options.path)
        site = _site_at(evidence.scan.observations, relpath, options.line, options.column)
        if site is None:
            where = f"{relpath}:{options.line}:{options.column}"
            return None, [error(Code.KEY_NOT_FOUND, f"no literal key is used at {where}", relpath)]
        namespace, path = site.namespace, site.key
    if syntax.uses_namespaces and namespace is None:
        namespace = syntax.default_namespace
    display = syntax.display(namespace, path)
    usages = [
        Usage(o.file, site_range(o))
        for o in evidence.scan.observations
        if o.key == path and (not syntax.uses_namespaces or o.namespace in (None, namespace))
    ]
    values: dict[str, str | None] = {}
    definitions: list[KeyLocation] = []
    issues: list[Issue] = []
    for locale, view in _locale_views(project, namespace, request):
        issues.extend(view.issues)
        spelled = spelled_path(view, path)
        values[locale] = text_of(view.leaves[spelled]) if spelled is not None else None
        if spelled is not None:
            definitions.extend(locate_paths(view, [spelled]).values())
    if not usages and all(value is None for value in values.values()) and not definitions:
        message = f"`{display}` is neither used in the code nor defined in any locale"
        return None, [*issues, error(Code.KEY_NOT_FOUND, message)]
    return KeyData(display, values, definitions, usages), issues


def _locale_views(
    project: Project, namespace: str | None, request: ProjectRequest
) -> list[tuple[str, LocaleView]]:
    """Every locale and its view of `namespace`, kept by a host that keeps snapshots (`serve`) while
    no file under the root changes: a lookup then reads no locale file."""

    def load() -> list[tuple[str, LocaleView]]:
        inventory, _ = project.inventory()
        return [(locale, project.load(locale, namespace)) for locale in inventory.locales()]

    return remembered_value(project, (KIND, "views", namespace), load, request)


def spelled_path(view: LocaleView, path: str) -> str | None:
    """The path `view` spells the key with: itself, else its `_other` plural form."""
    for candidate in (path, f"{path}_other"):
        if candidate in view.leaves:
            return candidate
    return None


def _site_at(
    observations: list[KeyObservation], relpath: str, line: int, column: int
) -> KeyObservation | None:
    """The innermost literal key site of `relpath` whose range holds the position."""
    holding = [
        o
        for o in observations
        if o.file == relpath
        and (o.line, o.column) <= (line, column) < (o.end_line, o.end_column)
        and not o.spelling
    ]
    return max(holding, key=lambda o: (o.line, o.column), default=None)
