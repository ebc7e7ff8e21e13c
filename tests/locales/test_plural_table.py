"""`plural_table` is Babel's own plural data, generated: while the Babel it was generated from is
installed, it answers exactly what Babel answers, for every catalog code; with another Babel the
catalog asks Babel instead.

Regenerate it after a Babel upgrade: `python tests/locales/test_plural_table.py`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from i18nprune.locales import catalog, plural_table
from i18nprune.system.installed import dist_info
from tests.conftest import modules_after

TABLE_FILE = Path(catalog.__file__).with_name("plural_table.py")


def installed_babel() -> str:
    info = dist_info("babel")
    assert info is not None, "Babel is installed from a wheel here"
    return os.path.basename(info).removesuffix(".dist-info").lower()


def from_babel() -> dict[str, tuple[str, str]]:
    """Every catalog code's cardinal and ordinal categories, as Babel computes them."""
    table: dict[str, tuple[str, str]] = {}
    for key, identifier in sorted(catalog._identifiers().items()):
        ordinal = catalog.babel_ordinal_categories(key)
        assert ordinal is not None, key
        table[key] = (" ".join(catalog._plural_rules(identifier)), " ".join(ordinal))
    return table


def render(babel: str, table: dict[str, tuple[str, str]]) -> str:
    lines = [
        '"""CLDR plural categories of every catalog code, generated from Babel\'s data by',
        "`python tests/locales/test_plural_table.py` (do not edit): normalised code →",
        "(cardinal categories, ordinal categories), each in CLDR order. `catalog` uses it only",
        'while the Babel named here is the one installed."""',
        "",
        f'BABEL = "{babel}"',
        "CATEGORIES: dict[str, tuple[str, str]] = {",
        *(
            f'    "{key}": ("{cardinal}", "{ordinal}"),'
            for key, (cardinal, ordinal) in table.items()
        ),
        "}",
        "",
    ]
    return "\n".join(lines)


def test_the_table_is_what_the_installed_babel_computes() -> None:
    if installed_babel() != plural_table.BABEL:
        pytest.skip(
            f"generated from {plural_table.BABEL}, {installed_babel()} is installed: the catalog "
            "asks Babel (regenerate: python tests/locales/test_plural_table.py)"
        )
    assert from_babel() == plural_table.CATEGORIES
    assert catalog._plural_table() is plural_table.CATEGORIES


def test_answers_are_babel_s_for_catalog_regional_and_unknown_codes() -> None:
    codes = [*catalog._identifiers(), "en-XX", "pt-br", "zh-Hant-TW", "sr-Latn", "xx", "", "de-"]
    with_table = [
        (
            catalog.plural_categories(code),
            catalog.ordinal_categories(code),
            catalog.is_known_language(code),
        )
        for code in codes
    ]
    catalog._plural_table.cache_clear()
    catalog.ordinal_categories.cache_clear()
    original, plural_table.BABEL = plural_table.BABEL, "babel-0.0.0"
    try:
        assert catalog._plural_table() is None
        from_babel_now = [
            (
                catalog.plural_categories(code),
                catalog.ordinal_categories(code),
                catalog.is_known_language(code),
            )
            for code in codes
        ]
    finally:
        plural_table.BABEL = original
        catalog._plural_table.cache_clear()
        catalog.ordinal_categories.cache_clear()
    assert with_table == from_babel_now


def test_a_plural_look_up_does_not_import_babel() -> None:
    if installed_babel() != plural_table.BABEL:
        pytest.skip("the table is for another Babel")
    loaded = modules_after(
        "from i18nprune.locales.catalog import (\n"
        "    is_known_language, ordinal_categories, plural_categories)\n"
        "assert plural_categories('fr') == ['one', 'many', 'other']\n"
        "assert ordinal_categories('en') == ('one', 'two', 'few', 'other')\n"
        "assert is_known_language('pt-BR')\n"
    )
    assert "i18nprune.locales.catalog" in loaded
    assert sorted(name for name in loaded if name.split(".")[0] == "babel") == []


if __name__ == "__main__":
    TABLE_FILE.write_text(render(installed_babel(), from_babel()))
    print(f"wrote {TABLE_FILE}")
