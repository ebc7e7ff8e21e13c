"""glibc's malloc, told to give large freed blocks back to the system at once.

glibc serves a block of 128 KiB or more with its own `mmap`, and each time such a block is
freed it raises that threshold to the block's size (up to 32 MiB), and the trim threshold with
it: later blocks of that size come from the heap, and what they leave free there stays in the
process. A scan frees many such blocks (file contents, worker replies, growing tables) and keeps
growing others, so at 100k files ~5 MB of its peak was memory already freed. Fixing both
thresholds at their starting value keeps large blocks in their own mappings; it costs ~10 % more
page faults and a few hundred system calls on a 10k-file scan (~1 ms of its 5 s of CPU).
"""

from __future__ import annotations

import os
import sys

THRESHOLD_BYTES = 128 * 1024
"""glibc's starting mmap and trim thresholds, kept fixed."""

VARIABLES = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_")
"""The environment variables glibc reads those thresholds from at start-up."""
_M_TRIM_THRESHOLD = -1  # glibc's <malloc.h>
_M_MMAP_THRESHOLD = -3


def return_freed_memory() -> bool:
    """Fix glibc's thresholds in this process, and (through the environment, which glibc reads
    at start-up) in the processes it starts. Whether this process's were set: not on another
    platform or C library, and not when the environment already names either threshold (the
    user's choice, which glibc applied at start-up and the children inherit).

    Call it before any thread starts: `mallopt` is not meant to race allocations.
    """
    if sys.platform != "linux" or any(name in os.environ for name in VARIABLES):
        return False
    import ctypes  # only here: ~3 ms to import, for Linux alone

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # a C library without it
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    if not all(
        mallopt(option, THRESHOLD_BYTES) for option in (_M_MMAP_THRESHOLD, _M_TRIM_THRESHOLD)
    ):
        return False  # musl's mallopt does nothing and says so
    for name in VARIABLES:
        os.environ[name] = str(THRESHOLD_BYTES)
    return True
