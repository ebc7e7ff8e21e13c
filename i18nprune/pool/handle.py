"""One worker subprocess seen from the pool: start it, send it frames, relay its replies to the
batches waiting for them and its stderr to ours, cancel or kill it, and say how it ended.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import signal
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

WORKER_PACKAGE = "i18nprune_workers"
"""The import name of the worker package (the repository's `workers/` folder)."""
WORKER_COMMAND = (sys.executable, "-m", WORKER_PACKAGE)
_EXIT_GRACE_SECONDS = 1.0
# After the exit, the rest of stderr is read for this long: a child of the worker may still hold
# the pipe open, and the cause of a failed start-up is usually its last line.
_STDERR_DRAIN_SECONDS = 0.5
_STDERR_TAIL_BYTES = 4096
_CAUSE_LIMIT = 200
# Signals that only another process sends: the worker did not bring its end about itself.
_OUTSIDE_SIGNALS = frozenset(
    {
        signal.SIGKILL,  # kill -9, and the kernel's OOM killer
        signal.SIGTERM,
        signal.SIGHUP,
        signal.SIGINT,
        signal.SIGQUIT,
        signal.SIGUSR1,
        signal.SIGUSR2,
    }
)
_ERROR_LINE = re.compile(r"\b(\w*Error|\w*Exception|error|No module named)\b")


class WorkerExit(msgspec.Struct, frozen=True, kw_only=True):
    """How a worker process ended."""

    returncode: int
    outside: bool
    """It was killed from outside (a signal only another process sends, or the pool itself),
    not ended by a failure of its own (an exit status, a crash signal, a garbled frame)."""
    cause: str
    """What happened, for messages: "was killed by SIGKILL", "exited with status 1: <the last
    error line of its stderr>"."""


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
    """A running `python -m i18nprune_workers` process and the batches it holds.

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
        self.answered = 0
        """Replies received (the worker did useful work)."""
        self.in_flight: dict[int, InFlight] = {}
        self.exit: WorkerExit | None = None
        """How the process ended; set just before `exited`."""
        self.exited = trio.Event()
        """Set once the process has exited and been reaped."""
        self._on_ready = on_ready
        self._outbox_send, self._outbox = trio.open_memory_channel[bytes](math.inf)
        self._stderr_tail = b""
        self._stderr_closed = trio.Event()
        # Its own thread token: a stalled stderr must not hold the default limiter's.
        self._stderr_writer = trio.CapacityLimiter(1)
        self._killed = False
        self._fault: str | None = None

    @classmethod
    async def start(
        cls,
        env: Mapping[str, str],
        cwd: str,
        on_ready: Callable[[], None],
        *,
        niceness: int = 0,
    ) -> WorkerHandle:
        """Start a worker process; `on_ready` is called when it is ready. With `niceness` > 0
        (POSIX), the worker's CPU priority is that much below this process's (see
        `lower_priority`).

        Raises OSError when the process cannot be started.
        """
        process = await trio.lowlevel.open_process(
            WORKER_COMMAND,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=cwd,
        )
        if niceness > 0:
            lower_priority(process.pid, niceness)
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
        """End the process now (its batches then settle without a reply); its exit then counts
        as one from outside."""
        if self.process.returncode is None:
            self._killed = True
            self.process.kill()

    async def run(self) -> None:
        """Relay frames until the worker's output ends, then reap the process and set `exit`.

        Returns once the process has exited; every batch still in flight is settled with no reply
        as soon as the output ends. A worker whose output ends, cleanly or in a malformed frame,
        and that does not exit within a second is killed (its own failure). Its stderr goes to
        ours meanwhile. Cancellation kills the process.
        """
        async with trio.open_nursery() as relay:
            relay.start_soon(self._relay_stderr)
            try:
                await self._exchange_frames()
            finally:
                with trio.CancelScope(shield=True):
                    with trio.move_on_after(_STDERR_DRAIN_SECONDS):
                        await self._stderr_closed.wait()
                    relay.cancel_scope.cancel()
                    self.exit = self._describe_exit()
                    self.exited.set()

    async def _exchange_frames(self) -> None:
        ended: bool | None = None  # True: a clean end of output; False: garbled; None: cancelled
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._write_frames)
                ended = await self._read_frames()
                nursery.cancel_scope.cancel()
        finally:
            self.ready = False
            self._outbox_send.close()
            lost = list(self.in_flight.values())
            self.in_flight.clear()
            for in_flight in lost:
                in_flight.settled.set()
            with trio.CancelScope(shield=True):
                await self._reap(ended)

    async def _reap(self, ended: bool | None) -> None:
        """Wait for the process to exit after its output `ended`, killing it if it does not;
        the output of a worker killed mid-frame is garbled too, so it is judged by its exit."""
        if ended is not None:
            with trio.move_on_after(_EXIT_GRACE_SECONDS):
                await self.process.wait()
        if self.process.returncode is None and not self._killed:
            if ended is None:
                self._killed = True  # the pool is closing, or gave up on it
            else:
                self._fault = (
                    "closed its output but did not exit" if ended else "sent a malformed frame"
                )
            self.process.kill()
        await self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                await pipe.aclose()

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
                self.answered += 1
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

    async def _relay_stderr(self) -> None:
        """Copy the worker's stderr to ours (in a thread: a slow reader of our stderr must not
        stall the event loop), keeping its tail for `exit`."""
        stderr = self.process.stderr
        assert stderr is not None
        try:
            while chunk := await stderr.receive_some(1 << 16):
                self._stderr_tail = (self._stderr_tail + chunk)[-_STDERR_TAIL_BYTES:]
                await trio.to_thread.run_sync(
                    _write_stderr, chunk, abandon_on_cancel=True, limiter=self._stderr_writer
                )
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        finally:
            self._stderr_closed.set()
            with trio.CancelScope(shield=True):
                await stderr.aclose()

    def _describe_exit(self) -> WorkerExit:
        code = self.process.returncode
        assert code is not None
        if self._fault is not None:
            return WorkerExit(returncode=code, outside=False, cause=self._fault)
        if self._killed:
            return WorkerExit(returncode=code, outside=True, cause="was killed by the pool")
        if code < 0:
            try:
                number = signal.Signals(-code)
            except ValueError:
                return WorkerExit(returncode=code, outside=False, cause=f"died of signal {-code}")
            outside = number in _OUTSIDE_SIGNALS
            cause = f"was killed by {number.name}"
        else:
            outside = False
            cause = f"exited with status {code}"
        said = None if outside else error_line(self._stderr_tail)
        return WorkerExit(
            returncode=code, outside=outside, cause=f"{cause}: {said}" if said else cause
        )

    def _send(self, message: ToWorker) -> None:
        # Exited or shutting down: its batches settle through `run`.
        with contextlib.suppress(trio.ClosedResourceError, trio.BrokenResourceError):
            self._outbox_send.send_nowait(frame(encoder.encode(message)))


def error_line(stderr: bytes) -> str | None:
    """The line of a process's stderr that best says why it failed: the last unindented line
    that names an error (a traceback's last line, "No module named …"), else the last line."""
    lines = [
        line.strip()
        for line in stderr.decode("utf-8", "replace").splitlines()
        if line.strip() and not line[:1].isspace()
    ]
    if not lines:
        return None
    line = next((line for line in reversed(lines) if _ERROR_LINE.search(line)), lines[-1])
    return line if len(line) <= _CAUSE_LIMIT else line[: _CAUSE_LIMIT - 1] + "…"


def lower_priority(pid: int, niceness: int) -> None:
    """Make process `pid` `niceness` steps nicer than this process (POSIX; elsewhere, or when
    the system refuses, it keeps its priority). Right after a start, before it has made threads
    of its own, this covers the whole process."""
    if not hasattr(os, "setpriority"):
        return
    with contextlib.suppress(OSError):
        ours = os.getpriority(os.PRIO_PROCESS, 0)
        os.setpriority(os.PRIO_PROCESS, pid, min(19, ours + niceness))


def _write_stderr(data: bytes | bytearray) -> None:
    with contextlib.suppress(OSError):  # our stderr is closed: nobody reads it
        while data:
            data = data[os.write(2, data) :]
