"""A Flutter app's ARB files through the real CLI, with no config: found, validated, synced and
translated in their own layout; `cleanup` refuses, since the Dart code that uses them is not
read."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import write_tree

EN = (
    "{\n"
    '  "@@locale": "en",\n'
    '  "appTitle": "Shelf",\n'
    '  "@appTitle": {"description": "The title bar"},\n'
    '  "itemCount": "{count, plural, =0{No books} =1{One book} other{{count} books}}",\n'
    '  "@itemCount": {"placeholders": {"count": {"type": "int"}}},\n'
    '  "greeting": "Hello {name}",\n'
    '  "@greeting": {"placeholders": {"name": {}}}\n'
    "}\n"
)
DE = '{\n  "@@locale": "de",\n  "appTitle": "Regal",\n  "oldKey": "Alt"\n}\n'


def flutter_app(root: Path) -> Path:
    return write_tree(
        root,
        {
            "pubspec.yaml": "name: shelf\nflutter:\n  generate: true\n",
            "l10n.yaml": "arb-dir: lib/l10n\ntemplate-arb-file: app_en.arb\n",
            "lib/main.dart": (
                "import 'package:flutter_gen/gen_l10n/app_localizations.dart';\n"
                "Text title(context) => Text(AppLocalizations.of(context)!.appTitle);\n"
            ),
            "lib/l10n/app_en.arb": EN,
            "lib/l10n/app_de.arb": DE,
        },
    )


def test_sync_fills_a_target_in_its_own_layout_and_drops_what_the_source_lost(tmp_path, run_cli):
    root = flutter_app(tmp_path / "shelf")
    result = run_cli("sync", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["writtenFiles"] == ["lib/l10n/app_de.arb"]
    german = json.loads((root / "lib/l10n/app_de.arb").read_text())
    assert list(german) == ["@@locale", "appTitle", "itemCount", "greeting"]
    assert german["appTitle"] == "Regal" and german["@@locale"] == "de"


def test_generate_makes_a_prefixed_target_naming_its_locale(tmp_path, run_cli):
    root = flutter_app(tmp_path / "shelf")
    result = run_cli("generate", "--target", "fr", "--provider", "pseudo", "--json", cwd=root)
    assert result.code == 0, result.stdout
    french = json.loads((root / "lib/l10n/app_fr.arb").read_text())
    assert list(french) == ["@@locale", "appTitle", "itemCount", "greeting"]
    assert french["@@locale"] == "fr"
    assert "{count, plural," in french["itemCount"] and "{name}" in french["greeting"]
    assert not any(key.startswith("@") and key != "@@locale" for key in french)


def test_cleanup_refuses_because_dart_is_not_read(tmp_path, run_cli):
    root = flutter_app(tmp_path / "shelf")
    before = (root / "lib/l10n/app_en.arb").read_bytes()
    result = run_cli("cleanup", "--yes", "--force", "--json", cwd=root)
    assert result.code == 1, result.stdout
    refusal = next(
        issue
        for issue in result.envelope["issues"]
        if issue["code"] == "i18nprune.reference.thin_evidence"
    )
    assert "lib/l10n/app_en.arb" in refusal["message"] and "Dart" in refusal["message"]
    assert (root / "lib/l10n/app_en.arb").read_bytes() == before
