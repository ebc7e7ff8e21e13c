"""`missing`: add the keys the code uses but a locale lacks: placeholders, or in the source
locale the default text the code gives a key."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
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
from i18nprune.locales.catalog import plural_categories
from i18nprune.locales.editor import FileChange, LocaleEditor
from i18nprune.locales.view import LocaleView
from i18nprune.ops.engine.events import EventSink
from i18nprune.ops.engine.scanning import scan_code
from i18nprune.ops.shared.checks import check_failures
from i18nprune.ops.shared.near_twins import (
    NearTwinPair,
    pairs,
    skipped_issue,
    source_twins,
    used_twin_note,
)
from i18nprune.ops.shared.targets import source_or_targets
from i18nprune.project import Project, ProjectHandle
from i18nprune.reference import (
    Evidence,
    MissingKey,
    NearTwin,
    literal_candidates,
    source_gate,
)

KIND = "missing"


class MissingOptions(msgspec.Struct, frozen=True, kw_only=True):
    target: Annotated[
        list[str] | None,
        msgspec.Meta(description="fill these target locales instead of the source (or `all`)"),
    ] = None
    dry_run: Annotated[bool, msgspec.Meta(description="report, write nothing")] = False
    yes: Annotated[bool, msgspec.Meta(description="confirm the write")] = False
    check: Annotated[
        bool,
        msgspec.Meta(
            description="write nothing; fail when any key is missing (a CI gate: every key the "
            "code uses exists)"
        ),
    ] = False


class MissingData(msgspec.Struct, frozen=True, rename="camel"):
    paths_added: int
    paths: list[str]
    targets: list[str]
    skipped_targets: list[str]
    dry_run: bool
    files: list[FileChange]
    near_twins: list[NearTwinPair] = []
    """Missing keys with a near twin in the source. A key whose twin is unused is not added
    (its twin holds its translations: rename it, or change the code); one whose twin is used
    elsewhere is added."""
    locale_names: dict[str, str] = {}
    """Each locale of `targets` and `skippedTargets` (normalised: `pt-br`) → how the project
    spells it (`pt_BR`)."""
    messages: dict[str, str] = {}
    """Each path of `paths` that is the id Lingui generated of a message (`VHOVEJ`) → that
    message, which names it to a reader."""


class HomeFiles:
    """Where new paths belong in one locale view: the segment of the first existing leaf that
    shares the longest dotted prefix with the new path (the view's first segment when none
    does). Built once per view, so placing n paths costs O(n × depth), not O(n × leaves)."""

    def __init__(self, view: LocaleView) -> None:
        paths = {segment.rel: segment.path for segment in view.segments}
        self._default = view.segments[0].path if view.segments else None
        self._by_prefix: dict[str, Path] = {}
        for existing, rel in view.leaf_segment.items():
            parts = existing.split(".")
            for depth in range(1, len(parts) + 1):
                self._by_prefix.setdefault(".".join(parts[:depth]), paths[rel])

    def file_for(self, path: str) -> Path | None:
        """The segment file `path` belongs in; None when the view has no segment yet."""
        parts = path.split(".")
        for depth in range(len(parts), 0, -1):
            home = self._by_prefix.get(".".join(parts[:depth]))
            if home is not None:
                return home
        return self._default


def paths_to_add(missing: MissingKey, locale: str, separator: str = "_") -> list[str]:
    """The paths a missing key becomes in a locale: plural keys get its CLDR plural forms
    (joined with the plural separator)."""
    if missing.plural:
        return [f"{missing.key}{separator}{category}" for category in plural_categories(locale)]
    return [missing.key]


def leaf_value(project: Project, missing: MissingKey, is_source: bool) -> object:
    """A placeholder leaf, or in the source locale the default text the code gives the key."""
    structured = project.config.locale_leaves.mode == "structured"
    if is_source and missing.default is not None:
        return {"value": missing.default} if structured else missing.default
    sentinel = project.config.missing.placeholder
    return {"value": sentinel, "needsTranslationAgain": True} if structured else sentinel


@dataclass(frozen=True)
class _Loaded:
    """What `missing` fills: the project, the locales to fill, and their locale views."""

    project: Project
    locales: list[str]
    views: dict[tuple[str, str | None], LocaleView]
    """Each (locale, namespace)'s view, the source's included."""
    literals: dict[int, str]
    """The source texts whose quoted occurrences in the code count as evidence (whether a near
    twin is used)."""
    issues: list[Issue]


def _load(handle: ProjectHandle, options: MissingOptions, started: float) -> _Loaded | Envelope:
    """The project and the views of the locales to fill (and of the source), or the envelope of
    a run that cannot start."""
    project = handle.open()
    issues: list[Issue] = project.readiness()
    locales, target_issues = source_or_targets(project, options.target)
    issues.extend(target_issues)
    if has_errors(issues):
        names = project.locale_names(locales)
        empty = MissingData(0, [], locales, [], options.dry_run, [], locale_names=names)
        return make_envelope(KIND, empty, issues, started=started)
    views = {
        (locale, namespace): view
        for locale in sorted({project.source_locale(), *locales})
        for namespace, view in project.load_namespaces(locale).items()
    }
    source = project.source_locale()
    sources = [view for (locale, _), view in views.items() if locale == source]
    return _Loaded(
        project, locales, views, literal_candidates(sources, project.key_syntax()), issues
    )


def _renamed(missing: MissingKey, twins: list[NearTwin]) -> bool:
    """Whether `missing` has an unused near twin: renaming the twin, not adding the key, keeps
    the twin's translations."""
    return any(
        twin.unused and twin.key == missing.key and missing.namespace in (None, twin.namespace)
        for twin in twins
    )


def _fill(
    project: Project,
    evidence: Evidence,
    views: dict[tuple[str, str | None], LocaleView],
    locales: list[str],
    twins: list[NearTwin],
    messages: dict[str, str],
) -> tuple[list[LocaleEditor], set[str], int, list[str], list[Issue]]:
    """Queue the placeholders of every locale but those of keys with an unused near twin
    (`twins`): (editors, keys added, count, skipped locales, issues); the message of each added
    key that is a Lingui generated id goes into `messages`."""
    syntax = evidence.syntax
    inventory, _ = project.inventory()
    editors: list[LocaleEditor] = []
    added: set[str] = set()
    count = 0
    skipped: list[str] = []
    issues: list[Issue] = []
    for locale in locales:
        own = {namespace: view for (code, namespace), view in views.items() if code == locale}
        if any(has_errors(view.issues) for view in own.values()):
            skipped.append(locale)
            continue
        name = inventory.segments[locale][0].name
        editing = {namespace: project.editor(view) for namespace, view in own.items()}
        homes: dict[str | None, HomeFiles] = {}
        try:
            for missing in evidence.missing({ns: view.leaves for ns, view in own.items()}):
                if _renamed(missing, twins):
                    continue
                namespace = missing.namespace
                if syntax.uses_namespaces and namespace is None:
                    namespace = syntax.default_namespace
                if namespace not in own:  # a namespace the code uses that has no file yet
                    own[namespace] = project.load(locale, namespace)
                    editing[namespace] = project.editor(own[namespace])
                if namespace not in homes:
                    homes[namespace] = HomeFiles(own[namespace])
                value = leaf_value(project, missing, locale == project.source_locale())
                for path in paths_to_add(missing, locale, syntax.plural_separator):
                    file = homes[namespace].file_for(path) or project.namespace_file(
                        name, namespace or syntax.default_namespace
                    )
                    editing[namespace].set(path, value, file)
                    shown = syntax.display(namespace, path)
                    added.add(shown)
                    if missing.generated and missing.default:
                        messages[shown] = missing.default
                    count += 1
        except ProblemError as exc:
            issues.append(exc.issue)
            skipped.append(locale)
            continue
        editors.extend(editing.values())
    return editors, added, count, skipped, issues


async def run(handle: ProjectHandle, options: MissingOptions, emit: EventSink) -> Envelope:
    """Add missing code keys to the source (or `--target` locales): the code's default text in
    the source when it gives one, a placeholder otherwise.

    Opening the project, reading the locales, scanning and writing all run off the event loop.
    """
    started = time.perf_counter()
    loaded = await trio.to_thread.run_sync(_load, handle, options, started)
    if isinstance(loaded, Envelope):
        return loaded
    evidence = await scan_code(loaded.project, KIND, emit, loaded.literals)
    return await trio.to_thread.run_sync(_add, loaded, evidence, options, started)


def _add(loaded: _Loaded, evidence: Evidence, options: MissingOptions, started: float) -> Envelope:
    """Queue the missing keys, save them (when confirmed and nothing refuses), and report."""
    project, views, locales = loaded.project, loaded.views, loaded.locales
    issues = [*loaded.issues, *evidence.scan.issues]
    for view in views.values():
        issues.extend(view.issues)
    for (locale, _), view in views.items():
        if locale == project.source_locale():
            refusal = source_gate(KIND, view)
            if refusal is not None:
                issues.append(refusal)
    sources = {
        ns: view for (locale, ns), view in views.items() if locale == project.source_locale()
    }
    twins = source_twins(project, evidence, sources)
    messages: dict[str, str] = {}
    editors, added, count, skipped, fill_issues = _fill(
        project, evidence, views, locales, twins, messages
    )
    issues.extend(fill_issues)
    found = pairs(twins, evidence.syntax)
    filled = [locale for locale in locales if locale not in skipped]
    for note in (skipped_issue(found, filled, check=options.check), used_twin_note(found)):
        if note is not None:
            issues.append(note)
    if count and not options.dry_run and not options.check and not options.yes:
        issues.append(
            error(
                Code.CONFIRMATION_REQUIRED,
                f"adding {count} key(s) needs confirmation: pass --yes (or --dry-run)",
            )
        )
    may_write = not options.dry_run and not options.check and not has_errors(issues)
    changes = [change for editor in editors for change in editor.changes()]
    if options.check:
        issues.extend(check_failures(KIND, changes, "i18nprune missing --yes"))
    for editor in editors if may_write else []:
        try:
            editor.save()
        except ProblemError as exc:  # this locale's file stays as it was
            issues.append(exc.issue)
    data = MissingData(
        paths_added=count if may_write else 0,
        paths=sorted(added),
        targets=[locale for locale in locales if locale not in skipped],
        skipped_targets=skipped,
        dry_run=options.dry_run or options.check,
        files=sorted(changes, key=lambda change: change.path),
        near_twins=found,
        locale_names=project.locale_names(locales),
        messages=messages,
    )
    return make_envelope(KIND, data, issues, started=started)
