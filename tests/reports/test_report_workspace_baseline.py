"""`report --baseline` across a workspace, run as the real executable: a saved workspace report
compared project by project (matched by the folder relative to the workspace root), a project
new or gone since, and a one project's report where a workspace's is expected, and back."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from i18nprune.scan.repository import is_report
from tests.conftest import write_tree

CONFIG = {"locales": {"source": "en", "directory": "locales"}, "src": "src", "functions": ["t"]}
WEB = {
    "i18nprune.config.json": CONFIG,
    "src/app.ts": "t('home.title');\n",
    "locales/en.json": {"home": {"title": "Welcome", "old": "Old text"}},
    "locales/fr.json": {},
}
ADMIN = {
    "i18nprune.config.json": CONFIG,
    "src/main.ts": "t('save');\n",
    "locales/en.json": {"save": "Save"},
    "locales/de.json": {"save": "Speichern"},
}


def monorepo(root: Path) -> Path:
    """A repository (its `.git` says where it starts) with two projects."""
    write_tree(root / "packages/web", WEB)
    write_tree(root / "apps/admin", ADMIN)
    (root / ".git").mkdir()
    return root


def pull_request(repo: Path) -> None:
    """What a branch changes: web uses a new key and translates its title; admin is gone;
    docs is a new project with an unused key."""
    (repo / "packages/web/src/app.ts").write_text("t('home.title');\nt('home.new');\n")
    (repo / "packages/web/locales/fr.json").write_text('{"home": {"title": "Bienvenue"}}')
    for path in sorted((repo / "apps/admin").rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    (repo / "apps/admin").rmdir()
    write_tree(
        repo / "apps/docs",
        {
            "i18nprune.config.json": CONFIG,
            "src/page.ts": "t('intro');\n",
            "locales/en.json": {"intro": "Intro", "spare": "Spare"},
        },
    )


def test_a_workspace_baseline_compares_each_project_with_its_own_earlier_report(tmp_path, run_cli):
    repo = monorepo(tmp_path / "repo")
    saved = run_cli("report", "--workspace", "--format", "json", "--out", "main.json", cwd=repo)
    assert saved.code == 0, saved.stderr
    pull_request(repo)

    result = run_cli("report", "--workspace", "--json", "--baseline", "main.json", cwd=repo)

    assert result.code == 0, result.stderr
    data = result.envelope["data"]
    assert data["changes"]["compared"] == ["packages/web"]
    assert data["changes"]["newProjects"] == ["apps/docs"]
    assert data["changes"]["removedProjects"] == ["apps/admin"]
    projects = {project["root"]: project["data"] for project in data["projects"]}
    web = projects["packages/web"]["changes"]
    assert web["newly"] == {"missing": ["home.new"]}
    assert web["coverage"] == [{"locale": "fr", "before": 0.0, "after": 0.5}]
    assert "newProject" not in web
    docs = projects["apps/docs"]["changes"]
    assert docs["newProject"] is True and docs["newly"] == {"unused": ["spare"]}
    assert docs["coverage"] == [{"locale": "en", "before": None, "after": 1.0}]


@pytest.mark.slow
def test_the_page_csv_and_text_show_a_workspace_s_changes(tmp_path, run_cli):
    repo = monorepo(tmp_path / "repo")
    assert run_cli("report", "--workspace", "--out", "main.json", cwd=repo).code == 0
    pull_request(repo)

    page = run_cli("report", "--workspace", "--baseline", "main.json", "--out", "r.html", cwd=repo)
    table = run_cli("report", "--workspace", "--baseline", "main.json", "--out", "r.csv", cwd=repo)
    text = run_cli("report", "--workspace", "--baseline", "main.json", cwd=repo)

    assert page.code == table.code == text.code == 0, page.stderr + table.stderr + text.stderr
    html = (repo / "r.html").read_text()
    top = html[html.index("<main>") : html.index('id="projects"')]  # before the projects
    assert "Removed project: <code>apps/admin</code>" in top
    assert 'New project <a href="#p0-changes"><code>apps/docs</code></a>: newly unused 1' in top
    assert (
        '<a href="#p1-changes"><code>packages/web</code></a>: newly missing 1 · '
        "fr coverage up: 0 % → 50 %" in top
    )
    assert 'id="p1-changes"' in html and 'id="p0-changes"' in html
    rows = list(csv.DictReader(io.StringIO((repo / "r.csv").read_text())))
    assert {"project": "apps/admin", "change": "project removed"}.items() <= rows[0].items()
    changed = {(row["project"], row["status"], row["key"]): row["change"] for row in rows[1:]}
    assert changed[("apps/docs", "unused", "spare")] == "new"
    assert changed[("packages/web", "missing", "home.new")] == "new"
    assert changed[("packages/web", "unused", "home.old")] == ""
    assert "new project(s): apps/docs" in text.stdout
    assert "removed project(s): apps/admin" in text.stdout
    assert "compared: packages/web" in text.stdout
    # saved in the repository with their changes, they are still no evidence of any key
    assert all(is_report((repo / name).read_bytes()) for name in ("r.html", "r.csv"))
    cleanup = run_cli("cleanup", "--dry-run", "--json", cwd=repo / "packages/web")
    assert cleanup.envelope["data"]["keys"] == ["home.old"]


def test_a_one_project_baseline_at_a_workspace_root_applies_to_the_project_it_records(
    tmp_path, run_cli
):
    repo = monorepo(tmp_path / "repo")
    saved = run_cli("report", "--out", "../../web.json", cwd=repo / "packages/web")
    assert saved.code == 0, saved.stderr
    assert json.loads((repo / "web.json").read_text())["data"]["folder"] == "packages/web"
    (repo / "packages/web/src/app.ts").write_text("t('home.title');\nt('home.new');\n")

    result = run_cli("report", "--workspace", "--json", "--baseline", "web.json", cwd=repo)

    assert result.code == 0, result.stderr
    data = result.envelope["data"]
    assert data["changes"]["compared"] == ["packages/web"]
    assert data["changes"]["newProjects"] == data["changes"]["removedProjects"] == []
    projects = {project["root"]: project["data"] for project in data["projects"]}
    assert projects["packages/web"]["changes"]["newly"] == {"missing": ["home.new"]}
    assert projects["apps/admin"]["changes"] is None  # nothing to compare it with
    text = run_cli("report", "--workspace", "--baseline", "web.json", cwd=repo).stdout
    assert "not compared (the baseline has no report of them): apps/admin" in text


def test_a_one_project_baseline_of_no_project_of_the_workspace_is_a_usage_error(tmp_path, run_cli):
    repo = monorepo(tmp_path / "repo")
    write_tree(repo / "tools/site", WEB)  # a project outside the workspace's file
    write_tree(repo, {"i18nprune.workspace.json": {"projects": ["apps/*", "packages/*"]}})
    assert run_cli("report", "--out", "../../site.json", cwd=repo / "tools/site").code == 0

    result = run_cli("report", "--workspace", "--baseline", "site.json", cwd=repo)

    assert result.code == 2
    assert "site.json: the report of one project (`tools/site` in its repository" in result.stderr
    assert "none of this workspace's projects: apps/admin, packages/web" in result.stderr
    assert "pass a report saved at the workspace root" in result.stderr


def test_a_workspace_baseline_in_one_project_compares_it_with_its_own_part(tmp_path, run_cli):
    repo = monorepo(tmp_path / "repo")
    assert run_cli("report", "--workspace", "--out", "main.json", cwd=repo).code == 0
    (repo / "packages/web/src/app.ts").write_text("t('home.title');\nt('home.new');\n")
    write_tree(repo / "apps/docs", {**ADMIN, "locales/de.json": {}})

    web = run_cli("report", "--json", "--baseline", "../../main.json", cwd=repo / "packages/web")
    docs = run_cli("report", "--json", "--baseline", "main.json", "-C", "apps/docs", cwd=repo)

    assert web.code == 0, web.stderr
    assert web.envelope["data"]["changes"]["newly"] == {"missing": ["home.new"]}
    assert docs.code == 2
    [issue] = docs.envelope["issues"]
    assert issue["code"] == "i18nprune.report.baseline_mismatch"
    assert issue["message"].startswith(
        "main.json: a workspace's report, and none of its projects (apps/admin, packages/web) "
        "is this one (`apps/docs` in its repository)"
    )


def test_another_project_s_report_is_compared_with_a_warning_that_it_is_another_s(
    tmp_path, run_cli
):
    repo = monorepo(tmp_path / "repo")
    assert run_cli("report", "--out", "../../web.json", cwd=repo / "packages/web").code == 0

    result = run_cli("report", "--json", "--baseline", "../../web.json", cwd=repo / "apps/admin")

    assert result.code == 0, result.stderr
    document = result.envelope["data"]
    assert document["changes"]["resolved"] == {"unused": ["home.old"]}
    [note] = [note for note in document["notes"] if note["op"] == "report"]
    assert note["severity"] == "warning"
    assert note["message"] == (
        "../../web.json is the report of `packages/web`, not of this project (`apps/admin`)"
    )
