"""The JSON-RPC messages of `serve`: request lines parsed with their ids kept as raw tokens,
responses and notifications encoded as lines, and the error table
(docs/serve.md#3-messages, docs/serve.md#12-errors).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, TypeVar

import msgspec

from i18nprune.ops.engine.events import ProgressEvent
from i18nprune.serve.careful_reader import (
    MAX_DEPTH,
    Flaw,
    NotAnObject,
    NotJson,
    PathPart,
    part_text,
    read_members,
)
from i18nprune.serve.nesting import TOO_DEEP, cut_too_deep

PROTOCOL_VERSIONS = ["1"]
NULL_ID = b"null"
"""The id of a response to a line whose own id could not be read."""

T = TypeVar("T")


class ErrorCode:
    """The `error.data.code` of every protocol failure (docs/serve.md#12-errors); public API."""

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


class _Notification(msgspec.Struct, frozen=True):
    jsonrpc: str
    method: str
    params: Any


@dataclass(frozen=True)
class Request:
    """A well-formed request line. `id` is the raw id token (None for a notification);
    `params` the raw params value, or None when absent; `params_error` what is wrong inside
    params (a lone surrogate, nesting too deep), raised by `named_params`."""

    id: bytes | None
    method: str
    params: msgspec.Raw | None
    params_error: RpcError | None = None


@dataclass(frozen=True)
class Rejected:
    """A line that is not a usable request: answer `error` with `id` (NULL_ID when unknown)."""

    id: bytes
    error: RpcError


_encoder = msgspec.json.Encoder()
_fields_decoder = msgspec.json.Decoder(dict[str, msgspec.Raw])
_items_decoder = msgspec.json.Decoder(list[msgspec.Raw])
_ID_STARTS = frozenset(b'"-0123456789')
_NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_SHOWN_NAME_CHARS = 40
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def parse_request(line: bytes) -> Request | Rejected:
    """Parse one trimmed, non-blank line into a Request, or say how to reject it.

    The id is `null` in the answer only when the line cannot be read far enough to find it:
    it is not UTF-8, not JSON, not an object, or its id is not a number or a string. A line of
    valid JSON whose other members are unusable is answered with its own id.
    """
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return Rejected(NULL_ID, RpcError(ErrorCode.PARSE_ERROR, "The line is not valid UTF-8."))
    fast_failure: str | None = None
    fields: dict[str, msgspec.Raw] | None = None
    try:
        fields = _fields_decoder.decode(line)
    except msgspec.ValidationError:
        return _not_an_object(line.lstrip().startswith(b"["))
    except msgspec.DecodeError as exc:  # also a lone surrogate, which the fast parser refuses
        fast_failure = str(exc)
    except RecursionError:  # the fast parser nests on the C stack
        pass
    else:
        if line.count(b"[") + line.count(b"{") <= MAX_DEPTH:
            return _request(fields, {})
    # The careful reader costs ~0.5 µs a token: past the limit it reads only a cut line.
    cut = cut_too_deep(line, MAX_DEPTH)
    if cut is None and fields is not None:
        return _request(fields, {})  # no container past the limit: the fast parse stands
    if cut is not None and fast_failure is None and TOO_DEEP not in line:
        request = _cut_request(cut)
        if request is not None:
            return request
    try:
        members = read_members(line if cut is None else cut)
    except NotJson as exc:
        message = f"The line is not JSON: {exc}."
        return Rejected(NULL_ID, RpcError(ErrorCode.PARSE_ERROR, message))
    if isinstance(members, NotAnObject):
        return _not_an_object(members.array)
    if fast_failure is not None and not members.flawed:  # the two parsers disagree: trust neither
        message = f"The line is not JSON: {fast_failure}."
        return Rejected(NULL_ID, RpcError(ErrorCode.PARSE_ERROR, message))
    values = {name: msgspec.Raw(value) for name, value in members.values.items()}
    return _request(values, members.flaws)


def _cut_request(cut: bytes) -> Request | Rejected | None:
    """Read a line cut where it nests too deep with the fast parser; None when it refuses the
    cut line (a lone surrogate, not JSON), which the careful reader then reads."""
    try:
        fields = _fields_decoder.decode(cut)
    except msgspec.ValidationError:
        return _not_an_object(cut.lstrip().startswith(b"["))
    except (msgspec.DecodeError, RecursionError):
        return None
    flaws = {
        name: Flaw(_path_to_cut(bytes(value)), None)
        for name, value in fields.items()
        if TOO_DEEP in bytes(value)
    }
    return _request(fields, flaws)


def _path_to_cut(value: bytes) -> tuple[PathPart, ...]:
    """The first steps from a member's value towards the cut in it, as far as an error names
    them (`params.options.target`)."""
    path: list[PathPart] = []
    for _ in range(2):
        try:
            members = _fields_decoder.decode(value)
        except msgspec.DecodeError:
            try:
                items = _items_decoder.decode(value)
            except msgspec.DecodeError:
                break
            index = next((i for i, item in enumerate(items) if TOO_DEEP in bytes(item)), None)
            if index is None or bytes(items[index]) == TOO_DEEP:
                break
            path.append(index)
            value = bytes(items[index])
            continue
        name = next((name for name, raw in members.items() if TOO_DEEP in bytes(raw)), None)
        if name is None:
            break
        path.append(_encoder.encode(name))
        value = bytes(members[name])
    return tuple(path)


def _not_an_object(array: bool) -> Rejected:
    what = "a batch (array)" if array else "not a JSON object"
    message = f"The message is {what}; send one request object per line."
    return Rejected(NULL_ID, RpcError(ErrorCode.INVALID_REQUEST, message))


def _request(fields: dict[str, msgspec.Raw], flaws: dict[str, Flaw]) -> Request | Rejected:
    """Check the members of a request object; `flaws` says where a member is unusable."""
    raw_id = fields.get("id")
    request_id: bytes | None = None
    if raw_id is not None and bytes(raw_id) != NULL_ID:
        request_id = bytes(raw_id)
        if request_id[0] not in _ID_STARTS:
            message = "The `id` must be a number or a string."
            return Rejected(NULL_ID, RpcError(ErrorCode.INVALID_REQUEST, message))
    answer_id = NULL_ID if request_id is None else request_id
    if request_id is not None and "id" in flaws:
        message = f"The `id` {_lone_surrogate(flaws['id'])}; send an id of valid text."
        return Rejected(answer_id, RpcError(ErrorCode.INVALID_REQUEST, message))
    if _decode(fields.get("jsonrpc"), str) != "2.0":
        message = 'The member `jsonrpc` must be exactly "2.0".'
        return Rejected(answer_id, RpcError(ErrorCode.INVALID_REQUEST, message))
    method_flaw = flaws.get("method")
    if method_flaw is not None and method_flaw.escape is not None and not method_flaw.path:
        message = f"The member `method` {_lone_surrogate(method_flaw)}."
        return Rejected(answer_id, RpcError(ErrorCode.INVALID_REQUEST, message))
    method = _decode(fields.get("method"), str)
    if method is None:
        message = "The member `method` is missing or not a string."
        return Rejected(answer_id, RpcError(ErrorCode.INVALID_REQUEST, message))
    for name, flaw in flaws.items():  # nesting past the limit is refused in any member
        if flaw.escape is None and name != "params":
            message = (
                f"The member {_shown(name)} holds arrays or objects nested more than "
                f"{MAX_DEPTH} levels deep, the most a request line may nest (its object is "
                "level 1)."
            )
            return Rejected(answer_id, RpcError(ErrorCode.INVALID_REQUEST, message))
    params_flaw = flaws.get("params")
    params_error = None if params_flaw is None else _params_error(params_flaw)
    return Request(request_id, method, fields.get("params"), params_error)


def _lone_surrogate(flaw: Flaw) -> str:
    return f"holds a lone surrogate {flaw.escape}, which is not valid Unicode"


def _params_error(flaw: Flaw) -> RpcError:
    """Invalid params naming where in `params` the flaw is (`data.key`: the option or param)."""
    names = [part_text(part) for part in flaw.path]
    data: dict[str, Any] = {}
    key_at = 1 if names[:1] == ["options"] and len(names) > 1 else 0
    for name in reversed(names[: key_at + 1]):  # the option, else the param
        if isinstance(name, str) and _is_text(name):
            data["key"] = name
            break
    if flaw.escape is None:
        where = _path(names[: key_at + 1])
        message = (
            f"`{where}` holds arrays or objects nested more than {MAX_DEPTH} levels deep, "
            f"the most a request line may nest (its object is level 1)."
        )
    elif flaw.in_name:
        message = f"The name {_shown(names[-1])} in `{_path(names[:-1])}` {_lone_surrogate(flaw)}."
    else:
        message = f"`{_path(names)}` {_lone_surrogate(flaw)}."
    return RpcError(ErrorCode.INVALID_PARAMS, message, **data)


def _path(names: list[str | int]) -> str:
    """`params.options.x`, `params.options.target[2]`, `params["a b"]`."""
    shown = ["params"]
    for name in names:
        if isinstance(name, int):
            shown.append(f"[{name}]")
        elif _NAME.fullmatch(name):
            shown.append(f".{name}")
        else:
            shown.append(f"[{_shown(name)}]")
    return "".join(shown)


def _shown(name: str | int) -> str:
    """A name as a JSON string, cut when long, its lone surrogates written as escapes."""
    text = str(name)
    if len(text) > _SHOWN_NAME_CHARS:
        text = text[:_SHOWN_NAME_CHARS] + "…"
    quoted = json.dumps(text, ensure_ascii=False)
    return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", quoted)


def _is_text(name: str) -> bool:
    return _SURROGATE.search(name) is None


def _decode(raw: msgspec.Raw | None, kind: type[T]) -> T | None:
    if raw is None:
        return None
    try:
        return msgspec.json.decode(raw, type=kind)
    except msgspec.DecodeError:
        return None


def named_params(request: Request) -> dict[str, msgspec.Raw]:
    """The request's params by name ({} when absent). Raises RpcError (invalid params) when
    params is not a JSON object, or holds a lone surrogate or nesting too deep anywhere."""
    if request.params_error is not None:
        raise request.params_error
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


def notification_line(method: str, params: Any) -> bytes:
    """A server notification line (`$/changed`, `$/diagnostics`): no id, never answered."""
    return _encoder.encode(_Notification("2.0", method, params)) + b"\n"
