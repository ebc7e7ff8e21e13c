"""i18next's plural forms of a key, under the project's plural separator: the one reading that
`validate` (is a code key present?) and `cleanup` (is a locale path used?) share.

A form is the key, the separator and a suffix: a CLDR category (`_one`, and `_zero`, which
i18next looks up for a count of 0 in any language), `ordinal` and a category (`_ordinal_few`,
for `{ ordinal: true }`), or i18next v3's `_plural` and `_0` … `_5`. A path ending so may be a
form of more than one key: `place_ordinal_one` is the ordinal form of `place` and the
cardinal form of `place_ordinal` (`t('place_ordinal', { count })` looks it up).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping

from i18nprune.locale_codes import PLURAL_CATEGORIES

_V3_SUFFIXES = ("plural", *map(str, range(6)))
_ORDINAL = "ordinal"


class PluralForms:
    """The plural suffixes of one plural separator, and the keys a path is a form of."""

    def __init__(self, separator: str = "_") -> None:
        self.separator = separator
        cardinal = [f"{separator}{category}" for category in PLURAL_CATEGORIES]
        ordinal = [f"{separator}{_ORDINAL}{separator}{category}" for category in PLURAL_CATEGORIES]
        self.suffixes: tuple[str, ...] = (
            *cardinal,
            *ordinal,
            *(f"{separator}{tail}" for tail in _V3_SUFFIXES),
        )
        self._tails = frozenset([*PLURAL_CATEGORIES, *_V3_SUFFIXES])
        self._ordinal = f"{separator}{_ORDINAL}"

    def bases(self, path: str) -> tuple[str, ...]:
        """Every key `path` is a plural form of, nearest first (`a_ordinal_one` → `a_ordinal`,
        `a`); empty when it is none's (a key is never a form of the empty key)."""
        head, separator, tail = path.rpartition(self.separator)
        if not separator or not head or tail not in self._tails:
            return ()
        if tail in PLURAL_CATEGORIES and head.endswith(self._ordinal):
            ordinal_of = head[: -len(self._ordinal)]
            if ordinal_of:
                return (head, ordinal_of)
        return (head,)

    def forms(self, key: str) -> list[str]:
        """The key's plural forms, every suffix."""
        return [key + suffix for suffix in self.suffixes]

    def is_present(self, key: str, paths: Collection[str] | Mapping[str, object]) -> bool:
        """Whether a code key is satisfied by a locale's paths: the key itself or any of its
        plural forms (what `bases` reads back)."""
        if key in paths:
            return True
        return any(key + suffix in paths for suffix in self.suffixes)


@functools.cache
def plural_forms(separator: str = "_") -> PluralForms:
    """The plural forms of `separator`, built once."""
    return PluralForms(separator)
