"""Parsing request lines and encoding responses: raw ids survive byte for byte."""

from __future__ import annotations

import json

import msgspec
import pytest

from i18nprune.serve.protocol import (
    NULL_ID,
    ErrorCode,
    Rejected,
    Request,
    RpcError,
    error_line,
    named_params,
    parse_request,
    result_line,
)


def parsed(line: bytes) -> Request:
    request = parse_request(line)
    assert isinstance(request, Request)
    return request


def rejected(line: bytes) -> Rejected:
    failure = parse_request(line)
    assert isinstance(failure, Rejected)
    return failure


@pytest.mark.parametrize(
    "token",
    [b"7", b'"7"', b"12345678901234567890123456789", b"1.10", b"2e3", b'"\xc3\xbc\\n"', b"-0"],
)
def test_response_echoes_the_raw_id_token_byte_for_byte(token: bytes) -> None:
    request = parsed(b'{"jsonrpc":"2.0","id":' + token + b',"method":"ping"}')
    assert request.id == token
    line = result_line(token, {})
    assert line == b'{"jsonrpc":"2.0","id":' + token + b',"result":{}}\n'


def test_id_is_kept_without_the_whitespace_around_it() -> None:
    request = parsed(b'{ "id" :  1.10 , "jsonrpc":"2.0", "method":"ping" }')
    assert request.id == b"1.10"


@pytest.mark.parametrize(
    "line", [b'{"jsonrpc":"2.0","method":"exit"}', b'{"jsonrpc":"2.0","id":null,"method":"exit"}']
)
def test_missing_or_null_id_is_a_notification(line: bytes) -> None:
    assert parsed(line).id is None


@pytest.mark.parametrize("token", [b"true", b"{}", b"[1]"])
def test_id_of_another_type_is_an_invalid_request_answered_with_null_id(token: bytes) -> None:
    failure = rejected(b'{"jsonrpc":"2.0","id":' + token + b',"method":"ping"}')
    assert failure.id == NULL_ID
    assert failure.error.code == ErrorCode.INVALID_REQUEST


def test_batch_is_one_invalid_request_with_null_id() -> None:
    failure = rejected(b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]')
    assert (failure.id, failure.error.code) == (NULL_ID, ErrorCode.INVALID_REQUEST)


@pytest.mark.parametrize("line", [b'{"jsonrpc":"2.0","id":1', b'{"id":"\xff"}', b"nonsense"])
def test_invalid_json_or_utf8_is_a_parse_error_with_null_id(line: bytes) -> None:
    failure = rejected(line)
    assert (failure.id, failure.error.code) == (NULL_ID, ErrorCode.PARSE_ERROR)


def test_wrong_jsonrpc_version_is_answered_with_the_request_id() -> None:
    failure = rejected(b'{"jsonrpc":"1.0","id":"a","method":"ping"}')
    assert (failure.id, failure.error.code) == (b'"a"', ErrorCode.INVALID_REQUEST)


def test_missing_method_is_an_invalid_request() -> None:
    failure = rejected(b'{"jsonrpc":"2.0","id":3}')
    assert (failure.id, failure.error.code) == (b"3", ErrorCode.INVALID_REQUEST)


def test_params_are_kept_raw_for_the_method_to_decode() -> None:
    request = parsed(b'{"jsonrpc":"2.0","id":1,"method":"op.validate","params":{"options":{}}}')
    assert request.params is not None
    assert msgspec.json.decode(request.params) == {"options": {}}


def test_error_line_carries_rpc_code_serve_code_and_extra_data() -> None:
    failure = RpcError(ErrorCode.INVALID_PARAMS, "Unknown option `x`.", key="x")
    message = json.loads(error_line(b"4", failure))
    assert message == {
        "jsonrpc": "2.0",
        "id": 4,
        "error": {
            "code": -32602,
            "message": "Unknown option `x`.",
            "data": {"code": "SERVE_INVALID_PARAMS", "key": "x"},
        },
    }


@pytest.mark.parametrize(
    "line",
    [
        rb'{ "id" :  1.10 , "jsonrpc":"2.0", "method":"ping", "params":{"x":"\ud800"} }',
        b'{"params":{"x":'
        + b"[" * 500
        + b"]" * 500
        + b'}, "id" :\t1.10,"jsonrpc":"2.0","method":"ping"}',
    ],
    ids=["lone surrogate", "deep params"],
)
def test_a_line_only_the_careful_reader_reads_keeps_its_raw_id_and_fails_in_params(
    line: bytes,
) -> None:
    request = parsed(line)
    assert (request.id, request.method) == (b"1.10", "ping")
    with pytest.raises(RpcError) as failure:
        named_params(request)
    assert (failure.value.code, failure.value.data) == (ErrorCode.INVALID_PARAMS, {"key": "x"})
