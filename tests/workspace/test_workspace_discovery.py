"""Finding a workspace's projects: from `i18nprune.workspace.json` patterns, or from the config
files below the root."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from i18nprune.envelope import Code, ProblemError
from i18nprune.ops.workspace import project_handle
from i18nprune.project import ProjectHandle, ProjectRequest
from i18nprune.workspace import WORKSPACE_FILE, WorkspaceProject, find_workspace

CONFIG = '{"locales": {"source": "en"}}'


def project(root: Path, rel: str, config: str | None = "i18nprune.config.json") -> Path:
    folder = root / rel
    folder.mkdir(parents=True, exist_ok=True)
    if config is not None:
        (folder / config).write_text(CONFIG if config.endswith(".json") else "export default {}")
    return folder


def workspace_file(root: Path, text: str) -> Path:
    path = root / WORKSPACE_FILE
    path.write_text(text)
    return path


def rels(root: Path) -> list[str]:
    return [found.rel for found in find_workspace(root).projects]


def test_globs_select_folders_with_a_config_and_an_exact_path_is_a_project_without_one(
    tmp_path: Path,
) -> None:
    project(tmp_path, "packages/web")
    project(tmp_path, "packages/admin", "i18nprune.config.ts")
    project(tmp_path, "packages/shared-utils", config=None)
    project(tmp_path, "apps/site", config=None)
    workspace_file(tmp_path, '{"projects": ["packages/*", "apps/site"]}')

    found = find_workspace(tmp_path)

    assert [item.rel for item in found.projects] == ["apps/site", "packages/admin", "packages/web"]
    assert found.file == tmp_path / WORKSPACE_FILE
    admin = found.projects[1]
    assert admin.root == (tmp_path / "packages/admin").resolve()
    assert admin.config_path == admin.root / "i18nprune.config.ts"
    assert found.projects[0].config_path is None
    assert found.issues == []


def test_an_exclamation_pattern_removes_what_earlier_patterns_chose(tmp_path: Path) -> None:
    project(tmp_path, "packages/web")
    project(tmp_path, "packages/legacy")
    workspace_file(tmp_path, '{"projects": ["packages/*", "!packages/legacy"]}')
    assert rels(tmp_path) == ["packages/web"]


def test_double_star_spans_folders_but_not_the_skip_set(tmp_path: Path) -> None:
    project(tmp_path, "apps/web")
    project(tmp_path, "libs/ui/i18n")
    project(tmp_path, "apps/web/node_modules/dep")
    workspace_file(tmp_path, '{"projects": ["**"]}')
    assert rels(tmp_path) == ["apps/web", "libs/ui/i18n"]


def test_a_pattern_that_matches_nothing_is_a_warning(tmp_path: Path) -> None:
    project(tmp_path, "packages/web")
    workspace_file(tmp_path, '{"projects": ["packages/*", "apps/*"]}')
    found = find_workspace(tmp_path)
    [issue] = found.issues
    assert (issue.code, issue.severity) == (Code.WORKSPACE_PATTERN_UNMATCHED, "warning")
    assert "`apps/*` matches no project folder" in issue.message


def test_without_a_workspace_file_every_config_below_the_root_is_a_project(tmp_path: Path) -> None:
    project(tmp_path, ".")
    project(tmp_path, "packages/web")
    project(tmp_path, "packages/web/nested")
    project(tmp_path, "node_modules/some-lib")
    project(tmp_path, ".cache/copy")
    project(tmp_path, "docs", config=None)
    found = find_workspace(tmp_path)
    assert found.file is None
    assert [item.rel for item in found.projects] == [".", "packages/web", "packages/web/nested"]


def test_a_linked_folder_is_not_entered_while_discovering(tmp_path: Path) -> None:
    elsewhere = project(tmp_path / "outside", "app")
    root = tmp_path / "mono"
    project(root, "packages/web")
    os.symlink(elsewhere, root / "packages" / "linked")
    assert rels(root) == ["packages/web"]


def test_a_workspace_without_projects_is_an_error_that_says_how_to_list_them(
    tmp_path: Path,
) -> None:
    with pytest.raises(ProblemError) as raised:
        find_workspace(tmp_path)
    issue = raised.value.issue
    assert issue.code == Code.WORKSPACE_EMPTY
    assert WORKSPACE_FILE in issue.message and "packages/*" in issue.message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"projects": ["packages/*",]}', ":1:27: invalid JSON: trailing comma before `]`"),
        ('{"project": ["packages/*"]}', "unknown key `project` (did you mean `projects`?)"),
        ('["packages/*"]', "must be a JSON object, not an array"),
        ('{"projects": "packages/*"}', "`projects` must be a list of folder patterns"),
        ('{"projects": [""]}', "`projects` must be a list of folder patterns"),
        ('{"projects": ["../other/*"]}', "must be a relative POSIX path inside the workspace"),
        ('{"projects": ["/abs/app"]}', "must be a relative POSIX path inside the workspace"),
    ],
)
def test_an_invalid_workspace_file_is_an_error_naming_the_file_and_the_fault(
    tmp_path: Path, text: str, expected: str
) -> None:
    path = workspace_file(tmp_path, text)
    with pytest.raises(ProblemError) as raised:
        find_workspace(tmp_path)
    issue = raised.value.issue
    assert issue.code == Code.WORKSPACE_INVALID
    assert issue.message.startswith(str(path))
    assert expected in issue.message


def test_an_exact_path_that_links_outside_the_workspace_is_refused(tmp_path: Path) -> None:
    elsewhere = project(tmp_path / "outside", "app")
    root = tmp_path / "mono"
    root.mkdir()
    os.symlink(elsewhere, root / "app")
    workspace_file(root, '{"projects": ["app"]}')
    with pytest.raises(ProblemError) as raised:
        find_workspace(root)
    assert raised.value.issue.code == Code.WORKSPACE_INVALID
    assert "`app` leads outside the workspace" in raised.value.issue.message


@pytest.mark.parametrize("long_lived", [False, True])
def test_a_member_project_keeps_the_hosts_environment_and_lifetime(
    tmp_path: Path, long_lived: bool
) -> None:
    host = ProjectHandle(ProjectRequest(cwd=tmp_path), env={"X": "1"}, long_lived=long_lived)
    member = project_handle(host, WorkspaceProject(tmp_path / "web", "web", None))
    assert member.request.project == tmp_path / "web"
    assert (member.env, member.long_lived) == ({"X": "1"}, long_lived)
