"""Locale YAML files: read strictly, edited by leaf path, written back in their own style.

A YAML file is read twice over, from one parse: as the plain tree every reader sees (strings,
numbers, booleans, null, objects, arrays — the same shapes as a JSON locale file), and as
ruamel.yaml's round-trip tree, which remembers comments, key order, quoting, block styles,
anchors and aliases. Edits go to the plain tree through `LocaleDocument`'s logic (the same
placing rules as JSON); writing carries the plain tree's changes into the round-trip tree —
only the keys that were added, changed or removed — and lets ruamel lay it out with the file's
indentation (docs/locale-files.md#yaml, docs/decisions.md "YAML locale files").

The YAML read is YAML 1.2 (`yes`, `on` are text), unless the file declares `%YAML 1.1`. A
new text that a YAML 1.1 reader (Ruby's Psych, PyYAML) would read as something else
(`yes`, `off`, `1_000`) is written quoted, so both read it as text.

Rails puts a file's keys under its locale (`en:` at the top of `en.yml`): a file whose only
top-level key is the locale its name or folder carries has its keys start there. Readers never
see that key, and a new target file made from such a source gets its own locale's key.

Guarantees: a file that does not parse, has a key twice, a value YAML cannot share with JSON
(a timestamp, a binary, a tagged value) or a top level that is not a mapping raises
`LocaleFileError` and is never written. A write that would change a node shared through an
anchor (`&base` … `*base`, `<<: *base`) is refused (`ProblemError`), never applied to every
place that shares it. What is written always reads back as exactly the edited tree.
"""

from __future__ import annotations

import codecs
import difflib
import io
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import msgspec

from i18nprune.envelope import Code, NotEditableError, ProblemError, error
from i18nprune.locale_codes import looks_like_locale_code, normalize_code
from i18nprune.locales.jsondoc import JsonStyle, LocaleDocument, stores_flat_keys
from i18nprune.locales.jsonfile import LocaleFileError, decode_text, read_file_bytes
from i18nprune.locales.keyroot import KeyRoot, keys_object

if TYPE_CHECKING:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

_FIX_HINT = "fix the file; it will not be modified"

# Plain scalars a YAML 1.1 reader takes for a boolean, null or number: written quoted.
_YAML_11_NOT_TEXT = re.compile(
    r"(?i:y|n|yes|no|on|off|true|false|null|~)"
    r"|[-+]?(?:0b[01_]+|0x[0-9a-fA-F_]+|0[0-7_]+|[0-9][0-9_]*(?::[0-5]?[0-9])+"
    r"|[0-9_]*\.?[0-9_]+(?:[eE][-+]?[0-9]+)?|\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))"
)
# Characters YAML reads as line breaks or cannot hold unescaped: only double quotes keep them.
_NEEDS_ESCAPES = re.compile("[\x85\u2028\u2029\x00-\x08\x0b-\x1f\x7f-\x84\x86-\x9f\ufeff]")
# What a `|` or `>` block cannot spell back: spaces or tabs at a line's end or start, a text
# that is empty or ends in several line breaks.
_UNSAFE_IN_BLOCK = re.compile(r"[ \t]\n|[ \t]\Z|\n[ \t]|\A[ \t\n]|\A\Z|\n\n\Z")
# The indentation of the first nested mapping, and of the first sequence item.
_KEY_LINE = re.compile(r"^( *)(?:[^\s#-][^:#]*|\"[^\"]*\"|'[^']*'):[ \t]*(?:#.*)?$")
_INDENTED = re.compile(r"^( *)(- )?\S")


class YamlStyle(msgspec.Struct, frozen=True):
    """How a locale YAML file is laid out; detected when it is loaded, kept when it is written."""

    indent: int = 2
    """Spaces per mapping level."""
    dash_offset: int | None = None
    """Spaces between a key's indentation and the `-` of its sequence items; None when the
    file has no sequence to show it (then as in the file a target is made from, else 0)."""
    newline: str = "\n"
    byte_order_mark: bool = False
    explicit_start: bool = False
    """Whether the document starts with `---` (a new file made from it does too)."""
    quote: str | None = None
    """`"` or `'` when most texts of the file are quoted that way (new texts are too), else None
    (plain where YAML allows)."""
    locale_root: str | None = None
    """The top-level locale key the file's keys sit under (`en`, Rails' layout), else None."""
    flat_keys: bool = False
    """New keys are written as flat dotted keys (see `JsonStyle.flat_keys`)."""

    def model(self) -> JsonStyle:
        """The placing rules the plain tree is edited by."""
        return JsonStyle(
            indent=" " * self.indent,
            newline=self.newline,
            final_newline=True,
            flat_keys=self.flat_keys,
            byte_order_mark=self.byte_order_mark,
        )


class _Parsed(msgspec.Struct):
    rt: Any
    """The round-trip tree (a `CommentedMap`), None for a file that holds no document."""
    model: dict[str, object]
    """The plain tree of the file below its locale root."""
    style: YamlStyle
    preamble: str
    """What is written before the document, verbatim: a file's lines up to its `---` marker
    (comments, `%YAML` directives), or all the text of a file that holds no document
    (comments only)."""


def read_yaml_file(path: Path, display_path: str) -> dict[str, object]:
    """The plain tree of the locale YAML file at `path`, below its locale root (see the module).

    Raises `LocaleFileError`: `Code.LOCALE_UNREADABLE` when the file cannot be read,
    `Code.LOCALE_INVALID_SYNTAX` for invalid UTF-8 or YAML, a key spelled twice, or a value
    JSON cannot hold (message `file:line:column: why — what to do`), `Code.LOCALE_NOT_OBJECT`
    when the top level is not a mapping.
    """
    raw = read_file_bytes(path, display_path)
    quick = _read_quickly(raw, path)
    return quick if quick is not None else _parse(raw, display_path, path).model


def parse_yaml_text(text: str, display_path: str, path: Path) -> dict[str, object]:
    """The plain tree of YAML `text` (an editor's unsaved buffer of the file at `path`),
    raising as `read_yaml_file` does."""
    return _parse(text.encode("utf-8", "surrogatepass"), display_path, path).model


def yaml_positions(text: str, path: Path) -> dict[str, tuple[int, int]]:
    """The 1-based line and column where each path of the YAML `text` (the file at `path`) is
    spelled, below its locale root: a key's own position, an array item's value. Empty when the
    text does not parse."""
    try:
        parsed = _parse(text.encode("utf-8", "surrogatepass"), str(path), path)
    except LocaleFileError:
        return {}
    found: dict[str, tuple[int, int]] = {}
    if parsed.rt is not None:
        top = parsed.rt[parsed.style.locale_root] if parsed.style.locale_root else parsed.rt
        _positions(top, "", found)
    return found


class YamlDocument(LocaleDocument):
    """A locale YAML file held as a plain tree for editing and a round-trip tree for writing.

    Editing is `LocaleDocument`'s (paths, placing by `order`, flat or nested new keys,
    `key_root`); `render` writes YAML in the file's style. Make one with `load` or `new`.
    """

    def __init__(
        self,
        path: Path,
        style: YamlStyle,
        parsed: _Parsed | None,
        original: bytes | None,
        *,
        literal_keys: bool = False,
        key_root: KeyRoot = (),
    ) -> None:
        super().__init__(
            path,
            style.model(),
            parsed.model if parsed is not None else {},
            original,
            literal_keys=literal_keys,
            key_root=key_root,
        )
        self.yaml_style = style
        self.display_path = path.name
        """How messages name the file (`load`'s `display_path`)."""
        self._rt = parsed.rt if parsed is not None else None
        self._preamble = parsed.preamble if parsed is not None else ""
        self._baseline: str | None = None

    @classmethod
    def load(
        cls,
        path: Path,
        display_path: str,
        *,
        literal_keys: bool = False,
        key_root: KeyRoot = (),
    ) -> YamlDocument:
        """The document in the YAML file at `path`, with its style detected. Raises
        `LocaleFileError` as `read_yaml_file` does, and for a `key_root` that holds no
        mapping; such a file is never written."""
        raw = read_file_bytes(path, display_path)
        parsed = _parse(raw, display_path, path)
        keys_object(parsed.model, key_root, display_path)
        document = cls(
            path, parsed.style, parsed, raw, literal_keys=literal_keys, key_root=key_root
        )
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
    ) -> YamlDocument:
        """An empty document for a YAML file that does not exist yet, written in `style` (a
        `YamlStyle`; by default two-space indentation, plain texts, no locale root)."""
        chosen = style if isinstance(style, YamlStyle) else YamlStyle()
        return cls(path, chosen, None, None, literal_keys=literal_keys, key_root=key_root)

    def counterpart_style(self, locale_name: str) -> YamlStyle:
        """The style of the file of locale `locale_name` made from this one: the same layout,
        under that locale's key when this file sits under its own."""
        style = self.yaml_style
        if style.locale_root is None:
            return style
        return msgspec.structs.replace(style, locale_root=locale_name)

    def adopt(self, style: object) -> None:
        """Take from `style` (a `YamlStyle`, of the file this one is a counterpart of) what this
        file does not show: all of it when the file holds no document yet (empty, or only
        comments, which stay first) — so a target created empty by hand is written as a new
        one would be, under its locale's key when the source sits under its own — else the
        layout of sequences when the file has none."""
        if not isinstance(style, YamlStyle):
            return
        if self._rt is None and not self._document:
            self.yaml_style = style
            self.style = style.model()
        elif self.yaml_style.dash_offset is None:
            self.yaml_style = msgspec.structs.replace(
                self.yaml_style, dash_offset=style.dash_offset
            )

    def _reads_back(self, text: str) -> bool:
        return _reads_back_as(text, self.display_path, self.path, self._document)

    def render(self) -> bytes:
        """The file's bytes: as loaded until the document is edited; after an edit, the
        round-trip tree with the edits carried into it, laid out in the file's style (comments,
        order, quoting and anchors of everything else kept).

        Raises `ProblemError` (`Code.LOCALE_NOT_EDITABLE`) when an edit falls in a node that
        an anchor shares, and (`Code.LOCALE_WRITE_FAILED`) if the text would not read back as
        the edited tree; nothing is written then.
        """
        if not self._edited and self._saved is not None:
            return self._saved
        self._tree.settle()
        from ruamel.yaml.comments import CommentedMap

        style = self.yaml_style
        if self._baseline is None and self._rt is not None:
            # the file as ruamel lays it out unedited: what the edits are measured against
            self._baseline = self._preamble + _dump(
                self._rt, style, explicit_start=not self._preamble
            )
        if self._rt is None:
            self._rt = CommentedMap()
            if style.locale_root is not None:
                self._rt[style.locale_root] = CommentedMap()
        top = self._rt[style.locale_root] if style.locale_root is not None else self._rt
        display = self.display_path
        _Sync(style, display).mapping(top, self._document, "")
        text = self._preamble + _dump(self._rt, style, explicit_start=not self._preamble)
        if self._baseline is not None and self._saved is not None:
            kept = _untouched_lines_kept(self._saved, self._baseline, text)
            if self._reads_back(kept):
                text = kept
        if not self._reads_back(text):
            raise ProblemError(
                error(
                    Code.LOCALE_WRITE_FAILED,
                    f"{display}: the YAML written would not read back as the edited keys — "
                    "the file was not changed; please report this with the file",
                    display,
                )
            )
        if style.newline != "\n":
            text = text.replace("\n", style.newline)
        encoded = text.encode("utf-8")
        return codecs.BOM_UTF8 + encoded if style.byte_order_mark else encoded


def _untouched_lines_kept(saved: bytes, baseline: str, edited: str) -> str:
    """`edited` (ruamel's layout of the edited tree) with every line the edits did not touch
    taken from the file as it was: ruamel lays out some lines its own way (a trailing space
    after a plain text, the indentation of a continued line, how a character is escaped), and
    only the lines an edit changes should change. Lines are matched edited → `baseline` (the
    unedited tree in ruamel's layout) → the file; where a run of untouched lines cannot be
    matched to the file exactly, ruamel's lines stay."""
    body = saved[len(codecs.BOM_UTF8) :] if saved.startswith(codecs.BOM_UTF8) else saved
    original = body.decode("utf-8").replace("\r\n", "\n").split("\n")
    before, after = baseline.split("\n"), edited.split("\n")
    to_file = difflib.SequenceMatcher(None, original, before, autojunk=False).get_opcodes()

    def in_file(line: int) -> int | None:
        """The line of the file at the boundary before baseline line `line`, if exact."""
        for tag, i1, i2, j1, j2 in to_file:
            if j1 <= line <= j2:
                if tag == "equal":
                    return i1 + line - j1
                if line == j1:
                    return i1
                if line == j2:
                    return i2
        return None

    out: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(
        None, before, after, autojunk=False
    ).get_opcodes():
        if tag != "equal":
            out += after[j1:j2]
            continue
        start, end = in_file(i1), in_file(i2)
        out += original[start:end] if start is not None and end is not None else before[i1:i2]
    return "\n".join(out)


def _reads_back_as(text: str, display: str, path: Path, tree: dict[str, object]) -> bool:
    """Whether YAML `text` (of the file `path`) reads as exactly `tree`."""
    raw = text.encode("utf-8")
    quick = _read_quickly(raw, path)
    try:
        return (quick if quick is not None else _parse(raw, display, path).model) == tree
    except LocaleFileError:
        return False


class _Sync:
    """Carries a plain tree's edits into a round-trip tree, in place."""

    def __init__(self, style: YamlStyle, display: str) -> None:
        self.style = style
        self.display = display

    def mapping(self, rt: CommentedMap, model: dict[str, object], path: str) -> None:
        keys = {text: key for key in rt if (text := _key_text(key)) is not None}
        own = set(rt.keys()) if not _merges(rt) else {k for k, _ in rt.non_merged_items()}
        for text, key in keys.items():
            if text not in model:
                if key not in own:
                    self._refuse(rt, _join(path, text), "comes from a merged mapping (`<<:`)")
                self._touch(rt, _join(path, text))
                del rt[key]
        for index, (text, value) in enumerate(model.items()):
            child_path = _join(path, text)
            key = keys.get(text)
            if key is None:
                self._touch(rt, child_path)
                rt.insert(index, text, self.node(value, None))
                continue
            if key not in own and not _same(rt[key], value):
                self._refuse(rt, child_path, "comes from a merged mapping (`<<:`)")
            self.update(rt, key, value, child_path)

    def sequence(self, rt: CommentedSeq, model: list[object], path: str) -> None:
        while len(rt) > len(model):
            self._touch(rt, f"{path}[{len(rt) - 1}]")
            del rt[len(rt) - 1]
        for index, value in enumerate(model):
            item_path = f"{path}[{index}]"
            if index < len(rt):
                self.update(rt, index, value, item_path)
            else:
                self._touch(rt, item_path)
                rt.append(self.node(value, None))

    def update(self, parent: Any, key: object, value: object, path: str) -> None:
        from ruamel.yaml.comments import CommentedMap, CommentedSeq

        old = parent[key]
        if isinstance(old, CommentedMap) and isinstance(value, dict):
            self.mapping(old, value, path)
        elif isinstance(old, CommentedSeq) and isinstance(value, list):
            self.sequence(old, value, path)
        elif not _same(old, value):
            self._touch(parent, path)
            if _anchor(old) is not None:
                self._refuse(old, path, f"is shared through the anchor &{_anchor(old)}")
            parent[key] = self.node(value, old)

    def node(self, value: object, like: object) -> object:
        """A round-trip node for the plain `value`, styled like the node it replaces."""
        from ruamel.yaml.comments import CommentedMap, CommentedSeq
        from ruamel.yaml.scalarstring import (
            DoubleQuotedScalarString,
            ScalarString,
            SingleQuotedScalarString,
        )

        if isinstance(value, dict):
            mapping = CommentedMap()
            for key, child in value.items():
                mapping[key] = self.node(child, None)
            return mapping
        if isinstance(value, list):
            return CommentedSeq([self.node(child, None) for child in value])
        if not isinstance(value, str):
            return value
        if _NEEDS_ESCAPES.search(value):
            return DoubleQuotedScalarString(value)  # the one style that escapes everything
        if isinstance(like, ScalarString):
            block = not isinstance(like, DoubleQuotedScalarString | SingleQuotedScalarString)
            if not (block and _UNSAFE_IN_BLOCK.search(value)):
                return type(like)(value)
            return DoubleQuotedScalarString(value)
        if self.style.quote == '"':
            return DoubleQuotedScalarString(value)
        if self.style.quote == "'" and "\n" not in value:
            return SingleQuotedScalarString(value)
        if _YAML_11_NOT_TEXT.fullmatch(value):
            return DoubleQuotedScalarString(value)
        return value

    def _touch(self, node: Any, path: str) -> None:
        anchor = _anchor(node)
        if anchor is not None:
            self._refuse(node, path, f"lies in a mapping shared through the anchor &{anchor}")

    def _refuse(self, node: Any, path: str, why: str) -> None:
        line = getattr(getattr(node, "lc", None), "line", None)
        where = f"{self.display}:{line + 1}" if isinstance(line, int) else self.display
        sentence = (
            f"{where}: `{path}` {why}, which i18nprune does not edit (every place that "
            "shares it would change) — make the change by hand, or write the keys out "
            "without the alias"
        )
        raise NotEditableError(
            error(Code.LOCALE_NOT_EDITABLE, f"{sentence}; the file was not changed", self.display),
            key=path,
            why=sentence,
        )


def _dump(rt: object, style: YamlStyle, *, explicit_start: bool) -> str:
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 1 << 16  # never fold a long line the file did not fold
    yaml.allow_unicode = True
    dash_offset = style.dash_offset or 0
    yaml.indent(mapping=style.indent, sequence=dash_offset + 2, offset=dash_offset)
    yaml.explicit_start = style.explicit_start and explicit_start
    out = io.StringIO()
    yaml.dump(rt, out)
    return out.getvalue()


class _NotPlain(Exception):
    """A value or key the plain tree cannot hold: the round-trip parse names its place."""


def _read_quickly(raw: bytes, path: Path) -> dict[str, object] | None:
    """The plain tree below the locale root, read by ruamel's C parser with the same YAML 1.2
    rules (several times faster than the round-trip parse, which `_parse` needs for positions
    and writing); None when the file has a fault, which `_parse` then reads and reports."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    body = raw[len(codecs.BOM_UTF8) :] if raw.startswith(codecs.BOM_UTF8) else raw
    try:
        data = YAML(typ="safe", pure=False).load(body.decode("utf-8"))
        if data is None:
            return {}
        if not isinstance(data, dict):
            return None
        root = _locale_root_key(data, path)
        return _checked_mapping(data[root] if root is not None else data)
    except (UnicodeDecodeError, YAMLError, _NotPlain):
        return None


def _checked_mapping(node: dict[object, object]) -> dict[str, object]:
    plain: dict[str, object] = {}
    for key, value in node.items():
        text = _key_text(key)
        if text is None or text in plain:
            raise _NotPlain
        plain[text] = _checked(value)
    return plain


def _checked(value: object) -> object:
    if value is None or isinstance(value, str | bool | int):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return value
    if isinstance(value, dict):
        return _checked_mapping(value)
    if isinstance(value, list):
        return [_checked(item) for item in value]
    raise _NotPlain


def _parse(raw: bytes, display_path: str, path: Path) -> _Parsed:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    byte_order_mark = raw.startswith(codecs.BOM_UTF8)
    text = decode_text(raw, display_path, Code.LOCALE_INVALID_SYNTAX)
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    try:
        rt = yaml.load(text)
    except MarkedYAMLError as exc:
        raise LocaleFileError(_syntax_error(exc, display_path)) from exc
    except YAMLError as exc:
        message = f"{display_path}: not valid YAML ({exc}) — {_FIX_HINT}"
        raise LocaleFileError(error(Code.LOCALE_INVALID_SYNTAX, message, display_path)) from exc
    style = _detect_style(text, rt, byte_order_mark, path)
    if rt is None:
        return _Parsed(rt=None, model={}, style=style, preamble=text if text.strip() else "")
    from ruamel.yaml.comments import CommentedMap

    if not isinstance(rt, CommentedMap):
        kind = "a list" if isinstance(rt, list) else "a single value"
        raise LocaleFileError(
            error(
                Code.LOCALE_NOT_OBJECT,
                f"{display_path}:1: the top level is {kind}, but a locale file must be a "
                "mapping of keys — put its content under keys; it will not be modified",
                display_path,
            )
        )
    top = rt[style.locale_root] if style.locale_root is not None else rt
    model = _plain_mapping(top, display_path)
    style = msgspec.structs.replace(style, flat_keys=stores_flat_keys(model))
    return _Parsed(rt=rt, model=model, style=style, preamble=_head(text))


def _syntax_error(exc: Any, display_path: str) -> Any:
    mark = exc.problem_mark or exc.context_mark
    where = f"{display_path}:{mark.line + 1}:{mark.column + 1}" if mark else display_path
    problem = (exc.problem or exc.context or "not valid YAML").strip()
    if type(exc).__name__ == "DuplicateKeyError":
        start = exc.context_mark
        within = f" (in the mapping that starts at line {start.line + 1})" if start else ""
        found = re.search(r'duplicate key "([^"]*)"', problem)
        named = f'the key "{found.group(1)}"' if found else "a key"
        message = f"{where}: {named} is defined twice{within} — keep one; {_FIX_HINT}"
    else:
        message = f"{where}: not valid YAML: {problem} — {_FIX_HINT}"
    return error(Code.LOCALE_INVALID_SYNTAX, message, display_path)


def _plain_mapping(node: CommentedMap, display_path: str) -> dict[str, object]:
    plain: dict[str, object] = {}
    for key, value in node.items():
        text = _key_text(key)
        if text is None:
            line, column = _key_position(node, key)
            raise LocaleFileError(
                error(
                    Code.LOCALE_INVALID_SYNTAX,
                    f"{display_path}:{line}:{column}: the key {key!r} is not text — quote it "
                    f'("{key}"); {_FIX_HINT}',
                    display_path,
                )
            )
        if text in plain:
            line, column = _key_position(node, key)
            raise LocaleFileError(
                error(
                    Code.LOCALE_INVALID_SYNTAX,
                    f'{display_path}:{line}:{column}: the key "{text}" is defined twice — keep '
                    f"one; {_FIX_HINT}",
                    display_path,
                )
            )
        plain[text] = _plain(value, display_path, node, key)
    return plain


def _plain(value: object, display_path: str, parent: Any, key: object) -> object:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(value, CommentedMap):
        return _plain_mapping(value, display_path)
    if isinstance(value, CommentedSeq):
        return [_plain(item, display_path, value, index) for index, item in enumerate(value)]
    if value is None or isinstance(value, str):
        return None if value is None else str(value)
    if isinstance(value, bool) or type(value).__name__ == "ScalarBoolean":
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float) and math.isfinite(value):
        return float(value)
    line, column = _value_position(parent, key)
    kind = type(value).__name__
    raise LocaleFileError(
        error(
            Code.LOCALE_INVALID_SYNTAX,
            f"{display_path}:{line}:{column}: a value of YAML type {kind} is no text, number or "
            f"boolean a locale can hold — quote it to make it text; {_FIX_HINT}",
            display_path,
        )
    )


def _key_text(key: object) -> str | None:
    """A mapping key as the path spells it: text as it is, an integer (`404:`) in decimal;
    None for any other key (a boolean, null, a float, a sequence)."""
    if isinstance(key, str):
        return str(key)
    if isinstance(key, int) and not isinstance(key, bool):
        return str(int(key))
    return None


def _key_position(node: Any, key: object) -> tuple[int, int]:
    try:
        line, column = node.lc.key(key)
    except (AttributeError, KeyError, TypeError):
        return _node_line(node), 1
    return line + 1, column + 1


def _value_position(node: Any, key: object) -> tuple[int, int]:
    try:
        if isinstance(key, int) and isinstance(node, list):
            line, column = cast(Any, node).lc.item(key)
        else:
            line, column = node.lc.value(key)
    except (AttributeError, KeyError, TypeError, IndexError):
        return _node_line(node), 1
    return line + 1, column + 1


def _node_line(node: Any) -> int:
    line = getattr(getattr(node, "lc", None), "line", None)
    return line + 1 if isinstance(line, int) else 1


def _positions(node: Any, path: str, found: dict[str, tuple[int, int]]) -> None:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(node, CommentedMap):
        for key, value in node.items():
            text = _key_text(key)
            if text is None:
                continue
            child = _join(path, text)
            found.setdefault(child, _key_position(node, key))
            _positions(value, child, found)
    elif isinstance(node, CommentedSeq):
        for index, value in enumerate(node):
            child = f"{path}[{index}]"
            found.setdefault(child, _value_position(node, index))
            _positions(value, child, found)


def _detect_style(text: str, rt: object, byte_order_mark: bool, path: Path) -> YamlStyle:
    first_break = text.find("\n")
    crlf = first_break > 0 and text[first_break - 1] == "\r"
    indent, dash_offset = _indentation(text.replace("\r\n", "\n").split("\n"))
    return YamlStyle(
        indent=indent,
        dash_offset=dash_offset,
        newline="\r\n" if crlf else "\n",
        byte_order_mark=byte_order_mark,
        explicit_start=any(line.rstrip() == "---" for line in _leading_lines(text)),
        quote=_dominant_quote(rt),
        locale_root=_locale_root(rt, path),
    )


def _head(text: str) -> str:
    """The text up to and including the `---` line that starts the document, when one comes
    before any content (ruamel writes neither the comments nor the directives above it)."""
    end = 0
    for line in _leading_lines(text):
        end += len(line) + 1
        if line.rstrip("\r").rstrip() == "---":
            return text[:end]
    return ""


def _leading_lines(text: str) -> Iterator[str]:
    """The lines before the first that holds YAML content (comments, directives, `---`)."""
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped and not stripped.startswith(("#", "%", "---")):
            return
        yield line


def _indentation(lines: list[str]) -> tuple[int, int | None]:
    """(spaces per mapping level, offset of a sequence's `-` under its key), from the first
    key line with a nested block under it; 2 and None when the file shows none."""
    indent: int | None = None
    dash: int | None = None
    for number, line in enumerate(lines):
        opened = _KEY_LINE.match(line)
        if opened is None:
            continue
        for following in lines[number + 1 :]:
            if not following.strip() or following.lstrip().startswith("#"):
                continue
            child = _INDENTED.match(following)
            if child is None:
                break
            step = len(child.group(1)) - len(opened.group(1))
            if child.group(2):
                if dash is None and step >= 0:
                    dash = step
            elif indent is None and step > 0:
                indent = step
            break
        if indent is not None and dash is not None:
            break
    return indent or 2, dash


def _dominant_quote(rt: object) -> str | None:
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString, SingleQuotedScalarString

    counts = {'"': 0, "'": 0, None: 0}
    pending = [rt]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)
        elif isinstance(node, DoubleQuotedScalarString):
            counts['"'] += 1
        elif isinstance(node, SingleQuotedScalarString):
            counts["'"] += 1
        elif isinstance(node, str):
            counts[None] += 1
    best = max(counts, key=lambda mark: counts[mark])
    return best if counts[best] > counts[None] else None


def _locale_root(rt: object, path: Path) -> str | None:
    if _merges(rt):
        return None
    return _locale_root_key(rt, path)


def _locale_root_key(top: object, path: Path) -> str | None:
    """The only top-level key of `top` when it is the locale the file's name or one of its
    three nearest folders carries, and holds a mapping (Rails' `en:`), else None."""
    if not isinstance(top, dict) or len(top) != 1:
        return None
    key = next(iter(top))
    if not isinstance(key, str) or not looks_like_locale_code(key):
        return None
    if not isinstance(top[key], dict):
        return None
    names = [path.name.split(".")[0], *(parent.name for parent in path.parents[:3])]
    carried = {normalize_code(name) for name in names if name and looks_like_locale_code(name)}
    return str(key) if normalize_code(key) in carried else None


def _merges(node: Any) -> bool:
    return bool(getattr(node, "merge", None))


def _anchor(node: object) -> str | None:
    anchor = getattr(node, "anchor", None)
    value = getattr(anchor, "value", None)
    return value if isinstance(value, str) else None


def _same(old: object, value: object) -> bool:
    """Whether the round-trip node `old` holds the plain `value` (type and value)."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(old, CommentedMap | CommentedSeq) or isinstance(value, dict | list):
        return False
    if old is None or value is None:
        return old is value
    if isinstance(value, str):
        return isinstance(old, str) and str(old) == value
    old_is_boolean = type(old).__name__ in ("bool", "ScalarBoolean")
    if isinstance(value, bool):
        return old_is_boolean and bool(old) == value
    return not isinstance(old, str) and not old_is_boolean and old == value


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key
