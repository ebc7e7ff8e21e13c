"""Vue and Svelte files as one JavaScript document of the same byte length: scripts kept,
template expressions turned into statements, everything else blanked (offsets stay the file's).
"""

from __future__ import annotations

import re

from i18nprune.scan.grammars import SCRIPT_SUFFIXES, script_lang_grammar
from i18nprune.scan.syntax_errors import RESERVED_WORDS
from i18nprune.syntax_tree import GrammarName

# Every byte but line breaks becomes a space (offsets and line numbers stay the file's).
_BLANKS = bytes(b if b in b"\r\n" else 0x20 for b in range(256))
_VUE_MARKUP = re.compile(rb"<|\{\{")
_SVELTE_MARKUP = re.compile(rb"[<{]")
_TOP_LEVEL_TAG = re.compile(rb"<(!--|[A-Za-z][\w-]*)")
_LANG = re.compile(rb"""\blang\s*=\s*["']?([\w-]+)""")
_SRC = re.compile(rb"""\bsrc\s*=""")
_SPACE = b" \t\r\n\f"
_NAME_END = b" \t\r\n\f=>/"
# vue-i18n's Translation component as a template names it (tags are compared in lower case):
# `<i18n-t>`, `<I18nT>`, `<Translation>` and vue-i18n 8's `<i18n>`; its key is `keypath`, or
# `path` (vue-i18n 8's name for it).
_TRANSLATION_TAGS = frozenset({b"i18n-t", b"i18nt", b"translation", b"i18n"})
_KEY_ATTRIBUTES = frozenset({b"keypath", b"path"})
_BOUND_KEY_ATTRIBUTES = frozenset({b":keypath", b"v-bind:keypath", b":path", b"v-bind:path"})
_ESCAPED_QUOTE = re.compile(rb"\\(?=[\"'`])")
_SVELTE_EACH_SPLIT = (b" as ",)
_SVELTE_AWAIT_SPLIT = (b" then ", b" catch ")


class _Rewrite:
    """The document under construction: blanks that keep newlines, plus copied source ranges."""

    def __init__(self, source: bytes) -> None:
        self.source = source
        self.out = bytearray(source.translate(_BLANKS))

    def keep(self, start: int, end: int) -> None:
        self.out[start:end] = self.source[start:end]

    def put(self, at: int, text: bytes) -> None:
        text = text[: max(0, len(self.out) - at)]  # never grow the document
        self.out[at : at + len(text)] = text

    def keep_expression(self, start: int, end: int) -> None:
        """Keep the Vue template expression [start, end): one that is a bare reserved word
        (`:class="class"`) is a property of the component to Vue, which reads a lone name
        without parsing it; it is renamed `_…` (the grammar would read a keyword)."""
        text = self.source[start:end]
        if text.strip() in RESERVED_WORDS:
            self.out[start:end] = re.sub(rb"\w", b"_", text)
        else:
            self.keep(start, end)

    def comment(self, start: int, end: int) -> None:
        """Turn the HTML comment `<!-- … -->` spanning [start, end) into a block comment."""
        inner = self.source[start + 4 : end - 3].replace(b"*/", b"* ")
        self.put(start, b"/*  " + inner)
        if end - 3 >= start + 4:
            self.put(end - 3, b"*/ ")

    def document(self) -> bytes:
        return bytes(self.out)


_UTF8_BOM = b"\xef\xbb\xbf"


def source_document(content: bytes, suffix: str) -> tuple[bytes, GrammarName]:
    """The document the scan parses for a file of type `suffix` (a key of `SCRIPT_SUFFIXES`,
    `.vue` or `.svelte`), with its grammar: markup through `vue_document`/`svelte_document`,
    a script as it is (a leading byte-order mark blanked, offsets kept)."""
    if suffix == ".vue":
        return vue_document(content)
    if suffix == ".svelte":
        return svelte_document(content)
    if content.startswith(_UTF8_BOM):
        content = b"   " + content[3:]
    return content, SCRIPT_SUFFIXES[suffix]


def vue_document(source: bytes) -> tuple[bytes, GrammarName]:
    """The JavaScript view of a Vue single-file component, and the grammar to parse it with."""
    rewrite = _Rewrite(source)
    grammar: GrammarName = "javascript"
    position = 0
    while match := _TOP_LEVEL_TAG.search(source, position):
        if match.group(1) == b"!--":
            position = _after(source, b"-->", match.end())
            continue
        name = match.group(1).lower()
        open_end = _tag_end(source, match.end())
        attributes = source[match.end() : open_end]
        if attributes.endswith(b"/>"):
            position = open_end
            continue
        lang_match = _LANG.search(attributes)
        lang = lang_match.group(1).decode("ascii", "replace") if lang_match else ""
        if name == b"template":
            close = _matching_template_close(source, open_end)
            if lang in ("", "html"):
                _scan_vue_markup(rewrite, open_end, close)
        else:
            close = source.find(b"</" + name, open_end)
            close = len(source) if close < 0 else close
            if name == b"script" and not _SRC.search(attributes):
                rewrite.keep(open_end, close)
                if lang:
                    grammar = script_lang_grammar(lang)
        position = _after(source, b">", close)
    return rewrite.document(), grammar


def template_strings_document(document: bytes, ranges: list[tuple[int, int]]) -> bytes:
    """The JavaScript view of the Vue templates written as strings in `document` (a
    component's `template: '<p>{{ $t("a") }}</p>'` option), each spanning a range of it:
    everything else blank, offsets the document's. A quote escaped inside the string
    (`\\'`) reads as the quote."""
    unescaped = bytearray(document)
    for start, end in ranges:
        for match in _ESCAPED_QUOTE.finditer(document, start, end):
            unescaped[match.start()] = 0x20
    rewrite = _Rewrite(bytes(unescaped))
    for start, end in ranges:
        _scan_vue_markup(rewrite, start, end)
    return rewrite.document()


def svelte_document(source: bytes) -> tuple[bytes, GrammarName]:
    """The JavaScript view of a Svelte component, and the grammar to parse it with."""
    rewrite = _Rewrite(source)
    grammar: GrammarName = "javascript"
    position, end = 0, len(source)
    while position < end:
        found = _SVELTE_MARKUP.search(source, position)
        if found is None:
            break
        tag = found.start()
        if found.group() == b"{":
            position = _svelte_block(rewrite, tag, end)
            continue
        if source.startswith(b"<!--", tag):
            position = _skip_comment(rewrite, tag, end)
            continue
        match = _TOP_LEVEL_TAG.match(source, tag)
        if match is None:
            position = _skip_non_tag(source, tag)
            continue
        name = match.group(1).lower()
        if name in (b"script", b"style"):
            open_end = _tag_end(source, match.end())
            close = source.find(b"</" + name, open_end)
            close = end if close < 0 else close
            if name == b"script":
                rewrite.keep(open_end, close)
                lang_match = _LANG.search(source, match.end(), open_end)
                if lang_match:
                    grammar = script_lang_grammar(lang_match.group(1).decode("ascii", "replace"))
            position = _after(source, b">", close)
            continue
        position = _scan_tag(rewrite, match.end(), end, name, svelte=True)
    return rewrite.document(), grammar


def _scan_vue_markup(rewrite: _Rewrite, start: int, end: int) -> None:
    source = rewrite.source
    position = start
    while position < end:
        found = _VUE_MARKUP.search(source, position, end)
        if found is None:
            return
        tag = mustache = found.start()
        if found.group() == b"{{":
            close = expression_end(source, mustache + 2, end, b"}}")
            if close < 0:
                return
            rewrite.put(mustache, b";(")
            rewrite.keep_expression(mustache + 2, close)
            rewrite.put(close, b")")
            position = close + 2
            continue
        if source.startswith(b"<!--", tag):
            position = _skip_comment(rewrite, tag, end)
            continue
        match = _TOP_LEVEL_TAG.match(source, tag)
        if match is None:
            position = _skip_non_tag(source, tag)
            continue
        position = _scan_tag(rewrite, match.end(), end, match.group(1).lower(), svelte=False)


def _scan_tag(rewrite: _Rewrite, position: int, end: int, tag: bytes, *, svelte: bool) -> int:
    """Rewrite the attributes of the tag whose name ends at `position`; return the tag's end."""
    source = rewrite.source
    while position < end:
        while position < end and source[position] in _SPACE:
            position += 1
        if position >= end or source[position] == ord(">"):
            return position + 1
        if source.startswith(b"/>", position):
            return position + 2
        if svelte and source[position] == ord("{"):
            close = expression_end(source, position + 1, end, b"}")
            if close < 0:
                return end
            if not source[position + 1 : close].lstrip().startswith(b"..."):
                rewrite.put(position, b";")
                rewrite.keep(position + 1, close)
            position = close + 1
            continue
        name_start = position
        while position < end and source[position] not in _NAME_END:
            position += 1
        if position == name_start:  # a stray '/' or '='
            position += 1
            continue
        name = source[name_start:position]
        while position < end and source[position] in _SPACE:
            position += 1
        if position >= end or source[position] != ord("="):
            continue
        position += 1
        while position < end and source[position] in _SPACE:
            position += 1
        if position >= end:
            return end
        opener = source[position]
        if svelte and opener == ord("{"):
            close = expression_end(source, position + 1, end, b"}")
            if close < 0:
                return end
            rewrite.put(position - 1, b";(")
            rewrite.keep(position + 1, close)
            rewrite.put(close, b")")
            position = close + 1
        elif opener in b"\"'":
            close = source.find(bytes([opener]), position + 1, end)
            if close < 0:
                return end
            if svelte:
                _svelte_quoted_value(rewrite, position + 1, close)
            else:
                _vue_attribute(rewrite, tag, name, name_start, position + 1, close)
            position = close + 1
        else:
            while position < end and source[position] not in b" \t\r\n\f>":
                position += 1
    return end


def _vue_attribute(
    rewrite: _Rewrite, tag: bytes, name: bytes, name_start: int, start: int, end: int
) -> None:
    """Rewrite one quoted Vue attribute value spanning [start, end) according to its directive."""
    bare = name.split(b".", 1)[0] if not name.startswith(b".") else name
    keyed = tag in _TRANSLATION_TAGS
    if bare == b"v-t" or (keyed and bare in _BOUND_KEY_ATTRIBUTES):
        # A key given as an expression (`v-t.preserve` too): make it the argument of a `$t`
        # call at the attribute.
        rewrite.put(name_start - 1, b";$t(")
        rewrite.keep(start, end)
        rewrite.put(end, b")")
    elif keyed and name in _KEY_ATTRIBUTES:
        # A static key: keep its quotes so that it reads as a string literal.
        rewrite.put(name_start - 1, b";$t(")
        rewrite.keep(start - 1, end + 1)
        rewrite.put(end + 1, b")")
    elif name.startswith((b"@", b"v-on:")):
        rewrite.put(start - 1, b";")
        rewrite.keep_expression(start, end)
    elif name == b"v-for":
        separator = re.search(rb"\s(?:in|of)\s", rewrite.source[start:end])
        if separator is not None:
            iterable = start + separator.end()
            rewrite.put(iterable - 2, b";(")
            rewrite.keep_expression(iterable, end)
            rewrite.put(end, b")")
    elif name.startswith((b":", b"v-bind", b".")) or (
        name.startswith(b"v-") and not name.startswith(b"v-slot")
    ):
        rewrite.put(start - 2, b";(")
        rewrite.keep_expression(start, end)
        rewrite.put(end, b")")


def _svelte_quoted_value(rewrite: _Rewrite, start: int, end: int) -> None:
    """Rewrite the `{…}` expressions inside a quoted Svelte attribute value."""
    source = rewrite.source
    position = source.find(b"{", start, end)
    while position >= 0:
        close = expression_end(source, position + 1, end, b"}")
        if close < 0:
            return
        rewrite.put(position, b";")
        rewrite.keep(position + 1, close)
        position = source.find(b"{", close + 1, end)


def _svelte_block(rewrite: _Rewrite, brace: int, end: int) -> int:
    """Rewrite the markup tag `{…}` opening at `brace`; return the position after it."""
    source = rewrite.source
    close = expression_end(source, brace + 1, end, b"}")
    if close < 0:
        return end
    start = brace + 1
    while start < close and source[start] in _SPACE:
        start += 1
    sigil = source[start : start + 1]
    expression: tuple[int, int] | None = (start, close)
    if sigil in (b"#", b"@", b":"):
        word = re.match(rb"[#@:]([\w-]+)(?:\s+if\b)?\s*", source[start:close])
        keyword = word.group(1) if word else b""
        body = start + word.end() if word else close
        if sigil == b"@" and keyword == b"const":
            expression = (start + 1, close)
        elif sigil == b"@" or keyword in (b"if", b"key") or _is_else_if(word):
            expression = (body, close)
        elif keyword == b"each":
            expression = (body, _first_of(source, body, close, _SVELTE_EACH_SPLIT))
        elif keyword == b"await":
            expression = (body, _first_of(source, body, close, _SVELTE_AWAIT_SPLIT))
        else:
            expression = None
    elif sigil == b"/":
        expression = None
    if expression is not None and expression[0] < expression[1]:
        rewrite.put(brace, b";")
        rewrite.keep(*expression)
    return close + 1


def _is_else_if(word: re.Match[bytes] | None) -> bool:
    return word is not None and word.group(1) == b"else" and word.group(0).rstrip().endswith(b"if")


def _first_of(source: bytes, start: int, end: int, separators: tuple[bytes, ...]) -> int:
    found = [expression_end(source, start, end, separator) for separator in separators]
    return min([position for position in found if position >= 0], default=end)


def expression_end(source: bytes, position: int, end: int, closer: bytes) -> int:
    """Where `closer` first occurs outside strings and brackets at or after `position`, or -1.

    Understands quotes, template literals (with nested `${…}`) and bracket nesting, which is all
    a template expression needs to find its end.
    """
    depth = 0
    while position < end:
        if depth == 0 and source.startswith(closer, position):
            return position
        char = source[position]
        if char in b"'\"`":
            position = literal_end(source, position, end)
        else:
            if char in b"([{":
                depth += 1
            elif char in b")]}":
                depth -= 1
                if depth < 0:
                    return -1
            position += 1
        if position < 0:
            return -1
    return -1


def literal_end(source: bytes, position: int, end: int) -> int:
    """The offset after the string or template literal (with nested `${…}`) that opens at
    `position`, or -1 when it does not close before `end`."""
    if source[position] == ord("`"):
        return _template_end(source, position, end)
    return _string_end(source, position, end)


def _string_end(source: bytes, position: int, end: int) -> int:
    quote = source[position]
    position += 1
    while position < end:
        char = source[position]
        if char == ord("\\"):
            position += 2
            continue
        if char == quote:
            return position + 1
        position += 1
    return -1


def _template_end(source: bytes, position: int, end: int) -> int:
    position += 1
    while position < end:
        char = source[position]
        if char == ord("\\"):
            position += 2
        elif char == ord("`"):
            return position + 1
        elif source.startswith(b"${", position):
            close = expression_end(source, position + 2, end, b"}")
            if close < 0:
                return -1
            position = close + 1
        else:
            position += 1
    return -1


def _tag_end(source: bytes, position: int) -> int:
    """The position after the `>` closing the tag whose attributes start at `position`.

    A `>` inside a quoted value or a `{…}` expression (Svelte's `on:load={() => …}`) does not
    close the tag.
    """
    quote = 0
    while position < len(source):
        char = source[position]
        if quote:
            if char == quote:
                quote = 0
        elif char in b"\"'":
            quote = char
        elif char == ord("{"):
            close = expression_end(source, position + 1, len(source), b"}")
            if close < 0:
                return len(source)
            position = close
        elif char == ord(">"):
            return position + 1
        position += 1
    return len(source)


def _matching_template_close(source: bytes, position: int) -> int:
    depth = 1
    for match in re.finditer(rb"<(/?)template\b", source[position:]):
        start = position + match.start()
        if match.group(1):
            depth -= 1
            if depth == 0:
                return start
        elif not source[start : _tag_end(source, start + match.end() - match.start())].endswith(
            b"/>"
        ):
            depth += 1
    return len(source)


def _skip_comment(rewrite: _Rewrite, start: int, end: int) -> int:
    """Mark the HTML comment at `start` (calls in it become commented sites); where to resume."""
    close = min(_after(rewrite.source, b"-->", start + 4), end)
    rewrite.comment(start, close)
    return close


def _skip_non_tag(source: bytes, start: int) -> int:
    """Past a `<` that opens no tag we read: a closing tag entirely, else the `<` alone."""
    return _after(source, b">", start + 1) if source.startswith(b"</", start) else start + 1


def _after(source: bytes, needle: bytes, position: int) -> int:
    found = source.find(needle, position)
    return len(source) if found < 0 else found + len(needle)
