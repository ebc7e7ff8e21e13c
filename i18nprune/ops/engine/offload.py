"""Where an op's blocking steps run: in a worker thread while the op runs on trio's event loop
(`serve`, and commands that need the loop), in place when a command runs the op inline.

An op that awaits nothing but `run_blocking` can be run by `run_inline`, without an event loop:
the command line then never imports trio (a tenth of a second of a short command's start-up).
The op's code is the same either way.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")

_inline: ContextVar[bool] = ContextVar("i18nprune_inline", default=False)


class NotInline(RuntimeError):
    """An op run by `run_inline` awaited something other than `run_blocking` (a bug: only ops
    whose every await is `run_blocking` may be run inline)."""


async def run_blocking(
    function: Callable[..., T], *args: Any, abandon_on_cancel: bool = False
) -> T:
    """`function(*args)`, off the event loop: in a worker thread under trio (as
    `trio.to_thread.run_sync`, with its cancellation semantics: not cancellable unless
    `abandon_on_cancel`), in place under `run_inline`. Raises what `function` raises."""
    if _inline.get():
        return function(*args)
    import trio

    return await trio.to_thread.run_sync(function, *args, abandon_on_cancel=abandon_on_cancel)


def on_loop_thread(function: Callable[..., T], *args: Any) -> T:
    """From a function that `run_blocking` runs: `function(*args)` on the thread that runs the
    op (through the event loop, as `trio.from_thread.run_sync`; in place under `run_inline`),
    waiting for its result."""
    if _inline.get():
        return function(*args)
    import trio

    return trio.from_thread.run_sync(function, *args)


def run_inline(async_function: Callable[..., Coroutine[Any, Any, T]], *args: Any) -> T:
    """Run `async_function(*args)` to its end in this thread, without an event loop: each
    `run_blocking` runs its function in place. Raises what the op raises (KeyboardInterrupt
    included: nothing waits for a worker thread), and NotInline if the op awaits anything
    else."""
    token = _inline.set(True)
    coroutine = async_function(*args)
    try:
        awaited = coroutine.send(None)
    except StopIteration as done:
        result: T = done.value
        return result
    finally:
        _inline.reset(token)
    coroutine.close()
    raise NotInline(f"{async_function!r} awaited {awaited!r}, which needs an event loop")
