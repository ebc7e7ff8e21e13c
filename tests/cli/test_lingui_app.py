"""A Lingui app (macros, `lingui.config.ts`, PO catalogs) through the real CLI with zero
config: its messages are read as Lingui's extractor writes them, so `validate` reports exactly
the missing message, and `cleanup` and `sync` act on the one message no code uses."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import write_tree

HEADER = 'msgid ""\nmsgstr ""\n"Language: {}\\n"\n'
USED = [
    ("", "Welcome back, {name}"),
    ("", "Read the <0>guide</0> first"),
    ("", "{count, plural, one {# file} other {# files}}"),
    ("button", "Open"),
    ("", "settings.title"),
]


def catalog(language: str, extra: str) -> str:
    entries = "".join(
        (f'\nmsgctxt "{context}"\n' if context else "\n") + f'msgid "{text}"\nmsgstr "{text}"\n'
        for context, text in USED
    )
    return HEADER.format(language) + entries + extra


def lingui_app(root: Path) -> Path:
    stale = '\nmsgid "Nobody says this"\nmsgstr "{}"\n'
    return write_tree(
        root,
        {
            "package.json": json.dumps({"dependencies": {"@lingui/core": "5.6.0"}}),
            "lingui.config.ts": (
                "export default { sourceLocale: 'en', locales: ['en', 'de'],\n"
                "  catalogs: [{ path: '<rootDir>/src/locales/{locale}/messages',\n"
                "    include: ['src'] }] };\n"
            ),
            "src/App.tsx": (
                "import { Trans, Plural, useLingui } from '@lingui/react/macro';\n"
                "import { msg } from '@lingui/core/macro';\n"
                "const title = msg({ id: 'settings.title', message: 'Settings' });\n"
                "export function App({ name, count }) {\n"
                "  const { t, _ } = useLingui();\n"
                "  return <main title={_(title)}>\n"
                "    <h1>{t`Welcome back, ${name}`}</h1>\n"
                "    <Trans>Read the <a href='/guide'>guide</a> first</Trans>\n"
                "    <Plural value={count} one='# file' other='# files' />\n"
                "    <button>{t({ message: 'Open', context: 'button' })}</button>\n"
                "    <p>{t`Not in the catalog yet`}</p>\n"
                "  </main>;\n}\n"
            ),
            "src/locales/en/messages.po": catalog("en", stale.format("Nobody says this")),
            "src/locales/de/messages.po": catalog("de", stale.format("Niemand")),
        },
    )


def test_validate_reports_exactly_the_message_the_catalog_lacks(tmp_path, run_cli):
    root = lingui_app(tmp_path / "app")
    result = run_cli("validate", "--json", cwd=root)
    assert result.envelope["data"]["missing"] == ["Not in the catalog yet"]


def test_cleanup_offers_exactly_the_message_no_code_uses(tmp_path, run_cli):
    root = lingui_app(tmp_path / "app")
    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["keys"] == ["Nobody says this"]


def test_cleanup_removes_it_from_the_source_catalog(tmp_path, run_cli):
    root = lingui_app(tmp_path / "app")
    result = run_cli("cleanup", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    text = (root / "src/locales/en/messages.po").read_text()
    # no key any more, kept as an obsolete entry as Lingui's extractor keeps one
    assert '\nmsgid "Nobody says this"' not in text
    assert '\n#~ msgid "Nobody says this"' in text
    assert 'msgctxt "button"\nmsgid "Open"' in text
    assert 'msgid "Read the <0>guide</0> first"' in text


def test_sync_prunes_the_unused_message_from_the_target_only(tmp_path, run_cli):
    root = lingui_app(tmp_path / "app")
    result = run_cli("sync", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    german = (root / "src/locales/de/messages.po").read_text()
    assert '\nmsgid "Nobody says this"' not in german
    # the translation is kept, obsolete
    assert '\n#~ msgid "Nobody says this"\n#~ msgstr "Niemand"\n' in german
    assert 'msgid "{count, plural, one {# file} other {# files}}"' in german
    assert "Nobody says this" in (root / "src/locales/en/messages.po").read_text()
