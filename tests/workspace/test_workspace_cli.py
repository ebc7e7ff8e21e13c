"""Commands over a workspace: one envelope with a result per project, `ok` only when every
project is, files written only in the projects that need it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from i18nprune.envelope import Code
from i18nprune.workspace import WORKSPACE_FILE


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")


def monorepo(root: Path) -> Path:
    """`packages/web`: one file per locale, a key missing from the source; `apps/admin`: a
    directory per locale (`messages/en/common.json`), complete."""
    web = root / "packages" / "web"
    write(
        web / "i18nprune.config.json",
        '{"locales": {"source": "en", "directory": "locales"}, "src": "src"}',
    )
    write(web / "locales" / "en.json", '{"home": {"title": "Home"}}\n')
    write(web / "locales" / "fr.json", '{"home": {"title": "Accueil"}}\n')
    write(web / "src" / "App.tsx", "t('home.title'); t('home.subtitle');\n")
    admin = root / "apps" / "admin"
    write(
        admin / "i18nprune.config.json",
        '{"locales": {"source": "en", "directory": "messages", "mode": "locale_directory",'
        ' "structure": "locale_per_dir"}, "src": "src"}',
    )
    write(admin / "messages" / "en" / "common.json", '{"save": "Save"}\n')
    write(admin / "messages" / "de" / "common.json", '{"save": "Speichern"}\n')
    write(admin / "src" / "main.ts", "t('save');\n")
    return root


def files(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*.json"))
    }


@pytest.mark.slow
def test_workspace_file_makes_validate_run_per_project_with_one_envelope(tmp_path, run_cli):
    root = monorepo(tmp_path)
    write(root / WORKSPACE_FILE, '{"projects": ["packages/*", "apps/admin"]}')

    result = run_cli("validate", "--json", cwd=root)

    assert result.code == 1
    envelope = result.envelope
    assert envelope["ok"] is False and envelope["kind"] == "validate"
    by_root = {project["root"]: project for project in envelope["data"]["projects"]}
    assert list(by_root) == ["apps/admin", "packages/web"]
    assert by_root["apps/admin"]["ok"] is True
    assert by_root["apps/admin"]["data"]["missing"] == []
    assert by_root["packages/web"]["ok"] is False
    assert by_root["packages/web"]["data"]["missing"] == ["home.subtitle"]
    [summary] = envelope["issues"]
    assert summary["code"] == Code.WORKSPACE_PROJECT_FAILED
    assert "1 of 2 project(s) failed: packages/web" in summary["message"]


@pytest.mark.slow
def test_workspace_flag_finds_projects_by_their_config_files(tmp_path, run_cli):
    root = monorepo(tmp_path)

    single = run_cli("validate", "--json", cwd=root)  # no workspace file, no flag: one project
    assert "projects" not in (single.envelope["data"] or {})
    result = run_cli("--workspace", "validate", "--json", cwd=root)

    roots = [project["root"] for project in result.envelope["data"]["projects"]]
    assert roots == ["apps/admin", "packages/web"]
    assert result.envelope["data"]["workspaceFile"] is None


@pytest.mark.slow
def test_workspace_write_changes_only_the_project_that_needs_it(tmp_path, run_cli):
    root = monorepo(tmp_path)
    write(root / WORKSPACE_FILE, '{"projects": ["packages/*", "apps/*"]}')
    before = files(root)

    result = run_cli("missing", "--yes", "--json", cwd=root)

    assert result.code == 0, result.stdout
    after = files(root)
    changed = sorted(name for name in after if after[name] != before.get(name))
    assert changed == ["packages/web/locales/en.json"]
    assert json.loads(after["packages/web/locales/en.json"])["home"]["subtitle"]


@pytest.mark.slow
def test_workspace_check_fails_for_one_project_and_writes_nothing(tmp_path, run_cli):
    root = monorepo(tmp_path)
    write(root / WORKSPACE_FILE, '{"projects": ["packages/*", "apps/*"]}')
    before = files(root)

    result = run_cli("missing", "--check", "--json", cwd=root)

    assert result.code == 1
    by_root = {project["root"]: project for project in result.envelope["data"]["projects"]}
    web_codes = [issue["code"] for issue in by_root["packages/web"]["issues"]]
    assert Code.CHECK_WOULD_CHANGE in web_codes
    assert by_root["apps/admin"]["ok"] is True
    assert files(root) == before


@pytest.mark.slow
def test_workspace_human_output_groups_by_project_with_a_summary(tmp_path, run_cli):
    root = monorepo(tmp_path)
    write(root / WORKSPACE_FILE, '{"projects": ["packages/*", "apps/*"]}')

    result = run_cli("validate", cwd=root)

    lines = result.stdout.splitlines()
    admin = lines.index("── apps/admin ok")
    web = lines.index("── packages/web failed")
    assert admin < web
    assert lines[-1] == "2 project(s): 1 ok, 1 failed"
    assert "home.subtitle" in "\n".join(lines[web:])


@pytest.mark.slow
def test_workspace_list_shows_each_project_with_its_locales(tmp_path, run_cli):
    root = monorepo(tmp_path)
    write(root / WORKSPACE_FILE, '{"projects": ["packages/*", "apps/*"]}')

    result = run_cli("workspace", "list", "--json", cwd=root)

    assert result.code == 0, result.stdout
    data = result.envelope["data"]
    assert data["workspaceFile"] == WORKSPACE_FILE
    assert data["discovered"] is False
    assert data["projects"] == [
        {
            "root": "apps/admin",
            "configPath": "apps/admin/i18nprune.config.json",
            "source": "en",
            "locales": ["de", "en"],
            "localeNames": {"de": "de", "en": "en"},
            "reason": None,
        },
        {
            "root": "packages/web",
            "configPath": "packages/web/i18nprune.config.json",
            "source": "en",
            "locales": ["en", "fr"],
            "localeNames": {"en": "en", "fr": "fr"},
            "reason": None,
        },
    ]
    human = run_cli("workspace", "list", cwd=root)
    assert "packages/web" in human.stdout and "targets fr" in human.stdout


@pytest.mark.slow
def test_workspace_github_format_prefixes_paths_with_the_project_folder(tmp_path, run_cli):
    root = monorepo(tmp_path)
    write(root / WORKSPACE_FILE, '{"projects": ["packages/*", "apps/*"]}')
    write(root / "packages" / "web" / "src" / "Broken.tsx", 'export const X = () => t("a";\n')

    result = run_cli("validate", "--format", "github", cwd=root)

    assert any(
        line.startswith("::warning file=packages/web/src/Broken.tsx,line=1,")
        for line in result.stdout.splitlines()
    )


def test_an_invalid_workspace_file_is_an_error_naming_it(tmp_path, run_cli):
    root = monorepo(tmp_path)
    write(root / WORKSPACE_FILE, '{"projects": ["packages/*",]}')

    result = run_cli("validate", "--json", cwd=root)

    assert result.code == 1
    [issue] = result.envelope["issues"]
    assert issue["code"] == Code.WORKSPACE_INVALID
    assert f"{WORKSPACE_FILE}:1:" in issue["message"]


@pytest.mark.slow
def test_ask_in_a_workspace_is_a_usage_error(tmp_path, run_cli):
    root = monorepo(tmp_path)
    write(root / WORKSPACE_FILE, '{"projects": ["packages/*"]}')

    result = run_cli("cleanup", "--ask", "--json", cwd=root)

    assert result.code == 2
    assert "--ask works on one project" in result.envelope["issues"][0]["message"]
