"""`op.quality` and `op.review` against a real server: quality is a read op (a read-only session
answers it, marks included); review is a write op, refused without `--allow-writes` and clearing
marks with it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write_tree
from tests.serve.conftest import ServeFactory

pytestmark = pytest.mark.slow

FR = """{
  "greeting": {
    "value": "Bonjour",
    "needsReview": true
  },
  "save": {
    "value": "Enregistrer",
    "needsReview": true
  }
}
"""


def project(root: Path) -> Path:
    files: dict[str, Any] = {
        "i18nprune.config.json": {
            "locales": {"source": "en", "directory": "locales"},
            "src": "src",
        },
        "src/app.ts": "t('greeting')\n",
        "locales/en.json": {"greeting": "Hello, {{name}}!", "save": "Save"},
        "locales/fr.json": FR,
    }
    return write_tree(root, files)


def test_quality_answers_in_a_read_only_session_with_findings_and_marks(
    serve: ServeFactory, tmp_path: Path
) -> None:
    root = project(tmp_path)
    server = serve("--project", str(root))
    envelope = server.request("op.quality", {"options": {"target": "fr"}}).unwrap()
    assert envelope["kind"] == "quality" and envelope["ok"] is False
    found = [(f["path"], f["kind"]) for f in envelope["data"]["findings"]]
    assert found == [
        ("greeting", "placeholders"),
        ("greeting", "needs_review"),
        ("save", "needs_review"),
    ]
    assert (root / "locales/fr.json").read_text() == FR


def test_review_is_refused_in_a_read_only_session(serve: ServeFactory, tmp_path: Path) -> None:
    root = project(tmp_path)
    server = serve("--project", str(root))
    for options in ({}, {"accept": "all", "target": "fr", "yes": True}):
        response = server.request("op.review", {"options": options})
        assert response.error is not None, response.raw
        assert response.error.data["code"] == "SERVE_WRITES_DISABLED"
    assert (root / "locales/fr.json").read_text() == FR


def test_review_with_allow_writes_lists_then_accepts(serve: ServeFactory, tmp_path: Path) -> None:
    root = project(tmp_path)
    server = serve("--project", str(root), "--allow-writes")
    listed = server.request("op.review", {"options": {}}).unwrap()
    assert [m["path"] for m in listed["data"]["marks"]] == ["greeting", "save"]
    unconfirmed = server.request(
        "op.review", {"options": {"accept": ["save"], "target": "fr"}}
    ).unwrap()
    assert unconfirmed["ok"] is False
    assert unconfirmed["issues"][0]["code"] == "i18nprune.cli.confirmation_required"
    assert (root / "locales/fr.json").read_text() == FR
    accepted = server.request(
        "op.review", {"options": {"accept": "save", "target": "fr", "yes": True}}
    ).unwrap()
    assert accepted["ok"] is True and accepted["data"]["accepted"] == 1
    assert (root / "locales/fr.json").read_text() == FR.replace(
        '"Enregistrer",\n    "needsReview": true', '"Enregistrer"'
    )
    again = server.request("op.review", {"options": {}}).unwrap()
    assert [m["path"] for m in again["data"]["marks"]] == ["greeting"]
