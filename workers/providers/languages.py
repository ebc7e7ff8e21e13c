"""Our locale codes (`pt-BR`, `zh-Hant`, `sr-Latn`) split into the parts provider language
codes are built from.
"""

from __future__ import annotations

from typing import NamedTuple

from i18nprune.locale_codes import normalize_code

_TRADITIONAL_REGIONS = frozenset({"tw", "hk", "mo"})
_NORWEGIAN = frozenset({"no", "nb"})


class Subtags(NamedTuple):
    """A locale code's language, script and region, lower-cased; "" when absent."""

    language: str
    script: str
    region: str

    @property
    def traditional_chinese(self) -> bool:
        """Chinese written in traditional characters (`zh-Hant`, `zh-TW`, `zh-HK`, `zh-MO`)."""
        if self.language != "zh":
            return False
        return self.script == "hant" or (not self.script and self.region in _TRADITIONAL_REGIONS)

    @property
    def norwegian_bokmal(self) -> bool:
        """`no` or `nb`: the written Norwegian providers call `nb` or `no`."""
        return self.language in _NORWEGIAN


def subtags(code: str) -> Subtags:
    """The language, script and region of `code` (`zh_Hant_TW` → zh, hant, tw)."""
    language, *rest = normalize_code(code).split("-")
    script = next((part for part in rest if len(part) == 4 and part.isalpha()), "")
    region = next(
        (part for part in rest if (len(part) == 2 and part.isalpha()) or part.isdigit()), ""
    )
    return Subtags(language, script, region)
