"""Key extraction: which translation keys a project's JS/TS/Vue/Svelte source uses (PRODUCT §3).

`scan_project` walks the source tree, parses it with tree-sitter (incrementally, in parallel
when it pays), and reports literal keys and dynamic key sites.
"""

from i18nprune.scan.project_scan import scan_project
from i18nprune.scan.records import (
    DynamicSite,
    ExcludedFolder,
    KeyObservation,
    LiteralSite,
    ScanOptions,
    ScanResult,
)

__all__ = [
    "DynamicSite",
    "ExcludedFolder",
    "KeyObservation",
    "LiteralSite",
    "ScanOptions",
    "ScanResult",
    "scan_project",
]
