"""Length-prefixed frames over trio streams, whatever the chunking of the bytes."""

from __future__ import annotations

import pytest
import trio
import trio.testing

from i18nprune.pool.framing import MAX_FRAME_BYTES, FrameError, FrameReader, frame


def _receive_all(data: bytes, chunk: int) -> list[bytes]:
    async def main() -> list[bytes]:
        send, receive = trio.testing.memory_stream_one_way_pair()
        reader = FrameReader(receive)
        bodies: list[bytes] = []
        for start in range(0, len(data), chunk):
            await send.send_all(data[start : start + chunk])
        await send.aclose()
        while (body := await reader.receive_frame()) is not None:
            bodies.append(body)
        return bodies

    return trio.run(main)


@pytest.mark.parametrize("chunk", [1, 3, 7, 1000])
def test_frames_come_out_whole_however_the_bytes_arrive(chunk: int) -> None:
    bodies = [b"first", b"", b"x" * 300, b"last"]

    assert _receive_all(b"".join(frame(body) for body in bodies), chunk) == bodies


def test_a_stream_ending_inside_a_frame_is_an_error() -> None:
    with pytest.raises(FrameError, match="inside a frame"):
        _receive_all(frame(b"complete") + frame(b"cut short")[:-2], 1000)


def test_an_absurd_frame_length_is_an_error() -> None:
    with pytest.raises(FrameError, match="announced"):
        _receive_all((MAX_FRAME_BYTES + 1).to_bytes(4, "big") + b"rest", 1000)
