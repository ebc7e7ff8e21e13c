"""Fixtures for the language server's tests: a real `i18nprune lsp` per test, closed at
teardown, with an isolated home."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pytest

from i18nprune.testing.lsp import LspClient


@pytest.fixture
def lsp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., LspClient]]:
    home = tmp_path_factory.mktemp("home")
    made: list[LspClient] = []

    def start(*args: str, env: dict[str, str] | None = None) -> LspClient:
        extra = env or {}
        env = {k: v for k, v in os.environ.items() if not k.startswith("I18NPRUNE_") and k != "CI"}
        env["I18NPRUNE_HOME"] = str(home)
        env.update(extra)
        client = LspClient.start(*args, env=env)
        made.append(client)
        return client

    yield start
    for client in made:
        client.close()
