"""Test doubles for tests, benchmarks and host authors: loopback fake translation providers."""

from __future__ import annotations

from i18nprune.testing.fake_provider import (
    FakeProvider,
    FakeStats,
    Fault,
    RecordedRequest,
    fake_translation,
)

__all__ = ["FakeProvider", "FakeStats", "Fault", "RecordedRequest", "fake_translation"]
