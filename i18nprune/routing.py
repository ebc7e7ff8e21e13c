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

from i18nprune.envelope import Code, Issue, ProblemError
from i18nprune.workspace import WorkspaceProject, find_workspace


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


def route_folder(folder: Path, env: Mapping[str, str] | None = None) -> FolderRouting:
    """The projects of `folder` (see the module docstring). Raises ProblemError for a
    workspace file that is not valid; a folder with no project below it is one project."""
    folder = Path(os.path.realpath(folder))
    try:
        workspace = find_workspace(folder, env)
    except ProblemError as exc:
        if exc.issue.code != Code.WORKSPACE_EMPTY:
            raise
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
