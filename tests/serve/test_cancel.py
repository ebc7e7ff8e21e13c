"""`$/cancelRequest` against a real server: a running `op.generate` stops promptly without writing,
a queued write op never runs, a started read op finishes, stray cancels are ignored, and the
server keeps answering while a long op runs (docs/serve.md#8-operations-and-their-options,
#11-cancellation)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from i18nprune.testing import FakeProvider, Fault, Response, ServeClient, fake_translation
from tests.conftest import write_tree
from tests.generate.conftest import code_using, provider_config, read_json, wait_until
from tests.serve.conftest import Gate, ServeFactory, lines_before_ping, start_generate

pytestmark = pytest.mark.slow

# Every test here asserts what happens, never how fast: a request held by a provider that never
# answers (or by a gate) can only be answered because of the cancel. The benchmark measures
# the latency.
EN = {f"k{index}": f"Text number {index}" for index in range(5)}
FR = {"k0": "Texte numéro 0"}


def tree(root: Path) -> dict[str, bytes]:
    """Every file under `root` (temp files included) with its bytes."""
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def project(root: Path, fake: FakeProvider) -> Path:
    """Code using k0…k4; `en` has them all, `fr` only k0: generate and sync both have work."""
    return write_tree(
        root,
        {
            "i18nprune.config.json": provider_config(fake),
            "src/app.ts": code_using(*EN),
            "locales/en.json": EN,
            "locales/fr.json": FR,
        },
    )


def assert_cancelled(response: Response) -> None:
    assert response.error is not None and not response.has_result, response.raw
    assert (response.error.code, response.error.data["code"]) == (-32800, "SERVE_REQUEST_CANCELLED")


def response_indexes(server: ServeClient, raw_id: bytes) -> list[int]:
    """Indexes in `server.lines` of the responses to `raw_id`."""
    prefix = b'{"jsonrpc":"2.0","id":' + raw_id + b","
    return [index for index, line in enumerate(server.lines) if line.startswith(prefix)]


def first_progress_index(server: ServeClient, raw_id: bytes) -> int:
    prefix = b'{"jsonrpc":"2.0","method":"$/progress","params":{"id":' + raw_id + b","
    return next(index for index, line in enumerate(server.lines) if line.startswith(prefix))


def test_running_generate_is_cancelled_with_request_cancelled(
    serve: ServeFactory, tmp_path: Path, hanging: FakeProvider
) -> None:
    root = project(tmp_path / "project", hanging)
    server = serve("--project", str(root), "--allow-writes")
    raw_id = start_generate(server, hanging)
    server.cancel(raw_id)
    response = server.wait_response(raw_id, timeout=10)
    assert_cancelled(response)
    server.ping()
    assert len(response_indexes(server, raw_id)) == 1  # the error, and never a result


def test_cancelled_generate_aborts_the_providers_in_flight_requests(
    serve: ServeFactory, tmp_path: Path, hanging: FakeProvider
) -> None:
    root = project(tmp_path / "project", hanging)
    server = serve("--project", str(root), "--allow-writes")
    raw_id = start_generate(server, hanging)
    server.cancel(raw_id)
    assert_cancelled(server.wait_response(raw_id, timeout=10))
    assert wait_until(lambda: hanging.stats().in_flight == 0, timeout=20)
    requests = hanging.requests
    assert requests and all(request.aborted and request.status is None for request in requests)


def test_cancelled_generate_writes_no_locale_file_and_leaves_no_temp_file(
    serve: ServeFactory, tmp_path: Path, hanging: FakeProvider
) -> None:
    root = project(tmp_path / "project", hanging)
    before = tree(root)
    server = serve("--project", str(root), "--allow-writes")
    raw_id = start_generate(server, hanging)
    server.cancel(raw_id)
    assert_cancelled(server.wait_response(raw_id, timeout=10))
    server.shutdown()
    server.exit()
    assert server.wait_exit(timeout=10) == 0
    assert tree(root) == before


def test_generate_reruns_after_a_cancel(serve: ServeFactory, tmp_path: Path) -> None:
    with FakeProvider("libre", faults=[Fault(kind="hang", times=1)]) as fake:
        root = project(tmp_path / "project", fake)
        server = serve("--project", str(root), "--allow-writes")
        raw_id = start_generate(server, fake, id=7)
        server.cancel(raw_id)
        assert_cancelled(server.wait_response(raw_id, timeout=10))
        # The same id is free again once answered.
        rerun = server.request("op.generate", {"options": {"target": "fr"}}, id=7, timeout=30)
    envelope = rerun.unwrap()
    assert envelope["ok"] is True, envelope["issues"]
    expected = {key: fake_translation(text, "fr") for key, text in EN.items() if key not in FR}
    assert read_json(root / "locales/fr.json") == {**FR, **expected}


def test_second_write_op_on_a_root_waits_for_the_first(
    serve: ServeFactory, tmp_path: Path, hanging: FakeProvider
) -> None:
    root = project(tmp_path / "project", hanging)
    server = serve("--project", str(root), "--allow-writes")
    generate = start_generate(server, hanging)
    sync = server.submit("op.sync", {"options": {"target": "fr"}})
    server.ping()  # the sync line has been read and queued: no answer, no progress yet
    assert response_indexes(server, sync) == [] and server.progress(sync) == []
    assert read_json(root / "locales/fr.json") == FR
    server.cancel(generate)
    assert_cancelled(server.wait_response(generate, timeout=10))
    assert server.wait_response(sync, timeout=10).unwrap()["ok"] is True
    # The sync started only after the generate was answered.
    [answered] = response_indexes(server, generate)
    assert first_progress_index(server, sync) > answered
    assert set(read_json(root / "locales/fr.json")) == set(EN)


def test_queued_write_op_is_cancelled_and_never_runs(
    serve: ServeFactory, tmp_path: Path, hanging: FakeProvider
) -> None:
    root = project(tmp_path / "project", hanging)
    before = tree(root)
    server = serve("--project", str(root), "--allow-writes")
    generate = start_generate(server, hanging)
    sync = server.submit("op.sync", {"options": {"target": "fr"}})
    server.cancel(sync)
    assert_cancelled(server.wait_response(sync, timeout=10))
    server.cancel(generate)
    assert_cancelled(server.wait_response(generate, timeout=10))
    server.ping()
    assert server.progress(sync) == []
    assert tree(root) == before


def test_write_ops_on_different_roots_do_not_wait_for_each_other(
    serve: ServeFactory, tmp_path: Path, hanging: FakeProvider
) -> None:
    first = project(tmp_path / "first", hanging)
    second = project(tmp_path / "second", hanging)
    server = serve("--allow-writes")
    generate = server.submit(
        "op.generate", {"projectRoot": str(first), "options": {"target": "fr"}}
    )
    assert hanging.wait_for_requests(1, timeout=20)
    synced = server.request("op.sync", {"projectRoot": str(second), "options": {"target": "fr"}})
    assert synced.unwrap()["ok"] is True
    server.cancel(generate)
    assert_cancelled(server.wait_response(generate, timeout=10))


def test_started_read_op_is_not_cancelled(serve: ServeFactory, tmp_path: Path, gate: Gate) -> None:
    root = write_tree(
        tmp_path / "project",
        {
            "i18nprune.config.json": {"locales": {"source": "en"}},
            "locales/en.json": {},
            "src/app.ts": "".join(f"t('k.{call}');\n" for call in range(50)),
        },
    )
    # validate stops while it scans src/app.ts, until the gate opens.
    server = serve("--project", str(root), env=gate.env(root.resolve() / "src/app.ts"))
    raw_id = server.submit("op.validate")
    gate.wait_held(server)
    server.cancel(raw_id)
    # The cancel reached the op while it ran: it is noted and ignored.
    server.wait_stderr(f"serve: cancel for {raw_id.decode()} ignored: op.validate finishes once")
    gate.release()
    response = server.wait_response(raw_id, timeout=30)
    assert response.unwrap()["kind"] == "validate"
    assert response.result["data"]["count"] == 50


@pytest.mark.parametrize("target", ["unknown", "finished", "other-type"])
def test_cancel_for_an_id_not_in_flight_is_ignored_without_an_answer(
    serve: ServeFactory, example_project: Path, target: str
) -> None:
    server = serve("--project", str(example_project))
    finished = server.request("op.validate", id=5)
    assert finished.ok
    cancel_id: Any = {"unknown": 99, "finished": 5, "other-type": "5"}[target]
    since = len(server.lines)
    server.cancel(cancel_id)
    assert lines_before_ping(server, since) == []


def test_cancel_names_the_id_with_its_json_type(
    serve: ServeFactory, tmp_path: Path, hanging: FakeProvider
) -> None:
    root = project(tmp_path / "project", hanging)
    server = serve("--project", str(root), "--allow-writes")
    raw_id = start_generate(server, hanging, id=b"1.10")
    for other in (b'"1.10"', b"1.1", b"1.100"):
        server.cancel(other)
    server.ping()
    assert response_indexes(server, raw_id) == []
    server.cancel(raw_id)
    assert_cancelled(server.wait_response(raw_id, timeout=10))


def test_ping_and_cancel_are_answered_while_generate_runs(
    serve: ServeFactory, tmp_path: Path, hanging: FakeProvider
) -> None:
    root = project(tmp_path / "project", hanging)
    server = serve("--project", str(root), "--allow-writes")
    generate = start_generate(server, hanging)  # it cannot finish before it is cancelled
    for _ in range(3):
        assert server.ping() == {}
    assert server.request("op.locales.list").unwrap()["ok"] is True
    assert response_indexes(server, generate) == []
    server.cancel(generate)
    assert_cancelled(server.wait_response(generate, timeout=10))


def test_cancel_as_a_request_with_an_id_is_answered(
    serve: ServeFactory, tmp_path: Path, hanging: FakeProvider
) -> None:
    root = project(tmp_path / "project", hanging)
    server = serve("--project", str(root), "--allow-writes")
    generate = start_generate(server, hanging)
    answer = server.request("$/cancelRequest", {"id": json.loads(generate)}, id="c")
    assert answer.unwrap() == {}
    assert_cancelled(server.wait_response(generate, timeout=10))


def worker_pids(server: ServeClient) -> set[int]:
    """The server's child processes now (its translate workers)."""
    pid = server.process.pid
    return {
        int(child)
        for task in os.listdir(f"/proc/{pid}/task")
        for child in Path(f"/proc/{pid}/task/{task}/children").read_text().split()
    }


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc lists a process's children")
def test_cancel_aborts_every_request_in_flight_and_the_workers_that_sent_them_survive(
    serve: ServeFactory, tmp_path: Path
) -> None:
    en = {f"k{index}": f"Text number {index}" for index in range(40)}
    with FakeProvider("libre") as fake:
        root = write_tree(
            tmp_path / "project",
            {
                "i18nprune.config.json": provider_config(fake),
                "src/app.ts": code_using(*en),
                "locales/en.json": en,
            },
        )
        server = serve("--project", str(root), "--allow-writes", "--workers", "2")
        warm = server.request("op.generate", {"options": {"target": "it"}}, timeout=60)
        assert warm.unwrap()["ok"] is True
        workers = worker_pids(server)
        before = fake.stats().requests
        fake.add_fault(Fault(kind="hang", times=-1))
        raw_id = server.submit("op.generate", {"options": {"target": ["fr", "de"]}})
        assert wait_until(lambda: fake.stats().in_flight >= 2, timeout=30), server.stderr_text()
        server.cancel(raw_id)
        assert_cancelled(server.wait_response(raw_id, timeout=10))
        assert wait_until(lambda: fake.stats().in_flight == 0, timeout=30)
        held = fake.requests[before:]
        # Each connection was closed by the worker that held it, before any answer was sent …
        assert len(held) >= 2
        assert [(request.aborted, request.status) for request in held] == [(True, None)] * len(held)
        assert fake.stats().aborted == len(held)
        # … and not by the pool killing a worker that ignored the cancel: the same workers live.
        assert worker_pids(server) == workers
    assert not (root / "locales/fr.json").exists() and not (root / "locales/de.json").exists()
