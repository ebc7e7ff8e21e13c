"""Where an op's blocking steps run: a worker thread under trio, in place under `run_inline`."""

from __future__ import annotations

import ast
import importlib.util
import threading
from pathlib import Path

import pytest
import trio

from i18nprune.ops.engine.offload import NotInline, on_loop_thread, run_blocking, run_inline
from i18nprune.ops.engine.registry import OPS


def thread_names(seen: list[str]) -> str:
    seen.append(threading.current_thread().name)
    on_loop_thread(seen.append, "reported:" + threading.current_thread().name)
    return "done"


async def op(seen: list[str]) -> str:
    first = await run_blocking(thread_names, seen)
    second = await run_blocking(thread_names, seen, abandon_on_cancel=True)
    return first + second


def test_inline_runs_each_blocking_step_in_place_in_order() -> None:
    seen: list[str] = []
    here = threading.current_thread().name

    assert run_inline(op, seen) == "donedone"
    assert seen == [here, f"reported:{here}", here, f"reported:{here}"]


def test_under_trio_blocking_steps_run_in_a_worker_thread_and_report_on_the_loop() -> None:
    seen: list[str] = []
    here = threading.current_thread().name

    assert trio.run(op, seen) == "donedone"
    workers = seen[0::2]
    assert here not in workers
    assert seen[1::2] == [f"reported:{worker}" for worker in workers]


def test_an_error_of_a_blocking_step_reaches_the_op_inline() -> None:
    def fail() -> None:
        raise ValueError("bad file")

    async def handled() -> str:
        try:
            await run_blocking(fail)
        except ValueError as exc:
            return str(exc)
        return "not raised"

    assert run_inline(handled) == "bad file"


def test_an_op_that_awaits_the_event_loop_cannot_run_inline() -> None:
    async def sleeps() -> None:
        await trio.sleep(0)

    with pytest.raises(NotInline):
        run_inline(sleeps)


def test_every_inline_op_awaits_nothing_but_blocking_steps() -> None:
    # The op table's promise, kept by the modules: none of them imports trio.
    for spec in OPS.values():
        if not spec.inline:
            continue
        found = importlib.util.find_spec(f"i18nprune.ops.{spec.module}")
        assert found is not None and found.origin is not None
        tree = ast.parse(Path(found.origin).read_text())
        imported = {
            alias.name.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.Import)
            for alias in node.names
        } | {
            (node.module or "").split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)
        }
        assert "trio" not in imported, spec.name
