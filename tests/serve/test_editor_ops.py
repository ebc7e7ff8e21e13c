"""Editor ops over serve (PROTOCOL §12): completion by prefix, setting one leaf."""

from __future__ import annotations

import json
from pathlib import Path

from i18nprune.envelope import Code
from tests.serve.conftest import ServeFactory


def test_op_keys_completes_source_keys_by_prefix_with_their_texts(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project))

    data = server.request("op.keys", {"options": {"prefix": "header."}}).unwrap()["data"]

    assert data == {
        "keys": [
            {"key": "header.greeting", "value": "Hello, {{name}}!"},
            {"key": "header.signOut", "value": "Sign out"},
            {"key": "header.welcome", "value": "Good to see you <1>again</1>."},
        ],
        "complete": True,
    }


def test_op_keys_says_when_the_limit_cut_the_list(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project))

    data = server.keys(limit=2)["data"]  # the client's helper

    assert [entry["key"] for entry in data["keys"]] == ["cart.items_one", "cart.items_other"]
    assert data["complete"] is False


def test_op_key_set_changes_one_leaf_and_keeps_the_rest_of_the_file(
    serve: ServeFactory, example_project: Path
) -> None:
    fr = example_project / "locales" / "fr.json"
    before = fr.read_text("utf-8")
    server = serve("--project", str(example_project), "--allow-writes")

    envelope = server.request(
        "op.key.set", {"options": {"key": "nav.home", "locale": "fr", "value": "Début"}}
    ).unwrap()

    assert envelope["ok"] is True, envelope["issues"]
    assert envelope["data"]["file"] == "locales/fr.json"
    assert envelope["data"]["changed"] is True
    after = fr.read_text("utf-8")
    assert json.loads(after)["nav"]["home"] == "Début"
    changed = [
        (old, new)
        for old, new in zip(before.splitlines(), after.splitlines(), strict=True)
        if old != new
    ]
    assert len(changed) == 1 and "Début" in changed[0][1]


def test_op_key_set_adds_a_new_key_beside_its_siblings(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project), "--allow-writes")

    envelope = server.set_key("nav.help", "en", "Help")

    assert envelope["ok"] is True, envelope["issues"]
    document = json.loads((example_project / "locales" / "en.json").read_text("utf-8"))
    assert list(document["nav"]) == ["home", "settings", "help"]


def test_op_key_set_is_refused_in_a_read_only_session(
    serve: ServeFactory, example_project: Path
) -> None:
    fr = example_project / "locales" / "fr.json"
    before = fr.read_bytes()
    server = serve("--project", str(example_project))

    response = server.request(
        "op.key.set", {"options": {"key": "nav.home", "locale": "fr", "value": "x"}}
    )

    assert response.error is not None
    assert response.error.data["code"] == "SERVE_WRITES_DISABLED"
    assert fr.read_bytes() == before


def test_op_key_set_refuses_a_locale_outside_the_catalog(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project), "--allow-writes")

    envelope = server.request(
        "op.key.set", {"options": {"key": "nav.home", "locale": "xx-nope", "value": "x"}}
    ).unwrap()

    assert envelope["ok"] is False
    assert envelope["issues"][0]["code"] == Code.UNSUPPORTED_LANGUAGE
    assert not list((example_project / "locales").glob("xx*"))


def test_op_key_set_never_rewrites_a_locale_file_that_does_not_parse(
    serve: ServeFactory, example_project: Path
) -> None:
    fr = example_project / "locales" / "fr.json"
    fr.write_text('{"nav": {"home": "Accueil",}}\n', "utf-8")
    before = fr.read_bytes()
    server = serve("--project", str(example_project), "--allow-writes")

    envelope = server.request(
        "op.key.set", {"options": {"key": "nav.home", "locale": "fr", "value": "x"}}
    ).unwrap()

    assert envelope["ok"] is False
    assert fr.read_bytes() == before


def test_op_key_set_in_a_new_locale_creates_its_file(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project), "--allow-writes")

    envelope = server.request(
        "op.key.set", {"options": {"key": "home.title", "locale": "de", "value": "Willkommen"}}
    ).unwrap()

    assert envelope["ok"] is True, envelope["issues"]
    assert envelope["data"]["file"] == "locales/de.json"
    document = json.loads((example_project / "locales" / "de.json").read_text("utf-8"))
    assert document == {"home": {"title": "Willkommen"}}
