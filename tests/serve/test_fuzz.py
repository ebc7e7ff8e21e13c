"""Random and mutated lines fed to one long-lived server: it stays up, every readable request gets
exactly one answer carrying its raw id, every other non-blank line one answer, and neither blank
lines nor notifications get any (docs/serve.md#2-framing, #3-messages)."""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from i18nprune.testing import ServeClient
from tests.properties import examples
from tests.serve.conftest import ServeFactory, lines_before_ping

NULL = b"null"
SESSION_ENDERS = frozenset({"exit", "shutdown"})
# Methods that answer at once, run an op (read-only sandbox), or are refused in some way.
METHODS = [
    "ping",
    "initialize",
    "$/cancelRequest",
    "$/progress",
    "op.languages",
    "op.providers",
    "op.validate",
    "op.config",
    "op.locales.list",
    "op.sync",
    "op.bogus",
    "bogus",
    "",
]


# --- the oracle: what the protocol says a line must get ---------------------------------------


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_json = json.JSONDecoder(parse_constant=_reject_constant)
_JSON_WS = " \t\n\r"


def _has_lone_surrogate(value: Any) -> bool:
    """Whether a decoded string holds an unpaired surrogate (RFC 8259 §8.2: valid JSON, but not
    text the server can use)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return True
    return False


def members(line: bytes) -> dict[str, tuple[Any, bytes]] | None:
    """The members of a line holding one JSON object (trailing whitespace trimmed), each as its
    decoded value and its raw token; None when the line is not UTF-8, not JSON or not an object.

    Python's own parser, which takes lone surrogates as they come; a line nested too deeply for
    it counts as unreadable (the strategies nest lines with ids only as deep as it reads).
    """
    try:
        text = line.rstrip().decode("utf-8")
        if not isinstance(_json.decode(text), dict):
            return None
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    found: dict[str, tuple[Any, bytes]] = {}
    index = len(text) - len(text.lstrip(_JSON_WS)) + 1  # past the `{`
    while True:
        index += len(text[index:]) - len(text[index:].lstrip(_JSON_WS))
        if text[index] == "}":
            return found
        name, index = _json.raw_decode(text, index)
        index = text.index(":", index) + 1
        index += len(text[index:]) - len(text[index:].lstrip(_JSON_WS))
        value, end = _json.raw_decode(text, index)
        found[name] = (value, text[index:end].encode())
        index = end + len(text[end:]) - len(text[end:].lstrip(_JSON_WS))
        index += text[index] == ","


def expected_answer_id(line: bytes) -> bytes | None:
    """The raw id token the single answer to `line` carries (`null` when the line cannot be
    read far enough), or None when the line must not be answered at all (blank line or
    notification)."""
    if not line.rstrip():
        return None
    message = members(line)
    if message is None:
        return NULL
    token = NULL
    if "id" in message:
        id, raw = message["id"]
        if isinstance(id, bool | dict | list):
            return NULL
        if id is not None:
            token = raw
    jsonrpc = message.get("jsonrpc", (None, b""))[0]
    method = message.get("method", (None, b""))[0]
    readable = jsonrpc == "2.0" and isinstance(method, str) and not _has_lone_surrogate(method)
    if readable and token == NULL:
        return None  # a notification
    return token


def ends_session(line: bytes) -> bool:
    message = members(line)
    return message is not None and message.get("method", (None, b""))[0] in SESSION_ENDERS


# --- strategies -------------------------------------------------------------------------------

number_ids = st.from_regex(
    r"-?(0|[1-9][0-9]{0,40})(\.[0-9]{1,20})?([eE][+-]?[0-9]{1,3})?", fullmatch=True
).map(str.encode)
string_ids = st.builds(
    lambda text, ascii: json.dumps(text, ensure_ascii=ascii).encode(),
    st.text(max_size=12),
    st.booleans(),
)
odd_ids = st.sampled_from(
    [b"1.10", b"2e3", b"-0", b'"7"', b"7", b'"\\u00fc"', '"ü\\n"'.encode(), b"1" * 400, b"1e400"]
)
surrogates = st.characters(categories=["Cs"])
surrogate_ids = st.text(surrogates | st.characters(), min_size=1, max_size=3).map(
    lambda text: json.dumps(text).encode()  # escaped: a lone surrogate as `\ud800`
)
request_ids = st.one_of(number_ids, string_ids, odd_ids, surrogate_ids)
bad_ids = st.sampled_from([b"true", b"false", b"{}", b"[1]", b'{"a":[]}'])
texts = st.text(max_size=8) | st.text(surrogates | st.characters(), max_size=4)


def nest(depth: int) -> list[Any]:
    """Arrays nested `depth` levels deep."""
    value: list[Any] = []
    for _ in range(depth - 1):
        value = [value]
    return value


deep_values = st.integers(55, 200).map(nest)  # around the server's limit of 64 levels
junk = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | texts
    | deep_values,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(texts, children, max_size=3),
    max_leaves=8,
)
params = st.one_of(
    st.just({}),
    st.fixed_dictionaries({"options": st.just({})}),
    st.fixed_dictionaries({"options": st.dictionaries(st.sampled_from(["filter", "x"]), junk)}),
    st.fixed_dictionaries({"projectRoot": junk}),
    st.fixed_dictionaries({"protocolVersion": st.sampled_from(["1", "2", 1])}),
    st.fixed_dictionaries({"id": st.integers(0, 5)}),
    junk,
)
methods = st.one_of(
    st.sampled_from(METHODS),
    st.sampled_from(METHODS),
    st.text(max_size=10),
    st.text(surrogates | st.sampled_from("op.ping"), min_size=1, max_size=4),
)
methods = methods.filter(lambda method: method not in SESSION_ENDERS)


@st.composite
def requests(draw: st.DrawFn, id: st.SearchStrategy[bytes | None]) -> bytes:
    """A request line with members in any order; `id` None leaves the member out."""
    members = [b'"jsonrpc":"2.0"', b'"method":' + json.dumps(draw(methods)).encode()]
    token = draw(id)
    if token is not None:
        members.append(b'"id":' + token)
    if draw(st.booleans()):
        members.append(b'"params":' + json.dumps(draw(params)).encode())
    return b"{" + b",".join(draw(st.permutations(members))) + b"}"


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """A request line truncated, or with bytes deleted, inserted or replaced."""
    line = bytearray(draw(requests(request_ids)))
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.integers(0, len(line)))
        match draw(st.sampled_from(["truncate", "delete", "insert", "replace"])):
            case "truncate":
                del line[where:]
            case "delete":
                del line[where : where + 1]
            case "insert":
                line[where:where] = bytes([draw(st.integers(0, 255))])
            case "replace":
                line[where : where + 1] = bytes([draw(st.integers(0, 255))])
    return bytes(line)


nested = st.builds(
    lambda open, close, depth: open * depth + close * depth,
    st.sampled_from([b"[", b'{"a":[', b"{"]),
    st.sampled_from([b"]", b"]}", b"}"]),
    st.one_of(st.integers(1, 60), st.sampled_from([2_000, 100_000])),
)
line_endings = st.sampled_from([b"\n", b"\r\n", b" \t\n"])
noise = st.one_of(
    requests(st.none() | st.just(b"null")),
    requests(bad_ids),
    mutated(),
    st.binary(max_size=40),
    nested,
    st.sampled_from([b"", b"   ", b"\t", b"\r", b"[]", b"{}", b"null", b'"x"', b"1e999999"]),
).map(lambda line: line.replace(b"\n", b""))


@st.composite
def batches(draw: st.DrawFn) -> list[tuple[bytes, bytes]]:
    """One to five valid requests shuffled with up to six other lines, each with an ending."""
    lines = draw(st.lists(requests(request_ids), min_size=1, max_size=5))
    lines += draw(st.lists(noise, max_size=6))
    return [(line, draw(line_endings)) for line in draw(st.permutations(lines))]


# --- the test ---------------------------------------------------------------------------------


def response_ids(window: list[bytes]) -> Counter[bytes]:
    """The raw ids of the responses among `window` (progress notifications left out)."""
    ids: Counter[bytes] = Counter()
    for line in window:
        fields = members(line)
        assert fields is not None, line
        if "method" not in fields:
            ids[fields["id"][1]] += 1
    return ids


def routable(token: bytes) -> bool:
    """Whether the client can match an answer to this id: its JSON parser refuses a lone
    surrogate (the server answers such a request at once, before the next line)."""
    try:
        msgspec.json.decode(token)
    except msgspec.DecodeError:
        return False
    return True


def feed(client: ServeClient, batch: list[tuple[bytes, bytes]]) -> None:
    """Send the lines in one write; check every answer they got, then that there is no more."""
    kept = [line + ending for line, ending in batch if not ends_session(line)]
    expected: Counter[bytes] = Counter()
    for line in kept:
        token = expected_answer_id(line)
        if token is not None:
            expected[token] += 1
    since = len(client.lines)
    client.send(b"".join(kept))
    for token in expected.elements():
        if routable(token):
            client.wait_response(token, timeout=20)
    # An id the client cannot route (`1e400`, a lone surrogate) on a request that runs an op
    # is answered when the op is done, maybe after a later ping: wait for it by its raw token.
    unrouted = Counter({token: count for token, count in expected.items() if not routable(token)})
    deadline = time.monotonic() + 20
    while unrouted - response_ids(client.lines[since:]) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert response_ids(lines_before_ping(client, since)) == expected, kept


@pytest.mark.slow
def test_random_and_mutated_lines_never_break_the_session(
    serve: ServeFactory, example_project: Path
) -> None:
    client = serve("--project", str(example_project))

    @settings(
        max_examples=examples(200),
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(batches())
    def session(batch: list[tuple[bytes, bytes]]) -> None:
        feed(client, batch)

    session()
    assert client.ping() == {}
    assert client.process.poll() is None
