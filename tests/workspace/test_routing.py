"""Routing files to projects for hosts given a folder (an editor's workspace folder)."""

from __future__ import annotations

from pathlib import Path

import pytest

from i18nprune.envelope import ProblemError
from i18nprune.routing import route_folder
from i18nprune.workspace import WORKSPACE_FILE

CONFIG = '{"locales": {"source": "en"}}'


def configured(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "i18nprune.config.json").write_text(CONFIG)
    return folder


def test_a_folder_with_configs_below_routes_each_file_to_the_deepest_project(
    tmp_path: Path,
) -> None:
    configured(tmp_path / "apps/web")
    configured(tmp_path / "apps/web/embedded")
    configured(tmp_path / "apps/admin")

    routing = route_folder(tmp_path)

    assert routing.workspace and routing.workspace_file is None
    web = routing.project_of("apps/web/src/App.tsx")
    assert web is not None and web.rel == "apps/web"
    embedded = routing.project_of(tmp_path / "apps/web/embedded/src/x.ts")
    assert embedded is not None and embedded.rel == "apps/web/embedded"
    assert routing.project_of("tools/script.ts") is None
    assert routing.roots == sorted(
        (tmp_path / rel).resolve() for rel in ("apps/admin", "apps/web", "apps/web/embedded")
    )


def test_a_folder_with_its_own_config_only_is_one_project(tmp_path: Path) -> None:
    configured(tmp_path)

    routing = route_folder(tmp_path)

    assert not routing.workspace
    owner = routing.project_of("src/a.ts")
    assert owner is not None and owner.root == tmp_path.resolve()


def test_a_folder_without_any_project_below_is_itself_a_zero_config_project(
    tmp_path: Path,
) -> None:
    (tmp_path / "src").mkdir()

    routing = route_folder(tmp_path)

    assert not routing.workspace
    assert routing.roots == [tmp_path.resolve()]
    owner = routing.project_of("src/a.ts")
    assert owner is not None and owner.config_path is None


def test_a_workspace_file_decides_and_a_broken_one_is_an_error(tmp_path: Path) -> None:
    configured(tmp_path / "packages/ui")
    (tmp_path / "packages/docs").mkdir(parents=True)
    (tmp_path / WORKSPACE_FILE).write_text('{"projects": ["packages/docs"]}')

    routing = route_folder(tmp_path)

    assert routing.workspace
    assert routing.workspace_file == (tmp_path / WORKSPACE_FILE).resolve()
    assert [project.rel for project in routing.projects] == ["packages/docs"]
    assert routing.project_of("packages/ui/src/a.ts") is None

    (tmp_path / WORKSPACE_FILE).write_text('{"projects": ')
    with pytest.raises(ProblemError) as raised:
        route_folder(tmp_path)
    assert WORKSPACE_FILE in str(raised.value)


def test_a_folder_inside_a_project_routes_to_the_project_above_it(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    app = configured(tmp_path / "app")
    (app / "src/components").mkdir(parents=True)

    routing = route_folder(app / "src", look_above=True)

    owner = routing.project_of("components/Cart.tsx")
    assert owner is not None and owner.root == app.resolve() and owner.rel == ".."
    assert not routing.workspace
    assert route_folder(app / "src").roots == [(app / "src").resolve()]  # a host that asks


def test_a_zero_config_folder_inside_a_package_routes_to_the_package(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "web/src").mkdir(parents=True)
    (tmp_path / "web/package.json").write_text("{}")

    routing = route_folder(tmp_path / "web/src", look_above=True)

    assert routing.roots == [(tmp_path / "web").resolve()]


def test_the_search_upward_stops_at_the_repository_root(tmp_path: Path) -> None:
    configured(tmp_path)  # outside the repository below
    (tmp_path / "repo/.git").mkdir(parents=True)
    (tmp_path / "repo/src").mkdir()

    routing = route_folder(tmp_path / "repo/src", look_above=True)

    assert routing.roots == [(tmp_path / "repo/src").resolve()]
