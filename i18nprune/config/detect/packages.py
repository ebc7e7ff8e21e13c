"""The workspace packages a monorepo root declares: `workspaces` in its `package.json` and the
`packages` list of its `pnpm-workspace.yaml`, read without a YAML library (and without the
config loader, so the scan can ask too)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

WORKSPACE_FILE = "i18nprune.workspace.json"
"""i18nprune's own list of a workspace's projects."""


def declares_workspace(folder: Path) -> bool:
    """Whether `folder` is a monorepo root by its own files: package.json `workspaces`,
    `pnpm-workspace.yaml` packages, or an `i18nprune.workspace.json`."""
    return (
        (folder / WORKSPACE_FILE).is_file()
        or bool(npm_workspaces(folder / "package.json"))
        or bool(pnpm_packages(folder / "pnpm-workspace.yaml"))
    )


def repository_root(project_root: Path) -> Path:
    """The repository that holds `project_root`: its nearest ancestor (itself included) with a
    `.git` entry (a folder, or the file of a worktree or submodule); without one (an unpacked
    archive), the nearest that declares a monorepo workspace (package.json `workspaces`,
    `pnpm-workspace.yaml`, `i18nprune.workspace.json`), whose sibling packages may name the
    project's keys; else `project_root`."""
    ancestors = (project_root, *project_root.parents)
    for folder in ancestors:
        if os.path.lexists(folder / ".git"):
            return folder
    return next((folder for folder in ancestors if declares_workspace(folder)), project_root)


def npm_workspaces(package_json: Path) -> list[str]:
    """package.json's `workspaces`: an array of globs, or an object with `packages` (yarn)."""
    try:
        data = json.loads(package_json.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, ValueError):
        return []
    workspaces = data.get("workspaces") if isinstance(data, dict) else None
    if isinstance(workspaces, dict):
        workspaces = workspaces.get("packages")
    if not isinstance(workspaces, list):
        return []
    return [item for item in workspaces if isinstance(item, str)]


_TOP_KEY = re.compile(r"^[^\s#-][^:]*:")
_ITEM = re.compile(r"^\s*-\s*(.*?)\s*$")


def pnpm_packages(workspace_yaml: Path) -> list[str]:
    """The `packages` list of a pnpm-workspace.yaml, in its block form (`- 'apps/*'` lines) or
    flow form (`packages: ['apps/*']`); other YAML is not needed to find the packages."""
    try:
        lines = workspace_yaml.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    patterns: list[str] = []
    inside = False
    for line in lines:
        text = _without_comment(line)
        if not text.strip():
            continue
        if _TOP_KEY.match(text):
            key, _, rest = text.partition(":")
            inside = key.strip() == "packages"
            if inside and rest.strip().startswith("["):
                patterns += [_unquoted(item) for item in rest.strip().strip("[]").split(",")]
                inside = False
            continue
        item = _ITEM.match(text)
        if inside and item:
            patterns.append(_unquoted(item.group(1)))
    return [pattern for pattern in patterns if pattern]


def _without_comment(line: str) -> str:
    """`line` up to a `#` that starts a comment (one outside quotes, after a blank)."""
    quote = ""
    for index, character in enumerate(line):
        if quote:
            quote = "" if character == quote else quote
        elif character in "'\"":
            quote = character
        elif character == "#" and (index == 0 or line[index - 1].isspace()):
            return line[:index]
    return line


def _unquoted(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text
