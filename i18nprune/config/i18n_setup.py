"""The i18next set-up of each app folder, read statically: the default namespace (`defaultNS`)
and fallback namespaces (`fallbackNS`) that keys naming no namespace go to, as the app's own
`i18next.init({…})`, `createInstance({…})` or `next-i18next.config.js` sets them (read by
`config.detect.setup`, which finds the set-up files).

Only literal values count: `defaultNS: 'app'` is read, `defaultNS: name` is not (the app's
folder then gets no scope, and keys there keep the project's default namespace).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from i18nprune.config.detect.setup import read_app_setup
from i18nprune.scan.discovery import DEFAULT_SKIP_DIRS


class SetupNamespaces(NamedTuple):
    """What one app folder's set-up file says: its default and fallback namespaces, and where
    (`file:line`, relative to the project root)."""

    folder: str
    """The app's folder, relative to the project root (`.` for the root)."""
    default_namespace: str
    fallback_namespaces: list[str]
    origin: str


# How deep below the root a folder with a `package.json` is still taken for an app or a package
# with an i18n set-up of its own: `apps/web` is 2, a shared package that holds the locale files
# and declares their namespace (`shared-module/packages/common`, rage/secret-project-331) is 3.
_MANIFEST_DEPTH = 3
# Folders never searched for such manifests, besides hidden ones: those no scan enters
# (installed and built copies), and vendored packages.
_NOT_APPS = DEFAULT_SKIP_DIRS | {"bower_components", "vendor"}


def app_folders(root: Path, src_dirs: list[str]) -> list[str]:
    """The folders (relative to `root`, POSIX) that may be apps with a set-up of their own: the
    root, each source folder and the nearest folder above it with a `package.json`, and every
    folder with a `package.json` one to three levels below the root (`apps/web`, `packages/x`,
    `shared/packages/common`), outside installed, built and hidden folders."""
    found = dict.fromkeys(source_app_folders(root, src_dirs))
    found.update(dict.fromkeys(_manifest_folders(root)))
    return list(found)


def source_app_folders(root: Path, src_dirs: list[str]) -> list[str]:
    """The app folders (relative to `root`, POSIX) of the code `src_dirs` hold: the root, and
    for each source folder inside it the nearest folder above it with a `package.json` (the
    app, `ui` of `ui/src`) and the folder itself."""
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
    return list(found)


def _manifest_folders(root: Path) -> list[str]:
    """The folders one to `_MANIFEST_DEPTH` levels below `root` that hold a `package.json`,
    breadth first, each level in name order; unreadable folders are passed over."""
    found: list[str] = []
    level = [""]
    for _ in range(_MANIFEST_DEPTH):
        below: list[str] = []
        for parent in level:
            try:
                with os.scandir(root / parent) as entries:
                    names = sorted(
                        entry.name
                        for entry in entries
                        if entry.is_dir(follow_symlinks=False)
                        and not entry.name.startswith(".")
                        and entry.name not in _NOT_APPS
                    )
            except OSError:
                continue
            for name in names:
                folder = f"{parent}/{name}" if parent else name
                below.append(folder)
                if (root / folder / "package.json").is_file():
                    found.append(folder)
        level = below
    return found


def read_setup(root: Path, folder: str) -> SetupNamespaces | None:
    """The namespaces the set-up of the app in `folder` sets with literal values (`None`: no
    set-up file, or its default namespace is not a literal)."""
    setup = read_app_setup(root, folder)
    default = setup.default_namespace
    if default is None:
        return None
    fallbacks = setup.fallback_namespaces.value if setup.fallback_namespaces is not None else []
    origin = default.origin.split(": ", 1)[0]  # `file:line`
    return SetupNamespaces(
        folder, default.value, [name for name in fallbacks if name != default.value], origin
    )


def discovered_setups(root: Path, src_dirs: list[str]) -> list[SetupNamespaces]:
    """The set-up of every app folder that has one whose `defaultNS` is a literal, each set-up
    file once.

    The root's search reaches down into folders with no `package.json` of their own: a set-up
    file there that a listed folder two or more levels down (`apps/admin`) also finds is that
    folder's; one in the root's own source folders (`src`, `app`) stays the root's.
    """
    found = [read_setup(root, folder) for folder in app_folders(root, src_dirs)]
    setups = [setup for setup in found if setup is not None]
    nested = {_file_of(setup) for setup in setups if setup.folder.count("/") >= 1}
    owned: dict[str, SetupNamespaces] = {}
    for setup in setups:  # a file found from two folders is the first one's
        if setup.folder != "." or _file_of(setup) not in nested:
            owned.setdefault(_file_of(setup), setup)
    return list(owned.values())


def _file_of(setup: SetupNamespaces) -> str:
    return setup.origin.rsplit(":", 1)[0]
