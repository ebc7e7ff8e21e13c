"""Test doubles for tests, benchmarks and host authors: loopback fake translation providers and a
client that drives `i18nprune serve`."""

from __future__ import annotations

from i18nprune.testing.client import (
    ErrorObject,
    Notification,
    Response,
    ServeClient,
    ServeClosed,
    ServeError,
    ServeTimeout,
)
from i18nprune.testing.fake_provider import (
    FakeProvider,
    FakeStats,
    Fault,
    HardLimit,
    RecordedRequest,
    fake_translation,
)

__all__ = [
    "ErrorObject",
    "FakeProvider",
    "FakeStats",
    "Fault",
    "HardLimit",
    "Notification",
    "RecordedRequest",
    "Response",
    "ServeClient",
    "ServeClosed",
    "ServeError",
    "ServeTimeout",
    "fake_translation",
]
