"""`--format github|sarif`: every issue as a CI annotation, located where the run knows.

The SARIF schema beside this file is the OASIS SARIF 2.1.0 JSON schema
(`sarif-2.1/schema/sarif-schema-2.1.0.json` of github.com/oasis-tcs/sarif-spec), shipped so the
check needs no network.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from i18nprune.envelope import Code, message_location

SCHEMA = json.loads((Path(__file__).parent / "sarif-schema-2.1.0.json").read_text("utf-8"))
BROKEN = 'export const X = () => t("oops.missing";\n'


@pytest.fixture
def broken_project(example_project: Path) -> Path:
    """The example app with one source file that does not parse (at line 1, column 40)."""
    (example_project / "src" / "broken.tsx").write_text(BROKEN, "utf-8")
    return example_project


def commands(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if line.startswith("::")]


def test_github_format_prints_a_located_workflow_command_for_a_parse_error(broken_project, run_cli):
    result = run_cli("validate", "--format", "github", cwd=broken_project)

    assert result.code == 1
    assert (
        "::warning file=src/broken.tsx,line=1,col=40,title=i18nprune.scan.parse_error::"
        "syntax error; keys after it may be missed. Fix the syntax so the file parses cleanly."
    ) in commands(result.stdout)
    # The annotations replace the `warning: …` lines; the report itself is still there.
    assert "warning:" not in result.stderr
    assert "Scanned" in result.stdout


def test_github_format_annotates_issues_without_a_file_as_errors_and_warnings(
    broken_project, run_cli
):
    result = run_cli("validate", "--format", "github", cwd=broken_project)

    kinds = {line.split(" ", 1)[0].split("::")[1] for line in commands(result.stdout)}
    assert kinds <= {"error", "warning"}
    assert any(
        line.startswith("::warning title=i18nprune.validate.dynamic_key_sites::")
        for line in commands(result.stdout)
    )


def test_github_format_escapes_commas_colons_and_percents_in_properties(example_project, run_cli):
    (example_project / "src" / "a,b:50%.tsx").write_text(BROKEN, "utf-8")

    result = run_cli("validate", "--format", "github", cwd=example_project)

    [command] = [line for line in commands(result.stdout) if "parse_error" in line]
    assert command.startswith("::warning file=src/a%2Cb%3A50%25.tsx,line=1,col=40,")


def test_github_format_under_quiet_keeps_only_errors(broken_project, run_cli):
    result = run_cli("validate", "--format", "github", "--quiet", cwd=broken_project)

    assert commands(result.stdout)
    assert all(line.startswith("::error ") for line in commands(result.stdout))


def sarif(result: Any) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(result.stdout)
    jsonschema.Draft4Validator(SCHEMA).validate(document)
    return document


def test_sarif_format_is_one_valid_sarif_log_on_stdout(broken_project, run_cli):
    result = run_cli("validate", "--format", "sarif", cwd=broken_project)

    assert result.code == 1
    log = sarif(result)
    [run] = log["runs"]
    assert log["version"] == "2.1.0"
    assert run["tool"]["driver"]["name"] == "i18nprune"
    rule_ids = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    assert len(rule_ids) == len(set(rule_ids))
    for result_ in run["results"]:
        assert rule_ids[result_["ruleIndex"]] == result_["ruleId"]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == broken_project.resolve().as_uri() + "/"


def test_sarif_locates_a_parse_error_relative_to_the_project(broken_project, run_cli):
    run = sarif(run_cli("validate", "--format", "sarif", cwd=broken_project))["runs"][0]

    [parse] = [r for r in run["results"] if r["ruleId"] == Code.SCAN_PARSE_ERROR]
    assert parse["level"] == "warning"
    [location] = parse["locations"]
    assert location["physicalLocation"] == {
        "artifactLocation": {"uri": "src/broken.tsx", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 1, "startColumn": 40},
    }


def test_sarif_places_issues_without_a_file_at_the_config_file(broken_project, run_cli):
    run = sarif(run_cli("validate", "--format", "sarif", cwd=broken_project))["runs"][0]

    [dynamic] = [r for r in run["results"] if r["ruleId"] == Code.VALIDATE_DYNAMIC]
    assert dynamic["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "i18nprune.config.json", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 1},
    }


@pytest.mark.slow
def test_sarif_of_the_sync_gate_fails_then_passes_once_in_sync(example_project, run_cli):
    result = run_cli("sync", "--check", "--format", "sarif", cwd=example_project)

    assert result.code == 1
    results = sarif(result)["runs"][0]["results"]
    [gate] = [r for r in results if r["ruleId"] == Code.CHECK_WOULD_CHANGE]
    assert gate["level"] == "error"
    assert run_cli("sync", "--json", cwd=example_project).code == 0
    clean = run_cli("sync", "--check", "--format", "sarif", cwd=example_project)
    assert clean.code == 0, clean.stdout
    assert [r for r in sarif(clean)["runs"][0]["results"] if r["level"] == "error"] == []


def test_format_json_is_the_json_envelope(example_project, run_cli):
    by_format = run_cli("validate", "--format", "json", cwd=example_project)
    by_flag = run_cli("validate", "--json", cwd=example_project)

    assert by_format.code == by_flag.code
    strip = lambda envelope: {k: v for k, v in envelope.items() if k != "meta"}  # noqa: E731
    assert strip(by_format.envelope) == strip(by_flag.envelope)


def test_json_with_another_format_is_a_usage_error(example_project, run_cli):
    result = run_cli("validate", "--json", "--format", "sarif", cwd=example_project)

    assert result.code == 2
    [issue] = result.envelope["issues"]
    assert issue["code"] == Code.USAGE_ERROR
    assert "--json cannot be combined with --format sarif" in issue["message"]


def test_unknown_format_is_a_usage_error_listing_the_choices(example_project, run_cli):
    result = run_cli("validate", "--format", "xml", cwd=example_project)

    assert result.code == 2
    assert "xml" in result.stderr and "sarif" in result.stderr


def test_validate_lists_each_missing_keys_call_sites_with_ranges(example_project, run_cli):
    (example_project / "src" / "Extra.tsx").write_text(
        "export const A = () => t('extra.key');\nexport const B = () =>\n  t('extra.key');\n",
        "utf-8",
    )

    data = run_cli("validate", "--json", cwd=example_project).envelope["data"]

    assert data["missingSites"]["extra.key"] == [
        {"file": "src/Extra.tsx", "line": 1, "column": 24, "endLine": 1, "endColumn": 38},
        {"file": "src/Extra.tsx", "line": 3, "column": 3, "endLine": 3, "endColumn": 17},
    ]
    assert sorted(data["missingSites"]) == sorted(data["missing"])


def test_github_format_annotates_every_call_site_of_a_missing_key(example_project, run_cli):
    (example_project / "src" / "Extra.tsx").write_text(
        "export const A = () => t('extra.key');\n", "utf-8"
    )

    result = run_cli("validate", "--format", "github", cwd=example_project)

    assert (
        "::error file=src/Extra.tsx,line=1,col=24,endLine=1,endColumn=38,"
        "title=i18nprune.validate.missing_literal_keys::"
        "`extra.key` is missing from the source locale `en`"
    ) in commands(result.stdout)
    # one annotation per site replaces the summary
    assert not any(
        line.startswith("::error title=i18nprune.validate.missing_literal_keys")
        for line in commands(result.stdout)
    )


def test_sarif_region_of_a_missing_key_spans_its_call(example_project, run_cli):
    (example_project / "src" / "Extra.tsx").write_text(
        "export const A = () => t('extra.key');\n", "utf-8"
    )

    run = sarif(run_cli("validate", "--format", "sarif", cwd=example_project))["runs"][0]

    [extra] = [r for r in run["results"] if "`extra.key`" in r["message"]["text"]]
    assert extra["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "src/Extra.tsx", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 1, "startColumn": 24, "endLine": 1, "endColumn": 38},
    }


def test_a_message_names_its_place_as_path_line_column() -> None:
    assert message_location("a.json", "a.json:3:11: trailing comma") == (3, 11, "trailing comma")
    assert message_location("a.json", "a.json:7: bad") == (7, None, "bad")
    assert message_location("a.json", "a.json: cannot be read") is None
    assert message_location("a.json", "b.json:3:1: elsewhere") is None
    assert message_location(None, "a.json:3:1: no path") is None


@pytest.fixture
def repository_with_app(tmp_path: Path, example_project: Path) -> Path:
    """A repository (a `.git` folder at its root) holding the example app at `apps/web`, with a
    key the source locale lacks in `src/Extra.tsx`."""
    repository = tmp_path / "repo"
    (repository / ".git").mkdir(parents=True)
    (repository / "apps").mkdir()
    example_project.rename(repository / "apps" / "web")
    (repository / "apps" / "web" / "src" / "Extra.tsx").write_text(
        "export const A = () => t('extra.key');\n", "utf-8"
    )
    return repository


@pytest.mark.slow
def test_github_paths_are_relative_to_the_repository_root_from_a_subfolder_project(
    repository_with_app, run_cli
):
    result = run_cli("-C", "apps/web", "validate", "--format", "github", cwd=repository_with_app)

    assert (
        "::error file=apps/web/src/Extra.tsx,line=1,col=24,endLine=1,endColumn=38,"
        "title=i18nprune.validate.missing_literal_keys::"
        "`extra.key` is missing from the source locale `en`"
    ) in commands(result.stdout)
    # run inside the project, the paths are the same
    inside = run_cli("validate", "--format", "github", cwd=repository_with_app / "apps" / "web")
    assert commands(inside.stdout) == commands(result.stdout)


def test_sarif_srcroot_is_the_repository_root_and_the_anchor_is_the_projects_config(
    repository_with_app, run_cli
):
    result = run_cli("-C", "apps/web", "validate", "--format", "sarif", cwd=repository_with_app)

    [run] = sarif(result)["runs"]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == repository_with_app.as_uri() + "/"
    [extra] = [r for r in run["results"] if "`extra.key`" in r["message"]["text"]]
    assert extra["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "apps/web/src/Extra.tsx",
        "uriBaseId": "%SRCROOT%",
    }
    [dynamic] = [r for r in run["results"] if r["ruleId"] == Code.VALIDATE_DYNAMIC]
    assert dynamic["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "apps/web/i18nprune.config.json",
        "uriBaseId": "%SRCROOT%",
    }


def test_without_a_config_findings_without_a_file_are_placed_at_the_source_locale(
    repository_with_app, run_cli
):
    (repository_with_app / "apps" / "web" / "i18nprune.config.json").unlink()

    result = run_cli("-C", "apps/web", "validate", "--format", "sarif", cwd=repository_with_app)

    [run] = sarif(result)["runs"]
    assert run["results"]
    assert all(result["locations"] for result in run["results"])
    [dynamic] = [r for r in run["results"] if r["ruleId"] == Code.VALIDATE_DYNAMIC]
    assert dynamic["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "apps/web/locales/en.json",
        "uriBaseId": "%SRCROOT%",
    }


def test_github_workspace_variable_is_the_root_of_the_paths(tmp_path, example_project, run_cli):
    checkout = tmp_path  # no `.git`: a checkout GitHub Actions names
    (example_project / "src" / "Extra.tsx").write_text("t('extra.key');\n", "utf-8")

    result = run_cli(
        "validate",
        "--format",
        "github",
        cwd=example_project,
        env={"GITHUB_WORKSPACE": str(checkout)},
    )

    assert any(
        line.startswith("::error file=app/src/Extra.tsx,") for line in commands(result.stdout)
    )


@pytest.mark.slow
def test_workspace_findings_without_a_file_are_placed_at_their_projects_config(
    repository_with_app, run_cli
):
    other = repository_with_app / "apps" / "admin"
    (other / "locales").mkdir(parents=True)
    (other / "i18nprune.config.json").write_text('{"locales": {"source": "en"}}', "utf-8")
    (other / "locales" / "en.json").write_text('{"save": "Save"}\n', "utf-8")
    (other / "src").mkdir()
    (other / "src" / "main.ts").write_text("t('save');\n", "utf-8")

    result = run_cli("--workspace", "validate", "--format", "github", cwd=repository_with_app)

    lines = commands(result.stdout)
    assert (
        "::error file=apps/web/i18nprune.config.json,line=1,"
        "title=i18nprune.workspace.project_failed::`apps/web` failed (1 of 2 project(s) failed: "
        "apps/web)"
    ) in lines
    assert any(
        line.startswith(
            "::warning file=apps/web/i18nprune.config.json,line=1,"
            "title=i18nprune.validate.dynamic_key_sites::"
        )
        for line in lines
    )
    results = sarif(
        run_cli("--workspace", "validate", "--format", "sarif", cwd=repository_with_app)
    )["runs"][0]["results"]
    assert all(result_["locations"] for result_ in results)
