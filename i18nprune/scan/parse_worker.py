"""The parse worker process: examines the batches of files that `parallel` sends it.

Run as `python -m i18nprune.scan.parse_worker`; reads request frames on stdin until it closes,
answers each with one frame of encoded `Examined` records on stdout. The wire types live here,
so that the worker imports what examining needs and nothing of the front's process handling.
"""

from __future__ import annotations

import os
import sys

import msgspec

from i18nprune.scan.examine import Examined, examine_path
from i18nprune.system.frames import read_frame, write_frame


class WorkerRequest(msgspec.Struct, frozen=True, array_like=True):
    """One batch for a worker: the configured functions, the project root, and the files
    (relative to it) to examine."""

    functions: tuple[str, ...]
    root: str
    files: list[str]

    def examine(self) -> list[Examined]:
        """Examine the batch's files (see `examine_path`), in order."""
        return [
            examine_path(relpath, os.path.join(self.root, relpath), self.functions, force=False)
            for relpath in self.files
        ]


request_encoder = msgspec.msgpack.Encoder()
request_decoder = msgspec.msgpack.Decoder(WorkerRequest)
reply_decoder = msgspec.msgpack.Decoder(list[Examined])
_encoder = msgspec.msgpack.Encoder()


def serve_requests() -> None:
    """Answer request frames from stdin until it is closed."""
    requests, replies = sys.stdin.buffer, sys.stdout.buffer
    while (frame := read_frame(requests)) is not None:
        write_frame(replies, _encoder.encode(request_decoder.decode(frame).examine()))


if __name__ == "__main__":
    serve_requests()
