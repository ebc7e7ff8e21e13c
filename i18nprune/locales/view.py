"""One locale seen whole: its segments' leaves merged, and what went wrong reading them."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import msgspec

from i18nprune.envelope import Code, Issue, warning
from i18nprune.locale_codes import normalize_code
from i18nprune.locales.jsonfile import LocaleFileError, read_json_file
from i18nprune.locales.layout import LocaleInventory, Segment
from i18nprune.locales.leaves import Leaf, list_leaves
from i18nprune.locales.memo import FileMemo

# Duplicate warnings name this many paths and summarise the rest.
_NAMED_DUPLICATES = 5
_segment_leaves: FileMemo[list[Leaf]] = FileMemo()


class LocaleView(msgspec.Struct, frozen=True):
    """The merged leaves of one locale (of one of its namespaces, when `namespace` is set) and
    the issues found while reading its segments."""

    locale: str
    segments: list[Segment]
    leaves: dict[str, Leaf]
    """Union of the segments' leaves; of a path defined twice, the first by segment `rel`."""
    leaf_segment: dict[str, str]
    """Path → `rel` of the segment its leaf came from."""
    issues: list[Issue]
    """Errors for segments that could not be read (their leaves are absent) and warnings for
    paths defined twice, within a file or across files."""
    namespace: str | None = None


def load_locale(
    inventory: LocaleInventory,
    locale: str,
    placeholder: str,
    namespace: str | None = None,
    namespace_of: Callable[[Segment], str] | None = None,
) -> LocaleView:
    """Read every segment of `locale` (compared normalised) and merge their leaves; with
    `namespace`, only the segments `namespace_of` puts in it.

    Segments are read in `rel` order and the first definition of a path wins, so the result
    is deterministic. A locale without segments gives an empty view and no issue: whether
    that is a problem is the caller's decision.
    """
    code = normalize_code(locale)
    segments = inventory.segments.get(code, [])
    if namespace is not None and namespace_of is not None:
        segments = [segment for segment in segments if namespace_of(segment) == namespace]
    leaves: dict[str, Leaf] = {}
    leaf_segment: dict[str, str] = {}
    issues: list[Issue] = []
    # (first segment rel, repeating segment rel) -> repeated paths, in encounter order
    duplicates: dict[tuple[str, str], list[str]] = {}
    for segment in segments:
        try:
            found = _segment_leaves.get(
                segment.path,
                (segment.rel, placeholder),
                partial(_read_leaves, segment, placeholder),
            )
        except LocaleFileError as exc:
            issues.append(exc.issue)
            continue
        for leaf in found:
            first = leaf_segment.get(leaf.path)
            if first is None:
                leaves[leaf.path] = leaf
                leaf_segment[leaf.path] = segment.rel
            else:
                duplicates.setdefault((first, segment.rel), []).append(leaf.path)
    issues += [
        _duplicate_warning(first, then, paths) for (first, then), paths in duplicates.items()
    ]
    return LocaleView(
        locale=code,
        segments=segments,
        leaves=leaves,
        leaf_segment=leaf_segment,
        issues=issues,
        namespace=namespace,
    )


def _read_leaves(segment: Segment, placeholder: str) -> list[Leaf]:
    """The leaves of one segment file. Raises LocaleFileError."""
    return list(list_leaves(read_json_file(segment.path, segment.rel), placeholder))


def _duplicate_warning(first: str, then: str, paths: list[str]) -> Issue:
    named = ", ".join(paths[:_NAMED_DUPLICATES])
    if len(paths) > _NAMED_DUPLICATES:
        named += f" and {len(paths) - _NAMED_DUPLICATES} more"
    count = f"{len(paths)} path{'s' if len(paths) > 1 else ''}"
    if first == then:
        message = (
            f"{first}: {count} defined twice, as a dotted key and as nested keys ({named}) — "
            "the first in the file is used; keep one spelling"
        )
    else:
        message = (
            f"{then}: {count} already defined in {first} ({named}) — the values from {first} "
            "are used; remove the duplicates from one of the files"
        )
    return warning(Code.LOCALE_DUPLICATE_PATH, message, path=then)


def translatable_paths(view: LocaleView) -> list[str]:
    """Paths of text leaves (strings, structured, placeholders): numbers, booleans and null
    are data, which no writer adds, changes or removes."""
    return [path for path, leaf in view.leaves.items() if leaf.kind != "other"]
