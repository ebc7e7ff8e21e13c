"""`review`: the target leaves marked `needsReview` (machine translations nobody has checked),
and `--accept`, which clears the mark and changes nothing else in the file."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Annotated

import msgspec

from i18nprune.envelope import (
    Code,
    Envelope,
    Issue,
    ProblemError,
    error,
    has_errors,
    make_envelope,
)
from i18nprune.locales.editor import FileChange, LocaleEditor
from i18nprune.locales.leaves import NEEDS_REVIEW, marked_for_review
from i18nprune.locales.view import LocaleView
from i18nprune.ops.engine.events import EventSink
from i18nprune.ops.engine.offload import run_blocking
from i18nprune.ops.shared.targets import select_targets
from i18nprune.project import Project, ProjectHandle

KIND = "review"


class ReviewOptions(msgspec.Struct, frozen=True, kw_only=True):
    target: Annotated[
        list[str] | None,
        msgspec.Meta(description="these target locales (default: all; required with --accept)"),
    ] = None
    accept: Annotated[
        list[str] | None,
        msgspec.Meta(description="clear the needsReview mark of these keys (or `all`)"),
    ] = None
    dry_run: Annotated[bool, msgspec.Meta(description="report, write nothing")] = False
    yes: Annotated[bool, msgspec.Meta(description="confirm the write")] = False


class ReviewMark(msgspec.Struct, frozen=True, rename="camel"):
    """A leaf marked needsReview; `path` is the key as code writes it."""

    target: str
    path: str
    file: str
    value: str
    selected: bool
    """Whether this run's `--accept` clears it (or, with `--dry-run`, would)."""


class ReviewData(msgspec.Struct, frozen=True, rename="camel"):
    targets: list[str]
    marks: list[ReviewMark]
    """Every mark of the targets as the files held them before this run."""
    would_accept: int
    accepted: int
    dry_run: bool
    files: list[FileChange]
    locale_names: dict[str, str] = {}
    """Each of `targets` (normalised: `pt-br`) → how the project spells it (`pt_BR`)."""


def find_marks(project: Project, view: LocaleView) -> list[str]:
    """The paths of `view` whose structured leaf has `needsReview: true`, in view order.

    Reads the view's files again (leaves do not carry the mark); a file that no longer parses
    contributes nothing — the view's own issues already report it.
    """
    try:
        return [path for path, _ in _marked(project.editor(view), view)]
    except ProblemError:
        return []


def _marked(editor: LocaleEditor, view: LocaleView) -> list[tuple[str, dict[str, object]]]:
    """(path, structured leaf) of each marked leaf of `view`, read through `editor`.

    Raises LocaleFileError when a file no longer parses (changed since the view read it).
    """
    found: list[tuple[str, dict[str, object]]] = []
    for path, leaf in view.leaves.items():
        node = editor.get(path) if leaf.kind == "structured" else None
        if marked_for_review(node):
            assert isinstance(node, dict)  # guaranteed by marked_for_review
            found.append((path, node))
    return found


async def run(handle: ProjectHandle, options: ReviewOptions, emit: EventSink) -> Envelope:
    """List the marks; with `--accept`, clear the named ones (`--yes` to write).

    Opening the project, reading and writing run off the event loop. Each file is written
    atomically; a file that cannot be written stays as it was and is reported.
    """
    return await run_blocking(_review, handle, options, time.perf_counter())


@dataclass
class _Found:
    """One marked leaf: its editor (of its view), its path in the view, and its leaf."""

    editor: LocaleEditor
    path: str
    node: dict[str, object]
    mark: ReviewMark


def _review(handle: ProjectHandle, options: ReviewOptions, started: float) -> Envelope:
    project = handle.open()
    issues = project.readiness()
    if options.accept is not None and not options.target:
        issues.append(
            error(
                Code.TARGET_REQUIRED,
                "name the locale(s) to accept marks in with --target (e.g. --target fr, or "
                "--target all)",
            )
        )
    targets, target_issues = select_targets(project, options.target)
    issues.extend(target_issues)
    codes = [target.code for target in targets]
    names = {target.code: target.name for target in targets}
    if has_errors(issues):
        empty = ReviewData(codes, [], 0, 0, options.dry_run, [], names)
        return make_envelope(KIND, empty, issues, started=started)
    found, read_issues = _collect(project, codes, options.accept)
    issues.extend(read_issues)
    issues.extend(_unmarked(options.accept, found))
    selected = [entry for entry in found if entry.mark.selected]
    if selected and not options.dry_run and not options.yes:
        issues.append(
            error(
                Code.CONFIRMATION_REQUIRED,
                f"accepting {len(selected)} mark(s) needs confirmation: pass --yes (or "
                "--dry-run to preview)",
            )
        )
    editors = list({id(entry.editor): entry.editor for entry in selected}.values())
    for entry in selected:
        cleared = {key: value for key, value in entry.node.items() if key != NEEDS_REVIEW}
        file = entry.editor.segment_of(entry.path)
        assert file is not None  # a marked leaf was read from its file
        entry.editor.set(entry.path, cleared, file)
    changes = sorted(
        (change for editor in editors for change in editor.changes()),
        key=lambda change: change.path,
    )
    write = bool(selected) and not options.dry_run and not has_errors(issues)
    saved: set[int] = set()
    for editor in editors if write else []:
        try:
            editor.save()
            saved.add(id(editor))
        except ProblemError as exc:  # this file stays as it was
            issues.extend(exc.issues)
    data = ReviewData(
        targets=codes,
        marks=[entry.mark for entry in found],
        would_accept=len(selected),
        accepted=sum(1 for entry in selected if id(entry.editor) in saved),
        dry_run=options.dry_run,
        files=changes,
        locale_names=names,
    )
    return make_envelope(KIND, data, issues, started=started)


def _collect(
    project: Project, targets: list[str], accept: list[str] | None
) -> tuple[list[_Found], list[Issue]]:
    """Every marked leaf of `targets`, selected when `accept` names it (or is `all`)."""
    syntax = project.key_syntax()
    everything = accept is not None and any(name.strip().lower() == "all" for name in accept)
    named = set(accept or [])
    found: list[_Found] = []
    issues: list[Issue] = []
    for target in targets:
        for namespace, view in project.load_namespaces(target).items():
            issues.extend(view.issues)
            editor = project.editor(view)
            try:
                for path, node in _marked(editor, view):
                    shown = syntax.display(namespace, path)
                    value = node.get("value")
                    mark = ReviewMark(
                        target=target,
                        path=shown,
                        file=view.leaf_segment[path],
                        value=value if isinstance(value, str) else "",
                        selected=everything or shown in named,
                    )
                    found.append(_Found(editor, path, node, mark))
            except ProblemError as exc:  # changed since the view read it
                issues.extend(exc.issues)
    return found, issues


def _unmarked(accept: list[str] | None, found: list[_Found]) -> list[Issue]:
    """`--accept` keys that no selected target marks: a typo must not pass for done."""
    if accept is None or any(name.strip().lower() == "all" for name in accept):
        return []
    marked = {entry.mark.path for entry in found}
    return [
        error(
            Code.REVIEW_NOT_MARKED,
            f"`{name}` is not marked needsReview in the chosen target(s); run `i18nprune "
            "review` to list the marks",
        )
        for name in accept
        if name not in marked
    ]
