"""Fixtures for the language server's tests: a real `i18nprune lsp` per test, closed at
teardown, with an isolated home; forked from the worker's fork server as `serve`'s servers are
(`tests/zygote.py`), unless its start-up could differ there."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from i18nprune.testing.lsp import LspClient
from tests.conftest import worker_zygote


@pytest.fixture
def lsp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., LspClient]]:
    home = tmp_path_factory.mktemp("home")
    made: list[LspClient] = []

    def start(*args: str, env: dict[str, str] | None = None) -> LspClient:
        extra = env or {}
        env = {k: v for k, v in os.environ.items() if not k.startswith("I18NPRUNE_") and k != "CI"}
        env["I18NPRUNE_HOME"] = str(home)
        env.update(extra)
        zygote = worker_zygote()
        if zygote is not None and zygote.serves_server(Path.cwd(), env):
            client = LspClient(zygote.spawn(["lsp", *args], None, env))  # type: ignore[arg-type]
        else:
            client = LspClient.start(*args, env=env)
        made.append(client)
        return client

    yield start
    for client in made:
        client.close()
