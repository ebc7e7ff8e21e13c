"""Lines that nest past the limit: found without reading them token by token, cut where they go
too deep, and refused with their own id however deep they go (docs/serve.md#2-framing)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from i18nprune.serve.nesting import cut_too_deep
from i18nprune.serve.protocol import Rejected, Request, parse_request
from tests.properties import examples

HEAD = b'{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":'
SHAPES: dict[str, Callable[[int], bytes]] = {
    "arrays": lambda levels: HEAD + b"[" * levels + b"]" * levels + b"}}",
    "objects": lambda levels: HEAD + b'{"a":' * levels + b"1" + b"}" * levels + b"}}",
    "items before each level": lambda levels: HEAD + b'[1,"]",' * levels + b"]" * levels + b"}}",
    "spaced": lambda levels: HEAD + b"[ \n" * levels + b"] " * levels + b"}}",
    # past the limit, brackets that turn from opening to closing every few bytes (1.5 MB)
    "turning": lambda levels: (
        HEAD + b"[" * 70 + b"[[[]]],[[[1]]]," * (levels // 10) + b"]" * 70 + b"}}"
    ),
    "turning in strings": lambda levels: (
        HEAD + b"[" * 70 + b'[[["]\\"", "\\\\"]]],' * (levels // 10) + b"1" + b"]" * 70 + b"}}"
    ),
    "before the id": lambda levels: (
        b'{"params":{"x":' + b"[" * levels + b"]" * levels + b'},"id":7,"method":"ping",'
        b'"jsonrpc":"2.0"}'
    ),
}


def python_calls(function: Callable[[bytes], object], line: bytes) -> int:
    """How many Python functions `function(line)` calls: the work done a token at a time."""
    calls = 0

    def count(frame: object, event: str, arg: object) -> None:
        nonlocal calls
        calls += event == "call"

    sys.setprofile(count)
    try:
        function(line)
    finally:
        sys.setprofile(None)
    return calls


@pytest.mark.slow
@pytest.mark.parametrize("shape", SHAPES)
def test_a_line_past_the_limit_is_refused_in_as_many_python_steps_at_any_depth(
    shape: str,
) -> None:
    make = SHAPES[shape]
    # Before: one step per token past the limit (a million levels took a second here, a minute
    # on a loaded machine); the regex engine now skips them.
    small, big = make(1_000), make(1_000_000)
    parse_request(small)  # compiles the patterns the line needs, once per process
    assert python_calls(parse_request, big) == python_calls(parse_request, small)
    request = parse_request(big)
    assert isinstance(request, Request) and request.id == b"7"
    assert request.params_error is not None
    assert request.params_error.data == {"key": "x"}


def test_a_line_that_ends_past_the_limit_is_not_json() -> None:
    rejected = parse_request(HEAD + b"[" * 1_000_000)
    assert isinstance(rejected, Rejected) and rejected.id == b"null"
    assert rejected.error.code == "SERVE_PARSE_ERROR"


def depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((depth(item) for item in value), default=0)
    if isinstance(value, dict):
        return 1 + max((depth(item) for item in value.values()), default=0)
    return 0


values = st.recursive(
    st.none() | st.integers() | st.text(alphabet='ab[]{}"\\,: ', max_size=4),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=3), children)
    ),
    max_leaves=12,
)
LIMIT = 4
TOO_DEEP = b'"\\u0000too deep"'


@pytest.mark.slow
@settings(max_examples=examples(400), deadline=None)
@given(st.dictionaries(st.sampled_from(["id", "params", "note", "x"]), values, min_size=1))
def test_the_cut_is_taken_exactly_when_the_line_nests_past_the_limit(
    request: dict[str, Any],
) -> None:
    line = json.dumps(request, indent=None if len(request) % 2 else 1).encode()
    cut = cut_too_deep(line, LIMIT)
    if depth(request) <= LIMIT:
        assert cut is None
        return
    assert cut is not None
    too_deep = {name for name, value in request.items() if depth(value) + 1 > LIMIT}
    read = json.loads(cut)
    assert list(read) == list(request)  # every member is still there, in its place
    for name, value in read.items():
        marked = TOO_DEEP in json.dumps(value).encode()
        assert marked == (name in too_deep)
        assert marked or value == request[name]  # members within the limit are left whole
