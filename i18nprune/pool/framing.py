"""Length-prefixed frames (4-byte big-endian length, then the body) over trio byte streams:
reading them, and writing queued ones several at a time."""

from __future__ import annotations

from collections import deque

import trio

_LENGTH_BYTES = 4
# Far above any real batch; a larger length means the stream is corrupt, not a big batch.
MAX_FRAME_BYTES = 256 << 20
_RECEIVE_BYTES = 1 << 16


class FrameError(Exception):
    """The stream does not carry well-formed frames (truncated or absurd length)."""


def frame(body: bytes) -> bytes:
    """`body` with its length prefix, ready to be written."""
    return len(body).to_bytes(_LENGTH_BYTES, "big") + body


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
        buffer = self._buffer
        start = 0
        while len(buffer) - start >= _LENGTH_BYTES:
            length = int.from_bytes(buffer[start : start + _LENGTH_BYTES], "big")
            if length > MAX_FRAME_BYTES:
                raise FrameError(f"frame of {length} bytes announced")
            end = start + _LENGTH_BYTES + length
            if end > len(buffer):
                break
            self._ready.append(bytes(buffer[start + _LENGTH_BYTES : end]))
            start = end
        del buffer[:start]
