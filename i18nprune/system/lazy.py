"""Packages whose names load their modules on first use (PEP 562), so that importing one
module of a package does not import all of it."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping


def lazy_exports(package: str, homes: Mapping[str, str]) -> Callable[[str], object]:
    """A module `__getattr__` for `package`: each name of `homes` is read from its module
    (`homes[name]`, a submodule of `package`), imported the first time the name is asked for.

    A translate worker imports `i18nprune.pool.messages`, which needs `i18nprune.config.secrets`:
    without this, each package's `__init__` would import the whole pool and configuration
    loader into every worker.
    """

    def __getattr__(name: str) -> object:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{home}"), name)

    return __getattr__
