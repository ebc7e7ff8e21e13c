"""The project root: --project, the directory of -c, or the working directory."""

from __future__ import annotations

from pathlib import Path

import pytest

import i18nprune.config
from i18nprune.config import resolve_root
from i18nprune.envelope import Code, ProblemError


def test_project_wins_over_config_file(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "c.json").write_text("{}")
    assert resolve_root(tmp_path, Path("app"), Path("conf/c.json")) == tmp_path / "app"


def test_config_file_directory_is_the_root(tmp_path: Path) -> None:
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "c.json").write_text("{}")
    assert resolve_root(tmp_path, None, tmp_path / "conf" / "c.json") == tmp_path / "conf"


def test_working_directory_is_the_default_root(tmp_path: Path) -> None:
    assert resolve_root(tmp_path, None, None) == tmp_path


def test_missing_project_directory_is_root_not_found(tmp_path: Path) -> None:
    with pytest.raises(ProblemError) as raised:
        resolve_root(tmp_path, Path("nowhere"), None)
    assert raised.value.issue.code == Code.PROJECT_NOT_FOUND
    assert "nowhere does not exist" in raised.value.issue.message


def test_project_that_is_a_file_is_root_not_found(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(ProblemError) as raised:
        resolve_root(tmp_path, Path("file"), None)
    assert raised.value.issue.code == Code.PROJECT_NOT_FOUND
    assert "is not a directory" in raised.value.issue.message


def test_missing_config_file_deciding_the_root_is_config_not_found(tmp_path: Path) -> None:
    with pytest.raises(ProblemError) as raised:
        resolve_root(tmp_path, None, Path("gone/i18nprune.config.json"))
    assert raised.value.issue.code == Code.CONFIG_NOT_FOUND
    assert "-c/--config" in raised.value.issue.message


def test_public_surface_names_exist() -> None:
    missing = [name for name in i18nprune.config.__all__ if not hasattr(i18nprune.config, name)]
    assert missing == []
