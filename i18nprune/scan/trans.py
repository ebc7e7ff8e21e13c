"""The key react-i18next gives a `<Trans>` without `i18nKey`: `nodesToString` over the React
children that a JSX compiler builds from the element's source.

Follows react-i18next 17 (`src/TransWithoutContext.js`: `nodesToString`, and `key`/
`defaultValue` in `Trans`) with its default options (`src/defaults.js`), and Babel's JSX
children (`buildChildren`, `cleanJSXElementLiteralChild`, the parser's `jsxReadEntity`).
Choices where a file alone cannot know, or where versions differ:

- A kept HTML node (`br strong i p`) without other props keeps its name whatever its children
  (`<strong>Hi {{name}}</strong>`), as since react-i18next 17.0.0; 16.x kept it only around
  one string child and indexed it otherwise.
- `key` and `ref` are not props, as in React 18; React 19 passes `ref`, which would make a
  kept node with a `ref` indexed. Spread props (`{...rest}`) are assumed not to carry the
  props read here (`children`, `i18nIsDynamicList`, `defaults`, `tOptions`); on a kept node
  they may be other props, so that child is unknown.
- Entities are decoded before whitespace is trimmed (Babel; TypeScript trims first, which only
  differs for encoded whitespace such as `&#32;`). A constant holding a number reads as its
  digits (the evaluator keeps numbers as text), where React would skip it.
- A fragment is an indexed element. A spread child (`{...items}`) has an unknown length, so
  nothing after it is known; nor is anything after markup that tree-sitter could not parse.
- Project options (`transKeepBasicHtmlNodesFor`, `hashTransKey`, `transDefaultProps`) are not
  read.
"""

from __future__ import annotations

import html.entities
import re
from collections.abc import Callable
from typing import NamedTuple

import tree_sitter

from i18nprune.scan.expressions import (
    OPAQUE,
    Branches,
    Expr,
    Join,
    Opaque,
    Record,
    Text,
    concatenate,
)
from i18nprune.scan.scopes import named_child
from i18nprune.syntax_tree import node_text

ValueOf = Callable[[tree_sitter.Node], Expr]

# react-i18next's `transKeepBasicHtmlNodesFor` (with `transSupportBasicHtmlNodes: true`).
KEPT_HTML_NODES = frozenset({"br", "strong", "i", "p"})

_ELEMENTS = frozenset({"jsx_element", "jsx_self_closing_element"})
_CHILDREN = _ELEMENTS | {"jsx_expression"}
_NOT_PROPS = frozenset({"key", "ref"})
_FALSY = frozenset({"false", "null", "undefined"})
_LINE_BREAK = re.compile(r"\r\n|\n|\r")
_NOT_BLANK = re.compile(r"[^ \t]")
_ENTITY = re.compile(r"&(?:#x([0-9a-fA-F]+)|#([0-9]+)|([A-Za-z0-9]+));")
# Babel's XHTML entity table: the HTML 4 entities and `apos`.
_ENTITIES = {name: chr(code) for name, code in html.entities.name2codepoint.items()} | {"apos": "'"}
_CANONICAL_INDEX = re.compile(r"0|[1-9][0-9]*")


class _Child(NamedTuple):
    """One React child: an element node, or the text another kind of child adds to the key.

    `truthy` matters when the child is an element's only one: a falsy `children` prop makes
    the element serialise as empty.
    """

    element: tree_sitter.Node | None
    text: Expr
    truthy: bool | None
    string: bool = False
    """The child is a string at run time (text, or an expression with a string value)."""


def trans_children_key(element: tree_sitter.Node, content: bytes, value_of: ValueOf) -> Expr:
    """The key react-i18next builds from the children of a `<Trans>` element.

    `element` is a `jsx_element` or `jsx_self_closing_element` of a tree parsed from `content`;
    `value_of` evaluates expression nodes. Children that cannot be known statically are
    `OPAQUE` parts, so the static text before them stays visible; `Text("")` means no children.
    """
    return _Serializer(content, value_of).children_key(element)


def trans_key(
    element: tree_sitter.Node, content: bytes, value_of: ValueOf
) -> tuple[Expr | None, Expr | None]:
    """The `(key, default value)` react-i18next uses for a `<Trans>` without `i18nKey`.

    The default value is the first non-empty of `defaults`, `tOptions.defaultValue` and the
    children; the key is the children when non-empty, else the default value. `None` stands
    for no value: a `<Trans>` with neither children nor defaults looks nothing up. A key from
    the children is `Branches` of its spellings when locale files may hold another one
    (react-i18next 16's, an extractor's): any one of them is the key.
    """
    serializer = _Serializer(content, value_of)
    children = serializer.children_key(element)
    attributes = _opening(element).children_by_field_name("attribute")
    default_value = _first_truthy(
        [serializer.defaults(attributes), serializer.options_default(attributes), children]
    )
    key = _first_truthy([children, default_value])
    if key is None or key is not children:
        return key, default_value
    # Other spellings of the same children that locale files hold: react-i18next 16's (and
    # the extractors' of its time), and the extractors' for a child whose value is unknown
    # (i18next-parser, i18next-cli write `{appName}`). Any one of them is the key.
    spellings = [key]
    legacy = _Serializer(content, value_of, before_17=True).children_key(element)
    written = [
        _Serializer(content, value_of, as_written=True, before_17=before_17).children_key(element)
        for before_17 in (False, True)
    ]
    for spelling in (legacy, *(text for text in written if isinstance(text, Text))):
        if spelling not in spellings:
            spellings.append(spelling)
    return (key if len(spellings) == 1 else Branches(spellings)), default_value


class _Serializer:
    """`nodesToString` over the JSX children in one file; `as_written` serialises a child
    whose value is unknown as its source text in braces, as extractors write it; `before_17`
    keeps a basic HTML node's name only around one string child, as react-i18next 16 did."""

    def __init__(
        self,
        content: bytes,
        value_of: ValueOf,
        *,
        as_written: bool = False,
        before_17: bool = False,
    ) -> None:
        self._content = content
        self._value_of = value_of
        self._as_written = as_written
        self._before_17 = before_17

    def children_key(self, node: tree_sitter.Node) -> Expr:
        return self._serialize(*self._children(node))

    def defaults(self, attributes: list[tree_sitter.Node]) -> Expr | None:
        """The `defaults` prop, if the element may have one."""
        attribute = _prop(attributes, "defaults")
        if attribute is None:
            return None
        value = named_child(attribute, 1)
        if value is not None and value.type == "jsx_expression":
            value = named_child(value, 0)
        return self._value_of(value) if value is not None else OPAQUE

    def options_default(self, attributes: list[tree_sitter.Node]) -> Expr | None:
        """`tOptions.defaultValue`, if the element may have one."""
        attribute = _prop(attributes, "tOptions")
        if attribute is None:
            return None
        value = named_child(attribute, 1)
        options = named_child(value, 0) if value is not None else None
        if value is None or value.type != "jsx_expression" or options is None:
            return OPAQUE
        if options.type != "object":
            record = self._value_of(options)
            if isinstance(record, Record) and "defaultValue" in record.fields:
                return record.fields["defaultValue"]
            return OPAQUE
        found: Expr | None = None
        for member in options.named_children:
            if member.type == "comment":
                continue
            name = self._member_name(member)
            if name is None:
                found = OPAQUE
            elif name == "defaultValue":
                found = self._member_value(member)
        return found

    # -- children --------------------------------------------------------------------------

    def _children(self, node: tree_sitter.Node) -> tuple[list[_Child], bool]:
        """An element's React children, and whether the list is complete (no spread child).

        Without JSX children, a `children` attribute is the children prop.
        """
        children: list[_Child] = []
        complete = True
        if node.type == "jsx_element":
            complete = self._jsx_children(node, children)
        if not children and complete:
            attribute = _prop(_opening(node).children_by_field_name("attribute"), "children")
            if attribute is not None:
                children.append(self._attribute_value(attribute))
        return children, complete

    def _jsx_children(self, node: tree_sitter.Node, children: list[_Child]) -> bool:
        """Append the children written between the tags; `False` if the rest is unknown."""
        opening = node.child_by_field_name("open_tag")
        closing = node.child_by_field_name("close_tag")
        start = opening.end_byte if opening is not None else node.start_byte
        end = closing.start_byte if closing is not None else node.end_byte
        for child in node.named_children:
            if child.type not in _CHILDREN or child.start_byte < start or child.end_byte > end:
                continue
            if not self._text(start, child.start_byte, children):
                return False
            start = child.end_byte
            if child.type in _ELEMENTS:
                children.append(_Child(child, OPAQUE, True))
                continue
            inner = named_child(child, 0)
            if inner is not None and inner.type == "spread_element":
                return False
            found = self._expression_child(inner)
            if found is not None:
                children.append(found)
        return self._text(start, end, children)

    def _text(self, start: int, end: int, children: list[_Child]) -> bool:
        """Append the JSX text in `content[start:end]`, read from the bytes: tree-sitter splits
        text at a bare `&` into an ERROR node. Babel ends text at `<` and `{`; markup there that
        tree-sitter could not parse ends what is known (returns `False`).
        """
        raw = self._content[start:end]
        markup = min((at for at in (raw.find(b"<"), raw.find(b"{")) if at >= 0), default=-1)
        if markup >= 0:
            raw = raw[:markup]
        text = clean_jsx_text(decode_jsx_entities(raw.decode("utf-8", "replace")))
        if text:
            children.append(_Child(None, Text(text), True, string=True))
        return markup < 0

    def _expression_child(self, node: tree_sitter.Node | None) -> _Child | None:
        """The child an expression container holds; `None` for `{}` and `{/* comment */}`."""
        while node is not None and node.type == "parenthesized_expression":
            node = named_child(node, 0)
        if node is None:
            return None
        kind = node.type
        if kind in _ELEMENTS:
            return _Child(node, OPAQUE, True)
        if kind == "object":
            return _Child(None, self._interpolation(node), True)
        # i18next skips numbers, booleans and null with a warning (`TRANS_INVALID_VAR`).
        if kind == "number":
            return _Child(None, Text(""), _number_truthy(node_text(node)))
        if kind == "true":
            return _Child(None, Text(""), True)
        if kind in _FALSY:
            return _Child(None, Text(""), False)
        value = self._value_of(node)
        text = _as_text(value)
        if self._as_written and not isinstance(text, Text):
            source = self._content[node.start_byte : node.end_byte].decode("utf-8", "replace")
            return _Child(None, Text("{" + source + "}"), True)
        return _Child(None, text, _truthiness(value), string=isinstance(text, Text))

    def _attribute_value(self, attribute: tree_sitter.Node) -> _Child:
        """The value of a JSX attribute, as a child holding it."""
        value = named_child(attribute, 1)
        if value is None:
            return _Child(None, OPAQUE, True)  # a bare attribute is `true`
        if value.type == "jsx_expression":
            return self._expression_child(named_child(value, 0)) or _Child(None, OPAQUE, None)
        if value.type in _ELEMENTS:
            return _Child(value, OPAQUE, True)
        text = self._value_of(value)
        return _Child(None, _as_text(text), _truthiness(text))

    # -- elements and objects --------------------------------------------------------------

    def _element(self, node: tree_sitter.Node, index: int) -> Expr:
        """`<br/>` or `<strong>…</strong>` for a kept HTML node, `<index>…</index>` otherwise."""
        opening = _opening(node)
        attributes = opening.children_by_field_name("attribute")
        children, complete = self._children(node)
        inner = self._serialize(children, complete)
        marker = _prop(attributes, "i18nIsDynamicList")
        dynamic = False if marker is None else self._attribute_value(marker).truthy
        empty = Text(f"<{index}></{index}>")
        if dynamic:
            return empty  # a dynamic list's items are not part of the key
        name = opening.child_by_field_name("name")
        tag = node_text(name) if name is not None else ""
        if tag in KEPT_HTML_NODES:
            shape = _kept(
                tag, index, attributes, children, complete, inner, before_17=self._before_17
            )
        else:
            shape = _wrapped(str(index), inner)
        return shape if dynamic is False else Branches([empty, shape])

    def _serialize(self, children: list[_Child], complete: bool) -> Expr:
        parts = [
            child.text if child.element is None else self._element(child.element, index)
            for index, child in enumerate(children)
        ]
        if not complete:
            parts.append(OPAQUE)
        return _joined(parts)

    def _interpolation(self, node: tree_sitter.Node) -> Expr:
        """`{{ name }}` → `{{name}}`, `{{ value, format: 'number' }}` → `{{value, number}}`.

        An object with other than one key besides `format` adds nothing (i18next warns).
        """
        names: dict[str, None] = {}
        format_value: Expr | None = None
        for member in node.named_children:
            if member.type == "comment":
                continue
            name = self._member_name(member)
            if name is None:
                return OPAQUE
            if name == "format":
                format_value = _as_text(self._member_value(member))
            else:
                names[name] = None
        if len(names) != 1:
            return Text("")
        (name,) = names
        plain = Text(f"{{{{{name}}}}}")
        if format_value is None:
            return plain
        formatted = _joined([Text(f"{{{{{name}, "), format_value, Text("}}")])
        truthy = _truthiness(format_value)
        if truthy is None:
            return Branches([plain, formatted])
        return formatted if truthy else plain

    def _member_name(self, member: tree_sitter.Node) -> str | None:
        """The property name an object member defines; `None` when unknown (or a spread)."""
        if member.type == "shorthand_property_identifier":
            return node_text(member)
        key = None
        if member.type in ("pair", "method_definition"):
            key = member.child_by_field_name("key" if member.type == "pair" else "name")
        if key is None:
            return None
        if key.type == "property_identifier":
            return node_text(key)
        if key.type == "number":
            text = node_text(key)
            return text if _CANONICAL_INDEX.fullmatch(text) else None
        if key.type == "computed_property_name":
            key = named_child(key, 0)
        value = self._value_of(key) if key is not None else OPAQUE
        return value.value if isinstance(value, Text) else None

    def _member_value(self, member: tree_sitter.Node) -> Expr:
        value = member.child_by_field_name("value") if member.type == "pair" else None
        return self._value_of(value) if value is not None else OPAQUE


def _kept(
    tag: str,
    index: int,
    attributes: list[tree_sitter.Node],
    children: list[_Child],
    complete: bool,
    inner: Expr,
    *,
    before_17: bool = False,
) -> Expr:
    """A node of the keep list: named unless it has props besides `children`, else indexed;
    `before_17`: named only around one string child, as react-i18next 16 did.

    A lone falsy child (`{0}`, `{''}`) is a falsy `children` prop that still counts as a prop,
    so the node is indexed and empty.
    """
    if not complete or any(attribute.type != "jsx_attribute" for attribute in attributes):
        return OPAQUE
    props = {_attribute_name(attribute) for attribute in attributes} - _NOT_PROPS
    props.discard("children")  # counted when there are children, wherever they come from
    empty = Text(f"<{index}></{index}>")
    if not children:
        return empty if props else Text(f"<{tag}/>")
    if props:
        return _wrapped(str(index), inner)
    truthy = True if len(children) > 1 else children[0].truthy
    if before_17 and (len(children) > 1 or not children[0].string):
        return _wrapped(str(index), inner)
    if truthy is None:
        return Branches([empty, _wrapped(tag, inner)])
    return _wrapped(tag, inner) if truthy else empty


def _wrapped(tag: str, inner: Expr) -> Expr:
    return _joined([Text(f"<{tag}>"), inner, Text(f"</{tag}>")])


def _opening(element: tree_sitter.Node) -> tree_sitter.Node:
    """The node holding an element's name and attributes."""
    if element.type == "jsx_element":
        return element.child_by_field_name("open_tag") or element
    return element


def _attribute_name(attribute: tree_sitter.Node) -> str | None:
    name = named_child(attribute, 0) if attribute.type == "jsx_attribute" else None
    return node_text(name) if name is not None else None


def _prop(attributes: list[tree_sitter.Node], name: str) -> tree_sitter.Node | None:
    """The attribute that sets prop `name` (the last one named so; spreads are not read)."""
    for attribute in reversed(attributes):
        if _attribute_name(attribute) == name:
            return attribute
    return None


def _joined(parts: list[Expr]) -> Expr:
    """The parts as one key text; nested joins are spliced in, being strings as well."""
    flat: list[Expr] = []
    for part in parts:
        flat.extend(part.parts if isinstance(part, Join) else [part])
    return concatenate(flat, template=True)


def _as_text(value: Expr) -> Expr:
    """What a child that evaluates to `value` adds: a string as it is, anything else unknown."""
    if isinstance(value, Branches):
        return Branches([_as_text(option) for option in value.options])
    if isinstance(value, Record | Opaque):
        return OPAQUE
    return value


def _truthiness(value: Expr) -> bool | None:
    """Whether `value` is truthy in JavaScript, `None` when that is not known."""
    if isinstance(value, Text):
        return bool(value.value)
    if isinstance(value, Record):
        return True
    if isinstance(value, Join):  # strings joined: truthy when a part is
        return True if any(_truthiness(part) for part in value.parts) else None
    if isinstance(value, Branches):
        options = {_truthiness(option) for option in value.options}
        return options.pop() if len(options) == 1 else None
    return None


def _number_truthy(text: str) -> bool | None:
    digits = text.replace("_", "").removesuffix("n")
    try:
        return float(digits) != 0
    except ValueError:
        pass
    try:
        return int(digits, 0) != 0
    except ValueError:
        return None


def _first_truthy(values: list[Expr | None]) -> Expr | None:
    """JavaScript `a || b || …` over the values present; `None` when all are absent or empty."""
    result: Expr | None = None
    for value in reversed(values):
        truthy = _truthiness(value) if value is not None else False
        if value is None or truthy is False:
            continue
        result = value if truthy or result is None else Branches([value, result])
    return result


def decode_jsx_entities(text: str) -> str:
    """Babel's JSX entities: `&name;` from its table, `&#65;`, `&#x41;`; any other `&` stays."""
    if "&" not in text:
        return text
    decoded = _ENTITY.sub(_entity, text)
    # `&#xD83D;&#xDE00;` decodes to two surrogates; join them, and replace any that stand alone.
    return decoded.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _entity(match: re.Match[str]) -> str:
    hexadecimal, decimal, name = match.groups()
    if name is not None:
        return _ENTITIES.get(name, match.group())
    code = int(hexadecimal, 16) if hexadecimal is not None else int(decimal)
    return chr(code) if code <= 0x10FFFF else match.group()


def clean_jsx_text(text: str) -> str:
    """Babel's `cleanJSXElementLiteralChild`: tabs become spaces, spaces touching a line break
    are trimmed, blank lines dropped, and the remaining lines joined with one space.
    """
    lines = _LINE_BREAK.split(text)
    last_filled = max((i for i, line in enumerate(lines) if _NOT_BLANK.search(line)), default=0)
    pieces = []
    for i, line in enumerate(lines):
        trimmed = line.replace("\t", " ")
        if i > 0:
            trimmed = trimmed.lstrip(" ")
        if i < len(lines) - 1:
            trimmed = trimmed.rstrip(" ")
        if trimmed:
            pieces.append(trimmed if i == last_filled else trimmed + " ")
    return "".join(pieces)
