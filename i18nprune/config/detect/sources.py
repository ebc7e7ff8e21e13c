"""Source folders: every top-level folder of the project whose code uses the i18n library,
found by a byte search (an import of an i18n library, one of its hooks or components, a
translation call with a literal key, or code that reads locale files), never one guessed
folder.

Tests, fixtures, build output, dependencies, hidden folders and the locale folder are not
searched. A folder is read file by file until one holds a call, so a folder that has one
costs little; one that has none is read up to `_MAX_FILES` files.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from i18nprune.config.detect.locales import walkable
from i18nprune.locale_codes import is_language_code
from i18nprune.scan.grammars import SOURCE_SUFFIXES

_MAX_FILES = 4000
_MAX_BYTES = 1 << 20
# Folders of an app that hold no app code the scanner should read as the app's.
_NOT_SOURCES = frozenset({"public", "static", "assets", "scripts", "bin", "docs", "doc"})
_I18N_IMPORT = re.compile(
    rb"""(?:from\s*|import\s*\(?\s*|require\s*\(\s*)['"](?:i18next|react-i18next|next-i18next"""
    rb"""|vue-i18n|petite-vue-i18n|@nuxtjs/i18n|i18next-vue|vue-i18next|svelte-i18n"""
    rb"""|next-intl|use-intl|react-intl|@formatjs/[\w-]+|@lingui/[\w-]+|sveltekit-i18n"""
    rb"""|@ngx-translate/[\w-]+|@jsverse/transloco|@ngneat/transloco)(?:/[\w./-]*)?['"]"""
)
_HOOKS = re.compile(
    rb"\b(?:useTranslation|useTranslations|getTranslations|useIntl|useI18n|withTranslation"
    rb"|useT|getFixedT)\s*\(|<(?:Trans|FormattedMessage|Translation)\b"
)
# Code that reads a locale file by name (`readFile('en.json')`) uses its keys as data.
_LOCALE_FILE = re.compile(
    rb"""['"`](?:[^'"`\n]*/)?([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*)\.json['"`]"""
)


class CallFolder(NamedTuple):
    """A folder whose code uses the i18n library, and the first place that shows it."""

    folder: str
    """Relative to the project root, POSIX."""
    evidence: str
    """`file:line` of the first call or import found, relative to the project root."""


def locale_folder_pattern(locale_folder: str | None) -> re.Pattern[bytes] | None:
    """An import specifier through the locale folder's name (`'../locales/en.json'`,
    `'@/i18n/locales'`), or None for a folder named too generally to tell."""
    if not locale_folder:
        return None
    name = locale_folder.rstrip("/").rsplit("/", 1)[-1]
    if len(name) < 4:
        return None
    return re.compile(
        rb"""['"`](?:\.{1,2}|@|~)[^'"`\n]*/""" + re.escape(name.encode()) + rb"""(?:/|['"`])"""
    )


def call_pattern(functions: Iterable[str]) -> re.Pattern[bytes]:
    """A call of one of `functions` (`t`, `$t`, `i18n.t`) with a literal first argument."""
    names = sorted({name for name in functions if name}, key=len, reverse=True)
    alternatives = b"|".join(re.escape(name.encode()) for name in names)
    return re.compile(rb"(?<![\w$.])(?:" + alternatives + rb")\s*\(\s*['\"`]")


def folders_with_calls(
    root: Path, functions: Iterable[str], locale_folder: str | None
) -> list[CallFolder]:
    """The top-level folders of `root` whose source files import an i18n library, call one of
    its hooks, call one of `functions` with a literal key, or read locale files (a quoted
    `en.json`, an import through the locale folder's name) — sorted by name. The locale
    folder and folders holding no app code (`public`, `scripts`, `docs`, tests) are skipped."""
    patterns = [_I18N_IMPORT, _HOOKS, call_pattern(functions), _LOCALE_FILE]
    through_folder = locale_folder_pattern(locale_folder)
    if through_folder is not None:
        patterns.append(through_folder)
    skipped = {locale_folder} if locale_folder and "/" not in locale_folder.strip("/") else set()
    found: list[CallFolder] = []
    try:
        entries = sorted(os.scandir(root), key=lambda entry: entry.name)
    except OSError:
        return found
    for entry in entries:
        name = entry.name
        if (
            not entry.is_dir(follow_symlinks=False)
            or not walkable(name)
            or name in _NOT_SOURCES
            or name in skipped
        ):
            continue
        evidence = _first_use(root, Path(entry.path), patterns)
        if evidence is not None:
            found.append(CallFolder(name, evidence))
    return found


def _first_use(root: Path, folder: Path, patterns: list[re.Pattern[bytes]]) -> str | None:
    read = 0
    for parent, subdirectories, files in os.walk(folder):
        subdirectories[:] = sorted(name for name in subdirectories if walkable(name))
        for name in sorted(files):
            if os.path.splitext(name)[1] not in SOURCE_SUFFIXES or _is_test_file(name):
                continue
            read += 1
            if read > _MAX_FILES:
                return None
            path = Path(parent, name)
            try:
                with path.open("rb") as handle:
                    content = handle.read(_MAX_BYTES)
            except OSError:
                continue
            match = next((found for pattern in patterns if (found := _use(pattern, content))), None)
            if match is not None:
                line = content.count(b"\n", 0, match.start()) + 1
                return f"{path.relative_to(root).as_posix()}:{line}"
    return None


def _use(pattern: re.Pattern[bytes], content: bytes) -> re.Match[bytes] | None:
    """The first match of `pattern`; for a quoted `*.json` name, the first that names a
    language (`en.json`, not `db-config.json`)."""
    if pattern is not _LOCALE_FILE:
        return pattern.search(content)
    for match in pattern.finditer(content):
        if is_language_code(match.group(1).decode("ascii")):
            return match
    return None


def _is_test_file(name: str) -> bool:
    return ".test." in name or ".spec." in name or ".stories." in name
