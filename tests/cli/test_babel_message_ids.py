"""A react-intl app whose message ids babel-plugin-react-intl-auto derives, through the real
CLI: `config` names where the options came from, and options that cannot be read make the ids
unknown — nothing is reported missing on them and nothing is removed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.app_shapes import FORMATJS_AUTO_IDS
from tests.conftest import write_tree

# The same app with its options where only running the config would find them.
DYNAMIC_CONFIG = {
    **{name: text for name, text in FORMATJS_AUTO_IDS.items() if name != ".babelrc"},
    "babel.config.js": (
        "const prefix = process.env.INTL_PREFIX || 'src/'\n"
        "module.exports = {\n"
        "  presets: ['@babel/preset-react'],\n"
        "  plugins: [['react-intl-auto', { removePrefix: prefix }]],\n"
        "}\n"
    ),
}


def locale_bytes(root: Path) -> bytes:
    return (root / "translations/en.json").read_bytes()


def test_config_shows_the_plugins_options_and_their_file(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", FORMATJS_AUTO_IDS)

    result = run_cli("config", "--json", cwd=root)

    assert result.code == 0, result.stdout
    (scope,) = result.envelope["data"]["messageIds"]
    assert scope["folder"] == "src"
    assert scope["config"] == ".babelrc"
    assert scope["options"]["removePrefix"] == "src/"
    assert scope["problem"] is None


def test_unreadable_options_stop_cleanup_naming_the_config(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", DYNAMIC_CONFIG)
    before = locale_bytes(root)

    result = run_cli("cleanup", "--yes", "--json", cwd=root)

    assert result.code == 1, result.stdout
    envelope = result.envelope
    assert envelope["ok"] is False
    assert envelope["data"]["removed"] == 0
    unknown = next(
        i for i in envelope["issues"] if i["code"] == "i18nprune.scan.message_ids_unknown"
    )
    assert unknown["path"] == "babel.config.js"
    assert "babel.config.js: the expression `process.env.INTL_PREFIX" in unknown["message"]
    refusal = next(
        i for i in envelope["issues"] if i["code"] == "i18nprune.scan.incomplete_evidence"
    )
    assert refusal["severity"] == "error"
    assert "FormatJS message site(s) are unknown" in refusal["message"]
    assert "options (babel.config.js) cannot be read" in refusal["message"]
    codes = {issue["code"] for issue in envelope["issues"]}
    assert "i18nprune.reference.unprotected_dynamic_keys" not in codes
    assert locale_bytes(root) == before


@pytest.mark.slow
def test_unreadable_options_prove_no_key_missing(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", DYNAMIC_CONFIG)

    result = run_cli("validate", "--json", cwd=root)

    assert result.envelope["data"]["missing"] == []
    (scope,) = run_cli("config", "--json", cwd=root).envelope["data"]["messageIds"]
    assert scope["options"] is None and scope["config"] == "babel.config.js"


def test_sync_keeps_every_target_key_while_ids_are_unknown(tmp_path, run_cli):
    fr = {key: f"fr {text}" for key, text in FORMATJS_AUTO_IDS["translations/en.json"].items()}
    root = write_tree(tmp_path / "app", {**DYNAMIC_CONFIG, "translations/fr.json": fr})

    result = run_cli("sync", "--json", cwd=root)

    assert result.envelope["ok"] is False
    assert json.loads((root / "translations/fr.json").read_text()) == fr


def test_force_removes_and_says_what_was_risked(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", DYNAMIC_CONFIG)

    result = run_cli("cleanup", "--dry-run", "--force", "--json", cwd=root)

    risked = next(
        i for i in result.envelope["issues"] if i["code"] == "i18nprune.scan.incomplete_evidence"
    )
    assert risked["severity"] == "warning"
    assert risked["message"].startswith("--force: the ids at")


def test_messages_without_ids_and_no_plugin_are_not_keys_built_at_run_time(tmp_path, run_cli):
    files = {
        name: text
        for name, text in FORMATJS_AUTO_IDS.items()
        if name not in (".babelrc", "package.json")
    }
    root = write_tree(tmp_path / "app", files)

    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    issues = {issue["code"]: issue["message"] for issue in result.envelope["issues"]}
    assert "i18nprune.scan.messages_without_id" in issues
    assert "8 FormatJS message site(s) have no `id`" in issues["i18nprune.scan.messages_without_id"]
    # The uses of those messages (`{...messages.title}`) are dynamic; the declarations are not.
    assert issues["i18nprune.reference.unprotected_dynamic_keys"].startswith("4 key site(s)")
    assert "check `src` and `functions`" not in issues["i18nprune.cleanup.nothing_proven"]
