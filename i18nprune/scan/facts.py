"""What extraction learns from one file, as a pure function of its content: the cacheable unit.

A key site whose meaning depends only on its own file is stored fully resolved; one that reads
constants imported from other files keeps symbolic values, which linking resolves later.
"""

from __future__ import annotations

import msgspec

from i18nprune.scan.expressions import Expr


class ResolvedKey(msgspec.Struct, frozen=True, tag="resolved", array_like=True):
    """What a site means: the literal keys it proves and the kind and prefix of its dynamic
    part (`dynamic_kind` is `None` when it has none); `context` is the literal `context`
    option, or `*` when that option is not literal.
    """

    keys: list[str]
    dynamic_kind: str | None
    dynamic_prefix: str | None
    context: str | None


class SymbolicKey(msgspec.Struct, frozen=True, tag="symbolic", array_like=True):
    """A site whose key, key prefix or context reads constants imported from other files."""

    key: Expr
    prefix: Expr | None
    context: Expr | None


class SiteFact(msgspec.Struct, frozen=True, array_like=True):
    """One key site: its position (1-based), its source preview, and what it means."""

    line: int
    column: int
    preview: str
    plural: bool
    meaning: ResolvedKey | SymbolicKey


class FileFacts(msgspec.Struct, frozen=True, array_like=True):
    """The key sites of a file, the constants it exports, and its first syntax error, if any.

    `star_exports` lists the relative modules of `export * from '…'`; `syntax_error` is the
    (line, column) of the first place tree-sitter could not parse.
    """

    sites: list[SiteFact]
    exports: dict[str, Expr]
    star_exports: list[str]
    syntax_error: tuple[int, int] | None
