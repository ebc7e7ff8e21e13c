"""The projects of a monorepo root without an i18nprune workspace file: the packages its package
manager lists (npm/yarn `workspaces`, `pnpm-workspace.yaml`, else the folders `apps/*` and
`packages/*`) whose own configuration finds locale files.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from i18nprune.config.detect.packages import npm_workspaces, pnpm_packages
from i18nprune.config.loading import LoadedConfig, load_config
from i18nprune.config.lookup import CONFIG_FILE_NAMES
from i18nprune.envelope import ProblemError
from i18nprune.globs import glob_match
from i18nprune.locales.layout import discover_locales
from i18nprune.scan.discovery import DEFAULT_SKIP_DIRS

FALLBACK_PATTERNS = ("apps/*", "packages/*")
"""Where a root that declares no workspace keeps its packages, by convention."""


@dataclass(frozen=True)
class PackagePatterns:
    """The folder globs a root's package manager names its packages with, and which file said
    so."""

    patterns: list[str]
    """POSIX globs relative to the root (`packages/*`); a leading `!` excludes."""
    origin: str
    """`package.json workspaces`, `pnpm-workspace.yaml packages`, or the convention."""
    declared: bool
    """False for the `apps/*`/`packages/*` convention, whose folders need no `package.json`."""


@dataclass(frozen=True)
class DiscoveredProject:
    """A workspace package that is an i18nprune project, and why."""

    rel: str
    """Its folder relative to the root, POSIX-style (`apps/web`)."""
    reason: str
    """For a person: `locale files in public/locales (package.json workspaces: apps/*)`."""


def package_patterns(root: Path) -> PackagePatterns | None:
    """The package globs `root` declares (package.json `workspaces` as an array or as
    `{"packages": [...]}`, and `pnpm-workspace.yaml`'s `packages` list), else the convention
    `apps/*` and `packages/*` when either folder exists; None for a root that is no workspace."""
    declared: list[str] = []
    origins: list[str] = []
    npm = npm_workspaces(root / "package.json")
    if npm:
        declared += npm
        origins.append("package.json workspaces")
    pnpm = pnpm_packages(root / "pnpm-workspace.yaml")
    if pnpm:
        declared += pnpm
        origins.append("pnpm-workspace.yaml packages")
    if declared:
        patterns = list(dict.fromkeys(_normal_pattern(pattern) for pattern in declared))
        return PackagePatterns([p for p in patterns if p], " and ".join(origins), declared=True)
    present = [pattern for pattern in FALLBACK_PATTERNS if (root / pattern.split("/")[0]).is_dir()]
    if present:
        return PackagePatterns(present, "the folders apps/* and packages/*", declared=False)
    return None


def discover_projects(root: Path, env: Mapping[str, str] | None = None) -> list[DiscoveredProject]:
    """The workspace packages of `root` that are i18nprune projects, sorted by folder: those with
    an i18nprune config, and those whose configuration, loaded as a zero-config run would
    (environment `env`, default `os.environ`), finds locale files. A locale folder shared by a
    package and a package inside it belongs to the inner one. Empty when `root` is no
    workspace (see `package_patterns`)."""
    root = Path(os.path.realpath(root))
    found = package_patterns(root)
    if found is None:
        return []
    by_locales: dict[Path, tuple[str, str]] = {}
    projects: dict[str, str] = {}
    for folder, pattern in _packages(root, found):
        rel = folder.relative_to(root).as_posix()
        where = f"{found.origin}: {pattern}"
        config = next((name for name in CONFIG_FILE_NAMES if (folder / name).is_file()), None)
        if config is not None:
            projects[rel] = f"its {config} ({where})"
            continue
        try:
            loaded = load_config(folder, env=env)
        except ProblemError:
            continue  # a package whose set-up cannot be read is not taken for a project
        if not has_locales(loaded):
            continue
        directory = Path(os.path.realpath(folder / loaded.config.locales.directory))
        reason = f"locale files in {loaded.config.locales.directory} ({where})"
        held = by_locales.get(directory)
        if held is None or len(rel) > len(held[0]):
            by_locales[directory] = (rel, reason)
    projects.update(dict(by_locales.values()))
    return [DiscoveredProject(rel, projects[rel]) for rel in sorted(projects)]


def has_locales(loaded: LoadedConfig) -> bool:
    """Whether a loaded configuration finds at least one locale file, in a locale folder inside
    its root."""
    directory = Path(os.path.realpath(loaded.root / loaded.config.locales.directory))
    if directory != loaded.root and loaded.root not in directory.parents:
        return False
    inventory, _ = discover_locales(loaded.root, loaded.config.locales)
    return any(inventory.segments.values())


def _normal_pattern(pattern: str) -> str:
    """A package glob as `glob_match` reads it: no `./` head, no trailing `/`."""
    excluded = pattern.startswith("!")
    body = pattern.lstrip("!").strip()
    while body.startswith("./"):
        body = body[2:]
    body = body.rstrip("/")
    if not body or body == "." or PurePosixPath(body).is_absolute() or ".." in body.split("/"):
        return ""
    return f"!{body}" if excluded else body


def _packages(root: Path, found: PackagePatterns) -> list[tuple[Path, str]]:
    """Each package folder the patterns select (with a `package.json` when declared), with the
    first pattern that chose it; `!` patterns remove what they match."""
    including = [pattern for pattern in found.patterns if not pattern.startswith("!")]
    excluding = [pattern[1:] for pattern in found.patterns if pattern.startswith("!")]
    chosen: dict[Path, str] = {}
    for pattern in including:
        for folder in _folders_under(root, pattern):
            rel = folder.relative_to(root).as_posix()
            if not glob_match(rel, pattern) or any(glob_match(rel, ex) for ex in excluding):
                continue
            if found.declared and not (folder / "package.json").is_file():
                continue
            chosen.setdefault(folder, pattern)
    return list(chosen.items())


def _folders_under(root: Path, pattern: str) -> list[Path]:
    """The folders a pattern may match: below its literal head, as deep as it reaches (any depth
    for `**`); dependency, build and hidden folders are not entered."""
    parts = pattern.split("/")
    literal = 0
    while literal < len(parts) and not any(mark in parts[literal] for mark in "*?["):
        literal += 1
    base = root.joinpath(*parts[:literal])
    if literal == len(parts):
        return [base] if base.is_dir() else []
    depth = None if "**" in parts else len(parts) - literal
    folders: list[Path] = []
    for current, names, _ in os.walk(base):
        level = len(Path(current).relative_to(base).parts)
        names[:] = sorted(
            name
            for name in names
            if name not in DEFAULT_SKIP_DIRS
            and not name.startswith(".")
            and not os.path.islink(os.path.join(current, name))
        )
        folders += [Path(current, name) for name in names]
        if depth is not None and level + 1 >= depth:
            names[:] = []
    return folders
