"""sync, cleanup, missing and locales delete, run as the real executable on temp projects."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import write_tree


def read(path: Path) -> dict:
    return json.loads(path.read_text())


# --- sync -------------------------------------------------------------------------------------


@pytest.mark.slow
def test_sync_dry_run_reports_and_writes_nothing(example_project, run_cli):
    fr = example_project / "locales/fr.json"
    before = fr.read_bytes()
    result = run_cli("sync", "--dry-run", "--json", cwd=example_project)
    assert result.code == 0, result.stdout
    data = result.envelope["data"]
    assert data["dryRun"] is True and data["writtenFiles"] == []
    assert data["files"] == [{"path": "locales/fr.json", "changed": True, "added": 6, "removed": 1}]
    assert fr.read_bytes() == before


@pytest.mark.slow
def test_sync_adds_template_keys_in_source_order_and_prunes_extras(example_project, run_cli):
    result = run_cli("sync", "--json", cwd=example_project)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["writtenFiles"] == ["locales/fr.json"]
    fr = read(example_project / "locales/fr.json")
    assert list(fr) == ["home", "nav", "header", "cart", "settings"]
    assert fr["home"] == {
        "title": "Bienvenue chez Acme",
        "subtitle": "Everything you need, in one place",
    }
    assert fr["nav"] == {"home": "Accueil", "settings": "Settings"}
    assert list(fr["header"]) == ["greeting", "welcome", "signOut"]
    assert fr["cart"] == {
        "items_one": "{{count}} item in your cart",
        "items_other": "{{count}} items in your cart",
    }
    assert "obsolete" not in fr and "legacy" not in fr
    suggestions = {s["id"] for s in result.envelope["data"]["suggestions"]}
    assert suggestions == {"suggest.missing.literal_keys", "suggest.cleanup.source_unused"}


@pytest.mark.slow
def test_sync_twice_leaves_the_file_untouched(example_project, run_cli):
    run_cli("sync", "--json", cwd=example_project)
    fr = example_project / "locales/fr.json"
    stat = fr.stat()
    again = run_cli("sync", "--json", cwd=example_project)
    assert again.envelope["data"]["writtenFiles"] == []
    assert fr.stat().st_mtime_ns == stat.st_mtime_ns and fr.stat().st_ino == stat.st_ino


@pytest.mark.slow
def test_sync_metadata_adds_pending_structured_leaves(example_project, run_cli):
    run_cli("sync", "--metadata", "--json", cwd=example_project)
    fr = read(example_project / "locales/fr.json")
    assert fr["home"]["subtitle"] == {
        "value": "Everything you need, in one place",
        "status": "pending",
        "needsTranslationAgain": True,
    }
    assert fr["home"]["title"] == "Bienvenue chez Acme"


@pytest.mark.slow
def test_sync_strip_metadata_turns_structured_leaves_into_strings(example_project, run_cli):
    run_cli("sync", "--metadata", "--json", cwd=example_project)
    run_cli("sync", "--strip-metadata", "--json", cwd=example_project)
    fr = read(example_project / "locales/fr.json")
    assert fr["home"]["subtitle"] == "Everything you need, in one place"


@pytest.mark.slow
def test_sync_reports_invalid_target_json_and_leaves_it_untouched(example_project, run_cli):
    fr = example_project / "locales/fr.json"
    fr.write_text('{"home": {"title": "x",}}\n')
    before = fr.read_bytes()
    result = run_cli("sync", "--json", cwd=example_project)
    assert result.code == 1
    issue = next(
        i for i in result.envelope["issues"] if i["code"] == "i18nprune.locale.invalid_json"
    )
    assert "locales/fr.json:1:" in issue["message"]
    assert fr.read_bytes() == before


@pytest.mark.slow
def test_sync_unknown_target_is_an_error(example_project, run_cli):
    result = run_cli("sync", "--target", "de", "--json", cwd=example_project)
    assert result.code == 2  # a usage error
    codes = [i["code"] for i in result.envelope["issues"]]
    assert "i18nprune.locale.target_not_found" in codes


@pytest.mark.slow
def test_sync_creates_counterpart_segments_in_directory_layout(tmp_path, run_cli):
    root = write_tree(
        tmp_path / "p",
        {
            "i18nprune.config.json": {
                "locales": {
                    "directory": "messages",
                    "mode": "locale_directory",
                    "structure": "locale_per_dir",
                }
            },
            "src/a.ts": "t('common.ok'); t('auth.title');",
            "messages/en/common.json": {"common": {"ok": "OK"}},
            "messages/en/auth.json": {"auth": {"title": "Log in"}},
            "messages/de/common.json": {"common": {"ok": "OK!"}},
        },
    )
    result = run_cli("sync", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert read(root / "messages/de/auth.json") == {"auth": {"title": "Log in"}}
    assert read(root / "messages/de/common.json") == {"common": {"ok": "OK!"}}


@pytest.mark.slow
def test_sync_preserves_indentation_and_missing_final_newline(example_project, run_cli):
    fr = example_project / "locales/fr.json"
    fr.write_text(json.dumps({"home": {"title": "Bienvenue"}}, indent="\t", ensure_ascii=False))
    run_cli("sync", "--json", cwd=example_project)
    text = fr.read_text()
    assert text.startswith('{\n\t"home"') and not text.endswith("\n")


# --- cleanup ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_cleanup_dry_run_lists_unused_keys_but_protects_dynamic_prefixes(example_project, run_cli):
    result = run_cli("cleanup", "--dry-run", "--json", cwd=example_project)
    assert result.code == 0, result.stdout
    data = result.envelope["data"]
    assert data["keys"] == ["errors.unused", "legacy.banner"]
    assert data["wouldRemove"] == 2 and data["removed"] == 0
    assert data["uncertainPrefixes"] == ["nav."]


@pytest.mark.slow
def test_cleanup_without_yes_in_json_mode_writes_nothing(example_project, run_cli):
    en = example_project / "locales/en.json"
    before = en.read_bytes()
    result = run_cli("cleanup", "--json", cwd=example_project)
    assert result.code == 1
    codes = [i["code"] for i in result.envelope["issues"]]
    assert "i18nprune.cli.confirmation_required" in codes
    assert en.read_bytes() == before


@pytest.mark.slow
def test_cleanup_with_yes_removes_keys_and_emptied_parents(example_project, run_cli):
    result = run_cli("cleanup", "--json", "--yes", cwd=example_project)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["removed"] == 2
    en = read(example_project / "locales/en.json")
    assert "legacy" not in en and "errors" not in en
    assert en["nav"] == {"home": "Home", "settings": "Settings"}


def test_cleanup_allow_policy_removes_paths_under_dynamic_prefixes(example_project, run_cli):
    config = read(example_project / "i18nprune.config.json")
    config["reference"] = {"commands": {"cleanup": {"uncertainKeyPolicy": "allow"}}}
    (example_project / "i18nprune.config.json").write_text(json.dumps(config))
    result = run_cli("cleanup", "--dry-run", "--json", cwd=example_project)
    assert "nav.settings" in result.envelope["data"]["keys"]


@pytest.mark.slow
def test_cleanup_keeps_preserved_keys_numbers_and_booleans(make_project, run_cli):
    root = make_project(
        {
            "i18nprune.config.json": {"policies": {"preserve": {"copyKeys": ["meta.keep"]}}},
            "src/a.ts": "t('used');",
            "locales/en.json": '{\n  "used": "x",\n  "meta": {"keep": "k", "drop": "d"},\n'
            '  "flag": true,\n  "n": 1.50\n}\n',
        }
    )
    result = run_cli("cleanup", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    text = (root / "locales/en.json").read_text()
    assert '"keep": "k"' in text and '"drop"' not in text
    assert "1.50" in text and "true" in text


@pytest.mark.slow
def test_cleanup_target_mode_cleans_targets_only(example_project, run_cli):
    result = run_cli("cleanup", "--target", "fr", "--yes", "--json", cwd=example_project)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["keys"] == ["obsolete.key"]
    assert "obsolete" not in read(example_project / "locales/fr.json")
    assert "legacy" in read(example_project / "locales/en.json")


@pytest.mark.slow
def test_cleanup_ask_without_a_terminal_needs_yes(example_project, run_cli):
    result = run_cli("cleanup", "--ask", "--json", cwd=example_project)
    assert result.code == 1
    message = next(
        i["message"]
        for i in result.envelope["issues"]
        if i["code"] == "i18nprune.cli.confirmation_required"
    )
    assert "--ask" in message


# --- missing ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_missing_dry_run_lists_keys(example_project, run_cli):
    result = run_cli("missing", "--dry-run", "--json", cwd=example_project)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["paths"] == ["footer.copyright", "settings.search"]
    assert "footer" not in read(example_project / "locales/en.json")


@pytest.mark.slow
def test_missing_adds_placeholders_with_yes(example_project, run_cli):
    result = run_cli("missing", "--yes", "--json", cwd=example_project)
    assert result.code == 0, result.stdout
    en = read(example_project / "locales/en.json")
    assert en["footer"]["copyright"] == "__I18NPRUNE_MISSING__"
    assert en["settings"]["search"] == "__I18NPRUNE_MISSING__"
    validate = run_cli("validate", "--json", cwd=example_project)
    assert validate.envelope["data"]["missing"] == []


@pytest.mark.slow
def test_missing_without_yes_is_gated(example_project, run_cli):
    result = run_cli("missing", "--json", cwd=example_project)
    assert result.code == 1
    assert "footer" not in read(example_project / "locales/en.json")


@pytest.mark.slow
def test_missing_adds_plural_forms_the_locale_needs(make_project, run_cli):
    root = make_project(
        {
            "src/a.ts": "t('cart.items', { count: n });",
            "locales/en.json": {},
            "locales/pl.json": {},
        }
    )
    run_cli("missing", "--target", "pl", "--yes", "--json", cwd=root)
    pl = read(root / "locales/pl.json")
    assert sorted(pl["cart"]) == ["items_few", "items_many", "items_one", "items_other"]


@pytest.mark.slow
def test_missing_in_flat_file_keeps_flat_style(make_project, run_cli):
    root = make_project({"src/a.ts": "t('a.b'); t('a.c');"})
    (root / "locales").mkdir()
    (root / "locales/en.json").write_text('{\n  "a.b": "B"\n}\n')
    run_cli("missing", "--yes", "--json", cwd=root)
    assert json.loads((root / "locales/en.json").read_text()) == {
        "a.b": "B",
        "a.c": "__I18NPRUNE_MISSING__",
    }


# --- locales delete ---------------------------------------------------------------------------


def test_locales_delete_refuses_the_source_locale(example_project, run_cli):
    result = run_cli("locales", "delete", "--target", "en", "--yes", "--json", cwd=example_project)
    assert result.code == 2  # a usage error
    codes = [i["code"] for i in result.envelope["issues"]]
    assert "i18nprune.locale.target_is_source" in codes
    assert (example_project / "locales/en.json").exists()


@pytest.mark.slow
def test_locales_delete_requires_a_target(example_project, run_cli):
    result = run_cli("locales", "delete", "--json", cwd=example_project)
    assert result.code == 2
    assert result.envelope["issues"][0]["code"] == "i18nprune.locale.target_required"


@pytest.mark.slow
def test_locales_delete_needs_yes_then_deletes(example_project, run_cli):
    gated = run_cli("locales", "delete", "--target", "fr", "--json", cwd=example_project)
    assert gated.code == 1
    assert (example_project / "locales/fr.json").exists()
    done = run_cli("locales", "delete", "--target", "fr", "--yes", "--json", cwd=example_project)
    assert done.code == 0, done.stdout
    assert done.envelope["data"]["deleted"] == ["locales/fr.json"]
    assert not (example_project / "locales/fr.json").exists()


@pytest.mark.slow
def test_locales_delete_never_deletes_source_in_directory_layouts(tmp_path, run_cli):
    root = write_tree(
        tmp_path / "p",
        {
            "i18nprune.config.json": {
                "locales": {
                    "directory": "m",
                    "mode": "locale_directory",
                    "structure": "feature_bundle",
                    "source": "en",
                }
            },
            "m/auth/en.json": {"a": "b"},
            "m/auth/fr.json": {"a": "c"},
        },
    )
    result = run_cli("locales", "delete", "--target", "EN", "--yes", "--json", cwd=root)
    assert result.code == 2  # a usage error
    assert (root / "m/auth/en.json").exists() and (root / "m/auth/fr.json").exists()
