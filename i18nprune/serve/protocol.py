"""The JSON-RPC messages of `serve`: request lines parsed with their ids kept as raw tokens,
responses and notifications encoded as lines, and the error table (PROTOCOL §3, §10).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

import msgspec

from i18nprune.ops.events import ProgressEvent

PROTOCOL_VERSIONS = ["1"]
NULL_ID = b"null"
"""The id of a response to a line whose own id could not be read."""

T = TypeVar("T")


class ErrorCode:
    """The `error.data.code` of every protocol failure (PROTOCOL §10); public API."""

    PARSE_ERROR = "SERVE_PARSE_ERROR"
    INVALID_REQUEST = "SERVE_INVALID_REQUEST"
    SHUTTING_DOWN = "SERVE_SHUTTING_DOWN"
    METHOD_NOT_FOUND = "SERVE_METHOD_NOT_FOUND"
    INVALID_PARAMS = "SERVE_INVALID_PARAMS"
    UNSUPPORTED_PROTOCOL = "SERVE_UNSUPPORTED_PROTOCOL"
    ROOT_MISMATCH = "SERVE_ROOT_MISMATCH"
    ROOT_REQUIRED = "SERVE_ROOT_REQUIRED"
    ROOT_INVALID = "SERVE_ROOT_INVALID"
    NOT_INITIALIZED = "SERVE_NOT_INITIALIZED"
    WRITES_DISABLED = "SERVE_WRITES_DISABLED"
    REQUEST_CANCELLED = "SERVE_REQUEST_CANCELLED"
    INTERNAL_ERROR = "SERVE_INTERNAL_ERROR"


RPC_CODES: dict[str, int] = {
    ErrorCode.PARSE_ERROR: -32700,
    ErrorCode.INVALID_REQUEST: -32600,
    ErrorCode.SHUTTING_DOWN: -32600,
    ErrorCode.METHOD_NOT_FOUND: -32601,
    ErrorCode.INVALID_PARAMS: -32602,
    ErrorCode.UNSUPPORTED_PROTOCOL: -32602,
    ErrorCode.ROOT_MISMATCH: -32602,
    ErrorCode.ROOT_REQUIRED: -32602,
    ErrorCode.ROOT_INVALID: -32602,
    ErrorCode.NOT_INITIALIZED: -32002,
    ErrorCode.WRITES_DISABLED: -32001,
    ErrorCode.REQUEST_CANCELLED: -32800,
    ErrorCode.INTERNAL_ERROR: -32603,
}
"""`error.data.code` → the JSON-RPC `error.code` it is sent with."""


class RpcError(Exception):
    """A request that failed at the protocol level; its message is a sentence for a person.

    `data` holds extra members of `error.data` (for example `key`, the offending parameter).
    """

    def __init__(self, code: str, message: str, **data: Any) -> None:
        super().__init__(message)
        self.code = code
        self.data = data


class ErrorObject(msgspec.Struct, frozen=True):
    code: int
    message: str
    data: dict[str, Any]


class _ResultResponse(msgspec.Struct, frozen=True):
    jsonrpc: str
    id: msgspec.Raw
    result: Any


class _ErrorResponse(msgspec.Struct, frozen=True):
    jsonrpc: str
    id: msgspec.Raw
    error: ErrorObject


class _ProgressParams(msgspec.Struct, frozen=True):
    id: msgspec.Raw
    event: ProgressEvent


class _ProgressNotification(msgspec.Struct, frozen=True):
    jsonrpc: str
    method: str
    params: _ProgressParams


@dataclass(frozen=True)
class Request:
    """A well-formed request line. `id` is the raw id token (None for a notification);
    `params` the raw params value, or None when absent."""

    id: bytes | None
    method: str
    params: msgspec.Raw | None


@dataclass(frozen=True)
class Rejected:
    """A line that is not a usable request: answer `error` with `id` (NULL_ID when unknown)."""

    id: bytes
    error: RpcError


_encoder = msgspec.json.Encoder()
_fields_decoder = msgspec.json.Decoder(dict[str, msgspec.Raw])
_ID_STARTS = frozenset(b'"-0123456789')


def parse_request(line: bytes) -> Request | Rejected:
    """Parse one trimmed, non-blank line into a Request, or say how to reject it."""
    try:
        line.decode("utf-8")
        fields = _fields_decoder.decode(line)
    except UnicodeDecodeError:
        return Rejected(NULL_ID, RpcError(ErrorCode.PARSE_ERROR, "The line is not valid UTF-8."))
    except msgspec.ValidationError:
        what = "a batch (array)" if line.lstrip().startswith(b"[") else "not a JSON object"
        message = f"The message is {what}; send one request object per line."
        return Rejected(NULL_ID, RpcError(ErrorCode.INVALID_REQUEST, message))
    except msgspec.DecodeError as exc:
        return Rejected(NULL_ID, RpcError(ErrorCode.PARSE_ERROR, f"The line is not JSON: {exc}."))
    except RecursionError:  # the parser's depth limit; JSON lets a reader set one
        message = "The line is nested too deeply to parse."
        return Rejected(NULL_ID, RpcError(ErrorCode.PARSE_ERROR, message))
    raw_id = fields.get("id")
    request_id: bytes | None = None
    if raw_id is not None and bytes(raw_id) != NULL_ID:
        request_id = bytes(raw_id)
        if request_id[0] not in _ID_STARTS:
            message = "The `id` must be a number or a string."
            return Rejected(NULL_ID, RpcError(ErrorCode.INVALID_REQUEST, message))
    answer_id = NULL_ID if request_id is None else request_id
    if _decode(fields.get("jsonrpc"), str) != "2.0":
        message = 'The member `jsonrpc` must be exactly "2.0".'
        return Rejected(answer_id, RpcError(ErrorCode.INVALID_REQUEST, message))
    method = _decode(fields.get("method"), str)
    if method is None:
        message = "The member `method` is missing or not a string."
        return Rejected(answer_id, RpcError(ErrorCode.INVALID_REQUEST, message))
    return Request(request_id, method, fields.get("params"))


def _decode(raw: msgspec.Raw | None, kind: type[T]) -> T | None:
    if raw is None:
        return None
    try:
        return msgspec.json.decode(raw, type=kind)
    except msgspec.DecodeError:
        return None


def named_params(request: Request) -> dict[str, msgspec.Raw]:
    """The request's params by name ({} when absent). Raises RpcError (invalid params) when
    params is not a JSON object."""
    if request.params is None:
        return {}
    try:
        return _fields_decoder.decode(request.params)
    except msgspec.DecodeError:
        message = f"The params of `{request.method}` must be a JSON object of named parameters."
        raise RpcError(ErrorCode.INVALID_PARAMS, message) from None


def param_value(params: dict[str, msgspec.Raw], key: str, kind: type[T], what: str) -> T | None:
    """Decode one named parameter as `kind`; None when absent or null. Raises RpcError
    (invalid params, naming `key`) when it has another type; `what` describes the type."""
    raw = params.get(key)
    if raw is None or bytes(raw) == NULL_ID:
        return None
    try:
        return msgspec.json.decode(raw, type=kind)
    except msgspec.DecodeError:
        message = f"The parameter `{key}` must be {what}."
        raise RpcError(ErrorCode.INVALID_PARAMS, message, key=key) from None


def result_line(request_id: bytes, result: Any) -> bytes:
    """A success response line; `request_id` is echoed byte for byte."""
    return _encoder.encode(_ResultResponse("2.0", msgspec.Raw(request_id), result)) + b"\n"


def error_line(request_id: bytes, failure: RpcError) -> bytes:
    """An error response line; `request_id` is echoed byte for byte."""
    error = ErrorObject(
        RPC_CODES[failure.code], str(failure), {"code": failure.code, **failure.data}
    )
    return _encoder.encode(_ErrorResponse("2.0", msgspec.Raw(request_id), error)) + b"\n"


def progress_line(request_id: bytes, event: ProgressEvent) -> bytes:
    """A `$/progress` notification line for the request with raw id `request_id`."""
    params = _ProgressParams(msgspec.Raw(request_id), event)
    return _encoder.encode(_ProgressNotification("2.0", "$/progress", params)) + b"\n"
