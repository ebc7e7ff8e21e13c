"""`sync`: align every target locale with the sync template (add missing, prune extra)."""

from __future__ import annotations

import time
from collections.abc import Collection
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
    has_errors,
    info,
    make_envelope,
    warning,
)
from i18nprune.locales.documents import FileStyle, counterpart_style, load_document
from i18nprune.locales.editor import FileChange, LocaleEditor, counterpart_path
from i18nprune.locales.layout import Segment
from i18nprune.locales.leaves import Leaf
from i18nprune.locales.paths import array_key
from i18nprune.locales.podoc import PoStyle
from i18nprune.locales.view import LocaleView, translatable_paths
from i18nprune.ops.engine.events import EventSink, ProgressEvent, from_worker_thread
from i18nprune.ops.engine.scanning import scan_code
from i18nprune.ops.shared.checks import check_failures
from i18nprune.ops.shared.evidence_report import excluded_folders_note
from i18nprune.ops.shared.near_twins import NearTwinPair, kept_note, pairs, source_twins
from i18nprune.ops.shared.suggestions import Suggestion, source_evidence, suggest
from i18nprune.ops.shared.targets import Target, select_targets
from i18nprune.project import Project, ProjectHandle
from i18nprune.reference import (
    Evidence,
    NearTwin,
    ThinEvidence,
    dynamic_warning,
    literal_candidates,
    removal_gate,
    source_gate,
    thin_evidence_gate,
    uncertain_kept,
    unresolved_sites,
    unused_keys,
)
from i18nprune.template import SyncTemplate, TargetValues, build_templates, target_extras

KIND = "sync"


class SyncOptions(msgspec.Struct, frozen=True, kw_only=True):
    target: Annotated[
        list[str] | None, msgspec.Meta(description="target locales (comma list or `all`)")
    ] = None
    dry_run: Annotated[bool, msgspec.Meta(description="report changes, write nothing")] = False
    metadata: Annotated[
        bool, msgspec.Meta(description="add new leaves as pending structured leaves")
    ] = False
    strip_metadata: Annotated[
        bool, msgspec.Meta(description="turn structured leaves into plain strings")
    ] = False
    force: Annotated[
        bool,
        msgspec.Meta(
            description="prune even when some source files could not be scanned or the "
            "evidence is thin (keys used only there may be removed)"
        ),
    ] = False
    check: Annotated[
        bool,
        msgspec.Meta(
            description="write nothing; fail when any locale file would change (a CI gate: "
            "locales are in sync)"
        ),
    ] = False


class SyncData(msgspec.Struct, frozen=True, rename="camel"):
    source_path: str | None
    locales_dir: str
    target_files: list[str]
    written_files: list[str]
    dry_run: bool
    files: list[FileChange]
    dynamic_key_sites: int
    suggestions: list[Suggestion]
    near_twins: list[NearTwinPair] = []
    """Near twins of keys the code uses that the source lacks; the unused ones are kept in the
    targets (renaming them keeps their translations)."""


def pending_leaf(text: object) -> dict[str, object]:
    """A structured leaf waiting for translation, seeded with the source text."""
    return {"value": text, "status": "pending", "needsTranslationAgain": True}


class SourceFiles:
    """The source locale's segments and their styles, to place and format new target leaves."""

    def __init__(self, project: Project, source: LocaleView) -> None:
        self.project = project
        self.source = source
        self._by_rel = {segment.rel: segment for segment in source.segments}
        self._styles: dict[tuple[str, str], FileStyle] = {}

    def segment_of(self, path: str) -> Segment:
        return self._by_rel[self.source.leaf_segment[path]]

    def target_file(self, path: str, target: Target) -> tuple[Path, FileStyle]:
        """The target file a new leaf at `path` belongs in, and the style to create it with."""
        segment = self.segment_of(path)
        style = self._styles.get((segment.rel, target.name))
        if style is None:
            source = load_document(segment.path, segment.rel, key_root=self.source.key_root)
            style = self._styles[segment.rel, target.name] = counterpart_style(source, target.name)
        inventory, _ = self.project.inventory()
        structure = self.project.config.locales.structure
        return counterpart_path(inventory, segment, target.name, structure), style


def _target_value(leaf: Leaf, structured: bool) -> object:
    return pending_leaf(leaf.value) if structured and leaf.kind == "string" else leaf.value


def align_target(
    editor: LocaleEditor,
    target: Target,
    template: SyncTemplate,
    files: SourceFiles,
    options: SyncOptions,
    extras: Collection[str],
) -> list[str]:
    """Queue the edits that make one target match the template, keeping the paths outside it
    in `extras` (see `target_extras`); returns the template's array items left out because an
    item before them is missing from the target and is not in the template either (a
    parity-excluded one): an array cannot have a gap."""
    structured = options.metadata or (
        files.project.config.locale_leaves.mode == "structured" and not options.strip_metadata
    )
    wanted = set(template.paths)
    kept = TargetValues(editor.view, template.reference.syntax, wanted | set(extras))
    gaps: list[str] = []
    for path in template.paths:
        existing = editor.view.leaves.get(path)
        if existing is None:
            if kept.shaped_otherwise(path):
                continue
            file, style = files.target_file(path, target)
            if "[" in path and not editor.document(file, style).reaches(path):
                gaps.append(path)
                continue
            value = (
                ""
                if isinstance(style, PoStyle) and style.untranslated(path)
                else _target_value(files.source.leaves[path], structured)
            )
            editor.set(path, value, file, order=template.paths, style=style)
        elif options.strip_metadata and existing.kind in ("structured", "placeholder"):
            file, _ = files.target_file(path, target)
            editor.set(path, existing.value, file)
    pruned = [path for path in translatable_paths(editor.view) if not kept.holds(path)]
    for key in reversed(list(dict.fromkeys(array_key(path) or path for path in pruned))):
        editor.delete_key(key)  # last first: an array item never moves before it goes
    # An XLIFF unit with no translation is no leaf, but goes as one would: it holds nothing a
    # translator wrote, and a later sync copies it back from the source if the key returns.
    for key, file in editor.untranslated().items():
        if key not in wanted and not kept.holds(key) and not template.keeps_extra(key):
            editor.delete_untranslated(key, file)
    return gaps


def array_gap_warning(locale: str, paths: list[str], advice: str) -> Issue:
    """The warning for array items of `locale` (as the project spells it) left unwritten
    because of a gap before them."""
    named = ", ".join(paths[:5]) + (f" and {len(paths) - 5} more" if len(paths) > 5 else "")
    return warning(
        Code.LOCALE_ARRAY_GAP,
        f"{len(paths)} array item(s) of `{locale}` not written ({named}): an item before each is "
        f"missing from `{locale}`, and an array cannot have a gap — {advice}",
    )


@dataclass(frozen=True)
class _Loaded:
    """What a sync compares: the project, its targets, and every namespace's locale views."""

    project: Project
    targets: list[Target]
    sources: dict[str | None, LocaleView]
    """The source locale's view of each namespace."""
    views: dict[tuple[str, str | None], LocaleView]
    """Each (target, namespace)'s view."""
    literals: dict[int, str]
    """The locale texts whose quoted occurrences in the code count as evidence."""
    issues: list[Issue]


def _align_all(
    loaded: _Loaded,
    templates: dict[str | None, SyncTemplate],
    options: SyncOptions,
    *,
    write: bool,
    emit: EventSink,
) -> tuple[list[FileChange], list[str], list[Issue]]:
    """Align every target that could be read in full; save when `write`. Progress names the
    step `write`, or `compare` when nothing is saved (a dry run, `--check`, a refused prune)."""
    project, targets, sources = loaded.project, loaded.targets, loaded.sources
    files = {namespace: SourceFiles(project, view) for namespace, view in sources.items()}
    changes: list[FileChange] = []
    written: list[str] = []
    issues: list[Issue] = []
    for index, target in enumerate(targets):
        emit(
            ProgressEvent(
                type="run.progress.sync",
                phase="write" if write else "compare",
                target=target.code,
                done=index,
                total=len(targets),
            )
        )
        own = [(namespace, loaded.views[(target.code, namespace)]) for namespace in sources]
        if any(has_errors(view.issues) for _, view in own):
            continue  # a target read only in part is never rewritten
        extras = target_extras(templates, dict(own), sources, project.key_syntax())
        for namespace, view in own:
            editor = project.editor(view)
            try:
                gaps = align_target(
                    editor,
                    target,
                    templates[namespace],
                    files[namespace],
                    options,
                    extras.get(namespace, set()),
                )
                if gaps:
                    advice = "add the earlier items to the target file, then sync again"
                    issues.append(array_gap_warning(target.name, gaps, advice))
                changes.extend(editor.changes())
                if write:
                    written.extend(editor.save())
            except ProblemError as exc:
                issues.append(exc.issue)
    return changes, written, issues


async def run(handle: ProjectHandle, options: SyncOptions, emit: EventSink) -> Envelope:
    """Merge missing template paths into each target and prune paths outside it.

    Opening the project, reading the locales, scanning and writing all run off the event loop.
    """
    started = time.perf_counter()
    loaded = await trio.to_thread.run_sync(_load, handle, options, started)
    if isinstance(loaded, Envelope):
        return loaded
    evidence = await scan_code(loaded.project, KIND, emit, loaded.literals)
    return await trio.to_thread.run_sync(
        _align, loaded, evidence, options, from_worker_thread(emit), started
    )


def _load(handle: ProjectHandle, options: SyncOptions, started: float) -> _Loaded | Envelope:
    """The project and its locale views, or the envelope of a run that cannot start."""
    project = handle.open()
    issues: list[Issue] = project.readiness()
    targets, target_issues = select_targets(project, options.target)
    issues.extend(target_issues)
    if has_errors(issues):
        locales_dir = project.relative(project.locales_dir)
        empty = SyncData(None, locales_dir, [], [], options.dry_run, [], 0, [])
        return make_envelope(KIND, empty, issues, started=started)
    sources = project.load_namespaces(project.source_locale())
    views = {
        (target.code, namespace): view
        for target in targets
        for namespace, view in project.load_namespaces(target.code).items()
    }
    literals = literal_candidates([*sources.values(), *views.values()], project.key_syntax())
    return _Loaded(project, targets, sources, views, literals, issues)


def _align(
    loaded: _Loaded, evidence: Evidence, options: SyncOptions, emit: EventSink, started: float
) -> Envelope:
    """Build the templates, align (and save) every target, and report; `emit` is called from
    this thread."""
    project, sources = loaded.project, loaded.sources
    issues = [*loaded.issues, *evidence.scan.issues]
    for view in [*sources.values(), *loaded.views.values()]:
        issues.extend(view.issues)
    lacking = evidence.missing_sites(
        {namespace: view.leaves for namespace, view in sources.items()}
    )
    twins = source_twins(project, evidence, sources, lacking)
    templates, template_issues = _templates(project, sources, evidence, twins)
    issues.extend(template_issues)
    refusals = _refusals(project, sources, templates, evidence, options)
    issues.extend(refusals)
    changes, written, write_issues = _align_all(
        loaded,
        templates,
        options,
        write=not options.dry_run and not options.check and not has_errors(refusals),
        emit=emit,
    )
    issues.extend(write_issues)
    if options.check:
        issues.extend(check_failures(KIND, changes, "i18nprune sync"))
    issues.extend(_kept_notes(project, sources, evidence))
    found = pairs(twins, evidence.syntax)
    note = kept_note(KIND, [pair for pair in found if pair.twin_unused])
    if note is not None:
        issues.append(note)
    count = len(loaded.targets)
    emit(ProgressEvent(type="run.progress.sync", phase="done", done=count, total=count))
    data = SyncData(
        source_path=next(
            (view.segments[0].rel for view in sources.values() if view.segments), None
        ),
        locales_dir=project.relative(project.locales_dir),
        target_files=[change.path for change in changes],
        written_files=written,
        dry_run=options.dry_run or options.check,
        files=changes,
        dynamic_key_sites=sum(1 for site in evidence.scan.dynamic if site.kind != "commented"),
        suggestions=suggest(
            project,
            sources,
            len(evidence.missing_keys(lacking)),
            source_evidence(
                project,
                evidence,
                sources,
                unused_keys(sources, evidence, project.config.policies.preserve),
                len(evidence.missing_keys(lacking)),
            ),
            found,
        ),
        near_twins=found,
    )
    project.derived_counts().save()
    return make_envelope(KIND, data, issues, started=started)


def _refusals(
    project: Project,
    sources: dict[str | None, LocaleView],
    templates: dict[str | None, SyncTemplate],
    evidence: Evidence,
    options: SyncOptions,
) -> list[Issue]:
    """Why nothing may be pruned: a source locale read in part, code that was not scanned, or
    a template too thin to tell used keys from unused ones (every source key outside it is
    pruned from the targets)."""
    paths = {namespace: translatable_paths(view) for namespace, view in sources.items()}
    thin = ThinEvidence(
        candidates=sum(
            len(_pruned(found, templates[namespace])) for namespace, found in paths.items()
        ),
        keys=sum(map(len, paths.values())),
        unresolved=unresolved_sites(evidence.scan, sources),
        guessed=project.guessed_configuration(),
        limit=project.config.reference.max_unused_share,
        missing=len(evidence.missing({ns: view.leaves for ns, view in sources.items()})),
    )
    gates = (
        *(source_gate(KIND, view) for view in sources.values()),
        removal_gate(KIND, evidence.scan, force=options.force),
        thin_evidence_gate(KIND, thin, force=options.force),
    )
    return [gate for gate in gates if gate is not None]


def _pruned(paths: list[str], template: SyncTemplate) -> list[str]:
    """The source paths whose translations `sync` prunes from targets: outside the template and
    not kept for another reason."""
    kept = set(template.paths)
    return [path for path in paths if path not in kept and not template.keeps_extra(path)]


def _templates(
    project: Project,
    sources: dict[str | None, LocaleView],
    evidence: Evidence,
    twins: list[NearTwin],
) -> tuple[dict[str | None, SyncTemplate], list[Issue]]:
    """Each namespace's sync template (keeping `twins` in the targets), and a warning when the
    scan proved no key at all."""
    policy = project.config.reference.policy_for("sync")
    by_namespace = {
        namespace: frozenset(
            path for twin in twins if twin.namespace == namespace for path in twin.paths
        )
        for namespace in sources
    }
    templates = build_templates(sources, evidence, policy, project.config, by_namespace)
    issues = []
    if evidence.reference().proves_nothing:
        issues.append(
            warning(
                Code.SYNC_NOTHING_PROVEN,
                "the scan found no key in the code; the whole source locale is the template",
            )
        )
    return templates, issues


def _kept_notes(
    project: Project, sources: dict[str | None, LocaleView], evidence: Evidence
) -> list[Issue]:
    """What was kept and why: paths dynamic sites may reach, dynamic sites, unscanned folders."""
    notes: list[Issue] = []
    policy = project.config.reference.policy_for("sync")
    references = [evidence.reference(namespace) for namespace in sources]
    prefixes = sorted({ref.display(prefix) for ref in references for prefix in ref.prefixes})
    suffixes = sorted({ref.display(suffix) for ref in references for suffix in ref.suffixes})
    kept = uncertain_kept(prefixes, suffixes)
    if kept and policy != "allow":
        severity = warning if policy == "warn_only" else info
        notes.append(severity(Code.CLEANUP_UNCERTAIN, f"{kept} are kept"))
    for note in (dynamic_warning(KIND, evidence.scan), excluded_folders_note(evidence.scan)):
        if note is not None:
            notes.append(note)
    return notes
