"""What `generate` does to one target: the leaves to translate, copy, or leave alone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from i18nprune.locales.leaves import Leaf
from i18nprune.locales.view import LocaleView
from i18nprune.reference import is_preserved
from i18nprune.template import SyncTemplate
from i18nprune.translate.plurals import plural_plan

Action = Literal["translate", "copy"]


@dataclass(frozen=True)
class PlannedLeaf:
    """One target leaf to write: from which source leaf, and whether it needs a provider."""

    target_path: str
    source_path: str
    text: str
    action: Action


@dataclass(frozen=True)
class TargetPlan:
    """The leaves of one target that `generate` writes, in template order."""

    leaves: list[PlannedLeaf]
    order: list[str]
    """Every target path of the template, to place new keys where the source has them."""

    @property
    def template_leaf_count(self) -> int:
        return len(self.order)

    def texts_to_translate(self) -> list[str]:
        return [leaf.text for leaf in self.leaves if leaf.action == "translate"]


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
) -> TargetPlan:
    """The leaves `target` needs from `source` under `template`.

    Missing template leaves, placeholder leaves, structured leaves marked
    `needsTranslationAgain`, and with `resume` leaves still equal to the source text are
    translated; `force` translates every template leaf. Preserved paths are copied from the
    source. Plural keys get the target language's CLDR categories. Source leaves that hold no
    text (a placeholder sentinel) are skipped.
    """
    preserve = template.config.policies.preserve
    reference = template.reference
    planned: list[PlannedLeaf] = []
    order: list[str] = []
    for path in plural_plan(template.paths, source.locale, target.locale):
        order.append(path.target_path)
        source_leaf = source.leaves[path.source_path]
        if source_leaf.kind not in ("string", "structured") or not isinstance(
            source_leaf.value, str
        ):
            continue
        text = source_leaf.value
        existing = target.leaves.get(path.target_path)
        if is_preserved(path.target_path, preserve, reference.syntax, reference.namespace):
            if existing is None or existing.value != text:
                planned.append(PlannedLeaf(path.target_path, path.source_path, text, "copy"))
        elif _wants_translation(existing, text, resume, force):
            planned.append(PlannedLeaf(path.target_path, path.source_path, text, "translate"))
    return TargetPlan(planned, order)
