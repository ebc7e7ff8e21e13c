"""A shorter GIL switch interval while an op runs threads beside the event loop (settling and
placing translations, the cache, writing), so the loop that relays the pool's replies and a
host's other requests is not kept waiting for the GIL.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

RESPONSIVE_SWITCH_SECONDS = 0.001
"""The GIL switch interval within `responsive_loop` (Python's default is 0.005 s)."""

_turn = threading.Lock()
_holders = 0
_saved = 0.0


@contextmanager
def responsive_loop() -> Iterator[None]:
    """Within the block, a thread that wants the GIL waits at most about
    RESPONSIVE_SWITCH_SECONDS for it (never longer than the interval already set), then the
    process's interval is as before. Blocks may nest and overlap, in any thread: the interval
    is restored when the last one ends.

    A reply from a worker is relayed by the event loop (the batch's slot given back, the next
    batch sent); while a thread of the front holds the GIL in pure-Python work, the loop waits
    for the switch interval before it runs, and every request slot waits with it.
    """
    global _holders, _saved
    with _turn:
        if _holders == 0:
            _saved = sys.getswitchinterval()
            if _saved > RESPONSIVE_SWITCH_SECONDS:
                sys.setswitchinterval(RESPONSIVE_SWITCH_SECONDS)
        _holders += 1
    try:
        yield
    finally:
        with _turn:
            _holders -= 1
            if _holders == 0:
                sys.setswitchinterval(_saved)
