"""Raw file-descriptor I/O: writing every byte of a buffer."""

from __future__ import annotations

import os


def write_all(fd: int, data: bytes) -> None:
    """Write all of `data` to `fd`, however many `write` calls it takes (a pipe or a full disk
    may take less at a time). Raises `OSError` from the first write that fails."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
