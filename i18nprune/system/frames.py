"""Length-prefixed frames (a 4-byte big-endian length, then the body): the one wire format
between i18nprune and its child processes (translate workers, parse workers)."""

from __future__ import annotations

from typing import IO

from i18nprune.system.descriptors import write_stream_all

LENGTH_BYTES = 4
MAX_FRAME_BYTES = 256 << 20
"""Far above any real message; a larger length means the stream is corrupt."""


class FrameError(Exception):
    """The stream does not carry well-formed frames (truncated or absurd length)."""


def frame(body: bytes) -> bytes:
    """`body` with its length prefix, ready to be written."""
    return len(body).to_bytes(LENGTH_BYTES, "big") + body


def take_frames(buffer: bytearray) -> list[bytes]:
    """Remove every complete frame from the front of `buffer` and return their bodies (a
    partial frame stays). Raises FrameError for a length above MAX_FRAME_BYTES."""
    bodies = []
    start = 0
    while len(buffer) - start >= LENGTH_BYTES:
        length = int.from_bytes(buffer[start : start + LENGTH_BYTES], "big")
        if length > MAX_FRAME_BYTES:
            raise FrameError(f"frame of {length} bytes announced")
        end = start + LENGTH_BYTES + length
        if end > len(buffer):
            break
        bodies.append(bytes(buffer[start + LENGTH_BYTES : end]))
        start = end
    del buffer[:start]
    return bodies


def write_frame(stream: IO[bytes], body: bytes) -> None:
    """Write one whole frame to a blocking stream, buffered or raw (`write_stream_all`), and
    flush it."""
    write_stream_all(stream, frame(body))


def read_frame(stream: IO[bytes]) -> bytes | None:
    """Read one frame from a blocking stream (buffered or raw); `None` at a clean end of
    stream. Raises FrameError when the stream ends inside a frame or announces an absurd
    length."""
    header = _read_exactly(stream, LENGTH_BYTES)
    if not header:
        return None
    if len(header) < LENGTH_BYTES:
        raise FrameError("stream ended inside a frame")
    length = int.from_bytes(header, "big")
    if length > MAX_FRAME_BYTES:
        raise FrameError(f"frame of {length} bytes announced")
    body = _read_exactly(stream, length)
    if len(body) < length:
        raise FrameError("stream ended inside a frame")
    return body


def _read_exactly(stream: IO[bytes], size: int) -> bytes:
    """`size` bytes, or fewer only at the end of the stream (a raw stream's `read` returns
    what one system call gave)."""
    data = stream.read(size)
    if len(data) == size or not data:
        return data
    pieces = [data]
    left = size - len(data)
    while left:
        piece = stream.read(left)
        if not piece:
            break
        pieces.append(piece)
        left -= len(piece)
    return b"".join(pieces)
