"""Code generators' insertion points in locale files (JHipster's `jhipster-needle-*` keys): no
code reads them, and the generator's next run needs them — kept by `cleanup` and `sync`, copied
to targets untranslated by `generate`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import write_tree

ANCHOR = "jhipster-needle-menu-add-element"
NOTE = "JHipster will add additional menu entries here (do not translate!)"
APP = {
    "i18nprune.config.json": {
        "locales": {"directory": "i18n", "mode": "locale_directory", "structure": "locale_per_dir"}
    },
    "src/app.ts": "t('global.menu.home');\nt('global.title');\n",
    "i18n/en/global.json": {
        "global": {"title": "Title", "old": "Old", "menu": {"home": "Home", ANCHOR: NOTE}}
    },
}


@pytest.mark.slow
def test_an_anchor_is_never_a_cleanup_candidate(tmp_path: Path, run_cli) -> None:
    root = write_tree(tmp_path, APP)

    envelope = run_cli("cleanup", "--dry-run", "--json", cwd=root).envelope

    assert envelope["data"]["keys"] == ["global.old"]


def test_generate_copies_an_anchor_untranslated(tmp_path: Path, run_cli) -> None:
    root = write_tree(tmp_path, APP)

    result = run_cli("generate", "--target", "fr", "--provider", "pseudo", cwd=root)

    assert result.code == 0, result.stderr
    written = json.loads((root / "i18n/fr/global.json").read_text())
    assert written["global"]["menu"][ANCHOR] == NOTE
    assert written["global"]["menu"]["home"] != "Home"  # the rest is translated
