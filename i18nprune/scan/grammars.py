"""Which tree-sitter grammar parses which source file, and the grammars' fingerprint."""

from __future__ import annotations

import functools

import tree_sitter

from i18nprune.syntax_tree import GrammarName, language

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
