"""Workspaces: a monorepo root whose projects are listed in `i18nprune.workspace.json` (globs)
or, when asked for, every directory below it that holds an i18nprune config, else the workspace
packages of its package manager that hold locale files. Finding them is all this module does;
hosts fan an op out over them, and ops stay single-project."""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from i18nprune.config.detect.packages import WORKSPACE_FILE
from i18nprune.config.detect.workspace import discover_projects
from i18nprune.config.lookup import CONFIG_FILE_NAMES
from i18nprune.envelope import Code, Issue, ProblemError, error, info, warning
from i18nprune.globs import glob_match
from i18nprune.jsontext import json_kind, located_problem
from i18nprune.scan.discovery import DEFAULT_SKIP_DIRS

_FIELDS = ("projects",)


@dataclass(frozen=True)
class WorkspaceProject:
    """One project of a workspace: its directory, and its config file when it has one."""

    root: Path
    """Absolute and resolved."""
    rel: str
    """`root` relative to the workspace, POSIX-style (`.` for the workspace root itself)."""
    config_path: Path | None
    reason: str | None = None
    """Why discovery took the folder for a project (no workspace file and no configs)."""


@dataclass(frozen=True)
class Workspace:
    """A workspace root and its projects, sorted by their relative root."""

    root: Path
    file: Path | None
    """The workspace file, or None when the projects were found by their config files or by
    discovery."""
    projects: list[WorkspaceProject]
    issues: list[Issue]
    """Warnings met while finding the projects (a pattern that matched none), and how
    discovery found them."""
    discovered: bool = False
    """True when no workspace file and no config named the projects: each is a package of the
    root's package manager that holds locale files (`WorkspaceProject.reason` says which)."""


def has_workspace_file(root: Path) -> bool:
    """Whether `root` holds an `i18nprune.workspace.json`."""
    return (root / WORKSPACE_FILE).is_file()


def find_workspace(root: Path, env: Mapping[str, str] | None = None) -> Workspace:
    """The workspace at `root`: the projects its workspace file lists; without that file every
    directory below `root` with an i18nprune config (the default skip set, hidden folders and
    symbolic links to folders are not entered); with neither, the root's workspace packages
    (npm/yarn/pnpm, else `apps/*` and `packages/*`) whose zero-config run (environment `env`)
    finds locale files.

    Raises ProblemError (`i18nprune.workspace.invalid`) for a workspace file that is not valid,
    and (`i18nprune.workspace.no_projects`) when there is no project at all.
    """
    root = root.resolve()
    file = root / WORKSPACE_FILE
    issues: list[Issue] = []
    if file.is_file():
        patterns = read_workspace_file(file)
        directories, issues = _matched_directories(root, file, patterns)
    else:
        directories = [folder for folder in _walk(root) if _config_in(folder) is not None]
    if not directories and not file.is_file():
        return _discovered_workspace(root, env)
    projects = [_project(root, directory) for directory in sorted(set(directories))]
    if not projects:
        raise _no_projects(root, f"{file.name} in {root}")
    projects.sort(key=lambda project: project.rel)
    return Workspace(root, file if file.is_file() else None, projects, issues)


def _discovered_workspace(root: Path, env: Mapping[str, str] | None) -> Workspace:
    """The projects discovery finds at a root with no workspace file and no config below it."""
    found = discover_projects(root, env)
    if not found:
        raise _no_projects(
            root,
            f"no i18nprune config below {root}, and no workspace package (package.json "
            "workspaces, pnpm-workspace.yaml, apps/*, packages/*) with locale files",
        )
    projects = [
        WorkspaceProject(
            root=root / project.rel,
            rel=project.rel,
            config_path=None,
            reason=project.reason,
        )
        for project in found
    ]
    listed = "; ".join(f"{project.rel}: {project.reason}" for project in found)
    notice = info(
        Code.WORKSPACE_DISCOVERED,
        f"no {WORKSPACE_FILE} and no i18nprune config: {len(found)} project(s) discovered "
        f"({listed}); `i18nprune init` writes them down",
        str(root),
    )
    return Workspace(root, None, projects, [notice], discovered=True)


def _no_projects(root: Path, where: str) -> ProblemError:
    return ProblemError(
        error(
            Code.WORKSPACE_EMPTY,
            f"the workspace has no project ({where}); list project folders in "
            f'{WORKSPACE_FILE} (`{{"projects": ["packages/*"]}}`) or add an '
            "i18nprune.config.json to each project",
            str(root),
        )
    )


def read_workspace_file(file: Path) -> list[str]:
    """The project patterns of a workspace file: `{"projects": ["packages/*", "apps/web"]}`;
    a pattern starting with `!` excludes what it matches. Raises ProblemError."""
    display = str(file)
    try:
        text = file.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise _invalid(f"{display}: cannot be read ({exc})", display) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        line, column, why = located_problem(text, exc)
        raise _invalid(f"{display}:{line}:{column}: invalid JSON: {why}", display) from None
    if not isinstance(data, dict):
        raise _invalid(f"{display}: must be a JSON object, not {json_kind(data)}", display)
    for key in data:
        if key not in _FIELDS:
            close = difflib.get_close_matches(key, _FIELDS, n=1)
            hint = f" (did you mean `{close[0]}`?)" if close else ""
            raise _invalid(f"{display}: unknown key `{key}`{hint}; expected `projects`", display)
    patterns = data.get("projects")
    if not isinstance(patterns, list) or not all(
        isinstance(pattern, str) and pattern.strip("!") for pattern in patterns
    ):
        raise _invalid(
            f'{display}: `projects` must be a list of folder patterns, e.g. ["packages/*"]',
            display,
        )
    for pattern in patterns:
        path = PurePosixPath(pattern.lstrip("!"))
        if path.is_absolute() or ".." in path.parts or "\\" in pattern:
            raise _invalid(
                f"{display}: the pattern `{pattern}` must be a relative POSIX path inside the "
                "workspace (no `..`, no drive or leading `/`)",
                display,
            )
    return patterns


def _matched_directories(
    root: Path, file: Path, patterns: list[str]
) -> tuple[list[Path], list[Issue]]:
    """The directories the patterns select: an exact path is a project even without a config,
    a glob selects the matching directories that hold one."""
    folders = _walk(root)
    relative = {folder: _rel(root, folder) for folder in folders}
    chosen: dict[Path, None] = {}
    issues: list[Issue] = []
    for pattern in patterns:
        excluding = pattern.startswith("!")
        glob = pattern.lstrip("!").rstrip("/") or "."
        literal = not any(character in glob for character in "*?[")
        if literal:
            target = (root / glob).resolve()
            if target != root and root not in target.parents:
                raise _invalid(f"{file}: `{pattern}` leads outside the workspace", str(file))
            matches = [target] if target.is_dir() else []
        else:
            matches = [
                folder
                for folder in folders
                if glob_match(relative[folder], glob) and _config_in(folder) is not None
            ]
        if excluding:
            for folder in matches:
                chosen.pop(folder, None)
            continue
        if not matches:
            issues.append(
                warning(
                    Code.WORKSPACE_PATTERN_UNMATCHED,
                    f"{file.name}: `{pattern}` matches no project folder"
                    + ("" if literal else " with an i18nprune config"),
                    str(file),
                )
            )
        for folder in matches:
            chosen[folder] = None
    return list(chosen), issues


def _walk(root: Path) -> list[Path]:
    """`root` and every folder below it that a workspace may hold projects in."""
    found = [root]
    for current, folders, _ in os.walk(root):
        folders[:] = sorted(
            name
            for name in folders
            if name not in DEFAULT_SKIP_DIRS
            and not name.startswith(".")
            and not os.path.islink(os.path.join(current, name))
        )
        found.extend(Path(current, name) for name in folders)
    return found


def _config_in(folder: Path) -> Path | None:
    return next(
        (folder / name for name in CONFIG_FILE_NAMES if (folder / name).is_file()),
        None,
    )


def _rel(root: Path, folder: Path) -> str:
    return folder.relative_to(root).as_posix() if folder != root else "."


def _project(root: Path, folder: Path) -> WorkspaceProject:
    return WorkspaceProject(root=folder, rel=_rel(root, folder), config_path=_config_in(folder))


def _invalid(message: str, path: str) -> ProblemError:
    return ProblemError(error(Code.WORKSPACE_INVALID, message, path))
