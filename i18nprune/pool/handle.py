"""One worker subprocess seen from the pool: start it, send it frames, relay its replies to the
batches waiting for them, cancel or kill it.
"""

from __future__ import annotations

import contextlib
import math
import subprocess
import sys
from collections.abc import Callable, Mapping

import msgspec
import trio

from i18nprune.pool.framing import FrameError, FrameReader, frame, send_frames
from i18nprune.pool.messages import (
    Batch,
    Cancel,
    Cancelled,
    Failure,
    Ready,
    Result,
    Shutdown,
    ToWorker,
    encoder,
    from_worker_decoder,
)

WORKER_COMMAND = (sys.executable, "-m", "workers")
_EXIT_GRACE_SECONDS = 1.0


class InFlight:
    """A batch sent to a worker, until its reply arrives or the worker is gone."""

    __slots__ = ("batch_id", "handle", "reply", "settled")

    def __init__(self, batch_id: int, handle: WorkerHandle) -> None:
        self.batch_id = batch_id
        self.handle = handle
        self.reply: Result | Failure | Cancelled | None = None
        """The worker's answer; stays `None` when the worker exited without one."""
        self.settled = trio.Event()


class WorkerHandle:
    """A running `python -m workers` process and the batches it holds.

    `run` must be running (in the pool's nursery) for frames to flow. Sending is synchronous and
    never blocks: frames are queued for a writer task, so a cancelled caller can still send.
    """

    def __init__(self, process: trio.Process, on_ready: Callable[[], None]) -> None:
        self.process = process
        self.pid: int = process.pid
        self.ready = False
        """True from the worker's Ready frame until it exits."""
        self.was_ready = False
        """True once the worker has sent Ready (it started correctly)."""
        self.in_flight: dict[int, InFlight] = {}
        self.exited = trio.Event()
        """Set once the process has exited and been reaped."""
        self._on_ready = on_ready
        self._outbox_send, self._outbox = trio.open_memory_channel[bytes](math.inf)

    @classmethod
    async def start(
        cls, env: Mapping[str, str], cwd: str, on_ready: Callable[[], None]
    ) -> WorkerHandle:
        """Start a worker process (stderr inherited); `on_ready` is called when it is ready.

        Raises OSError when the process cannot be started.
        """
        process = await trio.lowlevel.open_process(
            WORKER_COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd=cwd
        )
        return cls(process, on_ready)

    def submit(self, batch: Batch) -> InFlight:
        """Send `batch` to the worker; the returned InFlight settles with its reply.

        The worker must be `ready`.
        """
        in_flight = InFlight(batch.id, self)
        self.in_flight[batch.id] = in_flight
        self._send(batch)
        return in_flight

    def cancel(self, batch_id: int) -> None:
        """Ask the worker to cancel `batch_id`; the batch settles when the worker acknowledges."""
        self._send(Cancel(batch_id))

    def shutdown(self) -> None:
        """Ask the worker to exit and close its input once queued frames are written."""
        self._send(Shutdown())
        self._outbox_send.close()

    def kill(self) -> None:
        """End the process now (its batches then settle without a reply)."""
        if self.process.returncode is None:
            self.process.kill()

    async def run(self) -> None:
        """Relay frames until the worker's output ends, then reap the process.

        Returns once the process has exited; every batch still in flight is settled with no reply
        as soon as the output ends. A worker that sends a malformed frame is killed, one that
        ends its output but does not exit within a second too. Cancellation kills the process.
        """
        clean_end = False
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._write_frames)
                clean_end = await self._read_frames()
                nursery.cancel_scope.cancel()
        finally:
            self.ready = False
            self._outbox_send.close()
            lost = list(self.in_flight.values())
            self.in_flight.clear()
            for in_flight in lost:
                in_flight.settled.set()
            with trio.CancelScope(shield=True):
                if clean_end:
                    with trio.move_on_after(_EXIT_GRACE_SECONDS):
                        await self.process.wait()
                self.kill()
                await self.process.wait()
                for pipe in (self.process.stdin, self.process.stdout):
                    if pipe is not None:
                        await pipe.aclose()
            self.exited.set()

    async def _read_frames(self) -> bool:
        """Relay replies until the output ends: `True` at a clean end, `False` when garbled."""
        assert self.process.stdout is not None
        reader = FrameReader(self.process.stdout)
        try:
            while (body := await reader.receive_frame()) is not None:
                message = from_worker_decoder.decode(body)
                if isinstance(message, Ready):
                    self.ready = self.was_ready = True
                    self._on_ready()
                    continue
                in_flight = self.in_flight.pop(message.id, None)
                if in_flight is not None:
                    in_flight.reply = message
                    in_flight.settled.set()
        except (FrameError, msgspec.DecodeError, trio.BrokenResourceError):
            return False
        return True

    async def _write_frames(self) -> None:
        assert self.process.stdin is not None
        stdin = self.process.stdin
        async with self._outbox:
            delivered = await send_frames(stdin, self._outbox)
        # Undelivered: the worker is gone, and the reader sees its output end.
        if delivered:
            await stdin.aclose()

    def _send(self, message: ToWorker) -> None:
        # Exited or shutting down: its batches settle through `run`.
        with contextlib.suppress(trio.ClosedResourceError, trio.BrokenResourceError):
            self._outbox_send.send_nowait(frame(encoder.encode(message)))
