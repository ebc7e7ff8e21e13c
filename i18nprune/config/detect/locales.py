"""What the locale files themselves say: where they are (searched, not a fixed list), their
layout, which locale is the source, whether each file is a namespace, and which key and
namespace separators their keys allow.

Everything here reads the tree under the project root and never runs code. The search is
bounded (`_MAX_DEPTH` folders deep; dependencies, build output, hidden folders and test
fixtures are not entered), and only files in a locale format (`locales.formats`) are locale
files. An XLIFF file whose name carries no locale (Angular's `messages.xlf`) is the file of the
language it names as its source, a gettext template (`messages.pot`) that of the language its
header names, else English (`locales.podoc.template_language`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, NamedTuple

from i18nprune.locale_codes import is_language_code, looks_like_locale_code, normalize_code
from i18nprune.locales.arbdoc import messages_of
from i18nprune.locales.formats import (
    format_of,
    is_locale_file_name,
    is_template_name,
    locale_stem,
    unlocalised_source,
)
from i18nprune.locales.jsonfile import LocaleFileError
from i18nprune.locales.podoc import template_language
from i18nprune.locales.xliffdoc import read_xliff_file, xliff_source_language
from i18nprune.locales.yamldoc import read_yaml_file
from i18nprune.scan.discovery import DEFAULT_SKIP_DIRS

Mode = Literal["flat_file", "locale_directory"]
Structure = Literal["locale_file", "locale_per_dir", "feature_bundle"]
Layout = tuple[Mode, Structure]

FLAT_FILE: Layout = ("flat_file", "locale_file")
LOCALE_PER_DIR: Layout = ("locale_directory", "locale_per_dir")
FEATURE_BUNDLE: Layout = ("locale_directory", "feature_bundle")

# Where apps usually keep feature bundles (`<folder>/<feature>/en.json`): the one layout the
# general search does not look for, as any folder of flat files would look like a bundle of
# its parent.
BUNDLE_PLACES = ("messages", "src/messages", "src/i18n", "i18n", "src/locales", "locales")

_MAX_DEPTH = 6
_NOT_WALKED = DEFAULT_SKIP_DIRS | {
    "vendor",
    "__tests__",
    "__mocks__",
    "__fixtures__",
    "fixtures",
    "test",
    "tests",
    "e2e",
    "cypress",
    "playwright",
    "storybook-static",
    "target",
    "tmp",
}
# Paths through these read as examples, documentation or generated output, not the app's own
# locale files: ranked after the rest.
_SIDE_PARTS = frozenset(
    {
        "docs",
        "doc",
        "example",
        "examples",
        "demo",
        "demos",
        "website",
        "compiled",
        "generated",
        "__generated__",
        "static",
    }
)
# Pseudo-locales (generated for testing layouts) are never the source.
_PSEUDO_REGIONS = frozenset({"xa", "xb", "xc", "zz", "ploc"})
_MAX_LOCALE_BYTES = 8 << 20


def walkable(name: str) -> bool:
    """Whether the detector enters a folder of this name."""
    return not name.startswith(".") and name not in _NOT_WALKED


def infer_layout(directory: Path, source: str) -> Layout | None:
    """The locale layout `directory` holds, or None when it holds no locale JSON files.

    `<code>.json` directly inside → flat files; `<code>/…/*.json` → a directory per locale;
    `<feature>/…/<code>.json` → feature bundles. When both directory shapes fit (`en/ui.json`
    has a code-shaped name too), the source locale decides: an `en/` directory or `en.json`
    files.
    """
    try:
        entries = list(directory.iterdir())
    except OSError:
        return None
    flat = [
        entry.name
        for entry in entries
        if entry.is_file() and (_is_locale_file_name(entry.name) or unlocalised_source(entry.name))
    ]
    if flat and not all(map(is_template_name, flat)):
        return FLAT_FILE
    per_locale: set[str] = set()
    bundled: set[str] = set()
    for entry in entries:
        if not entry.is_dir() or not walkable(entry.name):
            continue
        found_names = _locale_file_names(entry)
        if found_names and looks_like_locale_code(entry.name):
            per_locale.add(normalize_code(entry.name))
        bundled.update(
            normalize_code(_stem(name)) for name in found_names if _is_locale_file_name(name)
        )
    source_code = normalize_code(source)
    if flat:  # gettext templates only: `<code>/LC_MESSAGES/` catalogs beside them, or none yet
        return LOCALE_PER_DIR if per_locale else FLAT_FILE
    if per_locale and (source_code in per_locale or source_code not in bundled):
        return LOCALE_PER_DIR
    if bundled:
        return FEATURE_BUNDLE
    return None


def _is_locale_file_name(name: str) -> bool:
    """A locale file named after its locale (`en.json`, `pt_BR.yml`)."""
    stem = locale_stem(name)
    return stem is not None and looks_like_locale_code(stem)


def _stem(name: str) -> str:
    """The name of a locale file without its extension (`locale_stem`, for names known to be
    locale files)."""
    return locale_stem(name) or name


def _locale_file_names(directory: Path) -> list[str]:
    """The names of the locale files (of any format) anywhere below `directory`."""
    names: list[str] = []
    for _parent, subdirectories, files in os.walk(directory):
        subdirectories[:] = [name for name in subdirectories if walkable(name)]
        names.extend(name for name in files if is_locale_file_name(name))
    return names


@dataclass(frozen=True)
class LocaleFolder:
    """A folder of locale files found by the search."""

    path: str
    """Relative to the project root, POSIX."""
    layout: Layout
    locales: tuple[str, ...]
    """The locale codes as the files spell them, sorted."""

    @property
    def aside(self) -> bool:
        """Whether the folder lies in documentation or examples rather than the app."""
        return any(part in _SIDE_PARTS for part in self.path.split("/"))


def find_locale_folders(root: Path) -> list[LocaleFolder]:
    """Every folder under `root` holding locale files directly (`en.json`) or one folder per
    locale (`en/common.json`), best first: the app's own before documentation and examples,
    then more locales, then the shallower path. Locale codes must name a language CLDR knows
    (`app.json` is not a locale file)."""
    found: list[LocaleFolder] = []
    for parent, subdirectories, files in _walk(root):
        locale_files = sorted(
            stem for name in files if (stem := locale_stem(name)) and is_language_code(stem)
        )
        locale_files += [
            code
            for name in sorted(files)
            if unlocalised_source(name)
            and (code := _unlocalised_language(Path(parent, name))) is not None
            and code not in locale_files
        ]
        rel = Path(parent).relative_to(root).as_posix()
        templates_only = all(map(is_template_name, (n for n in files if format_of(n))))
        if locale_files and not templates_only:
            found.append(LocaleFolder(rel, FLAT_FILE, tuple(locale_files)))
            continue
        per_locale = sorted(
            name
            for name in subdirectories
            if is_language_code(name) and _locale_file_names(Path(parent, name))
        )
        if per_locale:  # with gettext templates beside them: their language's files
            codes = sorted({*per_locale, *locale_files})
            found.append(LocaleFolder(rel, LOCALE_PER_DIR, tuple(codes)))
        elif locale_files:
            found.append(LocaleFolder(rel, FLAT_FILE, tuple(locale_files)))
    found.sort(key=lambda folder: (folder.aside, -len(folder.locales), folder.path.count("/")))
    return found


def _walk(root: Path) -> Iterable[tuple[str, list[str], list[str]]]:
    base_depth = len(root.parts)
    for parent, subdirectories, files in os.walk(root):
        depth = len(Path(parent).parts) - base_depth
        subdirectories[:] = (
            [name for name in subdirectories if walkable(name)] if depth < _MAX_DEPTH else []
        )
        subdirectories.sort()
        yield parent, subdirectories, files


def locale_files(directory: Path, layout: Layout) -> dict[str, list[Path]]:
    """Each locale of a locale folder (as its files spell it) → its locale files."""
    found: dict[str, list[Path]] = {}
    try:
        entries = sorted(directory.iterdir())
    except OSError:
        return found
    structure = layout[1]
    if structure == "locale_file":
        for entry in entries:
            if entry.is_file() and _is_locale_file_name(entry.name):
                found[_stem(entry.name)] = [entry]
            elif entry.is_file() and (code := unlocalised_code(entry)) is not None:
                found.setdefault(code, []).append(entry)
    elif structure == "locale_per_dir":
        for entry in entries:
            if entry.is_file() and is_template_name(entry.name):
                code = unlocalised_code(entry)
                if code is not None:
                    found.setdefault(code, []).append(entry)
            elif entry.is_dir() and looks_like_locale_code(entry.name):
                found[entry.name] = found.get(entry.name, []) + sorted(
                    Path(parent, name)
                    for parent, subdirectories, files in os.walk(entry)
                    for name in files
                    if is_locale_file_name(name)
                )
    else:
        for parent, subdirectories, files in os.walk(directory):
            subdirectories[:] = [name for name in subdirectories if walkable(name)]
            for name in files:
                if _is_locale_file_name(name):
                    found.setdefault(_stem(name), []).append(Path(parent, name))
                elif (code := unlocalised_code(Path(parent, name))) is not None:
                    found.setdefault(code, []).append(Path(parent, name))
    return {code: files for code, files in found.items() if files}


def unlocalised_code(path: Path) -> str | None:
    """The language an XLIFF file whose name carries no locale (`messages.xlf`) names as its
    source, or a gettext template's (`messages.pot`), None for any other file (or one that
    names none)."""
    if not unlocalised_source(path.name):
        return None
    code = _unlocalised_language(path)
    return code if code is not None and looks_like_locale_code(code) else None


def _unlocalised_language(path: Path) -> str | None:
    if is_template_name(path.name):
        return template_language(path)
    return xliff_source_language(path)


def unlocalised_source_code(locales: dict[str, list[Path]]) -> str | None:
    """The locale (as `locale_files` gives them) whose files include an XLIFF source named
    after no locale (Angular's `messages.xlf`): that file says it is the source."""
    for code, files in locales.items():
        if any(unlocalised_source(file.name) for file in files):
            return code
    return None


def read_locale_object(path: Path) -> dict[str, object] | None:
    """The object a locale file holds (JSON, YAML below its locale key, ARB's messages), or
    None when it cannot be read, is too large or is not an object (detection skips such a
    file; the commands report it properly)."""
    try:
        if path.stat().st_size > _MAX_LOCALE_BYTES:
            return None
        if format_of(path.name) == "yaml":
            return read_yaml_file(path, path.name)
        if format_of(path.name) == "xliff":
            return read_xliff_file(path, path.name)
        value = json.loads(path.read_bytes())
    except (OSError, ValueError, LocaleFileError):
        return None
    if not isinstance(value, dict):
        return None
    return messages_of(value) if format_of(path.name) == "arb" else value


def count_leaves(value: object) -> int:
    """How many strings (messages) a parsed locale file holds."""
    if isinstance(value, dict):
        return sum(count_leaves(item) for item in value.values())
    if isinstance(value, list):
        return sum(count_leaves(item) for item in value)
    return 1 if isinstance(value, str) else 0


def message_counts(locales: dict[str, list[Path]]) -> dict[str, int]:
    """Each locale (as `locale_files` gives them) → how many messages its files hold."""
    return {
        code: sum(count_leaves(read_locale_object(file)) for file in files)
        for code, files in locales.items()
    }


def choose_source(locales: dict[str, list[Path]], preferred: str) -> tuple[str, str] | None:
    """The source locale among `locales` when `preferred` (the configured or default code) is
    not one of them, with why: the only English one (`en-US`, `en_GB`), else the one whose
    files hold the most messages (English first on a tie). None when `preferred` is there (or
    there is no locale). Pseudo-locales (`en-XA`, `qps-ploc`) are never chosen."""
    by_code = {normalize_code(code): code for code in locales}
    if not locales or normalize_code(preferred) in by_code:
        return None
    locales = {code: files for code, files in locales.items() if not _is_pseudo(code)}
    if not locales:
        return None
    english = [code for code in locales if normalize_code(code).split("-")[0] == "en"]
    if len(english) == 1:
        return english[0], "the only English locale"
    sizes = message_counts(locales)
    best = max(sorted(locales), key=lambda code: (sizes[code], code in english))
    return best, f"the locale with the most messages ({sizes[best]})"


def _is_pseudo(code: str) -> bool:
    parts = normalize_code(code).split("-")
    return parts[0] == "qps" or any(part in _PSEUDO_REGIONS for part in parts[1:])


class KeyShapes(NamedTuple):
    """What the source locale's keys allow: flat files whose keys hold the key separator
    cannot be nested paths, and keys holding `:` cannot be split at a namespace separator."""

    flat: bool
    """Every file is one level of strings (no nested object)."""
    dotted: list[str]
    """A few top-level keys that contain `.`."""
    colon: list[str]
    """A few keys that contain `:`."""


def key_shapes(files: Iterable[Path], sample: int = 3) -> KeyShapes:
    """The shapes of the keys in `files` (files that cannot be read are skipped)."""
    flat = True
    dotted: list[str] = []
    colon: list[str] = []

    def visit(value: dict[str, object], top: bool) -> None:
        nonlocal flat
        for key, item in value.items():
            if top and "." in key and len(dotted) < sample:
                dotted.append(key)
            if ":" in key and len(colon) < sample:
                colon.append(key)
            if isinstance(item, dict):
                flat = False
                visit(item, False)

    for file in files:
        document = read_locale_object(file)
        if document is not None:
            visit(document, True)
    return KeyShapes(flat, dotted, colon)
