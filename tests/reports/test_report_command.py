"""`report`, run as the real executable on temp projects: the document's figures, each output
format, `--out`, and the changes since a baseline."""

from __future__ import annotations

import csv
import io
import json
import re

from tests.conftest import write_tree

CONFIG = {"locales": {"source": "en", "directory": "locales"}, "src": "src", "functions": ["t"]}
APP = {
    "i18nprune.config.json": CONFIG,
    "src/app.ts": (
        "t('home.title');\nt('home.greeting', { name });\nt('home.absent');\nt(`menu.${item}`);\n"
    ),
    "locales/en.json": {
        "home": {"title": "Welcome", "greeting": "Hello {name}", "old": "Old text"},
        "menu": {"file": "File", "edit": "Edit"},
    },
    "locales/fr.json": (
        "{\n"
        '  "home": {\n'
        '    "title": {"value": "Bienvenue", "needsReview": true},\n'
        '    "greeting": "Bonjour"\n'
        "  },\n"
        '  "menu": {"file": "Fichier"}\n'
        "}\n"
    ),
}


def statuses(document: dict) -> dict[str, list[tuple[str, str | None, str | None, int | None]]]:
    found: dict[str, list[tuple[str, str | None, str | None, int | None]]] = {}
    for row in document["keys"]:
        found.setdefault(row["status"], []).append(
            (row["key"], row.get("locale"), row.get("file"), row.get("line"))
        )
    return found


def test_the_document_counts_coverage_and_lists_each_key_to_act_on(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", APP)

    result = run_cli("report", "--json", cwd=root)

    assert result.code == 0, result.stderr
    document = result.envelope["data"]
    assert document["schema"] == 1 and document["sourceLocale"] == "en"
    coverage = {row["locale"]: row for row in document["locales"]}
    assert coverage["en"]["source"] and coverage["en"]["translated"] == 5
    # fr: title (marked, still a translation), greeting, menu.file of the 5 source texts
    assert (coverage["fr"]["translated"], coverage["fr"]["leaves"]) == (3, 5)
    assert coverage["fr"]["name"] == "French"
    assert coverage["fr"]["needsReview"] == 1
    assert coverage["fr"]["qualityErrors"] == 1  # `{name}` lost in "Bonjour"
    found = statuses(document)
    assert found["missing"] == [("home.absent", "en", "src/app.ts", 3)]
    assert found["unused"] == [("home.old", "en", "locales/en.json", 5)]
    unused = next(row for row in document["keys"] if row["status"] == "unused")
    assert unused["detail"] == "no code site uses it: 'Old text'"  # ids say little alone
    assert found["needsReview"] == [("home.title", "fr", "locales/fr.json", None)]
    assert [row[:3] for row in found["quality"]] == [("home.greeting", "fr", "locales/fr.json")]
    assert "menu" not in json.dumps(found)  # menu.* is reached by a dynamic site, never unused
    assert [site["preview"] for site in document["dynamic"]] == ["t(`menu.${item}`)"]
    counts = document["counts"]
    assert (counts["missing"], counts["unused"], counts["dynamic"]) == (1, 1, 1)
    assert counts["cleanupRefused"] is False
    assert any(note["op"] == "validate" for note in document["notes"])
    # the lost placeholder is a row; its per-locale summary is no note besides
    assert [note["op"] for note in document["notes"]].count("quality") == 0


def test_a_page_is_one_self_contained_file_with_links_from_where_it_is(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", APP)

    result = run_cli("report", "--out", "../artifacts/report.html", cwd=root)

    assert result.code == 0, result.stderr
    page = (tmp_path / "artifacts" / "report.html").read_text()
    assert page.startswith("<!doctype html>") and page.rstrip().endswith("</html>")
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    # nothing the page would fetch: no external script, style, font or image
    assert not re.search(r"""(src|href)=["'](https?:)?//""", page)
    assert not re.search(r"<(link|img|iframe|object|embed)\b", page)
    assert "@import" not in page and "url(" not in page
    assert 'href="../app/src/app.ts#L3"' in page
    assert "<svg" in page and "home.absent" in page
    assert "wrote ../artifacts/report.html (html)" in result.stderr
    assert result.stdout == ""


def test_csv_and_text_are_the_same_document(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", APP)
    document = run_cli("report", "--json", cwd=root).envelope["data"]

    as_csv = run_cli("report", "--out", "keys.csv", cwd=root)
    text = run_cli("report", "--full", cwd=root)

    assert as_csv.code == 0 and text.code == 0, as_csv.stderr + text.stderr
    rows = list(csv.DictReader(io.StringIO((root / "keys.csv").read_text())))
    assert [(row["status"], row["key"]) for row in rows] == [
        (row["status"], row["key"]) for row in document["keys"]
    ]
    assert rows[0] == {
        "status": "missing",
        "key": "home.absent",
        "locale": "en",
        "file": "src/app.ts",
        "line": "3",
        "detail": "used in 1 place(s), absent from the source locale",
    }
    assert re.search(r"^  fr +60 % +3/5$", text.stdout, re.MULTILINE), text.stdout
    for row in document["keys"]:
        assert row["key"] in text.stdout


def test_a_baseline_shows_what_changed(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", APP)
    saved = run_cli("report", "--format", "json", "--out", "before.json", cwd=root)
    assert saved.code == 0, saved.stderr
    # the pull request: a new key used, the lost placeholder mended, `menu.edit` translated
    (root / "src/app.ts").write_text((root / "src/app.ts").read_text() + "t('home.new');\n")
    (root / "locales/fr.json").write_text(
        json.dumps(
            {
                "home": {"title": "Bienvenue", "greeting": "Bonjour {name}"},
                "menu": {"file": "Fichier", "edit": "Édition"},
            }
        )
    )

    result = run_cli("report", "--json", "--baseline", "before.json", cwd=root)

    assert result.code == 0, result.stderr
    changes = result.envelope["data"]["changes"]
    assert changes["newly"] == {"missing": ["home.new"]}
    assert changes["resolved"] == {"needsReview": ["home.title"], "quality": ["home.greeting"]}
    assert changes["coverage"] == [{"locale": "fr", "before": 0.6, "after": 0.8}]
    page = run_cli("report", "--baseline", "before.json", "--format", "html", cwd=root).stdout
    assert "Newly missing: 1" in page and "Coverage of <code>fr</code> up: 60 % → 80 %" in page
    text = run_cli("report", "--baseline", "before.json", cwd=root).stdout
    assert "  newly missing: 1 (home.new)\n" in text
    assert "  coverage fr up: 60 % → 80 %\n" in text
    table = run_cli("report", "--baseline", "before.json", "--format", "csv", cwd=root).stdout
    changed = {
        (row["status"], row["key"]): row["change"] for row in csv.DictReader(io.StringIO(table))
    }
    assert changed[("missing", "home.new")] == "new" and changed[("missing", "home.absent")] == ""
    assert (
        changed[("needsReview", "home.title")]
        == changed[("quality", "home.greeting")]
        == ("resolved")
    )


def test_reports_saved_in_the_repository_are_never_evidence(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", APP)
    for name in ("report.json", "report.html", "keys.csv", "report.txt"):
        assert run_cli("report", "--out", f"reports/{name}", cwd=root).code == 0
    assert "home.old" in (root / "reports/report.txt").read_text()

    cleanup = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    assert cleanup.envelope["data"]["keys"] == ["home.old"]
    assert cleanup.envelope["data"]["referenced"] == []


def test_a_baseline_that_is_not_a_report_is_refused_by_name(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", {**APP, "old.json": '{"kind": "validate"}'})

    result = run_cli("report", "--json", "--baseline", "old.json", cwd=root)

    assert result.code != 0
    issue = result.envelope["issues"][0]
    assert issue["code"] == "i18nprune.report.baseline_invalid"
    assert issue["message"].startswith("old.json: not a saved report")
    assert "report --format json --out" in issue["message"]


def test_formats_that_do_not_fit_the_command_are_usage_errors(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", APP)

    page_for_validate = run_cli("validate", "--format", "html", cwd=root)
    sarif_report = run_cli("report", "--format", "sarif", cwd=root)

    assert page_for_validate.code == 2
    assert "--format html is for `report`" in page_for_validate.stderr
    assert sarif_report.code == 2
    assert "report writes html, json, csv or text" in sarif_report.stderr


def test_a_refused_cleanup_is_reported_as_not_judged_never_as_nothing_unused(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", {**APP, "src/broken.ts": "const = ;\nt('home.old');\n"})

    result = run_cli("report", "--json", cwd=root)

    counts = result.envelope["data"]["counts"]
    assert counts["cleanupRefused"] is True and counts["unused"] == 0
    assert any(note["op"] == "cleanup" for note in result.envelope["data"]["notes"])
    text = run_cli("report", cwd=root).stdout
    assert "unused not judged (cleanup refused)" in text


def test_an_unwritable_out_is_a_clear_error_and_nothing_is_written(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", APP)
    before = sorted(path.name for path in root.iterdir())

    result = run_cli("report", "--out", "i18nprune.config.json/report.html", cwd=root)

    assert result.code == 2
    assert "i18nprune.config.json/report.html: cannot write the report" in result.stderr
    assert "choose another --out" in result.stderr
    assert sorted(path.name for path in root.iterdir()) == before
    assert json.loads((root / "i18nprune.config.json").read_text()) == CONFIG


def test_a_workspace_gets_one_page_with_a_section_per_project(tmp_path, run_cli):
    web = write_tree(tmp_path / "repo/packages/web", APP)
    write_tree(
        tmp_path / "repo/apps/admin",
        {
            "i18nprune.config.json": CONFIG,
            "src/main.ts": "t('save');\n",
            "locales/en.json": {"save": "Save"},
            "locales/de.json": {"save": "Speichern"},
        },
    )
    repo = tmp_path / "repo"

    page = run_cli("report", "--workspace", "--out", "out/report.html", cwd=repo)
    keys = run_cli("report", "--workspace", "--format", "csv", cwd=repo)
    whole = run_cli("report", "--workspace", "--json", cwd=repo)

    assert page.code == 0, page.stderr
    text = (repo / "out/report.html").read_text()
    assert text.count('class="keys"') == 1  # admin has nothing to act on
    assert '<a href="#p0"><code>apps/admin</code></a>' in text
    assert '<a href="#p1"><code>packages/web</code></a>' in text
    assert 'href="../packages/web/src/app.ts#L3"' in text
    assert keys.stdout.splitlines()[1] == (
        "packages/web,missing,home.absent,en,src/app.ts,3,"
        '"used in 1 place(s), absent from the source locale"'
    )
    projects = {p["root"]: p for p in whole.envelope["data"]["projects"]}
    assert projects["apps/admin"]["data"]["locales"][1]["translated"] == 1
    assert web.is_dir()
    # saved in the repository, none of them is evidence that keeps `home.old`
    run_cli("report", "--workspace", "--out", "out/keys.csv", cwd=repo)
    run_cli("report", "--workspace", "--out", "out/report.txt", cwd=repo)
    cleanup = run_cli("cleanup", "--dry-run", "--json", cwd=web)
    assert cleanup.envelope["data"]["keys"] == ["home.old"]


def test_stale_translations_are_listed_and_counted_and_locales_named_by_the_catalog(
    tmp_path, run_cli
):
    root = write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": CONFIG,
            "src/app.ts": "t('home.title');\nt('home.body');\n",
            "locales/en.json": {"home": {"title": "Welcome", "body": "Read on"}},
        },
    )
    made = run_cli("generate", "--target", "pt_BR", "--provider", "pseudo", "--yes", cwd=root)
    assert made.code == 0, made.stderr
    # the source text changes after it was translated: the translation is stale
    (root / "locales/en.json").write_text('{"home": {"title": "Welcome back", "body": "Read on"}}')

    document = run_cli("report", "--json", cwd=root).envelope["data"]

    assert statuses(document)["stale"] == [("home.title", "pt-br", None, None)]
    row = next(row for row in document["locales"] if row["locale"] == "pt-br")
    assert (row["stale"], row["name"]) == (1, "Portuguese (Brazil)")
    assert document["counts"]["stale"] == 1
