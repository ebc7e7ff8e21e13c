"""A document edited many times in one session ends up byte for byte where the same edits end
up when each is made on the file as the previous one left it (a document loaded afresh, which
remembers nothing of earlier edits): what a long session learns to make its edits cheap never
changes what they do."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from i18nprune.locales.jsondoc import JsonStyle, LocaleDocument
from tests.properties import examples

# Keys that spell one part, keys that spell several or an index, and the fields that make an
# object a structured leaf or a message, so that edits can turn namespaces into leaves.
_KEYS = st.sampled_from(["a", "b", "c", "d", "a.b", "b.c", "x[0]", "", "value", "string"])
_PARTS = st.sampled_from(["a", "b", "c", "d", "value", "string", "status", "context", "[0]"])
_VALUES = (
    st.text(alphabet="xy\ud800é", max_size=2)
    | st.integers(-2, 2)
    | st.none()
    | st.fixed_dictionaries({"value": st.text(alphabet="xy", max_size=2)})
    | st.fixed_dictionaries(
        {"value": st.just("m"), "status": st.just("machine"), "needsReview": st.just(True)}
    )
    | st.fixed_dictionaries({"string": st.text(alphabet="xy", max_size=2)})
)
_TREES = st.recursive(
    st.text(alphabet="xy", max_size=2) | st.integers(0, 3),
    lambda children: st.dictionaries(_KEYS, children, max_size=4) | st.lists(children, max_size=2),
    max_leaves=20,
)


@st.composite
def _paths(draw: st.DrawFn) -> str:
    parts = draw(st.lists(_PARTS, min_size=1, max_size=4))
    text = ""
    for part in parts:
        if part == "[0]":
            text += part
        else:
            text = f"{text}.{part}" if text else part
    return text


_EDITS = st.lists(
    st.tuples(st.sampled_from(["set", "set", "set", "delete"]), _paths(), _VALUES),
    max_size=30,
)


def _edit(document: LocaleDocument, edit: tuple[str, str, object], order: list[str]) -> object:
    kind, path, value = edit
    try:
        if kind == "delete":
            return document.delete(path)
        return document.set(path, value, order=order)
    except (TypeError, ValueError) as exc:
        return type(exc)


@pytest.mark.slow
@settings(max_examples=examples(300), deadline=None)
@given(
    st.dictionaries(_KEYS, _TREES, max_size=5),
    _EDITS,
    st.lists(_paths(), max_size=12),
    st.booleans(),
    st.booleans(),
)
def test_a_session_of_edits_equals_each_edit_on_a_fresh_document(
    start: dict[str, object],
    edits: list[tuple[str, str, object]],
    extra_order: list[str],
    flat_keys: bool,
    messages: bool,
) -> None:
    # The order names the paths being edited, mixed with others, as a source locale would.
    order = list(dict.fromkeys([*sorted({path for _, path, _ in edits}), *extra_order]))
    style = JsonStyle(
        indent="  ", newline="\n", final_newline=True, flat_keys=flat_keys, message_objects=messages
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fr.json"
        current = (json.dumps(start, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
        path.write_bytes(current)
        session = LocaleDocument.load(path, "fr.json")
        session.style = style
        for edit in edits:
            path.write_bytes(current)
            fresh = LocaleDocument.load(path, "fr.json")
            fresh.style = style
            assert _edit(session, edit, order) == _edit(fresh, edit, order)
            current = fresh.render()
            assert session.render() == current
            assert session.paths() == fresh.paths()


def _session_and_fresh(
    start: dict[str, object], edits: list[tuple[str, str, object]], order: list[str]
) -> tuple[bytes, bytes]:
    """The bytes after `edits` made in one session, and after each made on a fresh load."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fr.json"
        current = (json.dumps(start, indent=2) + "\n").encode("utf-8")
        path.write_bytes(current)
        session = LocaleDocument.load(path, "fr.json")
        for edit in edits:
            path.write_bytes(current)
            fresh = LocaleDocument.load(path, "fr.json")
            fresh.style = session.style  # as detected at the start, not from later contents
            _edit(fresh, edit, order)
            current = fresh.render()
            _edit(session, edit, order)
        return session.render(), current


def test_a_namespace_that_becomes_a_structured_leaf_is_not_entered_again() -> None:
    # `a` gets a key (so the session knows it as a namespace), then the `value` that makes it
    # a structured leaf: `a.c` must then replace the leaf, not go into it.
    order = ["a.status", "a.needsReview", "a.value", "a.c"]
    edits = [("set", "a.needsReview", True), ("set", "a.value", "v"), ("set", "a.c", "z")]
    session, fresh = _session_and_fresh({"a": {"status": 1}}, edits, order)

    assert session == fresh
    assert json.loads(session) == {"a": {"c": "z"}}


def test_a_value_that_makes_a_namespace_a_structured_leaf_is_seen_by_later_edits() -> None:
    order = ["a.value", "a.status", "a.c"]
    edits = [("set", "a.status", "s"), ("set", "a.value", "v"), ("set", "a.c", "z")]
    session, fresh = _session_and_fresh({"a": {"value": 1}}, edits, order)

    assert session == fresh
    assert json.loads(session) == {"a": {"c": "z"}}


# Paths of plain keys, mostly: a file filled in order, as `generate` fills a new one.
_PLAIN_PATHS = st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=1, max_size=3).map(".".join)


@pytest.mark.slow
@settings(max_examples=examples(500), deadline=None)
@given(
    st.just({}) | st.dictionaries(_KEYS, _TREES, max_size=3),
    st.lists(_PLAIN_PATHS | _PLAIN_PATHS | _paths(), min_size=1, max_size=20, unique=True),
    st.booleans(),
    st.sets(st.integers(0, 19), max_size=3),
    st.lists(_VALUES, max_size=20),
    st.booleans(),
    st.booleans(),
)
def test_filling_a_document_in_order_equals_each_edit_on_a_fresh_document(
    start: dict[str, object],
    order: list[str],
    grouped: bool,
    skipped: set[int],
    values: list[object],
    flat_keys: bool,
    messages: bool,
) -> None:
    # What `generate` does: set the paths of `order` in turn, some left out (failed
    # translations), all at once (`set_many`) and one by one (`set`). A source file's order
    # keeps the paths of each object together (`grouped`); a mixed one need not.
    if grouped:
        order.sort()
    leaves = [
        (path, values[index % len(values)] if values else "t")
        for index, path in enumerate(order)
        if index not in skipped
    ]
    style = JsonStyle(
        indent="  ", newline="\n", final_newline=True, flat_keys=flat_keys, message_objects=messages
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fr.json"
        current = (json.dumps(start, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
        path.write_bytes(current)
        together = LocaleDocument.load(path, "fr.json")
        together.style = style
        one_by_one = LocaleDocument.load(path, "fr.json")
        one_by_one.style = style
        outcomes = []
        for leaf in leaves:
            path.write_bytes(current)
            fresh = LocaleDocument.load(path, "fr.json")
            fresh.style = style
            outcomes.append(_edit(fresh, ("set", *leaf), order))
            assert _edit(one_by_one, ("set", *leaf), order) == outcomes[-1]
            current = fresh.render()
        failed = [outcome for outcome in outcomes if isinstance(outcome, type)]
        if failed:  # (an array index past the end)
            with pytest.raises(failed[0]):
                together.set_many(leaves, order=order)
            return
        assert together.set_many(leaves, order=order) == outcomes.count(True)
        assert together.render() == current == one_by_one.render()
        assert together.paths() == one_by_one.paths()


def test_a_leaf_after_a_left_out_path_goes_after_the_key_holding_that_path(
    tmp_path: Path,
) -> None:
    # `a.y` is left out: `c` follows it in the order, so it goes after `a`, not at the end.
    order = ["a.x", "b", "a.y", "c"]
    document = LocaleDocument.new(tmp_path / "fr.json")

    assert document.set_many([("a.x", "1"), ("b", "2"), ("c", "3")], order=order) == 3
    assert list(json.loads(document.render())) == ["a", "c", "b"]
