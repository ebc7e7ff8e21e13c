"""The tree-sitter grammars, per-thread parsers and node text: shared by the source scanner and
the reader of JS/TS config files, below both."""

from __future__ import annotations

import functools
import threading
from typing import Literal

import tree_sitter
import tree_sitter_html
import tree_sitter_javascript
import tree_sitter_typescript

GrammarName = Literal["javascript", "typescript", "tsx"]

_parsers = threading.local()


@functools.cache
def language(name: GrammarName) -> tree_sitter.Language:
    """The compiled grammar called `name`."""
    if name == "javascript":
        return tree_sitter.Language(tree_sitter_javascript.language())
    if name == "typescript":
        return tree_sitter.Language(tree_sitter_typescript.language_typescript())
    return tree_sitter.Language(tree_sitter_typescript.language_tsx())


def parse(source: bytes, name: GrammarName) -> tree_sitter.Tree:
    """Parse `source` with grammar `name` (parsers are not shared between threads)."""
    parser: tree_sitter.Parser | None = getattr(_parsers, name, None)
    if parser is None:
        parser = tree_sitter.Parser(language(name))
        setattr(_parsers, name, parser)
    return parser.parse(source)


@functools.cache
def html_language() -> tree_sitter.Language:
    """The compiled HTML grammar (Angular templates are HTML with expressions in them)."""
    return tree_sitter.Language(tree_sitter_html.language())


def parse_html(source: bytes) -> tree_sitter.Tree:
    """Parse `source` as HTML (parsers are not shared between threads)."""
    parser: tree_sitter.Parser | None = getattr(_parsers, "html", None)
    if parser is None:
        parser = _parsers.html = tree_sitter.Parser(html_language())
    return parser.parse(source)


def node_text(node: tree_sitter.Node) -> str:
    """The source text of `node` (invalid UTF-8 replaced)."""
    text = node.text
    return text.decode("utf-8", "replace") if text is not None else ""
