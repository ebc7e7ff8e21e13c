"""The parse worker process: examines the batches of files that `parallel` sends it.

Run as `python -m i18nprune.scan.parse_worker`; reads request frames on stdin until it closes,
answers each with one frame of encoded `Examined` records on stdout.
"""

from __future__ import annotations

import sys

import msgspec

from i18nprune.scan.parallel import request_decoder
from i18nprune.system.frames import read_frame, write_frame

_encoder = msgspec.msgpack.Encoder()


def serve_requests() -> None:
    """Answer request frames from stdin until it is closed."""
    requests, replies = sys.stdin.buffer, sys.stdout.buffer
    while (frame := read_frame(requests)) is not None:
        write_frame(replies, _encoder.encode(request_decoder.decode(frame).examine()))


if __name__ == "__main__":
    serve_requests()
