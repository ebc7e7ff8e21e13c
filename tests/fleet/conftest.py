"""A real `redis-server` per test, on a free loopback port (`i18nprune.testing.RedisServer`).

Missing `redis-server` skips these tests with the reason locally and fails them in CI (`CI`
set), where `.ci/run` installs it: a CI run never passes by skipping the fleet.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from i18nprune.testing.redis_server import RedisServer, redis_server_binary
from tests.conftest import require_tool


def require_redis() -> None:
    """Skip (locally) or fail (in CI) when `redis-server` is not installed."""
    require_tool(
        redis_server_binary() is not None,
        "redis-server",
        "apt-get install redis-server",
        "the fleet tests",
    )


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    """A running server, stopped and removed after the test."""
    require_redis()
    with RedisServer() as server:
        yield server
