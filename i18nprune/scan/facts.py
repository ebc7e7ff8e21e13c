"""What extraction learns from one file, as a pure function of its content: the cacheable unit.

Values that depend on other files (imported constants) stay symbolic here; linking resolves them.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from i18nprune.scan.expressions import Expr

SiteSyntax = Literal["call", "empty_call", "commented"]


class SiteFact(msgspec.Struct, frozen=True, array_like=True):
    """One key site as its file alone sees it.

    `key` is the symbolic first argument (`Opaque` for empty and commented calls); `prefix` is the
    key prefix of the translation function used (a `keyPrefix` option, a next-intl namespace).
    """

    line: int
    column: int
    syntax: SiteSyntax
    key: Expr
    prefix: Expr | None
    plural: bool
    context: Expr | None
    preview: str


class FileFacts(msgspec.Struct, frozen=True, array_like=True):
    """The key sites of a file, the constants it exports, and its first syntax error, if any.

    `star_exports` lists the relative modules of `export * from '…'`; `syntax_error` is the
    (line, column) of the first place tree-sitter could not parse.
    """

    sites: list[SiteFact]
    exports: dict[str, Expr]
    star_exports: list[str]
    syntax_error: tuple[int, int] | None


NO_FACTS = FileFacts(sites=[], exports={}, star_exports=[], syntax_error=None)
