"""Angular templates as one TypeScript document for the extraction engine: the HTML read by
tree-sitter's HTML grammar, each expression in it (interpolations, bindings, events, structural
directives, control-flow blocks) written as a statement with its pipes turned into calls, and a
map from the document's offsets back to the template's.

`'a.b' | translate:params` becomes `translate('a.b', params)`, `<p translate>a.b</p>` becomes
`translate("a.b")`, and `*transloco="let t; read: 'page'"` wraps what the element holds in a
block where `t` reads `page.` + its key (`const t = __ngRead('page')`, `READ_FACTORY`).
Pipes and directives that take no key stay calls of names no translator has
(`__pipe_date(…)`), so a key built from their output is dynamic.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from typing import NamedTuple

import tree_sitter

from i18nprune.scan.callees import READ_FACTORY, CalleeNames
from i18nprune.scan.markup import expression_end, literal_end
from i18nprune.scan.syntax_errors import RESERVED_WORDS
from i18nprune.syntax_tree import parse_html

_SPACE = b" \t\r\n\f"
_AS_ALIAS = re.compile(rb"(?:^|\s+)as\s+[\w$]+\s*$")
_LET = re.compile(rb"\s*let\s+([\w$]+)(?:\s*=\s*[\w$.]+)?\s*")
_KEY = re.compile(rb"\s*([\w$]+)\s*:?\s*")
_CHAINED = re.compile(rb"\s*([\w$.]+)\s+(?!as\b)[A-Za-z_$][\w$]*\s*:?\s*(?=\S)")
_FOR_ITEM = re.compile(rb"\s*[\w$]+\s+of\s+")
_BLOCK = re.compile(rb"\{\{|@(?:else\s+if|if|for|switch|case|defer|let)\b")
_NAMES_TO_ANGULAR = frozenset(RESERVED_WORDS) - {
    b"true",
    b"false",
    b"null",
    b"this",
    b"typeof",
    b"void",
    b"in",
}
_RESERVED = re.compile(
    rb"(?<![\w$.])(?:" + b"|".join(sorted(_NAMES_TO_ANGULAR)) + rb")(?![\w$]|\s*:(?!:))"
)
"""JavaScript's reserved words that Angular's expressions read as names (outside strings,
not a member after `.`, not an object literal's key)."""
_UNKNOWN_TEXT = b"__ngText"
"""An identifier no translator or constant has: a text the template computes."""
_PREFIX_INPUTS = ("read", "context", "prefix")
"""The structural directive's options that give its `t` a key prefix (Transloco's `read`, and
`context`, its name before Transloco 2)."""
_PREFIX_ATTRIBUTES = ("Read", "Prefix")


class OffsetMap:
    """Where each byte of a document came from in the template: copied ranges map one to one,
    text written in between maps to the template offset it stands for."""

    def __init__(self) -> None:
        self._starts: list[int] = []
        self._origins: list[int] = []
        self._copied: list[bool] = []

    def add(self, at: int, origin: int, *, copied: bool) -> None:
        self._starts.append(at)
        self._origins.append(origin)
        self._copied.append(copied)

    def source_offset(self, offset: int) -> int:
        """The template offset of document offset `offset`."""
        index = bisect_right(self._starts, offset) - 1
        if index < 0:
            return 0
        origin = self._origins[index]
        return origin + offset - self._starts[index] if self._copied[index] else origin


class TemplateDocument(NamedTuple):
    """The TypeScript view of a template; `error` is the template offset of the first markup
    the HTML grammar could not read (`None`: it read all of it)."""

    document: bytes
    origin: OffsetMap
    error: int | None


def template_document(source: bytes, names: CalleeNames) -> TemplateDocument:
    """The TypeScript document of the Angular template `source`, whose key pipes and
    directives are `names.pipes` and `names.directives`."""
    tree = parse_html(_markup_view(source))
    writer = _Writer(source, names)
    writer.children(tree.root_node)
    return TemplateDocument(bytes(writer.out), writer.origin, _first_error(tree.root_node))


_BLANKS = bytes(b if b in b"\r\n" else 0x20 for b in range(256))


def _markup_view(source: bytes) -> bytes:
    """`source` with what its interpolations and control-flow blocks' parameters hold
    blanked (same length, line breaks kept): Angular reads them before the markup, so
    `{{ a > 1 ? 'x' : 'y' }}` and `@if (a < b)` are not markup, which the HTML grammar would
    take them for. The expressions are read from `source` itself."""
    view = bytearray(source)
    end = len(source)
    position = 0
    while (found := _BLOCK.search(source, position)) is not None:
        start = found.end()
        if found.group() == b"{{":
            close = expression_end(source, start, end, b"}}")
        elif found.group() == b"@let":
            close = expression_end(source, start, end, b";")
        else:
            while start < end and source[start] in _SPACE:
                start += 1
            close = (
                expression_end(source, start + 1, end, b")")
                if source[start : start + 1] == b"("
                else -1
            )
        if close < 0:
            position = found.end()
            continue
        view[start:close] = source[start:close].translate(_BLANKS)
        position = close
    _blank_text_marks(view)
    return bytes(view)


_ENTITY = re.compile(rb"&(?:[A-Za-z][A-Za-z0-9]*|#[0-9]+|#[xX][0-9A-Fa-f]+);")
_TAG_START = re.compile(rb"</?[A-Za-z]|<!")


def _blank_text_marks(view: bytearray) -> None:
    """Blank the `>`, `&` and `<` that a template's text holds as characters (`Quality &
    Root`, `a > b`): HTML reads them as text, the HTML grammar as errors. Tags (their quoted
    values included) and comments are passed over."""
    end = len(view)
    position = 0
    while position < end:
        char = view[position]
        if char == ord("<"):
            if view.startswith(b"<!--", position):
                close = view.find(b"-->", position + 4)
                position = end if close < 0 else close + 3
                continue
            if _TAG_START.match(view, position):
                position = _tag_close(view, position + 1)
                continue
            view[position] = 0x20
        elif char == ord(">") or (char == ord("&") and not _ENTITY.match(view, position)):
            view[position] = 0x20
        position += 1


def _tag_close(view: bytearray, position: int) -> int:
    """The offset after the `>` that ends the tag whose name starts at `position`."""
    quote = 0
    end = len(view)
    while position < end:
        char = view[position]
        if quote:
            if char == quote:
                quote = 0
        elif char in b"\"'":
            quote = char
        elif char == ord(">"):
            return position + 1
        position += 1
    return end


def _first_error(root: tree_sitter.Node) -> int | None:
    if not root.has_error:
        return None
    cursor = [root]
    while cursor:
        node = cursor.pop()
        if node.is_error or node.is_missing:
            return node.start_byte
        cursor.extend(reversed([child for child in node.children if child.has_error]))
    return root.start_byte


class _Writer:
    """The document under construction, and its offset map."""

    def __init__(self, source: bytes, names: CalleeNames) -> None:
        self.source = source
        self.out = bytearray()
        self.origin = OffsetMap()
        self.pipes = names.pipes
        self.directives = names.directives

    # -- writing ------------------------------------------------------------------------------

    def copy(self, start: int, end: int) -> None:
        if start < end:
            self.origin.add(len(self.out), start, copied=True)
            self.out += self.source[start:end]

    def code(self, start: int, end: int) -> None:
        """Copy expression code: a JavaScript reserved word Angular reads as a name of the
        component (`(click)="delete()"`) is renamed `_…`, keeping its length."""
        if start >= end:
            return
        source = self.source
        text = bytearray(source[start:end])
        position = start
        while position < end:  # the words outside strings
            quote = min(
                (
                    at
                    for at in (source.find(q, position, end) for q in (b"'", b'"', b"`"))
                    if at >= 0
                ),
                default=end,
            )
            for word in _RESERVED.finditer(source, position, quote):
                text[word.start() - start : word.end() - start] = b"_" * len(word.group())
            position = _quoted_end(source, quote, end) if quote < end else end
        self.origin.add(len(self.out), start, copied=True)
        self.out += text

    def insert(self, text: bytes, anchor: int) -> None:
        self.origin.add(len(self.out), anchor, copied=False)
        self.out += text

    def statement(self, start: int, end: int) -> None:
        """One expression of the template, as a statement of its own."""
        start, end = _trimmed(self.source, start, end)
        if start < end:
            self.insert(b";(", start)
            self.expression(start, end)
            self.insert(b")\n", end)

    def literal(self, start: int, end: int) -> None:
        """The text of an attribute value as a string literal: copied with its quotes when
        they make one as written (so its offset is the template's), else written out."""
        source = self.source
        text = source[start:end]
        quote = source[start - 1 : start]
        if (
            quote in (b'"', b"'")
            and source[end : end + 1] == quote
            and not any(char in text for char in (b"\\", b"\n", b"\r", quote))
        ):
            self.copy(start - 1, end + 1)
        else:
            self.insert(json.dumps(_decoded(source, start, end)).encode(), start)

    def key_call(self, callee: bytes, start: int, end: int) -> None:
        """`callee(expression)`: the directive or pipe `callee` given the expression's value."""
        start, end = _trimmed(self.source, start, end)
        self.insert(b";" + callee + b"(", start)
        self.expression(start, end)
        self.insert(b")\n", end - 1)

    # -- expressions --------------------------------------------------------------------------

    def expression(self, start: int, end: int) -> None:
        """An Angular expression with its pipes (`value | pipe:arg:arg | …`) as calls."""
        source = self.source
        bars = [
            at
            for at in _top_level(source, start, end, b"|")
            if source[at + 1 : at + 2] != b"|" and source[at - 1 : at] != b"|"
        ]
        if not bars:
            self.operand(start, end)
            return
        pipes = list(zip(bars, [*bars[1:], end], strict=True))
        for bar, pipe_end in reversed(pipes):
            name_start, _ = _trimmed(source, bar + 1, pipe_end)
            name = re.match(rb"[\w$]*", source[name_start:pipe_end])
            pipe = name.group() if name is not None else b""
            callee = pipe if pipe.decode("ascii", "replace") in self.pipes else b"__pipe_" + pipe
            self.insert(callee + b"(", start)
        first = source[_trimmed(source, bars[0] + 1, end)[0] : end]
        named = re.match(rb"[\w$]*", first)
        scoped = (
            named is not None
            and named.group().decode("ascii", "replace") in self.pipes
            and len(_pipe_arguments(source, bars[0] + 1, pipes[0][1])) >= 2
        )
        if scoped:
            # `'k' | transloco:params:'admin'`: the last argument is a language or a scope,
            # which Transloco reads the key in (`admin.k`): the key, or under any scope.
            self.insert(b"(__ngScope ? (", start)
            self.operand(start, bars[0])
            self.insert(b') : __ngScope + "." + (', start)
            self.operand(start, bars[0])
            self.insert(b"))", bars[0])
        else:
            self.operand(start, bars[0])
        for bar, pipe_end in pipes:
            for colon, argument_end in _pipe_arguments(source, bar + 1, pipe_end):
                self.insert(b", ", colon)
                self.expression(colon + 1, argument_end)
            self.insert(b")", _trimmed(source, bar, pipe_end)[1] - 1)

    def operand(self, start: int, end: int) -> None:
        """An expression without top-level pipes: copied, with what its brackets and template
        literals' `${…}` hold (which may have pipes: `f(a | p)`, `[x | p]`, `{ k: v | p }`,
        `` `${id | slice:0:5}…` ``) converted."""
        source = self.source
        position = start
        for opener in _top_level(source, start, end, b"([{`"):
            if source[opener] == ord("`"):
                close = literal_end(source, opener, end)
                if close < 0:
                    break
                self.code(position, opener)
                self.template_literal(opener, close)
                position = close
                continue
            close = expression_end(source, opener + 1, end, _CLOSERS[source[opener]])
            if close < 0:
                break
            self.code(position, opener + 1)
            self.items(opener + 1, close, entries=source[opener] == ord("{"))
            position = close
        self.code(position, end)

    def template_literal(self, start: int, end: int) -> None:
        """The template literal [start, end): its text copied, each `${…}` an expression."""
        source = self.source
        position = start
        at = start + 1
        while at < end - 1:
            if source[at] == ord("\\"):
                at += 2
            elif source.startswith(b"${", at):
                close = expression_end(source, at + 2, end, b"}")
                self.copy(position, at + 2)
                self.expression(at + 2, close)
                position = at = close
            else:
                at += 1
        self.copy(position, end)

    def items(self, start: int, end: int, *, entries: bool) -> None:
        """The comma-separated items inside brackets; `entries`: an object literal's."""
        position = start
        for comma in [*_top_level(self.source, start, end, b","), end]:
            value = position
            if entries:
                colons = _separating_colons(self.source, position, comma)
                value = colons[0] + 1 if colons else comma
                self.copy(position, value)
            self.expression(value, comma)
            self.copy(comma, min(comma + 1, end))
            position = comma + 1

    def interpolated(self, start: int, end: int) -> None:
        """A text with `{{ … }}` in it as a template literal (its static parts kept)."""
        source = self.source
        text = source[start:end]
        if b"`" in text or b"\\" in text or b"${" in text:
            self.insert(_UNKNOWN_TEXT, start)
            return
        self.insert(b"`", start)
        position = start
        while (open_at := source.find(b"{{", position, end)) >= 0:
            close = expression_end(source, open_at + 2, end, b"}}")
            if close < 0:
                break
            self.copy(position, open_at)
            self.insert(b"${", open_at)
            self.expression(open_at + 2, close)
            self.insert(b"}", close)
            position = close + 2
        self.copy(position, end)
        self.insert(b"`", end)

    # -- markup -------------------------------------------------------------------------------

    def children(self, node: tree_sitter.Node) -> None:
        for child in node.children:
            kind = child.type
            if kind == "element":
                self.element(child)
            elif kind == "text":
                self.text(child.start_byte, child.end_byte)

    def element(self, node: tree_sitter.Node) -> None:
        tag = next(
            (child for child in node.children if child.type in ("start_tag", "self_closing_tag")),
            None,
        )
        attributes = [child for child in tag.children if child.type == "attribute"] if tag else []
        scope = self.translator_scope(attributes)
        text_keys: bytes | None = None
        for attribute in attributes:
            bare = self.attribute(attribute)
            if bare is not None and scope is None:
                text_keys = bare
        if text_keys is not None:
            for child in node.children:
                if child.type == "text":
                    self.text_key(text_keys, child.start_byte, child.end_byte)
        self.children(node)
        if scope is not None:
            self.insert(b"}\n", node.end_byte)

    def translator_scope(self, attributes: list[tree_sitter.Node]) -> bytes | None:
        """Open the block of a structural key directive (`*transloco="let t; read: 'p'"`, or
        `<ng-template transloco let-t translocoRead="p">`): its `t` nests keys under the
        prefix. The directive's name, or `None` when the element has none."""
        source = self.source
        for attribute in attributes:
            name, value = _name_and_value(attribute)
            if name is None:
                continue
            text = _text(source, name)
            directive = text[1:] if text.startswith("*") else text
            if directive not in self.directives:
                continue
            bound = True
            if text.startswith("*") and value is not None:
                local, prefix = _structural(source, value[0], value[1])
            elif not text.startswith("*") and value is None:
                local = _let_name(source, attributes)
                found = _prefix_attribute(source, attributes, directive)
                prefix, bound = found if found is not None else (None, True)
            else:
                continue
            if local is None:
                continue
            anchor = attribute.start_byte
            self.insert(b"{const " + local + b" = " + READ_FACTORY.encode() + b"(", anchor)
            if prefix is not None and bound:
                self.expression(*prefix)
            elif prefix is not None:
                self.literal(*prefix)
            self.insert(b");\n", anchor)
            return directive.encode()
        return None

    def attribute(self, attribute: tree_sitter.Node) -> bytes | None:
        """Write the expressions of one attribute; a key directive written without a value
        (`<p translate>`), whose element's text is the key, returns its name."""
        source = self.source
        name_node, value = _name_and_value(attribute)
        if name_node is None:
            return None
        name = _text(source, name_node)
        if value is None:
            return name.encode() if name in self.directives else None
        start, end = value
        bound = _bound_name(name)
        if bound is not None:
            if bound in self.directives:
                self.key_call(bound.encode(), start, end)
            else:
                self.statement(start, end)
        elif name.startswith("(") or name.startswith("on-"):
            for piece_start, piece_end in _pieces(source, start, end, b";"):
                self.statement(piece_start, piece_end)
        elif name.startswith("*"):
            if name[1:] not in self.directives:
                for piece_start, piece_end in _microsyntax_expressions(source, start, end):
                    self.statement(piece_start, piece_end)
        elif name in self.directives:
            self.insert(b";" + name.encode() + b"(", start)
            if b"{{" in source[start:end]:
                self.interpolated(start, end)
            else:
                self.literal(start, end)
            self.insert(b")\n", end - 1)
        elif b"{{" in source[start:end]:
            self.text(start, end)
        return None

    def text_key(self, directive: bytes, start: int, end: int) -> None:
        """A text child of `<p translate>`: the key, trimmed (one per text node, as
        ngx-translate reads them)."""
        start, end = _trimmed(self.source, start, end)
        if start >= end:
            return
        self.insert(b";" + directive + b"(", start)
        if b"{{" in self.source[start:end]:
            self.interpolated(start, end)
        else:
            self.insert(json.dumps(_decoded(self.source, start, end)).encode(), start)
        self.insert(b")\n", end - 1)

    def text(self, start: int, end: int) -> None:
        """Interpolations and control-flow blocks (`@if (…)`, `@for (…)`, `@let x = …;`)."""
        source = self.source
        position = start
        while (found := _BLOCK.search(source, position, end)) is not None:
            if found.group() == b"{{":
                close = expression_end(source, found.end(), end, b"}}")
                if close < 0:
                    return
                self.statement(found.end(), close)
                position = close + 2
                continue
            keyword = found.group()[1:].split()[0]
            if keyword == b"let":
                close = expression_end(source, found.end(), end, b";")
                close = end if close < 0 else close
                assignment = source.find(b"=", found.end(), close)
                if assignment >= 0:
                    self.statement(assignment + 1, close)
                position = close
                continue
            opener = found.end()
            while opener < end and source[opener] in _SPACE:
                opener += 1
            if opener >= end or source[opener] != ord("("):
                position = found.end()
                continue
            close = expression_end(source, opener + 1, end, b")")
            if close < 0:
                return
            for piece_start, piece_end in _block_expressions(source, keyword, opener + 1, close):
                self.statement(piece_start, piece_end)
            position = close + 1


_CLOSERS = {ord("("): b")", ord("["): b"]", ord("{"): b"}"}


def _name_and_value(
    attribute: tree_sitter.Node,
) -> tuple[tree_sitter.Node | None, tuple[int, int] | None]:
    """An attribute's name node and the range of its value (inside the quotes), if any."""
    name = None
    value = None
    for child in attribute.children:
        if child.type == "attribute_name":
            name = child
        elif child.type == "attribute_value":
            value = (child.start_byte, child.end_byte)
        elif child.type == "quoted_attribute_value":
            value = (child.start_byte + 1, max(child.start_byte + 1, child.end_byte - 1))
    return name, value


def _bound_name(name: str) -> str | None:
    """The property a binding sets (`[title]`, `[(ngModel)]`, `bind-title`, `[attr.title]`),
    or `None` for another attribute."""
    if name.startswith("[(") and name.endswith(")]"):
        return name[2:-2]
    if name.startswith("[") and name.endswith("]"):
        return name[1:-1]
    for prefix in ("bind-", "bindon-"):
        if name.startswith(prefix):
            return name[len(prefix) :]
    return None


def _structural(source: bytes, start: int, end: int) -> tuple[bytes | None, tuple[int, int] | None]:
    """The `let` name and the `read` (or `prefix`) expression's range of a structural
    directive's microsyntax (`let t; read: 'page'`)."""
    local: bytes | None = None
    prefix: tuple[int, int] | None = None
    for piece_start, piece_end in _pieces(source, start, end, b";,"):
        let = _LET.match(source, piece_start, piece_end)
        if let is not None:
            local = local or let.group(1)
            piece_start = let.end()
        key = _KEY.match(source, piece_start, piece_end)
        if key is not None and key.group(1).decode() in _PREFIX_INPUTS:
            prefix = (key.end(), piece_end)
    return local, prefix


def _let_name(source: bytes, attributes: list[tree_sitter.Node]) -> bytes | None:
    """The name of `<ng-template let-t>`'s implicit context variable."""
    for attribute in attributes:
        name, value = _name_and_value(attribute)
        text = _text(source, name) if name is not None else ""
        if text.startswith("let-") and value is None:
            return text[4:].encode()
    return None


def _prefix_attribute(
    source: bytes, attributes: list[tree_sitter.Node], directive: str
) -> tuple[tuple[int, int], bool] | None:
    """The key prefix input of `<ng-template transloco translocoRead="p">` (or `[…Read]`):
    its value's range, and whether it is an expression (bound) rather than a text."""
    wanted = {directive + suffix for suffix in _PREFIX_ATTRIBUTES}
    for attribute in attributes:
        name, value = _name_and_value(attribute)
        if name is None or value is None:
            continue
        text = _text(source, name)
        if text in wanted:
            return value, False
        if _bound_name(text) in wanted:
            return value, True
    return None


def _microsyntax_expressions(source: bytes, start: int, end: int) -> list[tuple[int, int]]:
    """The expressions of a structural directive's microsyntax (`let item of items; trackBy:
    f`, `cond as x; else other`), without `let` declarations, keys and `as` aliases."""
    found: list[tuple[int, int]] = []
    for index, (piece_start, piece_end) in enumerate(_pieces(source, start, end, b";,")):
        let = _LET.match(source, piece_start, piece_end)
        if let is not None:
            piece_start = let.end()
        if let is not None or index > 0:  # `key expression`, `key: expression`
            key = _KEY.match(source, piece_start, piece_end)
            if key is None:
                continue
            piece_start = key.end()
        # `then yes else no`: bindings may follow one another without a separator, after a
        # plain name (two names in a row are no expression).
        while (chained := _CHAINED.match(source, piece_start, piece_end)) is not None:
            found.append((chained.start(1), chained.end(1)))
            piece_start = chained.end()
        alias = _AS_ALIAS.search(source[piece_start:piece_end])
        found.append((piece_start, piece_start + alias.start() if alias else piece_end))
    return found


def _block_expressions(
    source: bytes, keyword: bytes, start: int, end: int
) -> list[tuple[int, int]]:
    """The expressions in a control-flow block's parentheses: `@if (cond; as x)`,
    `@for (item of items; track item.id; let i = $index)`, `@defer (on idle; when ready)`."""
    found: list[tuple[int, int]] = []
    for index, (piece_start, piece_end) in enumerate(_pieces(source, start, end, b";")):
        piece = source[piece_start:piece_end]
        if keyword == b"for":
            item = _FOR_ITEM.match(piece) if index == 0 else None
            if item is not None:
                found.append((piece_start + item.end(), piece_end))
            elif (track := re.match(rb"\s*track\s+", piece)) is not None:
                found.append((piece_start + track.end(), piece_end))
        elif keyword == b"defer":
            if (when := re.match(rb"\s*(?:prefetch\s+)?when\s+", piece)) is not None:
                found.append((piece_start + when.end(), piece_end))
        elif index == 0:
            alias = _AS_ALIAS.search(piece)
            found.append((piece_start, piece_start + alias.start() if alias else piece_end))
    return found


def _pieces(source: bytes, start: int, end: int, separators: bytes) -> list[tuple[int, int]]:
    """[start, end) cut at the top-level `separators`."""
    pieces = []
    position = start
    for cut in [*_top_level(source, start, end, separators), end]:
        pieces.append((position, cut))
        position = cut + 1
    return pieces


def _pipe_arguments(source: bytes, start: int, end: int) -> list[tuple[int, int]]:
    """The arguments of the pipe written in [start, end) (`translate:params:'fr'`), each as
    the range of the colon before it and the argument's end."""
    colons = _separating_colons(source, start, end)
    return list(zip(colons, [*colons[1:], end][: len(colons)], strict=True))


def _separating_colons(source: bytes, start: int, end: int) -> list[int]:
    """The top-level colons of [start, end) that are not a conditional's (`a ? b : c`)."""
    found: list[int] = []
    pending = 0
    for at in _top_level(source, start, end, b"?:"):
        if source[at] == ord("?"):
            if source[at + 1 : at + 2] in (b".", b"?") or source[at - 1 : at] == b"?":
                continue
            pending += 1
        elif pending:
            pending -= 1
        else:
            found.append(at)
    return found


def _top_level(source: bytes, start: int, end: int, marks: bytes) -> list[int]:
    """The offsets in [start, end) of the bytes of `marks` outside strings and brackets."""
    found: list[int] = []
    depth = 0
    position = start
    while position < end:
        char = source[position]
        if char in b"'\"`":
            if depth == 0 and char in marks:
                found.append(position)
            position = _quoted_end(source, position, end)
            continue
        if char in b"([{":
            if depth == 0 and char in marks:
                found.append(position)
            depth += 1
        elif char in b")]}":
            depth = max(0, depth - 1)
        elif depth == 0 and char in marks:
            found.append(position)
        position += 1
    return found


def _quoted_end(source: bytes, position: int, end: int) -> int:
    """The offset after the string or template literal opening at `position` (`end` when it
    does not close)."""
    close = literal_end(source, position, end)
    return end if close < 0 else close


def _trimmed(source: bytes, start: int, end: int) -> tuple[int, int]:
    while start < end and source[start] in _SPACE:
        start += 1
    while end > start and source[end - 1] in _SPACE:
        end -= 1
    return start, end


def _text(source: bytes, node: tree_sitter.Node) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _decoded(source: bytes, start: int, end: int) -> str:
    return " ".join(source[start:end].decode("utf-8", "replace").split())
