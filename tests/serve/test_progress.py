"""The `$/progress` relay: bursts coalesced, first and last always sent, nothing after close."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import trio
import trio.testing

from i18nprune.ops.events import ProgressEvent
from i18nprune.serve.progress import PROGRESS_INTERVAL_SECONDS, ProgressRelay


def event(done: int) -> ProgressEvent:
    return ProgressEvent(type="run.progress.generate", phase="translate", done=done, total=1000)


def run_relay(body: Callable[[ProgressRelay], Awaitable[None]]) -> list[dict[str, Any]]:
    """Run `body` with a relay on a virtual clock; the progress params it sent, in order."""
    sent: list[bytes] = []

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            relay = ProgressRelay(b"7", sent.append, nursery)
            await body(relay)

    trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))
    return [json.loads(line)["params"] for line in sent]


def test_first_event_is_sent_at_once() -> None:
    async def body(relay: ProgressRelay) -> None:
        relay.emit(event(1))

    assert run_relay(body) == [{"id": 7, "event": event_json(1)}]


def test_a_burst_is_coalesced_to_first_and_last() -> None:
    async def body(relay: ProgressRelay) -> None:
        for done in range(100):
            relay.emit(event(done))
        relay.close()

    assert [params["event"]["done"] for params in run_relay(body)] == [0, 99]


def test_at_most_one_event_per_interval_while_events_stream() -> None:
    async def body(relay: ProgressRelay) -> None:
        for done in range(200):
            relay.emit(event(done))
            await trio.sleep(PROGRESS_INTERVAL_SECONDS / 10)
        relay.close()

    sent = run_relay(body)
    # 200 events over 20 intervals: about one per interval, plus the first and the last.
    assert len(sent) <= 22
    assert sent[-1]["event"]["done"] == 199


def test_held_event_is_sent_when_its_interval_ends() -> None:
    async def body(relay: ProgressRelay) -> None:
        relay.emit(event(1))
        relay.emit(event(2))
        await trio.sleep(PROGRESS_INTERVAL_SECONDS * 2)

    assert [params["event"]["done"] for params in run_relay(body)] == [1, 2]


def test_nothing_is_sent_after_close() -> None:
    async def body(relay: ProgressRelay) -> None:
        relay.emit(event(1))
        relay.emit(event(2))
        relay.close()
        relay.emit(event(3))
        await trio.sleep(PROGRESS_INTERVAL_SECONDS * 2)

    assert [params["event"]["done"] for params in run_relay(body)] == [1, 2]


def event_json(done: int) -> dict[str, Any]:
    return {"type": "run.progress.generate", "phase": "translate", "done": done, "total": 1000}
