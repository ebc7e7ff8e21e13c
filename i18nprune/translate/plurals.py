"""Plural planning for `generate`: the target paths an i18next plural group of the source
becomes in a target language (its CLDR categories), and which source form each is translated from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from i18nprune.locales.catalog import PLURAL_CATEGORIES, ordinal_categories, plural_categories

_ORDINAL = "_ordinal"


class PlannedPath(msgspec.Struct, frozen=True):
    """One target path to fill, and the source path whose text is translated into it (a
    Struct: a plan holds one per template path, and a frozen dataclass is slow to build)."""

    target_path: str
    source_path: str


@dataclass(frozen=True, slots=True)
class _Form:
    """A path read as an i18next plural form: `<base>_<category>` or
    `<base>_ordinal_<category>`."""

    base: str
    ordinal: bool
    category: str

    def path(self, category: str) -> str:
        return f"{self.base}{_ORDINAL if self.ordinal else ''}_{category}"


def plural_plan(
    template_paths: Sequence[str], source_code: str, target_code: str
) -> list[PlannedPath]:
    """The target paths to fill from the source's `template_paths`, in template order.

    A plural group is the set of template paths sharing a base and kind (cardinal
    `<base>_<category>`, ordinal `<base>_ordinal_<category>`; the ordinal reading wins for a
    path that allows both). It counts as a group only when it has an `other` form and either
    another form of the same kind, or the source language has no category but `other` for that
    kind (so a lone `status_other` in an English source is an ordinary key, while a lone
    `items_other` in a Japanese source is a plural). Each group becomes exactly the target
    language's CLDR categories, in CLDR order at the position of the group's first path, each
    translated from the source form of the same category when there is one, else from `other`;
    categories the target does not use are dropped. Every other path maps to itself. Pure; an
    unknown language has only `other`.
    """
    forms = {path: form for path in template_paths if (form := _parse(path)) is not None}
    groups: dict[tuple[str, bool], set[str]] = {}
    for form in forms.values():
        groups.setdefault((form.base, form.ordinal), set()).add(form.category)
    source_categories = {kind: _categories(source_code, ordinal=kind) for kind in (False, True)}
    target_categories = {kind: _categories(target_code, ordinal=kind) for kind in (False, True)}
    plural = {
        group
        for group, categories in groups.items()
        if _is_plural_group(categories, source_categories[group[1]])
    }
    plan: list[PlannedPath] = []
    planned_groups: set[tuple[str, bool]] = set()
    for path in template_paths:
        form = forms.get(path)
        group = (form.base, form.ordinal) if form is not None else None
        if form is None or group not in plural:
            plan.append(PlannedPath(target_path=path, source_path=path))
        elif group not in planned_groups:
            planned_groups.add(group)
            plan.extend(_plan_group(form, groups[group], target_categories[form.ordinal]))
    return plan


def _parse(path: str) -> _Form | None:
    stem, separator, category = path.rpartition("_")
    if not separator or category not in PLURAL_CATEGORIES:
        return None
    ordinal = stem.endswith(_ORDINAL) and _names_a_key(stem.removesuffix(_ORDINAL))
    base = stem.removesuffix(_ORDINAL) if ordinal else stem
    return _Form(base, ordinal, category) if _names_a_key(base) else None


def _names_a_key(base: str) -> bool:
    """`a.items` does; `` and `a.` leave the suffix without a key of its own."""
    return bool(base.rpartition(".")[2])


def _is_plural_group(categories: set[str], source_categories: list[str]) -> bool:
    return "other" in categories and (len(categories) > 1 or source_categories == ["other"])


def _plan_group(form: _Form, categories: set[str], targets: list[str]) -> list[PlannedPath]:
    """The target paths of a group whose source has `categories`, for a target language
    with the categories `targets`."""
    return [
        PlannedPath(
            target_path=form.path(category),
            source_path=form.path(category if category in categories else "other"),
        )
        for category in targets
    ]


def _categories(code: str, *, ordinal: bool) -> list[str]:
    return list(ordinal_categories(code)) if ordinal else plural_categories(code)
