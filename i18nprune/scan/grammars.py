"""Which tree-sitter grammar parses which source file, and the grammars' fingerprint."""

from __future__ import annotations

import functools
import importlib.util
import os
from typing import TYPE_CHECKING

from i18nprune.system.digests import blake2b
from i18nprune.system.installed import wheel_record

if TYPE_CHECKING:
    from i18nprune.syntax_tree import GrammarName

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
TEMPLATE_SUFFIX = ".html"
"""Angular templates: scanned only in a project whose names include a pipe or directive
(`CalleeNames.reads_templates`), since other projects' `.html` files are pages, not
templates."""
WITH_TEMPLATES = SCANNED_SUFFIXES | {TEMPLATE_SUFFIX}


def scanned_suffixes(templates: bool) -> frozenset[str]:
    """The suffixes of the files a scan reads: with Angular templates or without."""
    return WITH_TEMPLATES if templates else SCANNED_SUFFIXES


def script_lang_grammar(lang: str) -> GrammarName:
    """The grammar for a `<script lang="…">` block of a Vue or Svelte file."""
    lang = lang.lower()
    if lang == "tsx":
        return "tsx"
    if lang in ("ts", "typescript"):
        return "typescript"
    return "javascript"


GRAMMAR_PACKAGES = (
    "tree_sitter",
    "tree_sitter_javascript",
    "tree_sitter_typescript",
    "tree_sitter_html",
)
"""The packages whose code parses the sources: the parser runtime and the grammars."""


@functools.cache
def grammar_versions() -> str:
    """A fingerprint of the installed parser and grammars; part of the scan cache's identity.

    Found as `import` would find the packages, without importing them: a command that reuses
    every cached record never loads a parser. A package installed from a wheel is known by its
    installed file list (`RECORD`, which holds a hash of every file), so a fresh install of the
    same build on another machine (a CI runner, a container) keeps the caches it restores, and
    another build does not; any other install by the stat of its own files.
    """
    return ",".join(f"{name}={_package_identity(name)}" for name in GRAMMAR_PACKAGES)


def _package_identity(name: str) -> str:
    """`record:<digest>` of the wheel record listing package `name`'s files, else the stat of
    its files (`_package_files`; `?` when it cannot be found)."""
    record = wheel_record(name)
    if record is not None:
        return "record:" + blake2b(record, digest_size=16).hexdigest()
    return _package_files(name)


def _package_files(name: str) -> str:
    """The stat of the files directly inside package `name` (`?` when it cannot be found)."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        return "?"
    folders = list(spec.submodule_search_locations or ())
    if not folders:  # a single-file module
        return _stat_of(spec.origin) if spec.origin else "?"
    parts: list[str] = []
    for folder in folders:
        try:
            with os.scandir(folder) as entries:
                names = sorted(entry.name for entry in entries if entry.is_file())
        except OSError:
            return "?"
        parts += [f"{entry}:{_stat_of(os.path.join(folder, entry))}" for entry in names]
    return ";".join(parts)


def _stat_of(path: str) -> str:
    try:
        status = os.stat(path)
    except OSError:
        return "?"
    return f"{status.st_size}/{status.st_mtime_ns}/{status.st_ino}"
