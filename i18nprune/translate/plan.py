"""What `generate` does to one target: the leaves to translate, copy, or leave alone."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Literal

import msgspec

from i18nprune.locales.leaves import Leaf
from i18nprune.locales.view import LocaleView
from i18nprune.reference import is_generator_anchor, is_preserved
from i18nprune.template import SyncTemplate, TargetValues
from i18nprune.translate.lock import LockEntry, TargetEntries, assess, settled_entry, text_hash
from i18nprune.translate.plurals import gettext_forms, plural_plan

Action = Literal["translate", "copy", "data"]


class PlannedLeaf(msgspec.Struct, frozen=True):
    """One target leaf to write: from which source leaf, and whether it needs a provider.

    A Struct rather than a dataclass: a plan holds one per leaf, and a frozen dataclass takes
    ten times as long to build."""

    target_path: str
    source_path: str
    text: str
    action: Action
    stale: bool = False
    """A re-translation of a stale leaf (its source text changed since generate wrote it)."""
    data: int | float | bool | None = None
    """The value to write for action "data": an array item of the source that holds a number, a
    boolean or null, which the target lacks (`text` is empty then)."""
    review: bool = False
    """Translated from a source text that is not its own (a gettext plural form the source does
    not spell): written marked `needsReview`."""

    @property
    def value(self) -> object:
        """What is written for a leaf that is not translated."""
        return self.data if self.action == "data" else self.text


@dataclass(frozen=True)
class TargetPlan:
    """The leaves of one target that `generate` writes, in template order."""

    leaves: list[PlannedLeaf]
    order: list[str]
    """Every target path of the template, to place new keys where the source has them."""
    stale: list[str] = field(default_factory=list)
    """Stale target paths that stay as they are (a person's edit, or `retranslate_stale`
    off), in template order: reported, and marked `needsReview` with `--metadata`."""
    stale_count: int = 0
    """Every stale leaf found: those re-translated and those kept."""
    entries: TargetEntries = field(default_factory=dict)
    """The lock entries of the template's paths as of this plan: a leaf written later
    replaces its own (a failed one keeps it); paths outside the template have none."""

    @property
    def template_leaf_count(self) -> int:
        return len(self.order)

    def texts_to_translate(self) -> list[str]:
        return [leaf.text for leaf in self.leaves if leaf.action == "translate"]


def _no() -> bool:
    return False


def _wants_translation(existing: Leaf | None, source_text: str, resume: bool, force: bool) -> bool:
    """Existing human translations are never overwritten unless forced."""
    if existing is None or force:
        return True
    if existing.kind == "placeholder" or existing.needs_translation_again:
        return True
    if existing.kind == "other":  # numbers, booleans, null are data, not text
        return False
    return resume and existing.value == source_text


def plan_target(
    source: LocaleView,
    target: LocaleView,
    template: SyncTemplate,
    *,
    resume: bool = False,
    force: bool = False,
    lock: Mapping[str, LockEntry] | None = None,
    retranslate_stale: bool = True,
    accepted: Callable[[str], bool] = lambda path: False,
) -> TargetPlan:
    """The leaves `target` needs from `source` under `template`.

    Missing template leaves, placeholder leaves, structured leaves marked
    `needsTranslationAgain`, and with `resume` leaves still equal to the source text are
    translated; `force` translates every template leaf. Preserved paths are copied from the
    source. Plural keys get the target language's CLDR categories, gettext plural entries its
    number of forms (`plurals.GettextForms`). Source leaves that hold no
    text (a placeholder sentinel) are skipped.

    With a `lock` (this target's entries), a leaf whose source text changed since it was
    translated is stale: re-translated when it still holds generate's output and
    `retranslate_stale` is on, else kept and listed in `stale`. `accepted(path)` says whether
    a leaf generate marked `needsReview` lost the mark. Leaves the lock does not know are
    adopted as they are. Nothing is written into a key whose value the target gives another
    shape than the source (`TargetValues.shaped_otherwise`): that value stays.
    """
    preserve = template.config.policies.preserve
    # Nothing to preserve is the common case: no path need be checked then.
    preserving = bool(preserve.copy_keys or preserve.copy_prefixes)
    reference = template.reference
    entries = lock or {}
    planned: list[PlannedLeaf] = []
    order: list[str] = []
    kept_stale: list[str] = []
    stale_count = 0
    settled: TargetEntries = {}
    shapes = TargetValues(target, reference.syntax)
    gettext = gettext_forms(source, target)
    for path in plural_plan(template.paths, source.locale, target.locale, gettext):
        order.append(path.target_path)
        if path.target_path not in target.leaves and shapes.shaped_otherwise(path.target_path):
            continue  # the target's value of that key has another shape: it stays as it is
        source_leaf = source.leaves[path.source_path]
        if source_leaf.kind == "other":  # an array item (see `build_template`): kept in place
            if path.target_path not in target.leaves and not isinstance(source_leaf.value, str):
                planned.append(
                    PlannedLeaf(
                        path.target_path, path.source_path, "", "data", False, source_leaf.value
                    )
                )
            continue
        if source_leaf.kind not in ("string", "structured") or not isinstance(
            source_leaf.value, str
        ):
            continue
        text = source_leaf.value
        existing = target.leaves.get(path.target_path)
        if is_generator_anchor(path.target_path) or (
            preserving
            and is_preserved(path.target_path, preserve, reference.syntax, reference.namespace)
        ):
            if existing is None or existing.value != text:
                planned.append(PlannedLeaf(path.target_path, path.source_path, text, "copy"))
            continue
        entry = entries.get(path.target_path)
        held = existing.value if existing is not None and existing.kind != "placeholder" else None
        if _wants_translation(existing, text, resume, force):
            stale = entry is not None and isinstance(held, str) and text_hash(text) != entry.source
            stale_count += stale
            planned.append(
                PlannedLeaf(
                    path.target_path, path.source_path, text, "translate", stale, review=path.review
                )
            )
            if entry is not None:
                settled[path.target_path] = entry  # kept should the translation fail
            continue
        if not isinstance(held, str):
            continue  # numbers, booleans and null are data the lock does not track
        # Only an entry generate marked asks whether the mark is gone.
        asked = partial(accepted, path.target_path) if entry is not None and entry.marked else _no
        verdict = assess(entry, text, held, accepted=asked)
        if verdict in ("retranslate", "stale"):
            stale_count += 1
        if verdict == "retranslate" and retranslate_stale:
            planned.append(PlannedLeaf(path.target_path, path.source_path, text, "translate", True))
            assert entry is not None  # only a tracked leaf can be stale
            settled[path.target_path] = entry
            continue
        if verdict in ("retranslate", "stale"):
            kept_stale.append(path.target_path)
        settled[path.target_path] = settled_entry(
            entry, verdict, path.source_path, path.target_path, text, held
        )
    return TargetPlan(planned, order, kept_stale, stale_count, settled)
