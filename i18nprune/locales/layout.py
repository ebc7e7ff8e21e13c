"""Finding a project's locale files: the configured layout turned into segments per locale.

Layouts (docs/locale-files.md#layouts-and-segments): `flat_file`/`locale_file` is
`<dir>/<code>.json`; `locale_directory`/`locale_per_dir` is `<dir>/<code>/**/*.json`;
`locale_directory`/`feature_bundle` is `<dir>/**/<code>.json`, at any depth including `<dir>`
itself. `.json` stands for any locale format's extension (`locales.formats`); in the two layouts
that name files by locale, an XLIFF file whose name carries no locale (Angular's
`messages.xlf`) is a file of the source locale (`locales.source`), its targets beside it
(`messages.fr.xlf`), and so is a gettext template (`messages.pot`, targets `fr.po`); in
`locale_per_dir`, a template directly in `<dir>` is the source's file of the catalogs
`<dir>/<code>/LC_MESSAGES/messages.po` (gettext's own layout).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

import msgspec

from i18nprune.config.schema import LocalesConfig
from i18nprune.envelope import Code, Issue, error, warning
from i18nprune.locale_codes import looks_like_locale_code, normalize_code
from i18nprune.locales.formats import (
    DEFAULT_SUFFIX,
    catalog_parts,
    format_of,
    is_locale_file_name,
    is_template_name,
    locale_stem,
    suffix_of,
    unlocalised_source,
)
from i18nprune.locales.keyroot import KeyRoot, parse_key_root

_VALID_LAYOUTS = frozenset(
    {
        ("flat_file", "locale_file"),
        ("locale_directory", "locale_per_dir"),
        ("locale_directory", "feature_bundle"),
    }
)


class Segment(msgspec.Struct, frozen=True):
    """One locale file; a locale's keys are the union of its segments."""

    locale: str
    """The normalised locale code (`pt-br`)."""
    name: str
    """The code as written on disk (`pt_BR`)."""
    path: Path
    """Absolute path, as reached from the project root (links not resolved)."""
    rel: str
    """`path` relative to the project root, with `/` separators (starting `../` when the
    configured locales directory lies outside the root)."""


class LocaleInventory(msgspec.Struct, frozen=True):
    """Every locale segment of a project, grouped by normalised locale code."""

    directory: Path
    """The absolute locales directory."""
    segments: dict[str, list[Segment]]
    """Normalised locale code → its segments, sorted by `rel`."""
    key_root: KeyRoot = ()
    """Where keys start inside every segment file (`locales.root`); `()`: the top level."""
    suffix: str = DEFAULT_SUFFIX
    """The extension new locale files get: the one most segments have (`.json` when none)."""

    def locales(self) -> list[str]:
        """The normalised codes of every locale that has at least one segment, sorted."""
        return sorted(self.segments)


def segment_namespace(inventory: LocaleInventory, segment: Segment, locales: LocalesConfig) -> str:
    """The i18next namespace a segment holds when `locales.namespaces` is `file`: its path
    below the locale (`<dir>/en/auth/login.json` → `auth/login`), its bundle folder
    (`<dir>/auth/en.json` → `auth`), else the default namespace (`<dir>/en.json`)."""
    if locales.structure == "locale_per_dir":
        if is_gettext_template(inventory, segment.path):
            folder, name = catalog_parts(segment.path.name)
            return f"{folder}/{name.rpartition('.')[0]}"
        return "/".join(_parts_below(inventory.directory, segment.path)[1:]) or (
            locales.default_namespace
        )
    if locales.structure == "feature_bundle":
        return "/".join(_parts_below(inventory.directory, segment.path)[:-1]) or (
            locales.default_namespace
        )
    return locales.default_namespace


def is_gettext_template(inventory: LocaleInventory, path: Path) -> bool:
    """Whether `path` is a gettext template directly in the locales directory (the source's
    file of a `locale_per_dir` layout's `<code>/LC_MESSAGES/` catalogs)."""
    return is_template_name(path.name) and path.parent == inventory.directory


def _parts_below(directory: Path, path: Path) -> list[str]:
    """The names from `directory` down to the file `path`, the last without its suffix (as
    `path.relative_to(directory).with_suffix("").parts`, without pathlib's cost per call: a
    large tree asks this of thousands of files)."""
    text, below = str(path), os.path.join(directory, "")
    if not text.startswith(below):
        return list(path.relative_to(directory).with_suffix("").parts)
    parts = text[len(below) :].split(os.sep)
    stem, dot, _ = parts[-1].rpartition(".")
    if dot and stem:
        parts[-1] = stem
    return parts


def namespace_segment_path(
    inventory: LocaleInventory, locale_name: str, namespace: str, locales: LocalesConfig
) -> Path:
    """Where a locale's file of `namespace` goes when it has none yet (the layout's place, in
    the project's format)."""
    directory = inventory.directory
    suffix = inventory.suffix
    *folders, name = namespace.split("/")
    if locales.structure == "locale_per_dir":
        return directory.joinpath(locale_name, *folders, f"{name}{suffix}")
    if locales.structure == "feature_bundle" and namespace != locales.default_namespace:
        return directory.joinpath(*namespace.split("/"), f"{locale_name}{suffix}")
    return directory / f"{locale_name}{suffix}"


def discover_locales(root: Path, locales: LocalesConfig) -> tuple[LocaleInventory, list[Issue]]:
    """The locale segments under `locales.directory` (relative to `root`) for the layout.

    Names that are not locale codes, hidden names and `*.meta.json` / `*.schema.json` files are
    ignored, but for an XLIFF file whose name carries no locale: the source locale's (see the
    module). A symbolic link is followed only when its target stays inside `root` or the locales
    directory (otherwise a `Code.PATH_OUTSIDE_ROOT` warning); link cycles end the descent.
    An invalid mode/structure pair (`Code.STRUCTURE_REQUIRED`) or a missing directory
    (`Code.LOCALES_DIR_MISSING`) gives an empty inventory and an error issue.
    """
    root = Path(os.path.abspath(root))
    directory = Path(os.path.abspath(root / locales.directory))
    key_root = parse_key_root(locales.root)
    empty = LocaleInventory(directory=directory, segments={}, key_root=key_root)
    if (locales.mode, locales.structure) not in _VALID_LAYOUTS:
        return empty, [_layout_error(locales)]
    if not directory.is_dir():
        return empty, [_missing_directory_error(root, directory, locales.directory)]

    walker = _Walker(root, directory)
    top = walker.top()
    found: list[tuple[str, _Entry]] = []  # (code as written, file)
    if locales.structure == "locale_per_dir":
        files, directories = walker.listing(top)
        found += [(locales.source, file) for file in files if is_template_name(file.name)]
        for locale_dir in directories:
            if looks_like_locale_code(locale_dir.name):
                found += [(locale_dir.name, file) for file in walker.locale_files(locale_dir)]
    else:
        files = (
            walker.locale_files(top)
            if locales.structure == "feature_bundle"
            else [file for file in walker.listing(top)[0] if is_locale_file_name(file.name)]
        )
        for file in files:
            code = locale_stem(file.name)
            if code is not None and looks_like_locale_code(code):
                found.append((code, file))
            elif code is None and unlocalised_source(file.name):
                found.append((locales.source, file))
    if locales.format is not None:  # files of another format are no locale files
        found = [(code, file) for code, file in found if format_of(file.name) == locales.format]
    inventory = LocaleInventory(
        directory=directory,
        segments=_group(root, found),
        key_root=key_root,
        suffix=_common_suffix(file.name for _, file in found),
    )
    return inventory, walker.issues


def _common_suffix(names: Iterable[str]) -> str:
    """The locale extension most of `names` have, in lowercase (a gettext template's counts as
    `.po`, what its targets are); `.json` for none (a tie goes to `.json`, then to the first
    found)."""
    counts = Counter(
        (suffix_of(name) or DEFAULT_SUFFIX).lower().replace(".pot", ".po") for name in names
    )
    if not counts:
        return DEFAULT_SUFFIX
    most = max(counts.values())
    return DEFAULT_SUFFIX if counts[DEFAULT_SUFFIX] == most else counts.most_common(1)[0][0]


def _group(root: Path, found: list[tuple[str, _Entry]]) -> dict[str, list[Segment]]:
    segments: dict[str, list[Segment]] = {}
    files_seen: set[tuple[str, str]] = set()  # (locale, real path): one file reached twice
    below_root = os.path.join(root, "")
    for name, file in found:
        locale = normalize_code(name)
        if (locale, file.real) in files_seen:
            continue
        files_seen.add((locale, file.real))
        text = file.path
        rel = (
            text[len(below_root) :].replace(os.sep, "/")
            if text.startswith(below_root)
            else Path(os.path.relpath(text, root)).as_posix()
        )
        segments.setdefault(locale, []).append(Segment(locale, name, Path(text), rel))
    return {
        locale: sorted(segments[locale], key=lambda segment: segment.rel)
        for locale in sorted(segments)
    }


class _Entry(NamedTuple):
    """A file or directory the walk reached: its name, its path as reached, and where it
    really is (paths as text: a `Path` is made for each segment file only)."""

    name: str
    path: str
    real: str
    """`os.path.realpath(path)`, derived from its parent's where no link is in between (a
    locale tree of thousands of files then costs no `realpath` of each)."""


class _Walker:
    """Lists directories of the locale tree, following only links that stay in the project."""

    def __init__(self, root: Path, directory: Path) -> None:
        self._root = root
        self._directory = directory
        self._bounds = (Path(os.path.realpath(root)), Path(os.path.realpath(directory)))
        self.issues: list[Issue] = []

    def top(self) -> _Entry:
        """The locales directory itself."""
        return _Entry(self._directory.name, str(self._directory), str(self._bounds[1]))

    def listing(self, directory: _Entry) -> tuple[list[_Entry], list[_Entry]]:
        """(files, subdirectories) directly in `directory`, each sorted by name."""
        try:
            with os.scandir(directory.path) as scan:
                entries = sorted(scan, key=lambda entry: entry.name)
        except OSError as exc:
            self.issues.append(
                warning(
                    Code.LOCALE_UNREADABLE,
                    f"{self._rel(directory.path)}: directory cannot be read "
                    f"({exc.strerror or exc}) — its locale files are skipped",
                    path=self._rel(directory.path),
                )
            )
            return [], []
        files: list[_Entry] = []
        subdirectories: list[_Entry] = []
        for entry in entries:
            name = entry.name
            if name.startswith("."):
                continue
            if entry.is_symlink():
                real = os.path.realpath(entry.path)
                if not self._link_stays(entry.path, real):
                    continue
            else:
                real = os.path.join(directory.real, name)
            try:
                if entry.is_dir():
                    subdirectories.append(_Entry(name, entry.path, real))
                elif entry.is_file():
                    files.append(_Entry(name, entry.path, real))
            except OSError:  # a link that loops onto itself; nothing to read there
                continue
        return files, subdirectories

    def locale_files(
        self, directory: _Entry, ancestors: frozenset[str] = frozenset()
    ) -> list[_Entry]:
        """Candidate segment files anywhere below `directory`, never re-entering a directory
        that is already on the current descent (so link cycles end)."""
        if directory.real in ancestors:
            return []
        files, subdirectories = self.listing(directory)
        found = [file for file in files if is_locale_file_name(file.name)]
        for subdirectory in subdirectories:
            found += self.locale_files(subdirectory, ancestors | {directory.real})
        return found

    def _link_stays(self, link: str, real: str) -> bool:
        target = Path(real)
        if any(target.is_relative_to(bound) for bound in self._bounds):
            return True
        self.issues.append(
            warning(
                Code.PATH_OUTSIDE_ROOT,
                f"{self._rel(link)}: symbolic link to {target} leaves the project root — skipped",
                path=self._rel(link),
            )
        )
        return False

    def _rel(self, path: str | Path) -> str:
        return Path(os.path.relpath(path, self._root)).as_posix()


def _layout_error(locales: LocalesConfig) -> Issue:
    return error(
        Code.STRUCTURE_REQUIRED,
        f"locales.mode '{locales.mode}' does not go with locales.structure "
        f"'{locales.structure}' — use mode flat_file with structure locale_file, or mode "
        "locale_directory with structure locale_per_dir or feature_bundle",
    )


def _missing_directory_error(root: Path, directory: Path, configured: str) -> Issue:
    rel = Path(os.path.relpath(directory, root)).as_posix()
    what = "is not a directory" if directory.exists() else "does not exist"
    return error(
        Code.LOCALES_DIR_MISSING,
        f"locales directory '{rel}' {what} — create it, or set locales.directory "
        f"(now '{configured}') to the folder that holds your locale files",
        path=rel,
    )
