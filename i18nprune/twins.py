"""Near twins: a key the code uses that the locale lacks, and a locale key a small edit away from
it — another spelling of the same words, a plural `s`, a typo, one word more — which the code
most likely means (`player.subtitles_tracks` in the code, `player.subtitle_tracks` in the locale).

Only the rule lives here: which two keys are twins, and which locale key is nearest a code key.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

# What separates the words of a key segment (besides camel-case humps): spelled out, so that a
# segment's words joined (`_joined`) is the segment without these characters, lower-cased.
_SEPARATORS = " \t\n\r\f\v\xa0\u2007\u2009\u202f\u3000_-.:/?!,;"
_DROP_SEPARATORS = str.maketrans("", "", _SEPARATORS)
_WORD_BREAK = re.compile("[" + re.escape(_SEPARATORS) + "]+|(?<=[a-z0-9])(?=[A-Z])")
_DIGITS = re.compile(r"\d")
# i18next's test for a key that reads as natural language (`looksLikeObjectPath`'s).
_SENTENCE = re.compile(r"[ ,?!;]")

STYLE = 1
"""The same words written another way (`subtitleTracks`, `subtitle_tracks`; a non-breaking
space for a space; `Are you sure?`, `Are you sure`)."""
PLURAL = 1
"""One word in the singular, the other in the plural (`emoji`, `emojis`; `box`, `boxes`;
`category`, `categories`)."""
TYPO = 1
"""One edit (a letter added, dropped or replaced, or two neighbours swapped) in a word of 5
letters or more (`recieved`, `received`)."""
TWO_TYPOS = 2
"""Two such edits in a word of 10 letters or more."""
EXTENDED = 2
"""One word more at the start or the end of a segment of 2 words or more
(`server_responded_with_status`, `server_responded_with_status_code`)."""

_TYPO_LENGTH = 5
_TWO_TYPOS_LENGTH = 10
_PLURAL_GROWTH = 3
"""How many letters longer the joined words may grow by a plural (`y` → `ies`) or by the typos
(`TWO_TYPOS`): past it, only `EXTENDED` can make two segments twins."""


def words(segment: str) -> list[str]:
    """The words of a key segment, lower-cased: split at white space, `_ - . : / ? ! , ;` and
    camel-case humps (`subtitleTracks` → `subtitle`, `tracks`; `Are you sure?` → `are`,
    `you`, `sure`)."""
    return [word.lower() for word in _WORD_BREAK.split(segment) if word]


def _joined(segment: str) -> str:
    """`"".join(words(segment))`, without splitting."""
    return segment.translate(_DROP_SEPARATORS).lower()


def edit_distance(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance (insertions, deletions, substitutions and swaps of
    neighbours, each 1) when it is at most `limit`, else `limit + 1`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    before: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                best = min(best, before[j - 2] + 1)
            current[j] = best
        if min(current) > limit:
            return limit + 1
        before, previous = previous, current
    return min(previous[-1], limit + 1)


def _plural_pair(a: str, b: str) -> bool:
    """One word is the other's English plural (`action`/`actions`, `box`/`boxes`,
    `category`/`categories`); the singular has 2 letters or more."""
    short, long = sorted((a, b), key=len)
    if len(short) < 2:
        return False
    if long in (short + "s", short + "es"):
        return True
    return short.endswith("y") and long == short[:-1] + "ies"


def _typo_distance(a: str, b: str) -> int | None:
    shortest = min(len(a), len(b))
    if shortest < _TYPO_LENGTH:
        return None
    distance = edit_distance(a, b, TWO_TYPOS)
    if distance == 1:
        return TYPO
    if distance == 2 and shortest >= _TWO_TYPOS_LENGTH:
        return TWO_TYPOS
    return None


def segment_distance(a: str, b: str) -> int | None:
    """How far apart two key segments are as twins (`STYLE` … `EXTENDED`), or `None` when they
    are not twins: equal, numbered siblings (they differ only in digits: `step1`, `step2`), or
    more than one of these edits apart. A segment that reads as natural language (it holds a
    space or `, ? ! ;`, i18next's test) is its own source text: there only `STYLE` and one
    `TYPO` keep the text and its translations right; a plural, a second typo or a word more
    make another text."""
    return _segment_distance(a, _joined(a), b, _joined(b))


def _segment_distance(a: str, joined_a: str, b: str, joined_b: str) -> int | None:
    if a == b:
        return None
    if joined_a == joined_b:
        return STYLE
    short, long = sorted((joined_a, joined_b), key=len)
    if len(long) - len(short) > _PLURAL_GROWTH and not (
        long.startswith(short) or long.endswith(short)
    ):
        return None  # the cheap test: most pairs end here
    if _DIGITS.sub("", a) == _DIGITS.sub("", b):
        return None
    split_a, split_b = words(a), words(b)
    sentence = bool(_SENTENCE.search(a) or _SENTENCE.search(b))
    if len(split_a) == len(split_b):
        differing = [(x, y) for x, y in zip(split_a, split_b, strict=True) if x != y]
        if len(differing) != 1:
            return None
        x, y = differing[0]
        if sentence:  # another number or another word is another text, not a slip
            return TYPO if _typo_distance(x, y) == TYPO and not _plural_pair(x, y) else None
        return PLURAL if _plural_pair(x, y) else _typo_distance(x, y)
    if sentence:
        return None
    fewer, more = sorted((split_a, split_b), key=len)
    if len(more) == len(fewer) + 1 and len(fewer) >= 2 and fewer in (more[1:], more[:-1]):
        return EXTENDED
    return None


def key_distance(a: str, b: str, separator: str | None) -> int | None:
    """How far apart two keys are as twins: they have as many segments (split at `separator`;
    a flat key is one segment) and differ in exactly one, by `segment_distance`. `None` when
    they are not twins."""
    if separator is None:
        return segment_distance(a, b)
    parts_a, parts_b = a.split(separator), b.split(separator)
    if len(parts_a) != len(parts_b):
        return None
    differing = [(x, y) for x, y in zip(parts_a, parts_b, strict=True) if x != y]
    if len(differing) != 1:
        return None
    return segment_distance(*differing[0])


class _OneSegmentKeys:
    """One-segment keys (flat keys, or top-level ones), and a test of the names that may be
    their twins, on a name's words: joined, they are a key's (`STYLE`) or a key's but its first
    or last word (`EXTENDED`); they start with a key's first word or end with its last (one
    word differs: `PLURAL`, `TYPO`); a one-word name is about as long as a one-word key; or
    they are a key's and one word more (`EXTENDED`)."""

    def __init__(self, keys: Iterable[str]) -> None:
        self.joined = {key: _joined(key) for key in keys}
        self._exact: set[str] = set(self.joined.values())
        self._keys: set[str] = set()
        self._heads: set[str] = set()
        self._tails: set[str] = set()
        self._one_word: set[int] = set()
        for key, joined in self.joined.items():
            split = words(key)
            if not split:  # a key of separators only (`...`, `-`) has no twin
                continue
            if len(split) == 1:
                self._one_word.update(
                    range(len(joined) - _PLURAL_GROWTH, len(joined) + _PLURAL_GROWTH + 1)
                )
                continue
            self._keys.add(joined)
            self._heads.add(split[0])
            self._tails.add(split[-1])
            if len(split) >= 3:
                self._exact.update(("".join(split[1:]), "".join(split[:-1])))

    def may_be_twin(self, split: list[str]) -> bool:
        """Whether a name of these words may be a twin of one of the keys."""
        if "".join(split) in self._exact:
            return True
        if len(split) == 1:
            return len(split[0]) in self._one_word
        if split[0] in self._heads or split[-1] in self._tails:
            return True
        return len(split) >= 3 and (
            "".join(split[1:]) in self._keys or "".join(split[:-1]) in self._keys
        )


def nearest(
    keys: Iterable[str],
    names: Iterable[str],
    separator: str | None,
    alias: Callable[[str], str | None] = lambda name: None,
) -> dict[str, tuple[int, list[str]]]:
    """For each of `keys` that has a twin among `names` (and their `alias`es: the key a plural
    form belongs to), how near the nearest are and which they are (several when equally near),
    sorted. One pass over `names`: a name of several segments is compared only with the keys
    whose first or last segment it shares (a twin differs in one segment), a one-segment name
    only when `_OneSegmentKeys.may_be_twin` says it may be a twin."""
    wanted = {key: (key,) if separator is None else tuple(key.split(separator)) for key in keys}
    single = _OneSegmentKeys(key for key, parts in wanted.items() if len(parts) == 1)
    by_first: dict[str, list[str]] = {}
    by_last: dict[str, list[str]] = {}
    for key, parts in wanted.items():
        if len(parts) > 1:
            by_first.setdefault(parts[0], []).append(key)
            by_last.setdefault(parts[-1], []).append(key)
    found: dict[str, dict[str, int]] = {}

    def compare(name: str) -> None:
        if separator is None or separator not in name:
            if not single.joined:
                return
            split = words(name)
            if single.may_be_twin(split):
                joined = "".join(split)
                for key, joined_key in single.joined.items():
                    distance = _segment_distance(key, joined_key, name, joined)
                    if distance is not None:
                        found.setdefault(key, {})[name] = distance
            return
        first = name[: name.index(separator)]
        last = name[name.rindex(separator) + len(separator) :]
        for key in {*by_first.get(first, ()), *by_last.get(last, ())}:
            distance = key_distance(key, name, separator)
            if distance is not None:
                found.setdefault(key, {})[name] = distance

    if wanted:
        for name in names:
            compare(name)
            other = alias(name)
            if other is not None:
                compare(other)
    result = {}
    for key, distances in found.items():
        best = min(distances.values())
        result[key] = (best, sorted(name for name, d in distances.items() if d == best))
    return result
