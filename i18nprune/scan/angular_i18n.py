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
from typing import NamedTuple, TypeVar

import tree_sitter

from i18nprune.scan.angular_ids import legacy_ids, message_id
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
    legacy: tuple[str, ...] = ()
    """Its legacy ids (`angular_ids.legacy_ids`), which `$localize` also looks a translation up
    by when the template was compiled with `enableI18nLegacyMessageIdFormat`."""


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
_RAW_CONTENT = frozenset({"textarea", "title", "script", "style"})
"""Elements whose content Angular reads as text: no tags, no `{{ }}`, no ICU."""
_ESCAPABLE_RAW_CONTENT = frozenset({"textarea", "title"})
_FIRST_LINE_FEED = frozenset({"pre", "textarea", "listing"})
"""Elements whose content loses a line feed it starts with (the HTML parser drops it)."""
_ANGULAR_BLANK = "".join(chr(code) for code in range(9, 33)) + "\u00a0"
"""What Angular's lexer passes over as blank (between ICU parts)."""
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
        if name.lower() in _RAW_CONTENT:
            children, content_end, after = self._raw_content(at, end, name)
        else:
            children, after = self.nodes(at, end, name)
            content_end = source.rfind("<", 0, after)
        if name.lower() in _FIRST_LINE_FEED and children and isinstance(children[0], _Text):
            first = children[0]
            feed = 2 if first.value.startswith("\r\n") else 1 if first.value[:1] == "\n" else 0
            if feed and first.value[feed:]:
                children[0] = _Text(first.value[feed:], first.start + feed)
            elif feed:
                del children[0]
        return _Element(name, attributes, children, position, (at, content_end)), after

    def _raw_content(self, at: int, end: int, name: str) -> tuple[list[_Node], int, int]:
        """The content of a `<textarea>`, `<title>`, `<script>` or `<style>` up to its close
        tag, as Angular's lexer reads it: one text, entities read in the first two only."""
        close = re.compile(f"</{re.escape(name)}\\s*>", re.IGNORECASE).search(self.source, at, end)
        if close is None:
            raise Unreadable(f"an unclosed `<{name}>`")
        raw = self.source[at : close.start()]
        text = html.unescape(raw) if name.lower() in _ESCAPABLE_RAW_CONTENT else raw
        return ([_Text(text, at)] if text else []), close.start(), close.end()

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
            # Angular's lexer passes over the blanks that open a case.
            content = case.end()
            while content < end and source[content] in _ANGULAR_BLANK:
                content += 1
            nodes, at = self.nodes(content, end, "}")
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

    def interpolation(self, expression: str) -> str:
        parts = _CUSTOM_PLACEHOLDER.split(expression)
        base = parts[2] if len(parts) > 2 and parts[2] else "INTERPOLATION"
        return self.named(f"PH: {base.upper()}={expression}", base.upper())


def _tag_base(name: str) -> str:
    upper = name.upper()
    return _TAG_NAMES.get(upper) or f"TAG_{upper}"


def _public_name(name: str) -> str:
    return re.sub(r"[^A-Z0-9_]", "_", name.upper())


class _SubMessage(NamedTuple):
    """An ICU message inside another (Angular extracts it as a message of its own)."""

    text: str
    start: int
    end: int
    plain: bool
    legacy: tuple[str, str]


class _Writer:
    """Writes one message's `$localize` text (and finds the ICU messages it holds)."""

    def __init__(self, sub_messages: list[_SubMessage]) -> None:
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
        # Angular names what the cases hold in this message's registry too, before the ICU.
        self.depth += 1
        for _, nodes in node.cases:
            for child in nodes:
                self._part(child)
        self.depth -= 1
        name = self.registry.named(f"PH: ICU={node.source}", "ICU")
        writer = _Writer(self.sub_messages)
        text = writer.message([node])
        plain = writer.placeholders == 0
        end = node.start + len(node.source)
        self.sub_messages.append(_SubMessage(text, node.start, end, plain, _legacy_ids([node], "")))
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
        return self.registry.interpolation(node.expression)

    def _placeholder(self, name: str) -> str:
        self.placeholders += 1
        public = _public_name(name)
        return f"{{{public}}}" if self.depth > 0 else f"{{${public}}}"

    def _text(self, value: str) -> str:
        return value

    def _icu(self, icu: _Icu) -> str:
        # The cases first: a nested ICU takes its `VAR_` name before the one around it.
        self.depth += 1
        written = [(key, "".join(self._part(child) for child in nodes)) for key, nodes in icu.cases]
        cases = " ".join(f"{key} {{{text}}}" for key, text in _in_object_order(written))
        self.depth -= 1
        variable = self.registry.unique(f"VAR_{icu.type.upper()}")
        return f"{{{variable}, {icu.type}, {cases}}}"


# --- legacy ids: the message as written, before white space goes ------------------------------


class _Legacy(NamedTuple):
    """A part of a message as Angular's legacy digests serialise it: in full (`computeDigest`,
    XLIFF 1.2's id) and without ICU switch expressions (`computeDecimalDigest`, XLIFF 2's and
    XMB's)."""

    full: str
    bare: str


_ARRAY_INDEX = re.compile(r"0|[1-9][0-9]{0,9}")
_Case = TypeVar("_Case")


class _LegacyWriter:
    """Serialises a message's nodes as written — Angular computes legacy ids on its first pass
    over a template, before white space is removed — the way its legacy digests do: a text as it
    is, a text with `{{ }}` as `[text, <ph name="NAME">expression</ph>, …]`, an element as
    `<ph tag name="START">children</ph name="CLOSE">` (a block as `<ph block …>`, `@switch` as
    `[children]`), an ICU as `{switch, type, key {[children]}, …}`, children joined by `, `.
    Placeholder names come from a registry of their own, filled in Angular's order (the content
    of an ICU case too)."""

    def __init__(self, is_icu: bool) -> None:
        self.registry = _Registry()
        self.is_icu = is_icu
        self.depth = 0

    def message(self, nodes: list[_Node]) -> _Legacy:
        parts = self._children(nodes)
        return _Legacy("".join(part.full for part in parts), "".join(part.bare for part in parts))

    def _children(self, nodes: list[_Node], *, in_case: bool = False) -> list[_Legacy]:
        parts: list[_Legacy] = []
        index = 0
        while index < len(nodes):
            node = nodes[index]
            if isinstance(node, _Text | _Interpolation):
                end = index + 1
                while end < len(nodes) and isinstance(nodes[end], _Text | _Interpolation):
                    end += 1
                parts.append(self._text(nodes[index:end]))
                index = end
                continue
            index += 1
            if isinstance(node, _Comment) or (isinstance(node, _Block) and node.name == "let"):
                if in_case:  # Angular's compiler fails on it: an ICU case keeps every node
                    raise Unreadable("a comment or `@let` inside an ICU case")
                continue
            parts.append(self._node(node))
        return parts

    def _text(self, run: list[_Node]) -> _Legacy:
        pieces: list[str] = []
        after_text = False
        for part in run:
            if isinstance(part, _Text):
                value = _line_feeds(part.value)
                if after_text:
                    pieces[-1] += value
                elif value:
                    pieces.append(value)
                    after_text = True
                continue
            assert isinstance(part, _Interpolation)
            name = self.registry.interpolation(part.expression)
            expression = _line_feeds(part.expression)
            pieces.append(
                f'<ph name="{name}">{expression}</ph>' if expression else f'<ph name="{name}"/>'
            )
            after_text = False
        if all(isinstance(part, _Text) for part in run):
            return _Legacy("".join(pieces), "".join(pieces))
        text = f"[{', '.join(pieces)}]"
        return _Legacy(text, text)

    def _node(self, node: _Node) -> _Legacy:
        if isinstance(node, _Element):
            name = node.name.lower()
            if name in _FOREIGN:
                raise Unreadable(f"a `<{node.name}>` inside a message")
            children = self._children(node.children)
            void = name in _VOID
            start = self.registry.start_tag(node, void)
            if void:
                tag = f'<ph tag name="{start}"/>'
                return _Legacy(tag, tag)
            close = self.registry.close_tag(node.name)
            return _wrapped(f'<ph tag name="{start}">', children, f'</ph name="{close}">')
        if isinstance(node, _Block):
            children = self._children(node.children)
            if node.name == "switch":  # Angular's one container block
                return _wrapped("[", children, "]")
            start = self.registry.block(node.name, node.parameters)
            close = self.registry.block(f"close_{node.name}", [], base=f"CLOSE_BLOCK_{node.name}")
            return _wrapped(f'<ph block name="{start}">', children, f'</ph name="{close}">')
        assert isinstance(node, _Icu)
        return self._icu(node)

    def _icu(self, icu: _Icu) -> _Legacy:
        self.depth += 1
        cases = [(key, self._children(nodes, in_case=True)) for key, nodes in icu.cases]
        self.depth -= 1
        switch, kind = _icu_head(icu.source)
        ordered = _in_object_order(cases)
        full = ", ".join(f"{key} {{{_wrapped('[', parts, ']').full}}}" for key, parts in ordered)
        bare = ", ".join(f"{key} {{{_wrapped('[', parts, ']').bare}}}" for key, parts in ordered)
        icu_full, icu_bare = f"{{{switch}, {kind}, {full}}}", f"{{{kind}, {bare}}}"
        if self.is_icu or self.depth > 0:
            self.registry.unique(f"VAR_{kind.upper()}")
            return _Legacy(icu_full, icu_bare)
        name = self.registry.named(f"PH: ICU={icu.source}", "ICU")
        head = f'<ph icu name="{name}">'
        return _Legacy(f"{head}{icu_full}</ph>", f"{head}{icu_bare}</ph>")


def _legacy_ids(nodes: list[_Node], meaning: str) -> tuple[str, str]:
    """The legacy ids of the message whose nodes, as written, are `nodes`."""
    is_icu = len(nodes) == 1 and isinstance(nodes[0], _Icu)
    serialized = _LegacyWriter(is_icu).message(nodes)
    return legacy_ids(serialized.full, serialized.bare, meaning)


def _wrapped(head: str, children: list[_Legacy], tail: str) -> _Legacy:
    return _Legacy(
        head + ", ".join(child.full for child in children) + tail,
        head + ", ".join(child.bare for child in children) + tail,
    )


def _line_feeds(text: str) -> str:
    """`text` with its line ends as Angular's lexer gives them (`\\r\\n` and `\\r` as `\\n`)."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _icu_head(source: str) -> tuple[str, str]:
    """An ICU expression's switch and type as Angular's lexer reads them: the switch up to the
    first comma as written, the type past the blanks after it, up to the next comma."""
    comma = source.index(",")
    rest = source[comma + 1 :].lstrip(_ANGULAR_BLANK)
    return source[1:comma], rest[: rest.index(",")]


def _is_array_index(key: str) -> bool:
    return _ARRAY_INDEX.fullmatch(key) is not None and int(key) < 2**32 - 1


def _in_object_order(cases: list[tuple[str, _Case]]) -> list[tuple[str, _Case]]:
    """ICU cases in the order a JavaScript object keeps them (Angular holds them in one): keys
    that are array indices first, ascending, then the others as first written; a repeated key
    takes the place of its first and the content of its last."""
    latest = dict(cases)
    indices = sorted((key for key in latest if _is_array_index(key)), key=int)
    listed = set(indices)
    return [(key, latest[key]) for key in indices] + [
        (key, parts) for key, parts in latest.items() if key not in listed
    ]


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
        if name != target or not value:
            continue  # Angular makes no message of an empty value
        meaning, custom = parse_i18n_meta(meta)
        raw = lines.source[value_at:value_end]
        try:
            # A value is text and `{{ }}` only: entities are read in the text, not in `{{ }}`.
            parsed, _ = _Parser(raw).nodes(0, len(raw), None)
            if not all(isinstance(node, _Text | _Interpolation) for node in parsed):
                raise Unreadable("markup in an attribute's value")
            writer = _Writer([])
            text = writer.message(parsed)
            legacy = _legacy_ids(parsed, meaning)
        except Unreadable:
            return [lines.message(None, value_at, value_end)]
        plain = text if writer.placeholders == 0 else None
        id = custom or message_id(text, meaning)
        return [lines.message(id, value_at, value_end, plain, legacy)]
    return []


def _element_messages(element: _Element, meta: str, lines: _LineIndex) -> list[AngularMessage]:
    nodes = _collapsed(element.children)
    if not nodes:
        return []  # Angular drops a message left empty once white space is removed
    first = lines.past_blanks(next((node.start for node in nodes), element.content[0]))
    end = max(element.content[1], first)
    meaning, custom = parse_i18n_meta(meta)
    sub_messages: list[_SubMessage] = []
    writer = _Writer(sub_messages)
    try:
        text = writer.message(nodes)
        # Legacy ids are of the children as written: Angular computes them before white space
        # is removed.
        legacy = _legacy_ids(element.children, meaning)
    except Unreadable:
        return [lines.message(custom, first, end)]
    plain = text if writer.placeholders == 0 else None
    found = [lines.message(custom or message_id(text, meaning), first, end, plain, legacy)]
    found.extend(
        lines.message(
            message_id(icu.text), icu.start, icu.end, icu.text if icu.plain else None, icu.legacy
        )
        for icu in sub_messages
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
        self.source = source
        self._starts = [0] + [m.end() for m in re.finditer("\n", source)]

    def at(self, offset: int) -> tuple[int, int]:
        index = bisect_right(self._starts, offset) - 1
        return index + 1, offset - self._starts[index] + 1

    def past_blanks(self, offset: int) -> int:
        """`offset` moved past spaces, tabs and line ends (where Angular locates a message)."""
        while offset < len(self.source) and self.source[offset] in " \t\r\n":
            offset += 1
        return offset

    def message(
        self,
        id: str | None,
        start: int,
        end: int,
        text: str | None = None,
        legacy: tuple[str, ...] = (),
    ) -> AngularMessage:
        preview = " ".join(self.source[start : min(end, start + 480)].split())
        if len(preview) > 60:
            preview = preview[:59] + "…"
        return AngularMessage(id, *self.at(start), *self.at(end), preview, text, legacy)


# --- `$localize` in code ---------------------------------------------------------------------

LOCALIZE_TAG = LOCALIZE
_LEGACY_ID_SEPARATOR = "\u241f"


class LocalizeMessage(NamedTuple):
    """A `$localize` call: its message id (`None` when not derived), its text when it has no
    placeholder (as `AngularMessage.text`), the call, and the legacy ids its metadata block
    lists (after `␟`: the compiler writes them there for template messages; `$localize` looks a
    translation up by them too)."""

    id: str | None
    text: str | None
    node: tree_sitter.Node
    legacy: tuple[str, ...] = ()


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
                id, text, legacy = _localize_message(node)
                found.append(LocalizeMessage(id, text, node, legacy))
        stack.extend(reversed(node.children))
    return found


def _localize_message(call: tree_sitter.Node) -> tuple[str | None, str | None, tuple[str, ...]]:
    """The id `@angular/localize` gives the tagged template `call` — its metadata block's
    `@@id`, else the fingerprint of its text (placeholders `{$NAME}`) and meaning —, its text
    when it has no placeholder, and the legacy ids its metadata block lists."""
    template = call.child_by_field_name("arguments")
    if template is None or template.type != "template_string":
        return None, None, ()  # `$localize(parts, …)` called by hand: its parts are not read here
    parts: list[str] = [""]
    for child in template.named_children:
        if child.type == "template_substitution":
            parts.append("")
        elif child.type in ("string_fragment", "escape_sequence"):
            parts[-1] += node_text(child)
    text = ""
    meaning = ""
    custom = ""
    legacy: list[str] = []
    for index, raw in enumerate(parts):
        block, rest = _metadata_block(raw)
        if index == 0:
            if block is not None:
                head, *legacy = block.split(_LEGACY_ID_SEPARATOR)
                meaning_and_description, _, custom = head.partition("@@")
                if "|" in meaning_and_description:
                    meaning = meaning_and_description.split("|", 1)[0]
            text += decode_escapes(rest)
            continue
        name = block.split("@@")[0] if block else ("PH" if index == 1 else f"PH_{index - 1}")
        text += f"{{${name}}}" + decode_escapes(rest)
    id = custom or message_id(text, meaning)
    found = tuple(dict.fromkeys(spelled for spelled in legacy if spelled and spelled != id))
    return id, text if len(parts) == 1 else None, found


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
