"""ServeClient against a scripted fake server subprocess, so the client is tested on its own."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from i18nprune.testing import ServeClient, ServeClosed, ServeError, ServeTimeout

# Answers by method name, echoing the raw id token it read; notifications are not answered.
FAKE_SERVER = r"""
import signal, subprocess, sys, time
import msgspec

class Request(msgspec.Struct):
    method: str
    id: msgspec.Raw = msgspec.Raw()
    params: dict = {}

decode = msgspec.json.Decoder(Request).decode
encode = msgspec.json.encode
out = sys.stdout.buffer

def write(line):
    out.write(line + b"\n")
    out.flush()

def answer(rid, result):
    write(b'{"jsonrpc":"2.0","id":' + rid + b',"result":' + encode(result) + b"}")

def fail(rid, code, message, serve_code):
    error = {"code": code, "message": message, "data": {"code": serve_code}}
    write(b'{"jsonrpc":"2.0","id":' + rid + b',"error":' + encode(error) + b"}")

held, received, stubborn = [], [], False
for line in sys.stdin.buffer:
    received.append(line.decode("utf-8", "replace"))
    try:
        request = decode(line)
    except msgspec.DecodeError:
        fail(b"null", -32700, "parse error", "SERVE_PARSE_ERROR")
        continue
    rid, method, params = bytes(request.id), request.method, request.params
    if method == "exit":
        sys.exit(0)
    if not rid:
        continue
    if method == "echo":
        answer(rid, params)
    elif method == "null":
        answer(rid, None)
    elif method == "fail":
        fail(rid, -32001, "writes are disabled", "SERVE_WRITES_DISABLED")
    elif method == "progress":
        for done in range(params["count"]):
            event = encode({"type": "run.progress.fake", "done": done})
            write(b'{"jsonrpc":"2.0","method":"$/progress","params":{"id":' + rid
                  + b',"event":' + event + b"}}")
        answer(rid, {})
    elif method == "hold":
        held.append(rid)
    elif method == "release":
        for rid_held in reversed(held):
            answer(rid_held, {"held": rid_held.decode()})
        held.clear()
        answer(rid, {})
    elif method == "noise":
        write(b"not json")
        answer(rid, {})
    elif method == "stderr":
        sys.stderr.write("x" * params["bytes"] + "\nstderr done\n")
        sys.stderr.flush()
        answer(rid, {})
    elif method == "received":
        answer(rid, received)
    elif method == "stubborn":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        stubborn = True
        answer(rid, {"child": child.pid})
if stubborn:
    time.sleep(60)
"""

FAILING_START = (
    "import sys; sys.stderr.write('serve: --project /nope is not a directory\\n'); sys.exit(2)"
)


@pytest.fixture
def fake() -> Iterator[ServeClient]:
    with ServeClient.spawn(command=[sys.executable, "-c", FAKE_SERVER]) as client:
        yield client


@pytest.mark.parametrize(
    "token",
    [b"12345678901234567890123456789", b"1.10", b"2e3", '"ü\\n"'.encode()],
    ids=["big-int", "trailing-zero", "exponent", "unicode-string"],
)
def test_raw_id_comes_back_byte_for_byte(fake: ServeClient, token: bytes) -> None:
    response = fake.request_raw_id(token, "echo", {"n": 1})

    assert response.id == token
    assert response.raw.startswith(b'{"jsonrpc":"2.0","id":' + token + b",")
    assert response.result == {"n": 1}


def test_auto_ids_count_up_and_str_ids_stay_strings(fake: ServeClient) -> None:
    first = fake.request("echo")
    second = fake.request("echo")
    named = fake.request("echo", id="7")

    assert (first.id, second.id, named.id) == (b"1", b"2", b'"7"')


def test_responses_are_routed_by_id_when_they_arrive_out_of_order(fake: ServeClient) -> None:
    first = fake.submit("hold", id=b"1.10")
    second = fake.submit("hold", id="b")
    fake.request("release")

    assert fake.wait_response(first).result == {"held": "1.10"}
    assert fake.wait_response(second).result == {"held": '"b"'}
    answered = [line for line in fake.lines if b'"held"' in line]
    assert answered[0].startswith(b'{"jsonrpc":"2.0","id":"b"')


def test_several_answers_to_one_id_are_returned_in_order(fake: ServeClient) -> None:
    fake.submit("echo", {"n": 1}, id=5)
    fake.submit("echo", {"n": 2}, id=5)

    assert fake.wait_response(5).result == {"n": 1}
    assert fake.wait_response(5).result == {"n": 2}


def test_progress_is_captured_per_raw_request_id(fake: ServeClient) -> None:
    fake.submit("progress", {"count": 3}, id=b"1.10")
    fake.submit("progress", {"count": 2}, id="1.10")
    fake.wait_response(b"1.10")
    fake.wait_response("1.10")

    assert [event["done"] for event in fake.progress(b"1.10")] == [0, 1, 2]
    assert [event["done"] for event in fake.progress("1.10")] == [0, 1]
    assert fake.progress(99) == []


def test_request_without_answer_times_out(fake: ServeClient) -> None:
    with pytest.raises(ServeTimeout, match="no response to id"):
        fake.request("hold", timeout=0.2)  # never answered: only the timeout ends the wait


def test_error_response_unwraps_to_serve_error(fake: ServeClient) -> None:
    response = fake.request("fail")

    assert (response.has_error, response.has_result, response.ok) == (True, False, False)
    with pytest.raises(ServeError) as raised:
        response.unwrap()
    assert raised.value.code == -32001
    assert raised.value.serve_code == "SERVE_WRITES_DISABLED"


def test_null_result_is_a_present_result(fake: ServeClient) -> None:
    response = fake.request("null")

    assert (response.has_result, response.result, response.ok) == (True, None, True)


def test_bytes_are_sent_verbatim_and_null_id_answers_are_reachable(fake: ServeClient) -> None:
    fake.send(b"{broken\n")

    response = fake.wait_response(b"null")
    assert response.error is not None
    assert response.error.data == {"code": "SERVE_PARSE_ERROR"}


def test_notifications_and_cancel_are_written_as_compact_lines(fake: ServeClient) -> None:
    fake.cancel(b"1.10")
    fake.cancel("ü")
    fake.notify("note", {"x": 1})

    received = fake.request("received").result
    assert received[:3] == [
        '{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1.10}}\n',
        '{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"ü"}}\n',
        '{"jsonrpc":"2.0","method":"note","params":{"x":1}}\n',
    ]


def test_lines_keep_every_stdout_line_in_order(fake: ServeClient) -> None:
    response = fake.request("noise")

    assert fake.lines == [b"not json\n", response.raw]


def test_stderr_is_drained_while_the_server_writes_a_lot(fake: ServeClient) -> None:
    fake.request("stderr", {"bytes": 4 * 1024 * 1024}, timeout=10)

    fake.wait_stderr("stderr done")
    assert len(fake.stderr_text()) > 4 * 1024 * 1024


def test_requests_from_many_threads_each_get_their_own_answer(fake: ServeClient) -> None:
    mismatches: list[tuple[int, object]] = []

    def worker(base: int) -> None:
        for n in range(base, base + 25):
            result = fake.request("echo", {"n": n}).result
            if result != {"n": n}:
                mismatches.append((n, result))

    threads = [threading.Thread(target=worker, args=(base,)) for base in range(0, 100, 25)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)

    assert mismatches == []
    assert len(fake.lines) == 100


def test_exit_notification_ends_the_process_and_wait_exit_returns_its_code(
    fake: ServeClient,
) -> None:
    fake.exit()

    assert fake.wait_exit(timeout=5) == 0


def test_request_after_the_server_ended_raises_closed_at_once(fake: ServeClient) -> None:
    fake.exit()
    fake.wait_exit(timeout=5)

    with pytest.raises(ServeClosed):
        fake.request("echo", timeout=3600)  # waiting for the timeout would fail the test run


def test_server_that_cannot_start_reports_its_stderr() -> None:
    with ServeClient.spawn(command=[sys.executable, "-c", FAILING_START]) as client:
        with pytest.raises(ServeClosed, match="is not a directory"):
            client.initialize(timeout=5)
        assert client.wait_exit(timeout=5) == 2
        assert client.lines == []


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="checks process states in /proc")
def test_context_exit_kills_a_server_that_ignores_end_of_input_and_its_children() -> None:
    with ServeClient.spawn(command=[sys.executable, "-c", FAKE_SERVER]) as client:
        child = client.request("stubborn").result["child"]

    assert client.process.poll() is not None
    assert _gone(child, timeout=5)


def _gone(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.skipif(sys.platform == "win32", reason="stops the server with SIGSTOP")
def test_a_short_line_sent_while_a_long_one_fills_the_pipe_arrives_whole(
    fake: ServeClient,
) -> None:
    # A short line goes straight into a pipe with room; a long one goes through the writer
    # thread. With the server stopped, the long line fills the pipe and its writer waits: the
    # short line sent meanwhile must neither cut into it nor be lost.
    fake.request("echo", {"ready": True})
    long_text = "x" * (1 << 20)
    outcomes: dict[str, object] = {}

    def send(name: str, params: dict[str, object]) -> None:
        outcomes[name] = fake.request("echo", params, timeout=30).result

    senders = [
        threading.Thread(target=send, args=("long", {"text": long_text})),
        threading.Thread(target=send, args=("short", {"n": 1})),
    ]
    os.kill(fake.process.pid, signal.SIGSTOP)
    try:
        for sender in senders:
            sender.start()
    finally:
        os.kill(fake.process.pid, signal.SIGCONT)
    for sender in senders:
        sender.join(30)

    assert outcomes == {"long": {"text": long_text}, "short": {"n": 1}}
    received = fake.request("received").result
    assert all(line.endswith("}\n") for line in received)
    assert sum(len(line) for line in received[1:3]) > len(long_text)
