"""The read commands, run as the real executable against projects in temp directories."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import write_tree

SIMPLE = {
    "i18nprune.config.json": {"locales": {"source": "en"}},
    "src/app.ts": "t('a.one');\nt('a.two');\n",
    "locales/en.json": {"a": {"one": "One", "two": "Two"}},
    "locales/fr.json": {"a": {"one": "Un"}},
}


def test_validate_example_reports_missing_keys_and_dynamic_prefix(example_project, run_cli):
    result = run_cli("validate", "--json", cwd=example_project)
    envelope = result.envelope
    assert result.code == 1
    assert envelope["ok"] is False and envelope["kind"] == "validate"
    assert envelope["data"]["missing"] == ["footer.copyright", "settings.search"]
    assert envelope["data"]["count"] == 2
    assert envelope["data"]["dynamic"]["active"] == 1
    codes = {issue["code"] for issue in envelope["issues"]}
    assert "i18nprune.validate.missing_literal_keys" in codes
    assert "i18nprune.validate.dynamic_key_sites" in codes
    suggestion_ids = {s["id"] for s in envelope["data"]["suggestions"]}
    assert suggestion_ids == {
        "suggest.missing.literal_keys",
        "suggest.cleanup.source_unused",
        "suggest.cleanup.target_extra",
    }
    assert envelope["meta"]["apiVersion"] == "1"


def test_validate_clean_project_exits_zero(make_project, run_cli):
    root = make_project(SIMPLE)
    result = run_cli("--json", "validate", cwd=root)
    assert result.code == 0, result.stderr
    assert result.envelope["ok"] is True
    assert result.envelope["data"]["missing"] == []


@pytest.mark.slow
def test_global_flags_work_before_and_after_the_command(make_project, run_cli):
    root = make_project(SIMPLE)
    before = run_cli("--json", "--source", "fr", "validate", cwd=root).envelope
    after = run_cli("validate", "--source", "fr", "--json", cwd=root).envelope
    assert before["data"] == after["data"]
    assert before["data"]["missing"] == ["a.two"]


def test_project_flag_selects_another_root(make_project, run_cli, tmp_path):
    root = make_project(SIMPLE)
    result = run_cli("-C", str(root), "validate", "--json", cwd=tmp_path)
    assert result.code == 0
    assert result.envelope["data"]["filesScanned"] == 1


@pytest.mark.slow
def test_human_output_goes_to_stdout_and_json_keeps_stdout_pure(example_project, run_cli):
    human = run_cli("validate", cwd=example_project)
    assert "footer.copyright" in human.stdout
    assert "[tip]" in human.stdout
    as_json = run_cli("validate", "--json", "--json-compact", cwd=example_project)
    assert as_json.stdout.count("\n") == 1
    assert as_json.envelope["kind"] == "validate"


def test_invalid_source_json_is_reported_with_line_and_column(make_project, run_cli):
    root = make_project({**SIMPLE, "locales/en.json": '{\n  "a": {"one": "One",}\n}\n'})
    before = (root / "locales/en.json").read_bytes()
    result = run_cli("validate", "--json", cwd=root)
    assert result.code == 1
    issue = next(
        i for i in result.envelope["issues"] if i["code"] == "i18nprune.locale.invalid_json"
    )
    assert "locales/en.json:2:" in issue["message"]
    assert (root / "locales/en.json").read_bytes() == before


def test_broken_config_json_yields_an_envelope(make_project, run_cli):
    root = make_project({**SIMPLE, "i18nprune.config.json": '{"locales": {'})
    result = run_cli("validate", "--json", cwd=root)
    assert result.code == 1
    envelope = result.envelope
    assert envelope["ok"] is False
    assert envelope["issues"][0]["code"] == "i18nprune.config.parse_error"
    assert "i18nprune.config.json" in envelope["issues"][0]["message"]


def test_unknown_config_key_suggests_the_right_one(make_project, run_cli):
    root = make_project({**SIMPLE, "i18nprune.config.json": {"locales": {"sorce": "en"}}})
    result = run_cli("config", "--json", cwd=root)
    assert result.code == 1
    message = result.envelope["issues"][0]["message"]
    assert "locales.sorce" in message and "source" in message


@pytest.mark.slow
def test_unknown_flag_is_a_usage_error_with_exit_2(make_project, run_cli):
    root = make_project(SIMPLE)
    human = run_cli("validate", "--bogus", cwd=root)
    assert human.code == 2
    assert "--bogus" in human.stderr
    as_json = run_cli("validate", "--bogus", "--json", cwd=root)
    assert as_json.code == 2
    assert as_json.envelope["issues"][0]["code"] == "i18nprune.cli.usage_error"


def test_unknown_command_is_a_usage_error(tmp_path, run_cli):
    result = run_cli("frobnicate", cwd=tmp_path)
    assert result.code == 2


def test_binary_file_in_src_becomes_an_issue_not_a_crash(make_project, run_cli):
    root = make_project({**SIMPLE, "src/blob.ts": b"t('x')\x00\xff\xfe garbage"})
    result = run_cli("validate", "--json", cwd=root)
    assert result.code == 0, result.stdout
    codes = [i["code"] for i in result.envelope["issues"]]
    assert "i18nprune.scan.binary_file" in codes


def test_symlink_loop_in_src_terminates(make_project, run_cli):
    root = make_project(SIMPLE)
    os.symlink(root / "src", root / "src" / "loop")
    result = run_cli("validate", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["filesScanned"] == 1


def test_unreadable_source_file_becomes_an_issue(make_project, run_cli):
    root = make_project(SIMPLE)
    os.symlink(root / "missing-target.ts", root / "src" / "dangling.ts")
    result = run_cli("validate", "--json", cwd=root)
    assert result.code == 0, result.stdout
    paths = [i.get("path", "") + i["message"] for i in result.envelope["issues"]]
    assert any("dangling.ts" in p for p in paths)


@pytest.mark.slow
def test_warm_validate_equals_cold(example_project, run_cli):
    cold = run_cli("validate", "--json", cwd=example_project).envelope["data"]
    warm = run_cli("validate", "--json", cwd=example_project).envelope["data"]
    uncached = run_cli("validate", "--json", "--no-cache", cwd=example_project).envelope["data"]
    assert cold == warm == uncached


@pytest.mark.slow
def test_languages_works_without_a_project(tmp_path, run_cli):
    result = run_cli("languages", "--json", "--filter", "arab", cwd=tmp_path)
    assert result.code == 0
    rows = result.envelope["data"]
    arabic = next(row for row in rows if row["code"] == "ar")
    assert arabic["direction"] == "rtl"
    assert arabic["plurals"] == ["zero", "one", "two", "few", "many", "other"]


@pytest.mark.slow
def test_langs_is_an_alias(tmp_path, run_cli):
    result = run_cli("langs", "--filter", "japanese", "--json", cwd=tmp_path)
    assert any(row["code"] == "ja" for row in result.envelope["data"])


@pytest.mark.slow
def test_config_redacts_secrets_and_reports_sources(make_project, run_cli):
    secret = "sk-live-1234567890"
    config = {
        "locales": {"source": "en"},
        "translate": {"providers": [{"id": "deepl", "apiKey": secret}]},
    }
    root = make_project({**SIMPLE, "i18nprune.config.json": config})
    result = run_cli(
        "config",
        "--json",
        "--src",
        "src",
        cwd=root,
        env={"I18NPRUNE_TRANSLATE_DEEPL_API_KEY": secret},
    )
    assert result.code == 0
    assert secret not in result.stdout and secret not in result.stderr
    data = result.envelope["data"]
    assert data["configFileLoaded"] is True
    assert data["fieldSources"]["locales.source"] == "file"
    assert data["fieldSources"]["src"] == "flag"
    assert data["resolvedPaths"]["root"] == str(root.resolve())


def test_missing_config_file_is_reported_not_fatal(make_project, run_cli):
    files = {k: v for k, v in SIMPLE.items() if k != "i18nprune.config.json"}
    root = make_project(files)
    result = run_cli("validate", "--json", cwd=root)
    codes = [i["code"] for i in result.envelope["issues"]]
    assert "i18nprune.project.config_file_missing" in codes
    assert result.code == 0


def test_source_not_in_bundle_fails_validate(make_project, run_cli):
    root = make_project(SIMPLE)
    result = run_cli("validate", "--json", "--source", "de", cwd=root)
    assert result.code == 1
    codes = [i["code"] for i in result.envelope["issues"]]
    assert "i18nprune.project.locales_source_not_in_bundle" in codes


@pytest.mark.slow
def test_doctor_reports_findings_and_strict_mode(make_project, run_cli):
    files = {k: v for k, v in SIMPLE.items() if k != "i18nprune.config.json"}
    root = make_project(files)
    relaxed = run_cli("doctor", "--json", cwd=root)
    assert relaxed.code == 0
    ids = {f["id"] for f in relaxed.envelope["data"]["findings"]}
    assert {"runtime.python", "tools.parser", "config.load", "paths.src"} <= ids
    strict = run_cli("doctor", "--json", "--strict", cwd=root)
    assert strict.code == 1
    assert strict.envelope["data"]["strict"] is True


@pytest.mark.slow
def test_doctor_reports_a_broken_config_as_a_finding(make_project, run_cli):
    root = make_project({**SIMPLE, "i18nprune.config.json": "{nope"})
    result = run_cli("doctor", "--json", "--only", "config", cwd=root)
    assert result.code == 1
    finding = result.envelope["data"]["findings"][0]
    assert finding["id"] == "config.load" and finding["ok"] is False


def test_doctor_checks_the_glossary_file_and_the_lock_file(make_project, run_cli):
    config = {"locales": {"source": "en"}, "translate": {"glossaryFile": "glossary.csv"}}
    root = make_project(
        {
            **SIMPLE,
            "i18nprune.config.json": config,
            "glossary.csv": "term,de\nAcme Cloud,Acme Wolke\nWorkspace,\n",
            "i18nprune.lock.json": "<<<<<<< HEAD\n",
        }
    )
    result = run_cli("doctor", "--json", "--only", "config", cwd=root)
    assert result.code == 1
    found = {f["id"]: f for f in result.envelope["data"]["findings"]}
    assert found["config.glossary"]["ok"] is True
    assert found["config.glossary"]["detail"] == "2 term(s)"
    assert found["config.lock"]["ok"] is False
    assert "i18nprune.lock.json:1" in found["config.lock"]["detail"]
    assert "merge conflict" in found["config.lock"]["detail"]


@pytest.mark.slow
def test_doctor_rejects_an_unknown_area(make_project, run_cli):
    root = make_project(SIMPLE)
    result = run_cli("doctor", "--json", "--only", "runtime,bogus", cwd=root)
    assert result.code == 2  # a usage error
    assert "bogus" in result.envelope["issues"][0]["message"]


@pytest.mark.slow
def test_locales_list_counts_keys_against_the_source(example_project, run_cli):
    result = run_cli("locales", "list", "--json", cwd=example_project)
    assert result.code == 0
    rows = {row["code"]: row for row in result.envelope["data"]["locales"]}
    assert rows["en"]["isSource"] is True
    assert rows["fr"]["extra"] == 1
    assert rows["fr"]["files"] == ["locales/fr.json"]


@pytest.mark.slow
def test_locales_dynamic_lists_sites_with_prefixes(example_project, run_cli):
    result = run_cli("locales", "dynamic", "--json", cwd=example_project)
    data = result.envelope["data"]
    assert data["prefixes"] == ["nav."]
    site = data["sites"][0]
    assert site["file"] == "src/App.tsx" and site["kind"] == "template_interpolation"


def test_version_flag_prints_the_version(tmp_path, run_cli):
    result = run_cli("--version", cwd=tmp_path)
    assert result.code == 0
    assert result.stdout.strip()


@pytest.mark.slow
@pytest.mark.parametrize("layout", ["locale_per_dir", "feature_bundle"])
def test_validate_reads_directory_layouts(tmp_path, run_cli, layout):
    files: dict[str, object] = {
        "i18nprune.config.json": {
            "locales": {"directory": "messages", "mode": "locale_directory", "structure": layout}
        },
        "src/a.ts": "t('common.ok'); t('auth.login.title');",
    }
    if layout == "locale_per_dir":
        files["messages/en/common.json"] = {"common": {"ok": "OK"}}
        files["messages/en/auth/login.json"] = {"auth": {"login": {"title": "Log in"}}}
    else:
        files["messages/common/en.json"] = {"common": {"ok": "OK"}}
        files["messages/auth/en.json"] = {"auth": {"login": {"title": "Log in"}}}
    root = write_tree(tmp_path / "p", files)
    result = run_cli("validate", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["missing"] == []


def test_config_error_in_static_ts_config_names_the_line(tmp_path, run_cli):
    root = write_tree(
        tmp_path / "p",
        {
            "i18nprune.config.ts": "import base from './base';\n"
            "export default defineConfig({\n  ...base,\n  src: 'src',\n});\n",
            "src/a.ts": "t('k')",
            "locales/en.json": {"k": "v"},
        },
    )
    result = run_cli("validate", "--json", cwd=root)
    assert result.code == 1
    issue = result.envelope["issues"][0]
    assert issue["code"] == "i18nprune.config.not_static"
    assert ":3" in issue["message"] or "line 3" in issue["message"]


def test_home_is_not_touched_with_no_cache(make_project, run_cli, home: Path):
    root = make_project(SIMPLE)
    run_cli("validate", "--json", "--no-cache", cwd=root)
    assert list(home.iterdir()) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [
        ["validate"],
        ["cleanup"],
        ["sync"],
        ["missing"],
        ["locales", "dynamic"],
        ["config"],
        ["doctor"],
        ["generate", "--target", "fr", "--provider", "pseudo"],
    ],
    ids=lambda command: "-".join(command),
)
def test_src_that_is_a_symlink_to_itself_is_an_issue_in_an_envelope(command, make_project, run_cli):
    root = make_project({"i18nprune.config.json": {"src": "src"}, "locales/en.json": {"a": "A"}})
    os.symlink("src", root / "src")

    result = run_cli(*command, "--json", cwd=root)

    assert result.code == 1, result.stderr
    [issue] = [
        i for i in result.envelope["issues"] if i["code"] == "i18nprune.project.path_unresolvable"
    ]
    assert issue["severity"] == "error" and "symbolic link that loops" in issue["message"]
    assert "Traceback" not in result.stderr


LONG_AGO_NS = 1_600_000_000 * 10**9
"""An mtime far before any run, so the scan cache trusts a file's stat."""
WARM = {
    "i18nprune.config.json": {"locales": {"source": "en"}},
    "locales/en.json": {"a": {"one": "One", "two": "Two"}},
    "src/app.ts": "t('a.one');\n",
    "src/deep/more.ts": "t('a.two');\n",
    "src/deep/skip.ts": "t('a.skipped');\n",
}


def _same_size_edit(root: Path) -> None:
    path = root / "src/app.ts"
    path.write_text("t('a.own');\n")  # as long as before; a new mtime
    assert path.stat().st_size == len("t('a.one');\n")


def _edit_keeping_size_and_mtime_but_not_inode(root: Path) -> None:
    path = root / "src/app.ts"
    replacement = root / "src/app.ts.new"
    replacement.write_text("t('a.own');\n")
    os.utime(replacement, ns=(LONG_AGO_NS, LONG_AGO_NS))
    replacement.replace(path)


def _new_file(root: Path) -> None:
    (root / "src/deep/new.ts").write_text("t('a.new');\n")


def _deleted_file(root: Path) -> None:
    (root / "src/deep/more.ts").unlink()


def _changed_config(root: Path) -> None:
    config = {"locales": {"source": "en"}, "exclude": {"files": ["skip.ts"]}}
    (root / "i18nprune.config.json").write_text(json.dumps(config))


@pytest.mark.slow
@pytest.mark.parametrize(
    "change",
    [
        _same_size_edit,
        _edit_keeping_size_and_mtime_but_not_inode,
        _new_file,
        _deleted_file,
        _changed_config,
    ],
)
def test_warm_validate_after_a_change_equals_an_uncached_run(make_project, run_cli, change):
    root = make_project(WARM)
    for path in (root / "src").rglob("*"):
        os.utime(path, ns=(LONG_AGO_NS, LONG_AGO_NS))
    before = run_cli("validate", "--json", cwd=root).envelope
    change(root)
    warm = run_cli("validate", "--json", cwd=root).envelope
    uncached = run_cli("validate", "--json", "--no-cache", cwd=root).envelope
    assert (warm["data"], warm["issues"]) == (uncached["data"], uncached["issues"])
    assert warm["data"] != before["data"]
