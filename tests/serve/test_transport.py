"""The line reader and writer on real pipes and files: whole lines, oversized lines drained, a
final partial line, lines written whole and in order, a reader that went away."""

from __future__ import annotations

import os
from pathlib import Path

import trio

from i18nprune.serve.transport import LineReader, LineTooLong, LineWriter


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


# --- where reads and writes happen: on the loop for pipes, in a thread otherwise --------------


def write_lines(fd: int, lines: list[bytes]) -> None:
    """Send `lines` through a LineWriter on `fd`, then close it and wait until it has drained."""

    async def main() -> None:
        writer = LineWriter(fd)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(writer.run)
            for line in lines:
                writer.send(line)
                await trio.sleep(0)
            writer.close()
            await writer.finished.wait()
        assert not writer.broken.is_set()

    trio.run(main)


def test_a_pipe_receives_small_and_large_lines_whole_and_in_order() -> None:
    read_end, write_end = os.pipe()
    # Small lines go straight into the pipe; one larger than PIPE_BUF goes through a thread.
    lines = [b"a\n", b"b" * 10 + b"\n", b"c" * 200_000 + b"\n", b"d\n"]
    received = bytearray()

    def drain() -> None:
        while chunk := os.read(read_end, 1 << 16):
            received.extend(chunk)

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(trio.to_thread.run_sync, drain)
            await trio.to_thread.run_sync(write_lines, write_end, lines)
            os.close(write_end)

    try:
        trio.run(main)
    finally:
        os.close(read_end)
    assert bytes(received) == b"".join(lines)


def test_a_regular_file_receives_every_line(tmp_path: Path) -> None:
    path = tmp_path / "out.jsonl"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT)
    try:
        write_lines(fd, [b"one\n", b"two\n"])
    finally:
        os.close(fd)
    assert path.read_bytes() == b"one\ntwo\n"


def test_a_pipe_whose_reader_is_gone_breaks_the_writer() -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)

    async def main() -> bool:
        writer = LineWriter(write_end)
        writer.send(b"lost\n")
        await writer.run()
        return writer.broken.is_set()

    try:
        assert trio.run(main)
    finally:
        os.close(write_end)


def test_lines_are_read_from_a_regular_file(tmp_path: Path) -> None:
    path = tmp_path / "requests.jsonl"
    path.write_bytes(b"first\nsecond\nlast")
    fd = os.open(path, os.O_RDONLY)

    async def main() -> list[bytes | LineTooLong]:
        reader = LineReader(fd)
        lines = []
        while (line := await reader.receive_line()) is not None:
            lines.append(line)
        return lines

    try:
        assert trio.run(main) == [b"first", b"second", b"last"]
    finally:
        os.close(fd)


def test_a_pipe_read_while_another_task_runs_does_not_wait_for_it() -> None:
    # The reader waits on the loop: a line arriving while other tasks run is read as they run.
    read_end, write_end = os.pipe()

    async def main() -> list[bytes | LineTooLong | None]:
        reader = LineReader(read_end)
        got: list[bytes | LineTooLong | None] = []
        async with trio.open_nursery() as nursery:

            async def read_two() -> None:
                got.append(await reader.receive_line())
                got.append(await reader.receive_line())

            nursery.start_soon(read_two)
            await trio.sleep(0.01)
            os.write(write_end, b"x\n")
            await trio.sleep(0.01)
            os.write(write_end, b"y\n")
            os.close(write_end)
        return got

    try:
        assert trio.run(main) == [b"x", b"y"]
    finally:
        os.close(read_end)
