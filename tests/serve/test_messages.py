"""Message conformance of the real server (docs/serve.md#3-messages, #12-errors): invalid requests,
unknown methods, params shape, ids echoed byte for byte, notifications never answered, the response
shape and the error table, and internal errors that leave the session running."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from i18nprune.testing import FakeProvider, ServeClient
from tests.serve.conftest import (
    ServeFactory,
    assert_protocol_line,
    lines_before_ping,
    module_server,
    start_generate,
    translating_project,
)

# The table of docs/serve.md#12-errors, copied (not imported from the server) so the test checks
# it.
ERROR_TABLE = {
    "SERVE_PARSE_ERROR": -32700,
    "SERVE_INVALID_REQUEST": -32600,
    "SERVE_SHUTTING_DOWN": -32600,
    "SERVE_METHOD_NOT_FOUND": -32601,
    "SERVE_INVALID_PARAMS": -32602,
    "SERVE_UNSUPPORTED_PROTOCOL": -32602,
    "SERVE_ROOT_MISMATCH": -32602,
    "SERVE_ROOT_REQUIRED": -32602,
    "SERVE_ROOT_INVALID": -32602,
    "SERVE_NOT_INITIALIZED": -32002,
    "SERVE_WRITES_DISABLED": -32001,
    "SERVE_REQUEST_CANCELLED": -32800,
    "SERVE_INTERNAL_ERROR": -32603,
}
INVALID_REQUEST = (-32600, "SERVE_INVALID_REQUEST")
INVALID_PARAMS = (-32602, "SERVE_INVALID_PARAMS")
METHOD_NOT_FOUND = (-32601, "SERVE_METHOD_NOT_FOUND")

ODD_IDS = [
    b"7",
    b'"7"',
    b"12345678901234567890123456789",
    b"1.10",
    b"2e3",
    b"-0",
    b"-1.5E-03",
    b"0",
    b'""',
    '"ü\\n"'.encode(),
    b'"\\u00fc"',
    b'"\\"quoted\\" \\/ \\t"',
]


def codes(response: Any) -> tuple[int, str]:
    assert response.error is not None, response.raw
    return response.error.code, response.error.data["code"]


def the_only_answer(client: ServeClient, line: bytes) -> dict[str, Any]:
    """Send `line`; the single stdout line it produced (checked before a probe ping)."""
    since = len(client.lines)
    client.send(line + b"\n")
    produced = lines_before_ping(client, since)
    assert len(produced) == 1, produced
    answer: dict[str, Any] = json.loads(produced[0])
    return answer


# --- invalid requests ---------------------------------------------------------------------
# Each test sends its cases to one server, one line at a time, and checks each line's answer.


@pytest.fixture(scope="module")
def refusing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeClient]:
    """A hub server shared by the tests whose every line it refuses (`module_server`)."""
    yield from module_server(tmp_path_factory.mktemp("refusing"))


def assert_each_answered(
    client: ServeClient, lines: list[bytes], id: object, expected: tuple[int, str]
) -> None:
    """Each of `lines` gets exactly one answer: an error `expected` carrying `id`."""
    for line in lines:
        answer = the_only_answer(client, line)
        error = answer.get("error", {})
        assert answer["id"] == id, line
        assert (error.get("code"), error.get("data", {}).get("code")) == expected, line


@pytest.mark.slow
def test_a_line_that_is_not_an_object_is_one_invalid_request_with_null_id(
    refusing: ServeClient,
) -> None:
    lines = [b"5", b"1.5", b'"ping"', b"null", b"true"]
    assert_each_answered(refusing, lines, None, INVALID_REQUEST)


@pytest.mark.slow
def test_a_batch_is_one_invalid_request_with_null_id_and_nothing_in_it_runs(
    refusing: ServeClient,
) -> None:
    lines = [
        b"[]",
        b'[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]',
        b'[{"jsonrpc":"2.0","method":"ping"}]',
        b"[1,2,3]",
    ]
    assert_each_answered(refusing, lines, None, INVALID_REQUEST)


@pytest.mark.slow
def test_a_bad_jsonrpc_member_is_an_invalid_request_answered_with_the_id(
    refusing: ServeClient,
) -> None:
    members = [b'"1.0"', b"2.0", b"2", b'"2.0 "', b"null", b'["2.0"]']
    lines = [b'{"jsonrpc":' + member + b',"id":"r","method":"ping"}' for member in members]
    lines.append(b'{"id":"r","method":"ping"}')
    assert_each_answered(refusing, lines, "r", INVALID_REQUEST)


@pytest.mark.slow
def test_a_missing_or_non_string_method_is_an_invalid_request_answered_with_the_id(
    refusing: ServeClient,
) -> None:
    methods = [b"7", b"null", b"{}", b'["ping"]', b"true"]
    lines = [b'{"jsonrpc":"2.0","id":"r","method":' + method + b"}" for method in methods]
    lines.append(b'{"jsonrpc":"2.0","id":"r"}')
    assert_each_answered(refusing, lines, "r", INVALID_REQUEST)


@pytest.mark.slow
def test_an_id_that_is_not_a_number_or_string_is_an_invalid_request_with_null_id(
    refusing: ServeClient,
) -> None:
    ids = [b"{}", b'{"a":1}', b"[]", b"[1]", b"true", b"false"]
    lines = [b'{"jsonrpc":"2.0","id":' + id + b',"method":"ping"}' for id in ids]
    assert_each_answered(refusing, lines, None, INVALID_REQUEST)


def test_an_unreadable_message_without_id_is_answered_with_null_id(serve: ServeFactory) -> None:
    # Not notifications: a notification is a *valid* request without an id (JSON-RPC 2.0 §5
    # answers an invalid request with id null).
    lines = [
        b'{"jsonrpc":"1.0","method":"ping"}',
        b'{"jsonrpc":"2.0"}',
        b'{"jsonrpc":"2.0","method":1}',
        b'{"method":"ping"}',
    ]
    assert_each_answered(serve(), lines, None, INVALID_REQUEST)


# --- readable lines with unusable members -------------------------------------------------
# Valid JSON that holds a lone surrogate escape (RFC 8259 §8.2) or nests past the server's limit
# is still read far enough to find its id: the answer carries that id and says what is wrong.

PARSE_ERROR = (-32700, "SERVE_PARSE_ERROR")
ACCEPTED = None
"""An `expected` for a line that is answered with a result."""


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


def request_line(id: str, method: str, params: str | None = None, extra: str = "") -> bytes:
    """A request line written by hand (`params` and `extra` are raw JSON text)."""
    members = [f'"jsonrpc":"2.0","id":{id},"method":{method}']
    if params is not None:
        members.append(f'"params":{params}')
    if extra:
        members.append(extra)
    return ("{" + ",".join(members) + "}").encode()


# (line, the id it is answered with, (code, data.code) or ACCEPTED, message, data.key)
UNUSABLE_MEMBERS: list[tuple[bytes, Any, tuple[int, str] | None, str, str | None]] = [
    (
        request_line('"s1"', '"op.languages"', r'{"options":{"filter":"fr\ud800"}}'),
        "s1",
        INVALID_PARAMS,
        r"`params.options.filter` holds a lone surrogate \ud800, which is not valid Unicode.",
        "filter",
    ),
    (
        request_line("1.10", '"op.languages"', r'{"options":{"filter":["fr","\uDC00"]}}'),
        1.10,
        INVALID_PARAMS,
        r"`params.options.filter[1]` holds a lone surrogate \uDC00, which is not valid Unicode.",
        "filter",
    ),
    (
        request_line("3", '"op.languages"', r'{"options":{"a\ud83d b":1}}'),
        3,
        INVALID_PARAMS,
        r'The name "a\ud83d b" in `params.options` holds a lone surrogate \ud83d, which is not '
        "valid Unicode.",
        "options",
    ),
    (
        request_line('"root"', '"op.config"', r'{"projectRoot":"/srv/\udfff"}'),
        "root",
        INVALID_PARAMS,
        r"`params.projectRoot` holds a lone surrogate \udfff, which is not valid Unicode.",
        "projectRoot",
    ),
    (
        request_line("5", '"ping"', r'{"x":{"y z":["\ud800\ud800"]}}'),
        5,
        INVALID_PARAMS,
        r'`params.x["y z"][0]` holds a lone surrogate \ud800, which is not valid Unicode.',
        "x",
    ),
    (
        request_line("6", r'"op.lang\ud800"', "{}"),
        6,
        INVALID_REQUEST,
        r"The member `method` holds a lone surrogate \ud800, which is not valid Unicode.",
        None,
    ),
    (
        request_line(r'"id\ud800"', '"ping"'),
        "id\ud800",
        INVALID_REQUEST,
        r"The `id` holds a lone surrogate \ud800, which is not valid Unicode; send an id of "
        "valid text.",
        None,
    ),
    (
        request_line("8", '"ping"').replace(b'"2.0"', rb'"2.0\ud800"'),
        8,
        INVALID_REQUEST,
        'The member `jsonrpc` must be exactly "2.0".',
        None,
    ),
    # 61 arrays inside params.options.filter reach level 64 (the request object is level 1).
    (
        request_line('"d1"', '"op.languages"', '{"options":{"filter":' + deep(61) + "}}"),
        "d1",
        INVALID_PARAMS,
        "Invalid options for `op.languages`:",
        "filter",
    ),
    (
        request_line('"d2"', '"op.languages"', '{"options":{"filter":' + deep(62) + "}}"),
        "d2",
        INVALID_PARAMS,
        "`params.options.filter` holds arrays or objects nested more than 64 levels deep, the "
        "most a request line may nest (its object is level 1).",
        "filter",
    ),
    (
        request_line('"d3"', '"ping"', '{"x":' + deep(5000) + "}"),
        "d3",
        INVALID_PARAMS,
        "`params.x` holds arrays or objects nested more than 64 levels deep",
        "x",
    ),
    # Deep nesting before the id: the id is read after it all the same.
    (
        b'{"params":{"options":{"filter":'
        + deep(5000).encode()
        + b'}},"jsonrpc":"2.0","method":"op.languages","id":"late"}',
        "late",
        INVALID_PARAMS,
        "`params.options.filter` holds arrays or objects nested more than 64 levels deep",
        "filter",
    ),
    # Nesting past the limit is refused in any member: the part past it is skipped unread.
    (
        request_line('"x1"', '"ping"', extra='"note":' + deep(5000)),
        "x1",
        INVALID_REQUEST,
        'The member "note" holds arrays or objects nested more than 64 levels deep',
        None,
    ),
    # Other members the server does not read are not checked.
    (request_line('"x2"', '"ping"', extra=r'"note":"\ud800"'), "x2", ACCEPTED, "", None),
    (request_line('"x3"', '"ping"', extra=r'"\ud800":1'), "x3", ACCEPTED, "", None),
    # Valid escapes stay valid: a surrogate pair, and an escaped backslash before `ud800`.
    (
        request_line('"ok"', '"ping"', r'{"x":["\ud83d\ude00\\ud800"]}'),
        "ok",
        ACCEPTED,
        "",
        None,
    ),
    # Not JSON, whatever it holds: the id was never read.
    (
        request_line("9", '"ping"', r'{"x":"\ud800"').rstrip(b"}"),
        None,
        PARSE_ERROR,
        "The line is not JSON:",
        None,
    ),
    (
        request_line("10", '"ping"', '{"x":' + "[" * 5000 + "}"),
        None,
        PARSE_ERROR,
        "The line is not JSON:",
        None,
    ),
]


@pytest.mark.slow
def test_a_readable_line_with_unusable_members_is_answered_with_its_own_id(
    serve: ServeFactory,
) -> None:
    client = serve()
    for line, id, expected, message, key in UNUSABLE_MEMBERS:
        answer = the_only_answer(client, line)
        assert answer["id"] == id, (line[:120], answer)
        if expected is ACCEPTED:
            assert "result" in answer, (line[:120], answer)
            continue
        error = answer["error"]
        assert (error["code"], error["data"]["code"]) == expected, (line[:120], answer)
        assert error["message"].startswith(message), (line[:120], answer)
        assert error["data"].get("key") == key, (line[:120], answer)
    assert client.ping() == {}


@pytest.mark.slow
def test_an_id_is_echoed_byte_for_byte_even_when_the_params_are_unusable(
    refusing: ServeClient,
) -> None:
    client = refusing
    for token in (b"1.10", b"2e3", b"12345678901234567890123456789", rb'"\u00fc\n"'):
        client.send(request_line(token.decode(), '"ping"', r'{"x":"\ud800"}') + b"\n")
        response = client.wait_response(token)
        assert response.raw.startswith(b'{"jsonrpc":"2.0","id":' + token + b',"error":')


@pytest.mark.slow
def test_initialize_with_a_lone_surrogate_in_its_params_is_refused_and_the_session_waits(
    serve: ServeFactory,
) -> None:
    client = serve(init=False)
    params = r'{"protocolVersion":"1","clientInfo":{"name":"ed\ud800"}}'
    answer = the_only_answer(client, request_line('"first"', '"initialize"', params))
    assert (answer["error"]["code"], answer["error"]["data"]["code"]) == INVALID_PARAMS
    assert answer["error"]["data"]["key"] == "clientInfo"
    assert client.initialize()["protocolVersion"] == "1"


@pytest.mark.slow
def test_a_notification_with_unusable_params_is_never_answered(serve: ServeFactory) -> None:
    client = serve()
    lines = [
        b'{"jsonrpc":"2.0","method":"ping","params":{"x":"\\ud800"}}',
        b'{"jsonrpc":"2.0","method":"ping","params":{"x":' + deep(100).encode() + b"}}",
        b'{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"\\ud800"}}',
    ]
    for line in lines:
        since = len(client.lines)
        client.send(line + b"\n")
        assert lines_before_ping(client, since) == [], line
    client.wait_stderr(r"$/cancelRequest ignored: `params.id` holds a lone surrogate \ud800")


# --- methods and params -------------------------------------------------------------------


@pytest.mark.slow
def test_an_unknown_method_is_method_not_found_and_named(refusing: ServeClient) -> None:
    client = refusing
    methods = ["bogus", "Ping", "op.bogus", "op.", "op.locales", "$/progress", "rpc.discover", ""]
    for method in methods:
        response = client.request(method)
        assert codes(response) == METHOD_NOT_FOUND, method
        assert response.error is not None and f"`{method}`" in response.error.message


@pytest.mark.slow
def test_params_that_are_not_an_object_are_invalid_params(refusing: ServeClient) -> None:
    client = refusing
    for method in (b"ping", b"op.languages", b"op.providers"):
        lines = [
            b'{"jsonrpc":"2.0","id":"r","method":"' + method + b'","params":' + params + b"}"
            for params in (b"[]", b'["1"]', b'"x"', b"5", b"true", b"null")
        ]
        assert_each_answered(client, lines, "r", INVALID_PARAMS)


@pytest.mark.slow
def test_initialize_with_array_params_is_invalid_params(serve: ServeFactory) -> None:
    client = serve(init=False)
    line = b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":["1"]}\n'
    client.send(line)
    assert codes(client.wait_response(1)) == INVALID_PARAMS
    assert client.initialize()["protocolVersion"] == "1"


@pytest.mark.slow
def test_shutdown_with_array_params_is_invalid_params_and_does_not_shut_down(
    serve: ServeFactory,
) -> None:
    client = serve()
    client.send(b'{"jsonrpc":"2.0","id":1,"method":"shutdown","params":[]}\n')
    assert codes(client.wait_response(1)) == INVALID_PARAMS
    assert client.ping() == {}


# --- ids ------------------------------------------------------------------------------------


def starts_with_id(response: Any, token: bytes) -> bool:
    return bool(response.raw.startswith(b'{"jsonrpc":"2.0","id":' + token + b","))


@pytest.mark.slow
def test_ids_are_echoed_byte_for_byte_in_results_and_errors(serve: ServeFactory) -> None:
    client = serve(init=False)
    expected_ok: list[tuple[bytes, str, bool]] = []
    answers = []

    def ask(method: str, params: dict[str, Any] | None, token: bytes, ok: bool) -> None:
        answers.append(client.request(method, params, id=token))
        expected_ok.append((token, method, ok))

    for token in ODD_IDS:
        ask("op.languages", None, token, False)  # not initialized yet
    ask("initialize", {"protocolVersion": "1"}, ODD_IDS[-1], True)
    for token in ODD_IDS:
        ask("ping", None, token, True)
        ask("no.such.method", None, token, False)
        ask("op.languages", {"options": {"filter": "fr"}}, token, True)
        ask("op.languages", {"options": {"filtre": "fr"}}, token, False)
    for response, (token, method, ok) in zip(answers, expected_ok, strict=True):
        assert response.id == token
        assert starts_with_id(response, token), response.raw
        assert response.ok is ok, (method, response.raw)


@pytest.mark.slow
def test_number_7_and_string_7_are_different_ids(serve: ServeFactory) -> None:
    client = serve()
    client.submit("ping", id=b"7")
    client.submit("no.such.method", id=b'"7"')
    assert client.wait_response(b"7").ok
    assert codes(client.wait_response(b'"7"')) == METHOD_NOT_FOUND


@pytest.mark.slow
def test_whitespace_around_the_id_is_not_part_of_the_echo(serve: ServeFactory) -> None:
    client = serve()
    client.send(b'{ "jsonrpc" : "2.0" , "id" :\t1.10 , "method" : "ping" }\n')
    assert client.wait_response(b"1.10").raw == b'{"jsonrpc":"2.0","id":1.10,"result":{}}\n'


@pytest.mark.slow
def test_a_request_whose_id_is_in_flight_is_refused_and_the_first_keeps_running(
    serve: ServeFactory, tmp_path: Path, hanging: FakeProvider
) -> None:
    root = translating_project(tmp_path / "app", hanging)
    client = serve("--project", str(root), "--allow-writes")
    token = start_generate(client, hanging, id=b"1.10")
    duplicate = client.request("ping", id=b"1.10")
    assert codes(duplicate) == INVALID_REQUEST
    assert duplicate.id == b"1.10"
    assert client.request("ping", id=b"1.1").ok  # another token: not the same id
    client.cancel(token)
    # The first request was still running: it is the one the cancel answers.
    assert codes(client.wait_response(token, timeout=10)) == (-32800, "SERVE_REQUEST_CANCELLED")
    assert client.request("ping", id=b"1.10").ok  # answered: the id is free again


@pytest.mark.slow
def test_an_id_may_be_reused_once_answered(serve: ServeFactory) -> None:
    client = serve()
    assert client.request("ping", id="again").ok
    assert client.request("ping", id="again").ok


# --- notifications ----------------------------------------------------------------------------


@pytest.mark.slow
def test_notifications_are_never_answered(serve: ServeFactory) -> None:
    client = serve()
    lines = [
        b'{"jsonrpc":"2.0","method":"ping"}',
        b'{"jsonrpc":"2.0","id":null,"method":"ping"}',
        b'{"jsonrpc":"2.0","method":"no.such.method"}',
        b'{"jsonrpc":"2.0","id":null,"method":"no.such.method"}',
        b'{"jsonrpc":"2.0","method":"op.validate","params":{"options":{}}}',
        b'{"jsonrpc":"2.0","method":"op.generate","params":{"options":{"target":"fr"}}}',
        b'{"jsonrpc":"2.0","method":"op.languages","params":{"options":{"bogus":1}}}',
        b'{"jsonrpc":"2.0","method":"op.bogus"}',
        b'{"jsonrpc":"2.0","method":"initialize","params":{"protocolVersion":"9"}}',
        b'{"jsonrpc":"2.0","method":"ping","params":[]}',
        b'{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":99}}',
        b'{"jsonrpc":"2.0","method":"$/cancelRequest"}',
        b'{"jsonrpc":"2.0","method":"$/cancelRequest","params":[1]}',
        b'{"jsonrpc":"2.0","method":"$/progress","params":{"id":1,"event":{}}}',
    ]
    for line in lines:
        since = len(client.lines)
        client.send(line + b"\n")
        assert lines_before_ping(client, since) == [], line


@pytest.mark.slow
def test_notifications_before_initialize_are_never_answered(serve: ServeFactory) -> None:
    client = serve(init=False)
    since = len(client.lines)
    client.send(
        b'{"jsonrpc":"2.0","method":"op.validate"}\n'
        b'{"jsonrpc":"2.0","id":null,"method":"no.such.method"}\n'
        b'{"jsonrpc":"2.0","method":"ping"}\n'
    )
    assert lines_before_ping(client, since) == []


@pytest.mark.slow
def test_a_notification_that_is_not_performed_is_noted_on_stderr(serve: ServeFactory) -> None:
    client = serve()
    client.notify("op.languages")
    client.wait_stderr("notification `op.languages` not run")


# --- response shape and the error table ------------------------------------------------------


@pytest.mark.slow
def test_every_response_has_jsonrpc_id_and_exactly_one_non_null_result_or_error(
    serve: ServeFactory, example_project: Path
) -> None:
    client = serve("--project", str(example_project), init=False)
    client.request("op.validate")
    client.initialize()
    client.request("ping")
    client.request("op.validate", {"options": {}})
    client.request("op.languages", {"options": {"nope": True}})
    client.request("op.config", {"projectRoot": "/"})
    client.request("op.sync", {"options": {}})
    client.request("nope")
    client.send(b'{"jsonrpc":"2.0","id":[1],"method":"ping"}\n{oops\n')
    client.request("initialize", {"protocolVersion": "1"})
    client.shutdown()
    client.request("ping")
    seen: set[str] = set()
    for line in client.lines:
        assert_protocol_line(line)
        message = json.loads(line)
        assert message["jsonrpc"] == "2.0"
        if "error" in message:
            error = message["error"]
            assert error["code"] == ERROR_TABLE[error["data"]["code"]]
            assert "Traceback" not in error["message"]
            assert all(value is not None for value in error["data"].values())
            seen.add(error["data"]["code"])
    assert seen == {
        "SERVE_NOT_INITIALIZED",
        "SERVE_INVALID_PARAMS",
        "SERVE_ROOT_MISMATCH",
        "SERVE_WRITES_DISABLED",
        "SERVE_METHOD_NOT_FOUND",
        "SERVE_INVALID_REQUEST",
        "SERVE_PARSE_ERROR",
        "SERVE_SHUTTING_DOWN",
    }


# A failure no op handles, injected into the server process (not into our code): opening the
# file named by I18NPRUNE_TEST_FAIL_OPEN raises, as a broken library or runtime would.
FAILING_OPEN = """
import os, sys

_target = os.environ.get("I18NPRUNE_TEST_FAIL_OPEN")


def _hook(event, args):
    if event == "open" and _target and isinstance(args[0], str) and args[0] == _target:
        raise RuntimeError("injected failure opening " + args[0])


sys.addaudithook(_hook)
"""


@pytest.mark.slow
def test_an_internal_error_is_answered_and_never_ends_the_session(
    serve: ServeFactory, tmp_path: Path, example_project: Path
) -> None:
    inject = tmp_path / "inject"
    inject.mkdir()
    (inject / "sitecustomize.py").write_text(FAILING_OPEN)
    broken = example_project / "locales" / "en.json"
    client = serve(
        env={"PYTHONPATH": str(inject), "I18NPRUNE_TEST_FAIL_OPEN": str(broken.resolve())}
    )
    failed = client.request("op.validate", {"projectRoot": str(example_project)}, id="bad")
    assert codes(failed) == (-32603, "SERVE_INTERNAL_ERROR")
    assert failed.error is not None
    assert "Traceback" not in failed.error.message and "injected" not in failed.error.message
    client.wait_stderr("injected failure opening")
    assert "Traceback" in client.stderr_text()
    assert client.ping() == {}
    languages = client.request("op.languages", {"options": {"filter": "fr"}}).unwrap()
    assert languages["ok"] is True
    again = client.request("op.validate", {"projectRoot": str(example_project)}, id="again")
    assert codes(again) == (-32603, "SERVE_INTERNAL_ERROR")
    assert client.process.poll() is None


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["hub", "sandbox"])
def test_a_project_root_the_system_cannot_use_is_root_invalid_and_the_session_goes_on(
    serve: ServeFactory, example_project: Path, mode: str
) -> None:
    client = serve() if mode == "hub" else serve("--project", str(example_project))
    for root in ["/tmp/nul\0byte", "/" + "a" * 5000, "/tmp/" + "a/" * 3000]:
        response = client.request("op.config", {"projectRoot": root})
        assert codes(response) == (-32602, "SERVE_ROOT_INVALID"), root
    assert client.ping() == {}
