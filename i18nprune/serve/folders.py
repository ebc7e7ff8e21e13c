"""Which projects a request's root holds (`i18nprune.routing`), kept by the session's scan index
while no file that decides it changes, so a request at a workspace root does not walk the tree
to find its projects.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from pathlib import Path

from i18nprune.config.detect.packages import WORKSPACE_FILE
from i18nprune.locales.formats import format_of
from i18nprune.routing import FolderRouting, route_folder
from i18nprune.serve.index import ScanIndex

ROUTING_FILES = frozenset({WORKSPACE_FILE, "package.json", "pnpm-workspace.yaml"})
"""Files besides `i18nprune.config.*` whose change (anywhere under the folder) may change its
projects."""


def decides_routing(relpath: str) -> bool:
    """Whether a change of `relpath` (relative to a folder) may change the folder's projects:
    a config file, the workspace file or a package manager's workspace list."""
    name = posixpath.basename(relpath)
    return name in ROUTING_FILES or name.startswith("i18nprune.config.")


def routing_of(index: ScanIndex, folder: Path) -> FolderRouting:
    """The projects of `folder` (a realpath) now, from `index` when it kept them; call it in a
    worker thread. Raises ProblemError for a workspace file that is not valid (never kept).

    What is kept is found again after a change of what decides it (`decides_routing`); where
    no config names the projects (zero-config, or discovered from the package manager's
    packages) also after a change of any JSON file (a package gaining locale files becomes a
    project), and where projects were discovered after any change at all (a package's
    zero-config run may read its sources)."""
    generation, kept = index.recall_lasting(folder, _KEY)
    if isinstance(kept, FolderRouting):
        return kept
    found = route_folder(folder)
    if generation is not None:
        index.remember_lasting(folder, generation, _KEY, found, _what_decides(found))
    return found


_KEY = ("routing",)


def _what_decides(routing: FolderRouting) -> Callable[[str], bool]:
    if any(project.reason is not None for project in routing.projects):
        return lambda _: True
    if all(project.config_path is None for project in routing.projects):
        return lambda path: format_of(path) is not None or decides_routing(path)
    return decides_routing
