"""`cleanup`: remove locale keys the code does not use, keeping what dynamic sites may need, what
quoted strings in the code name, and what the messages of the keys that stay name."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated

import msgspec

from i18nprune.envelope import (
    Code,
    Envelope,
    Issue,
    ProblemError,
    error,
    has_errors,
    info,
    make_envelope,
    warning,
)
from i18nprune.locales.editor import FileChange
from i18nprune.locales.named_keys import naming_paths
from i18nprune.locales.paths import array_items
from i18nprune.locales.positions import KeyLocation, locate_paths
from i18nprune.locales.view import LocaleView, translatable_paths
from i18nprune.ops.engine.events import EventSink
from i18nprune.ops.engine.offload import run_blocking
from i18nprune.ops.engine.scanning import scan_code
from i18nprune.ops.shared.evidence_report import (
    NamedKey,
    excluded_folders_note,
    named_note,
    naming_sites,
    referenced_note,
)
from i18nprune.ops.shared.near_twins import NearTwinPair, kept_note, pairs, source_twins
from i18nprune.ops.shared.targets import source_or_targets
from i18nprune.project import Project, ProjectHandle
from i18nprune.reference import (
    Evidence,
    NamingMessage,
    NearTwin,
    ThinEvidence,
    dynamic_warning,
    kept_paths,
    literal_candidates,
    nothing_proven_cause,
    referenced_paths,
    removal_gate,
    source_gate,
    spare_named,
    thin_evidence_gate,
    uncertain_kept,
    unread_code_gate,
    unresolved_sites,
    unused_paths,
)
from i18nprune.scan import LiteralSite

KIND = "cleanup"


class CleanupOptions(msgspec.Struct, frozen=True, kw_only=True):
    target: Annotated[
        list[str] | None,
        msgspec.Meta(description="clean these target locales instead of the source (or `all`)"),
    ] = None
    dry_run: Annotated[bool, msgspec.Meta(description="report, write nothing")] = False
    ask: Annotated[bool, msgspec.Meta(description="confirm each key (interactive only)")] = False
    keys: Annotated[
        list[str] | None, msgspec.Meta(description="remove only these of the unused keys")
    ] = None
    yes: Annotated[bool, msgspec.Meta(description="confirm the removal")] = False
    force: Annotated[
        bool,
        msgspec.Meta(
            description="remove even when some source files could not be scanned or the "
            "evidence is thin (keys used only there may be removed)"
        ),
    ] = False


class ReferencedKey(msgspec.Struct, frozen=True):
    """A key no call uses but quoted strings in the code name: kept, with where it is named."""

    key: str
    sites: list[LiteralSite]


class CleanupData(msgspec.Struct, frozen=True, rename="camel"):
    would_remove: int
    keys: list[str]
    uncertain_prefixes: list[str]
    """Prefixes of dynamic sites that kept a candidate: keys starting with them were kept."""
    uncertain_suffixes: list[str]
    """Suffixes of dynamic sites (with no static head) that kept a candidate: keys ending with
    them, or plural and context forms of such keys, were kept."""
    removed: int
    targets: list[str]
    dry_run: bool
    files: list[FileChange]
    referenced: list[ReferencedKey]
    key_locations: dict[str, list[KeyLocation]]
    """Where each candidate (`keys`) is defined, in every locale file cleaned."""
    named_in_messages: list[NamedKey] = []
    """Keys no call uses that the messages of the keys that stay name (`$t(key)`, `@:key`):
    kept, with those messages."""
    near_twins: list[NearTwinPair] = []
    """Unused keys kept apart: each is the near twin of a key the code uses that the source
    lacks (renaming it keeps its translations). Removed only when `--keys` names them."""
    locale_names: dict[str, str] = {}
    """Each of `targets` (normalised: `pt-br`) → how the project spells it (`pt_BR`)."""


@dataclass
class _Plan:
    """What cleanup would remove from each view, and what it keeps and why."""

    removable: dict[tuple[str, str | None], list[str]] = field(default_factory=dict)
    prefixes: set[str] = field(default_factory=set)
    suffixes: set[str] = field(default_factory=set)
    referenced: dict[str, list[LiteralSite]] = field(default_factory=dict)
    unused: int = 0
    """How many paths look unused (before `--keys` chose among them, less those a kept
    message names)."""
    paths: int = 0
    """How many translatable paths the cleaned views hold."""
    named: dict[str, list[NamingMessage]] = field(default_factory=dict)
    """Candidates the messages of the keys that stay name (by display), with those messages."""
    twins: set[str] = field(default_factory=set)
    """The near twins (as reports name keys) kept out of the candidates."""

    @property
    def count(self) -> int:
        return sum(len(paths) for paths in self.removable.values())


def _gate(options: CleanupOptions, count: int) -> Issue | None:
    """Why this run must not write, when it must not."""
    if options.dry_run or count == 0 or options.yes:
        return None
    if options.ask:
        return error(
            Code.CONFIRMATION_REQUIRED,
            "--ask needs an interactive terminal; pass --yes to remove the listed keys, or "
            "--keys to choose them",
        )
    return error(
        Code.CONFIRMATION_REQUIRED,
        f"removing {count} key(s) needs confirmation: pass --yes (or --dry-run to preview)",
    )


def _decide(
    project: Project,
    views: dict[tuple[str, str | None], LocaleView],
    locales: list[str],
    evidence: Evidence,
    options: CleanupOptions,
    twins: list[NearTwin],
) -> _Plan:
    """What to remove from each view of `locales`, and what is kept and why. A path of a near
    twin (`twins`) is removed only when `--keys` names it."""
    policy = project.config.reference.policy_for("cleanup")
    chosen = set(options.keys) if options.keys is not None else None
    kept = {(twin.namespace, path) for twin in twins for path in twin.paths}
    plan = _Plan()
    for (locale, namespace), view in views.items():
        if locale not in locales:
            continue
        reference = evidence.reference(namespace)
        paths = translatable_paths(view)
        unused = unused_paths(
            paths, reference, project.config.policies.preserve, protect_uncertain=False
        )
        items = array_items(paths)  # a dynamic site reaching one item reaches the array
        prefixes = {path: _first(reference.uncertain_prefix, path, items) for path in unused}
        suffixes = {path: _first(reference.uncertain_suffix, path, items) for path in unused}
        if policy != "allow":
            plan.prefixes |= {reference.display(p) for p in prefixes.values() if p is not None}
            plan.suffixes |= {reference.display(s) for s in suffixes.values() if s is not None}
            unused = [path for path in unused if prefixes[path] is None and suffixes[path] is None]
        plan.unused += len(unused)
        plan.paths += len(paths) - sum(len(found) - 1 for found in items.values())
        twins_here = {path for path in unused if (namespace, path) in kept}
        plan.twins |= {reference.display(path) for path in twins_here}
        plan.removable[(locale, namespace)] = [
            path
            for path in unused
            if (chosen is None and path not in twins_here)
            or (chosen is not None and reference.display(path) in chosen)
        ]
        for path, sites in referenced_paths(paths, reference).items():
            plan.referenced.setdefault(reference.display(path), sites)
    _spare_named(project, views, evidence, plan, protect_uncertain=policy != "allow")
    return plan


def _first(
    uncertain: Callable[[str], str | None], path: str, items: dict[str, list[str]]
) -> str | None:
    """What `uncertain` answers for `path`, or for the first item of the array it holds."""
    found = (uncertain(each) for each in [path, *items.get(path, ())])
    return next((answer for answer in found if answer is not None), None)


def _spare_named(
    project: Project,
    views: dict[tuple[str, str | None], LocaleView],
    evidence: Evidence,
    plan: _Plan,
    *,
    protect_uncertain: bool,
) -> None:
    """Take out of the plan the candidates the messages of the keys that stay name. A target
    cleaned follows the source's messages too, from the keys the source uses: a key the target
    lacks reads the source's message, whose nested keys i18next then looks up in the target."""
    source = project.source_locale()
    sources = {namespace: view for (locale, namespace), view in views.items() if locale == source}
    used: dict[str | None, set[str]] | None = None
    for locale in sorted({locale for locale, _ in plan.removable}):
        own = {namespace: view for (at, namespace), view in views.items() if at == locale}
        followed = [own] if locale == source else [own, sources]
        references = project.key_syntax().key_references
        if not any(
            naming_paths(view, references=references)
            for views_ in followed
            for view in views_.values()
        ):
            continue  # no message names a key
        removable = {
            namespace: set(plan.removable.get((locale, namespace), ())) for namespace in own
        }
        kept = {
            namespace: kept_paths(view.leaves, removable[namespace])
            for namespace, view in own.items()
        }
        if locale != source:
            if used is None:
                used = _used_in_source(project, sources, evidence, protect_uncertain)
            for namespace, paths in used.items():
                kept[namespace] = kept.get(namespace, set()) | paths
        spared = spare_named(removable, kept, followed, evidence.syntax)
        for (namespace, path), messages in spared.items():
            plan.named.setdefault(evidence.reference(namespace).display(path), []).extend(messages)
            plan.removable[(locale, namespace)].remove(path)
            plan.unused -= 1


def _used_in_source(
    project: Project,
    sources: dict[str | None, LocaleView],
    evidence: Evidence,
    protect_uncertain: bool,
) -> dict[str | None, set[str]]:
    """The source paths the evidence keeps (every path but those `unused_paths` names)."""
    preserve = project.config.policies.preserve
    return {
        namespace: kept_paths(
            view.leaves,
            unused_paths(
                translatable_paths(view),
                evidence.reference(namespace),
                preserve,
                protect_uncertain=protect_uncertain,
            ),
        )
        for namespace, view in sources.items()
    }


def _apply(
    project: Project,
    views: dict[tuple[str, str | None], LocaleView],
    plan: _Plan,
    *,
    write: bool,
) -> tuple[list[FileChange], int, list[Issue]]:
    """Remove the planned paths (and save, when `write`): the changes, how many were removed,
    and the files that could not be edited."""
    changes: list[FileChange] = []
    removed = 0
    issues: list[Issue] = []
    for slot, paths in plan.removable.items():
        editor = project.editor(views[slot])
        try:
            for path in paths:
                removed += editor.delete_key(path)
            changes.extend(editor.changes())
            if write:
                editor.save()
        except ProblemError as exc:
            issues.append(exc.issue)
    return sorted(changes, key=lambda change: change.path), removed, issues


@dataclass(frozen=True)
class _Loaded:
    """What a cleanup looks at: the project, the locales to clean, and their locale views."""

    project: Project
    locales: list[str]
    views: dict[tuple[str, str | None], LocaleView]
    """Each (locale, namespace)'s view, the source's included."""
    literals: dict[int, str]
    """The locale texts whose quoted occurrences in the code count as evidence."""
    issues: list[Issue]


async def run(handle: ProjectHandle, options: CleanupOptions, emit: EventSink) -> Envelope:
    """Remove unused paths from the source (or `--target` locales); `--yes` to write.

    Opening the project, reading the locales, scanning and writing all run off the event loop.
    """
    started = time.perf_counter()
    loaded = await run_blocking(_load, handle, options, started)
    if isinstance(loaded, Envelope):
        return loaded
    evidence = await scan_code(loaded.project, KIND, emit, loaded.literals)
    return await run_blocking(_clean, loaded, evidence, options, started)


def _load(handle: ProjectHandle, options: CleanupOptions, started: float) -> _Loaded | Envelope:
    """The project and the views of the locales to clean (and of the source), or the envelope
    of a run that cannot start."""
    project = handle.open()
    issues: list[Issue] = project.readiness()
    locales, target_issues = source_or_targets(project, options.target)
    issues.extend(target_issues)
    if has_errors(issues):
        names = project.locale_names(locales)
        empty = CleanupData(
            0, [], [], [], 0, locales, options.dry_run, [], [], {}, [], locale_names=names
        )
        return make_envelope(KIND, empty, issues, started=started)
    views = {
        (locale, namespace): view
        for locale in sorted({project.source_locale(), *locales})
        for namespace, view in project.load_namespaces(locale).items()
    }
    literals = literal_candidates(views.values(), project.key_syntax())
    return _Loaded(project, locales, views, literals, issues)


def _clean(
    loaded: _Loaded, evidence: Evidence, options: CleanupOptions, started: float
) -> Envelope:
    """Decide what is unused, remove it (when allowed and confirmed), and report."""
    project, views, locales = loaded.project, loaded.views, loaded.locales
    issues = [*loaded.issues, *_evidence_issues(project, views, locales, evidence)]
    twins = source_twins(project, evidence, _sources(project, views))
    plan = _decide(project, views, locales, evidence, options, twins)
    kept = [
        pair
        for pair in pairs(twins, evidence.syntax)
        if plan.twins & (set(pair.twin_paths) - set(options.keys or ()))
    ]
    refusals = _refusals(project, views, evidence, options, plan)
    # located before the keys leave the files
    named = [
        NamedKey(key, naming_sites(messages, views.values(), evidence.syntax))
        for key, messages in sorted(plan.named.items())
    ]
    issues.extend(_plan_notes(project, plan, named, evidence))
    note = kept_note(KIND, kept)
    if note is not None:
        issues.append(note)
    issues.extend(refusals)
    blocked = next((gate for gate in refusals if gate.severity == "error"), None)
    if blocked is None:
        blocked = _gate(options, plan.count)
        if blocked is not None:
            issues.append(blocked)
    write = not options.dry_run and blocked is None
    locations = _key_locations(views, plan, evidence)  # before the keys leave the files
    changes, removed, write_issues = _apply(project, views, plan, write=write)
    issues.extend(write_issues)
    data = CleanupData(
        would_remove=plan.count,
        keys=sorted(
            {
                evidence.reference(namespace).display(path)
                for (_, namespace), paths in plan.removable.items()
                for path in paths
            }
        ),
        uncertain_prefixes=sorted(plan.prefixes),
        uncertain_suffixes=sorted(plan.suffixes),
        removed=removed if write else 0,
        targets=locales,
        dry_run=options.dry_run,
        files=changes,
        referenced=[ReferencedKey(key, sites) for key, sites in sorted(plan.referenced.items())],
        key_locations=locations,
        named_in_messages=named,
        near_twins=kept,
        locale_names=project.locale_names(locales),
    )
    return make_envelope(KIND, data, issues, started=started)


def _sources(
    project: Project, views: dict[tuple[str, str | None], LocaleView]
) -> dict[str | None, LocaleView]:
    """The source locale's view of each namespace, among `views`."""
    source = project.source_locale()
    return {namespace: view for (locale, namespace), view in views.items() if locale == source}


def _key_locations(
    views: dict[tuple[str, str | None], LocaleView], plan: _Plan, evidence: Evidence
) -> dict[str, list[KeyLocation]]:
    """Where each candidate is defined in the files as they are now."""
    located: dict[str, list[KeyLocation]] = {}
    for slot, paths in plan.removable.items():
        reference = evidence.reference(slot[1])
        for path, location in locate_paths(views[slot], paths).items():
            located.setdefault(reference.display(path), []).append(location)
    return dict(sorted(located.items()))


def _evidence_issues(
    project: Project,
    views: dict[tuple[str, str | None], LocaleView],
    locales: list[str],
    evidence: Evidence,
) -> list[Issue]:
    """What the scan and the locale files reported, and whether the scan proved anything."""
    issues = list(evidence.scan.issues)
    for (locale, _), view in views.items():
        if locale in locales or locale == project.source_locale():
            issues.extend(view.issues)
    if evidence.reference().proves_nothing:
        issues.append(
            warning(
                Code.CLEANUP_NOTHING_PROVEN,
                "the scan found no key in the code, so nothing is provably unused; "
                + nothing_proven_cause(evidence.scan),
            )
        )
    return issues


def _refusals(
    project: Project,
    views: dict[tuple[str, str | None], LocaleView],
    evidence: Evidence,
    options: CleanupOptions,
    plan: _Plan,
) -> list[Issue]:
    """Why nothing may be removed: a source locale read in part, code that was not scanned, or
    evidence too thin to tell used keys from unused ones."""
    source = project.source_locale()
    sources = [view for (locale, _), view in views.items() if locale == source]
    leaves = {
        namespace: view.leaves for (locale, namespace), view in views.items() if locale == source
    }
    thin = ThinEvidence(
        candidates=plan.unused,
        keys=plan.paths,
        unresolved=unresolved_sites(evidence.scan, {namespace for _, namespace in views}),
        guessed=project.guessed_configuration(),
        limit=project.config.reference.max_unused_share,
        missing=len(evidence.missing(leaves)),
    )
    gates = (
        *(source_gate(KIND, view) for view in sources),
        *(
            unread_code_gate(KIND, view, evidence.scan.lingui, evidence.scan.angular)
            for view in sources
        ),
        removal_gate(KIND, evidence.scan, force=options.force),
        thin_evidence_gate(KIND, thin, force=options.force),
    )
    return [gate for gate in gates if gate is not None]


def _plan_notes(
    project: Project, plan: _Plan, named: list[NamedKey], evidence: Evidence
) -> list[Issue]:
    """What the plan keeps and why: dynamic prefixes, quoted keys, keys named in messages,
    unscanned folders."""
    notes: list[Issue] = []
    kept = uncertain_kept(sorted(plan.prefixes), sorted(plan.suffixes))
    if kept:
        report = warning if project.config.reference.policy_for("cleanup") == "warn_only" else info
        notes.append(report(Code.CLEANUP_UNCERTAIN, f"{kept} were not removed"))
    for note in (
        referenced_note(plan.referenced),
        named_note(named),
        dynamic_warning(KIND, evidence.scan),
        excluded_folders_note(evidence.scan),
    ):
        if note is not None:
            notes.append(note)
    return notes
