"""A Lingui-shaped app's PO catalogs through the real CLI: read, synced and translated entry by
entry with every other byte kept; `cleanup` refuses and `sync` prunes nothing the source has
while a Lingui message's id is not known (an `id` the code computes)."""

from __future__ import annotations

from pathlib import Path

from i18nprune.locales.documents import read_locale_tree
from tests.conftest import write_tree

HEADER = 'msgid ""\nmsgstr ""\n"Language: {}\\n"\n"X-Generator: @lingui/cli\\n"\n'
EN = HEADER.format("en") + (
    '\n#: src/App.tsx\nmsgid "Welcome back"\nmsgstr "Welcome back"\n'
    '\n#: src/Inbox.tsx\nmsgid "You have {count} messages"\nmsgstr "You have {count} messages"\n'
    '\n#: src/Old.tsx\nmsgid "Only used by a macro"\nmsgstr "Only used by a macro"\n'
)
DE = HEADER.format("de") + (
    '\n#: src/App.tsx\nmsgid "Welcome back"\nmsgstr "Willkommen zurück"\n'
    '\n#, fuzzy\n#: src/Inbox.tsx\nmsgid "You have {count} messages"\nmsgstr "Du hast {count}"\n'
    '\nmsgid "Only used by a macro"\nmsgstr ""\n'
    '\n#: src/Gone.tsx\nmsgid "Removed from the source"\nmsgstr "Entfernt"\n'
)


def lingui_app(root: Path) -> Path:
    return write_tree(
        root,
        {
            "i18nprune.config.json": {
                "src": ["src"],
                "locales": {
                    "directory": "src/locales",
                    "mode": "locale_directory",
                    "structure": "locale_per_dir",
                    "keySeparator": False,
                    "nsSeparator": False,
                },
            },
            "src/App.tsx": (
                "import { t } from '@lingui/core/macro';\n"
                "export const title = (key: string) => t({ id: key, message: 'Welcome back' });\n"
            ),
            "src/locales/en/messages.po": EN,
            "src/locales/de/messages.po": DE,
        },
    )


def test_sync_fills_untranslated_entries_and_keeps_every_source_key(tmp_path, run_cli):
    root = lingui_app(tmp_path / "app")
    result = run_cli("sync", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    text = (root / "src/locales/de/messages.po").read_text()
    assert text == DE.replace(
        'msgid "Only used by a macro"\nmsgstr ""\n',
        'msgid "Only used by a macro"\nmsgstr "Only used by a macro"\n',
    ).replace(
        '\n#: src/Gone.tsx\nmsgid "Removed from the source"\nmsgstr "Entfernt"\n',
        '\n#~ msgid "Removed from the source"\n#~ msgstr "Entfernt"\n',
    )


def test_review_lists_the_fuzzy_entry(tmp_path, run_cli):
    root = lingui_app(tmp_path / "app")
    result = run_cli("review", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert "You have {count} messages" in result.stdout


def test_generate_makes_a_catalog_with_the_sources_header_for_its_language(tmp_path, run_cli):
    root = lingui_app(tmp_path / "app")
    result = run_cli("generate", "--target", "fr", "--provider", "pseudo", "--json", cwd=root)
    assert result.code == 0, result.stdout
    text = (root / "src/locales/fr/messages.po").read_text()
    assert text.startswith(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"X-Generator: @lingui/cli\\n"\n'
    )
    french = read_locale_tree(root / "src/locales/fr/messages.po", "fr")
    assert set(french) == {"Welcome back", "You have {count} messages", "Only used by a macro"}
    assert "{count}" in str(french["You have {count} messages"])


def test_cleanup_refuses_while_a_message_id_is_not_known(tmp_path, run_cli):
    root = lingui_app(tmp_path / "app")
    before = (root / "src/locales/en/messages.po").read_bytes()
    result = run_cli("cleanup", "--yes", "--force", "--json", cwd=root)
    assert result.code == 1, result.stdout
    assert any(
        issue["code"] == "i18nprune.reference.thin_evidence" and "PO files" in issue["message"]
        for issue in result.envelope["issues"]
    )
    assert (root / "src/locales/en/messages.po").read_bytes() == before
