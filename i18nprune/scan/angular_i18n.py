"""Angular's built-in i18n messages in a template: elements marked `i18n` and attributes marked
`i18n-<name>`, each message's XLIFF id derived as Angular's extractor writes it (the custom
`@@id`, else `angular_ids.message_id` of the `$localize` text the compiler makes of it), and the
ICU messages (`{n, plural, …}`) inside them, which Angular extracts as messages of their own.

A message whose text cannot be rebuilt with certainty (control-flow blocks inside it, markup
this reader does not follow) is unread: its place is kept, its id is not guessed.
"""

from __future__ import annotations

import html
import re
from bisect import bisect_right
from typing import NamedTuple

import tree_sitter

from i18nprune.scan.angular_ids import message_id
from i18nprune.scan.callees import LOCALIZE
from i18nprune.scan.evaluate import decode_escapes
from i18nprune.syntax_tree import node_text


class AngularMessage(NamedTuple):
    """One message of a template: its id (`None` when it could not be derived), where it
    starts (1-based line and column of its first node, as Angular's extractor locates it) and
    where its element or attribute value ends, and its source on one line."""

    id: str | None
    line: int
    column: int
    end_line: int
    end_column: int
    preview: str
    text: str | None = None
    """The message's text when it has no placeholder: the unit's source as Angular's
    extractor writes it (`missing` gives it to the source locale)."""


class Unreadable(Exception):
    """A message whose text cannot be rebuilt here with certainty."""


I18N_ATTRIBUTE = "i18n"
_ATTRIBUTE_PREFIX = "i18n-"
_VOID = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
        "keygen",
    ]
)
_TAG_NAMES = {
    "A": "LINK",
    "B": "BOLD_TEXT",
    "BR": "LINE_BREAK",
    "EM": "EMPHASISED_TEXT",
    "H1": "HEADING_LEVEL1",
    "H2": "HEADING_LEVEL2",
    "H3": "HEADING_LEVEL3",
    "H4": "HEADING_LEVEL4",
    "H5": "HEADING_LEVEL5",
    "H6": "HEADING_LEVEL6",
    "HR": "HORIZONTAL_RULE",
    "I": "ITALIC_TEXT",
    "LI": "LIST_ITEM",
    "LINK": "MEDIA_LINK",
    "OL": "ORDERED_LIST",
    "P": "PARAGRAPH",
    "Q": "QUOTATION",
    "S": "STRIKETHROUGH_TEXT",
    "SMALL": "SMALL_TEXT",
    "SUB": "SUBSTRIPT",
    "SUP": "SUPERSCRIPT",
    "TBODY": "TABLE_BODY",
    "TD": "TABLE_CELL",
    "TFOOT": "TABLE_FOOTER",
    "TH": "TABLE_HEADER_CELL",
    "THEAD": "TABLE_HEADER",
    "TR": "TABLE_ROW",
    "TT": "MONOSPACED_TEXT",
    "U": "UNDERLINED_TEXT",
    "UL": "UNORDERED_LIST",
}
"""The placeholder names Angular gives these elements' tags (others are `TAG_<NAME>`)."""
_FOREIGN = frozenset({"svg", "math"})
_KEEP_WHITESPACE = frozenset({"pre", "template", "textarea", "script", "style"})
_WS = " \f\n\r\t\v\u1680\u180e\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_BLANK = re.compile(f"[{_WS}]*")
_WS_RUN = re.compile(f"[{_WS}]{{2,}}")
_NAME = re.compile(r"[^\s/>=\"'<]+")
_ATTRIBUTE = re.compile(r"""\s*([^\s/>=\"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"'=<`]+)))?""")
_CUSTOM_PLACEHOLDER = re.compile(
    r"//[\s\S]*i18n[\s\S]*\([\s\S]*ph[\s\S]*=[\s\S]*(\"|')([\s\S]*?)\1[\s\S]*\)"
)
_I18N_MARK = re.compile(r"\si18n(?:-[\w.:-]+)?(?=[\s=/>])")
_BLOCK_START = re.compile(r"@[A-Za-z]")
_BLOCK_NAME = re.compile(r"@(else\s+if|[A-Za-z]+)\s*")
_ICU_HEAD = re.compile(r"\{\s*([^,{}]*?)\s*,\s*(\w+)\s*,")
_ICU_CASE = re.compile(r"\s*([^\s{}]+)\s*\{")


# --- the template as a tree ------------------------------------------------------------------


class _Text(NamedTuple):
    value: str
    start: int


class _Interpolation(NamedTuple):
    expression: str
    start: int


class _Element(NamedTuple):
    name: str
    attributes: list[tuple[str, str, int, int]]  # name, value, value start, value end
    children: list[_Node]
    start: int
    content: tuple[int, int]


class _Icu(NamedTuple):
    switch: str
    type: str
    cases: list[tuple[str, list[_Node]]]
    start: int
    source: str


class _Comment(NamedTuple):
    start: int


class _Block(NamedTuple):
    """A control-flow block (`@if (…) { … }`, `@let x = …;`)."""

    name: str
    parameters: list[str]
    children: list[_Node]
    start: int


_Node = _Text | _Interpolation | _Element | _Icu | _Comment | _Block


class _Parser:
    """Angular's markup, text, `{{ }}` and ICU expansions, as far as messages need them."""

    def __init__(self, source: str) -> None:
        self.source = source

    def nodes(self, position: int, end: int, closer: str | None) -> tuple[list[_Node], int]:
        """The nodes from `position` up to the close tag `</closer>` (or `}` of an ICU case
        when `closer` is `}`, or `end`); returns them and the offset after the closer."""
        source = self.source
        found: list[_Node] = []
        text_start = position
        pieces: list[str] = []

        def flush(at: int) -> None:
            nonlocal text_start
            if at > text_start:
                pieces.append(source[text_start:at])
            if pieces:
                found.extend(self._text_nodes("".join(pieces), first_start))
                pieces.clear()

        first_start = position
        while position < end:
            char = source[position]
            if char == "<":
                if source.startswith("<!--", position):
                    flush(position)
                    close = source.find("-->", position)
                    if close < 0:
                        raise Unreadable("an unclosed comment")
                    found.append(_Comment(position))
                    position = close + 3
                    text_start = first_start = position
                    continue
                if source.startswith("</", position):
                    flush(position)
                    match = _NAME.match(source, position + 2)
                    name = match.group(0) if match else ""
                    gt = source.find(">", position)
                    if closer is None or closer == "}" or name.lower() != closer.lower() or gt < 0:
                        raise Unreadable(f"an unexpected `</{name}>`")
                    return found, gt + 1
                match = _NAME.match(source, position + 1)
                if match is None:
                    position += 1
                    continue
                flush(position)
                element, position = self._element(position, match.group(0), end)
                found.append(element)
                text_start = first_start = position
                continue
            if source.startswith("{{", position):
                flush(position)
                close = source.find("}}", position + 2)
                if close < 0:
                    raise Unreadable("an unclosed `{{`")
                found.append(_Interpolation(source[position + 2 : close], position))
                position = close + 2
                text_start = first_start = position
                continue
            if char == "{":
                flush(position)
                icu, position = self._icu(position, end)
                found.append(icu)
                text_start = first_start = position
                continue
            if char == "}":
                if closer == "}":
                    flush(position)
                    return found, position + 1
                raise Unreadable("an unexpected `}`")
            if char == "@" and _BLOCK_START.match(source, position):
                flush(position)
                block, position = self._block(position, end)
                found.append(block)
                text_start = first_start = position
                continue
            position += 1
        if closer is not None:
            raise Unreadable(f"an unclosed `{closer}`")
        flush(end)
        return found, end

    def _text_nodes(self, raw: str, start: int) -> list[_Node]:
        return [_Text(html.unescape(raw).replace("\ue500", " "), start)]

    def _element(self, position: int, name: str, end: int) -> tuple[_Element, int]:
        source = self.source
        at = position + 1 + len(name)
        attributes: list[tuple[str, str, int, int]] = []
        while True:
            while at < end and source[at].isspace():
                at += 1
            if source.startswith("/>", at):
                return _Element(name, attributes, [], position, (at, at)), at + 2
            if source.startswith(">", at):
                at += 1
                break
            match = _ATTRIBUTE.match(source, at)
            if match is None or match.end() == at:
                raise Unreadable(f"a start tag `<{name}` this reader does not follow")
            group = next((g for g in (2, 3, 4) if match.group(g) is not None), None)
            value = html.unescape(match.group(group)) if group is not None else ""
            value_at = match.start(group) if group is not None else match.end()
            value_end = match.end(group) if group is not None else match.end()
            attributes.append((match.group(1), value, value_at, value_end))
            at = match.end()
        if name.lower() in _VOID:
            return _Element(name, attributes, [], position, (at, at)), at
        children, after = self.nodes(at, end, name)
        content_end = source.rfind("<", 0, after)
        return _Element(name, attributes, children, position, (at, content_end)), after

    def _block(self, position: int, end: int) -> tuple[_Block, int]:
        source = self.source
        head = _BLOCK_NAME.match(source, position)
        assert head is not None
        name = re.sub(r"\s+", " ", head.group(1))
        at = head.end()
        if name == "let":
            return _Block(name, [], [], position), _skip_code(source, at, end, ";") + 1
        parameters: list[str] = []
        if source.startswith("(", at):
            close = _skip_code(source, at + 1, end, ")")
            parameters = _block_parameters(source[at + 1 : close])
            at = close + 1
            while at < end and source[at].isspace():
                at += 1
        if not source.startswith("{", at):
            raise Unreadable(f"a block `@{name}` this reader does not follow")
        children, at = self.nodes(at + 1, end, "}")
        return _Block(name, parameters, children, position), at

    def _icu(self, position: int, end: int) -> tuple[_Icu, int]:
        source = self.source
        head = _ICU_HEAD.match(source, position)
        if head is None:
            raise Unreadable("a `{` that does not start an ICU expression")
        at = head.end()
        cases: list[tuple[str, list[_Node]]] = []
        while True:
            case = _ICU_CASE.match(source, at)
            if case is None:
                while at < end and source[at].isspace():
                    at += 1
                if at < end and source[at] == "}" and cases:
                    at += 1
                    break
                raise Unreadable("an ICU expression this reader does not follow")
            nodes, at = self.nodes(case.end(), end, "}")
            cases.append((case.group(1), nodes))
        return _Icu(head.group(1), head.group(2), cases, position, source[position:at]), at


def _block_parameters(text: str) -> list[str]:
    """A block's parameters: its parenthesised text split at top-level `;`, trimmed."""
    parameters: list[str] = []
    at = 0
    while at < len(text):
        try:
            end = _skip_code(text, at, len(text), ";")
        except Unreadable:
            end = len(text)
        piece = text[at:end].strip()
        if piece:
            parameters.append(piece)
        at = end + 1
    return parameters


def _skip_code(source: str, at: int, end: int, closer: str) -> int:
    """The offset of `closer` after `at`, past nested brackets and quoted strings."""
    depth = 0
    while at < end:
        char = source[at]
        if char in "\"'`":
            close = source.find(char, at + 1)
            if close < 0:
                break
            at = close + 1
            continue
        if char == closer and depth == 0:
            return at
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        at += 1
    raise Unreadable(f"an unclosed `{closer}`")


# --- whitespace, as Angular removes it when `preserveWhitespaces` is off ---------------------


def _collapsed(nodes: list[_Node]) -> list[_Node]:
    """`nodes` as Angular keeps them without `preserveWhitespaces`: a text (with the
    interpolations inside it) that is blank goes unless an ICU expression is beside it; runs of
    two or more white-space characters become one space. ICU cases are left as written."""
    kept: list[_Node] = []
    index = 0
    while index < len(nodes):
        node = nodes[index]
        if isinstance(node, _Text | _Interpolation):
            end = index
            while end < len(nodes) and isinstance(nodes[end], _Text | _Interpolation):
                end += 1
            run = nodes[index:end]
            beside_icu = (index > 0 and isinstance(nodes[index - 1], _Icu)) or (
                end < len(nodes) and isinstance(nodes[end], _Icu)
            )
            blank = all(isinstance(part, _Text) and _BLANK.fullmatch(part.value) for part in run)
            if beside_icu or not blank:
                kept.extend(
                    _Text(_WS_RUN.sub(" ", part.value), part.start)
                    if isinstance(part, _Text)
                    else part
                    for part in run
                )
            index = end
            continue
        if (
            isinstance(node, _Element)
            and node.name.lower() not in _KEEP_WHITESPACE
            and not any(name == "ngPreserveWhitespaces" for name, *_ in node.attributes)
        ) or isinstance(node, _Block):
            kept.append(node._replace(children=_collapsed(node.children)))
        else:
            kept.append(node)
        index += 1
    return kept


# --- a message's `$localize` text ------------------------------------------------------------


class _Registry:
    """Placeholder names as Angular gives them: one per distinct content, numbered by base."""

    def __init__(self) -> None:
        self._counts: dict[str, int] = {}
        self._names: dict[str, str] = {}

    def unique(self, base: str) -> str:
        count = self._counts.get(base)
        if count is None:
            self._counts[base] = 1
            return base
        self._counts[base] = count + 1
        return f"{base}_{count}"

    def named(self, signature: str, base: str) -> str:
        if signature not in self._names:
            self._names[signature] = self.unique(base)
        return self._names[signature]

    def start_tag(self, element: _Element, void: bool) -> str:
        values: dict[str, str] = {}
        for name, value, *_ in element.attributes:
            values[name] = value
        attributes = "".join(f" {name}={values[name]}" for name in sorted(values))
        end = "/>" if void else f"></{element.name}>"
        base = _tag_base(element.name)
        return self.named(f"<{element.name}{attributes}{end}", base if void else f"START_{base}")

    def block(self, name: str, parameters: list[str], base: str | None = None) -> str:
        listed = f" ({'; '.join(sorted(parameters))})" if parameters else ""
        base = base or f"START_BLOCK_{name}"
        return self.named(f"@{name}{listed} {{}}", re.sub(r"[^A-Z0-9]", "_", base.upper()))

    def close_tag(self, name: str) -> str:
        return self.named(f"</{name}></{'/' + name}>", f"CLOSE_{_tag_base(name)}")


def _tag_base(name: str) -> str:
    upper = name.upper()
    return _TAG_NAMES.get(upper) or f"TAG_{upper}"


def _public_name(name: str) -> str:
    return re.sub(r"[^A-Z0-9_]", "_", name.upper())


class _Writer:
    """Writes one message's `$localize` text (and finds the ICU messages it holds)."""

    def __init__(self, sub_messages: list[tuple[str, int, int, bool]]) -> None:
        self.registry = _Registry()
        self.sub_messages = sub_messages
        self.depth = 0
        self.placeholders = 0

    def message(self, nodes: list[_Node]) -> str:
        if len(nodes) == 1 and isinstance(nodes[0], _Icu):
            self.depth = 1
            return self._icu(nodes[0])
        return "".join(self._part(node) for node in nodes)

    def _part(self, node: _Node) -> str:
        if isinstance(node, _Text):
            return self._text(node.value)
        if isinstance(node, _Comment):
            return ""
        if isinstance(node, _Block):
            return self._block(node)
        if isinstance(node, _Interpolation):
            return self._placeholder(self._interpolation(node))
        if isinstance(node, _Element):
            if node.name.lower() in _FOREIGN:
                # Angular names what is inside `<svg>`/`<math>` by namespace (`:svg:path`).
                raise Unreadable(f"a `<{node.name}>` inside a message")
            void = node.name.lower() in _VOID
            inner = "".join(self._part(child) for child in node.children)
            start = self._placeholder(self.registry.start_tag(node, void))
            if void:
                return start
            return start + inner + self._placeholder(self.registry.close_tag(node.name))
        if self.depth > 0:
            return self._icu(node)
        name = self.registry.named(f"PH: ICU={node.source}", "ICU")
        writer = _Writer(self.sub_messages)
        text = writer.message([node])
        plain = writer.placeholders == 0
        self.sub_messages.append((text, node.start, node.start + len(node.source), plain))
        return self._placeholder(name)

    def _block(self, block: _Block) -> str:
        if block.name == "let":
            return ""
        inner = "".join(self._part(child) for child in block.children)
        if block.name == "switch":
            return inner
        start = self.registry.block(block.name, block.parameters)
        close = self.registry.block(f"close_{block.name}", [], base=f"CLOSE_BLOCK_{block.name}")
        return self._placeholder(start) + inner + self._placeholder(close)

    def _interpolation(self, node: _Interpolation) -> str:
        parts = _CUSTOM_PLACEHOLDER.split(node.expression)
        base = parts[2] if len(parts) > 2 and parts[2] else "INTERPOLATION"
        return self.registry.named(f"PH: {base.upper()}={node.expression}", base.upper())

    def _placeholder(self, name: str) -> str:
        self.placeholders += 1
        public = _public_name(name)
        return f"{{{public}}}" if self.depth > 0 else f"{{${public}}}"

    def _text(self, value: str) -> str:
        return value

    def _icu(self, icu: _Icu) -> str:
        # The cases first: a nested ICU takes its `VAR_` name before the one around it.
        self.depth += 1
        cases = " ".join(
            f"{key} {{{''.join(self._part(child) for child in nodes)}}}" for key, nodes in icu.cases
        )
        self.depth -= 1
        variable = self.registry.unique(f"VAR_{icu.type.upper()}")
        return f"{{{variable}, {icu.type}, {cases}}}"


# --- the messages of a template --------------------------------------------------------------


def parse_i18n_meta(meta: str) -> tuple[str, str | None]:
    """(meaning, custom id) of an `i18n` attribute's value (`meaning|description@@id`)."""
    meta = meta.strip()
    custom: str | None = None
    if "@@" in meta:
        meta, custom = meta.split("@@", 1)
    meaning = meta.split("|", 1)[0] if "|" in meta else ""
    return meaning, custom or None


def template_messages(source: str) -> list[AngularMessage]:
    """Every i18n message of the Angular template `source`: each `i18n` element's content,
    each `i18n-<name>` attribute's value, and the ICU messages inside them."""
    found: list[AngularMessage] = []
    lines = _LineIndex(source)
    try:
        nodes, _ = _Parser(source).nodes(0, len(source), None)
    except Unreadable:
        return _marked_places(source, lines)
    _walk(nodes, found, lines)
    return found


def _walk(nodes: list[_Node], found: list[AngularMessage], lines: _LineIndex) -> None:
    for node in nodes:
        if isinstance(node, _Icu):
            for _, case in node.cases:
                _walk(case, found, lines)
        if isinstance(node, _Block):
            _walk(node.children, found, lines)
        if not isinstance(node, _Element):
            continue
        attributes = {name: value for name, value, *_ in node.attributes}
        for name, value, *_ in node.attributes:
            if name.startswith(_ATTRIBUTE_PREFIX) and name[len(_ATTRIBUTE_PREFIX) :] in attributes:
                target = name[len(_ATTRIBUTE_PREFIX) :]
                found.extend(_attribute_message(node, target, value, lines))
        if I18N_ATTRIBUTE in attributes:
            found.extend(_element_messages(node, attributes[I18N_ATTRIBUTE], lines))
        _walk(node.children, found, lines)


def _attribute_message(
    element: _Element, target: str, meta: str, lines: _LineIndex
) -> list[AngularMessage]:
    for name, value, value_at, value_end in element.attributes:
        if name != target:
            continue
        meaning, custom = parse_i18n_meta(meta)
        try:
            parsed, _ = _Parser(value).nodes(0, len(value), None)
            writer = _Writer([])
            text = writer.message(parsed)
        except Unreadable:
            return [lines.message(None, value_at, value_end)]
        plain = text if writer.placeholders == 0 else None
        return [lines.message(custom or message_id(text, meaning), value_at, value_end, plain)]
    return []


def _element_messages(element: _Element, meta: str, lines: _LineIndex) -> list[AngularMessage]:
    nodes = _collapsed(element.children)
    first = lines.past_blanks(next((node.start for node in nodes), element.content[0]))
    end = max(element.content[1], first)
    meaning, custom = parse_i18n_meta(meta)
    sub_messages: list[tuple[str, int, int, bool]] = []
    writer = _Writer(sub_messages)
    try:
        text = writer.message(nodes)
    except Unreadable:
        return [lines.message(custom, first, end)]
    plain = text if writer.placeholders == 0 else None
    found = [lines.message(custom or message_id(text, meaning), first, end, plain)]
    found.extend(
        lines.message(message_id(icu), start, stop, icu if icu_plain else None)
        for icu, start, stop, icu_plain in sub_messages
    )
    return found


def _marked_places(source: str, lines: _LineIndex) -> list[AngularMessage]:
    """Where a template this reader could not follow marks messages: each an unread one."""
    return [
        lines.message(None, match.start() + 1, match.end()) for match in _I18N_MARK.finditer(source)
    ]


class _LineIndex:
    """Lines and columns (1-based, in characters) of offsets into a template's text."""

    def __init__(self, source: str) -> None:
        self._source = source
        self._starts = [0] + [m.end() for m in re.finditer("\n", source)]

    def at(self, offset: int) -> tuple[int, int]:
        index = bisect_right(self._starts, offset) - 1
        return index + 1, offset - self._starts[index] + 1

    def past_blanks(self, offset: int) -> int:
        """`offset` moved past spaces, tabs and line ends (where Angular locates a message)."""
        while offset < len(self._source) and self._source[offset] in " \t\r\n":
            offset += 1
        return offset

    def message(
        self, id: str | None, start: int, end: int, text: str | None = None
    ) -> AngularMessage:
        preview = " ".join(self._source[start : min(end, start + 480)].split())
        if len(preview) > 60:
            preview = preview[:59] + "…"
        return AngularMessage(id, *self.at(start), *self.at(end), preview, text)


# --- `$localize` in code ---------------------------------------------------------------------

LOCALIZE_TAG = LOCALIZE
_LEGACY_ID_SEPARATOR = "\u241f"


class LocalizeMessage(NamedTuple):
    """A `$localize` call: its message id (`None` when not derived), its text when it has no
    placeholder (as `AngularMessage.text`), and the call."""

    id: str | None
    text: str | None
    node: tree_sitter.Node


def localize_messages(root: tree_sitter.Node) -> list[LocalizeMessage]:
    """Every `` $localize`…` `` tagged template under `root` with its message id (`None`
    when its text is not a template literal of its own), outermost first."""
    found: list[LocalizeMessage] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "call_expression":
            function = node.child_by_field_name("function")
            if (
                function is not None
                and function.type == "identifier"
                and (node_text(function) == LOCALIZE_TAG)
            ):
                found.append(LocalizeMessage(*_localize_message(node), node))
        stack.extend(reversed(node.children))
    return found


def _localize_message(call: tree_sitter.Node) -> tuple[str | None, str | None]:
    """The id `@angular/localize` gives the tagged template `call` — its metadata block's
    `@@id`, else the fingerprint of its text (placeholders `{$NAME}`) and meaning — and its
    text when it has no placeholder."""
    template = call.child_by_field_name("arguments")
    if template is None or template.type != "template_string":
        return None, None  # `$localize(parts, …)` called by hand: its parts are not read here
    parts: list[str] = [""]
    for child in template.named_children:
        if child.type == "template_substitution":
            parts.append("")
        elif child.type in ("string_fragment", "escape_sequence"):
            parts[-1] += node_text(child)
    text = ""
    meaning = ""
    custom = ""
    for index, raw in enumerate(parts):
        block, rest = _metadata_block(raw)
        if index == 0:
            if block is not None:
                head = block.split(_LEGACY_ID_SEPARATOR)[0]
                meaning_and_description, _, custom = head.partition("@@")
                if "|" in meaning_and_description:
                    meaning = meaning_and_description.split("|", 1)[0]
            text += decode_escapes(rest)
            continue
        name = block.split("@@")[0] if block else ("PH" if index == 1 else f"PH_{index - 1}")
        text += f"{{${name}}}" + decode_escapes(rest)
    return custom or message_id(text, meaning), text if len(parts) == 1 else None


def _metadata_block(raw: str) -> tuple[str | None, str]:
    """A part's `:…:` block (its first unescaped colons) and the rest, as written."""
    if not raw.startswith(":"):
        return None, raw
    at = 1
    while at < len(raw):
        if raw[at] == "\\":
            at += 2
            continue
        if raw[at] == ":":
            return decode_escapes(raw[1:at]), raw[at + 1 :]
        at += 1
    return None, raw


def inline_templates(
    root: tree_sitter.Node,
) -> list[tuple[tree_sitter.Node, list[AngularMessage]]]:
    """The `template` strings of the `@Component({…})` decorators under `root`, each with its
    messages (positions relative to the string's text). A template with `${…}` in it is read
    as one unread message at its start: its text is not known here."""
    found: list[tuple[tree_sitter.Node, list[AngularMessage]]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if node.type != "decorator":
            continue
        call = node.named_children[0] if node.named_children else None
        function = call.child_by_field_name("function") if call is not None else None
        arguments = call.child_by_field_name("arguments") if call is not None else None
        if function is None or arguments is None or node_text(function) != "Component":
            continue
        for options in arguments.named_children:
            for pair in options.named_children if options.type == "object" else ():
                key = pair.child_by_field_name("key")
                value = pair.child_by_field_name("value")
                if pair.type != "pair" or key is None or value is None:
                    continue
                if node_text(key).strip("'\"") == "template":
                    found.append((value, _inline_messages(value)))
    return found


def _inline_messages(value: tree_sitter.Node) -> list[AngularMessage]:
    if value.type not in ("string", "template_string"):
        return []
    if any(child.type == "template_substitution" for child in value.named_children):
        text = node_text(value)
        if not _I18N_MARK.search(text):
            return []
        return [AngularMessage(None, 1, 1, 1, 1, text[:60])]
    raw = node_text(value)[1:-1]
    return template_messages(decode_escapes(raw))


_OTHER_IDS = re.compile(
    rb"""["']?(?:preserveWhitespaces["']?\s*:\s*true"""
    rb"""|i18nPreserveWhitespaceForLegacyExtraction["']?\s*:\s*false"""
    rb"""|interpolation["']?\s*:\s*\[)"""
)


def id_settings(text: bytes) -> list[int]:
    """Offsets of the settings under which Angular's message ids differ from the ones this
    reader derives: white space kept in messages (`preserveWhitespaces: true` in a component
    or `angularCompilerOptions`, `i18nPreserveWhitespaceForLegacyExtraction: false`), and a
    component's own interpolation delimiters (`interpolation: ['[[', ']]']`), under which
    `{{ }}` is text and another pair is a placeholder."""
    return [match.start() for match in _OTHER_IDS.finditer(text)]
