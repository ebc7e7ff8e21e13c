"""XLIFF 1.2 and 2.0 locale files (`messages.xlf`, `messages.fr.xlf`): units read as flat keys,
edited by splicing the original text, so that every byte outside the units touched stays.

A key is a unit's `id` (`<trans-unit id>` in 1.2, `<unit id>` in 2.0), a flat string that is
never split at dots. Its value is the unit's `<target>` text in a target file (one that names
its target language, or holds a target), its `<source>` text in a source file (Angular's
`messages.xlf` has only sources). A unit whose target is missing or empty is a missing leaf of
its file; the unit itself stays. A target's state maps onto the structured leaf's marks:
XLIFF 1.2 `new` and `needs-translation` are `needsTranslationAgain`, the other `needs-…`
states `needsReview`; XLIFF 2.0 `state="initial"` on the segment is `needsReview`.

The text of a leaf is the element's text with its character references and CDATA read, and
its inline elements (`<x/>`, `<ph/>`, `<g>…</g>`, `<pc>…</pc>`, `<bx/>`, `<ex/>`, `<bpt>`, …)
spelled exactly as the file spells their tags, so that `placeholders` protects them as tags and
writing puts them back byte for byte (docs/locale-files.md#xliff).

Writing changes only what the edits touch: a unit's target (created after its source when
missing, with a state when the leaf is marked), a removed unit (with its line), a new unit
copied from the source file's (`XliffStyle.template`: notes and context kept), and, in a new
file, its target language. Guarantees: a file that is not well-formed XML, declares a DOCTYPE
or entities, has a unit id twice or a unit without one, or is not UTF-8, raises
`LocaleFileError` (`Code.LOCALE_INVALID_SYNTAX`, `file:line:column`) and is never written. A
2.0 unit of several segments (and ignorables) reads as its targets joined in their `order`, and
takes a new text only where the split is exact (`_part_contents`: a review mark, its source
text, a text around its one segment's ignorables). A change to a unit whose text cannot be
spelled back exactly (any other text of several segments, a comment or a foreign element
inside, text that spells an inline tag) is refused (`ProblemError`,
`Code.LOCALE_NOT_EDITABLE`, naming the file, line, unit and what to do). What is written
always reads back as exactly the edited leaves. A target's units without a translation are no
leaves; `untranslated` lists them and `drop_untranslated` removes one (`sync`, when the source
lost its key).
"""

from __future__ import annotations

import codecs
import html
import re
import xml.parsers.expat
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import msgspec

from i18nprune.envelope import Code, NotEditableError, ProblemError, error
from i18nprune.locales.jsondoc import JsonStyle, LocaleDocument
from i18nprune.locales.jsonfile import LocaleFileError, read_file_bytes
from i18nprune.locales.keyroot import KeyRoot
from i18nprune.locales.leaves import NEEDS_REVIEW

Version = Literal["1.2", "2.0"]

_FIX_HINT = "fix the file; it will not be modified"
_AGAIN = "needsTranslationAgain"

# The rest of a start tag after its name: attributes (values may hold `>`), then `>` or `/>`.
_TAG_REST = re.compile(rb"""(?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*(/?)>""")
# XLIFF's inline elements (1.2 and 2.0). `sm`/`em` only as the empty markers XLIFF 2.0 has, so
# HTML's `<em>…</em>` in a text stays text.
_INLINE_NAMES = r"(?:x|bx|ex|ph|it|bpt|ept|g|mrk|pc|sc|ec|cp|sub)"
_ATTRIBUTES = r"""(?:\s+[^\s<>"'/=]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*"""
_INLINE_TAG = re.compile(
    rf"<{_INLINE_NAMES}{_ATTRIBUTES}/?>|</{_INLINE_NAMES}\s*>|<(?:sm|em){_ATTRIBUTES}/>"
)
# What a text's raw XML holds besides text: elements, comments, instructions, CDATA, references.
_MARKUP = re.compile(
    r"<!\[CDATA\[(?P<cdata>.*?)\]\]>|<!--.*?-->|<\?.*?\?>"
    rf"|</?(?P<name>[^\s/>!?]+){_ATTRIBUTES}/?>|(?P<ref>&[^;&<]*;)",
    re.S,
)
_ENCODING = re.compile(rb"""^<\?xml[^>]*?\sencoding\s*=\s*["']([^"']+)["']""")
_ID_ATTRIBUTE = re.compile(rb"""\sid\s*=\s*(["'])""")
_STATE_ATTRIBUTE = re.compile(rb"""\sstate\s*=\s*(["'])([^"']*)\1""")
_LEADING_SPACE = re.compile(rb"[ \t]*\r?\n[ \t]*\Z|[ \t]+\Z")

# Target states, XLIFF 1.2: these say the text still has to be translated or checked.
_AGAIN_STATES_12 = frozenset({"new", "needs-translation"})
_REVIEW_STATES_12 = frozenset(
    {
        "needs-review-translation",
        "needs-review-l10n",
        "needs-review-adaptation",
        "needs-adaptation",
        "needs-l10n",
    }
)
_XLIFF_12_NAMESPACE = "urn:oasis:names:tc:xliff:document:1.2"
# The elements whose places the reader records; every other one is only pushed and popped.
_WATCHED = frozenset(
    {"file", "body", "trans-unit", "unit", "segment", "ignorable", "source", "target"}
)


class XliffStyle(msgspec.Struct, frozen=True):
    """How a new XLIFF file is made: from the source file's text (its units are copied, with
    targets), naming `locale` as its target language."""

    locale: str | None = None
    template: bytes | None = None
    """The source file's bytes, whose units a target copies."""


class _Element:
    """The byte offsets of one element: its start tag, its content, and its end."""

    __slots__ = ("content_end", "end", "start", "tag_end")

    def __init__(self, start: int, tag_end: int) -> None:
        self.start = start
        self.tag_end = tag_end
        self.content_end = tag_end
        self.end = tag_end

    @property
    def empty(self) -> bool:
        return self.tag_end == self.end


class _Part:
    """A 1.2 trans-unit's source and target, or one 2.0 segment (or ignorable) of a unit."""

    __slots__ = ("element", "ignorable", "order", "source", "target")

    def __init__(self, element: _Element | None, ignorable: bool = False) -> None:
        self.element = element
        """The `<segment>` (2.0), None for a 1.2 trans-unit."""
        self.ignorable = ignorable
        self.source: _Element | None = None
        self.target: _Element | None = None
        self.order: int | None = None
        """Where the target's text goes among the unit's parts (2.0 `order`, 1-based), when
        the target says; else at its own part's place."""


class _Unit:
    __slots__ = ("element", "id", "id_at", "line", "parts")

    def __init__(self, unit_id: str, element: _Element, id_at: int, line: int) -> None:
        self.id = unit_id
        self.element = element
        self.id_at = id_at
        """The byte offset of the quote that opens the id's value."""
        self.line = line
        self.parts: list[_Part] = []


class _Parsed:
    """One parse of an XLIFF text: its units, where things are, and what its leaves are."""

    def __init__(self, raw: bytes, display_path: str) -> None:
        self.raw = raw
        self.version: Version = "1.2"
        self.units: list[_Unit] = []
        self.language_tags: list[_Element] = []
        """The `<file>` start tags (1.2) or the `<xliff>` one (2.0): where languages are named."""
        self.target_language = False
        self.languages: tuple[str | None, str | None] = (None, None)
        """The source and target language the file names first."""
        self.containers: list[_Element] = []
        """The `<body>` (1.2) or `<file>` (2.0) elements new units may go into."""
        _Reader(self, display_path).read()
        self.is_target = self.target_language or any(
            part.target is not None for unit in self.units for part in unit.parts
        )

    def leaves(self) -> dict[str, object]:
        """Each unit id whose text is there → its leaf (text, or a structured leaf when marked)."""
        found: dict[str, object] = {}
        for unit in self.units:
            value = self.leaf(unit)
            if value is not None:
                found[unit.id] = value
        return found

    def leaf(self, unit: _Unit) -> object | None:
        if not self.is_target:
            texts = [self.text(part.source) for part in unit.parts if part.source is not None]
            return "".join(texts) if texts else None
        text = self.target_text(unit)
        if not text:
            return None
        marks = self.marks(unit)
        return {"value": text, **marks} if marks else text

    def target_text(self, unit: _Unit) -> str | None:
        """A target unit's text: its parts' targets (an ignorable's source when it has none)
        in the order their `order` says, else as the parts stand; None when a segment has no
        target."""
        texts: list[tuple[int, str]] = []
        for position, part in enumerate(unit.parts, 1):
            element = part.target or (part.source if part.ignorable else None)
            if element is None:
                return None
            at = part.order if part.target is not None and part.order is not None else position
            texts.append((at, self.text(element)))
        return "".join(text for _, text in sorted(texts, key=lambda item: item[0]))

    def marks(self, unit: _Unit) -> dict[str, object]:
        """The structured leaf's marks a unit's target state says."""
        if self.version == "2.0":
            for part in unit.parts:
                if part.element is not None and _state_of(self.raw, part.element) == "initial":
                    return {NEEDS_REVIEW: True}
            return {}
        target = unit.parts[0].target if unit.parts else None
        state = _state_of(self.raw, target) if target is not None else None
        if state in _AGAIN_STATES_12:
            return {_AGAIN: True}
        if state in _REVIEW_STATES_12:
            return {NEEDS_REVIEW: True}
        return {}

    def text(self, element: _Element) -> str:
        return _text(self.raw[element.tag_end : element.content_end].decode("utf-8"))

    def unwritable(self, part: _Part) -> str | None:
        """Why the text of a unit's part (a 1.2 unit, a 2.0 segment) cannot be written back
        exactly, or None."""
        if part.source is None:
            return "has no source"
        for element in (part.source, part.target):
            if element is None:
                continue
            inner = self.raw[element.tag_end : element.content_end].decode("utf-8")
            why = _unspellable(inner)
            if why is not None:
                return why
        return None


def _unspellable(inner: str) -> str | None:
    """Why the raw XML of a text would not be spelled back as it is, or None."""
    for found in _MARKUP.finditer(inner):
        whole = found.group()
        if whole.startswith(("<!--", "<?")):
            return "holds a comment or processing instruction in its text"
        name = found.group("name")
        if name is not None and not _INLINE_TAG.fullmatch(whole):
            return f"holds the element <{name}> in its text, which is no XLIFF inline element"
    if _INLINE_TAG.search(_text(inner, decode_only=True)):
        return "has text that spells an inline tag"
    return None


def _text(inner: str, *, decode_only: bool = False) -> str:
    """A leaf's text from an element's raw content: references and CDATA read, tags kept
    (`decode_only`: tags left out, the text alone)."""
    if "<" not in inner and "&" not in inner:
        return inner
    out: list[str] = []
    position = 0
    for found in _MARKUP.finditer(inner):
        out.append(inner[position : found.start()])
        if found.group("cdata") is not None:
            out.append(found.group("cdata"))
        elif found.group("ref") is not None:
            out.append(html.unescape(found.group("ref")))
        elif not decode_only:
            out.append(found.group())
        position = found.end()
    out.append(inner[position:])
    return "".join(out)


def _xml(text: str) -> str:
    """The raw content that spells the leaf text `text`: inline tags as they are, the rest
    escaped."""
    out: list[str] = []
    position = 0
    for found in _INLINE_TAG.finditer(text):
        out.append(_escape(text[position : found.start()]))
        out.append(found.group())
        position = found.end()
    out.append(_escape(text[position:]))
    return "".join(out)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _state_of(raw: bytes, element: _Element) -> str | None:
    found = _STATE_ATTRIBUTE.search(raw, element.start, element.tag_end)
    return found.group(2).decode("utf-8") if found else None


class _Refused(Exception):
    """Raised from the parser's handlers: what the file must not hold, and where (1-based)."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why
        self.line = self.column = 0


class _Reader:
    """Reads one XLIFF text with expat, recording the offsets `_Parsed` needs."""

    def __init__(self, parsed: _Parsed, display_path: str) -> None:
        self.parsed = parsed
        self.display = display_path
        self.raw = parsed.raw
        self.stack: list[tuple[str, _Element | None]] = []
        self.unit: _Unit | None = None
        self.part: _Part | None = None
        self.ids: set[str] = set()
        self.parser = xml.parsers.expat.ParserCreate()

    def read(self) -> None:
        raw = self.raw
        if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            self._fail(1, 1, "is UTF-16; i18nprune reads XLIFF files in UTF-8 — save it as UTF-8")
        declared = _ENCODING.match(raw.removeprefix(codecs.BOM_UTF8))
        if declared and declared.group(1).decode("ascii", "replace").lower() not in (
            "utf-8",
            "utf8",
        ):
            name = declared.group(1).decode("ascii", "replace")
            self._fail(1, 1, f"is declared {name}; i18nprune reads XLIFF files in UTF-8")
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = raw[: exc.start].count(b"\n") + 1
            self._fail(line, 1, f"not valid UTF-8 (byte 0x{raw[exc.start]:02x})")
        parser = self.parser
        parser.StartElementHandler = self.start
        parser.EndElementHandler = self.end
        parser.StartDoctypeDeclHandler = self.doctype
        parser.EntityDeclHandler = self.entity
        parser.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)
        try:
            parser.Parse(raw, True)
        except xml.parsers.expat.ExpatError as exc:
            message = xml.parsers.expat.ErrorString(exc.code)
            self._fail(exc.lineno, exc.offset + 1, f"not well-formed XML: {message}")
        except _Refused as exc:
            self._fail(exc.line, exc.column, exc.why)

    def refused(self, why: str) -> _Refused:
        """The refusal `why`, placed where the parser is (the event being handled)."""
        refusal = _Refused(why)
        refusal.line = self.parser.CurrentLineNumber
        refusal.column = self.parser.CurrentColumnNumber + 1
        return refusal

    def doctype(self, *_: object) -> None:
        raise self.refused(
            "declares a DOCTYPE, which XLIFF files do not need and i18nprune does not read "
            "(entities can expand without bound) — remove it"
        )

    def entity(self, *_: object) -> None:
        raise self.refused("declares an entity, which i18nprune does not read — remove it")

    def start(self, name: str, attributes: dict[str, str]) -> None:
        local = name.rpartition(":")[2] if ":" in name else name
        if local not in _WATCHED and self.stack:  # most elements: notes, context, inline
            self.stack.append((local, None))
            return
        parent = self.stack[-1][0] if self.stack else None
        start = self.parser.CurrentByteIndex
        element: _Element | None = None
        parsed = self.parsed
        if parent is None:
            if local != "xliff":
                raise self.refused(f"the root element is <{name}>, not <xliff>")
            version = attributes.get("version", "")
            parsed.version = "2.0" if version.startswith("2") else "1.2"
            if parsed.version == "2.0":
                element = self._element(name, start)
                parsed.language_tags.append(element)
                parsed.target_language = bool(attributes.get("trgLang"))
                parsed.languages = (attributes.get("srcLang"), attributes.get("trgLang"))
        elif parsed.version == "1.2":
            element = self._start_12(local, parent, name, start, attributes)
        else:
            element = self._start_20(local, parent, name, start, attributes)
        self.stack.append((local, element))

    def _start_12(
        self, local: str, parent: str, name: str, start: int, attributes: dict[str, str]
    ) -> _Element | None:
        parsed = self.parsed
        if local == "file" and parent == "xliff":
            element = self._element(name, start)
            parsed.language_tags.append(element)
            parsed.target_language |= bool(attributes.get("target-language"))
            if len(parsed.language_tags) == 1:
                languages = attributes.get("source-language"), attributes.get("target-language")
                parsed.languages = languages
            return element
        if local == "body" and parent == "file":
            element = self._element(name, start)
            parsed.containers.append(element)
            return element
        if local == "trans-unit":
            element = self._unit(name, start, attributes)
            assert self.unit is not None
            self.part = _Part(None)
            self.unit.parts.append(self.part)
            return element
        if parent == "trans-unit" and local in ("source", "target") and self.part is not None:
            return self._text_element(local, name, start)
        return None

    def _start_20(
        self, local: str, parent: str, name: str, start: int, attributes: dict[str, str]
    ) -> _Element | None:
        if local == "file" and parent == "xliff":
            element = self._element(name, start)
            self.parsed.containers.append(element)
            return element
        if local == "unit":
            return self._unit(name, start, attributes)
        if parent == "unit" and local in ("segment", "ignorable") and self.unit is not None:
            element = self._element(name, start)
            self.part = _Part(element, ignorable=local == "ignorable")
            self.unit.parts.append(self.part)
            return element
        if parent in ("segment", "ignorable") and local in ("source", "target") and self.part:
            if local == "target" and attributes.get("order", "").isdigit():
                self.part.order = int(attributes["order"])
            return self._text_element(local, name, start)
        return None

    def _unit(self, name: str, start: int, attributes: dict[str, str]) -> _Element:
        parser = self.parser
        unit_id = attributes.get("id")
        if not unit_id:
            raise self.refused(f"<{name}> has no id, which is its key — give it one")
        if unit_id in self.ids:
            raise self.refused(f'the unit id "{unit_id}" is used twice — keep one')
        if self.unit is not None:
            raise self.refused(f"<{name}> inside another unit")
        self.ids.add(unit_id)
        element = self._element(name, start)
        found = _ID_ATTRIBUTE.search(self.raw, start, element.tag_end)
        id_at = found.end() - 1 if found else start
        self.unit = _Unit(unit_id, element, id_at, parser.CurrentLineNumber)
        self.parsed.units.append(self.unit)
        return element

    def _text_element(self, local: str, name: str, start: int) -> _Element:
        assert self.part is not None
        element = self._element(name, start)
        if getattr(self.part, local) is not None:
            raise self.refused(f"a second <{local}> in one unit")
        setattr(self.part, local, element)
        return element

    def _element(self, name: str, start: int) -> _Element:
        rest = _TAG_REST.match(self.raw, start + 1 + len(name.encode("utf-8")))
        if rest is None:  # expat accepted it, so this does not happen
            raise self.refused(f"cannot find the end of <{name}>")
        return _Element(start, rest.end())

    def end(self, name: str) -> None:
        _, element = self.stack.pop()
        if element is not None:
            at = self.parser.CurrentByteIndex
            closed_in_start = self.raw[element.tag_end - 2 : element.tag_end] == b"/>"
            if at > element.tag_end or not closed_in_start:
                element.content_end = at
                element.end = self.raw.index(b">", at) + 1
        if self.unit is not None and element is self.unit.element:
            self.unit = None
            self.part = None

    def _fail(self, line: int, column: int, why: str) -> None:
        raise LocaleFileError(
            error(
                Code.LOCALE_INVALID_SYNTAX,
                f"{self.display}:{line}:{column}: {why} — {_FIX_HINT}",
                self.display,
            )
        )


def _parse(raw: bytes, display_path: str) -> _Parsed:
    return _Parsed(raw, display_path)


def read_xliff_file(path: Path, display_path: str) -> dict[str, object]:
    """The leaves of the XLIFF file at `path`: unit id → text (see the module). Raises
    `LocaleFileError`: `Code.LOCALE_UNREADABLE` when the file cannot be read,
    `Code.LOCALE_INVALID_SYNTAX` as the module says."""
    raw = read_file_bytes(path, display_path)
    return _parse(raw, display_path).leaves()


def parse_xliff_text(text: str, display_path: str) -> dict[str, object]:
    """The leaves of XLIFF `text` (an editor's unsaved buffer), raising as `read_xliff_file`."""
    return _parse(text.encode("utf-8", "surrogatepass"), display_path).leaves()


def xliff_source_language(path: Path) -> str | None:
    """The source language an XLIFF file names (`source-language` of its first `<file>`,
    `srcLang`), None when it names none or cannot be read."""
    try:
        head = path.read_bytes()[:4096]
    except OSError:
        return None
    found = re.search(rb"""\s(?:source-language|srcLang)\s*=\s*["']([^"']+)["']""", head)
    return found.group(1).decode("utf-8", "replace") if found else None


# Any unit's start tag, with a namespace prefix or none; also matches in comments and texts,
# so that counting them never gives fewer than the file's units.
_UNIT_START = re.compile(rb"<(?:[\w.-]+:)?(?:trans-unit|unit)[\s/>]")


def may_hold_untranslated(path: Path, leaves: int) -> bool:
    """Whether the XLIFF file at `path`, read as `leaves` leaves, may hold a unit without a
    translation: it spells more unit start tags than that (a byte count, no parse: it never
    misses such a unit, and a comment that spells a tag only costs a parse). True when the
    file cannot be read (reading it reports why)."""
    try:
        raw = path.read_bytes()
    except OSError:
        return True
    return len(_UNIT_START.findall(raw)) > leaves


def xliff_positions(text: str) -> dict[str, int]:
    """The character offset of each unit id's value (its opening quote) in `text`; empty when
    it does not parse."""
    raw = text.encode("utf-8", "surrogatepass")
    try:
        parsed = _parse(raw, "")
    except LocaleFileError:
        return {}
    offsets: dict[str, int] = {}
    characters = done = 0
    for unit in sorted(parsed.units, key=lambda unit: unit.id_at):
        characters += len(raw[done : unit.id_at].decode("utf-8", "replace"))
        done = unit.id_at
        offsets[unit.id] = characters
    return offsets


class XliffDocument(LocaleDocument):
    """An XLIFF file held as its flat leaves for editing (`LocaleDocument`'s logic, keys
    literal) and its text for writing (see the module). Make one with `load` or `new`."""

    def __init__(
        self,
        path: Path,
        parsed: _Parsed,
        original: bytes | None,
        *,
        template: bytes | None = None,
        display_path: str | None = None,
    ) -> None:
        display = display_path or path.name
        self._parsed = parsed
        leaves = parsed.leaves()
        super().__init__(
            path,
            JsonStyle(indent="  ", newline="\n", final_newline=True, flat_keys=True),
            leaves,
            original,
            literal_keys=True,
        )
        self.display_path = display
        self._loaded = dict(leaves)
        self._template = template
        self._dropped: set[str] = set()
        """Units without a translation to remove (`drop_untranslated`)."""

    @classmethod
    def load(
        cls,
        path: Path,
        display_path: str,
        *,
        literal_keys: bool = False,
        key_root: KeyRoot = (),
    ) -> XliffDocument:
        """The document in the XLIFF file at `path`; keys are always literal and start at the
        units (`key_root` does not apply). Raises `LocaleFileError` as `read_xliff_file`."""
        raw = read_file_bytes(path, display_path)
        return cls(path, _parse(raw, display_path), raw, display_path=display_path)

    @classmethod
    def new(
        cls,
        path: Path,
        style: object = None,
        *,
        literal_keys: bool = False,
        key_root: KeyRoot = (),
    ) -> XliffDocument:
        """An empty document for an XLIFF file that does not exist yet: with an `XliffStyle`
        holding the source file, a copy of its units without targets, naming the style's
        locale as the target language; else an empty XLIFF 1.2 file."""
        chosen = style if isinstance(style, XliffStyle) else XliffStyle()
        if chosen.template is None:
            language = f' target-language="{_attribute(chosen.locale)}"' if chosen.locale else ""
            raw = (
                '<?xml version="1.0" encoding="UTF-8"?>\n'
                f'<xliff version="1.2" xmlns="{_XLIFF_12_NAMESPACE}">\n'
                f'  <file original="messages" datatype="plaintext"{language}>\n'
                "    <body>\n    </body>\n  </file>\n</xliff>\n"
            ).encode()
        else:
            raw = _blank_copy(chosen.template, chosen.locale)
        return cls(path, _parse(raw, path.name), None, template=chosen.template)

    def counterpart_style(self, locale_name: str) -> XliffStyle:
        """The style of the file of locale `locale_name` made from this one: a copy of its
        units, naming that locale as the target language."""
        return XliffStyle(locale=locale_name, template=self._parsed.raw)

    def adopt(self, style: object) -> None:
        """Take the source file's units from `style` (an `XliffStyle`), to copy the ones this
        file lacks when they are added."""
        if isinstance(style, XliffStyle) and style.template is not None:
            self._template = style.template

    def untranslated(self) -> list[str]:
        """The ids of the units a target file holds with no translation (no target, an empty
        one, or a segment without one): no keys of the file, but units a translator has yet
        to fill. None in a source file, whose units all hold their text."""
        if not self._parsed.is_target:
            return []
        tree = self._tree.root
        return [
            unit.id
            for unit in self._parsed.units
            if unit.id not in self._loaded and unit.id not in tree and unit.id not in self._dropped
        ]

    def drop_untranslated(self, key: str) -> bool:
        """Remove the unit `key` holds no translation in (see `untranslated`) when the file is
        written; False when the file has no such unit. A translated unit goes with `delete`."""
        if key not in self.untranslated():
            return False
        self._dropped.add(key)
        self._edited = True
        return True

    def set(self, path: str, value: object, *, order: Sequence[str] | None = None) -> bool:
        """`LocaleDocument.set`, with a structured leaf reduced to what a target's state can
        say (its text, and `needsReview` or `needsTranslationAgain`)."""
        return super().set(path, self._representable(value), order=order)

    def set_many(
        self, leaves: Sequence[tuple[str, object]], *, order: Sequence[str] | None = None
    ) -> int:
        """`LocaleDocument.set_many`, values reduced as `set` reduces them."""
        reduced = [(path, self._representable(value)) for path, value in leaves]
        return super().set_many(reduced, order=order)

    def _representable(self, value: object) -> object:
        if isinstance(value, dict):
            text = value.get("value")
            if not isinstance(text, str):
                raise TypeError("an XLIFF unit holds text only")
            if not self._parsed.is_target:
                return text
            if value.get(NEEDS_REVIEW) is True or (
                value.get(_AGAIN) is True and self._parsed.version == "2.0"
            ):
                return {"value": text, NEEDS_REVIEW: True}
            if value.get(_AGAIN) is True:
                return {"value": text, _AGAIN: True}
            return text
        if not isinstance(value, str):
            raise TypeError("an XLIFF unit holds text only")
        return value

    def render(self) -> bytes:
        """The file's bytes: as loaded until the document is edited; after an edit, the
        loaded text with only the touched units changed (see the module).

        Raises `ProblemError` (`Code.LOCALE_NOT_EDITABLE`) for a change to a unit that cannot
        be spelled back, or to add a unit no source unit describes, and
        (`Code.LOCALE_WRITE_FAILED`) if the text would not read back as the edited leaves;
        nothing is written then.
        """
        if not self._edited and self._saved is not None:
            return self._saved
        self._tree.settle()
        tree = self._tree.root
        parsed = self._parsed
        raw = parsed.raw
        edits: list[tuple[int, int, bytes]] = []
        present: dict[str, _Unit] = {}
        for unit in parsed.units:
            if unit.id in tree:
                present[unit.id] = unit
                if tree[unit.id] != parsed.leaf(unit):
                    try:
                        edits.extend(_target_edits(parsed, unit, tree[unit.id]))
                    except _Unwritable as exc:
                        self._refuse(unit, exc.why, exc.fix)
            elif unit.id in self._loaded or unit.id in self._dropped:
                edits.append(_removal(raw, unit.element))
        edits.extend(self._new_units(tree, present))
        edits.sort(key=lambda edit: (edit[0], edit[1]))
        out: list[bytes] = []
        position = 0
        for start, end, replacement in edits:
            out.append(raw[position:start])
            out.append(replacement)
            position = max(position, end)
        out.append(raw[position:])
        content = b"".join(out)
        try:
            back = _parse(content, self.display_path).leaves()
        except LocaleFileError:
            back = None
        if back != dict(tree):
            raise ProblemError(
                error(
                    Code.LOCALE_WRITE_FAILED,
                    f"{self.display_path}: the XLIFF written would not read back as the edited "
                    "keys — the file was not changed; please report this with the file",
                    self.display_path,
                )
            )
        return content

    def save(self, *, root: Path) -> bool:
        """`LocaleDocument.save`; what was written is what later edits are made against."""
        written = super().save(root=root)
        if self._saved is not None and self._saved is not self._parsed.raw:
            self._parsed = _parse(self._saved, self.display_path)
            self._loaded = dict(self._tree.root)
            self._dropped = set()
        return written

    def _new_units(
        self, tree: dict[str, object], present: dict[str, _Unit]
    ) -> list[tuple[int, int, bytes]]:
        """The insertions of units for keys the file has no unit of, each after the unit of
        the key before it (else before the one after it, else at the end of the last body)."""
        missing = [key for key in tree if key not in present]
        if not missing:
            return []
        template = _parse(self._template, "the source file") if self._template else None
        by_id = {unit.id: unit for unit in template.units} if template else {}
        parsed = self._parsed
        raw = parsed.raw
        pending: list[str] = []
        edits: list[tuple[int, int, bytes]] = []
        anchor: _Unit | None = None
        indent = _unit_indent(raw, parsed.units)
        for key in tree:
            unit = present.get(key)
            if unit is None:
                pending.append(key)
                continue
            if pending:
                copies = b"".join(
                    self._copy(key, tree[key], by_id, template, indent) for key in pending
                )
                if anchor is not None:
                    edits.append((anchor.element.end, anchor.element.end, copies))
                else:
                    start = unit.element.start - len(_lead(raw, unit.element.start))
                    edits.append((start, start, copies))
                pending = []
            anchor = unit
        if pending:
            copies = b"".join(
                self._copy(key, tree[key], by_id, template, indent) for key in pending
            )
            if anchor is not None:
                edits.append((anchor.element.end, anchor.element.end, copies))
            elif parsed.containers:
                body = parsed.containers[-1]
                at = body.content_end - len(_lead(raw, body.content_end))
                if body.empty:
                    self._refuse(None, "has no body to put units into")
                edits.append((at, at, copies))
            else:
                self._refuse(None, "has no body to put units into")
        return edits

    def _copy(
        self,
        key: str,
        value: object,
        by_id: dict[str, _Unit],
        template: _Parsed | None,
        indent: bytes,
    ) -> bytes:
        """A new unit for `key`, on its own line: the source file's unit with `value` as its
        target (in a source file without such a unit, a unit of `value` as its source)."""
        unit = by_id.get(key)
        parsed = self._parsed
        if unit is None or template is None:
            if parsed.is_target and parsed.languages[0] != parsed.languages[1]:
                self._refuse(None, f'has no unit "{key}" and no source unit to copy it from')
            text = value["value"] if isinstance(value, dict) else value
            assert isinstance(text, str)
            tag = b"trans-unit" if parsed.version == "1.2" else b"unit"
            spelled = _xml(text).encode("utf-8")
            inner = b"<source>" + spelled + b"</source>"
            if parsed.is_target:  # the source locale's own file: its text is both
                inner += b"<target>" + spelled + b"</target>"
            if parsed.version == "2.0":
                inner = b"<segment>" + inner + b"</segment>"
            spelled_id = _attribute(key).encode("utf-8")
            return indent + b"<" + tag + b' id="' + spelled_id + b'">' + inner + b"</" + tag + b">"
        # The unit alone in a small target document: its targets taken out, then `value` set.
        alone = _parse(_single_unit_document(template, unit), "the source file")
        alone = _parse(_apply(alone.raw, _blank_edits(alone)), "the source file")
        try:
            filled = _apply(alone.raw, _target_edits(alone, alone.units[0], value))
        except _Unwritable as exc:
            self._refuse(unit, exc.why, exc.fix)
        element = _parse(filled, "the source file").units[0].element
        body = filled[element.start : element.end]
        old_indent = _line_indent(template.raw, unit.element.start)
        new_indent = indent.lstrip(b"\r\n")
        if old_indent != new_indent:
            body = body.replace(b"\n" + old_indent, b"\n" + new_indent)
        return indent + body

    def _refuse(self, unit: _Unit | None, why: str, fix: str | None = None) -> None:
        where = f"{self.display_path}:{unit.line}" if unit is not None else self.display_path
        what = f'the unit "{unit.id}" ' if unit is not None else "the file "
        sentence = (
            f"{where}: {what}{why}, which i18nprune does not write — "
            f"{fix or 'make the change in your XLIFF tool'}"
        )
        raise NotEditableError(
            error(
                Code.LOCALE_NOT_EDITABLE,
                f"{sentence}; the file was not changed",
                self.display_path,
            ),
            key=unit.id if unit is not None else None,
            why=sentence,
        )


class _Unwritable(Exception):
    """A unit whose new text cannot be spelled back: why, and what the user can do instead."""

    def __init__(self, why: str, fix: str | None = None) -> None:
        super().__init__(why)
        self.why = why
        self.fix = fix


_SEGMENTS_FIX = (
    "translate it in your XLIFF tool, or merge its segments into one <segment> "
    "(i18nprune writes a unit of several segments only its own source text, a review mark, "
    "or a text that differs from it in its one segment)"
)


def _target_edits(parsed: _Parsed, unit: _Unit, value: object) -> list[tuple[int, int, bytes]]:
    """The edits that make `value` the text of `unit` (its target in a target file, with the
    state its marks say on each segment; its source in a source file). A unit of several parts
    (2.0 segments and ignorables) takes a text only as `_part_contents` splits it. Raises
    `_Unwritable`."""
    text = value["value"] if isinstance(value, dict) else value
    assert isinstance(text, str)
    marks = value if isinstance(value, dict) else {}
    if len(unit.parts) == 1 and not unit.parts[0].ignorable:
        contents: list[bytes | None] = [_xml(text).encode("utf-8")]
    else:
        contents = _part_contents(parsed, unit, text)
    edits: list[tuple[int, int, bytes]] = []
    for part, content in zip(unit.parts, contents, strict=True):
        if content is not None:
            why = parsed.unwritable(part)
            if why is not None:
                raise _Unwritable(why)
        edits += _part_edits(parsed, part, content, marks)
    return edits


def _part_contents(parsed: _Parsed, unit: _Unit, text: str) -> list[bytes | None]:
    """The raw content each part of a unit of several parts (2.0 segments and ignorables)
    gets for the text `text` (None: as it is), when it can be told exactly:

    - the text it has: nothing changes (only the segments' states may);
    - in a target, its source text (what `sync` copies): each part's target its own source;
    - with one segment: the ignorables' texts stay, the segment takes what `text` has between
      them (a trailing space an XLIFF tool moved into an ignorable stays there).

    Raises `_Unwritable` for any other text: it cannot be split among several segments."""
    parts = unit.parts
    segments = [index for index, part in enumerate(parts) if not part.ignorable]
    if not segments:
        raise _Unwritable("has no segment")
    current = _part_texts(parsed, parts)
    if parsed.is_target:
        now = parsed.target_text(unit)
    else:
        now = "".join(piece for piece in current if piece is not None)
    if text == now:
        return [None] * len(parts)
    if any(part.order is not None for part in parts):
        raise _Unwritable("orders its targets (`order`) apart from its segments", _SEGMENTS_FIX)
    sources: list[_Element] = []
    for part in parts:
        if part.source is None:
            raise _Unwritable("has a segment without a source")
        sources.append(part.source)
    if parsed.is_target and text == "".join(parsed.text(source) for source in sources):
        raw = parsed.raw
        return [
            None if piece == parsed.text(source) else raw[source.tag_end : source.content_end]
            for piece, source in zip(current, sources, strict=True)
        ]
    if len(segments) == 1:
        index = segments[0]  # the ignorables' texts are there (their source without a target)
        before = "".join(str(piece) for piece in current[:index])
        after = "".join(str(piece) for piece in current[index + 1 :])
        if text.startswith(before) and text.endswith(after) and len(text) >= len(before + after):
            contents: list[bytes | None] = [None] * len(parts)
            contents[index] = _xml(text[len(before) : len(text) - len(after)]).encode("utf-8")
            return contents
        raise _Unwritable(
            "keeps text outside its segment (in an <ignorable>) that the new text does not "
            "have around it",
            _SEGMENTS_FIX,
        )
    raise _Unwritable(
        "has several segments, and the new text is neither its text, its source text, nor one "
        "that splits among them exactly",
        _SEGMENTS_FIX,
    )


def _part_texts(parsed: _Parsed, parts: list[_Part]) -> list[str | None]:
    """Each part's text as the file reads it: its target in a target file (an ignorable's
    source when it has none; None for a segment without one), its source in a source file."""
    texts: list[str | None] = []
    for part in parts:
        if parsed.is_target:
            element = part.target or (part.source if part.ignorable else None)
        else:
            element = part.source
        texts.append(parsed.text(element) if element is not None else None)
    return texts


def _part_edits(
    parsed: _Parsed, part: _Part, content: bytes | None, marks: dict[str, object]
) -> list[tuple[int, int, bytes]]:
    """The edits that give one part the raw text `content` (None: its text stays) as its
    target (its source in a source file), and its segment or target the state `marks` say."""
    raw = parsed.raw
    if not parsed.is_target:
        if content is None:
            return []
        assert part.source is not None
        return [_replace_content(raw, part.source, b"source", content)]
    state = None if part.ignorable else _state_for(parsed, marks, part)  # segments only
    edits: list[tuple[int, int, bytes]] = []
    if parsed.version == "2.0":
        if part.element is not None and state is not None:
            edits.append(_set_attribute(raw, part.element, b"state", state))
        state = None
    target = part.target
    if content is None:
        if target is not None and state is not None:
            edits.append(_set_attribute(raw, target, b"state", state))
        return edits
    if target is not None:
        tag = raw[target.start : target.tag_end]
        if state is not None:
            tag = _with_attribute(tag, b"state", state)
        edits.append(_replace_element(raw, target, tag, b"target", content))
        return edits
    assert part.source is not None
    state_text = b' state="' + state + b'"' if state is not None else b""
    lead = _lead(raw, part.source.start)
    opened = lead + b"<target" + state_text + b">"
    edits.append((part.source.end, part.source.end, opened + content + b"</target>"))
    return edits


def _state_for(parsed: _Parsed, marks: dict[str, object], part: _Part) -> bytes | None:
    """The state to write for a target marked `marks`; None to leave it as it is."""
    review = marks.get(NEEDS_REVIEW) is True
    again = marks.get(_AGAIN) is True
    raw = parsed.raw
    if parsed.version == "2.0":
        current = _state_of(raw, part.element) if part.element is not None else None
        if review or again:
            return b"initial"
        return b"translated" if current == "initial" else None
    current = _state_of(raw, part.target) if part.target is not None else None
    if review:
        return b"needs-review-translation"
    if again:
        return b"needs-translation"
    if current in _AGAIN_STATES_12 or current in _REVIEW_STATES_12:
        return b"translated"
    return None


def _attribute(text: str) -> str:
    return _escape(text).replace('"', "&quot;")


def _apply(raw: bytes, edits: list[tuple[int, int, bytes]]) -> bytes:
    out: list[bytes] = []
    position = 0
    for start, end, replacement in sorted(edits, key=lambda edit: (edit[0], edit[1])):
        out.append(raw[position:start])
        out.append(replacement)
        position = max(position, end)
    out.append(raw[position:])
    return b"".join(out)


def _single_unit_document(template: _Parsed, unit: _Unit) -> bytes:
    """A minimal target XLIFF text holding one unit of `template` (to fill in its target)."""
    unit_text = template.raw[unit.element.start : unit.element.end]
    if template.version == "2.0":
        return (
            b'<xliff version="2.0" srcLang="x" trgLang="y"><file id="f">'
            + unit_text
            + b"</file></xliff>"
        )
    return (
        b'<xliff version="1.2"><file target-language="y"><body>'
        + unit_text
        + b"</body></file></xliff>"
    )


def _blank_edits(parsed: _Parsed) -> list[tuple[int, int, bytes]]:
    """The edits that take every target (and 2.0 segment state) out of `parsed`."""
    raw = parsed.raw
    edits: list[tuple[int, int, bytes]] = []
    for unit in parsed.units:
        for part in unit.parts:
            if part.target is not None:
                edits.append(_removal(raw, part.target))
            if part.element is not None and _state_of(raw, part.element) is not None:
                edits.append(_drop_attribute(raw, part.element, b"state"))
    return edits


def _blank_copy(template: bytes, locale: str | None) -> bytes:
    """The source file `template` as a new target's text: no targets, naming `locale`."""
    parsed = _parse(template, "the source file")
    edits = _blank_edits(parsed)
    if locale is not None:
        name = b"trgLang" if parsed.version == "2.0" else b"target-language"
        after = b"srcLang" if parsed.version == "2.0" else b"source-language"
        for element in parsed.language_tags:
            edits.append(_set_attribute(template, element, name, locale.encode(), after=after))
    return _apply(template, edits)


def _removal(raw: bytes, element: _Element) -> tuple[int, int, bytes]:
    """The edit that removes an element, and the space before it on its line (with the line
    break before that, when the element stands alone on its line)."""
    lead = _lead(raw, element.start)
    return element.start - len(lead), element.end, b""


def _lead(raw: bytes, at: int) -> bytes:
    """The white space right before `at`: up to and including the line break before it when
    only spaces lie between that and `at`, else the spaces alone."""
    window = raw[max(0, at - 256) : at]
    found = _LEADING_SPACE.search(window)
    return found.group() if found else b""


def _line_indent(raw: bytes, at: int) -> bytes:
    line_start = raw.rfind(b"\n", 0, at) + 1
    indent = raw[line_start:at]
    return indent if not indent.strip() else b""


def _unit_indent(raw: bytes, units: list[_Unit]) -> bytes:
    """The line break and indentation new units get: as the file's first unit has them."""
    if units:
        return _lead(raw, units[0].element.start) or b""
    return b"\n      "


def _replace_content(
    raw: bytes, element: _Element, name: bytes, content: bytes
) -> tuple[int, int, bytes]:
    return _replace_element(raw, element, raw[element.start : element.tag_end], name, content)


def _replace_element(
    raw: bytes, element: _Element, tag: bytes, name: bytes, content: bytes
) -> tuple[int, int, bytes]:
    """The edit that gives `element` the start tag `tag` and the content `content`."""
    if element.empty:
        opened = tag[:-2].rstrip() + b">"
        closing = b"</" + raw[element.start + 1 : element.start + 1 + len(name)] + b">"
        return element.start, element.end, opened + content + closing
    return element.start, element.content_end, tag + content


def _with_attribute(tag: bytes, name: bytes, value: bytes, after: bytes | None = None) -> bytes:
    """The start tag `tag` with the attribute `name` set to `value` (in place when it has one;
    else after the attribute `after`, else last)."""
    existing = re.search(rb"\s" + name + rb"""\s*=\s*(["'])[^"']*\1""", tag)
    spelled = name + b'="' + value + b'"'
    if existing is not None:
        return tag[: existing.start() + 1] + spelled + tag[existing.end() :]
    if after is not None:
        found = re.search(rb"\s" + after + rb"""\s*=\s*(["'])[^"']*\1""", tag)
        if found is not None:
            return tag[: found.end()] + b" " + spelled + tag[found.end() :]
    end = len(tag) - (2 if tag.endswith(b"/>") else 1)
    while end > 0 and tag[end - 1 : end].isspace():
        end -= 1
    return tag[:end] + b" " + spelled + tag[end:]


def _set_attribute(
    raw: bytes, element: _Element, name: bytes, value: bytes, after: bytes | None = None
) -> tuple[int, int, bytes]:
    tag = raw[element.start : element.tag_end]
    return element.start, element.tag_end, _with_attribute(tag, name, value, after)


def _drop_attribute(raw: bytes, element: _Element, name: bytes) -> tuple[int, int, bytes]:
    tag = raw[element.start : element.tag_end]
    stripped = re.sub(rb"\s+" + name + rb"""\s*=\s*(["'])[^"']*\1""", b"", tag, count=1)
    return element.start, element.tag_end, stripped
