"""Key extraction: which translation keys a project's JS/TS/Vue/Svelte source uses
(docs/evidence.md#proof-key-sites).

`scan_project` walks the source tree, parses it with tree-sitter (incrementally, in parallel
when it pays), and reports literal keys and dynamic key sites.

The names below are loaded on first use, so that a process needing one part of the package (a
parse worker needs only `examine`) does not import the rest.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from i18nprune.scan.project_scan import scan_project
    from i18nprune.scan.records import (
        DynamicSite,
        ExcludedFolder,
        ForeignSite,
        KeyObservation,
        LiteralSite,
        RepositoryScope,
        ScanOptions,
        ScanResult,
    )

_HOMES = {
    "scan_project": "i18nprune.scan.project_scan",
    "DynamicSite": "i18nprune.scan.records",
    "ExcludedFolder": "i18nprune.scan.records",
    "KeyObservation": "i18nprune.scan.records",
    "LiteralSite": "i18nprune.scan.records",
    "RepositoryScope": "i18nprune.scan.records",
    "ForeignSite": "i18nprune.scan.records",
    "ScanOptions": "i18nprune.scan.records",
    "ScanResult": "i18nprune.scan.records",
}

__all__ = [
    "DynamicSite",
    "ExcludedFolder",
    "ForeignSite",
    "KeyObservation",
    "LiteralSite",
    "RepositoryScope",
    "ScanOptions",
    "ScanResult",
    "scan_project",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
