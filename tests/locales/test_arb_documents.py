"""Flutter's ARB files: names that carry a prefix, metadata that is no message and moves with
its message, `@@locale` in new targets (locales.formats, locales.arbdoc)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from i18nprune.locales.documents import (
    counterpart_style,
    load_document,
    new_document,
    read_locale_tree,
)
from i18nprune.locales.formats import counterpart_name, locale_stem

SOURCE = {
    "@@locale": "en",
    "hello": "Hello {name}",
    "@hello": {"description": "Greets the user", "placeholders": {"name": {"type": "String"}}},
    "bye": "Goodbye",
    "@bye": {"description": "Said on leaving"},
    "count": "{n, plural, =0{No items} other{{n} items}}",
}


def write(path: Path, tree: dict) -> Path:
    path.write_text(json.dumps(tree, indent=2, ensure_ascii=False) + "\n")
    return path


@pytest.mark.parametrize(
    ("name", "locale", "french"),
    [
        ("app_en.arb", "en", "app_fr.arb"),
        ("app_pt_BR.arb", "pt_BR", "app_fr.arb"),
        ("my_app_en.arb", "en", "my_app_fr.arb"),
        ("intl_zh_Hant_TW.arb", "zh_Hant_TW", "intl_fr.arb"),
        ("l10n_es_419.arb", "es_419", "l10n_fr.arb"),
        ("en.arb", "en", "fr.arb"),
        ("messages.arb", None, "fr.arb"),
    ],
)
def test_an_arb_name_carries_its_locale_after_a_prefix(name, locale, french):
    assert locale_stem(name) == locale
    assert counterpart_name(name, "fr") == french


def test_readers_see_messages_and_never_metadata(tmp_path):
    path = write(tmp_path / "app_en.arb", SOURCE)
    assert read_locale_tree(path, "app_en.arb") == {
        "hello": "Hello {name}",
        "bye": "Goodbye",
        "count": "{n, plural, =0{No items} other{{n} items}}",
    }
    assert load_document(path, "app_en.arb").paths() == ["hello", "bye", "count"]


def test_metadata_goes_with_its_message(tmp_path):
    path = write(tmp_path / "app_en.arb", SOURCE)
    document = load_document(path, "app_en.arb")
    assert document.delete("bye")
    assert document.save(root=tmp_path)
    assert list(json.loads(path.read_text())) == ["@@locale", "hello", "@hello", "count"]


def test_a_new_message_goes_after_the_metadata_of_the_one_it_follows(tmp_path):
    path = write(tmp_path / "app_en.arb", SOURCE)
    document = load_document(path, "app_en.arb")
    document.set("wave", "Hi!", order=["hello", "wave", "bye", "count"])
    text = document.render().decode()
    assert list(json.loads(text)) == [
        "@@locale",
        "hello",
        "@hello",
        "wave",
        "bye",
        "@bye",
        "count",
    ]
    assert text.startswith('{\n  "@@locale": "en",\n  "hello": "Hello {name}",\n')


def test_a_new_target_names_its_locale_first(tmp_path):
    source = load_document(write(tmp_path / "app_en.arb", SOURCE), "app_en.arb")
    target = new_document(tmp_path / "app_fr.arb", counterpart_style(source, "fr"))
    target.set_many([("hello", "Bonjour {name}"), ("bye", "Au revoir")])
    assert target.save(root=tmp_path)
    assert json.loads((tmp_path / "app_fr.arb").read_text()) == {
        "@@locale": "fr",
        "hello": "Bonjour {name}",
        "bye": "Au revoir",
    }


def test_a_source_without_a_locale_entry_makes_targets_without_one(tmp_path):
    plain = {key: value for key, value in SOURCE.items() if key != "@@locale"}
    source = load_document(write(tmp_path / "app_en.arb", plain), "app_en.arb")
    target = new_document(tmp_path / "app_de.arb", counterpart_style(source, "de"))
    target.set("hello", "Hallo {name}")
    assert json.loads(target.render()) == {"hello": "Hallo {name}"}
