"""Frames between the scan and its parse workers survive unbuffered streams and signals.

Under `PYTHONUNBUFFERED=1` (the Docker image sets it) a parse worker's `sys.stdout.buffer` is a
raw file: one `write` is one system call, and a pipe write interrupted by a signal after it sent
part of a reply returns early. A lost tail left the scan waiting for the rest of a reply while
the worker waited for its next request — for ever.
"""

from __future__ import annotations

import fcntl
import os
import selectors
import subprocess
import sys
import threading
import time
from pathlib import Path

from i18nprune.scan.parse_worker import WorkerRequest, reply_decoder, request_encoder
from i18nprune.system.children import child_python
from i18nprune.system.frames import read_frame, take_frames, write_frame
from tests.pipes import SMALL_PIPE, WAIT_SECONDS, linux_only, stop_and_continue_while_blocked


def _read_reply(fd: int) -> list[bytes]:
    """Every frame the worker sends until one is complete or it goes quiet for a while."""
    received = bytearray()
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while not (frames := take_frames(received)):
            if not selector.select(WAIT_SECONDS):
                raise AssertionError(f"reply stopped after {len(received)} bytes")
            chunk = os.read(fd, 1 << 16)
            assert chunk, "the worker ended"
            received += chunk
    return frames


@linux_only
def test_a_reply_interrupted_by_a_stop_and_continue_arrives_whole(tmp_path: Path) -> None:
    files = []
    for number in range(60):
        relpath = f"src/page{number}.ts"
        calls = "".join(f"t('page{number}.key{index}');\n" for index in range(20))
        (tmp_path / "src").mkdir(exist_ok=True)
        (tmp_path / relpath).write_text(calls)
        files.append(relpath)
    environment, cwd = child_python()
    environment["PYTHONUNBUFFERED"] = "1"  # the worker's stdout is then a raw file
    worker = subprocess.Popen(
        [sys.executable, "-m", "i18nprune.scan.parse_worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=environment,
        cwd=cwd,
    )
    assert worker.stdin is not None and worker.stdout is not None
    replies = worker.stdout.fileno()
    try:
        fcntl.fcntl(replies, fcntl.F_SETPIPE_SZ, SMALL_PIPE)
        request = WorkerRequest(("t",), str(tmp_path), files)
        write_frame(worker.stdin, request_encoder.encode(request))
        # The reply is far larger than the pipe: the worker blocks in its write, part sent.
        stop_and_continue_while_blocked(worker.pid, replies)

        (reply,) = _read_reply(replies)
        examined = reply_decoder.decode(reply)
        assert [item.relpath for item in examined] == files
        assert all(item.facts is not None and len(item.facts.sites) == 20 for item in examined)
    finally:
        worker.kill()
        worker.wait()
        worker.stdin.close()
        worker.stdout.close()


def test_a_frame_read_from_a_raw_stream_in_pieces_is_whole() -> None:
    read_end, write_end = os.pipe()
    body = bytes(range(256)) * 40
    framed = len(body).to_bytes(4, "big") + body
    pieces = [framed[:2], framed[2:7], framed[7:5000], framed[5000:]]

    def send() -> None:
        for piece in pieces:
            os.write(write_end, piece)
            time.sleep(0.02)  # each piece its own read on the other side, most of the time
        os.close(write_end)

    sender = threading.Thread(target=send)
    sender.start()
    with open(read_end, "rb", buffering=0) as raw:
        assert read_frame(raw) == body
        assert read_frame(raw) is None
    sender.join()


def test_a_frame_written_to_a_raw_stream_that_takes_little_at_a_time_is_whole() -> None:
    class Trickle:
        """A raw stream whose every write takes at most 1,000 bytes."""

        def __init__(self) -> None:
            self.data = bytearray()

        def write(self, data: memoryview) -> int:
            taken = bytes(data[:1000])
            self.data += taken
            return len(taken)

        def flush(self) -> None:
            pass

    stream = Trickle()
    body = b"x" * 12_345
    write_frame(stream, body)  # type: ignore[arg-type]
    assert take_frames(stream.data) == [body]
