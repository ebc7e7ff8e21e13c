"""What the code proves about locale paths: proven keys (with i18next plural and context forms)
and the uncertain prefixes that dynamic key sites protect — and whether that evidence is
complete enough for an op to remove or rewrite anything (never delete on doubt).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from i18nprune.config.schema import PreservePolicy
from i18nprune.envelope import Code, Issue, error, warning
from i18nprune.locales.catalog import PLURAL_CATEGORIES
from i18nprune.locales.paths import is_under
from i18nprune.locales.view import LocaleView
from i18nprune.scan import ScanResult

_PLURAL_SUFFIXES = frozenset(
    [f"_{c}" for c in PLURAL_CATEGORIES] + [f"_ordinal_{c}" for c in PLURAL_CATEGORIES]
)


def _strip_plural(path: str) -> str | None:
    for suffix in _PLURAL_SUFFIXES:
        if path.endswith(suffix):
            return path[: -len(suffix)]
    return None


@dataclass(frozen=True)
class KeyReference:
    """The scan's verdict, in the terms locale operations ask about."""

    keys: frozenset[str]
    any_context: frozenset[str]
    prefixes: tuple[str, ...]

    @classmethod
    def from_scan(cls, scan: ScanResult) -> KeyReference:
        keys = {o.key for o in scan.observations}
        keys |= {f"{o.key}_{o.context}" for o in scan.observations if o.context not in (None, "*")}
        prefixes = {
            site.prefix for site in scan.dynamic if site.kind != "commented" and site.prefix
        }
        return cls(
            keys=frozenset(keys),
            any_context=frozenset(o.key for o in scan.observations if o.context == "*"),
            prefixes=tuple(sorted(prefixes)),
        )

    @property
    def proves_nothing(self) -> bool:
        """True when the scan found no key and no prefix: no basis to call anything unused."""
        return not self.keys and not self.prefixes and not self.any_context

    def is_proven(self, path: str) -> bool:
        """The path is a key the code uses, directly or as one of its plural/context forms."""
        if path in self.keys:
            return True
        base = _strip_plural(path)
        if base is not None and base in self.keys:
            return True
        candidate = base or path
        return any(candidate.startswith(f"{key}_") for key in self.any_context)

    def uncertain_prefix(self, path: str) -> str | None:
        """The dynamic-site prefix covering `path`, if any."""
        for prefix in self.prefixes:
            if is_under(path, prefix):
                return prefix
        return None

    def is_present(self, key: str, paths: set[str] | dict[str, object]) -> bool:
        """Whether a code key is satisfied by a locale's paths (itself or any plural form)."""
        if key in paths:
            return True
        return any(f"{key}{suffix}" in paths for suffix in _PLURAL_SUFFIXES)


def is_preserved(path: str, preserve: PreservePolicy) -> bool:
    """`policies.preserve` keeps this path whatever the code says."""
    return path in preserve.copy_keys or any(is_under(path, p) for p in preserve.copy_prefixes)


def unused_paths(
    paths: Iterable[str],
    reference: KeyReference,
    preserve: PreservePolicy,
    *,
    protect_uncertain: bool = True,
) -> list[str]:
    """Paths the code does not prove, minus preserved ones and (when protecting) those under
    uncertain prefixes. Nothing is unused when the scan proves nothing."""
    if reference.proves_nothing:
        return []
    return sorted(
        path
        for path in paths
        if not reference.is_proven(path)
        and not is_preserved(path, preserve)
        and not (protect_uncertain and reference.uncertain_prefix(path) is not None)
    )


# Scan issues that mean a source file's keys are not (all) known: removing keys on such a scan
# could delete a key that only that file uses.
_UNSCANNED = frozenset(
    {
        Code.SCAN_UNREADABLE,
        Code.SCAN_BINARY,
        Code.SCAN_TOO_LARGE,
        Code.SCAN_PARSE_ERROR,
        Code.SCAN_SYMLINK_SKIPPED,
    }
)
_NAMED_FILES = 3


def unscanned_files(scan: ScanResult) -> list[str]:
    """Source files (relative to the root) whose keys the scan could not read in full."""
    return sorted({issue.path or "?" for issue in scan.issues if issue.code in _UNSCANNED})


def removal_gate(kind: str, scan: ScanResult, *, force: bool) -> Issue | None:
    """Why `kind` must not remove keys on this scan (an error), or, when `force` overrides
    that, the warning that says what was risked; None when every source file was scanned."""
    files = unscanned_files(scan)
    if not files:
        return None
    named = ", ".join(files[:_NAMED_FILES]) + (", …" if len(files) > _NAMED_FILES else "")
    count = f"{len(files)} source file(s) could not be read or fully scanned ({named})"
    if force:
        return warning(
            Code.SCAN_INCOMPLETE,
            f"--force: {count}; keys used only there may have been removed",
            path=files[0],
        )
    return error(
        Code.SCAN_INCOMPLETE,
        f"{kind} changed nothing: {count}, so keys used only there would look unused. Fix "
        "them (see the warnings above) or exclude them (`exclude.files`, `exclude.dirs`), or "
        "pass --force to remove keys anyway",
        path=files[0],
    )


def source_gate(kind: str, source: LocaleView) -> Issue | None:
    """Why `kind` must not write anything: a segment of the source locale that could not be
    read (its keys are unknown, so every comparison with the source would be wrong)."""
    broken = [issue.path for issue in source.issues if issue.severity == "error" and issue.path]
    if not broken:
        return None
    return error(
        Code.SOURCE_LOCALE_UNREADABLE,
        f"{kind} changed nothing: the source locale `{source.locale}` could not be read in "
        f"full ({', '.join(broken)}); fix that file (see the error above) and run again",
        path=broken[0],
    )
