"""The tree-sitter grammars: which one parses which file, and per-thread parsers for each."""

from __future__ import annotations

import functools
import threading
from typing import Literal

import tree_sitter
import tree_sitter_javascript
import tree_sitter_typescript

GrammarName = Literal["javascript", "typescript", "tsx"]

SCRIPT_SUFFIXES: dict[str, GrammarName] = {
    ".js": "javascript",
    ".jsx": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
}
MARKUP_SUFFIXES = (".vue", ".svelte")
SOURCE_SUFFIXES = frozenset([*SCRIPT_SUFFIXES, *MARKUP_SUFFIXES])
# Pages that mix prose and components (MDX, mdsvex): not parsed, but their quoted texts count as
# keys kept as data (`title={$t("about.heading")}` in an mdsvex page).
PROSE_SUFFIXES = frozenset({".md", ".mdx", ".svx"})
SCANNED_SUFFIXES = SOURCE_SUFFIXES | PROSE_SUFFIXES

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


def script_lang_grammar(lang: str) -> GrammarName:
    """The grammar for a `<script lang="…">` block of a Vue or Svelte file."""
    lang = lang.lower()
    if lang == "tsx":
        return "tsx"
    if lang in ("ts", "typescript"):
        return "typescript"
    return "javascript"


@functools.cache
def grammar_versions() -> str:
    """A fingerprint of the grammars (ABI and table sizes); part of the cache identity.

    Read from the loaded grammars rather than package metadata, which is slow to import.
    """
    parts = [f"tree-sitter={tree_sitter.LANGUAGE_VERSION}"]
    for name in ("javascript", "typescript", "tsx"):
        grammar = language(name)
        parts.append(
            f"{name}={grammar.abi_version}/{grammar.node_kind_count}/"
            f"{grammar.parse_state_count}/{grammar.field_count}"
        )
    return ",".join(parts)
