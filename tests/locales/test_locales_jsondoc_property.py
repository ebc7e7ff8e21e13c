"""Properties of locale documents: files laid out the way `json.dumps(indent=…,
ensure_ascii=False)` lays them out render back byte for byte and are never rewritten unchanged,
and any mix of inserts and deletes keeps the leaves in the source locale's order."""

from __future__ import annotations

import codecs
import json
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from i18nprune.locales.jsondoc import LocaleDocument
from i18nprune.locales.leaves import list_leaves
from tests.properties import examples

pytestmark = pytest.mark.slow

# Spelled numbers travel through json.dumps as marked strings and are swapped in afterwards.
_MARK = "\ue000"
_MARKED_NUMBER = re.compile(f'"{_MARK}([-+.0-9eE]+){_MARK}"')
_PROBE = "\ue001"

_text = st.text(st.characters(exclude_categories=["Cs"], exclude_characters=_MARK + _PROBE))
_spelled_numbers = st.from_regex(
    r"\A-?(0|[1-9][0-9]{0,30})(\.[0-9]{1,20})?([eE][+-]?[0-9]{1,3})?\Z"
).map(lambda spelling: f"{_MARK}{spelling}{_MARK}")
_scalars = (
    _text
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.booleans()
    | st.none()
    | _spelled_numbers
)
_values = st.recursive(
    _scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_text, children, max_size=4),
    max_leaves=25,
)
_documents = st.dictionaries(_text, _values, min_size=1, max_size=6)


@st.composite
def _files(draw: st.DrawFn) -> bytes:
    document = draw(_documents)
    indent = draw(st.sampled_from(["  ", "    ", "\t", " ", "   ", "\t\t"]))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    text = _MARKED_NUMBER.sub(r"\1", json.dumps(document, indent=indent, ensure_ascii=False))
    if draw(st.booleans()):
        text += "\n"
    encoded = text.replace("\n", newline).encode("utf-8")
    return codecs.BOM_UTF8 + encoded if draw(st.booleans()) else encoded


def _fingerprint(path: Path) -> tuple[int, int, bytes]:
    status = path.stat()
    return status.st_ino, status.st_mtime_ns, path.read_bytes()


@settings(max_examples=examples(200), deadline=None)
@given(_files())
def test_canonical_files_render_back_byte_for_byte_and_are_not_rewritten(raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        path = root / "fr.json"
        path.write_bytes(raw)
        before = _fingerprint(path)

        unedited = LocaleDocument.load(path, "fr.json")
        assert unedited.render() == raw
        assert not unedited.save(root=root)

        # An edit undone makes the document lay out its whole tree again.
        relaid = LocaleDocument.load(path, "fr.json")
        relaid.set(_PROBE, "probe")
        relaid.delete(_PROBE)
        assert relaid.render() == raw
        assert not relaid.save(root=root)

        assert _fingerprint(path) == before


_segments = st.sampled_from(["a", "b", "c", "d", "e", "f"])
_sources = st.dictionaries(
    _segments,
    st.recursive(
        st.text(max_size=3),
        lambda children: st.dictionaries(_segments, children, min_size=1, max_size=4),
        max_leaves=30,
    ),
    min_size=1,
    max_size=6,
)


def _nested(paths: list[str]) -> dict[str, object]:
    tree: dict[str, object] = {}
    for path in paths:
        *parents, last = path.split(".")
        node = tree
        for parent in parents:
            child = node.setdefault(parent, {})
            assert isinstance(child, dict)
            node = child
        node[last] = path
    return tree


@settings(max_examples=150, deadline=None)
@given(_sources, st.data())
def test_inserts_and_deletes_keep_the_source_order(
    source: dict[str, object], data: st.DataObject
) -> None:
    order = [leaf.path for leaf in list_leaves(source, "")]
    present = data.draw(st.lists(st.booleans(), min_size=len(order), max_size=len(order)))
    kept = [path for path, keep in zip(order, present, strict=True) if keep]
    flat = data.draw(st.booleans())
    toggles = data.draw(st.lists(st.sampled_from(order), max_size=2 * len(order)))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fr.json"
        content = {key: key for key in kept} if flat else _nested(kept)
        path.write_text(json.dumps(content, indent=2))
        document = LocaleDocument.load(path, "fr.json")
        expected = set(kept)
        for toggled in toggles:
            if toggled in expected:
                assert document.delete(toggled)
                expected.remove(toggled)
            else:
                document.set(toggled, toggled, order=order)
                expected.add(toggled)

        assert document.paths() == [leaf for leaf in order if leaf in expected]
        path.write_bytes(document.render())
        assert LocaleDocument.load(path, "fr.json").paths() == document.paths()
