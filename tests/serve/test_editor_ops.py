"""Editor ops over serve (docs/serve.md#editor-ops): completion by prefix, setting one leaf."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from i18nprune.envelope import Code
from tests.serve.conftest import ServeFactory


@pytest.mark.slow
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


@pytest.mark.slow
def test_op_keys_says_when_the_limit_cut_the_list(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project))

    data = server.keys(limit=2)["data"]  # the client's helper

    assert [entry["key"] for entry in data["keys"]] == ["cart.items_one", "cart.items_other"]
    assert data["complete"] is False


@pytest.mark.slow
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


@pytest.mark.slow
def test_op_key_set_adds_a_new_key_beside_its_siblings(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project), "--allow-writes")

    envelope = server.set_key("nav.help", "en", "Help")

    assert envelope["ok"] is True, envelope["issues"]
    document = json.loads((example_project / "locales" / "en.json").read_text("utf-8"))
    assert list(document["nav"]) == ["home", "settings", "help"]


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
def test_op_key_set_refuses_an_array_item_past_the_end_and_writes_nothing(
    serve: ServeFactory, example_project: Path
) -> None:
    fr = example_project / "locales" / "fr.json"
    fr.write_text('{"steps": ["Un"]}\n', "utf-8")
    server = serve("--project", str(example_project), "--allow-writes")

    envelope = server.request(
        "op.key.set", {"options": {"key": "steps[2]", "locale": "fr", "value": "Trois"}}
    ).unwrap()

    assert envelope["ok"] is False
    [issue] = envelope["issues"]
    assert issue["code"] == Code.KEY_NO_PLACE and "steps[2]" in issue["message"]
    assert fr.read_text("utf-8") == '{"steps": ["Un"]}\n'


@pytest.mark.slow
def test_op_key_set_in_a_new_locale_creates_its_file_when_asked(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project), "--allow-writes")

    options = {"key": "home.title", "locale": "de", "value": "Willkommen", "create": True}
    envelope = server.request("op.key.set", {"options": options}).unwrap()

    assert envelope["ok"] is True, envelope["issues"]
    assert envelope["data"]["file"] == "locales/de.json"
    document = json.loads((example_project / "locales" / "de.json").read_text("utf-8"))
    assert document == {"home": {"title": "Willkommen"}}


@pytest.mark.slow
def test_op_file_reports_sites_and_a_missing_key_at_its_range(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project))

    data = server.file("src/App.tsx")["data"]

    assert data["path"] == "src/App.tsx"
    by_key = {site["key"]: site for site in data["sites"]}
    assert by_key["home.title"]["status"] == "ok"  # through the KEYS constant
    assert by_key["cart.items"]["status"] == "ok"  # its plural forms exist
    assert by_key["footer.copyright"] == {
        "key": "footer.copyright",
        "range": {"line": 15, "column": 16, "endLine": 15, "endColumn": 37},
        "status": "missing",
    }
    [dynamic] = [site for site in data["sites"] if site["status"] == "dynamic"]
    assert dynamic["range"]["line"] == 13 and dynamic["prefix"] == "nav."
    [missing] = [d for d in data["diagnostics"] if d["severity"] == "error"]
    assert missing == {
        "range": {"line": 15, "column": 16, "endLine": 15, "endColumn": 37},
        "severity": "error",
        "code": Code.VALIDATE_MISSING,
        "message": "`footer.copyright` is missing from the source locale `en`",
        "key": "footer.copyright",
    }


@pytest.mark.slow
def test_op_file_scans_the_unsaved_buffer_instead_of_the_disk(
    serve: ServeFactory, example_project: Path
) -> None:
    app = example_project / "src" / "App.tsx"
    on_disk = app.read_bytes()
    buffer = on_disk.decode("utf-8").replace("footer.copyright", "home.title")
    buffer += "export const Late = () => t('late.key');\n"
    server = serve("--project", str(example_project))

    data = server.file("src/App.tsx", text=buffer)["data"]

    missing = [site["key"] for site in data["sites"] if site["status"] == "missing"]
    assert missing == ["late.key"]
    assert app.read_bytes() == on_disk
    # the disk's version is still what a later request without the buffer sees
    again = server.file("src/App.tsx")["data"]
    assert [s["key"] for s in again["sites"] if s["status"] == "missing"] == ["footer.copyright"]


@pytest.mark.slow
def test_op_file_says_when_a_buffer_is_not_a_source_file(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project))

    envelope = server.file("notes.txt", text="t('a.b')")

    assert envelope["data"]["sites"] == []
    assert Code.SCAN_NOT_A_SOURCE_FILE in [issue["code"] for issue in envelope["issues"]]


def test_op_file_refuses_a_path_outside_the_root(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project))

    envelope = server.file("../elsewhere.tsx")

    assert envelope["ok"] is False
    assert envelope["issues"][0]["code"] == Code.PATH_OUTSIDE_ROOT


@pytest.mark.slow
def test_op_key_by_name_gives_values_definitions_and_usages(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project))

    data = server.key("nav.home")["data"]

    assert data["key"] == "nav.home"
    assert data["values"] == {"en": "Home", "fr": "Accueil"}
    assert {(d["locale"], d["file"], d["line"]) for d in data["definitions"]} == {
        ("en", "locales/en.json", 7),
        ("fr", "locales/fr.json", 6),
    }


@pytest.mark.slow
def test_op_key_sees_a_locale_file_edited_between_two_lookups(
    serve: ServeFactory, example_project: Path
) -> None:
    # A server keeps the locale views between lookups: an edit must still be seen.
    server = serve("--project", str(example_project))
    assert server.key("nav.home")["data"]["values"]["fr"] == "Accueil"
    french = example_project / "locales/fr.json"
    document = json.loads(french.read_text())
    document["nav"]["home"] = "Maison"
    french.write_text(json.dumps({"added": "first", **document}, ensure_ascii=False, indent=2))

    data = server.key("nav.home")["data"]

    assert data["values"] == {"en": "Home", "fr": "Maison"}
    assert [d["line"] for d in data["definitions"] if d["locale"] == "fr"] == [7]


@pytest.mark.slow
def test_op_key_by_position_finds_the_key_under_the_cursor(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project))

    data = server.key(path="src/App.tsx", line=14, column=20)["data"]

    assert data["key"] == "cart.items"
    assert data["values"]["en"] == "{{count}} items in your cart"  # its `_other` form
    assert data["values"]["fr"] is None
    assert data["usages"] == [
        {"file": "src/App.tsx", "range": {"line": 14, "column": 11, "endLine": 14, "endColumn": 37}}
    ]


@pytest.mark.slow
def test_op_key_of_an_unknown_key_is_an_error_issue(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project))

    envelope = server.key("no.such.key")

    assert envelope["ok"] is False
    assert envelope["issues"][-1]["code"] == Code.KEY_NOT_FOUND


@pytest.mark.slow
def test_op_key_set_in_a_locale_without_a_file_writes_nothing_unless_asked_to_create(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project), "--allow-writes")
    before = sorted(path.name for path in (example_project / "locales").iterdir())

    envelope = server.request(
        "op.key.set", {"options": {"key": "home.title", "locale": "de", "value": "Willkommen"}}
    ).unwrap()

    assert envelope["ok"] is False
    [issue] = [i for i in envelope["issues"] if i["severity"] == "error"]
    assert issue["code"] == Code.KEY_NO_FILE
    assert issue["message"] == (
        "de has no file for `home.title` (locales/de.json would be created): set "
        "`create: true` to create it"
    )
    assert envelope["data"]["file"] is None
    assert sorted(path.name for path in (example_project / "locales").iterdir()) == before


@pytest.mark.slow
def test_op_key_set_never_writes_a_file_spelling_a_key_twice(
    serve: ServeFactory, example_project: Path
) -> None:
    fr = example_project / "locales" / "fr.json"
    fr.write_text('{\n  "nav": {"home": "Accueil"},\n  "nav": {"settings": "Réglages"}\n}\n')
    before = fr.read_bytes()
    server = serve("--project", str(example_project), "--allow-writes")

    envelope = server.request(
        "op.key.set", {"options": {"key": "nav.home", "locale": "fr", "value": "Début"}}
    ).unwrap()

    assert envelope["ok"] is False
    assert envelope["issues"][0]["message"].startswith(
        'locales/fr.json:3:3: duplicate key "nav", first at locales/fr.json:2:3'
    )
    assert fr.read_bytes() == before


@pytest.mark.slow
def test_a_missing_required_option_is_invalid_params_naming_it(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project))

    response = server.request("op.file", {"options": {"text": "t('a')"}})

    assert response.error is not None
    assert response.error.code == -32602
    assert response.error.data["key"] == "path"
    assert "option `path` is required" in response.error.message
