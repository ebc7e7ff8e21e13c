"""Interrupting a blocking step that trio runs in a thread: Ctrl+C (or a cancelled request)
reaches the task that waits for the thread, not the thread; a long step polls for it."""

from __future__ import annotations

import sys


def raise_if_interrupted() -> None:
    """Raise KeyboardInterrupt (Ctrl+C) or trio.Cancelled when the trio task this thread works
    for (`trio.to_thread.run_sync`) was interrupted or cancelled; do nothing on any other thread.

    A step that trio does not abandon (`abandon_on_cancel=False`) would otherwise run to its end
    before Ctrl+C ends the command. On the main thread, KeyboardInterrupt needs no poll.
    """
    trio = sys.modules.get("trio")
    if trio is None:  # a command run without an event loop: no thread of trio's either
        return
    try:
        trio.from_thread.check_cancelled()
    except RuntimeError:  # not a thread trio started
        return
