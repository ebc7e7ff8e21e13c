"""`--check` on write commands: the CI gate writes nothing and exits 1 when anything would
change, 0 once the locales are as the command would make them."""

from __future__ import annotations

from pathlib import Path

import pytest

from i18nprune.envelope import Code


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted((root / "locales").rglob("*"))
        if path.is_file()
    }


@pytest.mark.slow
def test_sync_check_fails_naming_the_files_and_leaves_every_byte(example_project, run_cli):
    before = snapshot(example_project)
    result = run_cli("sync", "--check", "--json", cwd=example_project)
    assert result.code == 1, result.stdout
    envelope = result.envelope
    assert envelope["ok"] is False
    [gate] = [issue for issue in envelope["issues"] if issue["code"] == Code.CHECK_WOULD_CHANGE]
    assert "1 locale file(s) would change (locales/fr.json)" in gate["message"]
    assert "`i18nprune sync`" in gate["message"]
    assert envelope["data"]["dryRun"] is True and envelope["data"]["writtenFiles"] == []
    assert snapshot(example_project) == before


@pytest.mark.slow
def test_sync_check_passes_once_the_locales_are_in_sync(example_project, run_cli):
    assert run_cli("sync", "--json", cwd=example_project).code == 0
    synced = snapshot(example_project)
    result = run_cli("sync", "--check", "--json", cwd=example_project)
    assert result.code == 0, result.stdout
    assert not [i for i in result.envelope["issues"] if i["code"] == Code.CHECK_WOULD_CHANGE]
    assert snapshot(example_project) == synced


def test_missing_check_needs_no_confirmation_fails_and_writes_nothing(example_project, run_cli):
    before = snapshot(example_project)
    result = run_cli("missing", "--check", "--json", cwd=example_project)
    assert result.code == 1, result.stdout
    codes = [issue["code"] for issue in result.envelope["issues"]]
    assert Code.CHECK_WOULD_CHANGE in codes
    assert Code.CONFIRMATION_REQUIRED not in codes
    assert result.envelope["data"]["pathsAdded"] == 0
    assert snapshot(example_project) == before


@pytest.mark.slow
def test_missing_check_passes_after_the_keys_were_added(example_project, run_cli):
    assert run_cli("missing", "--yes", "--json", cwd=example_project).code == 0
    result = run_cli("missing", "--check", "--json", cwd=example_project)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["paths"] == []
