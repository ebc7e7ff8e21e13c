"""Framing conformance of the real server (docs/serve.md#2-framing): line endings, blank lines,
broken lines, lines split or batched across writes, the line-size limit, and compact output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from i18nprune.serve.transport import MAX_LINE_BYTES
from i18nprune.testing import ServeClient
from tests.serve.conftest import ServeFactory, lines_before_ping

PARSE_ERROR = (-32700, "SERVE_PARSE_ERROR")
INVALID_REQUEST = (-32600, "SERVE_INVALID_REQUEST")
INVALID_PARAMS = (-32602, "SERVE_INVALID_PARAMS")


def codes(client: ServeClient, id: bytes) -> tuple[int, str]:
    """The (JSON-RPC code, data.code) of the next answer to `id`; fails on a result."""
    response = client.wait_response(id)
    assert response.error is not None, response.raw
    return response.error.code, response.error.data["code"]


def ping_line(id: str, ending: bytes = b"\n") -> bytes:
    return b'{"jsonrpc":"2.0","id":"' + id.encode() + b'","method":"ping"}' + ending


@pytest.mark.slow
def test_trailing_whitespace_and_crlf_are_trimmed(serve: ServeFactory) -> None:
    client = serve()
    endings = [b"\r\n", b" \n", b"\t\n", b"  \t \r\n", b"\r\r\n", b"\x0c\x0b\n"]
    for index, ending in enumerate(endings):
        client.send(ping_line(str(index), ending))
        assert client.wait_response(str(index)).result == {}, ending


def test_leading_whitespace_is_tolerated(serve: ServeFactory) -> None:
    client = serve()
    client.send(b"  \t" + ping_line("a"))
    assert client.wait_response(b'"a"').result == {}


@pytest.mark.slow
def test_blank_lines_are_never_answered(serve: ServeFactory) -> None:
    client = serve()
    for blank in (b"\n", b"\r\n", b"   \n", b"\t\t\r\n", b"\n\n\n"):
        since = len(client.lines)
        client.send(blank)
        assert lines_before_ping(client, since) == [], blank


@pytest.mark.slow
def test_invalid_utf8_is_a_parse_error_and_the_next_line_is_served(serve: ServeFactory) -> None:
    client = serve()
    client.send(b'{"jsonrpc":"2.0","id":"\xff\xfe","method":"ping"}\n' + ping_line("next"))
    assert codes(client, b"null") == PARSE_ERROR
    assert client.wait_response(b'"next"').result == {}


@pytest.mark.slow
def test_invalid_json_is_a_parse_error_with_null_id_and_the_next_line_is_served(
    serve: ServeFactory,
) -> None:
    client = serve()
    lines = [
        b'{"jsonrpc":"2.0","id":1,"method":"ping"',
        b'{"jsonrpc":"2.0","id":1,"method":"ping"}}',
        b'{"jsonrpc":"2.0","id":1,"method":"ping"} {"x":1}',
        b"{'jsonrpc':'2.0','id':1,'method':'ping'}",
        b'{"jsonrpc":"2.0","id":01,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":NaN,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":1,"method":"ping",}',
        b"nonsense",
        b"\x00\x01\x02",
        b'"unterminated',
    ]
    for index, line in enumerate(lines):
        client.send(line + b"\n" + ping_line(str(index)))
        assert codes(client, b"null") == PARSE_ERROR, line
        assert client.wait_response(str(index)).result == {}, line


@pytest.mark.slow
def test_a_line_split_across_many_writes_is_one_message(serve: ServeFactory) -> None:
    client = serve()
    line = '{"jsonrpc":"2.0","id":"split ü","method":"ping","params":{}}\n'.encode()
    for index in range(len(line)):
        client.send(line[index : index + 1])  # one write each, cutting the ü in half too
    assert client.wait_response('"split ü"'.encode()).result == {}


@pytest.mark.slow
def test_several_messages_in_one_write_are_each_answered(serve: ServeFactory) -> None:
    client = serve()
    since = len(client.lines)
    client.send(
        ping_line("a")
        + b'{"jsonrpc":"2.0","method":"ping"}\n'
        + b"\n"
        + ping_line("b", b"\r\n")
        + b'{"jsonrpc":"2.0","id":"c","method":"nope"}\n'
        + ping_line("d")
    )
    assert client.wait_response(b'"a"').result == {}
    assert client.wait_response(b'"b"').result == {}
    assert client.wait_response(b'"c"').error is not None
    assert client.wait_response(b'"d"').result == {}
    assert len(lines_before_ping(client, since)) == 4


@pytest.mark.slow
def test_a_final_line_without_newline_is_served_at_end_of_input(serve: ServeFactory) -> None:
    client = serve()
    client.send(ping_line("last", b""))
    client.close_stdin()
    assert client.wait_response(b'"last"').result == {}
    assert client.wait_exit() == 0


def oversized_request(size: int) -> bytes:
    """A valid ping request with id 1 of exactly `size` bytes before its newline."""
    head = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"'
    tail = b'"}}'
    return head + b"x" * (size - len(head) - len(tail)) + tail


@pytest.mark.slow
def test_line_over_the_limit_is_refused_with_null_id_drained_and_the_next_line_served(
    serve: ServeFactory,
) -> None:
    client = serve()
    since = len(client.lines)
    client.send(oversized_request(MAX_LINE_BYTES + 1024 * 1024) + b"\n", timeout=30)
    client.send(ping_line("after"))
    assert codes(client, b"null") == INVALID_REQUEST
    assert client.wait_response(b'"after"', timeout=30).result == {}
    # Nothing of the big line was read as a request: no answer to its id 1.
    lines = lines_before_ping(client, since)
    assert len(lines) == 2
    assert all(b'"id":1,' not in line for line in lines)


@pytest.mark.slow
def test_limit_is_at_least_16_mib(serve: ServeFactory) -> None:
    assert MAX_LINE_BYTES >= 16 * 1024 * 1024
    client = serve()
    client.send(oversized_request(16 * 1024 * 1024) + b"\n", timeout=30)
    assert client.wait_response(1, timeout=30).result == {}


@pytest.mark.slow
def test_an_oversized_line_cut_by_end_of_input_is_refused_and_the_server_exits_cleanly(
    serve: ServeFactory,
) -> None:
    client = serve()
    client.send(oversized_request(MAX_LINE_BYTES + 10), timeout=30)
    client.close_stdin()
    assert codes(client, b"null") == INVALID_REQUEST
    assert client.wait_exit(timeout=30) == 0


@pytest.mark.slow
def test_output_is_compact_json_one_message_per_line(
    serve: ServeFactory, example_project: Path
) -> None:
    client = serve("--project", str(example_project))
    client.request("op.validate", {"options": {}}).unwrap()
    client.request("op.config").unwrap()
    for line in client.lines:
        assert line.count(b"\n") == 1 and line.endswith(b"\n")
        compact = json.dumps(json.loads(line), separators=(",", ":"), ensure_ascii=False)
        assert line[:-1].decode() == compact


@pytest.mark.slow
def test_deep_nesting_never_costs_a_readable_id_and_the_next_line_is_served(
    serve: ServeFactory,
) -> None:
    client = serve()
    # A million levels (2 MB): the part past the limit is skipped, never read token by token.
    levels = 1_000_000
    deep = b"[" * levels + b"]" * levels
    lines: list[tuple[bytes, bytes, tuple[int, str] | None]] = [
        # Valid JSON: the id is read (before or after the deep value) and echoed.
        (
            b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":' + deep + b"}}",
            b"1",
            INVALID_PARAMS,
        ),
        (
            b'{"params":{"x":' + deep + b'},"jsonrpc":"2.0","method":"ping","id":2}',
            b"2",
            INVALID_PARAMS,
        ),
        # Past the limit in a member the server does not read: refused all the same.
        (
            b'{"jsonrpc":"2.0","id":3,"method":"ping","ignored":' + deep + b"}",
            b"3",
            INVALID_REQUEST,
        ),
        # Not JSON (never closed), or an id that is not a number or a string: id null.
        (b'{"a":' * levels, b"null", PARSE_ERROR),
        (
            b'{"jsonrpc":"2.0","id":4,"method":"ping","params":{"x":' + b"[" * levels,
            b"null",
            PARSE_ERROR,
        ),
        (b'{"jsonrpc":"2.0","id":' + deep + b',"method":"ping"}', b"null", INVALID_REQUEST),
    ]
    for index, (line, id, expected) in enumerate(lines):
        client.send(line + b"\n" + ping_line(str(index)))
        if expected is None:
            assert client.wait_response(id).result == {}
        else:
            assert codes(client, id) == expected
        assert client.wait_response(str(index)).result == {}
