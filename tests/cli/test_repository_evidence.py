"""Repository-wide literal evidence through the real CLI: a monorepo whose keys are also named by
a Go server and its templates, a Python backend, a server module that sends keys to the UI and a
sibling package — none of which the scanner parses — keeps those keys, names where, and offers
only the truly unused ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import write_tree

EN = {
    "home": {"title": "Home", "unused": "Nobody shows this"},
    "campaigns": {"noSubs": "No subscribers"},
    "public": {"subTitle": "Subscribe"},
    "chat": {"title": "Chat"},
    "successEnabled": "Enabled",
    "app": {"links": {"cli": "Command line"}},
    "legacy": {"banner": "An old banner"},
}
UNUSED = ["home.unused", "legacy.banner"]

MONOREPO = {
    ".git/HEAD": "ref: refs/heads/main\n",
    "packages/web/i18nprune.config.json": {"src": "src", "locales": {"directory": "locales"}},
    "packages/web/src/App.tsx": (
        "import { t } from './i18n';\nexport const App = () => t('home.title');\n"
    ),
    "packages/web/locales/en.json": EN,
    "packages/web/locales/fr.json": {**EN, "home": {"title": "Accueil", "unused": "Personne"}},
    # The server names keys in Go code and Go templates.
    "server/campaigns.go": 'package main\n\nfunc x() { a.i18n.T("campaigns.noSubs") }\n',
    "server/templates/home.tmpl": '<h1>{{ L.T "public.subTitle" }}</h1>\n',
    # A Python backend.
    "backend/chat.py": 'TITLE = I18nData("chat.title")\n',
    # A server folder that sends keys to the UI.
    "packages/web/server/notify.js": (
        'callback({ ok: true, msg: "successEnabled", msgi18n: true });\n'
    ),
    # A sibling package of the monorepo that uses this package's locales.
    "packages/selfhost/src/links.ts": "export const cli = () => t('app.links.cli');\n",
    # Not evidence: dependencies, a build, another app's copy of the locale.
    "node_modules/dep/index.js": '"legacy.banner"\n',
    "packages/web/dist/bundle.js": '"home.unused"\n',
    "packages/mobile/locales/en.json": {"home": {"unused": "x"}, "legacy.banner": "x"},
}


def _cleanup(run_cli, root: Path, *extra: str) -> dict:
    result = run_cli("cleanup", "--dry-run", "--json", *extra, cwd=root)
    return result.envelope


@pytest.mark.slow
def test_keys_named_anywhere_in_the_repository_are_kept_and_located(tmp_path, run_cli):
    write_tree(tmp_path, MONOREPO)

    envelope = _cleanup(run_cli, tmp_path / "packages/web")

    assert envelope["ok"] is True
    assert envelope["data"]["keys"] == UNUSED
    referenced = {item["key"]: item["sites"][0] for item in envelope["data"]["referenced"]}
    assert {key: (site["file"], site["line"]) for key, site in referenced.items()} == {
        "campaigns.noSubs": ("../../server/campaigns.go", 3),
        "public.subTitle": ("../../server/templates/home.tmpl", 1),
        "chat.title": ("../../backend/chat.py", 1),
        "successEnabled": ("server/notify.js", 1),
        "app.links.cli": ("../selfhost/src/links.ts", 1),
    }


@pytest.mark.slow
def test_cleanup_yes_removes_only_the_unused_keys(tmp_path, run_cli):
    write_tree(tmp_path, MONOREPO)
    root = tmp_path / "packages/web"

    result = run_cli("cleanup", "--yes", "--json", cwd=root)

    assert result.envelope["ok"] is True, result.stdout
    after = json.loads((root / "locales/en.json").read_text())
    assert after == {
        "home": {"title": "Home"},
        "campaigns": {"noSubs": "No subscribers"},
        "public": {"subTitle": "Subscribe"},
        "chat": {"title": "Chat"},
        "successEnabled": "Enabled",
        "app": {"links": {"cli": "Command line"}},
    }


def test_sync_keeps_the_referenced_keys_in_targets(tmp_path, run_cli):
    write_tree(tmp_path, MONOREPO)
    root = tmp_path / "packages/web"

    result = run_cli("sync", "--json", cwd=root)

    assert result.envelope["ok"] is True, result.stdout
    french = json.loads((root / "locales/fr.json").read_text())
    assert "legacy" not in french and "unused" not in french["home"]
    assert french["campaigns"] == {"noSubs": "No subscribers"}
    assert french["app"] == {"links": {"cli": "Command line"}}


@pytest.mark.slow
def test_the_switch_turns_repository_evidence_off(tmp_path, run_cli):
    write_tree(tmp_path, MONOREPO)
    config = {
        "src": "src",
        "locales": {"directory": "locales"},
        "reference": {"repository": {"enabled": False}},
    }
    write_tree(tmp_path, {"packages/web/i18nprune.config.json": config})

    envelope = _cleanup(run_cli, tmp_path / "packages/web")

    assert envelope["data"]["keys"] == sorted(
        [
            *UNUSED,
            "app.links.cli",
            "campaigns.noSubs",
            "chat.title",
            "public.subTitle",
            "successEnabled",
        ]
    )
    assert envelope["data"]["referenced"] == []


@pytest.mark.slow
def test_folders_and_exclude_narrow_what_is_read(tmp_path, run_cli):
    write_tree(tmp_path, MONOREPO)
    config = {
        "src": "src",
        "locales": {"directory": "locales"},
        "reference": {"repository": {"folders": ["server", "packages"], "exclude": ["**/*.tmpl"]}},
    }
    write_tree(tmp_path, {"packages/web/i18nprune.config.json": config})

    envelope = _cleanup(run_cli, tmp_path / "packages/web")

    assert envelope["data"]["keys"] == sorted([*UNUSED, "chat.title", "public.subTitle"])
    referenced = [item["key"] for item in envelope["data"]["referenced"]]
    assert referenced == ["app.links.cli", "campaigns.noSubs", "successEnabled"]


@pytest.mark.slow
def test_an_edit_outside_the_project_is_seen_by_the_next_run(tmp_path, run_cli):
    write_tree(tmp_path, MONOREPO)
    root = tmp_path / "packages/web"
    assert _cleanup(run_cli, root)["data"]["keys"] == UNUSED

    write_tree(tmp_path, {"backend/legacy.py": "BANNER = gettext('legacy.banner')\n"})

    assert _cleanup(run_cli, root)["data"]["keys"] == ["home.unused"]
