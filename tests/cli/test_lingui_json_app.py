"""A Lingui app whose catalogs are JSON keyed by the ids Lingui generates of messages
(`@lingui/format-json`, `minimal` style), through the real CLI with zero config: each message
is found by its generated id, a message the catalog lacks is reported by the id it would have
with its text beside it, and `cleanup` offers exactly the entry no code makes — and refuses
while a Lingui message of the project is not read. Catalogs of the `lingui` style are
`test_lingui_style_json_app`'s.

The ids in the catalogs are those Lingui gave these messages in real catalogs (`VHOVEJ` is
"Connect wallet"), not computed here."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import write_tree


def lingui_config(style: str) -> str:
    """A Lingui config with one catalog per locale in `@lingui/format-json`'s `style`."""
    return (
        "import { defineConfig } from '@lingui/cli'\n"
        "import { formatter } from '@lingui/format-json'\n"
        "export default defineConfig({ locales: ['en', 'de'], sourceLocale: 'en',\n"
        f"  format: formatter({{ style: '{style}' }}),\n"
        "  catalogs: [{ path: 'src/locales/{locale}/messages', include: ['src'] }] })\n"
    )


CONFIG = lingui_config("minimal")
APP = (
    "import { Trans, useLingui } from '@lingui/react/macro';\n"
    "import { msg } from '@lingui/core/macro';\n"
    "const connect = msg`Connect wallet`;\n"
    "export function Wallet({ connected }) {\n"
    "  const { t, _ } = useLingui();\n"
    "  return <div title={t({ message: 'my message', context: 'custom context' })}>\n"
    "    {connected ? <Trans>Disconnect</Trans> : _(connect)}\n"
    "    <h1>{t({ id: 'wallet.title', message: 'Wallet' })}</h1>\n"
    "    <p>{t`Rocket`}</p>\n"
    "  </div>;\n}\n"
)
# Generated ids: "Connect wallet", "Disconnect", "my message" in the context "custom context";
# "deposit-2" (oF+vss) is a message no code has any more; "Rocket" (2e2I/O) is not there yet.
ENGLISH = {
    "VHOVEJ": "Connect wallet",
    "+K0AvT": "Disconnect",
    "gGUeZH": "my message",
    "wallet.title": "Wallet",
    "oF+vss": "deposit-2",
}
GERMAN = {
    "VHOVEJ": "Wallet verbinden",
    "+K0AvT": "Trennen",
    "gGUeZH": "meine Nachricht",
    "wallet.title": "Wallet",
    "oF+vss": "Einzahlung-2",
}


def json_app(root: Path, english: object = ENGLISH, german: object = GERMAN) -> Path:
    return write_tree(
        root,
        {
            "package.json": json.dumps(
                {"dependencies": {"@lingui/core": "5.6.0", "@lingui/format-json": "5.6.0"}}
            ),
            "lingui.config.ts": CONFIG,
            "src/Wallet.tsx": APP,
            "src/locales/en/messages.json": json.dumps(english, indent=2, ensure_ascii=False),
            "src/locales/de/messages.json": json.dumps(german, indent=2, ensure_ascii=False),
        },
    )


def test_validate_reports_the_missing_message_by_its_generated_id_and_text(tmp_path, run_cli):
    root = json_app(tmp_path / "app")
    result = run_cli("validate", "--json", cwd=root)
    assert result.envelope["data"]["missing"] == ["2e2I/O"]
    (issue,) = [i for i in result.envelope["issues"] if i["code"].endswith("missing_literal_keys")]
    assert "2e2I/O ('Rocket')" in issue["message"]


def test_cleanup_offers_exactly_the_entry_no_code_makes(tmp_path, run_cli):
    root = json_app(tmp_path / "app")
    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["keys"] == ["oF+vss"]


def test_cleanup_removes_it_and_sync_keeps_the_rest(tmp_path, run_cli):
    root = json_app(tmp_path / "app")
    result = run_cli("cleanup", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    english = json.loads((root / "src/locales/en/messages.json").read_text())
    assert english == {key: text for key, text in ENGLISH.items() if key != "oF+vss"}
    result = run_cli("sync", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    german = json.loads((root / "src/locales/de/messages.json").read_text())
    assert german == {key: text for key, text in GERMAN.items() if key != "oF+vss"}


def test_cleanup_refuses_while_a_lingui_message_is_not_read(tmp_path, run_cli):
    root = json_app(tmp_path / "app")
    (root / "src/Computed.tsx").write_text(
        "import { t } from '@lingui/core/macro';\n"
        "export const label = (key) => t({ id: key, message: 'Some text' });\n"
    )
    result = run_cli("cleanup", "--yes", "--json", cwd=root)
    assert result.code != 0
    assert result.envelope["data"]["removed"] == 0
    refusal = [i for i in result.envelope["issues"] if "JSON files" in i["message"]]
    assert refusal and "src/Computed.tsx:2" in refusal[0]["message"]
    english = json.loads((root / "src/locales/en/messages.json").read_text())
    assert english == ENGLISH


def test_a_catalog_of_another_format_beside_is_no_locale_file(tmp_path, run_cli):
    # An older PO catalog left beside the JSON ones that `lingui.config.ts` names: its
    # entries (keyed by message) are neither read nor pruned.
    root = json_app(tmp_path / "app")
    stale = 'msgid ""\nmsgstr ""\n"Language: de\\n"\n\nmsgid "Disconnect"\nmsgstr "Trennen"\n'
    (root / "src/locales/de/messages.po").write_text(stale)
    config = run_cli("config", "--json", cwd=root)
    assert config.envelope["data"]["config"]["locales"]["format"] == "json"
    result = run_cli("sync", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert [entry["path"] for entry in result.envelope["data"]["files"]] == [
        "src/locales/de/messages.json"
    ]
    assert (root / "src/locales/de/messages.po").read_text() == stale


def test_missing_adds_the_generated_id_with_its_message(tmp_path, run_cli):
    root = json_app(tmp_path / "app")
    result = run_cli("missing", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["paths"] == ["2e2I/O"]
    assert result.envelope["data"]["messages"] == {"2e2I/O": "Rocket"}
    english = json.loads((root / "src/locales/en/messages.json").read_text())
    assert english == {**ENGLISH, "2e2I/O": "Rocket"}
