"""An array (or object) at a key the code uses is that key's value: `sync` never prunes or
shifts its items, `validate` finds the key, and `cleanup` offers an unused array once, as its
key, and removes it whole (the real CLI on real files)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CliResult, write_tree

RunCli = Callable[..., CliResult]

# Enough used keys that the evidence is not thin: an app, not a probe.
USED = {f"k{i}": f"Key {i}" for i in range(8)}
USED_FR = {f"k{i}": f"Clé {i}" for i in range(8)}


def app(root: Path, en: dict[str, Any], fr: dict[str, Any], code: str = "t('list');\n") -> Path:
    calls = "".join(f"t('page.{key}');\n" for key in USED)
    return write_tree(
        root,
        {
            "i18nprune.config.json": {"src": "src", "locales": {"directory": "locales"}},
            "src/app.ts": code + calls,
            "locales/en.json": {**en, "page": {**USED, **en.get("page", {})}},
            "locales/fr.json": {**fr, "page": {**USED_FR, **fr.get("page", {})}},
        },
    )


def french(root: Path) -> dict[str, Any]:
    return json.loads((root / "locales/fr.json").read_text())


@pytest.mark.slow
def test_sync_keeps_every_item_of_an_array_the_code_uses(tmp_path: Path, run_cli: RunCli) -> None:
    root = app(tmp_path, {"list": ["one", "two", "three"]}, {"list": ["un", "deux", "trois"]})
    for _ in range(2):  # the second run used to delete what the first left
        done = run_cli("sync", "--target", "fr", "--json", cwd=root)
        assert done.code == 0, done.stdout + done.stderr
        assert done.envelope["data"]["writtenFiles"] == []
        assert french(root)["list"] == ["un", "deux", "trois"]


def test_validate_finds_a_used_key_holding_an_array(tmp_path: Path, run_cli: RunCli) -> None:
    root = app(tmp_path, {"list": ["one", "two"]}, {"list": ["un", "deux"]})
    done = run_cli("validate", "--json", cwd=root)
    assert done.code == 0, done.stdout + done.stderr
    assert done.envelope["data"]["missing"] == []


@pytest.mark.slow
def test_sync_keeps_a_target_array_longer_than_the_source(tmp_path: Path, run_cli: RunCli) -> None:
    tips = ["un", "deux", "trois", "quatre"]
    root = app(tmp_path, {"list": ["one", "two", "three"]}, {"list": tips})
    done = run_cli("sync", "--target", "fr", "--json", cwd=root)
    assert done.code == 0, done.stdout + done.stderr
    assert french(root)["list"] == tips


@pytest.mark.slow
def test_sync_keeps_a_used_keys_value_of_another_shape(tmp_path: Path, run_cli: RunCli) -> None:
    # The source has a text where the target has an array, and an array where it has a text.
    root = app(
        tmp_path,
        {"list": "one, two", "days": ["Monday", "Tuesday"]},
        {"list": ["un", "deux"], "days": "lundi, mardi"},
        code="t('list');\nt('days');\n",
    )
    done = run_cli("sync", "--target", "fr", "--json", cwd=root)
    assert done.code == 0, done.stdout + done.stderr
    fr = french(root)
    assert fr["list"] == ["un", "deux"] and fr["days"] == "lundi, mardi"


@pytest.mark.slow
def test_sync_removes_an_unused_array_whole(tmp_path: Path, run_cli: RunCli) -> None:
    root = app(tmp_path, {"old": ["one", 2, "three"]}, {"old": ["un", 2, "trois"]}, code="")
    done = run_cli("sync", "--target", "fr", "--json", cwd=root)
    assert done.code == 0, done.stdout + done.stderr
    assert "old" not in french(root)


def test_sync_adds_an_array_the_target_lacks_in_order(tmp_path: Path, run_cli: RunCli) -> None:
    root = app(tmp_path, {"list": ["one", 2, "three"]}, {})
    done = run_cli("sync", "--target", "fr", "--json", cwd=root)
    assert done.code == 0, done.stdout + done.stderr
    assert french(root)["list"] == ["one", 2, "three"]


@pytest.mark.slow
def test_cleanup_offers_an_unused_array_once_and_removes_it_whole(
    tmp_path: Path, run_cli: RunCli
) -> None:
    en = {"list": ["one", "two"], "page": {"__skip_translation": ["a", 1, {"note": "b"}]}}
    root = app(tmp_path, en, {})
    preview = run_cli("cleanup", "--dry-run", "--json", cwd=root)
    assert preview.code == 0, preview.stdout + preview.stderr
    data = preview.envelope["data"]
    assert data["keys"] == ["page.__skip_translation"]
    [location] = data["keyLocations"]["page.__skip_translation"]
    assert location["file"] == "locales/en.json" and location["line"] > 1

    done = run_cli("cleanup", "--yes", "--json", cwd=root)
    assert done.code == 0, done.stdout + done.stderr
    assert done.envelope["data"]["removed"] == 1
    source = json.loads((root / "locales/en.json").read_text())
    assert source["list"] == ["one", "two"] and "__skip_translation" not in source["page"]


def test_cleanup_keeps_an_array_a_dynamic_key_reaches_by_index(
    tmp_path: Path, run_cli: RunCli
) -> None:
    # i18next reads `steps.1` as the item `steps[1]`.
    root = app(tmp_path, {"steps": ["one", "two"]}, {}, code="t(`steps.${i}`);\n")
    done = run_cli("cleanup", "--dry-run", "--json", cwd=root)
    assert done.code == 0, done.stdout + done.stderr
    assert done.envelope["data"]["keys"] == []
