"""Plural planning for `generate`: the target paths an i18next plural group of the source
becomes in a target language (its CLDR categories), or a gettext plural entry (its `nplurals`
forms), and which source form each is translated from.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import msgspec

from i18nprune.locales.catalog import PLURAL_CATEGORIES, ordinal_categories, plural_categories
from i18nprune.locales.formats import format_of
from i18nprune.locales.podoc import (
    PluralRule,
    file_plural_rule,
    language_plural_rule,
    plural_keys,
)
from i18nprune.locales.view import LocaleView

_ORDINAL = "_ordinal"
_INDEX = re.compile(r"\[(\d+)\]\Z")


class PlannedPath(msgspec.Struct, frozen=True):
    """One target path to fill, and the source path whose text is translated into it (a
    Struct: a plan holds one per template path, and a frozen dataclass is slow to build)."""

    target_path: str
    source_path: str
    review: bool = False
    """Translated from a source form that is not its own (a gettext target with more forms
    than the source): a person should look at it."""


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
    template_paths: Sequence[str],
    source_code: str,
    target_code: str,
    gettext: GettextForms | None = None,
) -> list[PlannedPath]:
    """The target paths to fill from the source's `template_paths`, in template order.

    With `gettext`, the forms of each gettext plural entry (`key[0]`, `key[1]`, …) become the
    target's forms (`gettext.target`) at the place of its first (`GettextForms.plan`).

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
    entries = gettext.entries(template_paths) if gettext is not None else {}
    planned_entries: set[str] = set()
    for path in template_paths:
        if entries:
            key = _entry_key(path)
            if key is not None and key in entries:
                if key not in planned_entries:
                    planned_entries.add(key)
                    assert gettext is not None
                    plan.extend(gettext.plan(key, entries[key]))
                continue
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


@dataclass(frozen=True)
class GettextForms:
    """The gettext plural entries of a source (`keys`: key → its number of forms) and a
    target's plural forms (`target`).

    With as many forms on both sides and the singular first in both, each target form is
    translated from its own. Otherwise the form `n = 1` takes in the target is translated from
    the source's first form (its singular, the `msgid` of a template) and every other form from
    the source's last (its plural, `msgid_plural`) — the two texts a PO file gives a
    translator; a target with one form takes it from the last (the form for any count). A target
    with more forms than the source has forms the source does not spell (Polish's few and many
    from English's one plural): they are all marked for review.
    """

    keys: Mapping[str, int]
    target: PluralRule

    def entries(self, template_paths: Sequence[str]) -> dict[str, list[str]]:
        """The template's forms of each plural entry (those whose source text is there)."""
        found: dict[str, list[str]] = {}
        for path in template_paths:
            key = _entry_key(path)
            if key is not None and key in self.keys:
                found.setdefault(key, []).append(path)
        return found

    def keyed(self, paths: set[str]) -> set[str]:
        """`paths` with the forms of each plural entry (`key[n]`) as its key: what a locale has
        when form counts differ between languages."""
        return {
            key if key is not None and key in self.keys else path
            for path in paths
            for key in [_entry_key(path)]
        }

    def plan(self, key: str, source_paths: list[str]) -> list[PlannedPath]:
        """The target forms of `key`, each with the source form it is translated from."""
        count, singular = self.target
        review = count > self.keys[key]
        if count == len(source_paths) and singular == 0 and not review:
            return [PlannedPath(f"{key}[{i}]", path) for i, path in enumerate(source_paths)]
        first, last = source_paths[0], source_paths[-1]
        return [
            PlannedPath(f"{key}[{i}]", first if i == singular and count > 1 else last, review)
            for i in range(count)
        ]


def gettext_forms(source: LocaleView, target: LocaleView) -> GettextForms | None:
    """The plural entries of `source`'s PO files and the plural forms of `target`: those its
    PO file's header names, else its language's (CLDR's, from Babel), else as many as the
    source's with the singular first; None when the source has no PO plural entry."""
    plural = frozenset[str]().union(
        *(plural_keys(s.path) for s in source.segments if format_of(s.rel) == "po")
    )
    if not plural:
        return None
    keys: dict[str, int] = {}
    for path in source.leaves:
        # a msgid may end in `[1]` itself: only a plural entry's key has forms
        key = _entry_key(path)
        if key is not None and key in plural:
            keys[key] = max(keys.get(key, 0), int(path[len(key) + 1 : -1]) + 1)
    if not keys:
        return None
    rule = next(
        (
            found
            for segment in target.segments
            if format_of(segment.rel) == "po" and (found := file_plural_rule(segment.path))
        ),
        None,
    ) or language_plural_rule(target.name)
    return GettextForms(keys, rule or PluralRule(max(keys.values()), 0))


def _entry_key(path: str) -> str | None:
    """The key `path` is a form of, if it reads as one (`key[n]`; a msgid may hold `[1]`
    itself, so only the last index counts)."""
    match = _INDEX.search(path) if path.endswith("]") else None
    return path[: match.start()] if match is not None else None
