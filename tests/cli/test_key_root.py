"""The real CLI on an app whose locale files keep their keys under `mappings` (`locales.root`):
every write lands inside that object, new files get it, and the bytes around it never change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.app_shapes import WRAPPED_KEYS, WRAPPED_KEYS_SOURCE
from tests.conftest import write_tree

# What stands before and after the `mappings` object in the source file.
BEFORE_ROOT = WRAPPED_KEYS_SOURCE[: WRAPPED_KEYS_SOURCE.index('"mappings": ') + 12]
AFTER_ROOT = WRAPPED_KEYS_SOURCE[WRAPPED_KEYS_SOURCE.index(',\n  "checksum"') :]
SOURCE_KEYS = json.loads(WRAPPED_KEYS_SOURCE)["mappings"]

FRENCH = (
    "{\n"
    '  "version": 3,\n'
    '  "translator": {"name": "Amélie",  "since": 2019},\n'
    '  "mappings": {\n'
    '    "home": {\n'
    '      "title": "Accueil"\n'
    "    },\n"
    '    "nav": {\n'
    '      "back": "Retour"\n'
    "    },\n"
    '    "retired": {\n'
    '      "page": "Une page retirée"\n'
    "    }\n"
    "  }\n"
    "}\n"
)


def read(path: Path) -> dict:
    return json.loads(path.read_text())


def codes(result) -> list[str]:  # type: ignore[no-untyped-def]
    return [issue["code"] for issue in result.envelope["issues"]]


def test_cleanup_removes_only_unused_keys_and_leaves_the_metadata_byte_for_byte(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", WRAPPED_KEYS)

    result = run_cli("cleanup", "--yes", "--json", cwd=root)

    assert result.code == 0, result.stdout
    assert result.envelope["data"]["keys"] == ["home.old", "legacy.banner"]
    text = (root / "locales/en.json").read_text()
    assert text.startswith(BEFORE_ROOT) and text.endswith(AFTER_ROOT)
    assert read(root / "locales/en.json")["mappings"] == {
        "home": {"title": "Home"},
        "nav": {"back": "Back"},
        "errors": {"404": "Not found", "500": "Server error"},  # `errors.${code}` keeps them
    }


def test_cleanup_points_at_the_lines_inside_the_root(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", WRAPPED_KEYS)

    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    locations = result.envelope["data"]["keyLocations"]
    assert [(spot["line"], spot["column"]) for spot in locations["home.old"]] == [(7, 7)]
    assert [(spot["line"], spot["column"]) for spot in locations["legacy.banner"]] == [(17, 7)]


def test_missing_adds_the_key_inside_the_root(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", WRAPPED_KEYS)

    result = run_cli("missing", "--yes", "--json", cwd=root)

    assert result.code == 0, result.stdout
    assert result.envelope["data"]["paths"] == ["home.subtitle"]
    text = (root / "locales/en.json").read_text()
    assert text.startswith(BEFORE_ROOT) and text.endswith(AFTER_ROOT)
    assert read(root / "locales/en.json")["mappings"]["home"] == {
        "title": "Home",
        "old": "An old heading",
        "subtitle": "__I18NPRUNE_MISSING__",
    }
    assert "subtitle" not in read(root / "locales/en.json")


def test_sync_adds_and_prunes_inside_the_target_root_only(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", {**WRAPPED_KEYS, "locales/fr.json": FRENCH})

    result = run_cli("sync", "--json", cwd=root)

    assert result.code == 0, result.stdout
    text = (root / "locales/fr.json").read_text()
    assert text.startswith(FRENCH[: FRENCH.index('"mappings": ') + 12])
    assert text.endswith("\n  }\n}\n")
    fr = read(root / "locales/fr.json")
    assert fr["translator"] == {"name": "Amélie", "since": 2019}
    assert fr["mappings"] == {
        "home": {"title": "Accueil"},
        "nav": {"back": "Retour"},
        "errors": {"404": "Not found", "500": "Server error"},
    }


def test_generate_writes_a_new_target_with_the_wrapper(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", WRAPPED_KEYS)

    result = run_cli("generate", "--target", "de", "--provider", "pseudo", "--json", cwd=root)

    assert result.code == 0, result.stdout
    de = read(root / "locales/de.json")
    assert list(de) == ["mappings"]
    assert set(de["mappings"]) == {"home", "nav", "errors"}
    assert de["mappings"]["home"]["title"] != "Home"  # translated (pseudo-localised)
    lock = read(root / "i18nprune.lock.json")
    assert "home.title" in lock["targets"]["de"]  # lock paths start at the root too


@pytest.mark.slow
def test_a_target_without_the_root_object_gets_one_and_keeps_its_other_keys(tmp_path, run_cli):
    root = write_tree(
        tmp_path / "app", {**WRAPPED_KEYS, "locales/fr.json": '{\n  "version": 3\n}\n'}
    )

    dry = run_cli("sync", "--dry-run", "--json", cwd=root)
    assert "i18nprune.locale.root_missing" in codes(dry)

    result = run_cli("sync", "--json", cwd=root)

    assert result.code == 0, result.stdout
    fr = read(root / "locales/fr.json")
    assert list(fr) == ["version", "mappings"]
    assert set(fr["mappings"]) == {"home", "nav", "errors"}


def test_a_target_whose_root_is_no_object_is_an_error_and_stays_as_it_is(tmp_path, run_cli):
    broken = '{"version": 3, "mappings": ["not", "keys"]}\n'
    root = write_tree(tmp_path / "app", {**WRAPPED_KEYS, "locales/fr.json": broken})

    result = run_cli("sync", "--json", cwd=root)

    assert result.code != 0
    [issue] = [
        i for i in result.envelope["issues"] if i["code"] == "i18nprune.locale.not_an_object"
    ]
    assert issue["message"].startswith("locales/fr.json: `mappings` is an array")
    assert (root / "locales/fr.json").read_text() == broken


def test_locales_list_counts_only_the_keys_below_the_root(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", {**WRAPPED_KEYS, "locales/fr.json": FRENCH})

    result = run_cli("locales", "list", "--json", cwd=root)

    counts = {row["code"]: row["keys"] for row in result.envelope["data"]["locales"]}
    assert counts == {"en": 6, "fr": 3}
