"""The frames exchanged between the pool and a worker process (msgpack, tagged), and the wire
types they carry: the settings of the provider a batch goes to, and how a batch failed.

The pool sends `Batch`, `Cancel` and `Shutdown`; a worker answers `Ready` once, then exactly one of
`Result`, `Failure` or `Cancelled` per batch.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from i18nprune.config.secrets import REDACTED, redact_url_credentials

FailureKind = Literal["rate_limited", "quota", "auth", "transient", "bad_response"]


class ProviderSettings(msgspec.Struct, frozen=True, kw_only=True):
    """Everything a worker needs to call one provider; crosses the pipe to workers.

    Its repr shows the API key as `***`, never its value, and credentials inside the base URL
    likewise.
    """

    id: str
    base_url: str
    api_key: str | None
    model: str | None
    region: str | None
    batch_size: int
    timeout_seconds: float
    max_concurrency: int
    rps: float | None
    rpm: float | None

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in self.__rich_repr__())
        return f"ProviderSettings({fields})"

    def __rich_repr__(self) -> list[tuple[str, Any]]:
        """The fields as rich's pretty printer and tracebacks show them: the key as `***`, and
        credentials inside the base URL too."""
        fields = {name: getattr(self, name) for name in self.__struct_fields__}
        if self.api_key is not None:
            fields["api_key"] = REDACTED
        fields["base_url"] = redact_url_credentials(self.base_url)
        return list(fields.items())


class Ready(msgspec.Struct, frozen=True, tag=True, array_like=True):
    """The worker is up and reads batches."""

    pid: int


class Batch(msgspec.Struct, frozen=True, tag=True, array_like=True):
    """Translate `texts` (masked) with one provider; `id` is unique within the pool."""

    id: int
    settings: ProviderSettings
    source: str
    target: str
    texts: list[str]


class Cancel(msgspec.Struct, frozen=True, tag=True, array_like=True):
    """Stop batch `id` (its HTTP request is aborted); answered by `Cancelled` unless it settled."""

    id: int


class Shutdown(msgspec.Struct, frozen=True, tag=True, array_like=True):
    """Stop everything and exit."""


class Result(msgspec.Struct, frozen=True, tag=True, array_like=True):
    """Batch `id` translated: one translation per text, in order. `requests` HTTP requests
    took `http_seconds` in all (what the worker measured around them)."""

    id: int
    translations: list[str]
    requests: int = 0
    http_seconds: float = 0.0


class Failure(msgspec.Struct, frozen=True, tag=True, array_like=True):
    """Batch `id` failed; `message` never contains a secret. `requests` and `http_seconds` as
    for Result (zero when the batch failed before any request was sent)."""

    id: int
    kind: FailureKind
    message: str
    retry_after: float | None
    status: int | None
    requests: int = 0
    http_seconds: float = 0.0


class Cancelled(msgspec.Struct, frozen=True, tag=True, array_like=True):
    """Batch `id` was cancelled before it settled."""

    id: int


ToWorker = Batch | Cancel | Shutdown
FromWorker = Ready | Result | Failure | Cancelled

encoder = msgspec.msgpack.Encoder()
to_worker_decoder = msgspec.msgpack.Decoder(ToWorker)
from_worker_decoder = msgspec.msgpack.Decoder(FromWorker)
