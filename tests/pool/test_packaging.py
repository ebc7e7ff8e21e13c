"""The worker package installs under a name of its own, and the wheel holds every package."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from i18nprune.pool.handle import WORKER_PACKAGE

REPO = Path(__file__).resolve().parents[2]


def _setuptools() -> dict[str, Any]:
    with (REPO / "pyproject.toml").open("rb") as file:
        setuptools: dict[str, Any] = tomllib.load(file)["tool"]["setuptools"]
    return setuptools


def test_the_workers_folder_installs_as_the_worker_package() -> None:
    assert WORKER_PACKAGE == "i18nprune_workers"
    assert _setuptools()["package-dir"] == {WORKER_PACKAGE: "workers"}


def test_every_package_of_the_tree_is_listed_for_the_wheel() -> None:
    # `packages.find` cannot rename a folder, so pyproject.toml lists the packages: a new
    # subpackage must be added there or the wheel goes without it.
    found = []
    for folder, name in (("i18nprune", "i18nprune"), ("workers", WORKER_PACKAGE)):
        for init in sorted((REPO / folder).rglob("__init__.py")):
            parts = init.parent.relative_to(REPO / folder).parts
            found.append(".".join((name, *parts)))

    assert sorted(_setuptools()["packages"]) == sorted(found)
