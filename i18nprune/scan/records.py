"""What a scan is asked to do and what it reports: the public records of `i18nprune.scan`."""

from __future__ import annotations

from pathlib import Path

import msgspec

from i18nprune.config.schema import ExcludeConfig
from i18nprune.envelope import Issue


class ScanOptions(msgspec.Struct, frozen=True, kw_only=True):
    """Inputs of one scan.

    `root` is the absolute, realpath'ed project root (nothing outside it is ever read);
    `src_dir` is the directory to scan, inside `root`. `cache_dir=None` disables the incremental
    cache; `cache_writable=False` reads it but writes nothing to disk (the scan is then
    remembered in this process's memory only). `jobs` bounds the parse
    processes of a cold scan (`None`: one per CPU this process may use).
    """

    root: Path
    src_dir: Path
    functions: list[str]
    exclude: ExcludeConfig
    cache_dir: Path | None = None
    cache_writable: bool = True
    jobs: int | None = None


class KeyObservation(msgspec.Struct, frozen=True):
    """A literal key the code uses, with the position of the call (1-based line and column).

    `plural` is set when the call passes a `count` option (i18next plural suffixes apply);
    `context` is the literal `context` option, or `"*"` when that option is not literal.
    """

    key: str
    file: str
    line: int
    column: int
    plural: bool = False
    context: str | None = None


class DynamicSite(msgspec.Struct, frozen=True):
    """A key site whose key is not statically known, or a key call found inside a comment.

    `kind` is one of `template_interpolation`, `concatenation`, `non_literal`, `empty_call`,
    `commented`; `prefix` is the longest static, segment-aligned prefix of the key (`None` when
    there is none, and always for `commented` sites, which are inactive).
    """

    file: str
    line: int
    column: int
    kind: str
    preview: str
    prefix: str | None


class ScanResult(msgspec.Struct, frozen=True):
    """Everything a scan found; a warm (cached) scan's result equals a cold scan's."""

    files: int
    parsed: int
    cache_hits: int
    observations: list[KeyObservation]
    dynamic: list[DynamicSite]
    issues: list[Issue]
