"""`serve` on an Angular app with XLIFF files: definitions at each unit's id, one target set in
place with the rest of the file kept."""

from __future__ import annotations

from pathlib import Path

from tests.cli.test_xliff_locale_apps import FRENCH, LOCALE, SOURCE, angular_app
from tests.serve.conftest import ServeFactory


def test_op_key_names_definitions_in_xliff_files_at_their_unit_ids(
    serve: ServeFactory, tmp_path: Path
) -> None:
    server = serve("--project", str(angular_app(tmp_path / "shop")))
    data = server.key("nav.home")["data"]
    assert data["values"] == {"en-us": "Home", "fr": "Accueil"}
    assert {(d["file"], d["line"], d["column"]) for d in data["definitions"]} == {
        (f"{LOCALE}/messages.xlf", 5, 22),
        (f"{LOCALE}/messages.fr.xlf", 6, 22),
    }


def test_op_key_set_changes_one_target_and_keeps_the_rest(
    serve: ServeFactory, tmp_path: Path
) -> None:
    root = angular_app(tmp_path / "shop")
    server = serve("--project", str(root), "--allow-writes")
    envelope = server.request(
        "op.key.set", {"options": {"key": "nav.home", "locale": "fr", "value": "Maison"}}
    ).unwrap()
    assert envelope["ok"] is True, envelope["issues"]
    assert envelope["data"]["file"] == f"{LOCALE}/messages.fr.xlf"
    assert (root / LOCALE / "messages.fr.xlf").read_text() == FRENCH.replace(
        ">Accueil<", ">Maison<"
    )
    assert (root / LOCALE / "messages.xlf").read_text() == SOURCE
