"""What a run found and could not read, said before anything it would conclude from reading
nothing: no locale folder (and the projects and locale folders below the root instead), a
locale folder without a locale file i18nprune reads, source folders without a file scanned."""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from i18nprune.config.detect.locales import find_locale_folders, walkable
from i18nprune.envelope import Code, Issue, ProblemError, error
from i18nprune.locales.formats import LOCALE_SUFFIXES
from i18nprune.ops.shared.suggestions import Suggestion
from i18nprune.project import Project, command_line
from i18nprune.scan.grammars import SCANNED_SUFFIXES
from i18nprune.workspace import find_workspace

# Locale formats other tools read and i18nprune does not (those it reads: `locales.formats`).
OTHER_LOCALE_FORMATS = frozenset(
    {".xlf", ".xliff", ".pot", ".properties", ".strings", ".resx", ".toml", ".ini"}
) - frozenset(LOCALE_SUFFIXES)
_READ_FORMATS = "JSON, YAML, ARB and PO"
_LISTED = 3
_SEARCH_DEPTH = 4
_COUNTED_FILES = 10_000  # enough to describe a folder, bounded on a huge one


@dataclass(frozen=True)
class NotRead:
    """Why a run compared nothing: the sentence, the error that says it, and what to run."""

    reason: str
    issue: Issue
    suggestions: list[Suggestion] = field(default_factory=list)


def locales_not_read(project: Project) -> NotRead | None:
    """Why no locale file was read: the locale folder is not there (then the projects, configs
    and locale folders below the root, and the commands that would work), or it holds no
    locale file i18nprune reads (then what it holds); None when a locale file was read."""
    inventory, _ = project.inventory()
    if any(inventory.segments.values()):
        return None
    folder = project.config.locales.directory
    if not project.locales_dir.is_dir():
        return _no_locale_folder(project, folder)
    found = _suffixes(project.locales_dir, _COUNTED_FILES)
    other = {suffix: count for suffix, count in found.items() if suffix in OTHER_LOCALE_FORMATS}
    held = (
        f"only {_counted(other)}, a format i18nprune does not read (it reads "
        f"{_READ_FORMATS} locale files)"
        if other
        else (
            "no locale file"
            if not found
            else f"no file named for a locale code ({_counted(found)})"
        )
    )
    reason = f"the locale folder `{folder}` holds {held}"
    return NotRead(
        reason,
        error(Code.LOCALES_NONE_READ, f"{reason}; no key was read or compared", folder),
        [
            Suggestion(
                "suggest.config.locales_directory",
                "point `locales.directory` at the folder of JSON locale files",
                project.command("init"),
            )
        ],
    )


def described(not_read: NotRead) -> str:
    """The reason and the commands to run instead, in one sentence (for `doctor`)."""
    commands = "; ".join(f"`{tip.command}` ({tip.message})" for tip in not_read.suggestions)
    return f"{not_read.reason}. Try {commands}" if commands else not_read.reason


def sources_not_scanned(project: Project, files_scanned: int) -> NotRead | None:
    """Why no source file was scanned (what the source folders hold instead), or None."""
    if files_scanned:
        return None
    folders = ", ".join(project.config.src_dirs())
    found: Counter[str] = Counter()
    for directory in project.src_dirs:
        found.update(_suffixes(directory, _COUNTED_FILES))
    held = f" ({_counted(found)})" if found else ""
    suffixes = ", ".join(sorted(SCANNED_SUFFIXES))
    reason = (
        f"no source file was scanned: the source folders ({folders}) hold no {suffixes} file{held}"
    )
    return NotRead(
        reason,
        error(
            Code.SCAN_NOTHING_SCANNED,
            f"{reason}; no key use was read",
            project.config.src_dirs()[0],
        ),
        [
            Suggestion(
                "suggest.config.src",
                "point `src` at the folders of the code that uses keys",
                project.command("config"),
            )
        ],
    )


def _no_locale_folder(project: Project, folder: str) -> NotRead:
    root = project.root
    projects = _projects_below(project)
    folders = [found.path for found in find_locale_folders(root) if not found.aside]
    listed = []
    if projects:
        listed.append("projects: " + _some([rel for rel, _ in projects]))
    if folders:
        listed.append("locale folders: " + _some(folders))
    below = f"; found below: {'; '.join(listed)}" if listed else "; none was found below"
    reason = f"no locale folder was found: `{folder}` does not exist{below}"
    suggestions = []
    if projects:
        suggestions.append(
            Suggestion(
                "suggest.workspace",
                f"run in each of the {len(projects)} project(s) below",
                project.command("--workspace validate"),
            )
        )
        rel, config = projects[0]
        suggestions.append(
            Suggestion(
                "suggest.project",
                f"run in the project at `{rel}` ({config})",
                command_line(root / rel, project.cwd, "validate"),
            )
        )
    where = f" (e.g. `{folders[0]}`)" if folders else ""
    suggestions.append(
        Suggestion(
            "suggest.config.locales_missing",
            f"or make this folder a project: `init` asks for its locale folder{where} and "
            "writes the config",
            project.command("init"),
        )
    )
    return NotRead(reason, error(Code.LOCALES_DIR_MISSING, reason, folder), suggestions)


def _projects_below(project: Project) -> list[tuple[str, str]]:
    """Each project below the root (`--workspace` would run in): its folder, and why."""
    try:
        workspace = find_workspace(project.root, project.env)
    except ProblemError:
        return []
    return [
        (
            found.rel,
            found.config_path.name if found.config_path is not None else found.reason or "found",
        )
        for found in workspace.projects
        if found.rel != "."
    ]


def _suffixes(directory: Path, limit: int) -> Counter[str]:
    """How many files of each suffix lie in `directory` (a few levels deep, the detector's
    folders only), up to `limit` files."""
    counted: Counter[str] = Counter()
    base = len(directory.parts)
    for parent, subdirectories, files in os.walk(directory):
        depth = len(Path(parent).parts) - base
        subdirectories[:] = (
            [name for name in subdirectories if walkable(name)] if depth < _SEARCH_DEPTH else []
        )
        for name in files:
            counted[Path(name).suffix.lower() or name] += 1
            if counted.total() >= limit:
                return counted
    return counted


def _counted(found: dict[str, int] | Counter[str]) -> str:
    ranked = sorted(found.items(), key=lambda item: (-item[1], item[0]))
    return ", ".join(f"{count} {suffix} file(s)" for suffix, count in ranked[:4])


def _some(items: list[str]) -> str:
    more = f" and {len(items) - _LISTED} more" if len(items) > _LISTED else ""
    return ", ".join(items[:_LISTED]) + more
