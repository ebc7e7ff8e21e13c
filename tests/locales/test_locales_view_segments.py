"""`LocaleView.leaf_segment`, built when first read from the order `load_locale` added the
leaves in, equals the mapping read segment by segment from the files; leaves carry no garbage
collector header."""

import gc
import json
import sys
from pathlib import Path

import pytest

from i18nprune.envelope import Code
from i18nprune.locales.leaves import Leaf, list_leaves
from i18nprune.locales.view import LocaleView, load_locale
from tests.locales.trees import PLACEHOLDER, locale_tree


def _read_segment_by_segment(root: Path, view: LocaleView) -> dict[str, str]:
    """Path → rel as a reader of the files finds it: segments in order, the first wins."""
    expected: dict[str, str] = {}
    for segment in view.segments:
        try:
            doc = json.loads((root / segment.rel).read_text(encoding="utf-8"))
        except ValueError:
            continue
        for leaf in list_leaves(doc, PLACEHOLDER):
            expected.setdefault(leaf.path, segment.rel)
    return expected


def _nested(prefix: str, count: int) -> str:
    return json.dumps({prefix: {f"k{index}": f"{prefix} {index}" for index in range(count)}})


def test_leaf_segment_of_many_segments_equals_the_files_read_one_by_one(tmp_path: Path) -> None:
    files = {f"messages/en/part{index:02d}.json": _nested(f"p{index}", 50) for index in range(12)}
    files["messages/en/empty.json"] = "{}"
    files["messages/en/broken.json"] = '{"x": '
    inventory = locale_tree(tmp_path, files)
    view = load_locale(inventory, "en", PLACEHOLDER)
    assert [issue.code for issue in view.issues] == [Code.LOCALE_INVALID_JSON]
    expected = _read_segment_by_segment(tmp_path, view)
    assert len(expected) == 600
    built = view.leaf_segment
    assert list(built.items()) == list(expected.items())
    assert list(built) == list(view.leaves)
    assert view.leaf_segment is built  # built once
    assert built["p3.k7"] == "messages/en/part03.json"


def test_leaf_segment_with_paths_defined_twice_names_the_first_segment(tmp_path: Path) -> None:
    inventory = locale_tree(
        tmp_path,
        {
            "messages/en/a.json": '{"shared": "a", "only_a": "a"}',
            "messages/en/b.json": '{"only_b": "b", "x.y": "b1", "x": {"y": "b2"}, "b2": "b"}',
            "messages/en/c.json": '{"c1": "c", "shared": "c", "only_b": "c", "c2": "c"}',
        },
    )
    view = load_locale(inventory, "en", PLACEHOLDER)
    assert view.leaf_segment == _read_segment_by_segment(tmp_path, view)
    assert list(view.leaf_segment) == list(view.leaves)
    assert view.leaves["shared"].value == "a"
    assert view.leaves["x.y"].value == "b1"
    assert [issue.message for issue in view.issues] == [
        "messages/en/b.json: 1 path defined twice, as a dotted key and as nested keys (x.y) — "
        "the first in the file is used; keep one spelling",
        "messages/en/c.json: 1 path already defined in messages/en/a.json (shared) — the values "
        "from messages/en/a.json are used; remove the duplicates from one of the files",
        "messages/en/c.json: 1 path already defined in messages/en/b.json (only_b) — the values "
        "from messages/en/b.json are used; remove the duplicates from one of the files",
    ]
    assert view.leaf_segment["only_b"] == "messages/en/b.json"
    assert view.leaf_segment["c2"] == "messages/en/c.json"


def test_a_view_built_with_its_mapping_answers_with_it(tmp_path: Path) -> None:
    inventory = locale_tree(tmp_path, {"messages/en/a.json": '{"t": "T"}'})
    loaded = load_locale(inventory, "en", PLACEHOLDER)
    given = {"t": "messages/en/a.json"}
    view = LocaleView("en", loaded.segments, loaded.leaves, given, [], None)
    assert view.leaf_segment is given
    assert view == loaded


def test_leaves_carry_no_garbage_collector_header(tmp_path: Path) -> None:
    inventory = locale_tree(tmp_path, {"messages/en/a.json": '{"t": "T", "n": 1, "z": null}'})
    view = load_locale(inventory, "en", PLACEHOLDER)
    # a type the collector tracks costs each instance a header beyond its basic size
    sizes = {sys.getsizeof(leaf) for leaf in view.leaves.values()}
    assert sizes == {Leaf.__basicsize__}
    assert not any(gc.is_tracked(leaf) for leaf in view.leaves.values())
    assert [leaf.value for leaf in view.leaves.values()] == ["T", 1, None]


def test_a_view_is_read_only(tmp_path: Path) -> None:
    inventory = locale_tree(tmp_path, {"messages/en/a.json": '{"t": "T"}'})
    view = load_locale(inventory, "en", PLACEHOLDER)
    with pytest.raises(AttributeError):
        view.leaves = {}  # type: ignore[misc]
    with pytest.raises(AttributeError):
        view.leaf_segment = {}  # type: ignore[misc]
    assert view.leaf_segment == {"t": "messages/en/a.json"}
