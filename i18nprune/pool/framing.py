"""Frames (`i18nprune.system.frames`) over trio byte streams: reading them, and writing queued
ones several at a time."""

from __future__ import annotations

from collections import deque

import trio

from i18nprune.system.frames import MAX_FRAME_BYTES, FrameError, frame, take_frames

__all__ = ["MAX_FRAME_BYTES", "FrameError", "FrameReader", "frame", "send_frames"]

_RECEIVE_BYTES = 1 << 16


async def send_frames(
    stream: trio.abc.SendStream, frames: trio.MemoryReceiveChannel[bytes]
) -> bool:
    """Write the frames queued on `frames` to `stream` until the channel closes; frames already
    waiting go out together in one write.

    Returns True once the channel is closed and drained, False as soon as the stream is broken
    or closed (the peer is gone; what is still queued is dropped). Cancellation may leave a
    frame partly written, so the stream is unusable afterwards.
    """
    async for first in frames:
        chunks = [first]
        while True:
            try:
                chunks.append(frames.receive_nowait())
            except (trio.WouldBlock, trio.EndOfChannel):
                break
        try:
            await stream.send_all(b"".join(chunks))
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return False
    return True


class FrameReader:
    """Splits a byte stream into frame bodies; one task may receive at a time."""

    def __init__(self, stream: trio.abc.ReceiveStream) -> None:
        self._stream = stream
        self._buffer = bytearray()
        self._ready: deque[bytes] = deque()

    async def receive_frame(self) -> bytes | None:
        """The next frame body, or `None` at a clean end of stream.

        Cancellation leaves the reader usable (bytes received so far stay buffered). Raises
        FrameError when the stream ends inside a frame or announces a frame above
        MAX_FRAME_BYTES, and whatever the stream raises (e.g. trio.BrokenResourceError).
        """
        while not self._ready:
            chunk = await self._stream.receive_some(_RECEIVE_BYTES)
            if not chunk:
                if self._buffer:
                    raise FrameError("stream ended inside a frame")
                return None
            self._buffer += chunk
            self._split()
        return self._ready.popleft()

    def _split(self) -> None:
        self._ready.extend(take_frames(self._buffer))
