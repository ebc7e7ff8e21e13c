"""Near twins through the real CLI: the code asks for `player.subtitles_tracks` while the locales
hold the translated, unused `player.subtitle_tracks`. `validate` reports the pair as one finding
with both fixes, `cleanup` and `sync` keep the twin and its translations, `missing` does not add
an empty key beside it, and no tip leads to deleting it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write_tree

# A React Native app in streamyfin's shape: react-i18next, one JSON file per language.
PLAYER = (
    "import { useTranslation } from 'react-i18next';\n"
    "export function VideoDebugInfo({ status }) {\n"
    "  const { t } = useTranslation();\n"
    "  return [\n"
    "    t('player.subtitles_tracks'),\n"
    "    t('player.audio_tracks'),\n"
    "    t('home.downloads.toasts.server_responded_with_status', { status }),\n"
    "    t('player.playback_speed'),\n"
    "  ];\n"
    "}\n"
)
ACCOUNT = (
    "import { useTranslation } from 'react-i18next';\n"
    "export function AccountMoreButton() {\n"
    "  const { t } = useTranslation();\n"
    "  return [t('actions.more'), t('action.more'), t('home.title'), t('home.subtitle'),\n"
    "    t('player.subtitles_tracks')];\n"
    "}\n"
)
EN = {
    "home": {
        "title": "Home",
        "downloads": {"toasts": {"server_responded_with_status_code": "Server said {{status}}"}},
    },
    "player": {
        "subtitle_tracks": "Subtitle tracks",
        "audio_tracks": "Audio tracks",
        "playback_speed": "Playback speed",
        "old_label": "A label nobody shows",
    },
    "action": {"more": "More"},
}
FR = {
    "home": {
        "title": "Accueil",
        "downloads": {"toasts": {"server_responded_with_status_code": "Le serveur a dit"}},
    },
    "player": {
        "subtitle_tracks": "Pistes de sous-titres",
        "audio_tracks": "Pistes audio",
        "playback_speed": "Vitesse de lecture",
        "old_label": "Une étiquette",
    },
    "action": {"more": "Plus"},
}
DE = {
    "player": {"subtitle_tracks": "Untertitelspuren", "audio_tracks": "Audiospuren"},
    "action": {"more": "Mehr"},
}
TWIN = "player.subtitle_tracks"
STATUS_TWIN = "home.downloads.toasts.server_responded_with_status_code"


def _app(root: Path, **extra: Any) -> Path:
    config: dict[str, Any] = {"src": "app", "locales": {"directory": "translations"}}
    config.update(extra)
    return write_tree(
        root,
        {
            "i18nprune.config.json": config,
            "app/components/vlc/VideoDebugInfo.tsx": PLAYER,
            "app/components/account/AccountMoreButton.tsx": ACCOUNT,
            "translations/en.json": EN,
            "translations/fr.json": FR,
            "translations/de.json": DE,
        },
    )


def _read(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


def _issues(envelope: dict[str, Any], code: str) -> list[dict[str, Any]]:
    return [issue for issue in envelope["issues"] if issue["code"] == code]


def test_validate_reports_each_pair_as_one_finding_with_both_fixes(tmp_path, run_cli):
    root = _app(tmp_path / "app")

    result = run_cli("validate", "--json", cwd=root)

    assert result.code == 1
    data = result.envelope["data"]
    assert data["missing"] == [
        "actions.more",
        "home.downloads.toasts.server_responded_with_status",
        "home.subtitle",
        "player.subtitles_tracks",
    ]
    pairs = {pair["key"]: pair for pair in data["nearTwins"]}
    assert {key: (pair["twin"], pair["twinUnused"]) for key, pair in pairs.items()} == {
        "actions.more": ("action.more", False),
        "home.downloads.toasts.server_responded_with_status": (STATUS_TWIN, True),
        "player.subtitles_tracks": (TWIN, True),
    }
    assert [(site["file"], site["line"]) for site in pairs["player.subtitles_tracks"]["sites"]] == [
        ("app/components/account/AccountMoreButton.tsx", 5),
        ("app/components/vlc/VideoDebugInfo.tsx", 5),
    ]
    findings = {
        issue["message"].split("`")[1]: issue
        for issue in _issues(result.envelope, "i18nprune.validate.near_twin")
    }
    assert set(findings) == set(pairs)
    twin = findings["player.subtitles_tracks"]
    assert twin["severity"] == "error"
    assert twin["path"] == "app/components/account/AccountMoreButton.tsx"
    assert twin["message"].startswith("app/components/account/AccountMoreButton.tsx:5:")
    assert "(and 1 more site(s))" in twin["message"]
    assert f"change the code to `{TWIN}`" in twin["message"]
    assert f"rename `{TWIN}` to `player.subtitles_tracks` in every locale file" in twin["message"]
    used = findings["actions.more"]["message"]
    assert "change the code to `action.more` if that is the key it means" in used
    assert "in every locale file" not in used
    # The missing keys without a twin keep their own finding; the paired ones are not repeated.
    (alone,) = _issues(result.envelope, "i18nprune.validate.missing_literal_keys")
    assert alone["message"].endswith(": home.subtitle")


def test_validate_tips_name_the_rename_and_count_without_the_twins(tmp_path, run_cli):
    root = _app(tmp_path / "app")

    result = run_cli("validate", "--json", cwd=root)

    tips = {tip["id"]: tip for tip in result.envelope["data"]["suggestions"]}
    rename = tips["suggest.rename.near_twin"]["message"]
    assert "rename the key in every locale file or change the code" in rename
    assert "add the 2 missing key(s)" in tips["suggest.missing.literal_keys"]["message"]
    # `player.old_label` is the one key cleanup offers; the twins are not counted.
    assert tips["suggest.cleanup.source_unused"]["message"].startswith("1 source key(s)")


def test_validate_people_see_the_pair_on_one_line(tmp_path, run_cli):
    root = _app(tmp_path / "app")

    result = run_cli("validate", "--no-color", cwd=root)

    assert "4 key(s) missing from `en`:" in result.stdout
    assert "3 of them with a near twin in the source:" in result.stdout
    assert (
        f"  player.subtitles_tracks → {TWIN} (unused; "
        "app/components/account/AccountMoreButton.tsx:5; rename the twin or change the code)"
    ) in result.stdout
    assert "  actions.more → action.more (used elsewhere;" in result.stdout


def test_github_annotations_give_the_pair_one_annotation(tmp_path, run_cli):
    root = _app(tmp_path / "app")

    result = run_cli("validate", "--format", "github", cwd=root)

    lines = [
        line
        for line in result.stdout.splitlines()
        if line.startswith("::") and "player.subtitles_tracks" in line
    ]
    assert len(lines) == 1
    assert lines[0].startswith(
        "::error file=app/components/account/AccountMoreButton.tsx,line=5,col="
    )
    assert "title=i18nprune.validate.near_twin" in lines[0]


def test_cleanup_lists_the_twins_apart_and_never_offers_them(tmp_path, run_cli):
    root = _app(tmp_path / "app")

    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    assert result.code == 0, result.stdout
    data = result.envelope["data"]
    assert data["keys"] == ["player.old_label"]
    assert data["wouldRemove"] == 1
    assert {pair["twin"] for pair in data["nearTwins"]} == {TWIN, STATUS_TWIN}
    (note,) = _issues(result.envelope, "i18nprune.cleanup.near_twin_kept")
    assert note["severity"] == "info"
    assert f"{TWIN} (the code uses `player.subtitles_tracks`)" in note["message"]


@pytest.mark.slow
def test_cleanup_yes_keeps_the_twins_in_the_source_and_the_targets(tmp_path, run_cli):
    root = _app(tmp_path / "app")

    source = run_cli("cleanup", "--yes", "--json", cwd=root)
    targets = run_cli("cleanup", "--target", "all", "--yes", "--json", cwd=root)

    assert source.envelope["data"]["removed"] == 1, source.stdout
    assert targets.envelope["data"]["removed"] == 1, targets.stdout  # fr's old_label
    en, fr = _read(root / "translations/en.json"), _read(root / "translations/fr.json")
    assert en["player"]["subtitle_tracks"] == "Subtitle tracks"
    assert fr["player"]["subtitle_tracks"] == "Pistes de sous-titres"
    assert fr["home"]["downloads"]["toasts"]["server_responded_with_status_code"]
    assert "old_label" not in en["player"] and "old_label" not in fr["player"]


@pytest.mark.slow
def test_cleanup_removes_a_twin_its_keys_option_names(tmp_path, run_cli):
    root = _app(tmp_path / "app")

    result = run_cli("cleanup", "--keys", TWIN, "--yes", "--json", cwd=root)

    assert result.envelope["data"]["keys"] == [TWIN], result.stdout
    assert "subtitle_tracks" not in _read(root / "translations/en.json")["player"]


def test_cleanup_people_see_the_kept_twins(tmp_path, run_cli):
    root = _app(tmp_path / "app")

    result = run_cli("cleanup", "--dry-run", "--no-color", cwd=root)

    assert "1 unused key(s) in en" in result.stdout
    assert "kept 2 near twin(s) of missing keys" in result.stdout
    assert f"  player.subtitles_tracks → {TWIN} (unused;" in result.stdout


def test_missing_does_not_add_a_key_beside_its_unused_twin_and_says_so(tmp_path, run_cli):
    root = _app(tmp_path / "app")

    result = run_cli("missing", "--yes", "--json", cwd=root)

    assert result.code == 0, result.stdout
    data = result.envelope["data"]
    assert data["paths"] == ["actions.more", "home.subtitle"]
    en = _read(root / "translations/en.json")
    assert "subtitles_tracks" not in en["player"]
    assert "server_responded_with_status" not in en["home"]["downloads"]["toasts"]
    assert en["actions"]["more"]  # a used twin does not stop the key: it may be a new one
    (skipped,) = [
        issue
        for issue in _issues(result.envelope, "i18nprune.missing.near_twin")
        if issue["severity"] == "warning"
    ]
    assert skipped["message"].startswith("2 key(s) not added to en")
    assert f"`player.subtitles_tracks` (twin `{TWIN}`" in skipped["message"]
    assert "Rename each twin to its key in every locale file" in skipped["message"]
    assert "`policies.preserve`" in skipped["message"]
    (hint,) = [
        issue
        for issue in _issues(result.envelope, "i18nprune.missing.near_twin")
        if issue["severity"] == "info"
    ]
    assert "`actions.more` (twin `action.more`" in hint["message"]
    assert "change the code to the twin rather than translating the new key" in hint["message"]
    assert {pair["key"] for pair in data["nearTwins"] if pair["twinUnused"]} == {
        "player.subtitles_tracks",
        "home.downloads.toasts.server_responded_with_status",
    }


@pytest.mark.slow
def test_missing_check_fails_while_a_twin_stands_in_for_a_key(tmp_path, run_cli):
    root = _app(tmp_path / "app")
    run_cli("missing", "--yes", "--json", cwd=root)  # adds the keys without a twin

    result = run_cli("missing", "--check", "--json", cwd=root)

    assert result.code == 1
    (failure,) = _issues(result.envelope, "i18nprune.missing.near_twin")
    assert failure["severity"] == "error"
    assert _issues(result.envelope, "i18nprune.check.would_change") == []


def test_missing_people_see_what_was_not_added(tmp_path, run_cli):
    root = _app(tmp_path / "app")

    result = run_cli("missing", "--dry-run", "--no-color", cwd=root)

    assert "not added: 2 key(s) with an unused near twin" in result.stdout
    assert f"  player.subtitles_tracks → {TWIN} (unused;" in result.stdout


@pytest.mark.slow
def test_a_preserved_twin_is_no_twin_to_keep(tmp_path, run_cli):
    root = _app(tmp_path / "app", policies={"preserve": {"copyKeys": [TWIN]}})

    result = run_cli("missing", "--yes", "--json", cwd=root)

    assert "player.subtitles_tracks" in result.envelope["data"]["paths"], result.stdout
    en = _read(root / "translations/en.json")
    assert en["player"]["subtitle_tracks"] == "Subtitle tracks"


@pytest.mark.slow
def test_sync_keeps_the_twins_translations_in_the_targets(tmp_path, run_cli):
    root = _app(tmp_path / "app")

    result = run_cli("sync", "--yes", "--json", cwd=root)

    assert result.envelope["ok"] is True, result.stdout
    fr, de = _read(root / "translations/fr.json"), _read(root / "translations/de.json")
    assert fr["player"]["subtitle_tracks"] == "Pistes de sous-titres"
    assert de["player"]["subtitle_tracks"] == "Untertitelspuren"
    assert fr["home"]["downloads"]["toasts"]["server_responded_with_status_code"]
    assert "old_label" not in fr["player"]  # the key nobody uses goes
    assert "home" not in de or "downloads" not in de["home"]  # a twin is kept, not added
    (note,) = _issues(result.envelope, "i18nprune.cleanup.near_twin_kept")
    assert "kept in the targets" in note["message"]
    tips = {tip["id"] for tip in result.envelope["data"]["suggestions"]}
    assert "suggest.rename.near_twin" in tips


@pytest.mark.slow
def test_a_key_with_two_equally_near_keys_has_no_twin(tmp_path, run_cli):
    root = write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": {"src": "app", "locales": {"directory": "translations"}},
            "app/Home.tsx": "export const Home = () => [t('home.titls'), t('home.body')];\n",
            "translations/en.json": {
                "home": {"title": "Home", "titles": "Titles", "body": "Body", "a": "A"}
            },
        },
    )

    validate = run_cli("validate", "--json", cwd=root)
    cleanup = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    assert validate.envelope["data"]["missing"] == ["home.titls"]
    assert validate.envelope["data"]["nearTwins"] == []
    assert cleanup.envelope["data"]["keys"] == ["home.a", "home.title", "home.titles"]


@pytest.mark.slow
def test_namespaces_pair_a_key_with_its_twin_in_its_own_namespace(tmp_path, run_cli):
    root = write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": {
                "src": "src",
                "locales": {
                    "directory": "public/locales",
                    "mode": "locale_directory",
                    "structure": "locale_per_dir",
                    "namespaces": "file",
                    "defaultNamespace": "common",
                },
            },
            "src/Player.tsx": (
                "import { useTranslation } from 'react-i18next';\n"
                "export function Player() {\n"
                "  const { t } = useTranslation('player');\n"
                "  return [t('subtitles_tracks'), t('audio_tracks'), t('common:save')];\n"
                "}\n"
            ),
            "public/locales/en/player.json": {
                "subtitle_tracks": "Subtitle tracks",
                "audio_tracks": "Audio tracks",
            },
            "public/locales/en/common.json": {"save": "Save", "subtitles_track": "Unused"},
        },
    )

    validate = run_cli("validate", "--json", cwd=root)
    cleanup = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    (pair,) = validate.envelope["data"]["nearTwins"]
    assert (pair["key"], pair["twin"]) == ("player:subtitles_tracks", "player:subtitle_tracks")
    assert cleanup.envelope["data"]["keys"] == ["common:subtitles_track"]
