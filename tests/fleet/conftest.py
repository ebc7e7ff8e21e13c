"""A real `redis-server` per test, on a free loopback port (`i18nprune.testing.RedisServer`).

Missing `redis-server` skips these tests with the reason locally and fails them in CI (`CI`
set), where `.ci/run` installs it: a CI run never passes by skipping the fleet.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from i18nprune.testing.redis_server import RedisServer, redis_server_binary


def require_redis() -> None:
    """Skip (locally) or fail (in CI) when `redis-server` is not installed."""
    if redis_server_binary() is not None:
        return
    message = "redis-server is not installed (apt-get install redis-server)"
    if os.environ.get("CI"):
        pytest.fail(f"{message}; .ci/run installs it, and CI must not skip the fleet tests")
    pytest.skip(message)


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    """A running server, stopped and removed after the test."""
    require_redis()
    with RedisServer() as server:
        yield server
