"""The i18n libraries a project depends on, from its `package.json` files: which family of
call shapes and key rules applies (i18next namespaces, FormatJS flat ids, …)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

_DEPENDENCY_FIELDS = ("dependencies", "devDependencies", "peerDependencies")
I18NEXT_FAMILY = ("next-i18next", "react-i18next", "i18next-vue", "vue-i18next", "i18next")
"""Libraries whose keys live in i18next namespaces, most specific first."""
FLAT_IDS = ("react-intl", "@formatjs/intl", "@lingui/core")
"""Libraries whose message ids are flat strings (a `.` in an id is part of it)."""
NO_NAMESPACES = (
    "vue-i18n",
    "petite-vue-i18n",
    "@nuxtjs/i18n",
    "svelte-i18n",
    "next-intl",
    "use-intl",
    "@ngx-translate/core",
    "@jsverse/transloco",
    "@ngneat/transloco",
    *FLAT_IDS,
)
"""Libraries that have no namespaces (so no namespace separator in keys)."""
TRANSLOCO = ("@jsverse/transloco", "@ngneat/transloco")
"""Transloco, whose scope folders' keys are spelled with the scope's name in front."""


@dataclass(frozen=True)
class Libraries:
    """The i18n libraries found, each with the manifest that names it (`package.json`)."""

    found: dict[str, str]

    def _first(self, names: tuple[str, ...]) -> str | None:
        for name in names:
            if name in self.found:
                return f"{name} ({self.found[name]})"
        return None

    @property
    def i18next(self) -> str | None:
        """The i18next-family library and its manifest, or None."""
        return self._first(I18NEXT_FAMILY)

    @property
    def transloco(self) -> str | None:
        """Transloco and its manifest, or None."""
        return self._first(TRANSLOCO)

    @property
    def next_i18next(self) -> bool:
        return "next-i18next" in self.found

    @property
    def flat_ids(self) -> str | None:
        return self._first(FLAT_IDS)

    @property
    def without_namespaces(self) -> str | None:
        return self._first(NO_NAMESPACES)


def libraries(root: Path, src_dirs: list[str]) -> Libraries:
    """The i18n libraries in the root's `package.json`, the nearest one above each source
    folder, and the packages one or two folders below the root; a manifest that cannot be
    read adds nothing."""
    found: dict[str, str] = {}
    for manifest in manifests(root, src_dirs, packages=True):
        if "node_modules" in manifest.parts:
            continue
        names = dependencies(manifest)
        relative = manifest.relative_to(root).as_posix()
        for library in (*I18NEXT_FAMILY, *NO_NAMESPACES):
            if library in names:
                found.setdefault(library, relative)
    return Libraries(found)


def manifests(root: Path, src_dirs: list[str], *, packages: bool = False) -> list[Path]:
    """The root's `package.json` and the nearest one above each source folder, that exist;
    with `packages`, also those one or two folders below the root (a monorepo's `apps/web`,
    `packages/i18n`), whose libraries the root's locale files may serve."""
    found = [root / "package.json"]
    if packages:
        found += sorted(root.glob("*/package.json")) + sorted(root.glob("*/*/package.json"))
    for src in src_dirs:
        folder = Path(os.path.abspath(root / src))
        while folder != root and folder.is_relative_to(root):
            if (folder / "package.json").is_file():
                found.append(folder / "package.json")
                break
            folder = folder.parent
    return [path for path in dict.fromkeys(found) if path.is_file()]


def dependencies(manifest: Path) -> set[str]:
    """Every package a `package.json` depends on (empty when it cannot be read)."""
    try:
        document = json.loads(manifest.read_bytes())
    except (OSError, ValueError):
        return set()
    if not isinstance(document, dict):
        return set()
    names: set[str] = set()
    for field in _DEPENDENCY_FIELDS:
        section = document.get(field)
        if isinstance(section, dict):
            names.update(name for name in section if isinstance(name, str))
    return names
