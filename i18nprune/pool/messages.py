"""The frames exchanged between the pool and a worker process (msgpack, tagged).

The pool sends `Batch`, `Cancel` and `Shutdown`; a worker answers `Ready` once, then exactly one of
`Result`, `Failure` or `Cancelled` per batch.
"""

from __future__ import annotations

import msgspec

from i18nprune.translate.providers import FailureKind, ProviderSettings


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
    """Batch `id` translated: one translation per text, in order."""

    id: int
    translations: list[str]


class Failure(msgspec.Struct, frozen=True, tag=True, array_like=True):
    """Batch `id` failed; `message` never contains a secret."""

    id: int
    kind: FailureKind
    message: str
    retry_after: float | None
    status: int | None


class Cancelled(msgspec.Struct, frozen=True, tag=True, array_like=True):
    """Batch `id` was cancelled before it settled."""

    id: int


ToWorker = Batch | Cancel | Shutdown
FromWorker = Ready | Result | Failure | Cancelled

encoder = msgspec.msgpack.Encoder()
to_worker_decoder = msgspec.msgpack.Decoder(ToWorker)
from_worker_decoder = msgspec.msgpack.Decoder(FromWorker)
