"""gettext PO files (`.po`, as Lingui, gettext and Crowdin write them, and `.pot` templates):
read strictly, edited entry by entry, every byte of what no edit touched kept.

An entry's key is its `msgid` (with a `msgctxt`, `context` + `\\x04` + `msgid`, gettext's own
spelling of a context key); keys are flat strings, never split at dots. Its value is its
`msgstr`: an entry whose `msgstr` is empty is not translated, so the locale lacks that key. A
`#, fuzzy` entry is a translation marked for review (read as a structured leaf with
`needsReview`, written back as the flag). The header entry (`msgid ""`) is no key; a new file
made for a target copies the source's header with `Language` set to the target and
`Plural-Forms` from CLDR. Obsolete entries (`#~`) are no keys and are kept as they are.

An entry with a plural (`msgid_plural`) is one key whose value is the list of its forms,
`msgstr[0]`, `msgstr[1]`, … (leaves `key[0]`, `key[1]`, …): an empty form is missing (no leaf;
the list holds `{}` there), an entry whose forms are all empty is not translated. A form is set
alone; a form a file lacks is added after the others, up to the file's `nplurals`, and a new
plural entry (its `msgid_plural` from the source file, `adopt`) gets every form the file's
`nplurals` counts, empty but for the one set. Removing any form removes the whole entry.

A `.pot` template holds no translations: every entry is a key whose value is its source text,
the `msgid` (and, for a plural entry, `[msgid, msgid_plural]`). A template is read and its
entries removed, never translated into (`Code.LOCALE_NOT_EDITABLE`).

Editing replaces only the `msgstr` lines (and the flags line) of the entries it changes,
makes a removed entry obsolete (`#~`, as `msgmerge` does: the translation stays in the file,
no longer a key), and adds new entries after the entry that the source's
order puts before them, each starting with its source entry's lines as written there (`adopt`:
comments for translators from the extractor, references, flags, wrapped msgids); what is
written must read back as exactly the edited entries (checked before writing).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Sequence
from gettext import c2py
from pathlib import Path
from typing import NamedTuple

import msgspec

from i18nprune.envelope import Code, ProblemError, error
from i18nprune.locales.formats import is_template_name
from i18nprune.locales.jsondoc import JsonStyle, LocaleDocument
from i18nprune.locales.jsonfile import LocaleFileError, decode_text, read_file_bytes
from i18nprune.locales.keyroot import KeyRoot
from i18nprune.locales.leaves import NEEDS_REVIEW, is_structured_leaf
from i18nprune.locales.memo import FileMemo

CONTEXT_SEPARATOR = "\x04"
"""Between an entry's `msgctxt` and `msgid` in its key (gettext's own separator)."""

_FIX_HINT = "fix the file; it will not be modified"
_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)[ \t]+(\".*)$")
_FORM = re.compile(r"\[(\d+)\]\Z")
_NPLURALS = re.compile(r"nplurals\s*=\s*(\d+)")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b",
            "f": "\f", "v": "\v"}  # fmt: skip
_UNESCAPES = {value: f"\\{key}" for key, value in _ESCAPES.items()}
_plural_keys: FileMemo[frozenset[str]] = FileMemo()


class PoStyle(msgspec.Struct, frozen=True):
    """What a new PO file and its new entries are made of: the header of the file it is made
    after, the target's language, and the `msgid_plural` of that file's plural entries."""

    header: str = ""
    """The source's header text (the `msgstr` of its `msgid ""` entry), if any."""
    language: str | None = None
    newline: str = "\n"
    plurals: dict[str, str] = {}
    """The source's plural entries: key → `msgid_plural`."""
    template: bool = False
    """The source is a `.pot` template."""
    heads: dict[str, tuple[str, ...]] = {}
    """The lines of each source entry before its `msgstr`, without line breaks: its extracted
    comments (`#.`), references (`#:`), flags (`#,`, but fuzzy) and `msgctxt`, `msgid` and
    `msgid_plural` as written. A new entry starts with its source entry's, as `msgmerge`
    writes it, wrapped as the project's extractor wraps it."""

    def untranslated(self, path: str) -> bool:
        """Whether `sync` adds the entry or form at `path` untranslated, as gettext's `msgmerge`
        does, rather than with the source's text: every entry made after a template (which
        holds no translation), and every form of a plural entry (whose forms are the target
        language's, not the source's)."""
        match = _FORM.search(path)
        return self.template or (match is not None and path[: match.start()] in self.plurals)


class _Entry:
    """One entry of a PO file: its lines as written, and what they say."""

    __slots__ = (
        "forms",
        "fuzzy",
        "key",
        "lines",
        "msgctxt",
        "msgid",
        "msgid_plural",
        "msgstr",
        "start",
    )

    def __init__(self, lines: list[str], start: int) -> None:
        self.lines = lines
        self.start = start
        """The 1-based line of the entry's first line in the file as loaded."""
        self.key: str | None = None
        self.msgctxt: str | None = None
        self.msgid = ""
        self.msgid_plural: str | None = None
        self.msgstr = ""
        self.forms: list[str] = []
        """A plural entry's `msgstr[n]`, in order (empty for a singular one)."""
        self.fuzzy = False

    @property
    def is_header(self) -> bool:
        return self.msgid == "" and self.msgctxt is None

    @property
    def plural(self) -> bool:
        return self.msgid_plural is not None


class _Parsed(msgspec.Struct):
    chunks: list[object]
    """The file in order: text between entries (`str`) and entries (`_Entry`)."""
    newline: str
    byte_order_mark: bool
    template: bool = False
    """A `.pot` template: each entry's value is its source text."""


def read_po_file(path: Path, display_path: str) -> dict[str, object]:
    """The translated entries of the PO file at `path`: key → `msgstr`, a structured leaf
    `{"value": msgstr, "needsReview": true}` for a fuzzy entry, a list of forms for a plural
    one; of a `.pot` template, every entry's source text.

    Raises `LocaleFileError`: `Code.LOCALE_UNREADABLE` when the file cannot be read,
    `Code.LOCALE_INVALID_SYNTAX` for invalid UTF-8, a line that is no PO, plural forms not
    numbered from 0 or a key defined twice (both lines named).
    """
    raw = read_file_bytes(path, display_path)
    return _leaves(_parse(raw, display_path, template=is_template_name(path.name)))


def parse_po_text(text: str, display_path: str, *, template: bool = False) -> dict[str, object]:
    """The translated entries of PO `text` (an editor's buffer; a `.pot`'s with `template`),
    raising as `read_po_file`."""
    raw = text.encode("utf-8", "surrogatepass")
    return _leaves(_parse(raw, display_path, template=template))


def po_positions(text: str, *, template: bool = False) -> dict[str, tuple[int, int]]:
    """The 1-based line and column of each translated key's `msgid` line in PO `text` (and of
    each plural form's `msgstr[n]` line); empty when the text does not parse."""
    try:
        parsed = _parse(text.encode("utf-8", "surrogatepass"), "", template=template)
    except LocaleFileError:
        return {}
    found: dict[str, tuple[int, int]] = {}
    for entry in _entries(parsed):
        if entry.key is None or not _translated(entry, parsed.template):
            continue
        for offset, line in enumerate(entry.lines):
            if line.startswith("msgid "):
                found.setdefault(entry.key, (entry.start + offset, 1))
            match = re.match(r"msgstr\[(\d+)\]", line)
            if match is not None and entry.plural:
                found.setdefault(f"{entry.key}[{match.group(1)}]", (entry.start + offset, 1))
    return found


class PluralRule(NamedTuple):
    """A language's gettext plural forms: how many (`nplurals`), and which one `n = 1` takes
    (the form a singular `msgid` is the source of)."""

    nplurals: int
    singular: int


def language_plural_rule(language: str) -> PluralRule | None:
    """The plural forms of `language` (CLDR's, as gettext's `Plural-Forms`, from Babel); None
    for a language Babel does not know."""
    forms = _plural_forms(language)
    return None if forms is None else header_plural_rule(f"Plural-Forms: {forms}\n")


def header_plural_rule(header: str) -> PluralRule | None:
    """The plural forms a header's `Plural-Forms` names; else those of its `Language` (see
    `language_plural_rule`); None when it names neither."""
    fields = _header_fields(header)
    rule = fields.get("plural-forms", "")
    match = _NPLURALS.search(rule)
    if match is None or int(match.group(1)) <= 0:
        language = fields.get("language", "")
        return language_plural_rule(language) if language else None
    count = int(match.group(1))
    expression = rule.partition("plural=")[2].strip().rstrip(";")
    try:
        singular = int(c2py(expression)(1))
    except (ValueError, SyntaxError, RecursionError):
        singular = 0  # an expression gettext cannot read either: the first form, as usual
    return PluralRule(count, singular if 0 <= singular < count else 0)


def plural_keys(path: Path) -> frozenset[str]:
    """The keys of the plural entries of the PO file at `path` (remembered while the file is
    unchanged); empty when it cannot be read."""
    return _plural_keys.get(path, None, lambda: _read_plural_keys(path))


def _read_plural_keys(path: Path) -> frozenset[str]:
    try:
        parsed = _parse(read_file_bytes(path, path.name), path.name)
    except LocaleFileError:
        return frozenset()
    return frozenset(e.key for e in _entries(parsed) if e.key is not None and e.plural)


def file_plural_rule(path: Path) -> PluralRule | None:
    """`header_plural_rule` of the PO file at `path`; None when it cannot be read."""
    try:
        parsed = _parse(read_file_bytes(path, path.name), path.name)
    except LocaleFileError:
        return None
    return header_plural_rule(_header_of(parsed))


def template_language(path: Path) -> str:
    """The language of a `.pot` template's msgids: what its header's `Language` names, else
    English (gettext's msgids are English by convention; `sourceLocale` says otherwise)."""
    try:
        parsed = _parse(read_file_bytes(path, path.name), path.name, template=True)
    except LocaleFileError:
        return "en"
    return _header_fields(_header_of(parsed)).get("language") or "en"


def _header_fields(header: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for line in header.split("\n"):
        name, colon, value = line.partition(":")
        if colon:
            fields.setdefault(name.strip().lower(), value.strip())
    return fields


def _header_of(parsed: _Parsed) -> str:
    return next((e.msgstr for e in _entries(parsed) if e.is_header), "")


def _leaves(parsed: _Parsed) -> dict[str, object]:
    tree: dict[str, object] = {}
    template = parsed.template
    for entry in _entries(parsed):
        if entry.key is not None and _translated(entry, template):
            tree[entry.key] = _value(entry, template)
    return tree


def _translated(entry: _Entry, template: bool) -> bool:
    if entry.key is None:
        return False
    if template:
        return True
    return any(entry.forms) if entry.plural else bool(entry.msgstr)


def _value(entry: _Entry, template: bool = False) -> object:
    if template:
        return [entry.msgid, entry.msgid_plural] if entry.plural else entry.msgid
    if entry.plural:
        return [_form_value(form, entry.fuzzy) for form in entry.forms]
    return _form_value(entry.msgstr, entry.fuzzy)


def _form_value(text: str, fuzzy: bool) -> object:
    if not text:
        return {}  # an empty form is missing: a value that holds no leaf
    return {"value": text, NEEDS_REVIEW: True} if fuzzy else text


def _entries(parsed: _Parsed) -> list[_Entry]:
    return [chunk for chunk in parsed.chunks if isinstance(chunk, _Entry)]


class PoDocument(LocaleDocument):
    """A PO file edited by key (see the module); `load` or `new` make one."""

    def __init__(self, path: Path, parsed: _Parsed, original: bytes | None, header: str) -> None:
        style = JsonStyle(indent="  ", newline=parsed.newline, final_newline=True, flat_keys=True)
        super().__init__(path, style, {}, original, literal_keys=True)
        self.display_path = path.name
        self._chunks = parsed.chunks
        self._byte_order_mark = parsed.byte_order_mark
        self._newline = parsed.newline
        self._template = parsed.template
        self._by_key = {entry.key: entry for entry in _entries(parsed) if entry.key is not None}
        self._header = header
        rule = header_plural_rule(header)
        self._plural_count = rule.nplurals if rule is not None else None
        self._source_plurals: dict[str, str] = {}
        self._source_heads: dict[str, tuple[str, ...]] = {}
        self._key_positions: tuple[int, dict[str, int]] | None = None

    @classmethod
    def load(
        cls,
        path: Path,
        display_path: str,
        *,
        literal_keys: bool = False,
        key_root: KeyRoot = (),
    ) -> PoDocument:
        """The document of the PO file at `path`. Raises `LocaleFileError` as `read_po_file`."""
        raw = read_file_bytes(path, display_path)
        parsed = _parse(raw, display_path, template=is_template_name(path.name))
        document = cls(path, parsed, raw, _header_of(parsed))
        document.display_path = display_path
        return document

    @classmethod
    def new(
        cls,
        path: Path,
        style: object = None,
        *,
        literal_keys: bool = False,
        key_root: KeyRoot = (),
    ) -> PoDocument:
        """An empty PO document for a file that does not exist yet: with a `PoStyle`, a header
        copied from the source with the target's `Language` and `Plural-Forms`."""
        chosen = style if isinstance(style, PoStyle) else PoStyle()
        header = _target_header(chosen.header, chosen.language)
        chunks: list[object] = []
        if header:
            entry = _Entry([], 1)
            entry.msgstr = header
            entry.lines = _render_entry(None, "", None, [header], chosen.newline)
            chunks.append(entry)
        parsed = _Parsed(chunks=chunks, newline=chosen.newline, byte_order_mark=False)
        document = cls(path, parsed, None, header)
        document.adopt(chosen)
        return document

    def counterpart_style(self, locale_name: str) -> PoStyle:
        """The style of the file of locale `locale_name` made from this one."""
        plurals = {
            key: entry.msgid_plural
            for key, entry in self._by_key.items()
            if entry.msgid_plural is not None
        }
        heads = {key: _source_head(entry) for key, entry in self._by_key.items()}
        return PoStyle(self._header, locale_name, self._newline, plurals, self._template, heads)

    def adopt(self, style: object) -> None:
        """Take the source file's plural entries from `style` (a `PoStyle`), to give a plural
        entry this file lacks its `msgid_plural` when one of its forms is set."""
        if isinstance(style, PoStyle):
            self._source_plurals = style.plurals
            self._source_heads = style.heads

    def get(self, path: str) -> object | None:
        found = self._find(path)
        if found is None:
            return None
        entry, index = found
        if index is None:
            return _value(entry, self._template) if _translated(entry, self._template) else None
        value = _value(entry, self._template)
        assert isinstance(value, list)
        form = value[index] if index < len(value) else {}
        return None if form == {} else form

    def has(self, path: str) -> bool:
        return self.get(path) is not None

    def paths(self) -> list[str]:
        found: list[str] = []
        for key, entry in self._by_key.items():
            value = _value(entry, self._template) if _translated(entry, self._template) else None
            if isinstance(value, list):
                found += [f"{key}[{i}]" for i, form in enumerate(value) if form != {}]
            elif value is not None:
                found.append(key)
        return found

    def reaches(self, path: str) -> bool:
        """Whether `set` can take `path`: any key but the empty one and that of a plural entry
        itself (its forms, `key[n]`, are the places of its texts)."""
        entry = self._by_key.get(path)
        return bool(path) and not (entry is not None and entry.plural)

    def set(self, path: str, value: object, *, order: Sequence[str] | None = None) -> bool:
        """Make `value` the translation of key `path`, or of one form of a plural entry
        (`key[n]`): a string, or a structured leaf whose `needsReview` becomes the entry's
        fuzzy flag; True when the file had no translation there. A form past the file's
        `nplurals` is not set (False): the language has no such form.

        Raises `ValueError` for the empty key, a value that is no text or the key of a plural
        entry itself (its forms are set one by one), and `ProblemError`
        (`Code.LOCALE_NOT_EDITABLE`) in a `.pot` template.
        """
        if not path:
            raise ValueError("the document root is not a leaf path")
        text, fuzzy = _text_of(value)
        if self._template:
            self._refuse_template(path)
        found = self._find(path)
        if found is None:
            form = self._new_form(path)
            if form is None:
                self._add_entry(path, None, [text], fuzzy, order)
                self._edited = True
                return True
            key, number = form
            count = max(self._plural_count or 2, 1)
            if number >= count:
                return False
            forms = [""] * count
            forms[number] = text
            self._add_entry(key, self._source_plurals[key], forms, fuzzy and bool(text), order)
            self._edited = True
            return bool(text)
        entry, index = found
        if index is None:
            if entry.plural:
                raise ValueError(f"`{path}` has plural forms: set each form (`{path}[0]`, …)")
            return self._set_singular(entry, text, fuzzy)
        return self._set_form(entry, index, text, fuzzy)

    def set_many(
        self, leaves: Sequence[tuple[str, object]], *, order: Sequence[str] | None = None
    ) -> int:
        return sum(self.set(path, value, order=order) for path, value in leaves)

    def delete(self, path: str) -> bool:
        """Take the entry of key `path` out of the catalog's keys — the whole entry for a form
        of a plural one (`key[n]`): its forms go together; False when it has no translation
        here. The entry stays in the file as an obsolete one (`#~`), as `msgmerge` and
        Lingui's extractor keep a translation the template no longer has: its translator
        comments and flags kept, its references and extracted comments dropped
        (`_obsolete`)."""
        found = self._find(path)
        if found is None or not _translated(found[0], self._template):
            return False
        entry = found[0]
        at = next(i for i, chunk in enumerate(self._chunks) if chunk is entry)
        self._chunks[at] = _obsolete(entry)
        assert entry.key is not None
        del self._by_key[entry.key]
        self._edited = True
        return True

    def render(self) -> bytes:
        """The file's bytes: as loaded until edited; then every untouched entry and the text
        between entries exactly as they were, changed and new entries written in gettext's
        layout. Raises `ProblemError` (`Code.LOCALE_WRITE_FAILED`) if that text would not read
        back as the edited entries; nothing is written then."""
        if not self._edited and self._saved is not None:
            return self._saved
        text = "".join(
            chunk if isinstance(chunk, str) else "".join(chunk.lines)  # type: ignore[attr-defined]
            for chunk in self._chunks
        )
        encoded = text.encode("utf-8")
        template = self._template
        expected = {
            key: _value(e, template) for key, e in self._by_key.items() if _translated(e, template)
        }
        if _leaves(_parse(encoded, self.display_path, template=template)) != expected:
            raise ProblemError(
                error(
                    Code.LOCALE_WRITE_FAILED,
                    f"{self.display_path}: the PO text written would not read back as the "
                    "edited entries — the file was not changed; please report this with the file",
                    self.display_path,
                )
            )
        return codecs.BOM_UTF8 + encoded if self._byte_order_mark else encoded

    def _find(self, path: str) -> tuple[_Entry, int | None] | None:
        """The entry `path` names and, for a form of a plural entry (`key[n]`), n."""
        entry = self._by_key.get(path)
        if entry is not None:
            return entry, None
        match = _FORM.search(path)
        if match is None:
            return None
        entry = self._by_key.get(path[: match.start()])
        if entry is None or not entry.plural:
            return None
        return entry, int(match.group(1))

    def _new_form(self, path: str) -> tuple[str, int] | None:
        """(key, n) when `path` is a form of a plural entry of the source this file lacks."""
        match = _FORM.search(path)
        if match is None or path[: match.start()] not in self._source_plurals:
            return None
        return path[: match.start()], int(match.group(1))

    def _set_singular(self, entry: _Entry, text: str, fuzzy: bool) -> bool:
        if entry.msgstr == text and (entry.fuzzy == fuzzy or not text):
            return False  # (an untranslated entry's flag is no translation's)
        was_translated = bool(entry.msgstr)
        entry.lines = _replace_msgstr(entry.lines, None, text, self._newline)
        entry.lines = _with_fuzzy(entry.lines, fuzzy, self._newline)
        entry.msgstr, entry.fuzzy = text, fuzzy
        self._edited = True
        return not was_translated

    def _set_form(self, entry: _Entry, index: int, text: str, fuzzy: bool) -> bool:
        forms = entry.forms
        if index >= len(forms) and index >= (self._plural_count or len(forms)):
            return False  # past the language's forms: never one more
        if index < len(forms) and forms[index] == text and (entry.fuzzy == fuzzy or not text):
            return False
        while len(forms) <= index:  # a form the entry lacks goes after its last one
            entry.lines = _replace_msgstr(entry.lines, len(forms), "", self._newline)
            forms.append("")
        was_translated = bool(forms[index])
        entry.lines = _replace_msgstr(entry.lines, index, text, self._newline)
        forms[index] = text
        if text:
            entry.lines = _with_fuzzy(entry.lines, fuzzy, self._newline)
            entry.fuzzy = fuzzy
        self._edited = True
        return not was_translated

    def _add_entry(
        self,
        key: str,
        plural: str | None,
        forms: list[str],
        fuzzy: bool,
        order: Sequence[str] | None,
    ) -> None:
        context, _, msgid = key.rpartition(CONTEXT_SEPARATOR)
        head = self._source_heads.get(key)
        if head is None:
            lines = _render_entry(context or None, msgid, plural, forms, self._newline)
        else:
            lines = [f"{line}{self._newline}" for line in head]
            lines += _msgstr_lines(plural, forms, self._newline)
        lines = _with_fuzzy(lines, fuzzy, self._newline)
        entry = _Entry(lines, 0)
        entry.key, entry.msgid, entry.msgid_plural, entry.fuzzy = key, msgid, plural, fuzzy
        if plural is None:
            entry.msgstr = forms[0]
        else:
            entry.forms = forms
        entry.msgctxt = context or None
        anchor, after = self._entry_anchor(key, order)
        chunks = self._chunks
        if anchor is None:
            at = len(chunks)
        else:
            at = next(i for i, chunk in enumerate(chunks) if chunk is anchor) + after
        if after:
            # a blank line between it and what comes before, which must end its line
            if at > 0:
                self._end_line(at - 1)
                chunks[at:at] = [self._newline, entry]
            else:
                chunks[at:at] = [entry]
        else:
            chunks[at:at] = [entry, self._newline]
        self._by_key[key] = entry

    def _end_line(self, index: int) -> None:
        """Make chunk `index` end with a line break (a file's last line may lack one)."""
        chunk = self._chunks[index]
        if isinstance(chunk, str):
            if not chunk.endswith("\n"):
                self._chunks[index] = chunk + self._newline
        elif isinstance(chunk, _Entry) and not chunk.lines[-1].endswith("\n"):
            chunk.lines[-1] += self._newline

    def _entry_anchor(self, key: str, order: Sequence[str] | None) -> tuple[_Entry | None, bool]:
        """The entry a new entry goes after (True) or before (False): the nearest key before
        `key` in `order` that the file has, else the nearest after it; else none (the end).
        `order` names a plural entry by its forms (`key[0]`)."""
        if not order:
            return None, True
        if self._key_positions is None or self._key_positions[0] != id(order):
            positions: dict[str, int] = {}
            for i, path in enumerate(order):
                match = _FORM.search(path)
                base = path[: match.start()] if match is not None else path
                positions.setdefault(base if base in self._source_plurals else path, i)
            self._key_positions = (id(order), positions)
        positions = self._key_positions[1]
        position = positions.get(key)
        if position is None:
            return None, True
        for index in range(position - 1, -1, -1):
            entry = self._anchor_entry(order[index])
            if entry is not None:
                return entry, True
        for index in range(position + 1, len(order)):
            entry = self._anchor_entry(order[index])
            if entry is not None:
                return entry, False
        return None, True

    def _anchor_entry(self, path: str) -> _Entry | None:
        found = self._find(path)
        return found[0] if found is not None else None

    def _refuse_template(self, path: str) -> None:
        raise ProblemError(
            error(
                Code.LOCALE_NOT_EDITABLE,
                f"{self.display_path}: `{path}` cannot be translated in a gettext template "
                "(.pot): its entries are the source text, written by the extractor — the file "
                "was not changed",
                self.display_path,
            )
        )


def _obsolete(entry: _Entry) -> str:
    """`entry` as an obsolete entry: translator comments (`# `) and flags (`#,`) as they are,
    references (`#:`), extracted comments (`#.`) and previous strings (`#|`) dropped — they
    describe code that no longer names it — and every other line behind `#~ `."""
    kept = []
    for line in entry.lines:
        if line.startswith(("#:", "#.", "#|")):
            continue
        kept.append(line if line.startswith("#") else f"#~ {line}")
    return "".join(kept)


def _source_head(entry: _Entry) -> tuple[str, ...]:
    """The lines of `entry` a new entry made after it starts with (see `PoStyle.heads`)."""
    found: list[str] = []
    for line in entry.lines:
        text = line.rstrip("\r\n")
        if text.startswith("msgstr"):
            break
        if text.startswith(("#.", "#:")) or not text.startswith("#"):
            found.append(text)
        elif text.startswith("#,"):
            flags = [flag.strip() for flag in text[2:].split(",")]
            kept = [flag for flag in flags if flag and flag != "fuzzy"]
            if kept:
                found.append("#, " + ", ".join(kept))
    return tuple(found)


def _text_of(value: object) -> tuple[str, bool]:
    if isinstance(value, str):
        return value, False
    if is_structured_leaf(value):
        assert isinstance(value, dict)
        return str(value["value"]), value.get(NEEDS_REVIEW) is True
    raise ValueError(f"a PO translation is text, not {type(value).__name__}")


def _target_header(source: str, language: str | None) -> str:
    """The source's header with `Language` set to `language`, `Plural-Forms` from CLDR, and a
    template's placeholder charset (`charset=CHARSET`) made UTF-8, what is written."""
    if language is None:
        return source
    lines = [line for line in source.split("\n") if line]
    fields = {line.split(":", 1)[0].strip().lower(): i for i, line in enumerate(lines)}
    updates = {"Language": language, "Plural-Forms": _plural_forms(language)}
    for name, value in updates.items():
        if value is None:
            continue
        at = fields.get(name.lower())
        if at is None:
            lines.append(f"{name}: {value}")
        else:
            lines[at] = f"{name}: {value}"
    at = fields.get("content-type")
    if at is not None:
        lines[at] = lines[at].replace("charset=CHARSET", "charset=UTF-8")
    return "".join(f"{line}\n" for line in lines)


def _plural_forms(language: str) -> str | None:
    from babel.core import UnknownLocaleError
    from babel.messages.plurals import get_plural

    try:
        return str(get_plural(language.replace("-", "_")))
    except (UnknownLocaleError, ValueError):
        return None


# --- writing ----------------------------------------------------------------------------------


def _quote(text: str) -> str:
    return '"' + "".join(_UNESCAPES.get(char, char) for char in text) + '"'


def _string_lines(keyword: str, text: str, newline: str) -> list[str]:
    """`keyword "text"`, or, for a text with line breaks, gettext's layout: an empty first
    string and one string per line."""
    parts = text.split("\n")
    if len(parts) <= 2 and (len(parts) == 1 or parts[1] == ""):
        return [f"{keyword} {_quote(text)}{newline}"]
    pieces = [f"{part}\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    return [f'{keyword} ""{newline}', *(f"{_quote(piece)}{newline}" for piece in pieces)]


def _render_entry(
    context: str | None, msgid: str, plural: str | None, forms: list[str], newline: str
) -> list[str]:
    """A new entry's lines: a singular one's `msgstr` is `forms[0]`; a plural one (with
    `plural`, its `msgid_plural`) has a `msgstr[n]` per form."""
    lines: list[str] = []
    if context is not None:
        lines += _string_lines("msgctxt", context, newline)
    lines += _string_lines("msgid", msgid, newline)
    if plural is not None:
        lines += _string_lines("msgid_plural", plural, newline)
    return lines + _msgstr_lines(plural, forms, newline)


def _msgstr_lines(plural: str | None, forms: list[str], newline: str) -> list[str]:
    if plural is None:
        return _string_lines("msgstr", forms[0], newline)
    lines: list[str] = []
    for index, form in enumerate(forms):
        lines += _string_lines(f"msgstr[{index}]", form, newline)
    return lines


def _replace_msgstr(lines: list[str], index: int | None, text: str, newline: str) -> list[str]:
    """`lines` with the `msgstr` (`index` None) or `msgstr[index]` string replaced by `text`;
    a form the entry lacks is added after its last string."""
    keyword = "msgstr" if index is None else f"msgstr[{index}]"
    starts = [i for i, line in enumerate(lines) if line.startswith(f"{keyword} ")]
    if index == 0 and not starts:
        starts = [i for i, line in enumerate(lines) if line.startswith("msgstr ")]
    if starts:
        start = starts[0]
        end = _string_end(lines, start)
    else:
        last = max(i for i, line in enumerate(lines) if line.startswith("msgstr"))
        start = end = _string_end(lines, last)
    ending = lines[end - 1][len(lines[end - 1].rstrip("\r\n")) :] or newline
    if end > 0 and not lines[end - 1].endswith("\n"):
        lines = [*lines[: end - 1], lines[end - 1] + newline, *lines[end:]]
        ending = ""
    return [*lines[:start], *_string_lines(keyword, text, ending or newline), *lines[end:]]


def _string_end(lines: list[str], start: int) -> int:
    end = start + 1
    while end < len(lines) and lines[end].lstrip().startswith('"'):
        end += 1
    return end


def _with_fuzzy(lines: list[str], fuzzy: bool, newline: str) -> list[str]:
    at = next((i for i, line in enumerate(lines) if line.startswith("#,")), None)
    if at is None:
        if not fuzzy:
            return lines
        first = next(i for i, line in enumerate(lines) if not line.startswith("#"))
        return [*lines[:first], f"#, fuzzy{newline}", *lines[first:]]
    line = lines[at]
    ending = line[len(line.rstrip("\r\n")) :]
    flags = [flag.strip() for flag in line[2:].strip().split(",") if flag.strip()]
    if fuzzy == ("fuzzy" in flags):
        return lines
    flags = ["fuzzy", *flags] if fuzzy else [flag for flag in flags if flag != "fuzzy"]
    if not flags:
        return [*lines[:at], *lines[at + 1 :]]
    return [*lines[:at], f"#, {', '.join(flags)}{ending}", *lines[at + 1 :]]


# --- reading ----------------------------------------------------------------------------------


def _parse(raw: bytes, display_path: str, *, template: bool = False) -> _Parsed:
    text = decode_text(raw, display_path, Code.LOCALE_INVALID_SYNTAX)
    first_break = text.find("\n")
    newline = "\r\n" if first_break > 0 and text[first_break - 1] == "\r" else "\n"
    return _Parsed(
        chunks=_Reader(display_path).read(_lines(text)),
        newline=newline,
        byte_order_mark=raw.startswith(codecs.BOM_UTF8),
        template=template,
    )


def _lines(text: str) -> list[str]:
    """The lines of `text` with their breaks, split at line feeds only (`str.splitlines` also
    splits at characters such as U+0085 and U+2028, which a PO string may hold)."""
    lines = [f"{line}\n" for line in text.split("\n")]
    last = lines.pop()[:-1]
    return [*lines, last] if last else lines


class _Reader:
    def __init__(self, display_path: str) -> None:
        self.display = display_path
        self.chunks: list[object] = []
        self.entry: _Entry | None = None
        self.field: str | None = None  # the keyword whose strings the next lines continue
        self.values: dict[str, str] = {}
        self.indexed: list[int] = []  # the n of each `msgstr[n]` of the entry, in order
        self.seen: dict[str, int] = {}

    def read(self, lines: list[str]) -> list[object]:
        gap: list[str] = []
        for number, line in enumerate(lines, 1):
            content = line.strip()
            if not content:
                self._close()
                gap.append(line)
                continue
            # a comment, `msgctxt` or `msgid` after a `msgstr` starts the next entry
            begins = content.startswith(("#", "msgctxt", "msgid ")) and "msgstr" in self.values
            if self.entry is None or begins:
                self._close()
                if gap:
                    self.chunks.append("".join(gap))
                    gap = []
                self.entry = _Entry([], number)
            assert self.entry is not None
            self.entry.lines.append(line)
            self._line(content, number)
        self._close()
        if gap:
            self.chunks.append("".join(gap))
        return self.chunks

    def _line(self, content: str, number: int) -> None:
        assert self.entry is not None
        if content.startswith("#"):
            self.field = None
            if content.startswith("#,") and "fuzzy" in content[2:].replace(" ", "").split(","):
                self.entry.fuzzy = True
            return
        if content.startswith('"'):
            if self.field is None:
                self._fail(number, 1, "a string that continues no msgid or msgstr")
            assert self.field is not None
            self.values[self.field] += self._string(content, number, 0)
            return
        match = _KEYWORD.match(content)
        if match is None:
            self._fail(number, 1, f"`{content[:30]}` is not a PO line")
        assert match is not None
        keyword, index, rest = match.group(1), match.group(2), match.group(3)
        base = match.start(3)
        if keyword.startswith("msgstr"):
            if index is not None:
                self.indexed.append(int(index))
                if index != "0":
                    keyword = f"msgstr[{int(index)}]"
            if index in (None, "0"):
                keyword = "msgstr"
        if keyword in self.values:
            self._fail(number, 1, f"`{keyword}` appears twice in one entry")
        self.field = keyword
        self.values[keyword] = self._string(rest, number, base)

    def _string(self, text: str, number: int, base: int) -> str:
        """The value of the quoted `text`, which starts at index `base` of its line (for the
        column a fault is reported at)."""
        if len(text) < 2 or not text.endswith('"'):
            self._fail(number, 1, "a string must be on one line between double quotes")
        body, out, at = text[1:-1], [], 0
        while at < len(body):
            char = body[at]
            if char == '"':
                self._fail(number, base + at + 2, 'an unescaped `"` inside a string')
            if char != "\\":
                out.append(char)
                at += 1
                continue
            following = body[at + 1 : at + 2]
            if following in _ESCAPES:
                out.append(_ESCAPES[following])
                at += 2
            elif following.isdigit():
                digits = re.match(r"[0-7]{1,3}", body[at + 1 :])
                assert digits is not None
                out.append(chr(int(digits.group(), 8)))
                at += 1 + len(digits.group())
            else:
                self._fail(number, base + at + 2, f"an unknown escape `\\{following}`")
        return "".join(out)

    def _close(self) -> None:
        entry = self.entry
        if entry is None:
            return
        self.entry = None
        values, self.values, self.field = self.values, {}, None
        indexed, self.indexed = self.indexed, []
        obsolete = all(line.lstrip().startswith("#") for line in entry.lines)
        if not obsolete:
            if "msgid" not in values or "msgstr" not in values:
                missing = "msgid" if "msgid" not in values else "msgstr"
                self._fail(entry.start, 1, f"an entry without its `{missing}`")
            entry.msgid = values["msgid"]
            entry.msgctxt = values.get("msgctxt")
            entry.msgstr = values["msgstr"]
            entry.msgid_plural = values.get("msgid_plural")
            if entry.plural:
                if indexed != list(range(len(indexed))) or not indexed:
                    self._fail(
                        entry.start,
                        1,
                        "an entry with `msgid_plural` has its forms as msgstr[0], msgstr[1], … "
                        "in order",
                    )
                entry.forms = [values["msgstr"], *(values[f"msgstr[{n}]"] for n in indexed[1:])]
            elif any(indexed):
                self._fail(entry.start, 1, "`msgstr[n]` in an entry without `msgid_plural`")
            if not entry.is_header:
                key = entry.msgid
                if entry.msgctxt is not None:
                    key = f"{entry.msgctxt}{CONTEXT_SEPARATOR}{key}"
                first = self.seen.get(key)
                if first is not None:
                    raise LocaleFileError(
                        error(
                            Code.LOCALE_INVALID_SYNTAX,
                            f"{self.display}:{entry.start}: the msgid {_quote(entry.msgid)} is "
                            f"defined twice (first at line {first}) — keep one; {_FIX_HINT}",
                            self.display,
                        )
                    )
                self.seen[key] = entry.start
                entry.key = key
        self.chunks.append(entry)

    def _fail(self, line: int, column: int, why: str) -> None:
        raise LocaleFileError(
            error(
                Code.LOCALE_INVALID_SYNTAX,
                f"{self.display}:{line}:{column}: not valid PO: {why} — {_FIX_HINT}",
                self.display,
            )
        )
