"""The line reader on a real pipe: whole lines, oversized lines drained, a final partial line."""

from __future__ import annotations

import os

import trio

from i18nprune.serve.transport import LineReader, LineTooLong


def read_all(data: bytes, limit: int) -> list[bytes | LineTooLong]:
    """Everything a reader with `limit` reads from a pipe holding `data` (then closed)."""
    read_end, write_end = os.pipe()
    received: list[bytes | LineTooLong] = []

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(trio.to_thread.run_sync, write_then_close, write_end, data)
            reader = LineReader(read_end, limit=limit)
            while (line := await reader.receive_line()) is not None:
                received.append(line)

    try:
        trio.run(main)
    finally:
        os.close(read_end)
    return received


def write_then_close(fd: int, data: bytes) -> None:
    with os.fdopen(fd, "wb") as stream:
        stream.write(data)


def test_lines_are_split_on_newlines_and_blank_lines_kept() -> None:
    assert read_all(b"a\r\n\nb\n", limit=100) == [b"a\r", b"", b"b"]


def test_final_line_without_newline_is_read() -> None:
    assert read_all(b"a\nlast", limit=100) == [b"a", b"last"]


def test_oversized_line_is_drained_and_reading_continues() -> None:
    # Larger than a pipe's buffer, so it arrives in pieces and is drained while it streams.
    lines = read_all(b"ok\n" + b"x" * 300_000 + b"\nnext\n", limit=1000)
    assert lines[0] == b"ok"
    assert isinstance(lines[1], LineTooLong)
    assert lines[1].size == 300_000
    assert lines[2:] == [b"next"]


def test_line_of_exactly_the_limit_is_read() -> None:
    assert read_all(b"y" * 1000 + b"\n", limit=1000) == [b"y" * 1000]
