"""`language_names` is Babel's own naming data, generated: while it and `plural_table` were
generated from the Babel installed, `languages` and `doctor` list exactly the rows Babel gives,
without loading every locale's data; with another Babel the catalog asks Babel instead.

Regenerate it after a Babel upgrade: `python -m tests.locales.test_language_names` (and
`python tests/locales/test_plural_table.py`).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from i18nprune.locales import catalog, language_names, plural_table
from tests.conftest import modules_after
from tests.locales.test_plural_table import installed_babel

TABLE_FILE = Path(catalog.__file__).with_name("language_names.py")


def from_babel() -> dict[str, tuple[str, str, str, str]]:
    """Every catalog code's row as Babel builds it: code, English, native name, direction."""
    rows = (catalog._row(identifier) for identifier in catalog._identifiers().values())
    ordered = sorted(rows, key=lambda row: catalog.normalize_code(row.code))
    return {
        catalog.normalize_code(row.code): (row.code, row.english, row.native, row.direction)
        for row in ordered
    }


def render(babel: str, table: dict[str, tuple[str, str, str, str]]) -> str:
    lines = [
        '"""Names and direction of every catalog code, generated from Babel\'s data (do not edit;',
        "regenerate: `python -m tests.locales.test_language_names`): normalised code → (BCP 47",
        "code, English name, native name, direction), in catalog order. `catalog` uses it only",
        'while the Babel named here (and in `plural_table`) is the one installed."""',
        "",
        "# ruff: noqa: E501 (names are data, kept whole)",
        "",
        f'BABEL = "{babel}"',
        "NAMES: dict[str, tuple[str, str, str, str]] = {",
        *(f"    {key!r}: {row!r}," for key, row in table.items()),
        "}",
        "",
    ]
    return "\n".join(lines)


def _for_installed_babel() -> None:
    if installed_babel() != language_names.BABEL or installed_babel() != plural_table.BABEL:
        pytest.skip(
            f"generated from {language_names.BABEL}, {installed_babel()} is installed: the "
            "catalog asks Babel (regenerate: python -m tests.locales.test_language_names)"
        )


@pytest.mark.slow
def test_the_table_is_what_the_installed_babel_computes() -> None:
    _for_installed_babel()
    assert from_babel() == language_names.NAMES
    assert catalog._names_table() is language_names.NAMES


def test_rows_and_look_ups_are_babel_s_with_or_without_the_table() -> None:
    _for_installed_babel()
    codes = [*catalog._identifiers(), "pt_br", "zh-TW", "fr-US", "en-ZZ", "xx", "", "de-"]
    with_table = (
        catalog.all_languages(),
        catalog.filter_languages("fr"),
        [catalog.find_language(code) for code in codes],
    )
    catalog._names_table.cache_clear()
    catalog._all_rows.cache_clear()
    original, language_names.BABEL = language_names.BABEL, "babel-0.0.0"
    try:
        assert catalog._names_table() is None
        from_babel_now = (
            catalog.all_languages(),
            catalog.filter_languages("fr"),
            [catalog.find_language(code) for code in codes],
        )
    finally:
        language_names.BABEL = original
        catalog._names_table.cache_clear()
        catalog._all_rows.cache_clear()
    assert with_table == from_babel_now


def test_listing_every_language_does_not_import_babel() -> None:
    _for_installed_babel()
    loaded = modules_after(
        "from i18nprune.locales.catalog import all_languages, filter_languages, find_language\n"
        "rows = all_languages()\n"
        "assert len(rows) > 1000 and rows[0].code == 'aa'\n"
        "assert filter_languages('pt-br')[0].english == 'Portuguese (Brazil)'\n"
        "assert find_language('ar').direction == 'rtl'\n"
    )
    assert "i18nprune.locales.language_names" in loaded
    assert sorted(name for name in loaded if name.split(".")[0] == "babel") == []


if __name__ == "__main__":
    TABLE_FILE.write_text(render(installed_babel(), from_babel()))
    subprocess.run([sys.executable, "-m", "ruff", "format", str(TABLE_FILE)], check=True)
    print(f"wrote {TABLE_FILE}")
