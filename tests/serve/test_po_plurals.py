"""`serve` on a gettext app: a plural entry's form is set in place through `op.key.set`; the
entry's own key is no place for a text."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_gettext_plurals import POLISH, USER, gettext_app
from tests.serve.conftest import ServeFactory

CONFIG = {
    "locales": {
        "source": "en",
        "directory": "po",
        "mode": "flat_file",
        "structure": "locale_file",
        "keySeparator": False,
        "nsSeparator": False,
    },
    "src": ["app"],
}


def configured(root: Path) -> Path:
    gettext_app(root)
    (root / "i18nprune.config.json").write_text(json.dumps(CONFIG))
    return root


def test_op_key_set_sets_one_form_of_a_plural_entry(serve: ServeFactory, tmp_path: Path) -> None:
    root = configured(tmp_path / "app")
    server = serve("--project", str(root), "--allow-writes")
    options = {"key": f"{USER}[1]", "locale": "pl", "value": "{count} użytkownicy"}
    envelope = server.request("op.key.set", {"options": options}).unwrap()
    assert envelope["ok"] is True, envelope["issues"]
    assert (root / "po/pl.po").read_text() == POLISH.replace(
        'msgstr[1] ""', 'msgstr[1] "{count} użytkownicy"'
    )


def test_op_key_set_refuses_the_key_of_a_plural_entry(serve: ServeFactory, tmp_path: Path) -> None:
    root = configured(tmp_path / "app")
    server = serve("--project", str(root), "--allow-writes")
    options = {"key": USER, "locale": "pl", "value": "{count} użytkownik"}
    envelope = server.request("op.key.set", {"options": options}).unwrap()
    assert envelope["ok"] is False
    assert [issue["code"] for issue in envelope["issues"]] == ["i18nprune.key.no_place"]
    assert (root / "po/pl.po").read_text() == POLISH
