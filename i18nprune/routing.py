"""Which project a file belongs to, for hosts that are given a folder rather than a project: an
editor opens a monorepo's root, a `serve` client names it as `projectRoot`.

A folder is a workspace when it holds `i18nprune.workspace.json`, when i18nprune configs lie
below it, or when discovery finds workspace packages with locale files (`find_workspace`);
otherwise the folder itself is the one project (configured at its root, or zero-config). A file
belongs to the deepest project whose root holds it, so a project nested inside another owns its
own files.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from i18nprune.config.lookup import CONFIG_FILE_NAMES
from i18nprune.envelope import Code, Issue, ProblemError
from i18nprune.workspace import WORKSPACE_FILE, WorkspaceProject, find_workspace


@dataclass(frozen=True)
class FolderRouting:
    """The projects of one folder, deepest first, and how they were found."""

    folder: Path
    """Absolute and resolved."""
    projects: tuple[WorkspaceProject, ...]
    """Sorted by depth, deepest first: the first whose root holds a path owns it."""
    workspace: bool
    """Whether the folder is a workspace root (several projects, or one below it) rather than
    a project itself."""
    issues: tuple[Issue, ...] = ()
    """What finding the projects noted (a pattern that matched nothing, discovery's notice)."""
    workspace_file: Path | None = None
    """The folder's `i18nprune.workspace.json` when it lists the projects."""

    def project_of(self, path: str | os.PathLike[str]) -> WorkspaceProject | None:
        """The project that owns `path` (absolute, or relative to the folder), or None when no
        project of the folder holds it."""
        absolute = Path(os.path.realpath(self.folder / path))
        for project in self.projects:
            if absolute == project.root or project.root in absolute.parents:
                return project
        return None

    @property
    def roots(self) -> list[Path]:
        """Every project root, sorted by path."""
        return sorted(project.root for project in self.projects)


def route_folder(
    folder: Path, env: Mapping[str, str] | None = None, *, look_above: bool = False
) -> FolderRouting:
    """The projects of `folder` (see the module docstring). Raises ProblemError for a
    workspace file that is not valid. A folder with no project below it is one project — or,
    with `look_above` (an editor's folder, which may be any folder of a project), the project
    it lies inside (see `_inside_a_project`)."""
    folder = Path(os.path.realpath(folder))
    try:
        workspace = find_workspace(folder, env)
    except ProblemError as exc:
        if exc.issue.code != Code.WORKSPACE_EMPTY:
            raise
        if look_above:
            return _inside_a_project(folder, env)
        return FolderRouting(folder, (WorkspaceProject(folder, ".", None),), workspace=False)
    projects = sorted(workspace.projects, key=lambda project: -len(project.root.parts))
    only_itself = len(projects) == 1 and projects[0].root == folder
    return FolderRouting(
        folder,
        tuple(projects),
        workspace=not only_itself,
        issues=tuple(workspace.issues),
        workspace_file=workspace.file,
    )


def _inside_a_project(folder: Path, env: Mapping[str, str] | None) -> FolderRouting:
    """A folder with no project below it (an editor opened `src/`, say): the project of the
    nearest folder above it, up to the repository's root, with an i18nprune config or workspace
    file — else, when it has no `package.json` of its own, of the nearest one that has — else
    the folder itself, zero-config."""
    if not (folder / "package.json").is_file():
        manifest = None
        for above in folder.parents:
            if (above / WORKSPACE_FILE).is_file():
                return route_folder(above, env, look_above=True)
            config = next((above / n for n in CONFIG_FILE_NAMES if (above / n).is_file()), None)
            if config is not None:
                project = WorkspaceProject(above, _up(folder, above), config)
                return FolderRouting(folder, (project,), workspace=False)
            if manifest is None and (above / "package.json").is_file():
                manifest = above
            if (above / ".git").exists():
                break
        if manifest is not None:
            project = WorkspaceProject(manifest, _up(folder, manifest), None)
            return FolderRouting(folder, (project,), workspace=False)
    return FolderRouting(folder, (WorkspaceProject(folder, ".", None),), workspace=False)


def _up(folder: Path, above: Path) -> str:
    """`above` relative to `folder` (`..`, `../..`)."""
    return Path(os.path.relpath(above, folder)).as_posix()
