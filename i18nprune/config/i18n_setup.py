"""The i18next set-up of each app folder, read statically: the default namespace (`defaultNS`)
and fallback namespaces (`fallbackNS`) that keys naming no namespace go to, as the app's own
`i18next.init({…})`, `createInstance({…})` or `next-i18next.config.js` sets them.

Only the set-up files an app keeps in the usual places are read (`next-i18next.config.js`,
`src/i18n.ts`, `src/i18n/index.ts`, `electron/i18next.config.ts`, …), and only literal values
count: `defaultNS: 'app'` is read, `defaultNS: name` is not (the app's folder then gets no
scope, and keys there keep the project's default namespace).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import NamedTuple

_MAX_BYTES = 256 << 10
_SUFFIXES = (".ts", ".js", ".mjs", ".cjs", ".tsx")
# Where an app keeps its i18next set-up, relative to the app's folder (without a suffix).
_PLACES = tuple(
    f"{folder}{name}"
    for folder in ("", "src/", "app/", "lib/", "src/lib/", "electron/", "src/app/")
    for name in (
        "next-i18next.config",
        "i18next.config",
        "i18n.config",
        "i18n",
        "i18next",
        "i18n/index",
        "i18n/config",
        "i18n/i18n",
        "i18n/i18next",
        "i18n/setup",
        "i18n/init",
        "i18next/index",
        "i18next/config",
        "locales/index",
        "locales/i18n",
    )
)
_DEFAULT_NS = re.compile(
    rb"\bdefaultNS\s*:\s*(?:(['\"`])([^'\"`\n]+)\1|\[\s*(['\"`])([^'\"`\n]+)\3)"
)
_DEFAULT_NS_ANY = re.compile(rb"\bdefaultNS\s*:")
_FALLBACK_NS = re.compile(rb"\bfallbackNS\s*:\s*(?:(['\"`])([^'\"`\n]+)\1|\[([^\]]*)\])")
_QUOTED = re.compile(rb"(['\"`])([^'\"`\n]+)\1")


class SetupNamespaces(NamedTuple):
    """What one app folder's set-up file says: its default and fallback namespaces, and where
    (`file:line`, relative to the project root)."""

    folder: str
    """The app's folder, relative to the project root (`.` for the root)."""
    default_namespace: str
    fallback_namespaces: list[str]
    origin: str


def app_folders(root: Path, src_dirs: list[str]) -> list[str]:
    """The folders (relative to `root`, POSIX) that may be apps with a set-up of their own: the
    root, each source folder and the nearest folder above it with a `package.json`, and every
    folder with a `package.json` one or two levels below the root (`apps/web`, `packages/x`)."""
    found: dict[str, None] = {".": None}
    for src in src_dirs:
        folder = Path(os.path.normpath(root / src))
        if not folder.is_relative_to(root):
            continue
        for candidate in (folder, *folder.parents):
            if candidate == root or not candidate.is_relative_to(root):
                break
            if (candidate / "package.json").is_file():
                found[candidate.relative_to(root).as_posix()] = None
                break
        found[folder.relative_to(root).as_posix() if folder != root else "."] = None
    for manifest in (*root.glob("*/package.json"), *root.glob("*/*/package.json")):
        if "node_modules" not in manifest.parts:
            found[manifest.parent.relative_to(root).as_posix()] = None
    return list(found)


def read_setup(root: Path, folder: str) -> SetupNamespaces | None:
    """The namespaces the first set-up file of the app in `folder` sets with literal values
    (`None`: no such file, or its `defaultNS` is not a literal)."""
    base = root / folder
    for place in _PLACES:
        for suffix in _SUFFIXES:
            file = base / f"{place}{suffix}"
            found = _read(file, root)
            if found is not None:
                return SetupNamespaces(folder, *found) if found[0] else None
    return None


def _read(file: Path, root: Path) -> tuple[str, list[str], str] | None:
    """(default, fallbacks, origin) of a set-up file that sets `defaultNS` (`""` for the
    default when it is not a literal); `None` when the file is not there or sets none."""
    try:
        if not file.is_file() or file.stat().st_size > _MAX_BYTES:
            return None
        content = file.read_bytes()
    except OSError:
        return None
    if _DEFAULT_NS_ANY.search(content) is None:
        return None
    match = _DEFAULT_NS.search(content)
    rel = file.relative_to(root).as_posix()
    if match is None:
        return "", [], rel
    default = (match.group(2) or match.group(4)).decode("utf-8", "replace")
    line = content.count(b"\n", 0, match.start()) + 1
    fallbacks: list[str] = []
    fallback = _FALLBACK_NS.search(content)
    if fallback is not None:
        if fallback.group(2):
            fallbacks = [fallback.group(2).decode("utf-8", "replace")]
        elif fallback.group(3) is not None:
            fallbacks = [
                m.group(2).decode("utf-8", "replace") for m in _QUOTED.finditer(fallback.group(3))
            ]
    return default, [name for name in fallbacks if name != default], f"{rel}:{line}"


def discovered_setups(root: Path, src_dirs: list[str]) -> list[SetupNamespaces]:
    """The set-up of every app folder that has one whose `defaultNS` is a literal."""
    found = (read_setup(root, folder) for folder in app_folders(root, src_dirs))
    return [setup for setup in found if setup is not None]
