"""LSP base protocol framing: `Content-Length: N\r\n\r\n` headers before each JSON body.

The reader keeps the event loop free (`ByteSource`), skips a message whose header block has no
usable `Content-Length` (said on stderr; the next header block is read), and refuses a body
larger than `MAX_BODY_BYTES` by draining it.
"""

from __future__ import annotations

from i18nprune.serve.transport import ByteSource, notice

MAX_BODY_BYTES = 64 * 1024 * 1024
"""The largest message body read; a larger one is drained and reported."""
_HEADER_END = b"\r\n\r\n"
_MAX_HEADER_BYTES = 8192


class BodyTooLarge:
    """A message whose body was larger than MAX_BODY_BYTES (drained, not kept)."""

    def __init__(self, size: int) -> None:
        self.size = size


class FrameReader:
    """Reads one framed message body at a time from a file descriptor."""

    def __init__(self, fd: int, limit: int = MAX_BODY_BYTES) -> None:
        self._source = ByteSource(fd)
        self._buffer = bytearray()
        self._eof = False
        self.limit = limit

    async def receive(self) -> bytes | BodyTooLarge | None:
        """The next message body, a BodyTooLarge, or None at end of input (a message cut
        short by the end of input is dropped and said on stderr)."""
        while True:
            end = self._buffer.find(_HEADER_END)
            if end < 0:
                if len(self._buffer) > _MAX_HEADER_BYTES:
                    notice("lsp: a header block longer than 8 KiB was skipped")
                    del self._buffer[: -len(_HEADER_END)]
                if not await self._fill():
                    self._ended()
                    return None
                continue
            length = _content_length(bytes(self._buffer[:end]))
            del self._buffer[: end + len(_HEADER_END)]
            if length is None:
                notice("lsp: a message without a valid Content-Length header was skipped")
                continue
            if length > self.limit:
                await self._drain(length)
                return BodyTooLarge(length)
            while len(self._buffer) < length:
                if not await self._fill():
                    self._ended()
                    return None
            body = bytes(self._buffer[:length])
            del self._buffer[:length]
            return body

    async def _fill(self) -> bool:
        if self._eof:
            return False
        chunk = await self._source.read()
        if not chunk:
            self._eof = True
            return False
        self._buffer += chunk
        return True

    async def _drain(self, length: int) -> None:
        while length:
            if not self._buffer and not await self._fill():
                return
            taken = min(length, len(self._buffer))
            del self._buffer[:taken]
            length -= taken

    def _ended(self) -> None:
        if self._buffer.strip():
            notice(f"lsp: input ended inside a message ({len(self._buffer)} bytes dropped)")
        self._buffer.clear()


def _content_length(header: bytes) -> int | None:
    for line in header.split(b"\r\n"):
        name, colon, value = line.partition(b":")
        if colon and name.strip().lower() == b"content-length":
            try:
                length = int(value.strip())
            except ValueError:
                return None
            return length if length >= 0 else None
    return None


def frame(body: bytes) -> bytes:
    """`body` with its header, ready to write."""
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
