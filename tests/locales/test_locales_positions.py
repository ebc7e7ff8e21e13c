"""Where a locale file spells each path: key positions found in one pass over the JSON text."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from i18nprune.locales.leaves import flatten_leaves
from i18nprune.locales.positions import path_positions


def test_nested_keys_are_found_at_their_opening_quote() -> None:
    text = '{\n  "home": {\n    "title": "Hi",\n    "sub": "There"\n  },\n  "nav": "x"\n}\n'
    positions = path_positions(text)
    assert positions.position("home") == (2, 3)
    assert positions.position("home.title") == (3, 5)
    assert positions.position("home.sub") == (4, 5)
    assert positions.position("nav") == (6, 3)
    assert positions.position("home.missing") is None


def test_a_dotted_key_and_array_items_are_paths_as_leaves_spell_them() -> None:
    text = '{"a.b": "flat", "list": ["x", {"label": "y"}], "empty": []}'
    positions = path_positions(text)
    assert positions.position("a.b") == (1, 2)
    assert positions.position("list[0]") == (1, 26)
    assert positions.position("list[1]") == (1, 31)
    assert positions.position("list[1].label") == (1, 32)
    assert positions.position("empty[0]") is None


def test_a_path_spelled_twice_is_found_where_it_is_first_spelled() -> None:
    text = '{"a.b": 1,\n "a": {"b": 2}}'
    assert path_positions(text).position("a.b") == (1, 2)


def test_columns_count_characters_and_escapes_do_not_confuse_the_scan() -> None:
    text = '{"ünï": "é\\"}{", "k\\"q": {"x": "\\\\"}, "z": 1}'
    positions = path_positions(text)
    assert positions.position("ünï") == (1, 2)
    assert positions.position('k"q.x') == (1, 27)
    assert positions.position("z") == (1, 39)


def test_crlf_files_count_lines_like_editors() -> None:
    text = '{\r\n  "a": 1,\r\n  "b": 2\r\n}\r\n'
    assert path_positions(text).position("b") == (3, 3)


_keys = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters=".[]"), min_size=1, max_size=6
)
_values = st.recursive(
    st.one_of(st.text(max_size=8), st.integers(), st.booleans(), st.none()),
    lambda children: st.one_of(
        st.lists(children, max_size=3), st.dictionaries(_keys, children, max_size=4)
    ),
    max_leaves=25,
)


@pytest.mark.slow
@given(st.dictionaries(_keys, _values, max_size=6), st.sampled_from([None, 2, "\t"]))
def test_every_leaf_path_has_a_position_that_points_at_its_spelling(doc, indent) -> None:
    text = json.dumps(doc, indent=indent, ensure_ascii=False)
    positions = path_positions(text)
    lines = text.split("\n")
    for path in flatten_leaves(doc, "__placeholder__"):
        found = positions.position(path)
        assert found is not None, path
        line, column = found
        at = lines[line - 1][column - 1 :]
        if path.endswith("]"):  # an array item: its value starts there
            assert at[0] in '"[{0123456789-tfn', (path, at)
        else:  # a key: its JSON spelling starts there
            key = path.rsplit(".", 1)[-1]
            assert at.startswith(json.dumps(key, ensure_ascii=False) + ":"), (path, at)
