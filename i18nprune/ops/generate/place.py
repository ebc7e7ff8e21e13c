"""Placing a target's leaves into its editors (in memory, in plan order, as their translations
settle) and saving them: the leaf values `generate` writes, and the lock entries of what it
wrote."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import msgspec

from i18nprune.envelope import Code, Issue, NotEditableError, ProblemError, error
from i18nprune.locales.documents import FileStyle
from i18nprune.locales.editor import LocaleEditor
from i18nprune.locales.leaves import NEEDS_REVIEW, is_message_object
from i18nprune.ops.generate.plan import TargetPart, TargetRun
from i18nprune.ops.generate.speed import SpeedMechanics
from i18nprune.ops.sync import SourceFiles
from i18nprune.project import Project
from i18nprune.translate.lock import PENDING_FILE, entry_for, lock_key, record_pending
from i18nprune.translate.translator import YIELD_EVERY, TranslationReport


def machine_leaf(translation: str, existing: object) -> dict[str, object]:
    """A structured leaf holding a machine translation; an existing structured leaf keeps its
    other fields."""
    leaf: dict[str, object] = dict(existing) if isinstance(existing, dict) else {}
    leaf.update({"value": translation, "status": "machine", NEEDS_REVIEW: True})
    leaf.pop("needsTranslationAgain", None)
    return leaf


def review_leaf(value: str, existing: object) -> dict[str, object]:
    """A structured leaf holding `value` (a person's, kept) marked `needsReview`; an existing
    structured leaf keeps its other fields."""
    leaf: dict[str, object] = dict(existing) if isinstance(existing, dict) else {}
    leaf.update({"value": value, NEEDS_REVIEW: True})
    return leaf


class _PartPlacement:
    """Where the placing of one part's leaves into its editor has got to."""

    def __init__(
        self, project: Project, part: TargetPart, refused: frozenset[str] = frozenset()
    ) -> None:
        self.part = part
        self.entries = dict(part.entries)
        """The part's lock entries before any leaf was placed (a placing begun again after a
        refusal starts from them)."""
        self.refused = refused
        """Leaves the target's document refused to take (`NotEditableError`): left out."""
        self.count = 0
        self.retranslated = 0
        """The leaves placed, and the stale ones among them re-translated."""
        self.files = SourceFiles(project, part.source)
        self.editor = project.editor(part.view)
        self.new_files: dict[str, tuple[Path, FileStyle]] = {}
        """Every leaf of a source segment goes to the same target file."""
        self.held_back: list[str] = []
        """Array items not written because an earlier item of their array is missing."""
        self.next = 0
        """The index in the plan's leaves of the next leaf to place."""


class TargetWriter:
    """Writes one target: places its leaves into the editors, in plan order, as their texts
    become known (`settled`, while other texts are still being translated), then places the
    rest and saves (`finish`). The leaves are placed in the same order, with the same values,
    whenever their texts arrive, so the files are the same byte for byte; nothing reaches the
    disk before `finish`.

    Its methods run in worker threads, one at a time (`turn`, shared by the run's writers:
    `SpeedMechanics.writers_turn`).
    """

    def __init__(
        self, run: TargetRun, metadata: bool, turn: AbstractContextManager[object]
    ) -> None:
        # Not `run` itself: the run holds its writer, and a cycle between them would leave
        # every leaf of the target for the garbage collector to free, on whichever thread it
        # happens to run (in `serve`, the event loop: a 50 ms pause).
        self.project = run.project
        self.target = run.target
        self.parts = run.parts
        self.metadata = metadata
        self.structured = metadata or run.project.config.locale_leaves.mode == "structured"
        self._turn = turn
        self._known: dict[str, str] = {}
        self._parts: list[_PartPlacement] = []
        self._problem: ProblemError | None = None
        self._problem_at = 0
        """The index of the part whose placing met `_problem`."""
        self._working = 0
        self.refusals: list[Issue] = []
        """An error for each leaf left out because its document refused the edit (see
        `finish`)."""
        self.refused = 0
        """How many leaves those are."""

    def settled(self, translations: dict[str, str]) -> None:
        """`translations` (source text → verified translation) are final: place the leaves
        they allow (a leaf waits for every leaf before it). A problem placing them (a target
        file outside the root, an unreadable one) is kept for `finish` to raise."""
        with self._turn:
            self._known.update(translations)
            if self._problem is None:
                try:
                    self._place(self._known.get)
                except ProblemError as exc:
                    self._problem, self._problem_at = exc, self._working

    def finish(self, report: TranslationReport) -> tuple[list[str], int, int]:
        """Place every leaf that has a text in `report`, mark the kept stale leaves (with
        `metadata`), save each part in turn, and record what was written in each part's lock
        entries.

        A leaf whose document refuses its edit when saved (`NotEditableError`: one it cannot
        spell back, such as a text for an XLIFF unit of several segments) is left out, as it
        was, and the part placed and saved again without it: the file is written with every
        other leaf, the refusal lands in `refusals`, and a later run translates the leaf
        again (the lock keeps what it had for it).

        Returns (files written, leaves written, stale leaves re-translated). Raises
        ProblemError (as writing would, at the same point) when a file cannot be read or
        written, or refuses an edit no leaf of this run made.
        """
        translations = report.translations
        written: list[str] = []
        placed: list[_PartPlacement] = []
        problem: ProblemError | None = None
        with self._turn:
            for index, part in enumerate(self.parts):
                if self._problem is not None and index == self._problem_at:
                    problem = self._problem
                    break
                if index == len(self._parts):
                    self._parts.append(_PartPlacement(self.project, part))
                placement = self._parts[index]
                try:
                    self._place_part(placement, translations.get, final=True)
                except ProblemError as exc:
                    problem = exc
                    break
                if self.metadata:
                    _mark_kept_stale(part, placement.editor)
                placed.append(placement)
            # The lock's entries go on disk before the files they describe: a kill between
            # the files and the lock then leaves the next run knowing its own output.
            self._journal([placement.part for placement in placed])
            for placement in placed:
                written.extend(self._save(placement, translations))
        if problem is not None:
            raise problem
        count = sum(placement.count for placement in self._parts)
        retranslated = sum(placement.retranslated for placement in self._parts)
        return sorted(written), count, retranslated

    def _save(self, placement: _PartPlacement, translations: dict[str, str]) -> list[str]:
        """Save one part's files; a leaf its document refuses is left out and the part placed
        anew without it, until the files take what is left (see `finish`)."""
        written: list[str] = []
        while True:
            try:
                return [*written, *placement.editor.save()]
            except NotEditableError as exc:
                refused = _refused_leaves(placement, exc.key)
                if not refused:
                    raise  # no leaf of this run made it: the file as a whole
                # Files saved before the refusal stay saved; placed anew, they do not change.
                written += placement.editor.saved
                self.refused += len(refused)
                self.refusals.append(
                    error(
                        Code.LOCALE_NOT_EDITABLE,
                        f"{exc.why}; `{self.target.name}` keeps it untranslated (its file takes "
                        "every other translation), and a later `generate` tries it again",
                        exc.issue.path,
                    )
                )
                index = self._parts.index(placement)
                part = placement.part
                part.entries.clear()
                part.entries.update(placement.entries)
                placement = _PartPlacement(self.project, part, placement.refused | refused)
                self._parts[index] = placement
                self._place_part(placement, translations.get, final=True)
                if self.metadata:
                    _mark_kept_stale(part, placement.editor)

    def _journal(self, parts: list[TargetPart]) -> None:
        """Record the entries of `parts` in the lock's journal (see `PENDING_FILE`). Raises
        ProblemError when it cannot be written: then no file is."""
        if self.project.read_only or not any(part.entries for part in parts):
            return
        code = self.target.code
        try:
            record_pending(
                self.project.root,
                {lock_key(code, part.namespace): part.entries for part in parts},
            )
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise ProblemError(
                error(
                    Code.LOCK_UNWRITABLE,
                    f"{PENDING_FILE}: cannot be written ({reason}), so no file of "
                    f"`{self.target.name}` was — free space or fix permissions, then run again",
                    PENDING_FILE,
                )
            ) from exc

    @property
    def held_back(self) -> list[str]:
        """Array items not written because an earlier item of their array is missing (its
        translation failed, or the template leaves it out)."""
        return [path for placement in self._parts for path in placement.held_back]

    def _place(self, text_of: Callable[[str], str | None]) -> None:
        """Place the leaves whose texts are known, part after part, stopping at the first leaf
        still waiting for its text."""
        parts = self.parts
        while True:
            if not self._parts or self._parts[-1].next == len(self._parts[-1].part.plan.leaves):
                if len(self._parts) == len(parts):
                    return
                self._working = len(self._parts)
                self._parts.append(_PartPlacement(self.project, parts[self._working]))
            self._working = len(self._parts) - 1
            if not self._place_part(self._parts[-1], text_of, final=False):
                return

    def _place_part(
        self, placement: _PartPlacement, text_of: Callable[[str], str | None], *, final: bool
    ) -> bool:
        """Place the leaves of one part from `placement.next` on; before `final`, stop at a
        leaf whose text is unknown (False), else skip the leaves without one. True once every
        leaf of the part was seen."""
        part = placement.part
        leaves = part.plan.leaves
        editor = placement.editor
        segment_of = part.source.leaf_segment
        held = part.view.leaf_segment
        order = part.plan.order
        structured = self.structured
        target = self.target
        # Leaves the target does not hold yet, in order, all for the file and style `into`:
        # added together. Added before anything else that can fail (loading a file), so that
        # the first failure is the one leaf by leaf placing meets.
        new: list[tuple[str, object]] = []
        into: tuple[Path, FileStyle] | None = None

        def add_new() -> None:
            if new:
                assert into is not None
                editor.add(new, into[0], order, into[1])
                new.clear()

        index = placement.next
        refused = placement.refused
        try:
            while index < len(leaves):
                if not index % YIELD_EVERY:
                    add_new()
                    SpeedMechanics.yield_gil()  # see YIELD_EVERY
                leaf = leaves[index]
                translated = leaf.action == "translate"
                text = text_of(leaf.text) if translated else leaf.text
                if text is None or (refused and leaf.target_path in refused):
                    if not final:
                        add_new()
                        return False
                    index += 1
                    continue
                rel = segment_of[leaf.source_path]
                placed = placement.new_files.get(rel)
                if placed is None:
                    add_new()
                    placed = placement.new_files[rel] = placement.files.target_file(
                        leaf.source_path, target
                    )
                if leaf.target_path not in held:
                    if "[" in leaf.target_path:
                        add_new()
                        if not editor.document(*placed).reaches(leaf.target_path):
                            # An earlier item of its array is missing: its translation
                            # failed, or the template leaves it out.
                            placement.held_back.append(leaf.target_path)
                            index += 1
                            continue
                    if placed is not into:
                        add_new()
                        into = placed
                    # A new leaf is structured when the target's leaves are.
                    fresh = leaf.value
                    if translated:
                        fresh = machine_leaf(text, None) if structured or leaf.review else text
                    new.append((leaf.target_path, fresh))
                else:
                    add_new()
                    existing = editor.get(leaf.target_path)
                    value: object = text if translated else leaf.value
                    # A structured-JSON message takes the bare text (the writer keeps its fields).
                    wants_leaf = structured or leaf.review or isinstance(existing, dict)
                    if translated and wants_leaf and not is_message_object(existing):
                        value = machine_leaf(text, existing)
                    editor.set(leaf.target_path, value, placed[0], order=order, style=placed[1])
                placement.count += 1
                if translated:
                    placement.retranslated += leaf.stale
                    part.entries[leaf.target_path] = entry_for(
                        leaf.source_path, leaf.target_path, leaf.text, text
                    )
                index += 1
            add_new()
        finally:
            placement.next = index
        return True


def _refused_leaves(placement: _PartPlacement, key: str | None) -> frozenset[str]:
    """The leaves placed into `placement` that a refusal of `key` (a leaf, or a subtree: see
    `NotEditableError`) is about; none when it names no key or none placed."""
    if key is None:
        return frozenset()
    under = (key + ".", key + "[")
    return frozenset(
        leaf.target_path
        for leaf in placement.part.plan.leaves[: placement.next]
        if leaf.target_path not in placement.refused
        and (leaf.target_path == key or leaf.target_path.startswith(under))
    )


def _mark_kept_stale(part: TargetPart, editor: LocaleEditor) -> None:
    """Mark each kept stale leaf of `part` `needsReview` (value unchanged) and note it in its
    lock entry, so that removing the mark settles it. A structured-JSON message has no place
    for the mark and stays as it is."""
    for path in part.plan.stale:
        holder = editor.segment_of(path)
        existing = editor.get(path)
        leaf = part.view.leaves[path]
        if holder is None or not isinstance(leaf.value, str) or is_message_object(existing):
            continue
        editor.set(path, review_leaf(leaf.value, existing), holder)
        part.entries[path] = msgspec.structs.replace(part.entries[path], marked=True)
