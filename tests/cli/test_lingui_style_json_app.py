"""A Lingui app whose catalogs are JSON of `@lingui/format-json`'s `lingui` style (each id →
`{message, comments, origin, translation}`), through the real CLI with zero config: each entry
is one key whose value is its `translation`, every command edits that field only (or the whole
entry, when it adds or removes one), and every other byte of the file stays.

The ids are those Lingui gave these messages in real catalogs (`VHOVEJ` is "Connect wallet");
the entries are laid out as `lingui extract` writes them (its `mergeCatalog`: the extracted
fields, then `translation`; an entry no code has any more gets `obsolete: true`)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_lingui_json_app import APP, lingui_config
from tests.conftest import write_tree

CONFIG = lingui_config("lingui")


def entry(message: str, translation: str, line: int | None, **more: object) -> dict[str, object]:
    origin = [["src/Wallet.tsx", line]] if line is not None else []
    return {
        "message": message,
        "comments": [],
        "origin": origin,
        **more,
        "translation": translation,
    }


# "deposit-2" (oF+vss) is a message no code has any more; "Rocket" (2e2I/O) is not there yet.
# The source's "Disconnect" has an empty translation (read as its message); German lacks
# `wallet.title` and has not translated "Disconnect" yet.
ENGLISH = {
    "VHOVEJ": entry("Connect wallet", "Connect wallet", 3),
    "+K0AvT": entry("Disconnect", "", 7),
    "gGUeZH": entry("my message", "my message", 6, context="custom context"),
    "wallet.title": entry("Wallet", "Wallet", 8),
    "oF+vss": {**entry("deposit-2", "deposit-2", None), "obsolete": True},
}
GERMAN = {
    "VHOVEJ": entry("Connect wallet", "Wallet verbinden", 3),
    "+K0AvT": entry("Disconnect", "", 7),
    "gGUeZH": entry("my message", "meine Nachricht", 6, context="custom context"),
    "oF+vss": {**entry("deposit-2", "Einzahlung-2", None), "obsolete": True},
}
# A new entry of the source has the layout of the file's first entry, its lists empty and
# `message` left to `lingui extract`; a target's copies the source's entry, as Lingui's do.
NEW = {"comments": [], "origin": []}


def copied(key: str, translation: str) -> dict[str, object]:
    return {**ENGLISH[key], "translation": translation}


def catalog_text(entries: dict[str, object]) -> str:
    """A catalog as the app's files spell it: four spaces, non-ASCII as it is, a final
    newline."""
    return json.dumps(entries, indent=4, ensure_ascii=False) + "\n"


def style_app(root: Path, english: dict[str, object] = ENGLISH) -> Path:
    return write_tree(
        root,
        {
            "package.json": json.dumps(
                {"dependencies": {"@lingui/core": "5.6.0", "@lingui/format-json": "5.6.0"}}
            ),
            "lingui.config.ts": CONFIG,
            "src/Wallet.tsx": APP,
            "src/locales/en/messages.json": catalog_text(english),
            "src/locales/de/messages.json": catalog_text(GERMAN),
        },
    )


def english_text(root: Path) -> str:
    return (root / "src/locales/en/messages.json").read_text()


def german_text(root: Path) -> str:
    return (root / "src/locales/de/messages.json").read_text()


def test_validate_reads_one_key_per_entry(tmp_path, run_cli):
    root = style_app(tmp_path / "app")
    result = run_cli("validate", "--json", cwd=root)
    assert result.envelope["data"]["missing"] == ["2e2I/O"]
    listed = run_cli("locales", "list", "--json", cwd=root)
    counts = {entry["code"]: entry for entry in listed.envelope["data"]["locales"]}
    assert (counts["en"]["keys"], counts["de"]["keys"]) == (5, 4)
    assert counts["de"]["placeholders"] == 1  # "Disconnect", not translated yet


def test_missing_adds_an_entry_shaped_like_the_others(tmp_path, run_cli):
    root = style_app(tmp_path / "app")
    result = run_cli("missing", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["paths"] == ["2e2I/O"]
    assert english_text(root) == catalog_text(
        {**ENGLISH, "2e2I/O": {**NEW, "translation": "Rocket"}}
    )
    assert german_text(root) == catalog_text(GERMAN)


def test_sync_adds_the_entry_a_target_lacks_and_prunes_the_unused_one(tmp_path, run_cli):
    root = style_app(tmp_path / "app")
    result = run_cli("sync", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    expected = {key: value for key, value in GERMAN.items() if key != "oF+vss"}
    expected["wallet.title"] = copied("wallet.title", "Wallet")  # the source text, as sync fills
    assert german_text(root) == catalog_text(expected)
    assert english_text(root) == catalog_text(ENGLISH)


def test_generate_fills_the_translation_only(tmp_path, run_cli):
    root = style_app(tmp_path / "app")
    result = run_cli("generate", "--provider", "pseudo", "--all", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    german = json.loads(german_text(root))
    # The source's empty translation reads as its message, which is what is translated.
    disconnect, title = german["+K0AvT"]["translation"], german["wallet.title"]["translation"]
    assert "Ðíšçóññéçţ" in disconnect and "Ŵáļļéţ" in title
    expected = {
        **GERMAN,
        "+K0AvT": {**GERMAN["+K0AvT"], "translation": disconnect},
        "wallet.title": copied("wallet.title", title),
    }
    assert list(german) == ["VHOVEJ", "+K0AvT", "gGUeZH", "wallet.title", "oF+vss"]
    assert german_text(root) == catalog_text({key: expected[key] for key in german})


def test_cleanup_offers_and_removes_the_whole_entry_no_code_makes(tmp_path, run_cli):
    root = style_app(tmp_path / "app")
    dry = run_cli("cleanup", "--dry-run", "--json", cwd=root)
    assert dry.code == 0, dry.stdout
    assert dry.envelope["data"]["keys"] == ["oF+vss"]
    assert english_text(root) == catalog_text(ENGLISH)
    result = run_cli("cleanup", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert english_text(root) == catalog_text(
        {key: value for key, value in ENGLISH.items() if key != "oF+vss"}
    )


def test_cleanup_refuses_a_catalog_with_a_field_lingui_does_not_write(tmp_path, run_cli):
    # Read as one key per field (`VHOVEJ.translation`), no key of it could be trusted unused.
    english = {**ENGLISH, "VHOVEJ": {**ENGLISH["VHOVEJ"], "reviewer": "kim"}}
    root = style_app(tmp_path / "app", english)
    result = run_cli("cleanup", "--yes", "--json", cwd=root)
    assert result.code != 0
    assert any("`lingui`-style JSON" in i["message"] for i in result.envelope["issues"])
    assert english_text(root) == catalog_text(english)


def test_sync_fills_an_empty_target_as_a_catalog_of_the_same_style(tmp_path, run_cli):
    root = style_app(tmp_path / "app")
    (root / "src/locales/de/messages.json").write_text("{}\n")
    result = run_cli("sync", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    texts = {"VHOVEJ": "Connect wallet", "+K0AvT": "Disconnect", "gGUeZH": "my message"}
    texts["wallet.title"] = "Wallet"
    expected = {key: copied(key, text) for key, text in texts.items()}
    assert german_text(root) == catalog_text(expected)
