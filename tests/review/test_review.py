"""`review`, run as the real executable on temp projects: listing the needsReview marks and
clearing them with `--accept`, byte for byte."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult, write_tree
from tests.terminal import run_on_tty

RunCli = Callable[..., CliResult]
CONFIG = {"locales": {"source": "en", "directory": "locales"}, "src": "src", "functions": ["t"]}

# Four-space indentation, non-ASCII text, numbers as spelled, other fields kept, no final newline
FR = """{
    "home": {
        "title": {
            "value": "Bienvenue à bord",
            "status": "machine",
            "needsReview": true,
            "confidence": 0.5
        },
        "subtitle": "Tout est là"
    },
    "save": {
        "value": "Enregistrer",
        "needsReview": true
    },
    "cancel": {
        "value": "Annuler",
        "needsReview": false
    },
    "limit": 1e3
}"""


def project(root: Path, **extra: str) -> Path:
    return write_tree(
        root,
        {
            "i18nprune.config.json": CONFIG,
            "src/app.ts": "t('home.title')\n",
            "locales/en.json": {
                "home": {"title": "Welcome aboard", "subtitle": "Everything is here"},
                "save": "Save",
                "cancel": "Cancel",
                "limit": 1000,
            },
            "locales/fr.json": FR,
            "locales/de.json": {"save": {"value": "Speichern", "needsReview": True}},
            **extra,
        },
    )


def marks(result: CliResult) -> list[tuple[str, str, bool]]:
    return [(m["target"], m["path"], m["selected"]) for m in result.envelope["data"]["marks"]]


@pytest.mark.slow
def test_review_lists_the_marked_leaves_of_every_target(tmp_path: Path, run_cli: RunCli) -> None:
    root = project(tmp_path)
    result = run_cli("review", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert marks(result) == [
        ("de", "save", False),
        ("fr", "home.title", False),
        ("fr", "save", False),
    ]
    first = result.envelope["data"]["marks"][1]
    assert first == {
        "target": "fr",
        "path": "home.title",
        "file": "locales/fr.json",
        "value": "Bienvenue à bord",
        "selected": False,
    }
    assert result.envelope["data"]["wouldAccept"] == 0
    assert (root / "locales/fr.json").read_text() == FR


@pytest.mark.slow
def test_accepting_one_path_clears_only_its_mark_and_keeps_every_other_byte(
    tmp_path: Path, run_cli: RunCli
) -> None:
    root = project(tmp_path)
    result = run_cli(
        "review", "--accept", "home.title", "--target", "fr", "--yes", "--json", cwd=root
    )
    assert result.code == 0, result.stdout
    data = result.envelope["data"]
    assert (data["wouldAccept"], data["accepted"]) == (1, 1)
    assert marks(result) == [("fr", "home.title", True), ("fr", "save", False)]
    expected = FR.replace('            "needsReview": true,\n', "", 1)
    assert (root / "locales/fr.json").read_text() == expected
    again = run_cli("review", "--target", "fr", "--json", cwd=root)
    assert marks(again) == [("fr", "save", False)]


@pytest.mark.slow
def test_accept_all_clears_every_mark_of_the_target_and_no_other(
    tmp_path: Path, run_cli: RunCli
) -> None:
    root = project(tmp_path)
    de_before = (root / "locales/de.json").read_bytes()
    result = run_cli("review", "--accept", "all", "--target", "fr", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["accepted"] == 2
    assert result.envelope["data"]["files"] == [
        {"path": "locales/fr.json", "changed": True, "added": 0, "removed": 0}
    ]
    expected = FR.replace('            "needsReview": true,\n', "", 1).replace(
        '"Enregistrer",\n        "needsReview": true', '"Enregistrer"', 1
    )
    assert (root / "locales/fr.json").read_text() == expected
    assert (root / "locales/de.json").read_bytes() == de_before


@pytest.mark.slow
def test_accept_without_yes_non_interactive_needs_confirmation_and_writes_nothing(
    tmp_path: Path, run_cli: RunCli
) -> None:
    root = project(tmp_path)
    result = run_cli("review", "--accept", "save", "--target", "fr,de", "--json", cwd=root)
    assert result.code == 1
    envelope = result.envelope
    assert envelope["ok"] is False
    assert [issue["code"] for issue in envelope["issues"]] == [
        "i18nprune.cli.confirmation_required"
    ]
    assert "--yes" in envelope["issues"][0]["message"]
    assert envelope["data"]["wouldAccept"] == 2 and envelope["data"]["accepted"] == 0
    assert (root / "locales/fr.json").read_text() == FR


def test_accept_dry_run_reports_and_writes_nothing(tmp_path: Path, run_cli: RunCli) -> None:
    root = project(tmp_path)
    result = run_cli(
        "review", "--accept", "save", "--target", "fr", "--dry-run", "--json", cwd=root
    )
    assert result.code == 0, result.stdout
    data = result.envelope["data"]
    assert data["dryRun"] is True
    assert (data["wouldAccept"], data["accepted"]) == (1, 0)
    assert data["files"] == [{"path": "locales/fr.json", "changed": True, "added": 0, "removed": 0}]
    assert (root / "locales/fr.json").read_text() == FR


def test_accept_needs_a_target(tmp_path: Path, run_cli: RunCli) -> None:
    root = project(tmp_path)
    result = run_cli("review", "--accept", "save", "--yes", "--json", cwd=root)
    assert result.code == 2
    assert result.envelope["issues"][0]["code"] == "i18nprune.locale.target_required"
    assert (root / "locales/fr.json").read_text() == FR


@pytest.mark.slow
def test_accepting_a_path_that_is_not_marked_fails_and_writes_nothing(
    tmp_path: Path, run_cli: RunCli
) -> None:
    root = project(tmp_path)
    result = run_cli(
        "review", "--accept", "save,cancel", "--target", "fr", "--yes", "--json", cwd=root
    )
    assert result.code == 1
    [issue] = result.envelope["issues"]
    assert issue["code"] == "i18nprune.review.not_marked"
    assert "`cancel`" in issue["message"]
    assert result.envelope["data"]["accepted"] == 0
    assert (root / "locales/fr.json").read_text() == FR


@pytest.mark.slow
def test_a_target_file_that_does_not_parse_is_reported_and_the_others_listed(
    tmp_path: Path, run_cli: RunCli
) -> None:
    root = project(tmp_path, **{"locales/it.json": '{"save": '})
    result = run_cli("review", "--json", cwd=root)
    assert result.code == 1
    codes = [issue["code"] for issue in result.envelope["issues"]]
    assert codes == ["i18nprune.locale.invalid_json"]
    assert [m[0] for m in marks(result)] == ["de", "fr", "fr"]


@pytest.mark.slow
def test_human_output_lists_marks_and_what_was_accepted(tmp_path: Path, run_cli: RunCli) -> None:
    root = project(tmp_path)
    listed = run_cli("review", "--target", "fr", cwd=root)
    assert listed.code == 0
    assert "2 leaf(s) marked needsReview in fr" in listed.stdout
    assert "home.title" in listed.stdout and "Bienvenue à bord" in listed.stdout
    accepted = run_cli("review", "--accept", "save", "--target", "fr", "--yes", cwd=root)
    assert accepted.code == 0
    assert "accepted 1 mark(s)" in accepted.stdout


@pytest.mark.slow
def test_accept_on_a_terminal_asks_and_writes_only_when_confirmed(
    tmp_path: Path, home: Path
) -> None:
    root = project(tmp_path)
    args = ["review", "--accept", "save", "--target", "fr"]
    code, output = run_on_tty(args, root, home, ["n"])
    assert code == 0, output  # declining is the user's choice, not a failure
    assert "Apply these changes?" in output and "Nothing was changed." in output
    assert (root / "locales/fr.json").read_text() == FR
    code, output = run_on_tty(args, root, home, ["y"])
    assert code == 0, output
    assert "accepted 1 mark(s)" in output
    assert (root / "locales/fr.json").read_text() == FR.replace(
        '"Enregistrer",\n        "needsReview": true', '"Enregistrer"', 1
    )
