"""`op.report`'s baseline, named relative to the project's root as every path of a request is
(docs/serve.md), whatever folder the server runs in."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import write_tree
from tests.serve.conftest import ServeFactory

APP = {
    "i18nprune.config.json": {"locales": {"source": "en", "directory": "locales"}, "src": "src"},
    "src/app.ts": "t('home.title');\n",
    "locales/en.json": {"home": {"title": "Welcome"}},
    "locales/fr.json": {},
}


def test_a_relative_baseline_is_read_from_the_project_root(
    tmp_path: Path, serve: ServeFactory, run_cli
) -> None:
    root = write_tree(tmp_path / "app", APP)
    saved = run_cli("report", "--format", "json", "--out", "reports/before.json", cwd=root)
    assert saved.code == 0, saved.stderr
    (root / "locales/fr.json").write_text('{"home": {"title": "Bienvenue"}}\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    client = serve("--project", str(root), cwd=elsewhere)

    found = client.request("op.report", {"options": {"baseline": "reports/before.json"}})
    absent = client.request("op.report", {"options": {"baseline": "before.json"}})

    changes = found.unwrap()["data"]["changes"]
    assert changes["coverage"] == [{"locale": "fr", "before": 0.0, "after": 1.0}]
    [issue] = absent.unwrap()["issues"]
    assert issue["code"] == "i18nprune.report.baseline_invalid"
    assert issue["message"].startswith("before.json: cannot read the baseline")


def test_at_a_workspace_root_a_saved_workspace_report_is_compared_project_by_project(
    tmp_path: Path, serve: ServeFactory, run_cli
) -> None:
    mono = write_tree(tmp_path / "mono", {"packages/web/" + rel: v for rel, v in APP.items()})
    write_tree(mono / "packages/admin", APP)
    (mono / ".git").mkdir()
    saved = run_cli("report", "--workspace", "--out", "reports/main.json", cwd=mono)
    assert saved.code == 0, saved.stderr
    (mono / "packages/web/locales/fr.json").write_text('{"home": {"title": "Bienvenue"}}\n')
    write_tree(mono / "packages/docs", APP)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    client = serve("--project", str(mono), cwd=elsewhere)

    envelope = client.op("report", {"baseline": "reports/main.json"})

    assert envelope["ok"], envelope["issues"]
    changes = envelope["data"]["changes"]
    assert changes["compared"] == ["packages/admin", "packages/web"]
    assert changes["newProjects"] == ["packages/docs"]
    projects = {project["root"]: project["data"] for project in envelope["data"]["projects"]}
    web = projects["packages/web"]["changes"]
    assert web["coverage"] == [{"locale": "fr", "before": 0.0, "after": 1.0}]
    assert projects["packages/admin"]["changes"]["coverage"] == []
    assert projects["packages/docs"]["changes"]["newProject"] is True
