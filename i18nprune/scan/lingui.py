"""Lingui's messages in one file: the macros of `@lingui/macro` (v4), `@lingui/core/macro` and
`@lingui/react/macro` (v5), and the runtime `i18n._`, each message's id derived as Lingui's
extractor writes it (an explicit `id`, else the ICU message the macro builds of its text), and
for a message without an explicit id the id Lingui (v4 and later) generates of it
(`generated_id`), which JSON catalogs are keyed by.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable
from typing import NamedTuple

import tree_sitter

from i18nprune.scan.evaluate import decode_escapes, string_value
from i18nprune.scan.expressions import OPAQUE, Branches, Expr, Text
from i18nprune.scan.scopes import named_child, named_imports
from i18nprune.scan.trans import clean_jsx_text, decode_jsx_entities
from i18nprune.syntax_tree import node_text
from i18nprune.system.digests import sha256

MACRO_MODULES = frozenset({"@lingui/macro", "@lingui/core/macro", "@lingui/react/macro"})
RUNTIME_MODULES = frozenset({"@lingui/core", "@lingui/react"})
CONTEXT_SEPARATOR = "\x04"
"""Joins a message's context and id in a PO key (`msgctxt`, then `msgid`)."""
_ID_SEPARATOR = "\x1f"
"""Joins a message and its context in the text Lingui hashes for a generated id."""
_GENERATED_LENGTH = 6

_MESSAGE_MACROS = frozenset({"t", "msg", "defineMessage"})
_CHOICE_MACROS = {"plural": "plural", "select": "select", "selectOrdinal": "selectordinal"}
_CHOICE_ELEMENTS = {"Plural": "plural", "Select": "select", "SelectOrdinal": "selectordinal"}
_ELEMENTS = frozenset({"jsx_element", "jsx_self_closing_element"})
_CHILDREN = _ELEMENTS | {"jsx_expression"}
# Attributes a `<Plural>` does not read as a choice (`_0`, `one`, `value`, `offset` are).
_NOT_CHOICES = frozenset(
    {"id", "comment", "message", "context", "key", "render", "component", "components"}
)
_META_OPTION = re.compile(r"^_(id|comment|props)$")
_INTEGER_KEY = re.compile(r"0|[1-9][0-9]*")


def generated_id(message: str, context: str = "") -> str:
    """The id Lingui (v4 and later) gives a message written without one, as its macro and
    extractor do (`generateMessageId` of `@lingui/message-utils`): the SHA-256 of the message,
    a unit separator and the context (empty for none) in UTF-8, in standard base64 (`+`, `/`),
    its first six characters."""
    digest = sha256((message + _ID_SEPARATOR + context).encode("utf-8")).digest()
    return base64.b64encode(digest)[:_GENERATED_LENGTH].decode("ascii")


class Unreadable(Exception):
    """A message whose id cannot be derived here with certainty."""


class LinguiSite(NamedTuple):
    """One message site: the call or element, its PO key (`Text`), or `OPAQUE` when the id
    cannot be derived (then `derived` is False), and its source text as the default."""

    node: tree_sitter.Node
    key: Expr
    default: Expr | None
    derived: bool
    spellings: bool = False
    """`key` lists spellings of one message (Lingui v5's and v4's white space in `<Trans>`):
    any one in the catalog is enough."""
    generated: tuple[str, ...] = ()
    """The ids Lingui generates of the message (one per spelling) when it has no explicit id:
    a catalog keyed by generated ids (JSON) holds one of them instead of the message."""


class LinguiFile(NamedTuple):
    """What a file's Lingui use gives: its message sites, the node ids of calls and elements
    they are (no other reading applies to them), and runtime lookups with a computed id."""

    sites: list[LinguiSite]
    claimed: set[int]


class _Names:
    """The local names a file gives Lingui's macros and runtime objects."""

    def __init__(self, root: tree_sitter.Node) -> None:
        self.macros: dict[str, str] = {}  # local name → macro name (`t`, `Trans`, `plural`, …)
        self.runtime_trans: set[str] = set()
        self.runtime: set[str] = set()  # `i18n` objects and `_` functions
        for found in named_imports(root):
            if found.module in MACRO_MODULES:
                self.macros[found.local] = found.imported
            elif found.module in RUNTIME_MODULES:
                if found.imported == "Trans":
                    self.runtime_trans.add(found.local)
                elif found.imported == "i18n":
                    self.runtime.add(found.local)
                elif found.imported == "useLingui":
                    self.macros.setdefault(found.local, "useLingui:runtime")

    @property
    def used(self) -> bool:
        return bool(self.macros or self.runtime or self.runtime_trans)

    def macro(self, node: tree_sitter.Node | None) -> str | None:
        if node is None or node.type not in ("identifier", "jsx_identifier"):
            return None
        return self.macros.get(node_text(node))


def uses_lingui(root: tree_sitter.Node) -> bool:
    """Whether the file imports anything from Lingui's macro or runtime modules."""
    return any(
        found.module in MACRO_MODULES or found.module in RUNTIME_MODULES
        for found in named_imports(root)
    )


def lingui_sites(
    root: tree_sitter.Node, document: bytes, value_of: Callable[[tree_sitter.Node], Expr]
) -> LinguiFile | None:
    """The Lingui messages of a file that imports Lingui (`None` for one that does not).

    Every macro message is a site whose key is its PO key (`context\\x04id`); a runtime
    `i18n._('id')` names its id. A runtime lookup of a value (`i18n._(descriptor)`, `t(x)` of
    `useLingui`) is no site: the message it carries is a site where it is written, as Lingui's
    extractor reads it. A runtime lookup of a computed text is a site with that text's static
    parts, not derived."""
    names = _Names(root)
    if not names.used:
        return None
    _bind_use_lingui(root, names)
    reader = _Reader(names, document, value_of)
    reader.read(root)
    return LinguiFile(reader.sites, reader.claimed)


def _bind_use_lingui(root: tree_sitter.Node, names: _Names) -> None:
    """`const { t, _, i18n } = useLingui()`: the macro's `t` is the `t` macro; `_` and `i18n`
    (of either `useLingui`) are the runtime."""
    hooks = {local for local, name in names.macros.items() if name.startswith("useLingui")}
    if not hooks:
        return
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "variable_declarator":
            value = node.child_by_field_name("value")
            while value is not None and value.type == "await_expression":
                value = named_child(value, 0)
            pattern = node.child_by_field_name("name")
            if (
                value is not None
                and value.type == "call_expression"
                and node_text(value.child_by_field_name("function") or value) in hooks
                and pattern is not None
                and pattern.type == "object_pattern"
            ):
                macro = names.macros[node_text(value.child_by_field_name("function") or value)]
                for field, local in _destructured(pattern):
                    if field == "t" and macro == "useLingui":
                        names.macros[local] = "t"
                    elif field in ("_", "i18n"):
                        names.runtime.add(local)
        stack.extend(node.named_children)


def _destructured(pattern: tree_sitter.Node) -> list[tuple[str, str]]:
    found = []
    for child in pattern.named_children:
        if child.type == "shorthand_property_identifier_pattern":
            found.append((node_text(child), node_text(child)))
        elif child.type == "pair_pattern":
            key, value = child.child_by_field_name("key"), child.child_by_field_name("value")
            if key is not None and value is not None and value.type == "identifier":
                found.append((node_text(key), node_text(value)))
    return found


class _Reader:
    """Walks a file for Lingui's sites, outermost macro first."""

    def __init__(
        self, names: _Names, document: bytes, value_of: Callable[[tree_sitter.Node], Expr]
    ) -> None:
        self.names = names
        self.document = document
        self.value_of = value_of
        self.sites: list[LinguiSite] = []
        self.claimed: set[int] = set()

    def read(self, root: tree_sitter.Node) -> None:
        stack = [root]
        while stack:
            node = stack.pop()
            values = self._site(node)
            if values is None:
                stack.extend(reversed(node.named_children))
            else:
                stack.extend(reversed(values))

    def _site(self, node: tree_sitter.Node) -> list[tree_sitter.Node] | None:
        """Record the site `node` is, if it is one, and return the nodes still to walk (the
        values of its message); `None` when `node` is no site."""
        kind = node.type
        if kind == "call_expression":
            return self._call(node)
        if kind in _ELEMENTS:
            return self._element(node)
        return None

    def _call(self, call: tree_sitter.Node) -> list[tree_sitter.Node] | None:
        function = call.child_by_field_name("function")
        arguments = call.child_by_field_name("arguments")
        if function is None or arguments is None:
            return None
        macro = self.names.macro(function)
        if macro is None and function.type == "call_expression":  # t(i18n)`…`
            inner = self.names.macro(function.child_by_field_name("function"))
            macro = inner if inner == "t" and arguments.type == "template_string" else None
        if macro in _MESSAGE_MACROS or macro in _CHOICE_MACROS:
            message = _Message(self.names, self.document)
            if arguments.type == "template_string":
                return self._record(
                    call, message, lambda: _both(message.whole(message.template(arguments)[1]))
                )
            listed = arguments.named_children
            if macro in _CHOICE_MACROS:
                return self._record(
                    call, message, lambda: _both(message.whole(message.choice(call, macro)))
                )
            if listed and listed[0].type == "object":
                return self._record(call, message, lambda: message.descriptor(listed[0]))
            if macro == "t":  # `t(descriptor)`: a runtime lookup of a value
                self.claimed.add(call.id)
            return None
        if self._runtime(function):
            self.claimed.add(call.id)
            listed = arguments.named_children if arguments.type == "arguments" else []
            if listed:
                self._lookup(call, listed[0])
            return list(listed)
        return None

    def _runtime(self, function: tree_sitter.Node) -> bool:
        """`_(…)` of `useLingui`, `i18n._(…)`, `i18n.t(…)` on Lingui's `i18n`."""
        if function.type == "identifier":
            return node_text(function) in self.names.runtime and node_text(function) != "i18n"
        if function.type != "member_expression":
            return False
        prop = function.child_by_field_name("property")
        target = function.child_by_field_name("object")
        if prop is None or target is None or node_text(prop) not in ("_", "t"):
            return False
        last = node_text(target).rsplit(".", 1)[-1]
        return last == "i18n" or node_text(target) in self.names.runtime

    def _lookup(self, call: tree_sitter.Node, argument: tree_sitter.Node) -> None:
        """`i18n._('id')` names its id; a computed text protects what its static parts reach;
        any other value (a descriptor, `msg` macro, a variable) is the message written where
        it was made."""
        while argument.type in ("parenthesized_expression", "as_expression", "non_null_expression"):
            inner = named_child(argument, 0)
            if inner is None:
                return
            argument = inner
        if argument.type == "string":
            text = string_value(argument)
            self.sites.append(LinguiSite(call, Text(text), None, True))
        elif argument.type == "object":
            message = _Message(self.names, self.document)
            try:
                key, default = message.runtime_descriptor(argument)
            except Unreadable:
                self.sites.append(LinguiSite(call, OPAQUE, None, False))
            else:
                self.sites.append(LinguiSite(call, Text(key), default, True))
        elif argument.type in ("template_string", "binary_expression") and (
            argument.type == "binary_expression" or "${" in node_text(argument)
        ):
            self.sites.append(LinguiSite(call, self.value_of(argument), None, False))

    def _element(self, element: tree_sitter.Node) -> list[tree_sitter.Node] | None:
        tag = _opening(element)
        name = tag.child_by_field_name("name")
        if name is None:
            return None
        macro = self.names.macro(name)
        message = _Message(self.names, self.document)
        if macro == "Trans":
            values = self._record(element, message, lambda: message.trans(element))
            self._add_v4_spelling(element)
            return values
        if macro in _CHOICE_ELEMENTS:
            return self._record(element, message, lambda: message.choice_element(element, macro))
        if node_text(name) in self.names.runtime_trans:
            self.claimed.add(element.id)
            attributes = _attributes(tag)
            if "id" in attributes or not any(
                child.type == "jsx_expression" for child in tag.named_children
            ):
                self._record(element, message, lambda: message.runtime_trans(element))
            return None
        return None

    def _add_v4_spelling(self, element: tree_sitter.Node) -> None:
        """Lingui 4 normalised a `<Trans>`'s white space over the whole message, not per JSX
        text as v5 does: when that spells the message otherwise, the catalog may hold either."""
        site = self.sites[-1]
        if not site.derived or site.node.id != element.id or not isinstance(site.key, Text):
            return
        attributes = _attributes(_opening(element))
        if "id" in attributes:
            return
        older = _Message(self.names, self.document, v4=True)
        try:
            key, _ = older.trans(element)
        except Unreadable:
            return
        if key != site.key.value:
            spelled = Branches([site.key, Text(key)])
            generated = site.generated
            if older.generated is not None:
                generated = tuple(dict.fromkeys([*generated, older.generated]))
            self.sites[-1] = site._replace(key=spelled, spellings=True, generated=generated)

    def _record(
        self,
        node: tree_sitter.Node,
        message: _Message,
        derive: Callable[[], tuple[str, str | None]],
    ) -> list[tree_sitter.Node]:
        self.claimed.add(node.id)
        try:
            key, text = derive()
        except Unreadable:
            self.sites.append(LinguiSite(node, OPAQUE, None, False))
            return list(node.named_children)
        self.claimed.update(message.consumed)
        listed = node.parent
        if listed is not None and listed.type == "arguments" and listed.named_children[0] == node:
            # `t(msg`…`)` of a handed `I18n`: a lookup of this message, not a key of its own
            assert listed.parent is not None
            self.claimed.add(listed.parent.id)
        default = Text(text) if text is not None else None
        generated = () if message.generated is None else (message.generated,)
        self.sites.append(LinguiSite(node, Text(key), default, True, generated=generated))
        return message.values


class _Message:
    """One message as Lingui's macro builds it: text, `{name}` and positional `{0}`
    arguments, `<0>…</0>` elements, ICU choices; and the nodes that are its values."""

    def __init__(self, names: _Names, document: bytes, *, v4: bool = False) -> None:
        self.names = names
        self.document = document
        self.v4 = v4
        self.index = 0
        self.elements = 0
        self.values: list[tree_sitter.Node] = []
        self.consumed: set[int] = set()
        self.generated: str | None = None
        """The id Lingui generates of the whole message, once read, when it has no explicit
        id (`generated_id`)."""

    def whole(self, text: str, context: str = "") -> str:
        """`text` as the whole message (no explicit id): its generated id noted."""
        self.generated = generated_id(text, context)
        return text

    # -- the descriptor ----------------------------------------------------------------------

    def descriptor(self, node: tree_sitter.Node) -> tuple[str, str | None]:
        """`t({ id?, message, context?, comment? })`, `defineMessage({…})`, `msg({…})`."""
        fields = _fields(node)
        message: str | None = None
        if "message" in fields:
            value = fields["message"]
            message = self.template(value)[1] if value.type == "template_string" else None
            if message is None:
                message = self.piece(value, ignore_expression=True)
        return self._keyed(fields.get("id"), fields.get("context"), message)

    def runtime_descriptor(self, node: tree_sitter.Node) -> tuple[str, Text | None]:
        """`i18n._({ id, message?, context? })` written without a macro: its `id` is its key."""
        fields = _fields(node)
        if "id" not in fields:
            raise Unreadable
        key, _ = self._keyed(fields["id"], fields.get("context"), None)
        message = _literal(fields.get("message"))
        return key, Text(message) if message is not None else None

    def _keyed(
        self,
        id_node: tree_sitter.Node | None,
        context_node: tree_sitter.Node | None,
        message: str | None,
    ) -> tuple[str, str | None]:
        explicit = _literal(id_node) if id_node is not None else None
        if explicit is None and message is None:
            raise Unreadable
        context = _literal(context_node) if context_node is not None else None
        key = explicit if explicit is not None else message
        assert key is not None
        if explicit is None:
            self.whole(key, context or "")
        if context:
            key = context + CONTEXT_SEPARATOR + key
        return key, message

    # -- JavaScript ----------------------------------------------------------------------------

    def template(self, node: tree_sitter.Node) -> tuple[str, str]:
        """A template literal's message (`node` is the `template_string`); (key, text)."""
        pieces: list[str] = []
        start = node.start_byte + 1
        for child in node.named_children:
            if child.type != "template_substitution":
                continue
            pieces.append(self._cooked(start, child.start_byte))
            start = child.end_byte
            inner = _unparenthesized(named_child(child, 0))
            if inner is None:
                raise Unreadable
            if inner.type == "call_expression":
                pieces.append(self.piece(inner, ignore_expression=False) or "")
            else:
                pieces.append(self.argument(inner))
        pieces.append(self._cooked(start, node.end_byte - 1))
        text = "".join(pieces)
        return text, text

    def _cooked(self, start: int, end: int) -> str:
        raw = self.document[start:end].decode("utf-8", "replace")
        if "\\" not in raw:
            return raw.replace("\r\n", "\n").replace("\r", "\n")
        raw = re.sub(r"\\(\r\n|\n|\r|\u2028|\u2029)", "", raw)  # line continuations
        return decode_escapes(raw.replace("\r\n", "\n").replace("\r", "\n"))

    def piece(self, node: tree_sitter.Node, *, ignore_expression: bool) -> str | None:
        """What a node adds to a message: a macro inside it, a string, or (unless
        `ignore_expression`) an argument."""
        node = _unparenthesized(node) or node
        if node.type == "call_expression":
            function = node.child_by_field_name("function")
            arguments = node.child_by_field_name("arguments")
            macro = self.names.macro(function)
            if macro is None and function is not None and function.type == "call_expression":
                inner = self.names.macro(function.child_by_field_name("function"))
                macro = "t" if inner == "t" else None
            if (
                arguments is not None
                and arguments.type == "template_string"
                and macro in (_MESSAGE_MACROS)
            ):
                self.consumed.add(node.id)
                return self.template(arguments)[1]
            if macro == "arg" and arguments is not None and arguments.named_children:
                self.consumed.add(node.id)
                first = arguments.named_children[0]
                self.values.append(first)
                return "{" + self._name_of(first) + "}"
            if macro in _CHOICE_MACROS:
                self.consumed.add(node.id)
                return self.choice(node, macro)
        if node.type == "string":
            return string_value(node)
        if ignore_expression:
            return None
        return self.argument(node)

    def argument(self, node: tree_sitter.Node) -> str:
        """`{name}` for an identifier, `{label}` for `{ label: value }` or `ph({ label })`,
        else the next positional `{0}`."""
        while node.type in ("as_expression", "parenthesized_expression"):
            inner = named_child(node, 0)
            if inner is None:
                break
            node = inner
        labeled = node
        if (
            node.type == "call_expression"
            and self.names.macro(node.child_by_field_name("function")) == "ph"
        ):
            arguments = node.child_by_field_name("arguments")
            first = (
                arguments.named_children[0]
                if arguments is not None and arguments.named_children
                else None
            )
            if first is None or first.type != "object":
                raise Unreadable
            self.consumed.add(node.id)
            labeled = first
        if labeled.type == "object":
            properties = labeled.named_children
            if len(properties) != 1:
                raise Unreadable
            only = properties[0]
            if only.type == "shorthand_property_identifier":
                self.values.append(only)
                return "{" + node_text(only) + "}"
            key = only.child_by_field_name("key")
            value = only.child_by_field_name("value")
            if only.type != "pair" or key is None or key.type != "property_identifier":
                raise Unreadable
            if value is not None:
                self.values.append(value)
            return "{" + node_text(key) + "}"
        self.values.append(node)
        return "{" + self._name_of(node) + "}"

    def _name_of(self, node: tree_sitter.Node) -> str:
        if node.type == "identifier":
            return node_text(node)
        name = str(self.index)
        self.index += 1
        return name

    def choice(self, call: tree_sitter.Node, macro: str) -> str:
        """`plural(count, { one: '# book', other: '# books' })` → `{count, plural, one {# book}
        other {# books}}`."""
        arguments = call.child_by_field_name("arguments")
        listed = arguments.named_children if arguments is not None else []
        if len(listed) < 2 or listed[1].type != "object":
            raise Unreadable
        name = self.argument(listed[0])[1:-1]
        offset: str | None = None
        options: list[str] = []
        for pair in listed[1].named_children:
            key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
            if pair.type != "pair" or key is None or value is None:
                raise Unreadable
            option = self._choice_name(key)
            if _CHOICE_MACROS[macro] != "select" and option == "offset":
                offset = _literal(value) if value.type == "string" else node_text(value)
                continue
            if value.type == "template_string":
                text = self.template(value)[1]
            elif value.type == "string":
                text = string_value(value)
            else:
                text = self.piece(value, ignore_expression=False) or ""
            options.append(_META_OPTION.sub(r"\1", option) + " {" + text + "}")
        return self._format(name, _CHOICE_MACROS[macro], offset, options)

    def _choice_name(self, key: tree_sitter.Node) -> str:
        if key.type == "number":
            return "=" + node_text(key)
        if key.type == "property_identifier":
            return node_text(key)
        if key.type == "string":
            text = string_value(key)
            if _INTEGER_KEY.fullmatch(text):  # JavaScript orders such keys first
                raise Unreadable
            return text
        raise Unreadable

    @staticmethod
    def _format(name: str, format_name: str, offset: str | None, options: list[str]) -> str:
        parts = ([f"offset:{offset}"] if offset is not None else []) + options
        return "{" + f"{name}, {format_name}, {' '.join(parts)}" + "}"

    # -- JSX -----------------------------------------------------------------------------------

    def trans(self, element: tree_sitter.Node) -> tuple[str, str | None]:
        """`<Trans id? context?>…children…</Trans>`."""
        attributes = _attributes(_opening(element))
        pieces = self._children(element)
        if not pieces:
            raise Unreadable
        text = _v4_whitespace("".join(pieces)) if self.v4 else "".join(pieces)
        key, _ = self._keyed(
            _attribute_value(attributes.get("id")),
            _attribute_value(attributes.get("context")),
            text,
        )
        if "id" in attributes and _attribute_literal(attributes["id"]) is None:
            raise Unreadable
        if "context" in attributes and _attribute_literal(attributes["context"]) is None:
            raise Unreadable
        return key, text

    def runtime_trans(self, element: tree_sitter.Node) -> tuple[str, str | None]:
        """`<Trans id="…" message="…" />` of `@lingui/react`, written without the macro."""
        attributes = _attributes(_opening(element))
        if "id" not in attributes or _attribute_literal(attributes["id"]) is None:
            raise Unreadable
        message = _attribute_literal(attributes["message"]) if "message" in attributes else None
        key = _attribute_literal(attributes["id"]) or ""
        if "context" in attributes:
            context = _attribute_literal(attributes["context"])
            if context is None:
                raise Unreadable
            if context:
                key = context + CONTEXT_SEPARATOR + key
        return key, message

    def choice_element(self, element: tree_sitter.Node, macro: str) -> tuple[str, str | None]:
        """`<Plural value={n} one="# book" other="# books" />` and `<Select>`,
        `<SelectOrdinal>`, with `id`/`context` as on `<Trans>`."""
        tag = _opening(element)
        text = self._choice_element(tag, _CHOICE_ELEMENTS[macro])
        attributes = _attributes(tag)
        for name in ("id", "context"):
            if name in attributes and _attribute_literal(attributes[name]) is None:
                raise Unreadable
        return self._keyed(
            _attribute_value(attributes.get("id")),
            _attribute_value(attributes.get("context")),
            text,
        )

    def _choice_element(self, tag: tree_sitter.Node, format_name: str) -> str:
        name = ""
        offset: str | None = None
        options: list[str] = []
        for attribute in tag.named_children:
            if attribute.type != "jsx_attribute":
                continue
            key = named_child(attribute, 0)
            if key is None or key.type != "property_identifier":
                continue  # a namespaced name
            option = node_text(key)
            if option in _NOT_CHOICES:
                continue
            value = named_child(attribute, 1)
            if value is None:
                raise Unreadable
            if option == "value":
                inner = _expression_inside(value) if value.type == "jsx_expression" else value
                if inner is None:
                    raise Unreadable
                name = self.argument(inner)[1:-1]
            elif format_name != "select" and option == "offset":
                inner = _expression_inside(value) if value.type == "jsx_expression" else value
                offset = (
                    _literal(inner)
                    if inner is not None and inner.type == "string"
                    else (node_text(inner) if inner is not None else None)
                )
            else:
                if value.type == "string":
                    text = node_text(value)[1:-1]  # the raw text, as the macro takes it
                elif value.type == "jsx_expression":
                    text = "".join(self._expression_child(value))
                else:
                    text = "".join(self._jsx_child(value))
                option = re.sub(
                    r"_(\w+)", r"\1", re.sub(r"_(\d+)", r"=\1", option, count=1), count=1
                )
                options.append(f"{option} {{{text}}}")
        return self._format(name, format_name, offset, options)

    def _children(self, element: tree_sitter.Node) -> list[str]:
        """The message pieces of an element's children (an empty list for none)."""
        if element.type != "jsx_element":
            return []
        opening = element.child_by_field_name("open_tag")
        closing = element.child_by_field_name("close_tag")
        start = opening.end_byte if opening is not None else element.start_byte
        end = closing.start_byte if closing is not None else element.end_byte
        pieces: list[str] = []
        for child in element.named_children:
            if child.type not in _CHILDREN or child.start_byte < start or child.end_byte > end:
                continue
            self._text(start, child.start_byte, pieces)
            start = child.end_byte
            if child.type == "jsx_expression":
                pieces.extend(self._expression_child(child))
            else:
                pieces.extend(self._jsx_child(child))
        self._text(start, end, pieces)
        return pieces

    def _text(self, start: int, end: int, pieces: list[str]) -> None:
        if start >= end:
            return
        raw = self.document[start:end].decode("utf-8", "replace")
        if "<" in raw or "{" in raw:  # markup the parser could not read
            raise Unreadable
        text = decode_jsx_entities(raw)
        pieces.append(text if self.v4 else clean_jsx_text(text))

    def _expression_child(self, container: tree_sitter.Node) -> list[str]:
        inner = _unparenthesized(_expression_inside(container))
        if inner is None:  # `{}` or `{/* comment */}`: an argument Lingui leaves out
            self.index += 1
            return [""]
        if inner.type == "spread_element":
            raise Unreadable
        if inner.type == "string":
            return [string_value(inner)]
        if inner.type == "template_string":
            return [self.template(inner)[1]]
        if inner.type in _ELEMENTS:
            return self._jsx_child(inner)
        return [self.argument(inner)]

    def _jsx_child(self, element: tree_sitter.Node) -> list[str]:
        name = _opening(element).child_by_field_name("name")
        macro = self.names.macro(name)
        if macro == "Trans":
            self.consumed.add(element.id)
            return self._children(element)
        if macro in _CHOICE_ELEMENTS:
            self.consumed.add(element.id)
            return [self._choice_element(_opening(element), _CHOICE_ELEMENTS[macro])]
        index = self.elements
        self.elements += 1
        for attribute in _opening(element).named_children:  # its props are values
            if attribute.type in ("jsx_attribute", "jsx_expression"):
                self.values.append(attribute)
        inner = self._children(element)
        if element.type == "jsx_self_closing_element" or not inner:
            return [f"<{index}/>"]
        return [f"<{index}>{''.join(inner)}</{index}>"]


_V4_KEEP_SPACE = re.compile(r"\s*(?:\r\n|\r|\n)+\s*")
_V4_AROUND_TAGS = re.compile(r"(?:([>}])(?:\r\n|\r|\n)+\s*|(?:\r\n|\r|\n)+\s*(?=[<{]))")
_V4_BEFORE_BRACE = re.compile(r"\s+}")


def _v4_whitespace(text: str) -> str:
    """Lingui 4's `normalizeWhitespace` of a JSX message: line breaks and the white space
    around them dropped next to a tag or a placeholder and made one space elsewhere, white
    space before a `}` dropped, the ends trimmed."""
    text = _V4_AROUND_TAGS.sub(lambda match: match.group(1) or "", text)
    text = _V4_KEEP_SPACE.sub(" ", text).replace("\\n", "\n").replace("\\s", " ")
    return _V4_BEFORE_BRACE.sub("}", text).strip()


def _both(text: str) -> tuple[str, str]:
    return text, text


def _opening(element: tree_sitter.Node) -> tree_sitter.Node:
    if element.type == "jsx_element":
        tag = element.child_by_field_name("open_tag")
        if tag is not None:
            return tag
    return element


def _attributes(tag: tree_sitter.Node) -> dict[str, tree_sitter.Node]:
    found = {}
    for attribute in tag.named_children:
        if attribute.type == "jsx_attribute":
            key = named_child(attribute, 0)
            if key is not None and key.type == "property_identifier":
                found[node_text(key)] = attribute
    return found


def _attribute_value(attribute: tree_sitter.Node | None) -> tree_sitter.Node | None:
    if attribute is None:
        return None
    value = named_child(attribute, 1)
    if value is not None and value.type == "jsx_expression":
        return _expression_inside(value)
    return value


def _attribute_literal(attribute: tree_sitter.Node) -> str | None:
    value = _attribute_value(attribute)
    return _literal(value) if value is not None else None


def _expression_inside(container: tree_sitter.Node | None) -> tree_sitter.Node | None:
    if container is None:
        return None
    for child in container.named_children:
        if child.type != "comment":
            return child
    return None


def _unparenthesized(node: tree_sitter.Node | None) -> tree_sitter.Node | None:
    while node is not None and node.type == "parenthesized_expression":
        node = named_child(node, 0)
    return node


def _literal(node: tree_sitter.Node | None) -> str | None:
    """A string, or a template literal without substitutions, as its text."""
    node = _unparenthesized(node)
    if node is None:
        return None
    if node.type == "string":
        return string_value(node)
    if node.type == "template_string" and not any(
        child.type == "template_substitution" for child in node.named_children
    ):
        return decode_escapes(node_text(node)[1:-1])
    return None


def _fields(node: tree_sitter.Node) -> dict[str, tree_sitter.Node]:
    """The `id`, `message`, `context` fields of a descriptor written as an object literal;
    a spread or a computed field makes it unreadable."""
    fields: dict[str, tree_sitter.Node] = {}
    for child in node.named_children:
        if child.type == "spread_element":
            raise Unreadable
        if child.type != "pair":
            continue
        key, value = child.child_by_field_name("key"), child.child_by_field_name("value")
        if key is None or value is None:
            continue
        if key.type == "property_identifier" and node_text(key) in ("id", "message", "context"):
            fields[node_text(key)] = value
    for name in ("id", "context"):
        if name in fields and _literal(fields[name]) is None:
            raise Unreadable
    return fields


__all__ = [
    "CONTEXT_SEPARATOR",
    "MACRO_MODULES",
    "RUNTIME_MODULES",
    "LinguiFile",
    "LinguiSite",
    "generated_id",
    "lingui_sites",
    "uses_lingui",
]
