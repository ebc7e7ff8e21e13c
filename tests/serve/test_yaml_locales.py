"""`serve` on an app with YAML locale files: definitions at their lines, one leaf set in place."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import write_tree
from tests.serve.conftest import ServeFactory

SOURCE = "# English\nen:\n  nav:\n    home: Home   # the first tab\n    about: About\n"
TARGET = "fr:\n  nav:\n    home: Accueil\n"


def app(root: Path) -> Path:
    return write_tree(
        root,
        {
            "i18nprune.config.json": {"src": ["src"], "locales": {"directory": "locales"}},
            "src/nav.ts": "import i18next from 'i18next';\ni18next.t('nav.home');\n",
            "locales/en.yml": SOURCE,
            "locales/fr.yml": TARGET,
        },
    )


def test_op_key_names_definitions_in_yaml_files_at_their_lines(
    serve: ServeFactory, tmp_path: Path
) -> None:
    server = serve("--project", str(app(tmp_path / "app")))
    data = server.key("nav.home")["data"]
    assert data["values"] == {"en": "Home", "fr": "Accueil"}
    assert {(d["file"], d["line"], d["column"]) for d in data["definitions"]} == {
        ("locales/en.yml", 4, 5),
        ("locales/fr.yml", 3, 5),
    }


def test_op_key_set_changes_one_yaml_leaf_and_keeps_the_rest(
    serve: ServeFactory, tmp_path: Path
) -> None:
    root = app(tmp_path / "app")
    server = serve("--project", str(root), "--allow-writes")
    envelope = server.request(
        "op.key.set", {"options": {"key": "nav.home", "locale": "en", "value": "Start"}}
    ).unwrap()
    assert envelope["ok"] is True, envelope["issues"]
    assert envelope["data"]["file"] == "locales/en.yml"
    assert (root / "locales/en.yml").read_text() == SOURCE.replace("Home ", "Start")
