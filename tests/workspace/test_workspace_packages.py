"""Finding a monorepo's projects without an i18nprune file: the package manager's workspace
packages (npm/yarn `workspaces`, `pnpm-workspace.yaml`, else `apps/*` and `packages/*`) whose
zero-config run finds locale files."""

from __future__ import annotations

from pathlib import Path

import pytest

from i18nprune.config import load_config
from i18nprune.config.detect.workspace import discover_projects, has_locales, package_patterns
from i18nprune.envelope import Code, ProblemError
from i18nprune.workspace import find_workspace
from tests.conftest import write_tree

NO_ENV: dict[str, str] = {}


def package(rel: str, locales: str | None = "locales/en.json") -> dict[str, object]:
    files: dict[str, object] = {f"{rel}/package.json": {"name": rel}}
    if locales is not None:
        files[f"{rel}/{locales}"] = {"hello": "Hello"}
    return files


@pytest.mark.parametrize(
    ("files", "patterns", "origin"),
    [
        (
            {"package.json": {"workspaces": ["./apps/*", "packages/*/"]}},
            ["apps/*", "packages/*"],
            "package.json workspaces",
        ),
        (
            {"package.json": {"workspaces": {"packages": ["apps/*"], "nohoist": ["**/x"]}}},
            ["apps/*"],
            "package.json workspaces",
        ),
        (
            {"pnpm-workspace.yaml": "packages:\n  - 'apps/*'  # apps\n  - \"!apps/old\"\n"},
            ["apps/*", "!apps/old"],
            "pnpm-workspace.yaml packages",
        ),
        (
            {"pnpm-workspace.yaml": "onlyBuilt: [x]\npackages: [apps/*, 'libs/**']\n"},
            ["apps/*", "libs/**"],
            "pnpm-workspace.yaml packages",
        ),
        ({"apps/web/x.ts": "", "packages/ui/x.ts": ""}, ["apps/*", "packages/*"], "the folders"),
    ],
    ids=["npm-array", "yarn-object", "pnpm-block", "pnpm-flow", "convention"],
)
def test_a_root_names_its_packages(tmp_path: Path, files, patterns, origin) -> None:
    write_tree(tmp_path, files)

    found = package_patterns(tmp_path)

    assert found is not None
    assert found.patterns == patterns
    assert found.origin.startswith(origin)


def test_a_root_that_declares_nothing_and_has_no_package_folders_is_no_workspace(
    tmp_path: Path,
) -> None:
    write_tree(tmp_path, {"package.json": {"name": "app"}, "src/locales/en.json": {"a": "A"}})

    assert package_patterns(tmp_path) is None
    assert discover_projects(tmp_path, NO_ENV) == []


def test_declared_packages_need_a_package_json_and_locale_files(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "package.json": {"workspaces": ["apps/*", "packages/*"]},
            **package("apps/web", "public/locales/en/common.json"),
            **package("apps/docs", locales=None),  # no locale files
            "apps/notes/locales/en.json": {"a": "A"},  # no package.json: not a package
            **package("packages/i18n", "src/lang/en.json"),
        },
    )

    found = discover_projects(tmp_path, NO_ENV)

    assert [project.rel for project in found] == ["apps/web", "packages/i18n"]
    assert "public/locales" in found[0].reason and "apps/*" in found[0].reason


def test_a_package_with_an_i18nprune_config_is_a_project_without_locale_files(
    tmp_path: Path,
) -> None:
    write_tree(
        tmp_path,
        {
            "package.json": {"workspaces": ["apps/*"]},
            **package("apps/web", locales=None),
            "apps/web/i18nprune.config.json": {"locales": {"directory": "i18n"}},
        },
    )

    assert [project.rel for project in discover_projects(tmp_path, NO_ENV)] == ["apps/web"]


def test_a_locale_folder_seen_from_two_nested_packages_belongs_to_the_inner_one(
    tmp_path: Path,
) -> None:
    write_tree(
        tmp_path,
        {
            "package.json": {"workspaces": ["apps/*", "apps/web/*"]},
            "apps/web/package.json": {"name": "web"},
            **package("apps/web/client", "messages/en.json"),
        },
    )
    # apps/web, run with --locales-dir client/messages, would see the same files
    outer = load_config(tmp_path / "apps/web", env={"I18NPRUNE_LOCALES_DIR": "client/messages"})
    assert has_locales(outer)

    env = {"I18NPRUNE_LOCALES_DIR": "client/messages"}
    assert [p.rel for p in discover_projects(tmp_path, env)] == ["apps/web"]
    assert [p.rel for p in discover_projects(tmp_path, NO_ENV)] == ["apps/web/client"]


def test_has_locales_wants_locale_files_inside_the_project(tmp_path: Path) -> None:
    write_tree(tmp_path, {"shared/en.json": {"a": "A"}, "app/src/x.ts": ""})

    inside = load_config(tmp_path, env={"I18NPRUNE_LOCALES_DIR": "shared"})
    outside = load_config(tmp_path / "app", env={"I18NPRUNE_LOCALES_DIR": "../shared"})
    empty = load_config(tmp_path / "app", env=NO_ENV)

    assert has_locales(inside)
    assert not has_locales(outside)
    assert not has_locales(empty)


def test_find_workspace_falls_back_to_discovered_packages(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {"package.json": {"workspaces": ["apps/*"]}, **package("apps/web"), **package("apps/x")},
    )

    workspace = find_workspace(tmp_path, NO_ENV)

    assert workspace.discovered and workspace.file is None
    assert [project.rel for project in workspace.projects] == ["apps/web", "apps/x"]
    assert workspace.projects[0].reason is not None
    assert [issue.code for issue in workspace.issues] == [Code.WORKSPACE_DISCOVERED]


def test_configs_below_the_root_still_win_over_discovery(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "package.json": {"workspaces": ["apps/*"]},
            **package("apps/web"),
            **package("apps/admin"),
            "apps/admin/i18nprune.config.json": {},
        },
    )

    workspace = find_workspace(tmp_path, NO_ENV)

    assert not workspace.discovered
    assert [project.rel for project in workspace.projects] == ["apps/admin"]


def test_a_root_with_nothing_to_discover_still_has_no_projects(tmp_path: Path) -> None:
    write_tree(tmp_path, {"package.json": {"workspaces": ["apps/*"]}, **package("apps/web", None)})

    with pytest.raises(ProblemError) as raised:
        find_workspace(tmp_path, NO_ENV)

    issue = raised.value.issues[0]
    assert issue.code == Code.WORKSPACE_EMPTY
    assert "pnpm-workspace.yaml" in issue.message


def test_a_package_json_that_is_not_json_declares_nothing(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text("{ not json")
    (tmp_path / "pnpm-workspace.yaml").write_bytes(b"\xff\xfe")

    assert package_patterns(tmp_path) is None
