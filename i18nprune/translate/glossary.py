"""The glossary (`translate.glossary`, `translate.glossaryFile`): terms no provider may alter, how
they are read and checked, and where they occur in a text (for `protect_placeholders`).
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import msgspec

from i18nprune.config.lookup import confine
from i18nprune.config.schema import GlossaryEntry, TranslateConfig
from i18nprune.config.terms import term_problems, text_problem
from i18nprune.envelope import Code, ProblemError, error
from i18nprune.jsontext import located_problem
from i18nprune.locale_codes import looks_like_locale_code, normalize_code, per_locale

_TRUE = frozenset({"true", "yes", "1"})
_FALSE = frozenset({"false", "no", "0"})
_ERROR_PATH = re.compile(r"^(?P<what>.*) - at `\$(?P<path>[^`]*)`$", re.DOTALL)
_PATH_PART = re.compile(r"\.([^.\[]+)|\[(\d+)\]")
_SPACE = re.compile(r"[ \t\r\n]*")
# Scripts written without spaces between words: a term there needs no word boundary, and a
# Latin brand name may touch them (`Acme Cloud的`). Han, kana, Hangul (particles attach to the
# noun), Thai, Lao, Khmer, Myanmar, Tibetan.
_UNSPACED_CHARS = (
    "\u0e00-\u0eff\u0f00-\u0fff\u1000-\u109f\u1100-\u11ff\u1780-\u17ff\u2e80-\u2fdf"
    "\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
    "\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003ffff"
)
# The trie of `_any_of` needs no more of a word than this (it recurses once per character).
_PREFIX_CHARS = 100
# A word as terms are looked up: a run of word characters of spaced scripts, or one character
# of a script without spaces.
_WORD = f"[^\\W{_UNSPACED_CHARS}]+|[{_UNSPACED_CHARS}]"


# Compiled on first use: the character classes above take the regex compiler ~8 ms each, which
# every `generate` paid at import while only a glossary with terms needs them.
@cache
def _word() -> re.Pattern[str]:
    return re.compile(_WORD)


@cache
def _unspaced() -> re.Pattern[str]:
    return re.compile(f"[{_UNSPACED_CHARS}]")


@dataclass(frozen=True)
class GlossaryTerm:
    """One term: its translations by normalised locale code, and where it was defined."""

    term: str
    translations: Mapping[str, str]
    case_sensitive: bool
    origin: str
    """`file:line` (or the config key) that defined it, for messages."""

    def target_form(self, target: str) -> str | None:
        """The term in `target` (its exact code, else its language), None to keep it as the
        source text spells it."""
        return per_locale(self.translations, target)


class Glossary:
    """Every term of a project (file terms, with config terms replacing those they repeat)."""

    def __init__(self, terms: Iterable[GlossaryTerm] = ()) -> None:
        self.terms = tuple(terms)

    def for_target(self, target: str) -> TargetTerms | None:
        """The terms with their `target` forms, None when the glossary is empty."""
        if not self.terms:
            return None
        return TargetTerms([(term, term.target_form(target)) for term in self.terms])


class TargetTerms:
    """Finds a glossary's terms in text for one target language (a `TermFinder`).

    A term matches only as a whole word: the characters around it must not continue it (a
    letter, digit, `_` or combining mark next to a word character of the term), except in
    scripts written without spaces. Where matches overlap, the longest term wins, then the
    leftmost. A case-insensitive term keeps the source's spelling when it has no translation.
    """

    def __init__(self, terms: list[tuple[GlossaryTerm, str | None]]) -> None:
        # Terms are looked up by their first word, so a text costs one pass over its words
        # however many terms there are; the few that start with no word character (`.NET`)
        # are searched for one by one.
        self._by_word: dict[str, list[tuple[str, int, bool, str | None]]] = {}
        self._loose: list[tuple[re.Pattern[str], str | None]] = []
        for term, form in sorted(terms, key=lambda item: -len(item[0].term)):
            spelling, exact = term.term, term.case_sensitive
            head = _word().match(spelling)
            if head is None:
                pattern = re.compile(re.escape(spelling), 0 if exact else re.IGNORECASE)
                self._loose.append((pattern, form))
                continue
            needle = spelling if exact else spelling.casefold()
            entry = (needle, len(spelling), exact, form)
            self._by_word.setdefault(head.group().casefold(), []).append(entry)
        self._any = _any_of(self._by_word) if self._by_word else None

    def find(self, text: str) -> list[tuple[int, int, str]]:
        """`(start, end, replacement)` of every term in `text`, in order, never overlapping."""
        found: list[tuple[int, int, int, str]] = []  # (-length, start, end, replacement)
        if self._any is not None and self._any.search(text.casefold()) is not None:
            found.extend(self._word_matches(text))
        for pattern, form in self._loose:
            position = 0
            while (match := pattern.search(text, position)) is not None:
                start, end = match.span()
                if _whole_word(text, start, end):
                    found.append((start - end, start, end, match.group() if form is None else form))
                position = start + 1
        if len(found) <= 1:
            return [(start, end, form) for _, start, end, form in found]
        found.sort()
        taken: list[tuple[int, int, str]] = []
        for _, start, end, form in found:
            if not any(
                start < other_end and other_start < end for other_start, other_end, _ in taken
            ):
                taken.append((start, end, form))
        taken.sort()
        return taken

    def _word_matches(self, text: str) -> list[tuple[int, int, int, str]]:
        """Every whole-word occurrence of a term that starts with a word, overlaps included."""
        found: list[tuple[int, int, int, str]] = []
        by_word = self._by_word
        for word in _word().finditer(text):
            bucket = by_word.get(word.group().casefold())
            if bucket is None:
                continue
            start = word.start()
            for needle, length, exact, form in bucket:
                end = start + length
                piece = text[start:end]
                if (piece == needle if exact else piece.casefold() == needle) and _whole_word(
                    text, start, end
                ):
                    found.append((-length, start, end, piece if form is None else form))
        return found


_Trie = dict[str, "_Trie"]
"""Character → the rest; `""` marks the end of a word."""


def _any_of(words: Iterable[str]) -> re.Pattern[str]:
    """A pattern that finds any of `words` inside a (casefolded) text: a trie, so a text costs
    about the same however many words there are (most texts hold none of them)."""
    trie: _Trie = {}
    for word in sorted(words, key=len):
        node = trie
        for char in word[:_PREFIX_CHARS]:
            if "" in node:  # a shorter word is a prefix: finding it is enough
                break
            node = node.setdefault(char, {})
        else:
            node.clear()
            node[""] = {}

    def render(node: _Trie) -> str:
        if "" in node:
            return ""
        parts = [re.escape(char) + render(child) for char, child in node.items()]
        return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"

    return re.compile(render(trie))


def _continues_word(char: str) -> bool:
    """Whether `char` would be part of the same word as a neighbouring word character."""
    if char.isalnum() or char == "_":
        return _unspaced().match(char) is None
    return unicodedata.category(char).startswith("M")


def _whole_word(text: str, start: int, end: int) -> bool:
    """The match `text[start:end]` is not the middle of a longer word."""
    if start > 0 and _continues_word(text[start]) and _continues_word(text[start - 1]):
        return False
    return not (end < len(text) and _continues_word(text[end - 1]) and _continues_word(text[end]))


# --- checking and reading ----------------------------------------------------------------------


def load_glossary(translate: TranslateConfig, root: Path) -> Glossary:
    """The project's glossary: `translate.glossaryFile` (relative to `root`) read, then
    `translate.glossary` (already validated with the config) replacing file terms it repeats
    (compared case-insensitively).

    Raises ProblemError: GLOSSARY_INVALID (`file:line: what; what to do`) for a missing,
    unreadable or malformed file, an unknown extension, a bad entry or a term defined twice in
    the file; PATH_OUTSIDE_ROOT when the file lies outside the project.
    """
    terms: dict[str, GlossaryTerm] = {}
    if translate.glossary_file is not None:
        path = confine(root, translate.glossary_file, "translate.glossaryFile")
        shown = translate.glossary_file
        for term in _read_file(path, shown):
            key = term.term.casefold()
            if key in terms:
                raise _invalid(
                    term.origin,
                    f"the term `{term.term}` is already defined at {terms[key].origin}; "
                    "keep one of them",
                )
            terms[key] = term
    for index, entry in enumerate(translate.glossary):
        origin = f"translate.glossary[{index}]"
        terms[entry.term.casefold()] = _term(entry, origin)
    return Glossary(terms.values())


def _term(entry: GlossaryEntry, origin: str) -> GlossaryTerm:
    translations = {normalize_code(code): form for code, form in entry.translations.items()}
    return GlossaryTerm(entry.term, translations, entry.case_sensitive, origin)


def _invalid(where: str, message: str) -> ProblemError:
    return ProblemError(error(Code.GLOSSARY_INVALID, f"{where}: {message}", where))


def _read_file(path: Path, shown: str) -> list[GlossaryTerm]:
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".json"):
        raise _invalid(
            shown,
            "translate.glossaryFile must be a `.csv` or `.json` file; rename it or convert it",
        )
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise _invalid(
            shown,
            "the glossary file does not exist; create it or fix `translate.glossaryFile`",
        ) from None
    except IsADirectoryError:
        raise _invalid(shown, "is a directory; point `translate.glossaryFile` at a file") from None
    except OSError as exc:
        raise _invalid(shown, f"cannot be read ({exc.strerror})") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise _invalid(f"{shown}:{line}", "is not UTF-8 text; save it as UTF-8") from None
    if suffix == ".csv":
        return _read_csv(text, shown)
    return _read_json(text, shown)


def _read_csv(text: str, shown: str) -> list[GlossaryTerm]:
    """Rows under a header `term[,caseSensitive][,<locale code>…]`; an empty cell is no
    translation (or the default case sensitivity)."""
    reader = csv.reader(io.StringIO(text, newline=""))
    header: list[str] | None = None
    terms: list[GlossaryTerm] = []
    line = 1
    try:
        for row in reader:
            where, line = f"{shown}:{line}", reader.line_num + 1
            if not any(cell.strip() for cell in row):
                continue
            if header is None:
                header = _csv_header(row, where)
                continue
            terms.append(_csv_term(header, row, where))
    except csv.Error as exc:
        raise _invalid(f"{shown}:{reader.line_num}", f"malformed CSV ({exc})") from None
    if header is None:
        raise _invalid(
            f"{shown}:1", "the glossary is empty; start with a header `term,caseSensitive,de,…`"
        )
    return terms


def _csv_header(row: list[str], where: str) -> list[str]:
    header = [cell.strip() for cell in row]
    if "term" not in header:
        raise _invalid(
            where,
            "the first row must be a header naming a `term` column (then `caseSensitive` "
            "and locale codes), e.g. `term,caseSensitive,de,fr`",
        )
    for column in header:
        if column in ("term", "caseSensitive"):
            continue
        if not looks_like_locale_code(column):
            raise _invalid(
                where,
                f"column `{column}` is neither `term`, `caseSensitive` nor a locale code "
                "(`de`, `pt-BR`); rename or remove it",
            )
    repeated = sorted({column for column in header if header.count(column) > 1})
    if repeated:
        raise _invalid(where, f"column `{repeated[0]}` appears twice; keep one")
    return header


def _csv_term(header: list[str], row: list[str], where: str) -> GlossaryTerm:
    """One row; cells are trimmed (`Acme Cloud, Acme Wolke` reads as meant)."""
    if len(row) > len(header):
        raise _invalid(
            where,
            f"{len(row)} cells but the header has {len(header)} columns; quote cells "
            'that contain commas (`"Acme, Inc."`)',
        )
    term = ""
    flag = ""
    translations: dict[str, str] = {}
    for column, cell in zip(header, row, strict=False):
        value = cell.strip()
        if column == "term":
            term = value
        elif column == "caseSensitive":
            flag = value.lower()
        elif value:
            translations[column] = value
    if flag and flag not in _TRUE and flag not in _FALSE:
        raise _invalid(where, f"`caseSensitive` must be `true` or `false` (or empty), got `{flag}`")
    problem = text_problem(term)
    if problem is not None:
        raise _invalid(where, f"`term` {problem}")
    for column, value in translations.items():
        problem = text_problem(value)
        if problem is not None:
            raise _invalid(where, f"`{column}` {problem}")
    codes = {normalize_code(column): value for column, value in translations.items()}
    return GlossaryTerm(term, codes, flag not in _FALSE, where)


def _read_json(text: str, shown: str) -> list[GlossaryTerm]:
    """A JSON list shaped like `translate.glossary`."""
    try:
        data = msgspec.json.decode(text.encode("utf-8"))
    except msgspec.DecodeError:
        try:
            json.loads(text)
        except json.JSONDecodeError as readable:
            line, column, message = located_problem(text, readable)
        else:  # NaN or Infinity, which only the standard library accepts
            line, column, message = 1, 1, "not strict JSON (NaN or Infinity)"
        raise _invalid(f"{shown}:{line}:{column}", f"invalid JSON: {message}") from None
    if not isinstance(data, list):
        raise _invalid(
            f"{shown}:1",
            'the glossary must be a JSON list of entries (`[{"term": "Acme Cloud", '
            '"translations": {"de": "…"}}]`)',
        )
    try:
        entries = msgspec.convert(data, list[GlossaryEntry])
    except msgspec.ValidationError as exc:
        located = _ERROR_PATH.match(str(exc))
        path = _parse_path(located["path"]) if located else ()
        what = located["what"] if located else str(exc)
        where = _json_location(_key_lines(text), shown, path)
        raise _invalid(where, _json_problem(what, path)) from None
    terms = []
    for index, (entry, line) in enumerate(zip(entries, _entry_lines(text), strict=True)):
        for suffix, problem in term_problems(entry.term, entry.translations):
            where = _json_location(_key_lines(text), shown, (index, *suffix))
            raise _invalid(where, f"`[{index}].{'.'.join(suffix)}` {problem}")
        terms.append(_term(entry, f"{shown}:{line}"))
    return terms


def _entry_lines(text: str) -> list[int]:
    """The line each element of a well-formed JSON list starts on (the standard library's
    scanner: quick, where a parser with positions for every key is not)."""
    decoder = json.JSONDecoder()
    lines: list[int] = []
    line, counted = 1, 0
    position = _skip_space(text, text.index("[") + 1)
    while text[position] != "]":
        line += text.count("\n", counted, position)
        counted = position
        lines.append(line)
        _, position = decoder.raw_decode(text, position)
        position = _skip_space(text, position)
        if text[position] == ",":
            position = _skip_space(text, position + 1)
    return lines


def _skip_space(text: str, position: int) -> int:
    found = _SPACE.match(text, position)
    assert found is not None  # `*` matches nothing at worst
    return found.end()


def _key_lines(text: str) -> Mapping[tuple[str | int, ...], int]:
    from i18nprune.config.js_literal import literal_key_lines  # a slow parser: only on errors

    return literal_key_lines(text)


def _parse_path(text: str) -> tuple[str | int, ...]:
    return tuple(int(index) if index else name for name, index in _PATH_PART.findall(text))


def _json_problem(what: str, path: tuple[str | int, ...]) -> str:
    where = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in path)
    shape = '{"term": "…", "translations": {"de": "…"}, "caseSensitive": true}'
    return f"`{where or '$'}`: {what}; an entry is `{shape}`"


def _json_location(
    lines: Mapping[tuple[str | int, ...], int], shown: str, path: tuple[str | int, ...]
) -> str:
    """`file:line` of `path` (or of its nearest ancestor whose line is known)."""
    for length in range(len(path), 0, -1):
        line = lines.get(path[:length])
        if line is not None:
            return f"{shown}:{line}"
    return f"{shown}:1"
