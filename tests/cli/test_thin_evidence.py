"""Thin evidence stops deletion: when most keys look unused while something could explain it
other than their being unused — key sites that reach keys without naming them, a configuration
nobody wrote, or code that proves almost nothing — `cleanup` and `sync`'s pruning refuse, write
nothing, and say why; `--force` overrides; `validate` warns and points at the configuration."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import write_tree

CODE = "i18nprune.reference.thin_evidence"
KEYS = {f"page{i}": {"title": f"Page {i}", "body": f"Body {i}"} for i in range(5)}
FR = {name: {"title": f"Page {i} fr", "body": f"Corps {i}"} for i, name in enumerate(KEYS)}
CONFIG = {"src": "src", "locales": {"directory": "locales"}}


def _project(root: Path, app: str, *, config: dict | None = CONFIG, **files: str) -> Path:
    tree: dict = {"locales/en.json": KEYS, "locales/fr.json": FR, "src/App.tsx": app, **files}
    if config is not None:
        tree["i18nprune.config.json"] = config
    write_tree(root, tree)
    return root


# Three of ten keys are named; a site builds the others' keys with nothing static to go by.
DYNAMIC = (
    "export const App = (key) => [t('page0.title'), t('page0.body'), t('page1.title'), t(key)];\n"
)
NAMED = "export const App = () => [t('page0.title'), t('page0.body'), t('page1.title')];\n"


def _codes(envelope: dict) -> list[str]:
    return [issue["code"] for issue in envelope["issues"]]


@pytest.mark.slow
def test_cleanup_refuses_when_unresolved_sites_could_reach_most_keys(tmp_path, run_cli):
    root = _project(tmp_path, DYNAMIC)
    before = (root / "locales/en.json").read_bytes()

    for args in (["--dry-run"], ["--yes"]):
        result = run_cli("cleanup", *args, "--json", cwd=root)

        assert result.code == 1
        refusal = next(i for i in result.envelope["issues"] if i["code"] == CODE)
        assert refusal["severity"] == "error"
        assert "7 of 10 keys (70%) look unused" in refusal["message"]
        assert "src/App.tsx:1 `t(key)`" in refusal["message"]
        assert "--force" in refusal["message"]
        assert result.envelope["data"]["removed"] == 0
    assert (root / "locales/en.json").read_bytes() == before


@pytest.mark.slow
def test_force_removes_and_records_the_risk(tmp_path, run_cli):
    root = _project(tmp_path, DYNAMIC)

    result = run_cli("cleanup", "--yes", "--force", "--json", cwd=root)

    assert result.envelope["ok"] is True, result.stdout
    forced = next(i for i in result.envelope["issues"] if i["code"] == CODE)
    assert forced["severity"] == "warning"
    assert result.envelope["data"]["removed"] == 7
    assert json.loads((root / "locales/en.json").read_text()) == {
        "page0": {"title": "Page 0", "body": "Body 0"},
        "page1": {"title": "Page 1"},
    }


@pytest.mark.slow
def test_a_share_under_the_limit_is_removed_as_before(tmp_path, run_cli):
    app = DYNAMIC.replace("t(key)", "t(key), t('page2.title'), t('page2.body'), t('page3.title')")
    root = _project(tmp_path, app)

    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    assert result.envelope["ok"] is True
    assert CODE not in _codes(result.envelope)
    assert result.envelope["data"]["wouldRemove"] == 4


@pytest.mark.slow
def test_max_unused_share_sets_the_limit(tmp_path, run_cli):
    config = {**CONFIG, "reference": {"maxUnusedShare": 0.8}}
    root = _project(tmp_path, DYNAMIC, config=config)

    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    assert result.envelope["ok"] is True
    assert result.envelope["data"]["wouldRemove"] == 7


@pytest.mark.slow
def test_a_share_out_of_range_is_a_config_error(tmp_path, run_cli):
    root = _project(tmp_path, DYNAMIC, config={**CONFIG, "reference": {"maxUnusedShare": 2}})

    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    assert result.code == 1
    problem = result.envelope["issues"][0]
    assert problem["code"] == "i18nprune.config.invalid"
    assert "reference.maxUnusedShare" in problem["message"]


@pytest.mark.slow
def test_a_guessed_configuration_is_thin_evidence(tmp_path, run_cli):
    root = _project(tmp_path, NAMED, config=None)

    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    assert result.code == 1
    refusal = next(i for i in result.envelope["issues"] if i["code"] == CODE)
    assert "the configuration is a guess (no config file)" in refusal["message"]


@pytest.mark.slow
def test_a_written_configuration_without_unresolved_sites_is_trusted(tmp_path, run_cli):
    root = _project(tmp_path, NAMED)

    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    assert result.envelope["ok"] is True
    assert result.envelope["data"]["wouldRemove"] == 7


@pytest.mark.slow
def test_code_that_proves_almost_nothing_is_thin_evidence_whatever_the_config(tmp_path, run_cli):
    many = {f"k{i}": f"Text {i}" for i in range(40)}
    write_tree(tmp_path, {"locales/en.json": many})
    root = _project(tmp_path, "export const App = () => [t('k0'), t('k1')];\n")
    write_tree(root, {"locales/en.json": many, "locales/fr.json": many})

    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    refusal = next(i for i in result.envelope["issues"] if i["code"] == CODE)
    assert (
        "38 of 40 keys (95%) look unused: the code proves almost none of them"
        in (refusal["message"])
    )


@pytest.mark.slow
def test_a_template_the_scanner_does_not_read_is_an_unresolved_site(tmp_path, run_cli):
    template = "<ul>\n  <li *ngFor='let p of pages'>{{ p.label | translate }}</li>\n</ul>\n"
    root = _project(tmp_path, NAMED, **{"web/pages.component.html": template})

    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    refusal = next(i for i in result.envelope["issues"] if i["code"] == CODE)
    assert (
        "web/pages.component.html:2 `<li *ngFor='let p of pages'>{{ p.label | translate }}"
        in (refusal["message"])
    )


@pytest.mark.slow
def test_sync_refuses_to_prune_targets_on_thin_evidence(tmp_path, run_cli):
    root = _project(tmp_path, DYNAMIC)
    before = (root / "locales/fr.json").read_bytes()

    refused = run_cli("sync", "--json", cwd=root)

    assert refused.code == 1
    assert CODE in _codes(refused.envelope)
    assert refused.envelope["data"]["writtenFiles"] == []
    assert (root / "locales/fr.json").read_bytes() == before

    forced = run_cli("sync", "--force", "--json", cwd=root)

    assert forced.envelope["ok"] is True, forced.stdout
    assert sorted(json.loads((root / "locales/fr.json").read_text())) == ["page0", "page1"]


@pytest.mark.slow
def test_validate_warns_and_points_at_the_configuration_not_at_cleanup(tmp_path, run_cli):
    root = _project(tmp_path, DYNAMIC)

    envelope = run_cli("validate", "--json", cwd=root).envelope

    warning = next(i for i in envelope["issues"] if i["code"] == "i18nprune.validate.thin_evidence")
    assert warning["severity"] == "warning"
    assert "`cleanup` would refuse" in warning["message"]
    tips = {tip["id"]: tip["command"] for tip in envelope["data"]["suggestions"]}
    assert tips == {"suggest.config.thin_evidence": "i18nprune config"}


def test_validate_suggests_cleanup_when_the_evidence_holds(tmp_path, run_cli):
    root = _project(tmp_path, NAMED)

    envelope = run_cli("validate", "--json", cwd=root).envelope

    assert "i18nprune.validate.thin_evidence" not in _codes(envelope)
    tips = {tip["id"]: tip["command"] for tip in envelope["data"]["suggestions"]}
    assert tips == {"suggest.cleanup.source_unused": "i18nprune cleanup --dry-run"}
