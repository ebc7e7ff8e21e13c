"""`op.file`: the diagnostics and key sites of one source file, for an editor
(docs/serve.md#editor-ops) — of the file on disk, or of an unsaved buffer."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Annotated, Literal

import msgspec
import trio

from i18nprune.config.lookup import confine
from i18nprune.envelope import (
    Code,
    Envelope,
    Issue,
    Severity,
    has_errors,
    issue_place,
    make_envelope,
)
from i18nprune.locales.view import LocaleView
from i18nprune.ops.engine.events import EventSink
from i18nprune.ops.engine.scanning import scan_buffer, scan_code
from i18nprune.project import Project, ProjectHandle
from i18nprune.reference import Evidence, MissingPlaces
from i18nprune.scan import DynamicSite, KeyObservation

KIND = "file"

SiteStatus = Literal["ok", "missing", "dynamic"]


class FileOptions(msgspec.Struct, frozen=True, kw_only=True):
    path: Annotated[
        str, msgspec.Meta(min_length=1, description="the source file (relative to the root)")
    ]
    text: Annotated[
        str | None, msgspec.Meta(description="its unsaved content (default: the file on disk)")
    ] = None


class Range(msgspec.Struct, frozen=True, rename="camel"):
    """1-based lines and columns (characters); the end is exclusive."""

    line: int
    column: int
    end_line: int
    end_column: int


class Diagnostic(msgspec.Struct, frozen=True, omit_defaults=True):
    range: Range
    severity: Severity
    code: str
    message: str
    key: str | None = None


class Site(msgspec.Struct, frozen=True, omit_defaults=True):
    key: str
    """The key as code writes it (`ns:path`); for a dynamic site, its source text."""
    range: Range
    status: SiteStatus
    prefix: str | None = None
    """A dynamic site's static prefix: it may reach the keys that start with it (`None`: none
    known)."""
    suffix: str | None = None
    """A dynamic site's static suffix, when its key has no static head: it may reach the keys
    that end with it."""
    message: str | None = None
    """For a key that is the id Lingui generated of a message (`VHOVEJ`), that message."""


class FileData(msgspec.Struct, frozen=True):
    path: str
    diagnostics: list[Diagnostic]
    sites: list[Site]


async def run(handle: ProjectHandle, options: FileOptions, emit: EventSink) -> Envelope:
    """Scan the project (the server's index keeps that warm; an unsaved `text` is read in
    place of the file, against the kept scan: the cost of that file) and report the file's
    sites and what is wrong with them."""
    started = time.perf_counter()
    project, relpath, views, issues = await trio.to_thread.run_sync(_open, handle, options)
    if has_errors(issues):
        return make_envelope(KIND, FileData(options.path, [], []), issues, started=started)
    if options.text is None:
        evidence = await scan_code(project, KIND, emit)
    else:
        content = options.text.encode("utf-8", "surrogatepass")
        evidence = await scan_buffer(project, KIND, emit, relpath, content)
    data = await trio.to_thread.run_sync(_describe, evidence, views, relpath)
    issues += [issue for issue in evidence.scan.issues if issue.path == relpath]
    return make_envelope(KIND, data, issues, started=started)


def _open(
    handle: ProjectHandle, options: FileOptions
) -> tuple[Project, str, dict[str | None, LocaleView], list[Issue]]:
    project = handle.open()
    issues = project.readiness()
    relpath = source_relpath(project, options.path)
    views = project.load_namespaces(project.source_locale())
    for view in views.values():
        issues.extend(view.issues)
    return project, relpath, views, issues


def source_relpath(project: Project, path: str) -> str:
    """`path` (relative to the root, or absolute inside it) as the scan names it. Raises
    ProblemError for a path outside the root."""
    absolute = Path(os.path.realpath(project.root / path))
    confine(project.root, str(absolute), "path")
    return absolute.relative_to(project.root).as_posix()


def _describe(evidence: Evidence, views: dict[str | None, LocaleView], relpath: str) -> FileData:
    sites = file_sites(evidence, views, relpath)
    return FileData(relpath, file_diagnostics(evidence, views, relpath, sites), sites)


def file_sites(evidence: Evidence, views: dict[str | None, LocaleView], relpath: str) -> list[Site]:
    """Every key site of `relpath`, in file order: literal keys `ok` or `missing` from the
    source locale (whose namespaces' views are `views`), and dynamic sites."""
    lacking = _lacking(evidence, views, relpath)
    sites = []
    for observation in _spelled_once(evidence.scan.observations, relpath):
        missing = lacking.of(observation)
        shown = missing or observation  # a missing site by the spelling its locale would hold
        sites.append(
            Site(
                evidence.syntax.display(shown.namespace, shown.key),
                site_range(observation),
                "missing" if missing is not None else "ok",
                message=shown.default if shown.generated else None,
            )
        )
    sites += [
        Site(site.preview, site_range(site), "dynamic", site.prefix, site.suffix or None)
        for site in evidence.scan.dynamic
        if site.file == relpath and site.kind != "commented"
    ]
    return sorted(sites, key=lambda site: (site.range.line, site.range.column, site.key))


def file_diagnostics(
    evidence: Evidence,
    views: dict[str | None, LocaleView],
    relpath: str,
    sites: list[Site] | None = None,
) -> list[Diagnostic]:
    """What is wrong in `relpath`: each use of a key the source locale lacks (error), each
    dynamic site (information: its keys cannot be checked), and a syntax error (warning).
    `sites` are the file's `file_sites`, when the caller has them already."""
    view = next(iter(views.values()), None)
    source = view.name if view is not None else None
    found = [
        Diagnostic(
            site.range,
            "error",
            Code.VALIDATE_MISSING,
            f"`{site.key}`"
            + (f" ({site.message!r})" if site.message is not None else "")
            + " is missing from the source locale"
            + (f" `{source}`" if source is not None else ""),
            site.key,
        )
        for site in (sites if sites is not None else file_sites(evidence, views, relpath))
        if site.status == "missing"
    ]
    found += [
        Diagnostic(
            site_range(site),
            "info",
            Code.VALIDATE_DYNAMIC,
            "dynamic key: its keys cannot be checked statically" + protected_by(site),
        )
        for site in evidence.scan.dynamic
        if site.file == relpath and site.kind != "commented"
    ]
    found += [_parse_diagnostic(issue) for issue in evidence.scan.issues if issue.path == relpath]
    return sorted(found, key=lambda d: (d.range.line, d.range.column, d.code))


def protected_by(site: DynamicSite) -> str:
    """What a dynamic site's diagnostic says it protects."""
    if site.suffix:
        return f"; keys ending with `{site.suffix}` are protected"
    if site.prefix:
        return f"; keys starting with `{site.prefix}` are protected"
    return ""


def site_range(site: KeyObservation | DynamicSite) -> Range:
    """The range of a site's call."""
    return Range(site.line, site.column, site.end_line, site.end_column)


def _lacking(
    evidence: Evidence, views: dict[str | None, LocaleView], relpath: str
) -> MissingPlaces:
    paths = {namespace: view.leaves.keys() for namespace, view in views.items()}
    return MissingPlaces(evidence.missing_sites(paths, relpath))


def _spelled_once(observations: list[KeyObservation], relpath: str) -> list[KeyObservation]:
    """The file's observations, with a site's several spellings (`<Trans>` children) as its
    first one."""
    return [o for o in observations if o.file == relpath and not o.spelling]


def _parse_diagnostic(issue: Issue) -> Diagnostic:
    """A scan issue of the file (a syntax error, a file that could not be read), located where
    its message says (`path:line:col: …`), else at the file's start."""
    line, column, message = issue_place(issue)
    return Diagnostic(Range(line, column, line, column + 1), issue.severity, issue.code, message)
