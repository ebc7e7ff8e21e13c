"""One locale seen whole: its segments' leaves merged, and what went wrong reading them."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from itertools import islice, repeat

from i18nprune.envelope import Code, Issue, warning
from i18nprune.locale_codes import normalize_code
from i18nprune.locales.documents import read_locale_tree
from i18nprune.locales.jsonfile import LocaleFileError
from i18nprune.locales.keyroot import KeyRoot, key_root_text, keys_object, missing_root_warning
from i18nprune.locales.layout import LocaleInventory, Segment
from i18nprune.locales.leaves import Leaf, list_leaves
from i18nprune.locales.memo import FileMemo

# Duplicate warnings name this many paths and summarise the rest.
_NAMED_DUPLICATES = 5
_segment_leaves: FileMemo[tuple[list[Leaf], list[Issue]]] = FileMemo()


class LocaleView:
    """The merged leaves of one locale (of one of its namespaces, when `namespace` is set) and
    the issues found while reading its segments.

    Read-only, like the frozen struct it was (setting an attribute raises AttributeError);
    callers never change its dicts and lists either.
    """

    __slots__ = (
        "_leaf_segment",
        "_runs",
        "issues",
        "key_root",
        "leaves",
        "locale",
        "namespace",
        "segments",
    )

    locale: str
    segments: list[Segment]
    leaves: dict[str, Leaf]
    """Union of the segments' leaves; of a path defined twice, the first by segment `rel`."""
    issues: list[Issue]
    """Errors for segments that could not be read (their leaves are absent) and warnings for
    paths defined twice, within a file or across files."""
    namespace: str | None
    key_root: KeyRoot
    """Where keys start in each segment file (`locales.root`): the leaves' paths are relative
    to it, and writers put new keys there."""
    _leaf_segment: dict[str, str] | None
    _runs: SegmentRuns | None

    def __init__(
        self,
        locale: str,
        segments: list[Segment],
        leaves: dict[str, Leaf],
        leaf_segment: dict[str, str] | SegmentRuns,
        issues: list[Issue],
        namespace: str | None = None,
        key_root: KeyRoot = (),
    ) -> None:
        """`leaf_segment` is the path → segment `rel` mapping itself, or the `SegmentRuns` it
        is built from on first read."""
        built: dict[str, str] | None = None
        runs: SegmentRuns | None = None
        if isinstance(leaf_segment, SegmentRuns):
            runs = leaf_segment
        else:
            built = leaf_segment
        for name, value in (
            ("locale", locale),
            ("segments", segments),
            ("leaves", leaves),
            ("issues", issues),
            ("namespace", namespace),
            ("key_root", key_root),
            ("_leaf_segment", built),
            ("_runs", runs),
        ):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"LocaleView is read-only: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"LocaleView is read-only: cannot delete {name!r}")

    @property
    def name(self) -> str:
        """The locale as its files spell it (`pt_BR`; `locale` is `pt-br`), for messages; its
        code when it has no file."""
        return self.segments[0].name if self.segments else self.locale

    @property
    def leaf_segment(self) -> dict[str, str]:
        """Path → `rel` of the segment its leaf came from (the same paths as `leaves`, in the
        same order). Built on first read (a `validate` never reads it: at 100k leaves the dict
        is ~4 MB), then the same dict every time."""
        built = self._leaf_segment
        if built is None:
            runs = self._runs
            assert runs is not None
            built = runs.expand(self.leaves)
            object.__setattr__(self, "_leaf_segment", built)
        return built

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LocaleView):
            return NotImplemented
        return (
            self.locale == other.locale
            and self.segments == other.segments
            and self.leaves == other.leaves
            and self.leaf_segment == other.leaf_segment
            and self.issues == other.issues
            and self.namespace == other.namespace
            and self.key_root == other.key_root
        )

    __hash__ = None  # type: ignore[assignment]  # its dicts and lists are not hashable

    def __repr__(self) -> str:
        return (
            f"LocaleView(locale={self.locale!r}, segments={self.segments!r}, "
            f"leaves=<{len(self.leaves)} leaves>, issues={self.issues!r}, "
            f"namespace={self.namespace!r})"
        )


class SegmentRuns:
    """Which segment each leaf of a view came from, told by position: `load_locale` adds the
    leaves segment after segment, so the view's leaves are runs, one per segment in order, of
    `count` leaves from the segment `rel`."""

    __slots__ = ("runs",)

    def __init__(self, runs: list[tuple[str, int]]) -> None:
        self.runs = runs

    def expand(self, leaves: dict[str, Leaf]) -> dict[str, str]:
        """Path → `rel` for `leaves` (whose order these runs describe)."""
        runs = [(rel, count) for rel, count in self.runs if count]
        if len(runs) == 1:
            return dict.fromkeys(leaves, runs[0][0])
        paths = iter(leaves)
        mapping: dict[str, str] = {}
        for rel, count in runs:
            mapping.update(zip(islice(paths, count), repeat(rel)))
        return mapping


def load_locale(
    inventory: LocaleInventory,
    locale: str,
    placeholder: str,
    namespace: str | None = None,
    namespace_of: Callable[[Segment], str] | None = None,
    *,
    source: bool = False,
) -> LocaleView:
    """Read every segment of `locale` (compared normalised) and merge their leaves; with
    `namespace`, only the segments `namespace_of` puts in it. `source`: `locale` is the source
    locale (a Lingui entry not translated reads as its message there: see `list_leaves`).

    Segments are read in `rel` order and the first definition of a path wins, so the result
    is deterministic. A locale without segments gives an empty view and no issue: whether
    that is a problem is the caller's decision.
    """
    code = normalize_code(locale)
    segments = inventory.segments.get(code, [])
    if namespace is not None and namespace_of is not None:
        segments = [segment for segment in segments if namespace_of(segment) == namespace]
    return read_segments(code, segments, placeholder, namespace, inventory.key_root, source=source)


def read_segments(
    code: str,
    segments: list[Segment],
    placeholder: str,
    namespace: str | None = None,
    key_root: KeyRoot = (),
    *,
    source: bool = False,
) -> LocaleView:
    """The view of locale `code` (normalised) made of `segments` (sorted by `rel`), as
    `load_locale` reads them; `namespace` is the one they hold, if any, `key_root` where
    keys start in each file (`locales.root`), and `source` whether `code` is the source
    locale."""
    leaves: dict[str, Leaf] = {}
    # the leaves each segment added, in order: the dict path → rel (`leaf_segment`) is built
    # when a caller reads it, or here at the first path defined twice (whose first segment a
    # warning names); views without duplicates, nearly all, never build it for a `validate`
    runs: list[tuple[str, int]] = []
    origin: dict[str, str] | None = None
    issues: list[Issue] = []
    # (first segment rel, repeating segment rel) -> repeated paths, in encounter order
    duplicates: dict[tuple[str, str], list[str]] = {}
    for segment in segments:
        try:
            found, notes = _segment_leaves.get(
                segment.path,
                (segment.rel, placeholder, key_root, source),
                partial(_read_leaves, segment, placeholder, key_root, source),
            )
        except LocaleFileError as exc:
            issues.append(exc.issue)
            continue
        issues += notes
        before = len(leaves)
        rel = segment.rel
        for leaf in found:
            path = leaf.path
            if path not in leaves:
                leaves[path] = leaf
                if origin is not None:
                    origin[path] = rel
                continue
            if origin is None:
                origin = SegmentRuns([*runs, (rel, len(leaves) - before)]).expand(leaves)
            duplicates.setdefault((origin[path], rel), []).append(path)
        runs.append((rel, len(leaves) - before))
    issues += [
        _duplicate_warning(first, then, paths) for (first, then), paths in duplicates.items()
    ]
    return LocaleView(
        locale=code,
        segments=segments,
        leaves=leaves,
        leaf_segment=SegmentRuns(runs) if origin is None else origin,
        issues=issues,
        namespace=namespace,
        key_root=key_root,
    )


def _read_leaves(
    segment: Segment, placeholder: str, key_root: KeyRoot, source: bool
) -> tuple[list[Leaf], list[Issue]]:
    """The leaves of one segment file below `key_root` (a list of its own, which no caller
    changes), and warnings about the file: a key `""` where keys start (it has no leaf path:
    see `list_leaves`), or content without the object where keys start. Raises
    LocaleFileError, also for a `key_root` that holds no object."""
    document = read_locale_tree(segment.path, segment.rel)
    keys = keys_object(document, key_root, segment.rel)
    if keys is None:
        return [], [missing_root_warning(segment.rel, key_root)] if document else []
    notes = [_empty_key_warning(segment.rel, key_root)] if "" in keys else []
    return list_leaves(keys, placeholder, source=source), notes


def _empty_key_warning(rel: str, key_root: KeyRoot) -> Issue:
    where = f'the key "" of `{key_root_text(key_root)}`' if key_root else 'the top-level key ""'
    return warning(
        Code.LOCALE_EMPTY_KEY,
        f"{rel}: {where} has no key path, so every command leaves it and what it "
        "holds as they are (never read, copied, translated or removed); give it a name to use it",
        path=rel,
    )


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
