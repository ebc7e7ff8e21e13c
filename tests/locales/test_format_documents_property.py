"""Properties of YAML and PO documents: any mix of set and delete, with any text a translation
can hold, writes a file that reads back as exactly the edited leaves (the writers' read-back
check never has to refuse), and a second load sees the same paths and values."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from i18nprune.locales.documents import load_document, read_locale_tree

pytestmark = pytest.mark.slow

# Texts a translation may hold: any character but lone surrogates and the NUL and other C0
# controls YAML forbids (tab and line feed allowed), leading and trailing spaces included.
_text = st.text(
    st.characters(
        exclude_categories=["Cs"],
        exclude_characters="".join(chr(c) for c in range(32) if c not in (9, 10)) + "\x7f\ufeff",
    ),
    max_size=40,
)
_key = st.from_regex(r"\A[A-Za-z_][A-Za-z0-9_ -]{0,12}\Z").filter(lambda key: key.strip() == key)
_edits = st.lists(
    st.tuples(st.sampled_from(["set", "delete"]), _key, _text), min_size=1, max_size=12
)

YAML_START = """\
# A header comment that must survive.
en:
  title: "Title"   # trailing note
  nested:
    one: plain text
    two: 'single quoted'
  list:
    - first
    - second
"""

PO_START = """\
msgid ""
msgstr ""
"Language: en\\n"

#. a comment
#: src/a.ts:1
msgid "title"
msgstr "Title"

msgid "two"
msgstr ""
"line one\\n"
"line two"
"""


def _apply(name: str, start: str, edits: list[tuple[str, str, str]], flat: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        path = root / name
        path.write_text(start, encoding="utf-8")
        document = load_document(path, name)
        expected = dict(read_locale_tree(path, name)) if flat else None
        for action, key, text in edits:
            path_key = key if flat else f"nested.{key}"
            if action == "set":
                document.set(path_key, text, order=[*document.paths(), path_key])
                if expected is not None:
                    expected[path_key] = text
            else:
                document.delete(path_key)
                if expected is not None:
                    expected.pop(path_key, None)
        document.save(root=root)
        again = load_document(path, name)
        assert again.paths() == document.paths()
        for leaf in document.paths():
            assert again.get(leaf) == document.get(leaf)
        if expected is not None:
            assert read_locale_tree(path, name) == expected
        else:
            assert path.read_text(encoding="utf-8").startswith("# A header comment")


@settings(max_examples=150)
@given(_edits)
def test_yaml_edits_read_back_exactly(edits):
    _apply("en.yml", YAML_START, edits, flat=False)


@settings(max_examples=150)
@given(_edits)
def test_po_edits_read_back_exactly(edits):
    # an empty msgstr is an untranslated entry: a translation set to "" is no leaf
    _apply("de.po", PO_START, [(a, k, t or "x") for a, k, t in edits], flat=True)
