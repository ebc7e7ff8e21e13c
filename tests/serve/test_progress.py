"""`$/progress`: the relay (bursts coalesced, first and last always sent, nothing after close)
and the real server (raw ids, event types, growing counts, every progress line before its
response, only the ops in `progressOps`) (docs/serve.md#10-progress)."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing

from i18nprune.ops.engine.events import ProgressEvent
from i18nprune.serve.progress import PROGRESS_INTERVAL_SECONDS, ProgressRelay
from i18nprune.testing import FakeProvider, ServeClient
from tests.generate.conftest import code_using, provider_config
from tests.serve.conftest import ServeFactory

MakeProject = Callable[[dict[str, Any]], Path]
PROGRESS_OPTIONS: dict[str, dict[str, Any]] = {
    "validate": {},
    "sync": {"target": "fr"},
    "generate": {"target": "de", "provider": "pseudo"},
}
ODD_IDS = [b"1.10", b'"p\\n"', b"12345678901234567890123456789", b"-0", b'"\\u00fc"']
LEAVES = 2000
BATCH = 10


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


# --- the real server --------------------------------------------------------------------------


def progress_lines(server: ServeClient, raw_id: bytes) -> list[int]:
    """Indexes in `server.lines` of the `$/progress` lines whose `params.id` is `raw_id`."""
    prefix = b'{"jsonrpc":"2.0","method":"$/progress","params":{"id":' + raw_id + b","
    return [index for index, line in enumerate(server.lines) if line.startswith(prefix)]


def response_line(server: ServeClient, raw_id: bytes) -> int:
    """The index in `server.lines` of the response to `raw_id`."""
    prefix = b'{"jsonrpc":"2.0","id":' + raw_id + b","
    [index] = [index for index, line in enumerate(server.lines) if line.startswith(prefix)]
    return index


def assert_counts_never_decrease(events: list[dict[str, Any]]) -> None:
    seen: dict[tuple[str, str | None, str], int] = {}
    for event in events:
        for count in ("done", "total", "failed", "cached"):
            if count in event:
                key = (event["phase"], event.get("target"), count)
                assert event[count] >= seen.get(key, 0), (key, events)
                seen[key] = event[count]


@pytest.mark.slow
@pytest.mark.parametrize("op", list(PROGRESS_OPTIONS))
def test_progress_carries_the_request_id_exactly_as_sent(
    serve: ServeFactory, example_project: Path, op: str
) -> None:
    server = serve("--project", str(example_project), "--allow-writes")
    for raw_id in ODD_IDS:
        response = server.request(f"op.{op}", {"options": PROGRESS_OPTIONS[op]}, id=raw_id)
        assert response.id == raw_id and response.ok, response.raw
        assert server.progress(raw_id), (raw_id, server.lines)
        assert len(progress_lines(server, raw_id)) == len(server.progress(raw_id))


@pytest.mark.slow
@pytest.mark.parametrize("op", list(PROGRESS_OPTIONS))
def test_progress_events_are_typed_for_the_op_and_end_with_done(
    serve: ServeFactory, example_project: Path, op: str
) -> None:
    server = serve("--project", str(example_project), "--allow-writes")
    raw_id = server.submit(f"op.{op}", {"options": PROGRESS_OPTIONS[op]})
    assert server.wait_response(raw_id).unwrap()["kind"] == op
    events = server.progress(raw_id)
    assert {event["type"] for event in events} == {f"run.progress.{op}"}
    assert events[0]["phase"] == "scan"
    assert events[-1]["phase"] == "done"
    assert all(value is not None for event in events for value in event.values())


@pytest.mark.slow
@pytest.mark.parametrize("op", list(PROGRESS_OPTIONS))
def test_every_progress_line_precedes_the_response_line(
    serve: ServeFactory, example_project: Path, op: str
) -> None:
    server = serve("--project", str(example_project), "--allow-writes")
    raw_id = server.submit(f"op.{op}", {"options": PROGRESS_OPTIONS[op]}, id=b"1.10")
    server.wait_response(raw_id).unwrap()
    server.ping()  # anything sent late would be on stdout before this answer
    lines = progress_lines(server, raw_id)
    assert lines and max(lines) < response_line(server, raw_id)


@pytest.fixture
def big_generate(make_project: MakeProject) -> Any:
    """A project with LEAVES texts to translate into fr through a libre fake (latency 0) that
    gets BATCH texts per request; yields (root, fake)."""
    english = {f"k{index}": f"Text number {index}" for index in range(LEAVES)}
    with FakeProvider("libre", latency=0) as fake:
        root = make_project(
            {
                "i18nprune.config.json": provider_config(fake, batchSize=BATCH),
                "src/app.ts": code_using(*english),
                "locales/en.json": english,
                "locales/fr.json": {},
            }
        )
        yield root, fake


@pytest.mark.slow
def test_big_generate_progress_is_coalesced_and_never_decreases(
    serve: ServeFactory, big_generate: tuple[Path, FakeProvider]
) -> None:
    root, fake = big_generate
    server = serve("--project", str(root), "--allow-writes")
    started = time.monotonic()
    raw_id = server.submit("op.generate", {"options": {"target": "fr"}}, id=b'"p\\n"')
    envelope = server.wait_response(raw_id, timeout=60).unwrap()
    elapsed = time.monotonic() - started
    assert envelope["ok"] is True, envelope["issues"]
    assert fake.stats().requests >= LEAVES // BATCH
    events = server.progress(raw_id)
    assert_counts_never_decrease(events)
    # At most one line per interval, plus the first, the last, and the last of each phase. The
    # op ran within `elapsed` (measured around it by the client), so this holds however slowly
    # the machine runs.
    phases = len({event["phase"] for event in events})
    assert len(events) <= math.ceil(elapsed / PROGRESS_INTERVAL_SECONDS) + 2 + phases
    translated = [event for event in events if event["phase"] == "translate"]
    assert translated and all(event["target"] == "fr" for event in translated)
    assert max(progress_lines(server, raw_id)) < response_line(server, raw_id)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("op", "options"),
    [
        ("config", {}),
        ("doctor", {}),
        ("languages", {"filter": "fr"}),
        ("providers", {}),
        ("locales.list", {}),
        ("locales.dynamic", {}),
        ("missing", {"yes": True}),
        ("cleanup", {"yes": True}),
        ("locales.delete", {"target": "fr", "yes": True}),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_op_outside_progress_ops_sends_no_progress(
    serve: ServeFactory, example_project: Path, op: str, options: dict[str, Any]
) -> None:
    server = serve("--project", str(example_project), "--allow-writes", init=False)
    assert op not in server.initialize()["capabilities"]["progressOps"]
    raw_id = server.submit(f"op.{op}", {"options": options})
    assert server.wait_response(raw_id).unwrap()["kind"] == op
    server.ping()
    assert not any(b'"$/progress"' in line for line in server.lines)


@pytest.mark.slow
def test_progress_ops_are_exactly_validate_sync_and_generate(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project), init=False)
    capabilities = server.initialize()["capabilities"]
    assert capabilities["progress"] is True
    assert sorted(capabilities["progressOps"]) == sorted(PROGRESS_OPTIONS)


@pytest.mark.slow
def test_generate_progress_counts_the_texts_the_cache_settled(
    serve: ServeFactory, big_generate: tuple[Path, FakeProvider]
) -> None:
    root, fake = big_generate
    server = serve("--project", str(root), "--allow-writes")
    assert server.op("generate", {"target": "fr"})["ok"] is True
    (root / "locales" / "fr.json").write_text("{}\n")  # every text again: the cache has them
    requests = fake.stats().requests

    raw_id = server.submit("op.generate", {"options": {"target": "fr"}})
    assert server.wait_response(raw_id, timeout=60).unwrap()["ok"] is True
    assert fake.stats().requests == requests

    translated = [event for event in server.progress(raw_id) if event["phase"] == "translate"]
    assert translated[-1]["cached"] == translated[-1]["total"] == LEAVES
