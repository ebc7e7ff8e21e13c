"""gettext PO files (`.po`, as Lingui, gettext and Crowdin write them): read strictly, edited
entry by entry, every byte of what no edit touched kept.

An entry's key is its `msgid` (with a `msgctxt`, `context` + `\\x04` + `msgid`, gettext's own
spelling of a context key); keys are flat strings, never split at dots. Its value is its
`msgstr`: an entry whose `msgstr` is empty is not translated, so the locale lacks that key. A
`#, fuzzy` entry is a translation marked for review (read as a structured leaf with
`needsReview`, written back as the flag). The header entry (`msgid ""`) is no key; a new file
made for a target copies the source's header with `Language` set to the target and
`Plural-Forms` from CLDR. Obsolete entries (`#~`) are no keys and are kept as they are.

Entries with a plural (`msgid_plural`, `msgstr[n]`) are read (their value is the first form)
but not written: an edit that would change one is refused (`ProblemError`,
`Code.LOCALE_NOT_EDITABLE`) and nothing is written. Lingui writes plurals as ICU inside one
`msgid`, which is an ordinary entry.

Editing replaces only the `msgstr` lines (and the flags line) of the entries it changes,
removes an entry with its comments, and adds new entries after the entry that the source's
order puts before them; what is written must read back as exactly the edited entries (checked
before writing).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Sequence
from pathlib import Path

import msgspec

from i18nprune.envelope import Code, ProblemError, error
from i18nprune.locales.jsondoc import JsonStyle, LocaleDocument
from i18nprune.locales.jsonfile import LocaleFileError, decode_text, read_file_bytes
from i18nprune.locales.keyroot import KeyRoot
from i18nprune.locales.leaves import NEEDS_REVIEW, is_structured_leaf

CONTEXT_SEPARATOR = "\x04"
"""Between an entry's `msgctxt` and `msgid` in its key (gettext's own separator)."""

_FIX_HINT = "fix the file; it will not be modified"
_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)[ \t]+(\".*)$")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b",
            "f": "\f", "v": "\v"}  # fmt: skip
_UNESCAPES = {value: f"\\{key}" for key, value in _ESCAPES.items()}


class PoStyle(msgspec.Struct, frozen=True):
    """What a new PO file is made of: the header of the file it is made after, and the
    target's language."""

    header: str = ""
    """The source's header text (the `msgstr` of its `msgid ""` entry), if any."""
    language: str | None = None
    newline: str = "\n"


class _Entry:
    """One entry of a PO file: its lines as written, and what they say."""

    __slots__ = ("fuzzy", "key", "lines", "msgctxt", "msgid", "msgstr", "plural", "start")

    def __init__(self, lines: list[str], start: int) -> None:
        self.lines = lines
        self.start = start
        """The 1-based line of the entry's first line in the file as loaded."""
        self.key: str | None = None
        self.msgctxt: str | None = None
        self.msgid = ""
        self.msgstr = ""
        self.plural = False
        self.fuzzy = False

    @property
    def is_header(self) -> bool:
        return self.msgid == "" and self.msgctxt is None


class _Parsed(msgspec.Struct):
    chunks: list[object]
    """The file in order: text between entries (`str`) and entries (`_Entry`)."""
    newline: str
    byte_order_mark: bool


def read_po_file(path: Path, display_path: str) -> dict[str, object]:
    """The translated entries of the PO file at `path`: key → `msgstr`, or a structured leaf
    `{"value": msgstr, "needsReview": true}` for a fuzzy entry.

    Raises `LocaleFileError`: `Code.LOCALE_UNREADABLE` when the file cannot be read,
    `Code.LOCALE_INVALID_SYNTAX` for invalid UTF-8, a line that is no PO, or a key defined
    twice (both lines named).
    """
    return _leaves(_parse(read_file_bytes(path, display_path), display_path))


def parse_po_text(text: str, display_path: str) -> dict[str, object]:
    """The translated entries of PO `text` (an editor's buffer), raising as `read_po_file`."""
    return _leaves(_parse(text.encode("utf-8", "surrogatepass"), display_path))


def po_positions(text: str) -> dict[str, tuple[int, int]]:
    """The 1-based line and column of each translated key's `msgid` line in PO `text`; empty
    when the text does not parse."""
    try:
        parsed = _parse(text.encode("utf-8", "surrogatepass"), "")
    except LocaleFileError:
        return {}
    found: dict[str, tuple[int, int]] = {}
    for entry in _entries(parsed):
        if entry.key is not None and entry.msgstr:
            offset = next((i for i, line in enumerate(entry.lines) if line.startswith("msgid")), 0)
            found.setdefault(entry.key, (entry.start + offset, 1))
    return found


def _leaves(parsed: _Parsed) -> dict[str, object]:
    tree: dict[str, object] = {}
    for entry in _entries(parsed):
        if entry.key is not None and entry.msgstr:
            tree[entry.key] = _value(entry)
    return tree


def _value(entry: _Entry) -> object:
    return {"value": entry.msgstr, NEEDS_REVIEW: True} if entry.fuzzy else entry.msgstr


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
        self._by_key = {entry.key: entry for entry in _entries(parsed) if entry.key is not None}
        self._header = header
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
        parsed = _parse(raw, display_path)
        header = next((e.msgstr for e in _entries(parsed) if e.is_header), "")
        document = cls(path, parsed, raw, header)
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
            entry.lines = _render_entry(None, "", header, False, chosen.newline)
            chunks.append(entry)
        parsed = _Parsed(chunks=chunks, newline=chosen.newline, byte_order_mark=False)
        return cls(path, parsed, None, header)

    def counterpart_style(self, locale_name: str) -> PoStyle:
        """The style of the file of locale `locale_name` made from this one."""
        return PoStyle(self._header, locale_name, self._newline)

    def get(self, path: str) -> object | None:
        entry = self._by_key.get(path)
        return _value(entry) if entry is not None and entry.msgstr else None

    def has(self, path: str) -> bool:
        entry = self._by_key.get(path)
        return entry is not None and bool(entry.msgstr)

    def paths(self) -> list[str]:
        return [key for key, entry in self._by_key.items() if entry.msgstr]

    def reaches(self, path: str) -> bool:
        return bool(path)

    def set(self, path: str, value: object, *, order: Sequence[str] | None = None) -> bool:
        """Make `value` the translation of key `path` (a string, or a structured leaf whose
        `needsReview` becomes the fuzzy flag); True when the file had no translation there.

        Raises `ValueError` for the empty key or a value that is no text, and `ProblemError`
        (`Code.LOCALE_NOT_EDITABLE`) for an entry with plural forms.
        """
        if not path:
            raise ValueError("the document root is not a leaf path")
        text, fuzzy = _text_of(value)
        entry = self._by_key.get(path)
        if entry is None:
            self._add_entry(path, text, fuzzy, order)
            self._edited = True
            return True
        if entry.msgstr == text and entry.fuzzy == fuzzy:
            return False
        if entry.plural:
            self._refuse(entry, path)
        was_translated = bool(entry.msgstr)
        entry.lines = _replace_msgstr(entry.lines, text, self._newline)
        entry.lines = _with_fuzzy(entry.lines, fuzzy, self._newline)
        entry.msgstr, entry.fuzzy = text, fuzzy
        self._edited = True
        return not was_translated

    def set_many(
        self, leaves: Sequence[tuple[str, object]], *, order: Sequence[str] | None = None
    ) -> int:
        return sum(self.set(path, value, order=order) for path, value in leaves)

    def delete(self, path: str) -> bool:
        """Remove the entry of key `path` with its comments; False when it has no translation
        here. Raises `ProblemError` for an entry with plural forms."""
        entry = self._by_key.get(path)
        if entry is None or not entry.msgstr:
            return False
        if entry.plural:
            self._refuse(entry, path)
        at = next(i for i, chunk in enumerate(self._chunks) if chunk is entry)
        del self._chunks[at]
        # the blank line that separated it from the entry before goes with it
        if at > 0 and isinstance(self._chunks[at - 1], str):
            del self._chunks[at - 1]
        elif at < len(self._chunks) and isinstance(self._chunks[at], str):
            del self._chunks[at]
        del self._by_key[path]
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
        expected = {key: _value(e) for key, e in self._by_key.items() if e.msgstr}
        if _leaves(_parse(encoded, self.display_path)) != expected:
            raise ProblemError(
                error(
                    Code.LOCALE_WRITE_FAILED,
                    f"{self.display_path}: the PO text written would not read back as the "
                    "edited entries — the file was not changed; please report this with the file",
                    self.display_path,
                )
            )
        return codecs.BOM_UTF8 + encoded if self._byte_order_mark else encoded

    def _add_entry(self, key: str, text: str, fuzzy: bool, order: Sequence[str] | None) -> None:
        context, _, msgid = key.rpartition(CONTEXT_SEPARATOR)
        entry = _Entry(_render_entry(context or None, msgid, text, fuzzy, self._newline), 0)
        entry.key, entry.msgid, entry.msgstr, entry.fuzzy = key, msgid, text, fuzzy
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
        `key` in `order` that the file has, else the nearest after it; else none (the end)."""
        if not order:
            return None, True
        if self._key_positions is None or self._key_positions[0] != id(order):
            self._key_positions = (id(order), {path: i for i, path in enumerate(order)})
        positions = self._key_positions[1]
        position = positions.get(key)
        if position is None:
            return None, True
        for index in range(position - 1, -1, -1):
            entry = self._by_key.get(order[index])
            if entry is not None:
                return entry, True
        for index in range(position + 1, len(order)):
            entry = self._by_key.get(order[index])
            if entry is not None:
                return entry, False
        return None, True

    def _refuse(self, entry: _Entry, path: str) -> None:
        raise ProblemError(
            error(
                Code.LOCALE_NOT_EDITABLE,
                f"{self.display_path}:{entry.start}: `{path}` has plural forms (msgid_plural), "
                "which i18nprune does not edit yet — translate it in a PO editor; the file was "
                "not changed",
                self.display_path,
            )
        )


def _text_of(value: object) -> tuple[str, bool]:
    if isinstance(value, str):
        return value, False
    if is_structured_leaf(value):
        assert isinstance(value, dict)
        return str(value["value"]), value.get(NEEDS_REVIEW) is True
    raise ValueError(f"a PO translation is text, not {type(value).__name__}")


def _target_header(source: str, language: str | None) -> str:
    """The source's header with `Language` set to `language` and `Plural-Forms` from CLDR."""
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
    context: str | None, msgid: str, msgstr: str, fuzzy: bool, newline: str
) -> list[str]:
    lines = [f"#, fuzzy{newline}"] if fuzzy else []
    if context is not None:
        lines += _string_lines("msgctxt", context, newline)
    lines += _string_lines("msgid", msgid, newline)
    lines += _string_lines("msgstr", msgstr, newline)
    return lines


def _replace_msgstr(lines: list[str], text: str, newline: str) -> list[str]:
    start = next(i for i, line in enumerate(lines) if line.startswith("msgstr"))
    end = start + 1
    while end < len(lines) and lines[end].lstrip().startswith('"'):
        end += 1
    ending = lines[end - 1][len(lines[end - 1].rstrip("\r\n")) :] or newline
    return [*lines[:start], *_string_lines("msgstr", text, ending), *lines[end:]]


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


def _parse(raw: bytes, display_path: str) -> _Parsed:
    text = decode_text(raw, display_path, Code.LOCALE_INVALID_SYNTAX)
    first_break = text.find("\n")
    newline = "\r\n" if first_break > 0 and text[first_break - 1] == "\r" else "\n"
    return _Parsed(
        chunks=_Reader(display_path).read(_lines(text)),
        newline=newline,
        byte_order_mark=raw.startswith(codecs.BOM_UTF8),
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
        if keyword == "msgid_plural":
            self.entry.plural = True
        if keyword.startswith("msgstr"):
            if index not in (None, "0"):
                self.field = f"msgstr[{index}]"
                self.values[self.field] = self._string(rest, number, base)
                return
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
        obsolete = all(line.lstrip().startswith("#") for line in entry.lines)
        if not obsolete:
            if "msgid" not in values or "msgstr" not in values:
                missing = "msgid" if "msgid" not in values else "msgstr"
                self._fail(entry.start, 1, f"an entry without its `{missing}`")
            entry.msgid = values["msgid"]
            entry.msgctxt = values.get("msgctxt")
            entry.msgstr = values["msgstr"]
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
