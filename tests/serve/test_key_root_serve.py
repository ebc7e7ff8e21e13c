"""Editor ops over serve on locale files whose keys live under `mappings` (`locales.root`):
definitions point into that object, and a set key lands there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.app_shapes import WRAPPED_KEYS, WRAPPED_KEYS_SOURCE
from tests.conftest import write_tree
from tests.serve.conftest import ServeFactory

pytestmark = pytest.mark.slow

FRENCH = (
    '{\n  "version": 3,\n  "mappings": {\n    "home": {\n      "title": "Accueil"\n    }\n  }\n}\n'
)


def test_op_key_gives_values_and_definitions_below_the_root(
    serve: ServeFactory, tmp_path: Path
) -> None:
    root = write_tree(tmp_path / "app", {**WRAPPED_KEYS, "locales/fr.json": FRENCH})
    server = serve("--project", str(root))

    data = server.key("home.title")["data"]

    assert data["values"] == {"en": "Home", "fr": "Accueil"}
    assert {(d["locale"], d["line"], d["column"]) for d in data["definitions"]} == {
        ("en", 6, 7),
        ("fr", 5, 7),
    }


def test_op_key_set_writes_inside_the_root_and_nowhere_else(
    serve: ServeFactory, tmp_path: Path
) -> None:
    root = write_tree(tmp_path / "app", WRAPPED_KEYS)
    server = serve("--project", str(root), "--allow-writes")

    envelope = server.set_key("nav.help", "en", "Help")

    assert envelope["ok"] is True, envelope["issues"]
    text = (root / "locales/en.json").read_text("utf-8")
    assert text.startswith(WRAPPED_KEYS_SOURCE[: WRAPPED_KEYS_SOURCE.index('"mappings"')])
    assert json.loads(text)["mappings"]["nav"] == {"back": "Back", "help": "Help"}
    assert "nav" not in json.loads(text)
