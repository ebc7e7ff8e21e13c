"""Placeholder safety (docs/translation-workflow.md#placeholders): split a text into the units a
provider translates, with every placeholder (and every glossary term) masked as `<x id="N"/>`,
put the translations back, and verify nothing was lost.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import NamedTuple, Protocol

import msgspec

# Characters that can start a placeholder. `'` and `#` only matter next to braces, so a text
# without any of these is plain text (the fast path).
_MAYBE_PLACEHOLDER = re.compile(r"[{}<%$\r\n]")
_NEXT_SPECIAL = re.compile(r"[{<%$\r\n'#]")
_BRACE_OR_QUOTE = re.compile(r"[{}']")
_LETTER = re.compile(r"[^\W\d_]")

_I18NEXT = re.compile(r"\{\{[^{}]*\}\}")
_PRINTF = re.compile(
    r"%(?:%|(?:\([\w.-]+\)|[1-9]\d*\$)?[-+0#']*(?:\d+|\*)?(?:\.(?:\d+|\*))?"
    r"(?:hh|h|ll|l|L|q|j|z|t)?[sdifuxXoeEgGcpra@])"
)
_TAG = re.compile(
    r"""</?[A-Za-z0-9][\w.:-]*"""
    r"""(?:\s+[^\s<>"'/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|\{[^{}]*\}|[^\s<>"'=`{}]+))?)*"""
    r"""\s*/?>"""
)
_NEWLINES = re.compile(r"(?:\r\n|\r|\n)+")
# The display attributes of an XLIFF inline element (`<x id="INTERPOLATION" equiv-text="…"/>`):
# hints for a translator's tool, not part of what the element stands for (see `_spelling`).
_XLIFF_DISPLAY = re.compile(
    r"""\s+(?:equiv-text|disp|dispStart|dispEnd)\s*=\s*(?:"[^"]*"|'[^']*')"""
)
_NESTING_SCAN = re.compile(r"""\$t\(|[()"']""")
# Without ICU braces and `$t(`, only these forms can occur, each starting at its own character
# (the lookahead skips every other position at once, instead of trying each form there).
# No capturing groups: `findall` returns whole matches.
_FLAT = re.compile(
    rf"(?=[{{<%\r\n])(?:{_I18NEXT.pattern}|{_TAG.pattern}|{_PRINTF.pattern}|{_NEWLINES.pattern})"
)
# The masked form of token N.
_TOKENS = [f'<x id="{index}"/>' for index in range(32)]

_ARGUMENT_HEAD = re.compile(r"\{\s*(?P<name>[\w.-]+)\s*(?:,\s*(?P<kind>\w+)\s*)?(?P<next>[,}])")
_OFFSET = re.compile(r"\s*offset\s*:\s*(\d+)")
_SELECTOR = re.compile(r"\s*([^\s{}]+)\s*\{")
_WHITESPACE = re.compile(r"\s*")
_CHOICE_KINDS = frozenset({"plural", "select", "selectordinal"})
# Deeper ICU nesting than this is protected whole; it also bounds the parser's recursion.
_MAX_DEPTH = 24

# Providers must return tokens untouched; spacing, quote style and an HTML-mode `<x …></x>` pair
# are still accepted, since they say the same thing.
_TOKEN = re.compile(r"""<x\s+id\s*=\s*(["'])(\d+)\1\s*(?:/\s*>|>\s*</x\s*>)""")


class Unit(msgspec.Struct, frozen=True, gc=False):
    """One piece of a text to translate, with its placeholders masked.

    `masked` is what a provider receives: placeholders replaced by `<x id="N"/>`, N counting
    from 0 in this unit, and leading/trailing whitespace (newlines included) left out.
    `original` is the same piece with the real placeholders; a `#` inside a plural branch is
    masked while a `#` elsewhere is text, so a cache keys on `masked` and `original` together.
    `tokens[N]` is the source text that token N stands for (a whole ICU block for a
    plural/select inside the unit).
    """

    masked: str
    original: str
    tokens: list[str]
    key: str
    """What a translation of this unit is cached under: `original` and `masked` together."""


def _new_unit(masked: str, original: str, tokens: list[str]) -> Unit:
    return Unit(masked, original, tokens, f"{original}\x00{masked}")


class TermFinder(Protocol):
    """Where glossary terms occur in a piece of message text (see `translate.glossary`)."""

    def find(self, text: str) -> list[tuple[int, int, str]]:
        """`(start, end, replacement)` of each term in `text`: in order, not overlapping;
        `replacement` is what the translation gets in its place."""
        ...


class PlaceholderMismatch(ValueError):
    """A translation's tokens do not match its unit (missing, duplicated or unknown token), the
    number of translations is not the number of units, or (`ProtectedText.translation`) the
    restored text's placeholders are not the source's."""


class PlaceholderSignature(msgspec.Struct, frozen=True, order=True):
    """What a text's placeholders are, ignoring their order: equal signatures mean a translation
    kept every placeholder and the ICU structure.

    `placeholders` is the sorted multiset of placeholder spellings at this level (an ICU
    plural/select is not one of them); `choices` the sorted ICU plural/select blocks.
    """

    placeholders: tuple[str, ...]
    choices: tuple[ChoiceSignature, ...]


class ChoiceSignature(msgspec.Struct, frozen=True, order=True):
    """An ICU plural/select/selectordinal block: argument, kind, offset, and the signature of
    each branch by selector (sorted)."""

    argument: str
    kind: str
    offset: int
    branches: tuple[tuple[str, PlaceholderSignature], ...]


class _Placeholder(NamedTuple):
    # A tuple: built for every placeholder of every text, and cheapest to build that way.
    raw: str
    # ICU syntax (`{…}`, `#`, a quoted literal): an apostrophe right before it opens a quote.
    icu: bool = False
    newline: bool = False


class _Term(NamedTuple):
    """A glossary term in message text: masked like a placeholder, restored as `target`."""

    raw: str
    target: str


class _Branch(msgspec.Struct, gc=False):
    key: str
    opener: str  # whitespace, selector, whitespace and `{`, as spelled in the source
    body: _Message


class _Choice(msgspec.Struct, gc=False):
    raw: str
    argument: str
    kind: str
    offset: int
    head: str  # `{n, plural, offset:1` up to the first branch
    branches: list[_Branch]
    tail: str  # whitespace and the closing `}`


_Part = str | _Placeholder | _Term | _Choice
# The parse tree (`_Message`, `_Choice`, `_Branch`) and `Unit` are Structs the collector does
# not track: a masked text is a tree without cycles, and a command masks tens of thousands.


class _Message(msgspec.Struct, gc=False):
    """A run of text: `lead` and `trail` are its edge whitespace and newlines, `body` the rest."""

    # Never changed once made (so an empty one can be the shared `()`): a command masks tens
    # of thousands of texts, and every list made is one more object for the collector.
    lead: Sequence[str | _Placeholder]
    body: list[_Part]
    trail: Sequence[str | _Placeholder]
    in_branch: bool
    # Set when the body is a unit: its index in `ProtectedText.units` and its tokens in order.
    unit: int | None = None
    tokens: Sequence[_Placeholder | _Term | _Choice] = ()


class ProtectedText:
    """A source text split into the units to translate; `restore` puts translations back.

    `units` is empty when there is nothing to translate (empty, whitespace only, placeholders
    only, no letters): the text is then copied as is.
    """

    __slots__ = (
        "_flat_raws",
        "_plain",
        "_raws_known",
        "_root",
        "_signature",
        "_terms",
        "source",
        "units",
    )

    def __init__(
        self,
        source: str,
        units: list[Unit],
        root: _Message,
        terms: Counter[str] | None = None,
        *,
        plain: bool | None = None,
    ) -> None:
        """`plain`: whether the text is plain (see below), when the caller knows already."""
        self.source = source
        self.units = units
        self._root = root
        self._signature: PlaceholderSignature | None = None
        # Of a text without ICU, its placeholders as spelled, sorted (None: it has ICU), once
        # `_raws_known`: most translations are verified by comparing these alone.
        self._flat_raws: tuple[str, ...] | None = None
        self._raws_known = False
        self._terms = terms
        # One unit that is the whole text but its edge whitespace, and nothing that could be a
        # placeholder: restoring is putting the edges back (the common case, kept cheap).
        self._plain = (
            (
                len(units) == 1
                and root.unit == 0
                and not root.tokens
                and not _MAYBE_PLACEHOLDER.search(source)
            )
            if plain is None
            else plain
        )

    def __repr__(self) -> str:
        return f"ProtectedText(source={self.source!r}, units={self.units!r})"

    def restore(self, translated: Sequence[str]) -> str:
        """The full text with `translated[i]` (a masked translation of `units[i]`) in place.

        Each unit keeps the source's edge whitespace (the translation's own is dropped) and gets
        every token back exactly once, in whatever order the translation put them. An ASCII
        apostrophe the translation puts right before ICU syntax (`l'{name}`) would open an ICU
        quoted literal; it becomes `’`, which reads the same in ICU and in formats without
        ICU quoting (vue-i18n), where `''` would show twice. Raises `PlaceholderMismatch` when
        the count of translations is not the count of units, or a translation misses, repeats or
        invents a token.
        """
        if len(translated) != len(self.units):
            raise PlaceholderMismatch(
                f"expected {len(self.units)} translations, got {len(translated)}"
            )
        if self._plain and "<x" not in translated[0]:
            return self._between_edges(translated[0].strip())
        return _render_message(self._root, translated)

    def translation(self, translations: Mapping[str, str]) -> str:
        """The text translated and verified: `restore` with the translation of each unit taken
        from `translations` by unit key, which `verify` accepts. Raises KeyError when a unit has
        none there, `PlaceholderMismatch` when restoring fails or verifying finds a problem (the
        problem is its message)."""
        if self._plain:
            # Nothing in the translation can be a placeholder (nor in the source's edges), so
            # it verifies as it is restored: between the edges (the common case, kept cheap).
            translated = translations[self.units[0].key].strip()
            if not _MAYBE_PLACEHOLDER.search(translated):
                return self._between_edges(translated)
        restored = self.restore([translations[unit.key] for unit in self.units])
        problem = self.verify(restored)
        if problem is not None:
            raise PlaceholderMismatch(problem)
        return restored

    def _between_edges(self, translated: str) -> str:
        """A plain text's one unit, translated and stripped, between the source's edge
        whitespace."""
        root = self._root
        if not root.lead and not root.trail:
            return translated
        lead = root.lead[0] if root.lead else ""
        trail = root.trail[0] if root.trail else ""
        assert isinstance(lead, str) and isinstance(trail, str)  # plain: no placeholder
        return lead + translated + trail

    @property
    def term_forms(self) -> Counter[str]:
        """Each glossary term's form in the translation (its target form, or the term as the
        source spells it) → how often the source holds the term; empty without terms."""
        return Counter(self._terms) if self._terms else Counter()

    def verify(self, restored: str) -> str | None:
        """`verify_placeholders(self.source, restored)`, with the source's side worked out once
        per text (a text verified again, or after a retry, does not parse its source again);
        with glossary terms, also that `restored` holds each term's target form as often as the
        source holds the term."""
        if self._terms:
            lost = [form for form, count in self._terms.items() if restored.count(form) < count]
            if lost:
                return "; ".join(f"missing glossary term `{_show(form)}`" for form in lost)
        if self._plain:
            if not _MAYBE_PLACEHOLDER.search(restored):
                return None
        elif not _MAYBE_PLACEHOLDER.search(self.source) and not _MAYBE_PLACEHOLDER.search(restored):
            return None
        if not self._raws_known:
            self._flat_raws = _flat_raws(self.source)
            self._raws_known = True
        raws = self._flat_raws
        # The same placeholders spelled the same way: the same signature, without working out
        # how each is spelled for comparing.
        if (
            raws is not None
            and _is_flat(restored)
            and tuple(sorted(_FLAT.findall(restored))) == raws
        ):
            return None
        expected = self._signature
        if expected is None:
            expected = self._signature = placeholder_signature(self.source)
        actual = placeholder_signature(restored)
        if expected == actual:
            return None
        return "; ".join(_differences(expected, actual, "")) or "placeholders differ"


def protect_placeholders(text: str, terms: TermFinder | None = None) -> ProtectedText:
    """Split `text` into units with masked placeholders (and glossary terms, with `terms`).

    Recognised: i18next `{{name}}`, `{{count, number}}`, `{{- raw}}`, `$t(key)`,
    `$t(key, {…})`; ICU `{name}`, `{n, number, …}`, `{n, plural|select|selectordinal, …}` (only
    the message text of each branch is translated; keywords, `offset:`, selectors and `#` are
    kept), nested ICU; printf `%s %d %1$s %(name)s %.2f %%` (and Python's `%r`, `%(path)a`);
    HTML/JSX-like tags; newlines.

    An apostrophe before `{` or `}` (or `#` in a plural) opens an ICU quoted literal (`'{'`),
    protected like a placeholder; `''` is text. Malformed ICU never raises: braces are matched
    first, a `{` without a partner or whose contents are not an ICU argument is literal text,
    and parsing goes on right after it, so placeholders inside a malformed message are still
    protected. A well-bracketed `{n, plural, …}` whose branches do not parse is protected whole,
    like a simple argument.

    Units come in document order, a text before the units of the ICU branches inside it. An ICU
    plural/select is one token of the surrounding unit, and each branch's message is a unit of
    its own.

    Glossary terms are looked for only in message text, after placeholders, tags and ICU syntax
    are masked (so never inside them, and inside each ICU branch's text); each becomes a token
    of its unit that restores to the term's replacement. A text that is a term alone has no
    unit: `restore([])` gives the replacement.
    """
    if _MAYBE_PLACEHOLDER.search(text):
        root = _parse_marked(text)
    elif terms is None:
        return _protect_plain(text)
    else:
        root = _parse_plain(text)
    units: list[Unit] = []
    if terms is None:
        _collect_units(root, units)
        return ProtectedText(text, units, root)
    found: list[str] = []
    _mask_terms(root, terms, found)
    _collect_units(root, units)
    return ProtectedText(text, units, root, Counter(found) if found else None)


def _protect_plain(text: str) -> ProtectedText:
    """`protect_placeholders(text)` of a text without any character that could start a
    placeholder (the common case): one unit, the text without its edge whitespace, when it has
    a letter."""
    stripped = text.strip()
    if not stripped or not _LETTER.search(stripped):
        return ProtectedText(text, [], _parse_plain(text), plain=False)
    lead: Sequence[str] = ()
    trail: Sequence[str] = ()
    if len(stripped) != len(text):
        start = len(text) - len(text.lstrip())
        stop = start + len(stripped)
        lead = (text[:start],) if start else ()
        trail = (text[stop:],) if stop < len(text) else ()
    root = _Message(lead, [stripped], trail, False, 0)
    return ProtectedText(text, [_new_unit(stripped, stripped, [])], root, plain=True)


def placeholder_signature(text: str) -> PlaceholderSignature:
    """The multiset of placeholders in `text` and its ICU structure (see `PlaceholderSignature`).

    Never raises; a malformed ICU message contributes the placeholders that are recognisable.
    """
    if _is_flat(text):
        return PlaceholderSignature(tuple(sorted(map(_spelling, _FLAT.findall(text)))), ())
    return _signature(_parse(text))


def _flat_raws(text: str) -> tuple[str, ...] | None:
    """The placeholders of a text without ICU as spelled, sorted; None for a text with ICU."""
    return tuple(sorted(_FLAT.findall(text))) if _is_flat(text) else None


def verify_placeholders(source: str, translation: str) -> str | None:
    """None when `translation` has exactly the placeholders of `source` (as a multiset) and the
    same ICU structure; otherwise a short reason, e.g. "missing {{name}}", "extra %s" or
    "ICU branch `few` missing from {count, plural}". Order and text do not matter; never raises."""
    if not _MAYBE_PLACEHOLDER.search(source) and not _MAYBE_PLACEHOLDER.search(translation):
        return None
    expected = placeholder_signature(source)
    actual = placeholder_signature(translation)
    if expected == actual:
        return None
    return "; ".join(_differences(expected, actual, "")) or "placeholders differ"


def _mask_terms(message: _Message, terms: TermFinder, found: list[str]) -> None:
    """Replace each term in the text of `message` (and of its ICU branches) by a `_Term`,
    adding each replacement to `found`."""
    body: list[_Part] | None = None  # a copy, once a term turns up
    for index, part in enumerate(message.body):
        if isinstance(part, _Choice):
            for branch in part.branches:
                _mask_terms(branch.body, terms, found)
        matches = terms.find(part) if isinstance(part, str) else None
        if not matches:
            if body is not None:
                body.append(part)
            continue
        assert isinstance(part, str)
        if body is None:
            body = message.body[:index]
        position = 0
        for start, end, replacement in matches:
            if start > position:
                body.append(part[position:start])
            body.append(_Term(part[start:end], replacement))
            found.append(replacement)
            position = end
        if position < len(part):
            body.append(part[position:])
    if body is not None:
        message.body = body


# --- parsing ---------------------------------------------------------------------------------


def _is_flat(text: str) -> bool:
    """No `$t(` and no braces but i18next ones: no ICU, no quoting; see `_FLAT`."""
    if "$t(" in text:
        return False
    if "{" in text or "}" in text:
        rest = _I18NEXT.sub("", text)
        return "{" not in rest and "}" not in rest
    return True


def _parse(text: str) -> _Message:
    if not _MAYBE_PLACEHOLDER.search(text):
        return _parse_plain(text)
    return _parse_marked(text)


def _parse_plain(text: str) -> _Message:
    """`_parse` of a text without any character that could start a placeholder."""
    return _layout([text] if text else [], in_branch=False)


def _parse_marked(text: str) -> _Message:
    """`_parse` of a text with a character that could start a placeholder."""
    if _is_flat(text):
        return _layout(_flat_parts(text), in_branch=False)
    return _Parser(text).message(0, len(text), plural=False, depth=0, in_branch=False)


def _flat_parts(text: str) -> list[_Part]:
    parts: list[_Part] = []
    position = 0
    for found in _FLAT.finditer(text):
        if found.start() > position:
            parts.append(text[position : found.start()])
        raw = found.group()
        parts.append(_Placeholder(raw, newline=raw[0] in "\r\n"))
        position = found.end()
    if position < len(text):
        parts.append(text[position:])
    return parts


def _quote_stop(text: str, start: int, end: int) -> int:
    """End of the ICU quoted literal opening at `start`; `''` inside it is an apostrophe, and an
    unclosed quote runs to `end` (as in ICU)."""
    position = start + 2
    while True:
        found = text.find("'", position, end)
        if found == -1:
            return end
        if found + 1 < end and text[found + 1] == "'":
            position = found + 2
            continue
        return found + 1


def _opens_quote(text: str, position: int, end: int, plural: bool) -> bool:
    """An apostrophe before `{`, `}` (or `#` in a plural) opens an ICU quoted literal; before
    `{{name}}` it is i18next text."""
    following = text[position + 1 : position + 2]
    if following == "{":
        return _I18NEXT.match(text, position + 1, end) is None
    return following == "}" or (plural and following == "#")


def _match_braces(text: str) -> dict[int, int]:
    """Position of each `{` → position of its `}`, skipping ICU quoted literals.

    An i18next `{{…}}` is two nested pairs whose inside is not looked at, as the lexer sees it.
    """
    closing: dict[int, int] = {}
    stack: list[int] = []
    position = 0
    end = len(text)
    while (found := _BRACE_OR_QUOTE.search(text, position)) is not None:
        position = found.start()
        char = text[position]
        if char == "{" and (i18next := _I18NEXT.match(text, position)) is not None:
            closing[position] = i18next.end() - 1
            closing[position + 1] = i18next.end() - 2
            position = i18next.end() - 1
        elif char == "{":
            stack.append(position)
        elif char == "}":
            if stack:
                closing[stack.pop()] = position
        elif text.startswith("''", position):
            position += 1
        elif _opens_quote(text, position, end, plural=False):
            position = _quote_stop(text, position, end) - 1
        position += 1
    return closing


def _match_nestings(text: str) -> dict[int, int]:
    """Start of each closed i18next nesting `$t(…)` → its end, in one pass: parentheses are
    balanced, and quoted strings inside a nesting are skipped."""
    stops: dict[int, int] = {}
    opened: list[int] = []  # start of each open `$t(`, or -1 for a plain `(`
    nestings = 0
    position = 0
    while (found := _NESTING_SCAN.search(text, position)) is not None:
        token = found.group()
        position = found.end()
        if token == "$t(":
            opened.append(found.start())
            nestings += 1
        elif token == "(":
            opened.append(-1)
        elif token == ")":
            if opened and (start := opened.pop()) >= 0:
                stops[start] = position
                nestings -= 1
        elif nestings:
            closing_quote = text.find(token, position)
            if closing_quote != -1:
                position = closing_quote + 1
    return stops


class _Parser:
    """One text's parse: lexes messages, ICU arguments and branches over matched braces."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.closing = _match_braces(text) if "{" in text else {}
        self.nestings = _match_nestings(text) if "$t(" in text else {}
        # A `{` retried after its enclosing block failed to parse is not parsed twice.
        self.arguments: dict[tuple[int, bool], tuple[_Part, int] | None] = {}

    def message(self, start: int, end: int, plural: bool, depth: int, in_branch: bool) -> _Message:
        text = self.text
        parts: list[_Part] = []
        literal_start = position = start
        while (found := _NEXT_SPECIAL.search(text, position, end)) is not None:
            position = found.start()
            if text.startswith("''", position, end):
                position += 2
                continue
            placeholder = self.placeholder(position, end, plural, depth)
            if placeholder is None:
                position += 1
                continue
            part, stop = placeholder
            if position > literal_start:
                parts.append(text[literal_start:position])
            parts.append(part)
            literal_start = position = stop
        if literal_start < end:
            parts.append(text[literal_start:end])
        return _layout(parts, in_branch)

    def placeholder(
        self, position: int, end: int, plural: bool, depth: int
    ) -> tuple[_Part, int] | None:
        text = self.text
        char = text[position]
        if char == "{":
            found = _I18NEXT.match(text, position, end)
            if found is not None:
                return _Placeholder(found.group()), found.end()
            return self.argument(position, end, plural, depth)
        if char in "\r\n":
            found = _NEWLINES.match(text, position, end)
            assert found is not None  # the character itself is a newline
            return _Placeholder(found.group(), newline=True), found.end()
        if char == "<":
            found = _TAG.match(text, position, end)
        elif char == "%":
            found = _PRINTF.match(text, position, end)
        elif char == "$":
            stop = self.nestings.get(position, end + 1)
            return (_Placeholder(text[position:stop]), stop) if stop <= end else None
        elif char == "#":
            return (_Placeholder("#", icu=True), position + 1) if plural else None
        else:  # an apostrophe
            if not _opens_quote(text, position, end, plural):
                return None
            stop = _quote_stop(text, position, end)
            return _Placeholder(text[position:stop], icu=True), stop
        return None if found is None else (_Placeholder(found.group()), found.end())

    def argument(self, start: int, end: int, plural: bool, depth: int) -> tuple[_Part, int] | None:
        close = self.closing.get(start)
        if close is None or close >= end:
            return None
        key = (start, plural)
        if key not in self.arguments:
            self.arguments[key] = self._parse_argument(start, close, plural, depth)
        return self.arguments[key]

    def _parse_argument(
        self, start: int, close: int, plural: bool, depth: int
    ) -> tuple[_Part, int] | None:
        head = _ARGUMENT_HEAD.match(self.text, start, close + 1)
        if head is None or (head["next"] == "," and head["kind"] is None):
            return None
        whole = _Placeholder(self.text[start : close + 1], icu=True)
        if head["next"] == "}" or head["kind"] not in _CHOICE_KINDS or depth >= _MAX_DEPTH:
            return whole, close + 1
        choice = self.choice(start, close, head["name"], head["kind"], head.end(), plural, depth)
        return (whole if choice is None else choice), close + 1

    def choice(
        self,
        start: int,
        close: int,
        argument: str,
        kind: str,
        position: int,
        plural: bool,
        depth: int,
    ) -> _Choice | None:
        text = self.text
        offset = 0
        if kind != "select" and (found := _OFFSET.match(text, position, close)) is not None:
            offset = int(found[1])
            position = found.end()
        head_end = position
        branches: list[_Branch] = []
        inner_plural = plural or kind != "select"
        while (selector := _SELECTOR.match(text, position, close)) is not None:
            opening = selector.end() - 1
            branch_close = self.closing.get(opening)
            if branch_close is None or branch_close >= close:
                return None
            body = self.message(opening + 1, branch_close, inner_plural, depth + 1, True)
            branches.append(_Branch(selector[1], text[position : opening + 1], body))
            position = branch_close + 1
        tail_whitespace = _WHITESPACE.match(text, position, close)
        if not branches or tail_whitespace is None or tail_whitespace.end() != close:
            return None
        return _Choice(
            raw=text[start : close + 1],
            argument=argument,
            kind=kind,
            offset=offset,
            head=text[start:head_end],
            branches=branches,
            tail=text[position : close + 1],
        )


def _layout(parts: list[_Part], in_branch: bool) -> _Message:
    """Move edge whitespace and newlines out of the body: they are never sent."""
    if len(parts) == 1 and isinstance(parts[0], str):
        text = parts[0]
        stripped = text.strip()
        if not stripped:
            return _Message((text,), [], (), in_branch)
        start = len(text) - len(text.lstrip())
        stop = start + len(stripped)
        edge = (text[:start],) if start else ()
        return _Message(edge, [stripped], (text[stop:],) if stop < len(text) else (), in_branch)
    body = list(parts)
    lead: list[str | _Placeholder] = []
    while body:
        part = body[0]
        if isinstance(part, _Placeholder) and part.newline:
            lead.append(part)
        elif not isinstance(part, str):
            break
        else:
            stripped = part.lstrip()
            if len(stripped) < len(part):
                lead.append(part[: len(part) - len(stripped)])
            if stripped:
                body[0] = stripped
                break
        del body[0]
    trail: list[str | _Placeholder] = []
    while body:
        part = body[-1]
        if isinstance(part, _Placeholder) and part.newline:
            trail.append(part)
        elif not isinstance(part, str):
            break
        else:
            stripped = part.rstrip()
            if len(stripped) < len(part):
                trail.append(part[len(stripped) :])
            if stripped:
                body[-1] = stripped
                break
        del body[-1]
    trail.reverse()
    return _Message(lead or (), body, trail or (), in_branch)


def _collect_units(message: _Message, units: list[Unit]) -> None:
    body = message.body
    if len(body) == 1 and isinstance(body[0], str):  # plain text, the common case
        if _LETTER.search(body[0]):
            message.unit = len(units)
            units.append(_new_unit(body[0], body[0], []))
        return
    for part in body:
        if isinstance(part, str) and _LETTER.search(part):
            message.unit = len(units)
            message.tokens = [part for part in body if not isinstance(part, str)]
            units.append(_unit(body))
            break
    for part in body:
        if isinstance(part, _Choice):
            for branch in part.branches:
                _collect_units(branch.body, units)


def _unit(body: list[_Part]) -> Unit:
    masked: list[str] = []
    original: list[str] = []
    tokens: list[str] = []
    for part in body:
        if isinstance(part, str):
            masked.append(part)
            original.append(part)
        else:
            index = len(tokens)
            masked.append(_TOKENS[index] if index < len(_TOKENS) else f'<x id="{index}"/>')
            tokens.append(part.raw)
            original.append(part.raw)
    return _new_unit("".join(masked), "".join(original), tokens)


# --- restoring -------------------------------------------------------------------------------


def _raw(part: _Part) -> str:
    return part if isinstance(part, str) else part.raw


def _render_message(message: _Message, translated: Sequence[str]) -> str:
    lead = "".join(map(_raw, message.lead))
    trail = "".join(map(_raw, message.trail))
    if message.unit is None:
        body = "".join(_render_part(part, translated) for part in message.body)
    else:
        body = _fill(message, translated)
    return lead + body + trail


def _render_part(part: _Part, translated: Sequence[str]) -> str:
    if isinstance(part, _Term):
        return part.target
    if not isinstance(part, _Choice):
        return _raw(part)
    branches = "".join(
        branch.opener + _render_message(branch.body, translated) + "}" for branch in part.branches
    )
    return part.head + branches + part.tail


def _fill(message: _Message, translated: Sequence[str]) -> str:
    """The unit's translation with each token replaced by what it stands for."""
    unit = message.unit
    assert unit is not None
    text = translated[unit].strip()
    tokens = message.tokens
    pieces: list[str] = []
    seen: set[int] = set()
    position = 0
    if "<x" in text:
        for found in _TOKEN.finditer(text):
            index = int(found[2])
            if index >= len(tokens):
                raise PlaceholderMismatch(f"unit {unit}: unknown token {found.group()}")
            if index in seen:
                raise PlaceholderMismatch(f"unit {unit}: {_describe(tokens, index)} appears twice")
            seen.add(index)
            token = tokens[index]
            before = text[position : found.start()]
            if isinstance(token, _Placeholder) and not token.icu:  # the common case
                pieces.append(before)
                pieces.append(token.raw)
            else:
                pieces.append(_defuse_apostrophe(before) if _is_icu_syntax(token) else before)
                pieces.append(_render_part(token, translated))
            position = found.end()
    if len(seen) != len(tokens):
        index = min(set(range(len(tokens))) - seen)
        raise PlaceholderMismatch(f"unit {unit}: {_describe(tokens, index)} missing")
    rest = text[position:]
    # A branch's text that ends the branch is followed by its closing `}`.
    closes_branch = message.in_branch and not message.trail
    pieces.append(_defuse_apostrophe(rest) if closes_branch else rest)
    return "".join(pieces)


def _describe(tokens: Sequence[_Placeholder | _Term | _Choice], index: int) -> str:
    token = tokens[index]
    what = f"glossary term `{token.raw}`" if isinstance(token, _Term) else _show(token.raw)
    return f'token <x id="{index}"/> ({what})'


def _is_icu_syntax(part: _Part) -> bool:
    return isinstance(part, _Choice) or (isinstance(part, _Placeholder) and part.icu)


def _defuse_apostrophe(text: str) -> str:
    """Turn a trailing lone apostrophe, which would open an ICU quoted literal, into `’`."""
    trailing = len(text) - len(text.rstrip("'"))
    return text[:-1] + "’" if trailing % 2 else text


# --- verifying -------------------------------------------------------------------------------


_I18NEXT_COMMA = re.compile(r"\s*,\s*")


def _spelling(raw: str) -> str:
    """A placeholder as signatures compare it: i18next trims the inside of `{{ … }}` (and
    around its format's comma), so `{{ name }}` and `{{name}}` are one placeholder; an XLIFF
    inline element is the same placeholder whatever its display text says (`equiv-text`,
    `disp`, `dispStart`, `dispEnd`: Angular keeps an old one in translations, and resolves the
    element by its `id`)."""
    if raw.startswith("<"):
        return _XLIFF_DISPLAY.sub("", raw) if "equiv-text" in raw or "disp" in raw else raw
    if not raw.startswith("{{"):
        return raw
    return "{{" + _I18NEXT_COMMA.sub(", ", raw[2:-2].strip()) + "}}"


def _signature(message: _Message) -> PlaceholderSignature:
    placeholders: list[str] = []
    choices: list[ChoiceSignature] = []
    for part in (*message.lead, *message.body, *message.trail):
        if isinstance(part, _Placeholder):
            placeholders.append(_spelling(part.raw))
        elif isinstance(part, _Choice):
            branches = sorted((branch.key, _signature(branch.body)) for branch in part.branches)
            choices.append(ChoiceSignature(part.argument, part.kind, part.offset, tuple(branches)))
    return PlaceholderSignature(tuple(sorted(placeholders)), tuple(sorted(choices)))


def _show(raw: str) -> str:
    return raw.replace("\r", "\\r").replace("\n", "\\n")


def _counted(raw: str, count: int) -> str:
    return _show(raw) if count == 1 else f"{count} × {_show(raw)}"


def _differences(
    expected: PlaceholderSignature, actual: PlaceholderSignature, where: str
) -> list[str]:
    wanted = Counter(expected.placeholders)
    found = Counter(actual.placeholders)
    reasons = [f"missing {_counted(raw, n)}{where}" for raw, n in (wanted - found).items()]
    reasons += [f"extra {_counted(raw, n)}{where}" for raw, n in (found - wanted).items()]
    return reasons + _choice_differences(expected.choices, actual.choices, where)


def _choice_differences(
    expected: tuple[ChoiceSignature, ...], actual: tuple[ChoiceSignature, ...], where: str
) -> list[str]:
    unmatched = list(actual)
    unexpected: list[ChoiceSignature] = []
    for choice in expected:
        if choice in unmatched:
            unmatched.remove(choice)
        else:
            unexpected.append(choice)
    reasons: list[str] = []
    for choice in unexpected:
        partner = next((c for c in unmatched if c.argument == choice.argument), None)
        if partner is None:
            reasons.append(f"ICU {{{choice.argument}, {choice.kind}}} missing{where}")
            continue
        unmatched.remove(partner)
        reasons += _compare_choice(choice, partner, where)
    reasons += [f"extra ICU {{{c.argument}, {c.kind}}}{where}" for c in unmatched]
    return reasons


def _compare_choice(expected: ChoiceSignature, actual: ChoiceSignature, where: str) -> list[str]:
    label = f"{{{expected.argument}, {expected.kind}}}"
    if expected.kind != actual.kind:
        return [f"ICU {label} became {actual.kind}{where}"]
    reasons = []
    if expected.offset != actual.offset:
        reasons.append(f"ICU {label} offset {actual.offset}, expected {expected.offset}{where}")
    wanted = dict(expected.branches)
    found = dict(actual.branches)
    reasons += [
        f"ICU branch `{key}` missing from {label}{where}" for key in wanted if key not in found
    ]
    reasons += [f"ICU branch `{key}` added to {label}{where}" for key in found if key not in wanted]
    for key, signature in wanted.items():
        if key in found:
            inside = f" in ICU branch `{key}` of {label}{where}"
            reasons += _differences(signature, found[key], inside)
    return reasons
