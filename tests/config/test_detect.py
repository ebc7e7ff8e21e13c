"""The detector's table: what a project without a config file is read as, per set-up shape —
the source locale, namespaces and separators from the library and the locale files."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from i18nprune.config import LoadedConfig
from i18nprune.config.detect.locales import FLAT_FILE, choose_source, key_shapes, locale_files
from tests.conftest import write_tree

Load = Callable[..., LoadedConfig]


def _package(*libraries: str) -> dict[str, Any]:
    return {"name": "app", "dependencies": dict.fromkeys(libraries, "1.0.0")}


CASES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        "react-intl with only en-US",
        {
            "package.json": _package("react-intl"),
            "src/lang/en-US.json": {"app.title": "Title", "app.save": "Save"},
            "src/lang/de-DE.json": {"app.title": "Titel"},
        },
        {
            "locales.directory": "src/lang",
            "locales.source": "en-US",
            "locales.keySeparator": False,
            "locales.nsSeparator": False,
        },
    ),
    (
        "vue-i18n with flat sentence keys",
        {
            "package.json": _package("vue-i18n"),
            "src/lang/en.json": {"Message:": "Message:", "Settings.title": "Settings"},
            "src/lang/fr.json": {"Message:": "Message :"},
        },
        {"locales.keySeparator": False, "locales.nsSeparator": False},
    ),
    (
        "i18next with keys holding a colon and no namespaces",
        {
            "package.json": _package("i18next"),
            "locales/en.json": {"Status: up": "Status: up", "home": {"title": "Home"}},
        },
        {"locales.nsSeparator": False},
    ),
    (
        "next-i18next, one file per namespace",
        {
            "package.json": _package("next-i18next", "react-i18next", "i18next"),
            "public/locales/en/common.json": {"save": "Save"},
            "public/locales/en/errors.json": {"E1": "Broken"},
            "public/locales/de/common.json": {"save": "Sichern"},
        },
        {
            "locales.directory": "public/locales",
            "locales.structure": "locale_per_dir",
            "locales.namespaces": "file",
            "locales.defaultNamespace": "common",
        },
    ),
    (
        "i18next, one file per namespace with a translation namespace",
        {
            "package.json": _package("i18next"),
            "locales/en/translation.json": {"save": "Save"},
            "locales/en/errors.json": {"E1": "Broken"},
        },
        {"locales.namespaces": "file"},
    ),
    (
        "vue-i18n, a folder per locale is not namespaces",
        {
            "package.json": _package("vue-i18n"),
            "locales/en/common.json": {"save": "Save"},
            "locales/en/errors.json": {"E1": "Broken"},
        },
        {"locales.nsSeparator": False},
    ),
    (
        "several English locales: the one with the most messages",
        {
            "lang/en_GB.json": {"a": "A"},
            "lang/en_US.json": {"a": "A", "b": "B"},
            "lang/de.json": {"a": "A"},
        },
        {"locales.source": "en_US"},
    ),
]


@pytest.mark.parametrize(
    ("tree", "expected"), [case[1:] for case in CASES], ids=[c[0] for c in CASES]
)
def test_a_project_without_a_config_is_read_as_its_set_up_says(
    tmp_path: Path, load: Load, tree: dict[str, Any], expected: dict[str, Any]
) -> None:
    write_tree(tmp_path, {**tree, "src/app.ts": "t('x');\n"})
    loaded = load()
    found = {dotted: finding.value for dotted, finding in loaded.findings.items()}
    for dotted, value in expected.items():
        assert found.get(dotted) == value, (dotted, loaded.findings.get(dotted))
        assert loaded.field_sources[dotted] == "discovery"
    not_expected = {"locales.namespaces", "locales.keySeparator", "locales.nsSeparator"}
    for dotted in not_expected - expected.keys():
        assert dotted not in found, (dotted, loaded.findings[dotted])


def test_a_config_file_keeps_what_its_defaults_mean(tmp_path: Path, load: Load) -> None:
    write_tree(
        tmp_path,
        {
            "i18nprune.config.json": {"locales": {"directory": "lang"}},
            "package.json": _package("vue-i18n"),
            "lang/en-US.json": {"Message:": "Message:", "a.b": "A"},
            "src/app.ts": "t('x');\n",
        },
    )
    loaded = load()
    assert loaded.config.locales.source == "en"
    assert loaded.config.locales.key_separator == "."
    assert loaded.findings == {}


def test_the_source_is_kept_when_the_default_is_there(tmp_path: Path) -> None:
    write_tree(tmp_path, {"en.json": {"a": "A"}, "de.json": {"a": "A", "b": "B"}})
    assert choose_source(locale_files(tmp_path, FLAT_FILE), "en") is None


def test_the_only_english_locale_is_the_source(tmp_path: Path) -> None:
    write_tree(tmp_path, {"en-US.json": {"a": "A"}, "de.json": {"a": "A", "b": "B"}})
    assert choose_source(locale_files(tmp_path, FLAT_FILE), "en") == (
        "en-US",
        "the only English locale",
    )


def test_key_shapes_see_flat_dotted_and_colon_keys(tmp_path: Path) -> None:
    flat = tmp_path / "flat.json"
    flat.write_text(json.dumps({"a.b": "x", "c": "y", "Note:": "z"}))
    nested = tmp_path / "nested.json"
    nested.write_text(json.dumps({"a": {"b": "x"}, "c.d": "y"}))
    assert key_shapes([flat]) == (True, ["a.b"], ["Note:"])
    assert key_shapes([nested]).flat is False


def test_a_locale_package_takes_the_library_of_the_monorepo_that_uses_it(tmp_path: Path) -> None:
    """`packages/i18n` holds the locales and names no i18n library; the app beside it uses
    next-i18next: its files are namespaces, not one merged key space."""
    from i18nprune.config import load_config

    write_tree(
        tmp_path,
        {
            ".git/HEAD": "ref: refs/heads/main\n",
            "package.json": {"private": True, "workspaces": ["apps/*", "packages/*"]},
            "apps/web/package.json": _package("next-i18next"),
            "apps/web/src/a.tsx": "t('table:title');\n",
            "packages/i18n/package.json": {"name": "@acme/i18n"},
            "packages/i18n/src/locales/en/common.json": {"title": "Common title"},
            "packages/i18n/src/locales/en/table.json": {"title": "Table title"},
        },
    )
    loaded = load_config(tmp_path / "packages/i18n", env={})
    assert loaded.config.locales.namespaces == "file"
    assert "apps/web/package.json" in loaded.findings["locales.namespaces"].origin
