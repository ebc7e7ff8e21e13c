"""Fixtures for config tests: files written into a temp project, a loader isolated from
os.environ."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from i18nprune.config import LoadedConfig, load_config


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, str], Path]:
    """`write("dir/file", text)` creates the file under the project root and returns its path."""

    def create(relative: str, text: str) -> Path:
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    return create


@pytest.fixture
def load(tmp_path: Path) -> Callable[..., LoadedConfig]:
    """`load(**kwargs)` loads the project at `tmp_path`; the environment is empty unless given."""

    def run(**kwargs: Any) -> LoadedConfig:
        kwargs.setdefault("env", {})
        return load_config(tmp_path, **kwargs)

    return run
