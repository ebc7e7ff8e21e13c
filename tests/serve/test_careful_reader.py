"""The careful reader of request lines: it agrees with the fast parser on every line both can
read, finds the ids of lines only it can read, and names where a member is unusable."""

from __future__ import annotations

import contextlib
import json

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from i18nprune.serve.careful_reader import (
    MAX_DEPTH,
    Flaw,
    Members,
    NotAnObject,
    NotJson,
    read_members,
)
from tests.properties import examples

fast = msgspec.json.Decoder(dict[str, msgspec.Raw])
values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children)
    ),
    max_leaves=10,
)
spaces = st.sampled_from(["", " ", "\t", "\r\n ", "  "])


@st.composite
def object_lines(draw: st.DrawFn) -> bytes:
    """A JSON object line with whitespace between its tokens, its text escaped or not."""
    value = draw(st.dictionaries(st.text(max_size=4), values, max_size=5))
    separators = (draw(spaces) + "," + draw(spaces), draw(spaces) + ":" + draw(spaces))
    text = json.dumps(value, ensure_ascii=draw(st.booleans()), separators=separators)
    return (draw(spaces) + text).encode()


@st.composite
def mutated_lines(draw: st.DrawFn) -> bytes:
    """An object line with a few bytes deleted, inserted or replaced, or cut short."""
    line = bytearray(draw(object_lines()))
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.integers(0, len(line)))
        byte = bytes([draw(st.sampled_from(b'{}[],:"\\ 0-e.tnu9'))])
        match draw(st.sampled_from(["cut", "delete", "insert", "replace"])):
            case "cut":
                del line[where:]
            case "delete":
                del line[where : where + 1]
            case "insert":
                line[where:where] = byte
            case "replace":
                line[where : where + 1] = byte
    return bytes(line)


@pytest.mark.slow
@settings(max_examples=examples(300), deadline=None)
@given(object_lines())
def test_members_are_the_raw_tokens_the_fast_parser_finds(line: bytes) -> None:
    read = read_members(line)
    assert isinstance(read, Members) and not read.flawed
    assert read.values == {name: bytes(raw) for name, raw in fast.decode(line).items()}


@pytest.mark.slow
@settings(max_examples=examples(500), deadline=None)
@given(mutated_lines())
def test_a_line_is_json_for_the_reader_exactly_when_it_is_for_the_fast_parser(line: bytes) -> None:
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:  # refused before either parser runs
        return
    if not text.strip():
        return
    try:
        fast.decode(line)
        fast_reads = True
    except msgspec.ValidationError:  # not an object (the fast parser reads no further)
        with contextlib.suppress(NotJson):
            assert isinstance(read_members(line), NotAnObject), line
        return
    except msgspec.DecodeError:
        fast_reads = False
    try:
        read = read_members(line)
    except NotJson:
        assert not fast_reads, line
        return
    assert isinstance(read, Members | NotAnObject)
    flawed = isinstance(read, Members) and read.flawed
    assert fast_reads is (isinstance(read, Members) and not flawed), line


def nested(levels: int) -> bytes:
    return b"[" * levels + b"]" * levels


def test_nesting_up_to_the_limit_is_read_and_one_more_level_is_a_flaw() -> None:
    # The request object is level 1, so its member holds MAX_DEPTH - 1 levels.
    at_limit = read_members(b'{"x":' + nested(MAX_DEPTH - 1) + b"}")
    assert isinstance(at_limit, Members) and not at_limit.flawed
    past = read_members(b'{"x":' + nested(MAX_DEPTH) + b',"id":3}')
    assert isinstance(past, Members)
    # The array that would open level MAX_DEPTH + 1 is the first element of MAX_DEPTH - 1 arrays.
    assert past.flaws == {"x": Flaw((0,) * (MAX_DEPTH - 1), None)}
    assert past.values["id"] == b"3"


@pytest.mark.slow
def test_a_line_nested_far_past_the_limit_is_read_without_recursion() -> None:
    line = b'{"params":' + b'{"a":[' * 200_000 + b"]}" * 200_000 + b',"id":"after"}'
    read = read_members(line)
    assert isinstance(read, Members) and read.values["id"] == b'"after"'
    assert read.flaws["params"].escape is None


@pytest.mark.parametrize(
    ("line", "member", "flaw"),
    [
        (rb'{"p":"\ud800"}', "p", Flaw((), r"\ud800")),
        (rb'{"p":["a","b\uDC00c"]}', "p", Flaw((1,), r"\uDC00")),
        (rb'{"p":{"o":{"x":"\ud800\u0041"}}}', "p", Flaw((b'"o"', b'"x"'), r"\ud800")),
        (rb'{"p":{"\udbff":1}}', "p", Flaw((b'"\\udbff"',), r"\udbff", in_name=True)),
        (rb'{"p":["\ud800\ud800"]}', "p", Flaw((0,), r"\ud800")),
    ],
)
def test_a_lone_surrogate_is_named_by_its_path_and_escape(
    line: bytes, member: str, flaw: Flaw
) -> None:
    read = read_members(line)
    assert isinstance(read, Members) and read.flaws == {member: flaw}


@pytest.mark.parametrize(
    "text", [rb"\ud83d\ude00", rb"\\ud800", rb"\\\ud83d\ude00", rb"\u00fc", rb"\uDBFF\uDFFF"]
)
def test_valid_escapes_are_no_flaw(text: bytes) -> None:
    read = read_members(b'{"p":"' + text + b'"}')
    assert isinstance(read, Members) and not read.flawed


def test_a_repeated_member_counts_once_the_last_time_flaws_included() -> None:
    read = read_members(rb'{"id":"\ud800","id":2,"p":1,"p":"\udc00"}')
    assert isinstance(read, Members)
    assert read.values == {"id": b"2", "p": rb'"\udc00"'}
    assert set(read.flaws) == {"p"}


def test_a_member_whose_name_is_not_text_is_left_out_but_noted() -> None:
    read = read_members(rb'{"\ud800":1,"id":7}')
    assert isinstance(read, Members)
    assert (read.values, read.flaws, read.flawed) == ({"id": b"7"}, {}, True)


@pytest.mark.parametrize(
    ("line", "array"), [(b"[1,2]", True), (b" [] ", True), (b'"x"', False), (b"1e400", False)]
)
def test_json_that_is_not_an_object_is_told_apart(line: bytes, array: bool) -> None:
    assert read_members(line) == NotAnObject(array)


@pytest.mark.parametrize(
    "line",
    [
        b'{"id":1',
        b'{"a":' * 1000,
        b"[" * 1000,
        b'{"a":"\x01"}',
        b'{"a":"\\x"}',
        b'{"a":01}',
        b'{"a":1,}',
        b"{'a':1}",
        b'{"a":1} x',
        b'{"a":NaN}',
        b'{"a":tru}',
    ],
)
def test_broken_json_is_refused(line: bytes) -> None:
    with pytest.raises(NotJson):
        read_members(line)


def test_values_keep_their_bytes_whitespace_inside_them_included() -> None:
    read = read_members(b'{ "id" :\t1.10 , "params" : { "a" : [ 1 ] } }')
    assert isinstance(read, Members)
    assert read.values == {"id": b"1.10", "params": b'{ "a" : [ 1 ] }'}
