"""The speed mechanics of a `generate` run, behind one helper (`SpeedMechanics`): what keeps a
host's event loop answering and the front process busy while a run plans, translates and
writes. The rest of the package says what a run does; this module says how it stays fast."""

from __future__ import annotations

import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractContextManager, asynccontextmanager
from typing import TypeVar

import trio

from i18nprune.pool.switching import responsive_loop

_T = TypeVar("_T")


class SpeedMechanics:
    """How one `generate` run keeps the event loop responsive (`serve`'s pings and other
    requests, and the loop that relays the pool's replies) while its own work runs in threads.
    The other modules of the package call these methods and start no thread, take no lock and
    free nothing on purpose themselves. Why each exists (measured in `docs/decisions.md`, the
    performance rounds of issue 11):

    - `responsive_loop`: the GIL switch interval is at most 1 ms while the run goes on. A front
      thread in pure-Python work (masking, settling, placing, writing) otherwise held the GIL
      for up to 5 ms at a time while the loop that relays each worker's reply waited for it,
      and every request slot waited with it.
    - `yield_gil`, every `YIELD_EVERY` leaves placed (settling and preparing do the same in
      `translate/translator.py`): placing runs while replies arrive, and the loop otherwise
      waited out a switch interval each time it wanted the GIL back.
    - `beside`: texts are masked in a plain thread while the code is scanned, when the front
      mostly waits on the scan's workers, so preparing the targets later finds most texts
      masked. Stopped when the scan ends, and not waited for on a cancel (masking is pure).
    - `writers_turn`: leaves are placed into their targets' editors as their translations
      settle (round 4), so that placing overlaps the translation instead of following it; the
      settling threads of several targets take turns with this one lock.
    - `let_go`: closing the translation cache (a WAL checkpoint that waits on the disk) and
      dropping the translators (freeing every masked text of the run: tens of milliseconds for
      a large one) run in a thread, shielded, so neither holds the loop, even on a cancel.
    - `write_beside`: on a run that finishes, that same letting go runs in a thread of its own
      beside the file writes (neither touches what the other does), instead of after them.
    - `free`: what the run read and planned holds every leaf of every target; freeing it on
      the loop would hold up a host's other requests for milliseconds. In a long-lived host
      (`serve`) it is freed in a thread before the op answers: `serve` pauses the cyclic
      collector while an op runs and turns it back on afterwards, and its first collection
      walked whatever was still alive (20k leaves: ~115k objects, 35–48 ms with the loop held,
      the largest ping stall under a generate). A command does not wait: its envelope is final
      and a process that exits has nothing left to free.

    The collector's own settings are not here: `serve` pauses it during an op
    (`serve/session.py`), and commands freeze the start-up heap and collect less often
    (`__main__.py`). The run's share is `free`, and building no reference cycle that holds
    leaves (a target's writer does not hold its run: see `TargetWriter`).
    """

    def __init__(self, *, long_lived: bool) -> None:
        """`long_lived`: the host outlives the op (`ProjectHandle.long_lived`)."""
        self._long_lived = long_lived
        self.writers_turn = threading.Lock()
        """Taken by a target's writer while it places leaves or saves (see `writers_turn`
        above)."""

    @staticmethod
    def responsive_loop() -> AbstractContextManager[None]:
        """Within the block, the GIL switch interval is at most 1 ms (reference-counted,
        never raised; see `pool.switching.responsive_loop`)."""
        return responsive_loop()

    @staticmethod
    def yield_gil() -> None:
        """Let the GIL go for the loop to take (a thread placing leaves calls this every
        `YIELD_EVERY` leaves)."""
        time.sleep(0)

    @staticmethod
    @asynccontextmanager
    async def beside(
        work: Callable[[Callable[[], bool]], None], *, enabled: bool, name: str
    ) -> AsyncIterator[None]:
        """Within the block, `work(stopped)` runs in a plain thread `name` (when `enabled`);
        `work` returns soon after `stopped()` is true, which it is once the block ends. On
        leaving the block normally, waits for the thread (not past a cancel: it ends after the
        item in hand, on its own); when the block raises, does not wait."""
        stop = threading.Event()
        thread = threading.Thread(target=work, args=(stop.is_set,), name=name)
        if enabled:
            thread.start()
        try:
            yield
        finally:
            stop.set()
        if enabled:
            await trio.to_thread.run_sync(thread.join, abandon_on_cancel=True)

    @staticmethod
    async def let_go(release: Callable[[], None]) -> None:
        """Run `release` (idempotent) in a thread, whatever cancels the caller."""
        with trio.CancelScope(shield=True):
            await trio.to_thread.run_sync(release)

    @staticmethod
    def write_beside(write: Callable[[], _T], release: Callable[[], None]) -> _T:
        """`write()` in this thread while `release()` runs in a thread of its own; returns
        once both are done, with what `write` returned, or raises what `write` raised, else
        what `release` raised."""
        raised: list[BaseException] = []

        def run_release() -> None:
            try:
                release()
            except BaseException as problem:  # handed to the caller below
                raised.append(problem)

        thread = threading.Thread(target=run_release, name="i18nprune-let-go")
        thread.start()
        try:
            result = write()
        finally:
            thread.join()
        if raised:
            raise raised[0]
        return result

    async def free(self, held: list[object]) -> None:
        """Drop `held` (its items are the only references left to what the run built) in a
        thread: awaited, shielded, in a long-lived host; not waited for in a command."""
        if self._long_lived:
            with trio.CancelScope(shield=True):
                await trio.to_thread.run_sync(held.clear)
        else:
            trio.lowlevel.start_thread_soon(held.clear, _ignore_outcome)


def _ignore_outcome(outcome: object) -> None:
    """What a thread that frees memory returns (nothing, and freeing never fails)."""
