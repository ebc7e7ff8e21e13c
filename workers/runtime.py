"""The worker's runtime: frames in on stdin, batches run concurrently (each in its own cancel
scope) with one shared HTTP client, one reply frame out on stdout per batch.
"""

from __future__ import annotations

import math
import os

import httpx
import msgspec
import trio

from i18nprune.pool.framing import FrameError, FrameReader, frame, send_frames
from i18nprune.pool.messages import (
    Batch,
    Cancel,
    Cancelled,
    Failure,
    FromWorker,
    Ready,
    Result,
    encoder,
    to_worker_decoder,
)
from i18nprune.system.descriptors import claim_stdin, claim_stdout

from .providers import ProviderError, translate_batch
from .providers.errors import scrub
from .providers.exchange import HttpLedger, http_ledger
from .trust import DeferredTrustContext

# Per worker; the pool's gates keep requests per provider far below this anyway.
_LIMITS = httpx.Limits(max_connections=64, max_keepalive_connections=32, keepalive_expiry=30.0)
# Adapters set each request's timeout from the provider settings; this is only the fallback.
_TIMEOUT = httpx.Timeout(60.0, connect=10.0)


def protect_stdio() -> tuple[int, int]:
    """Move the frame channels off fds 0 and 1, so that a stray `print()` or `input()` anywhere
    in the process cannot corrupt or steal frames.

    Returns (input_fd, output_fd): private duplicates of the original stdin and stdout. Afterwards
    fd 1 (and so `sys.stdout`) writes to stderr and fd 0 reads from the null device.
    """
    return claim_stdin(), claim_stdout()


async def serve(input_fd: int, output_fd: int) -> None:
    """Announce Ready on `output_fd`, then run the batches read from `input_fd` until Shutdown
    or the end of input (the pool is gone); unfinished batches are then abandoned.

    Every batch gets exactly one reply: Result, Failure, or Cancelled after a Cancel.
    """
    replies_send, replies = trio.open_memory_channel[bytes](math.inf)
    replies_send.send_nowait(frame(encoder.encode(Ready(os.getpid()))))
    async with (
        # Verifying as httpx does by default; the CA bundle is read by the first TLS connection.
        httpx.AsyncClient(
            limits=_LIMITS, timeout=_TIMEOUT, verify=DeferredTrustContext()
        ) as client,
        trio.open_nursery() as nursery,
    ):
        nursery.start_soon(_write_replies, trio.lowlevel.FdStream(output_fd), replies, nursery)
        runner = _BatchRunner(client, replies_send, nursery)
        await runner.read_requests(trio.lowlevel.FdStream(input_fd))
        nursery.cancel_scope.cancel()


async def _write_replies(
    stream: trio.lowlevel.FdStream,
    replies: trio.MemoryReceiveChannel[bytes],
    nursery: trio.Nursery,
) -> None:
    if not await send_frames(stream, replies):
        nursery.cancel_scope.cancel()  # the pool is gone: nobody wants the answers


class _BatchRunner:
    def __init__(
        self,
        client: httpx.AsyncClient,
        replies: trio.MemorySendChannel[bytes],
        nursery: trio.Nursery,
    ) -> None:
        self._client = client
        self._replies = replies
        self._nursery = nursery
        self._scopes: dict[int, trio.CancelScope] = {}

    async def read_requests(self, stream: trio.lowlevel.FdStream) -> None:
        """Start each Batch, cancel on Cancel; return at Shutdown or the end of input."""
        reader = FrameReader(stream)
        try:
            while (body := await reader.receive_frame()) is not None:
                message = to_worker_decoder.decode(body)
                if isinstance(message, Batch):
                    # The scope exists before the task runs, so an early Cancel still finds it.
                    scope = trio.CancelScope()
                    self._scopes[message.id] = scope
                    self._nursery.start_soon(self._run, message, scope)
                elif isinstance(message, Cancel):
                    cancelled = self._scopes.get(message.id)
                    if cancelled is not None:  # else it settled and its reply is on its way
                        cancelled.cancel()
                else:
                    return
        except (FrameError, msgspec.DecodeError, trio.BrokenResourceError):
            return

    async def _run(self, batch: Batch, scope: trio.CancelScope) -> None:
        reply: FromWorker = Cancelled(batch.id)
        with scope:
            reply = await _translate(self._client, batch)
        del self._scopes[batch.id]
        self._replies.send_nowait(frame(encoder.encode(reply)))


async def _translate(client: httpx.AsyncClient, batch: Batch) -> Result | Failure:
    settings = batch.settings
    ledger = HttpLedger()
    http_ledger.set(ledger)  # this batch's task only: each task runs in its own context
    try:
        translations = await translate_batch(
            client, settings, batch.texts, batch.source, batch.target, batch.notes
        )
    except ProviderError as failure:
        return Failure(
            batch.id,
            failure.kind,
            str(failure),
            failure.retry_after,
            failure.status,
            ledger.requests,
            ledger.seconds,
        )
    except Exception as bug:
        # A bug in an adapter costs this batch, not the worker and every other batch it runs.
        message = scrub(
            f"{settings.id} adapter error: {type(bug).__name__}: {bug}", settings.api_key
        )
        return Failure(
            batch.id, "bad_response", message, None, None, ledger.requests, ledger.seconds
        )
    return Result(batch.id, translations, ledger.requests, ledger.seconds)
