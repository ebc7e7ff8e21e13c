"""`report`: the state of a project's translations as one document — coverage per locale, the
keys that need someone (missing, unused, stale, marked for review, with quality findings), the
dynamic sites, and, given a report saved earlier, what changed since.

The document is made of what the read ops answer (`validate`, `cleanup --dry-run`, `quality`,
`review`, `locales dynamic`), run in this process on one project handle, so every transport
reads the same figures; `reports/` turns it into a page, CSV or text. Nothing is written: the
command line writes the page where `--out` says.
"""

from __future__ import annotations

import datetime
import time
from pathlib import Path
from typing import Annotated, Literal

import msgspec

from i18nprune import __version__
from i18nprune.config.detect.packages import repository_root
from i18nprune.envelope import Code, Envelope, Issue, Severity, error, make_envelope
from i18nprune.locales.leaves import is_text, is_translation
from i18nprune.locales.view import LocaleView
from i18nprune.ops.engine.events import EventSink
from i18nprune.ops.engine.offload import run_blocking
from i18nprune.ops.engine.scanning import one_scan_per_options
from i18nprune.project import Project, ProjectHandle, ProjectRequest
from i18nprune.workspace import Workspace

KIND = "report"
SCHEMA = 1
"""The document's version: a baseline of another version is refused, not misread."""

KeyStatus = Literal["missing", "unused", "stale", "needsReview", "quality"]
STATUSES: tuple[KeyStatus, ...] = ("missing", "unused", "stale", "needsReview", "quality")


class ReportOptions(msgspec.Struct, frozen=True, kw_only=True):
    baseline: Annotated[
        str | None,
        msgspec.Meta(description="a report saved earlier (--format json): show what changed since"),
    ] = None
    out: Annotated[
        str | None,
        msgspec.Meta(
            description="write the report to this file (html, json, csv or text, from its "
            "extension unless --format says); command line only"
        ),
    ] = None


class LocaleRow(msgspec.Struct, frozen=True, rename="camel"):
    """One locale's coverage: of the source's `leaves` text leaves, how many it translates."""

    locale: str
    name: str
    source: bool
    leaves: int
    translated: int
    untranslated: int
    stale: int
    needs_review: int
    quality_errors: int
    quality_warnings: int

    @property
    def coverage(self) -> float:
        return self.translated / self.leaves if self.leaves else 1.0


class KeyRow(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """One key that needs someone, in one place: `file`/`line` relative to the project root
    (a code site for `missing`, the locale file for the others)."""

    key: str
    status: KeyStatus
    locale: str | None = None
    file: str | None = None
    line: int | None = None
    detail: str = ""


class DynamicRow(msgspec.Struct, frozen=True, omit_defaults=True):
    file: str
    line: int
    kind: str
    preview: str
    prefix: str | None = None


class Note(msgspec.Struct, frozen=True, omit_defaults=True):
    """An issue one of the read ops raised (a refusal, a file that did not parse)."""

    op: str
    severity: Severity
    code: str
    message: str
    path: str | None = None


class Counts(msgspec.Struct, frozen=True, rename="camel"):
    files_scanned: int
    source_keys: int
    missing: int
    unused: int
    dynamic: int
    stale: int
    needs_review: int
    quality_errors: int
    quality_warnings: int
    cleanup_refused: bool
    """`cleanup` refused to judge (thin evidence): `unused` is then 0, not "nothing unused"."""


class CoverageChange(msgspec.Struct, frozen=True):
    locale: str
    before: float | None
    after: float | None


class Changes(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """What changed since the baseline: keys by status, and coverage per locale."""

    baseline_generated_at: str
    newly: dict[str, list[str]]
    """Status → keys that have it now and did not then."""
    resolved: dict[str, list[str]]
    """Status → keys that had it then and do not now."""
    coverage: list[CoverageChange]
    new_project: bool = False
    """The baseline is a workspace's without this project: each of its keys is new in its
    status, each locale's coverage new."""


class ReportData(msgspec.Struct, frozen=True, rename="camel"):
    schema: int
    tool: str
    generated_at: str
    project: str
    folder: str
    """The project's folder relative to the repository that holds it (`.`: its root): which
    project a saved report is, whether it was run alone or at a workspace root."""
    source_locale: str
    counts: Counts
    locales: list[LocaleRow]
    keys: list[KeyRow]
    dynamic: list[DynamicRow]
    notes: list[Note]
    changes: Changes | None = None


class WorkspaceChanges(msgspec.Struct, frozen=True, rename="camel"):
    """What changed across a workspace since its baseline (each project's own changes are in
    its document): the projects compared with an earlier report of theirs, those new since
    and those gone, each named by its folder relative to the workspace root."""

    baseline_generated_at: str
    compared: list[str]
    new_projects: list[str]
    removed_projects: list[str]


class _Baseline(msgspec.Struct):
    """What a baseline of one project must hold: the document, or the `--format json`
    envelope around it."""

    schema: int
    generated_at: str = msgspec.field(name="generatedAt")
    locales: list[LocaleRow]
    keys: list[KeyRow]
    folder: str | None = None


class _SavedProject(msgspec.Struct):
    root: str
    data: _Baseline | None = None
    """None: the project's run failed then."""


class _WorkspaceBaseline(msgspec.Struct):
    """A workspace's saved report: each project's document by its folder relative to the
    workspace root."""

    projects: list[_SavedProject]

    @property
    def by_root(self) -> dict[str, _Baseline | None]:
        return {project.root: project.data for project in self.projects}

    @property
    def generated_at(self) -> str:
        """When it was made: its projects' earliest time (they were made in one run)."""
        times = [project.data.generated_at for project in self.projects if project.data]
        return min(times, default="")


async def run(handle: ProjectHandle, options: ReportOptions, emit: EventSink) -> Envelope:
    """The project's report (with the changes since `options.baseline` when given)."""
    from i18nprune.ops import cleanup, locales_dynamic, quality, review, validate

    started = time.perf_counter()
    baseline: _Comparison | None = None
    if options.baseline is not None:
        try:
            baseline = await run_blocking(_comparison, handle, options.baseline)
        except _BaselineError as exc:
            return make_envelope(KIND, None, [exc.issue], started=started)
    with one_scan_per_options():  # nothing is written between the ops: one scan serves them
        checked = await validate.run(handle, validate.ValidateOptions(), emit)
        if checked.data is None:
            # The project could not be read: nothing to report but why.
            return make_envelope(KIND, None, checked.issues, started=started)
        judged = await cleanup.run(handle, cleanup.CleanupOptions(dry_run=True), emit)
        found = await quality.run(handle, quality.QualityOptions(), emit)
        marked = await review.run(handle, review.ReviewOptions(dry_run=True), emit)
        sites = await locales_dynamic.run(handle, locales_dynamic.LocalesDynamicOptions(), emit)
    envelopes = {
        "validate": checked,
        "cleanup": judged,
        "quality": found,
        "review": marked,
        "locales.dynamic": sites,
    }
    project = await run_blocking(handle.open)
    data = await run_blocking(_compose, project, envelopes, baseline)
    return make_envelope(KIND, data, [], started=started)


class _BaselineError(Exception):
    def __init__(self, issue: Issue) -> None:
        super().__init__(issue.message)
        self.issue = issue


class _Comparison(msgspec.Struct, frozen=True):
    """What a project is compared with: its earlier document (None: nothing, see `notes`)."""

    document: _Baseline | None
    new_project: bool = False
    notes: list[Note] = []


def _comparison(handle: ProjectHandle, named: str) -> _Comparison:
    """What the project of `handle` is compared with, given the baseline `named` (relative
    to where the request comes from: the shell's folder for the command line, the project's
    root for a `serve` or `lsp` request, the workspace root for one at a workspace root).

    A workspace's saved report is matched by the project's folder relative to the workspace
    root at a workspace run, by its folder in the repository when the project runs alone; a
    one project's report, in a workspace run, applies to the project whose folder it
    records (`workspace_changes` checked that one does). Raises `_BaselineError`."""
    saved = read_baseline(Path(handle.request.cwd, named), named)
    member = handle.request.workspace_folder
    if isinstance(saved, _Baseline):
        folder = repository_folder(handle.open().root)
        if member is not None and saved.folder != folder:
            return _Comparison(None)  # the baseline of another project of the workspace
        if saved.folder in (None, folder):
            return _Comparison(saved)
        # Named explicitly, and a project may have moved: compared, with a word of warning.
        message = f"{named} is the report of `{saved.folder}`, not of this project (`{folder}`)"
        return _Comparison(saved, notes=[Note(KIND, "warning", Code.BASELINE_MISMATCH, message)])
    earlier = saved.by_root
    if member is not None:
        if member not in earlier:
            blank = _Baseline(SCHEMA, saved.generated_at, [], [])
            return _Comparison(blank, new_project=True)
        document = earlier[member]
        if document is None:
            message = f"{named} holds no report of this project (its run failed then)"
            note = Note(KIND, "warning", Code.BASELINE_MISMATCH, message)
            return _Comparison(None, notes=[note])
        return _Comparison(document)
    folder = repository_folder(handle.open().root)
    matching = [doc for doc in earlier.values() if doc is not None and doc.folder == folder]
    if len(matching) == 1:
        return _Comparison(matching[0])
    listed = ", ".join(earlier) or "none"
    raise _BaselineError(
        error(
            Code.BASELINE_MISMATCH,
            f"{named}: a workspace's report, and none of its projects ({listed}) is this "
            f"one (`{folder}` in its repository); run `report` at the workspace root, or "
            "pass a report saved in this project (`i18nprune report --format json --out FILE`)",
        )
    )


def workspace_changes(
    request: ProjectRequest, workspace: Workspace, options: ReportOptions
) -> tuple[WorkspaceChanges | None, list[Issue]]:
    """What changed across `workspace` since `options.baseline` (read relative to
    `request.cwd`): with a workspace's saved report, the projects compared, new and gone,
    matched by their folder relative to the workspace root; with one project's, the project
    whose folder in the repository it records — an error when none (or several) is."""
    if options.baseline is None:
        return None, []
    named = options.baseline
    try:
        saved = read_baseline(Path(request.cwd, named), named)
    except _BaselineError as exc:
        return None, [exc.issue]
    roots = [member.rel for member in workspace.projects]
    if isinstance(saved, _WorkspaceBaseline):
        earlier = saved.by_root
        changes = WorkspaceChanges(
            baseline_generated_at=saved.generated_at,
            compared=[root for root in roots if earlier.get(root) is not None],
            new_projects=[root for root in roots if root not in earlier],
            removed_projects=sorted(earlier.keys() - set(roots)),
        )
        return changes, []
    matching = [
        member.rel
        for member in workspace.projects
        if saved.folder is not None and repository_folder(member.root) == saved.folder
    ]
    if len(matching) == 1:
        return WorkspaceChanges(saved.generated_at, matching, [], []), []
    if saved.folder is None:
        which = "which does not record its folder"
    elif matching:
        which = f"`{saved.folder}` in its repository, as several of this workspace's are"
    else:
        which = f"`{saved.folder}` in its repository, none of this workspace's projects"
    message = (
        f"{named}: the report of one project ({which}: {', '.join(roots)}); pass a report "
        "saved at the workspace root (`i18nprune report --format json --out FILE` there), "
        "or run `report` in the project (`-C <project>`)"
    )
    return None, [error(Code.BASELINE_MISMATCH, message)]


def repository_folder(root: Path) -> str:
    """`root` relative to the repository that holds it (`repository_root`), POSIX-style;
    `.` at the repository's root."""
    return root.relative_to(repository_root(root)).as_posix()


def read_baseline(path: Path, named: str | None = None) -> _Baseline | _WorkspaceBaseline:
    """The report saved at `path` (a bare document or a `--format json` envelope), of one
    project or of a workspace. Raises `_BaselineError` naming the file (as `named`, when the
    caller spelled it otherwise) and what to do when it cannot be read as one."""
    shown = named if named is not None else str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise _BaselineError(
            error(Code.BASELINE_INVALID, f"{shown}: cannot read the baseline ({exc.strerror})")
        ) from exc
    try:
        document = msgspec.json.decode(raw)
        if isinstance(document, dict) and document.get("kind") == KIND:
            document = document.get("data")
        if isinstance(document, dict) and "projects" in document and "schema" not in document:
            saved = msgspec.convert(document, _WorkspaceBaseline)
            found = [project.data for project in saved.projects if project.data is not None]
            if any(data.schema != SCHEMA for data in found):
                raise msgspec.ValidationError(f"a workspace's, not of reports of schema {SCHEMA}")
            return saved
        if not isinstance(document, dict) or document.get("schema") != SCHEMA:
            raise msgspec.ValidationError(f"not a report of schema {SCHEMA}")
        return msgspec.convert(document, _Baseline)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise _BaselineError(
            error(
                Code.BASELINE_INVALID,
                f"{shown}: not a saved report ({exc}); save one with "
                "`i18nprune report --format json --out FILE`",
            )
        ) from exc


def _compose(
    project: Project, envelopes: dict[str, Envelope], baseline: _Comparison | None
) -> ReportData:
    from i18nprune.ops.cleanup import CleanupData
    from i18nprune.ops.locales_dynamic import LocalesDynamicData
    from i18nprune.ops.quality import QualityData
    from i18nprune.ops.review import ReviewData
    from i18nprune.ops.validate import ValidateData

    checked = envelopes["validate"].data
    assert isinstance(checked, ValidateData)
    judged = envelopes["cleanup"].data
    found = envelopes["quality"].data
    marked = envelopes["review"].data
    sites = envelopes["locales.dynamic"].data
    keys: list[KeyRow] = []
    for key in checked.missing:
        places = checked.missing_sites.get(key) or []
        first = places[0] if places else None
        keys.append(
            KeyRow(
                key,
                "missing",
                checked.source_locale,
                first.file if first else None,
                first.line if first else None,
                f"used in {len(places)} place(s), absent from the source locale",
            )
        )
    sources = project.load_namespaces(checked.source_locale)
    refused = not isinstance(judged, CleanupData) or not envelopes["cleanup"].ok
    if isinstance(judged, CleanupData):
        texts = _source_texts(sources)
        for key in judged.keys:
            where = judged.key_locations.get(key) or []
            place = where[0] if where else None
            text = texts.get(key)
            keys.append(
                KeyRow(
                    key,
                    "unused",
                    place.locale if place else checked.source_locale,
                    place.file if place else None,
                    place.line if place else None,
                    "no code site uses it"
                    + (f": {_shortened(text)}" if text else "")
                    + (" (cleanup refused: see notes)" if refused else ""),
                )
            )
    if isinstance(marked, ReviewData):
        for mark in marked.marks:
            keys.append(KeyRow(mark.path, "needsReview", mark.target, mark.file, None, mark.value))
    quality_by_locale: dict[str, list[int]] = {}
    if isinstance(found, QualityData):
        for finding in found.findings:
            tally = quality_by_locale.setdefault(finding.target, [0, 0])
            tally[0 if finding.severity == "error" else 1] += finding.severity != "info"
            if finding.severity == "info":
                continue
            keys.append(
                KeyRow(
                    finding.path,
                    "quality",
                    finding.target,
                    finding.file,
                    finding.line,
                    f"{finding.severity}: {finding.message}",
                )
            )
    stale = _stale_keys(project, sources)
    for locale, paths in stale.items():
        for path in paths:
            keys.append(KeyRow(path, "stale", locale, None, None, "source text changed since"))
    review_counts: dict[str, int] = {}
    if isinstance(marked, ReviewData):
        for mark in marked.marks:
            review_counts[mark.target] = review_counts.get(mark.target, 0) + 1
    stale_counts = {code: len(paths) for code, paths in stale.items()}
    locales = _coverage(project, sources, stale_counts, review_counts, quality_by_locale)
    dynamic = (
        [
            DynamicRow(site.file, site.line, site.kind, site.preview, site.prefix)
            for site in sites.sites
            if site.kind != "commented"
        ]
        if isinstance(sites, LocalesDynamicData)
        else []
    )
    notes = _notes(envelopes) + (baseline.notes if baseline is not None else [])
    counts = Counts(
        files_scanned=checked.files_scanned,
        source_keys=next((row.leaves for row in locales if row.source), 0),
        missing=len(checked.missing),
        unused=len(judged.keys) if isinstance(judged, CleanupData) and not refused else 0,
        dynamic=len(dynamic),
        stale=sum(len(paths) for paths in stale.values()),
        needs_review=sum(review_counts.values()),
        quality_errors=sum(tally[0] for tally in quality_by_locale.values()),
        quality_warnings=sum(tally[1] for tally in quality_by_locale.values()),
        cleanup_refused=refused,
    )
    keys.sort(key=lambda row: (STATUSES.index(row.status), row.key, row.locale or ""))
    generated = datetime.datetime.now(datetime.UTC).replace(microsecond=0).isoformat()
    data = ReportData(
        schema=SCHEMA,
        tool=f"i18nprune {__version__}",
        generated_at=generated,
        project=project.root.name,
        folder=repository_folder(project.root),
        source_locale=checked.source_locale,
        counts=counts,
        locales=locales,
        keys=keys,
        dynamic=dynamic,
        notes=notes,
    )
    if baseline is None or baseline.document is None:
        return data
    changes = changes_since(baseline.document, data)
    if baseline.new_project:
        changes = msgspec.structs.replace(changes, new_project=True)
    return msgspec.structs.replace(data, changes=changes)


def changes_since(baseline: _Baseline, now: ReportData) -> Changes:
    """Keys newly in and out of each status, and each locale's coverage then and now."""
    newly: dict[str, list[str]] = {}
    resolved: dict[str, list[str]] = {}
    for status in STATUSES:
        before = {row.key for row in baseline.keys if row.status == status}
        after = {row.key for row in now.keys if row.status == status}
        if after - before:
            newly[status] = sorted(after - before)
        if before - after:
            resolved[status] = sorted(before - after)
    then = {row.locale: row.coverage for row in baseline.locales}
    current = {row.locale: row.coverage for row in now.locales}
    coverage = [
        CoverageChange(locale, then.get(locale), current.get(locale))
        for locale in sorted(then.keys() | current.keys())
        if then.get(locale) != current.get(locale)
    ]
    return Changes(baseline.generated_at, newly, resolved, coverage)


def _source_texts(sources: dict[str | None, LocaleView]) -> dict[str, str]:
    """The source locale's text of each key (`sources`: its view of each namespace), as
    cleanup names keys without namespaces (a key like Lingui's `VHOVEJ` says nothing to a
    reader without its text)."""
    view = sources.get(None)
    if view is None or len(sources) != 1:
        return {}
    return {path: leaf.value for path, leaf in view.leaves.items() if isinstance(leaf.value, str)}


def _shortened(text: str, limit: int = 80) -> str:
    """`text` on one line, cut at `limit` characters."""
    line = " ".join(text.split())
    return repr(line if len(line) <= limit else line[: limit - 1] + "…")


def _coverage(
    project: Project,
    sources: dict[str | None, LocaleView],
    stale: dict[str, int],
    review_counts: dict[str, int],
    quality: dict[str, list[int]],
) -> list[LocaleRow]:
    """Each locale's row: the source's text leaves (`sources`: its view of each namespace),
    and how many of them it translates (a translation, `is_translation`, that is not empty)."""
    source = project.source_locale()
    inventory, _ = project.inventory()
    codes = [source, *sorted(code for code in inventory.segments if code != source)]
    wanted = {
        (namespace, path)
        for namespace, view in sources.items()
        for path, leaf in view.leaves.items()
        if is_text(leaf)
    }
    rows: list[LocaleRow] = []
    for code in codes:
        views = sources if code == source else project.load_namespaces(code)
        translated = sum(
            1
            for namespace, path in wanted
            if (leaf := views[namespace].leaves.get(path)) is not None
            and is_translation(leaf)
            and leaf.value != ""
        )
        errors, warnings = quality.get(code, [0, 0])
        rows.append(
            LocaleRow(
                locale=code,
                name=_locale_name(code),
                source=code == source,
                leaves=len(wanted),
                translated=translated,
                untranslated=len(wanted) - translated,
                stale=stale.get(code, 0),
                needs_review=review_counts.get(code, 0),
                quality_errors=errors,
                quality_warnings=warnings,
            )
        )
    return rows


def _locale_name(code: str) -> str:
    """The catalog's English name of `code` (`pt-br`: `Portuguese (Brazil)`), else the code:
    the table's first column already spells the code."""
    from i18nprune.locales.catalog import find_language

    row = find_language(code)
    return row.english if row is not None else code


def _stale_keys(project: Project, sources: dict[str | None, LocaleView]) -> dict[str, list[str]]:
    """Each target the lock file tracks → its stale paths, judged as `validate` counts them
    against `sources` (the source's view of each namespace); none without a usable lock:
    `validate`'s note says why."""
    from i18nprune.translate.lock import LockFileError, read_lock, read_pending, stale_leaves

    try:
        lock = read_lock(project.root)
    except LockFileError:
        return {}
    if lock is None:
        return {}
    found = stale_leaves(lock, sources, project.load, project.editor, read_pending(project.root))
    stale: dict[str, list[str]] = {}
    for (code, _), (_, paths) in found.items():
        stale.setdefault(code, []).extend(paths)
    return {code: sorted(paths) for code, paths in stale.items() if paths}


# Issues that sum up, per locale and kind, findings the key table lists one by one and the
# coverage table counts: on elk they were 124 of 127 notes, burying a refusal or a file that
# did not parse.
_LISTED_ONE_BY_ONE = frozenset(
    {
        Code.QUALITY_PLACEHOLDERS,
        Code.QUALITY_PLURAL_FORMS,
        Code.QUALITY_IDENTICAL,
        Code.QUALITY_LENGTH,
        Code.QUALITY_WHITESPACE,
        Code.QUALITY_GLOSSARY,
        Code.REVIEW_PENDING,
    }
)


def _notes(envelopes: dict[str, Envelope]) -> list[Note]:
    """The errors and warnings of every read op, each once (the scan's are raised by all),
    but for the summaries of findings the key table lists (`_LISTED_ONE_BY_ONE`)."""
    seen: set[tuple[str, str]] = set()
    notes: list[Note] = []
    for op, envelope in envelopes.items():
        for issue in envelope.issues:
            if issue.severity == "info" or issue.code in _LISTED_ONE_BY_ONE:
                continue
            if (issue.code, issue.message) in seen:
                continue
            seen.add((issue.code, issue.message))
            notes.append(Note(op, issue.severity, issue.code, issue.message, issue.path))
    return notes
