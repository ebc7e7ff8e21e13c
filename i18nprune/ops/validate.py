"""`validate`: the keys the code uses against the source locale."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import msgspec

from i18nprune.envelope import Code, Envelope, Issue, error, make_envelope, warning
from i18nprune.locales.derived import digest_of
from i18nprune.locales.view import LocaleView
from i18nprune.ops.engine.events import EventSink, ProgressEvent
from i18nprune.ops.engine.offload import run_blocking
from i18nprune.ops.engine.scanning import remembered_run, scan_code
from i18nprune.ops.shared.evidence_report import NamingSite, excluded_folders_note, naming_sites
from i18nprune.ops.shared.near_twins import NearTwinPair, SourceRange, finding, pairs, source_twins
from i18nprune.ops.shared.nothing_read import locales_not_read, sources_not_scanned
from i18nprune.ops.shared.suggestions import Suggestion, source_evidence, suggest
from i18nprune.ops.shared.unreadable_locales import unreadable_locale_files
from i18nprune.project import Project, ProjectHandle
from i18nprune.reference import (
    MESSAGE_KINDS,
    Evidence,
    MissingKey,
    literal_candidates,
    unresolved_names,
    unused_keys,
)
from i18nprune.scan import KeyObservation, ScanResult
from i18nprune.translate.descriptions import Descriptions, key_descriptions
from i18nprune.translate.lock import (
    PENDING_FILE,
    Lock,
    LockFileError,
    lock_key,
    lock_path,
    read_lock,
    read_pending,
    stale_counts,
)

KIND = "validate"


class ValidateOptions(msgspec.Struct, frozen=True, kw_only=True):
    """`validate` has no options of its own; the global flags shape the project."""


class Count(msgspec.Struct, frozen=True):
    count: int


class DynamicCounts(msgspec.Struct, frozen=True):
    count: int
    active: int
    commented: int


class ValidateData(msgspec.Struct, frozen=True, rename="camel"):
    source_locale: str
    files_scanned: int
    missing: list[str]
    count: int
    key_observations: Count
    dynamic: DynamicCounts
    suggestions: list[Suggestion]
    missing_sites: dict[str, list[SourceRange]] = {}
    """Each missing key → its call sites, in file order."""
    messages: dict[str, str] = {}
    """Each missing key that is the id Lingui generated of a message (`VHOVEJ`) → that
    message, which names it to a reader."""
    stale_translations: dict[str, int] = {}
    """Each target `i18nprune.lock.json` tracks → its stale leaves (source text changed since
    they were translated); empty without a lock file."""
    descriptions: dict[str, str] = {}
    """Each key that has a description → it (`<segment>.meta.json` over an `// i18n:` comment
    above a call site), sorted by key."""
    missing_nested: dict[str, list[NamingSite]] = {}
    """Each key the messages of used keys name (`$t(key)`, `@:key`) that the source locale
    lacks → those messages, sorted by key."""
    near_twins: list[NearTwinPair] = []
    """Each missing key that has a near twin in the source (`missing` lists it too), by key."""
    locale_names: dict[str, str] = {}
    """Each locale code above (normalised: `pt-br`) → how the project spells it (`pt_BR`)."""
    source_unreadable: list[str] = []
    """The source locale's files that do not parse: no key is compared (`missing` is empty;
    the issues say where each fails)."""
    not_read: list[str] = []
    """What the run found and could not read, a sentence each: no locale folder, a locale
    folder without a JSON locale file, a source locale that does not parse, no source file
    scanned. With any but the last, no key is compared (`missing` is empty)."""


def source_views(project: Project) -> dict[str | None, LocaleView]:
    """The source locale's view of each namespace (one view, `None`, with namespaces off)."""
    return project.load_namespaces(project.source_locale())


def missing_in(evidence: Evidence, views: dict[str | None, LocaleView]) -> list[MissingKey]:
    """The code keys the locale whose namespaces `views` are lacks."""
    return evidence.missing({namespace: view.leaves for namespace, view in views.items()})


def _what_dynamic_sites_protect(scan: ScanResult) -> str:
    """What the active dynamic key sites keep from removal: the keys under their static heads,
    or ending with their static tails; said plainly when they have neither."""
    active = [
        site for site in scan.dynamic if site.kind != "commented" and site.kind not in MESSAGE_KINDS
    ]
    if any(site.prefix is not None for site in active):
        return "their prefixes are protected"
    suffixes = {site.suffix for site in active if site.suffix}
    if suffixes:
        return f"no prefix is protected: keys ending with {len(suffixes)} suffix(es) are"
    return "none has a static prefix or suffix, so no key is protected by them"


def dynamic_counts(scan: ScanResult) -> DynamicCounts:
    """The dynamic sites by place: a site that reaches several places is several records."""
    places = {(site.file, site.line, site.column, site.kind) for site in scan.dynamic}
    commented = sum(1 for place in places if place[3] == "commented")
    return DynamicCounts(count=len(places), active=len(places) - commented, commented=commented)


@dataclass(frozen=True)
class _Loaded:
    project: Project
    views: dict[str | None, LocaleView]
    literal_texts: dict[int, str]
    issues: list[Issue]
    stale: dict[str, int] = field(default_factory=dict)


def _load(handle: ProjectHandle) -> _Loaded:
    project = handle.open()
    views = source_views(project)
    texts = literal_candidates(views.values(), project.key_syntax())
    issues = project.readiness()
    return _Loaded(project, views, texts, issues, _stale_counts(project, views, issues))


def _stale_counts(
    project: Project, views: dict[str | None, LocaleView], issues: list[Issue]
) -> dict[str, int]:
    """Stale leaves per target from the lock file; without one, nothing more is read. A lock
    that cannot be used is a warning here (`generate` refuses it)."""
    try:
        lock = read_lock(project.root)
    except LockFileError as exc:
        issues.extend(msgspec.structs.replace(issue, severity="warning") for issue in exc.issues)
        return {}
    if lock is None:
        return {}
    pending = read_pending(project.root)
    counted = _kept_counts(project, views, pending)
    return stale_counts(lock, views, project.load, project.editor, counted, pending)


def _kept_counts(
    project: Project, views: dict[str | None, LocaleView], pending: Lock
) -> Callable[[str, str | None, Callable[[], int]], int]:
    """Stale counts of target namespaces kept between runs (`Project.derived_counts`): one
    is counted again when its target files, the lock file, the journal of its entries
    (`pending`) or its source namespace changed."""
    counts = project.derived_counts()
    lock_file = lock_path(project.root)
    literal_keys = project.key_syntax().key_separator is None
    placeholder = project.config.missing.placeholder
    against: dict[str | None, bytes] = {}

    def counted(code: str, namespace: str | None, count: Callable[[], int]) -> int:
        if namespace not in against:
            leaves = list(views[namespace].leaves.values())
            against[namespace] = digest_of([placeholder, literal_keys, leaves])
        key = f"stale/{lock_key(code, namespace)}"
        journal = [project.root / PENDING_FILE] if pending.get(lock_key(code, namespace)) else []
        segments = [segment.path for segment in project.segments(code, namespace)]
        files = [lock_file, *journal, *segments]
        return counts.count(key, against[namespace], files, count)

    return counted


async def run(handle: ProjectHandle, options: ValidateOptions, emit: EventSink) -> Envelope:
    """Compare code keys with the source locale; `ok` is false when keys are missing. Opening
    the project, reading the locales and comparing run off the event loop; a host that keeps
    snapshots answers from the last run while no file changed (`remembered_run`)."""
    return await remembered_run(handle, KIND, options, emit, partial(_run, handle, emit))


async def _run(handle: ProjectHandle, emit: EventSink) -> tuple[Envelope, Project]:
    started = time.perf_counter()
    loaded = await run_blocking(_load, handle, abandon_on_cancel=True)
    evidence = await scan_code(loaded.project, KIND, emit, loaded.literal_texts)
    emit(ProgressEvent(type=f"run.progress.{KIND}", phase="compare"))
    envelope = await run_blocking(_compare, loaded, evidence, started)
    emit(ProgressEvent(type=f"run.progress.{KIND}", phase="done"))
    return envelope, loaded.project


def sites_by_key(evidence: Evidence, lacking: list[KeyObservation]) -> dict[str, list[SourceRange]]:
    """Each missing key (as `validate` names it) → the call sites that use it, from the sites
    `Evidence.missing_sites` found."""
    syntax = evidence.syntax
    sites: dict[str, list[SourceRange]] = {}
    for observation in lacking:
        namespace = observation.namespace if syntax.uses_namespaces else None
        sites.setdefault(syntax.display(namespace, observation.key), []).append(
            SourceRange.of(observation)
        )
    return sites


def _shown(evidence: Evidence, described: Descriptions) -> dict[str, str]:
    """Descriptions by key as the project writes keys (`ns:key` with namespaces), sorted."""
    shown = {evidence.syntax.display(space, key): text for (space, key), text in described.items()}
    return dict(sorted(shown.items()))


def _compare(loaded: _Loaded, evidence: Evidence, started: float) -> Envelope:
    project, views = loaded.project, loaded.views
    issues = list(loaded.issues)
    scan = evidence.scan
    issues.extend(scan.issues)
    for view in views.values():
        issues.extend(view.issues)
    source = project.source_locale()
    inventory, _ = project.inventory()
    issues.extend(
        unreadable_locale_files(project, [code for code in inventory.locales() if code != source])
    )
    gaps = _gaps(project, views, scan, issues)
    lacking = (
        []
        if gaps.locales
        else evidence.missing_sites({namespace: view.leaves for namespace, view in views.items()})
    )
    missing_keys = evidence.missing_keys(lacking)
    missing = [evidence.syntax.display(m.namespace, m.key) for m in missing_keys]
    # A generated id (Lingui's `VHOVEJ`) is shown with its message, which names it to a reader.
    named = {key: m.named(key) for key, m in zip(missing, missing_keys, strict=True)}
    counts = dynamic_counts(scan)
    described, found = key_descriptions(views, evidence)
    issues.extend(found)
    twins = pairs(source_twins(project, evidence, views, lacking), evidence.syntax)
    paired = {pair.key for pair in twins}
    alone = [key for key in missing if key not in paired]
    if alone:
        shown = ", ".join(named[key] for key in alone[:5]) + (", …" if len(alone) > 5 else "")
        issues.append(
            error(
                Code.VALIDATE_MISSING,
                f"{len(alone)} key(s) used in code are missing from the source locale "
                f"`{project.locale_name(project.source_locale())}`: {shown}",
            )
        )
    issues.extend(finding(pair, project.locale_name(project.source_locale())) for pair in twins)
    stale = {code: count for code, count in loaded.stale.items() if count}
    if stale:
        names = {code: project.locale_name(code) for code in stale}
        listed = ", ".join(f"{names[code]} ({count})" for code, count in stale.items())
        fix = project.command(f"generate --target {','.join(names.values())}")
        issues.append(
            warning(
                Code.GENERATE_STALE,
                f"{sum(stale.values())} translation(s) are stale — the source text changed "
                f"since they were translated: {listed}; run `{fix}` to re-translate those "
                "generate wrote and list those a person edited",
            )
        )
    unused = unused_keys(views, evidence, project.config.policies.preserve)
    nested = {} if gaps.locales else _missing_nested(views, unused, evidence)
    if nested:
        issues.append(_missing_nested_warning(project, nested))
    share = source_evidence(project, evidence, views, unused, len(missing))
    if share.too_thin and not gaps.locales:
        issues.append(
            warning(
                Code.VALIDATE_THIN_EVIDENCE,
                f"the code proves too little: {share.describe()}; `cleanup` would refuse to "
                "remove them. Check that `src` and `functions` cover the code that uses keys "
                f"(`{project.command('config')}`)",
            )
        )
    excluded = excluded_folders_note(scan)
    if excluded is not None:
        issues.append(excluded)
    # FormatJS messages without a known id have the scan's own warning.
    built = counts.active - sum(1 for site in scan.dynamic if site.kind in MESSAGE_KINDS)
    if built:
        issues.append(
            warning(
                Code.VALIDATE_DYNAMIC,
                f"{built} dynamic key site(s) cannot be checked statically; "
                f"{_what_dynamic_sites_protect(scan)} (see `i18nprune locales dynamic`)",
            )
        )
    data = ValidateData(
        source_locale=project.source_locale(),
        files_scanned=scan.files,
        missing=missing,
        count=len(missing),
        key_observations=Count(sum(1 for o in scan.observations if not o.generated)),
        dynamic=counts,
        suggestions=gaps.suggestions
        if gaps.locales
        else gaps.suggestions + suggest(project, views, len(missing), share, twins),
        missing_sites=sites_by_key(evidence, lacking),
        messages={
            key: m.default
            for key, m in zip(missing, missing_keys, strict=True)
            if m.generated and m.default
        },
        stale_translations=loaded.stale,
        descriptions=_shown(evidence, described),
        missing_nested=nested,
        near_twins=twins,
        locale_names=project.locale_names([project.source_locale(), *loaded.stale]),
        source_unreadable=gaps.source_unreadable,
        not_read=gaps.reasons,
    )
    project.derived_counts().save()
    return make_envelope(KIND, data, issues, started=started)


@dataclass(frozen=True)
class _Gaps:
    """What `validate` could not read, and so must not draw conclusions from."""

    reasons: list[str]
    suggestions: list[Suggestion]
    source_unreadable: list[str]
    locales: bool
    """No source key was read: nothing is compared, and only these suggestions are made."""


def _gaps(
    project: Project, views: dict[str | None, LocaleView], scan: ScanResult, issues: list[Issue]
) -> _Gaps:
    """Say first what was not read (the issue goes to the front of `issues`, in place of the
    bare missing-folder error): no locale folder, a folder of no JSON locale file, a source
    locale that does not parse (its parse errors say where), no source file scanned."""
    reasons: list[str] = []
    suggestions: list[Suggestion] = []
    # A source file that does not parse lacks every key it holds: its error is the finding,
    # not the keys the code uses from it, nor the tips that would act on them.
    unreadable = sorted(
        {
            issue.path or "?"
            for view in views.values()
            for issue in view.issues
            if issue.severity == "error"
        }
    )
    locales = locales_not_read(project)
    if locales is not None:
        issues[:] = [locales.issue, *(i for i in issues if i.code != Code.LOCALES_DIR_MISSING)]
        reasons.append(locales.reason)
        suggestions.extend(locales.suggestions)
    elif unreadable:
        name = project.locale_name(project.source_locale())
        reasons.append(f"the source locale `{name}` does not parse ({', '.join(unreadable)})")
    sources = sources_not_scanned(project, scan.files)
    if sources is not None:
        issues.insert(1 if locales is not None else 0, sources.issue)
        reasons.append(sources.reason)
        suggestions.extend(sources.suggestions)
    return _Gaps(reasons, suggestions, unreadable, locales is not None or bool(unreadable))


def _missing_nested(
    views: dict[str | None, LocaleView],
    unused: dict[str | None, list[str]],
    evidence: Evidence,
) -> dict[str, list[NamingSite]]:
    """Keys the messages of used keys name that the source lacks → where those messages are."""
    unresolved = unresolved_names(views, unused, evidence.syntax)
    return {
        evidence.syntax.display(namespace, key): naming_sites(
            messages, views.values(), evidence.syntax
        )
        for (namespace, key), messages in sorted(
            unresolved.items(), key=lambda item: (item[0][0] or "", item[0][1])
        )
    }


def _missing_nested_warning(project: Project, nested: dict[str, list[NamingSite]]) -> Issue:
    shown = []
    for key, sites in list(nested.items())[:5]:
        where = f" (in `{sites[0].message}`, {sites[0].file}:{sites[0].line})" if sites else ""
        shown.append(f"{key}{where}")
    more = ", …" if len(nested) > 5 else ""
    first = next((sites[0].file for sites in nested.values() if sites), None)
    return warning(
        Code.VALIDATE_MISSING_NESTED,
        f"{len(nested)} key(s) named inside the messages of used keys are missing from the "
        f"source locale `{project.locale_name(project.source_locale())}`: "
        f"{', '.join(shown)}{more}",
        path=first,
    )
