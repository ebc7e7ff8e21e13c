"""Never delete on doubt: write ops refuse, writing nothing, when their evidence is incomplete —
a source-locale file that does not parse, or source code that could not be read or scanned."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from i18nprune.scan.examine import MAX_PARSED_MARKS
from tests.conftest import write_tree

EN = {
    "home": {"title": "Welcome", "subtitle": "Everything"},
    "nav": {"home": "Home", "settings": "Settings"},
    "legacy": {"banner": "Old banner", "footer": "Old footer"},
}
FR = {
    "home": {"title": "Bienvenue", "subtitle": "Tout"},
    "nav": {"home": "Accueil", "settings": "Réglages"},
    "legacy": {"banner": "Ancienne bannière", "footer": "Ancien pied"},
}
# `t('legacy.banner');` holds 6 punctuation marks.
LINES_PAST_PARSE_LIMIT = MAX_PARSED_MARKS // 6 + 1
APP = "export const App = () => [t('home.title'), t('home.subtitle'), t('nav.home')];\n"

# Every write op, as the CLI runs it, with what makes it actually write.
WRITE_OPS = {
    "sync": ["sync"],
    "cleanup": ["cleanup", "--yes"],
    "cleanup-target": ["cleanup", "--target", "fr", "--yes"],
    "missing": ["missing", "--yes"],
    "missing-target": ["missing", "--target", "fr", "--yes"],
    "generate": ["generate", "--target", "fr,de", "--provider", "pseudo", "--force"],
    "locales-delete": ["locales", "delete", "--target", "fr", "--yes"],
}
REMOVAL_OPS = {name: WRITE_OPS[name] for name in ("sync", "cleanup", "cleanup-target")}


def _project(root: Path, *, en_text: str | None = None, sources: dict[str, bytes] | None = None):
    write_tree(
        root,
        {
            "i18nprune.config.json": {"src": "src", "locales": {"directory": "locales"}},
            "locales/en.json": en_text if en_text is not None else EN,
            "locales/fr.json": FR,
            "src/App.tsx": APP + "t('nav.missing');\n",
            **(sources or {}),
        },
    )
    return root


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted((root / "locales").rglob("*"))
        if path.is_file()
    }


def _trailing_comma_source() -> str:
    text = json.dumps(EN, indent=2)
    return text.replace('"Settings"', '"Settings",', 1) + "\n"


@pytest.mark.slow
@pytest.mark.parametrize("op", sorted(WRITE_OPS))
def test_broken_source_segment_stops_every_write_op(op, tmp_path, run_cli):
    root = _project(tmp_path / "app", en_text=_trailing_comma_source())
    before = _snapshot(root)

    result = run_cli(*WRITE_OPS[op], "--json", cwd=root)

    assert result.code == 1, result.stdout
    envelope = result.envelope
    assert envelope["ok"] is False
    codes = [issue["code"] for issue in envelope["issues"]]
    assert "i18nprune.locale.invalid_json" in codes
    refusal = next(
        i for i in envelope["issues"] if i["code"] == "i18nprune.locale.source_unreadable"
    )
    assert refusal["path"] == "locales/en.json"
    assert "changed nothing" in refusal["message"]
    assert _snapshot(root) == before


@pytest.mark.slow
def test_trailing_comma_points_at_the_file_and_line(tmp_path, run_cli):
    root = _project(tmp_path / "app", en_text=_trailing_comma_source())

    result = run_cli("sync", "--json", cwd=root)

    invalid = next(
        i for i in result.envelope["issues"] if i["code"] == "i18nprune.locale.invalid_json"
    )
    assert invalid["message"].startswith("locales/en.json:")


UNSCANNABLE = {
    "syntax-error": {"src/Broken.tsx": b"t('legacy.banner');\nconst = ;\n"},
    "not-utf8": {"src/Latin1.ts": b"t('legacy.banner'); // caf\xe9\n"},
    "binary": {"src/Blob.js": b"t('legacy.banner');" + b"\x00\x01" * 16},
    # Generated code past the parse limit: its syntax is not read (a 13 MB file of 800k calls
    # took 46 s and 1.6 GB), whatever its size (a 6 MB file of few marks is parsed).
    "too-large-to-parse": {"src/generated.ts": b"t('legacy.banner');\n" * LINES_PAST_PARSE_LIMIT},
}


@pytest.mark.slow
@pytest.mark.parametrize("op", sorted(REMOVAL_OPS))
@pytest.mark.parametrize("problem", sorted(UNSCANNABLE))
def test_unscanned_source_file_stops_removal_ops(op, problem, tmp_path, run_cli):
    root = _project(tmp_path / "app", sources=UNSCANNABLE[problem])
    before = _snapshot(root)

    result = run_cli(*REMOVAL_OPS[op], "--json", cwd=root)

    assert result.code == 1, result.stdout
    refusal = next(
        i for i in result.envelope["issues"] if i["code"] == "i18nprune.scan.incomplete_evidence"
    )
    assert refusal["severity"] == "error"
    assert refusal["path"] == next(iter(UNSCANNABLE[problem]))
    assert "--force" in refusal["message"]
    assert _snapshot(root) == before


def test_file_over_the_size_limit_stops_cleanup(tmp_path, run_cli):
    root = _project(tmp_path / "app")
    huge = root / "src/huge.js"
    huge.write_text("t('legacy.banner');\n")
    with open(huge, "r+b") as stream:
        stream.truncate(64 * 1024 * 1024 + 1)  # sparse
    before = _snapshot(root)

    result = run_cli("cleanup", "--yes", "--json", cwd=root)

    assert result.code == 1
    codes = [issue["code"] for issue in result.envelope["issues"]]
    assert "i18nprune.scan.file_too_large" in codes
    assert "i18nprune.scan.incomplete_evidence" in codes
    assert _snapshot(root) == before


def test_dry_run_with_unscanned_files_previews_and_fails(tmp_path, run_cli):
    root = _project(tmp_path / "app", sources=UNSCANNABLE["syntax-error"])

    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    assert result.code == 1
    assert result.envelope["data"]["keys"] == ["legacy.footer", "nav.settings"]
    assert result.envelope["data"]["removed"] == 0


@pytest.mark.slow
def test_force_removes_despite_unscanned_files_and_says_so(tmp_path, run_cli):
    root = _project(tmp_path / "app", sources=UNSCANNABLE["not-utf8"])

    result = run_cli("cleanup", "--yes", "--force", "--json", cwd=root)

    assert result.code == 0, result.stdout
    forced = next(
        i for i in result.envelope["issues"] if i["code"] == "i18nprune.scan.incomplete_evidence"
    )
    assert forced["severity"] == "warning"
    en = json.loads((root / "locales/en.json").read_text())
    assert "legacy" not in en  # the unreadable file's key went: exactly the risk --force takes


@pytest.mark.slow
def test_syntax_error_file_still_yields_the_keys_of_its_valid_parts(tmp_path, run_cli):
    root = _project(tmp_path / "app", sources=UNSCANNABLE["syntax-error"])

    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    # `legacy.banner` is used before the syntax error: it is no candidate.
    assert "legacy.banner" not in result.envelope["data"]["keys"]
    parse = next(i for i in result.envelope["issues"] if i["code"] == "i18nprune.scan.parse_error")
    assert parse["message"].startswith("src/Broken.tsx:2:")


@pytest.mark.slow
@pytest.mark.parametrize("op", ["missing", "generate"])
def test_ops_that_only_add_still_run_with_unscanned_files(op, tmp_path, run_cli):
    root = _project(tmp_path / "app", sources=UNSCANNABLE["syntax-error"])

    result = run_cli(*WRITE_OPS[op], "--json", cwd=root)

    assert result.code == 0, result.stdout


@pytest.mark.slow
def test_sync_skips_a_target_that_does_not_parse(tmp_path, run_cli):
    root = _project(tmp_path / "app")
    (root / "locales/de.json").write_text('{"home": {"title": "Willkommen",}}\n')
    before = (root / "locales/de.json").read_bytes()

    result = run_cli("sync", "--json", cwd=root)

    assert result.code == 1
    assert (root / "locales/de.json").read_bytes() == before
    assert result.envelope["data"]["writtenFiles"] == ["locales/fr.json"]


@pytest.mark.slow
def test_a_file_past_the_parse_limit_is_reported_as_not_read(tmp_path, run_cli):
    root = _project(tmp_path / "app", sources=UNSCANNABLE["too-large-to-parse"])

    result = run_cli("validate", "--json", cwd=root)

    issue = next(
        i for i in result.envelope["issues"] if i["code"] == "i18nprune.scan.file_too_large"
    )
    assert issue["path"] == "src/generated.ts"
    assert "its keys are not read" in issue["message"]
