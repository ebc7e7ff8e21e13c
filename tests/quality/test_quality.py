"""`quality`, run as the real executable on temp projects: each kind of finding, a clean target,
files that do not parse, and the exit codes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CliResult, write_tree

RunCli = Callable[..., CliResult]
CONFIG = {"locales": {"source": "en", "directory": "locales"}, "src": "src", "functions": ["t"]}


def project(root: Path, en: dict[str, Any], **targets: dict[str, Any] | str) -> Path:
    files: dict[str, Any] = {
        "i18nprune.config.json": CONFIG,
        "src/app.ts": "t('greeting')\n",
        "locales/en.json": en,
    }
    for code, content in targets.items():
        files[f"locales/{code}.json"] = content
    return write_tree(root, files)


def quality(run_cli: RunCli, root: Path, *args: str) -> CliResult:
    return run_cli("quality", "--json", *args, cwd=root)


def findings(result: CliResult) -> list[tuple[str, str, str, str]]:
    """(target, path, kind, severity) of every finding."""
    return [
        (f["target"], f["path"], f["kind"], f["severity"])
        for f in result.envelope["data"]["findings"]
    ]


@pytest.mark.slow
def test_a_clean_target_has_no_findings_and_exits_0(tmp_path: Path, run_cli: RunCli) -> None:
    root = project(
        tmp_path,
        {"greeting": "Hello, {{name}}!", "save": "Save", "code": "404"},
        fr={"greeting": "Bonjour, {{name}} !", "save": "Enregistrer", "code": "404"},
    )
    result = quality(run_cli, root)
    assert result.code == 0, result.stdout
    envelope = result.envelope
    assert envelope["ok"] is True and envelope["kind"] == "quality"
    assert envelope["data"]["findings"] == []
    assert envelope["data"]["targets"] == [
        {"target": "fr", "checkedLeaves": 3, "errors": 0, "warnings": 0, "infos": 0}
    ]
    assert envelope["issues"] == []


def test_a_lost_placeholder_is_an_error_and_exits_1(tmp_path: Path, run_cli: RunCli) -> None:
    root = project(tmp_path, {"greeting": "Hello, {{name}}!"}, fr={"greeting": "Bonjour !"})
    result = quality(run_cli, root)
    assert result.code == 1
    assert result.envelope["ok"] is False
    [finding] = result.envelope["data"]["findings"]
    assert finding == {
        "target": "fr",
        "path": "greeting",
        "kind": "placeholders",
        "severity": "error",
        "message": "placeholders differ from the source: missing {{name}}",
        "file": "locales/fr.json",
        "line": 2,
        "column": 3,
    }
    [issue] = result.envelope["issues"]
    assert issue["code"] == "i18nprune.quality.placeholder_mismatch"
    assert issue["severity"] == "error" and issue["path"] == "locales/fr.json"
    assert result.envelope["data"]["targets"][0]["errors"] == 1


@pytest.mark.slow
def test_an_invented_placeholder_is_an_error(tmp_path: Path, run_cli: RunCli) -> None:
    root = project(tmp_path, {"greeting": "Hello"}, de={"greeting": "Hallo %s"})
    result = quality(run_cli, root)
    assert findings(result) == [("de", "greeting", "placeholders", "error")]
    assert "extra %s" in result.envelope["data"]["findings"][0]["message"]


@pytest.mark.slow
def test_a_changed_icu_structure_is_an_error(tmp_path: Path, run_cli: RunCli) -> None:
    root = project(
        tmp_path,
        {"greeting": "{gender, select, male {He} female {She} other {They}} replied"},
        fr={"greeting": "{gender, select, male {Il} other {Iel}} a répondu"},
    )
    result = quality(run_cli, root)
    assert findings(result) == [("fr", "greeting", "placeholders", "error")]
    assert "`female` missing" in result.envelope["data"]["findings"][0]["message"]


@pytest.mark.slow
def test_icu_plural_branches_the_target_language_uses_are_not_errors(
    tmp_path: Path, run_cli: RunCli
) -> None:
    source = "{count, plural, one {# item} other {# items}}"
    russian = "{count, plural, one {# товар} few {# товара} many {# товаров} other {# товара}}"
    french = "{count, plural, one {un article} many {# articles} other {# articles}}"
    root = project(
        tmp_path,
        {"greeting": source},
        ru={"greeting": russian},
        ja={"greeting": "{count, plural, other {#個}}"},
        fr={"greeting": french},
    )
    result = quality(run_cli, root)
    assert result.code == 0, result.stdout
    assert findings(result) == []


@pytest.mark.slow
def test_an_icu_plural_lacking_a_category_is_a_plural_warning(
    tmp_path: Path, run_cli: RunCli
) -> None:
    root = project(
        tmp_path,
        {"greeting": "{count, plural, one {# item} other {# items}}"},
        ru={"greeting": "{count, plural, one {# товар} other {# товаров}}"},
    )
    result = quality(run_cli, root)
    assert result.code == 0
    assert findings(result) == [("ru", "greeting", "plural_forms", "warning")]
    message = result.envelope["data"]["findings"][0]["message"]
    assert "lacks `few`, `many`" in message


@pytest.mark.slow
def test_i18next_plural_keys_lacking_a_category_the_language_needs(
    tmp_path: Path, run_cli: RunCli
) -> None:
    en = {"cart": {"items_one": "{{count}} item", "items_other": "{{count}} items"}}
    root = project(
        tmp_path,
        en,
        ru={"cart": {"items_one": "{{count}} товар", "items_other": "{{count}} товаров"}},
        de={"cart": {"items_one": "{{count}} Artikel", "items_other": "{{count}} Artikel"}},
        ja={"cart": {"items_other": "{{count}}個"}},
    )
    result = quality(run_cli, root)
    assert result.code == 0
    assert findings(result) == [("ru", "cart.items", "plural_forms", "warning")]
    finding = result.envelope["data"]["findings"][0]
    assert finding["file"] == "locales/ru.json"
    assert "`few`, `many`" in finding["message"]
    [issue] = result.envelope["issues"]
    assert issue["code"] == "i18nprune.quality.missing_plural_forms"


@pytest.mark.slow
def test_a_plural_group_the_target_lacks_entirely_is_not_a_quality_finding(
    tmp_path: Path, run_cli: RunCli
) -> None:
    en = {"save": "Save", "cart": {"items_one": "{{count}} item", "items_other": "{{count}} items"}}
    root = project(tmp_path, en, ru={"save": "Сохранить"})
    assert findings(quality(run_cli, root)) == []


@pytest.mark.slow
def test_text_identical_to_the_source_is_reported(tmp_path: Path, run_cli: RunCli) -> None:
    en = {
        "intro": "Welcome to the app",
        "ok": "Email",
        "items": "{{count}} items",
        "code": "404 / 500",
        "count": "{{count}}",
    }
    root = project(tmp_path, en, de=dict(en))
    result = quality(run_cli, root)
    assert result.code == 0
    # several words: a warning; one word may be the same in both languages: a note; no letters
    # or only placeholders: nothing to translate
    assert findings(result) == [
        ("de", "intro", "identical", "warning"),
        ("de", "ok", "identical", "info"),
        ("de", "items", "identical", "info"),
    ]
    assert result.envelope["issues"][0]["code"] == "i18nprune.quality.identical_to_source"


@pytest.mark.slow
def test_a_regional_variant_of_the_source_language_may_equal_the_source(
    tmp_path: Path, run_cli: RunCli
) -> None:
    en = {"intro": "Welcome to the app"}
    root = project(tmp_path, en, **{"en-GB": dict(en)})
    assert findings(quality(run_cli, root)) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    ("translation", "ratio"),
    [("Ceci est une traduction beaucoup trop longue pour ce texte", "6.4×"), ("Ok", "0.22×")],
    ids=["long", "short"],
)
def test_a_length_far_outside_the_source_is_a_warning(
    tmp_path: Path, run_cli: RunCli, translation: str, ratio: str
) -> None:
    root = project(tmp_path, {"greeting": "Save file"}, fr={"greeting": translation})
    result = quality(run_cli, root)
    assert findings(result) == [("fr", "greeting", "length", "warning")]
    assert result.envelope["data"]["findings"][0]["message"].startswith(ratio)


@pytest.mark.slow
def test_length_ignores_short_sources_and_counts_wide_characters_twice(
    tmp_path: Path, run_cli: RunCli
) -> None:
    root = project(
        tmp_path,
        {"greeting": "Hi", "settings": "Settings"},
        fr={"greeting": "Bonjour à vous tous", "settings": "Paramètres"},
        zh={"greeting": "你好", "settings": "设置"},
    )
    assert findings(quality(run_cli, root)) == []


@pytest.mark.slow
def test_edge_whitespace_that_differs_is_a_warning(tmp_path: Path, run_cli: RunCli) -> None:
    root = project(
        tmp_path,
        {"label": "Name: ", "title": " Home"},
        fr={"label": "Nom :", "title": " Accueil"},
    )
    result = quality(run_cli, root)
    assert findings(result) == [("fr", "label", "whitespace", "warning")]
    assert "trailing none (source ' ')" in result.envelope["data"]["findings"][0]["message"]


@pytest.mark.slow
def test_placeholder_and_pending_leaves_are_not_quality_findings(
    tmp_path: Path, run_cli: RunCli
) -> None:
    pending = {
        "value": "See you later, {{name}}",
        "status": "pending",
        "needsTranslationAgain": True,
    }
    root = project(
        tmp_path,
        {"greeting": "Hello, {{name}}!", "bye": "Goodbye everyone", "later": pending["value"]},
        fr={
            "greeting": "__I18NPRUNE_MISSING__",
            "bye": {"value": "__I18NPRUNE_MISSING__"},
            "later": pending,
        },
    )
    result = quality(run_cli, root)
    assert result.code == 0
    assert findings(result) == []
    assert result.envelope["data"]["targets"][0]["checkedLeaves"] == 0


@pytest.mark.slow
def test_structured_leaves_are_checked_and_needs_review_marks_are_noted(
    tmp_path: Path, run_cli: RunCli
) -> None:
    root = project(
        tmp_path,
        {"greeting": "Hello, {{name}}!", "bye": "Goodbye"},
        fr={
            "greeting": {"value": "Bonjour", "status": "machine", "needsReview": True},
            "bye": {"value": "Au revoir", "needsReview": False},
        },
    )
    result = quality(run_cli, root)
    assert findings(result) == [
        ("fr", "greeting", "placeholders", "error"),
        ("fr", "greeting", "needs_review", "info"),
    ]
    codes = [issue["code"] for issue in result.envelope["issues"]]
    assert codes == ["i18nprune.quality.placeholder_mismatch", "i18nprune.review.needs_review"]


@pytest.mark.slow
def test_paths_are_shown_as_code_writes_the_key_with_namespaces(
    tmp_path: Path, run_cli: RunCli
) -> None:
    config = {
        "locales": {
            "source": "en",
            "directory": "locales",
            "mode": "locale_directory",
            "structure": "locale_per_dir",
            "namespaces": "file",
            "defaultNamespace": "common",
        },
        "src": "src",
    }
    root = write_tree(
        tmp_path,
        {
            "i18nprune.config.json": config,
            "src/app.ts": "t('common:save')\n",
            "locales/en/common.json": {"save": "Save {{what}}"},
            "locales/en/auth.json": {"save": "Save {{what}}"},
            "locales/fr/common.json": {"save": "Enregistrer {{what}}"},
            "locales/fr/auth.json": {"save": "Enregistrer"},
        },
    )
    result = quality(run_cli, root)
    assert findings(result) == [("fr", "auth:save", "placeholders", "error")]
    assert result.envelope["data"]["findings"][0]["file"] == "locales/fr/auth.json"


@pytest.mark.slow
def test_a_target_file_that_does_not_parse_is_an_issue_not_a_crash(
    tmp_path: Path, run_cli: RunCli
) -> None:
    root = project(
        tmp_path,
        {"greeting": "Hello, {{name}}!"},
        fr='{"greeting": "Bonjour"',
        de={"greeting": "Hallo"},
    )
    result = quality(run_cli, root)
    assert result.code == 1
    envelope = result.envelope
    assert envelope["ok"] is False
    invalid = [i for i in envelope["issues"] if i["code"] == "i18nprune.locale.invalid_json"]
    assert [issue["path"] for issue in invalid] == ["locales/fr.json"]
    assert findings(result) == [("de", "greeting", "placeholders", "error")]


@pytest.mark.slow
def test_target_limits_the_check_and_an_unknown_target_is_a_usage_error(
    tmp_path: Path, run_cli: RunCli
) -> None:
    root = project(
        tmp_path,
        {"greeting": "Hello, {{name}}!"},
        fr={"greeting": "Bonjour"},
        de={"greeting": "Hallo {{name}}"},
    )
    only_de = quality(run_cli, root, "--target", "de")
    assert only_de.code == 0
    assert [row["target"] for row in only_de.envelope["data"]["targets"]] == ["de"]
    unknown = quality(run_cli, root, "--target", "xx")
    assert unknown.code == 2
    assert unknown.envelope["issues"][0]["code"] == "i18nprune.locale.target_not_found"


@pytest.mark.slow
def test_human_output_lists_each_finding(tmp_path: Path, run_cli: RunCli) -> None:
    root = project(tmp_path, {"greeting": "Hello, {{name}}!"}, fr={"greeting": "Bonjour"})
    result = run_cli("quality", cwd=root)
    assert result.code == 1
    assert "fr: 1 leaf(s) checked, 1 error(s)" in result.stdout
    assert "greeting" in result.stdout and "missing {{name}}" in result.stdout
    assert json.loads(json.dumps(result.stderr))  # people's issues go to stderr
    assert "placeholders or ICU structure differ" in result.stderr


# glossary terms


def glossary_project(root: Path, en: dict[str, Any], **targets: dict[str, Any]) -> Path:
    root = project(root, en, **targets)
    config = {
        **CONFIG,
        "translate": {
            "glossary": [
                {"term": "Acme Cloud", "translations": {"de": "Acme Wolke"}},
                {"term": "Workspace"},
            ]
        },
    }
    (root / "i18nprune.config.json").write_text(json.dumps(config), encoding="utf-8")
    return root


@pytest.mark.slow
def test_a_translation_without_the_glossary_form_of_a_term_is_a_warning(
    tmp_path: Path, run_cli: RunCli
) -> None:
    root = glossary_project(
        tmp_path,
        {"intro": "Welcome to Acme Cloud, your Workspace", "other": "Open your Workspace"},
        de={"intro": "Willkommen bei Acme Cloud, Ihr Arbeitsbereich", "other": "Öffne Workspace"},
        fr={"intro": "Bienvenue sur Acme Cloud, votre Workspace", "other": "Ouvrez Workspace"},
    )
    result = quality(run_cli, root)
    assert result.code == 0, result.stdout  # warnings only
    glossary = [f for f in result.envelope["data"]["findings"] if f["kind"] == "glossary"]
    # de lacks both forms of `intro` (the term translated, the kept name changed); fr has them.
    assert [(f["target"], f["path"], f["severity"]) for f in glossary] == [
        ("de", "intro", "warning"),
        ("de", "intro", "warning"),
    ]
    assert {f["message"] for f in glossary} == {
        "lacks `Acme Wolke`, the glossary's form of a term the source holds",
        "lacks `Workspace`, the glossary's form of a term the source holds",
    }
    codes = {issue["code"] for issue in result.envelope["issues"]}
    assert "i18nprune.quality.glossary_term_missing" in codes


@pytest.mark.slow
def test_a_leaf_that_is_a_kept_term_alone_is_not_identical_to_the_source(
    tmp_path: Path, run_cli: RunCli
) -> None:
    root = glossary_project(
        tmp_path,
        {"brand": "Acme Cloud", "tagline": "Acme Cloud for teams"},
        fr={"brand": "Acme Cloud", "tagline": "Acme Cloud for teams"},
    )
    result = quality(run_cli, root)
    # The brand alone has nothing to translate; the tagline does, and was left in English.
    assert findings(result) == [("fr", "tagline", "identical", "warning")]


def test_a_broken_glossary_file_is_reported_and_the_rest_is_still_checked(
    tmp_path: Path, run_cli: RunCli
) -> None:
    root = project(tmp_path, {"greeting": "Hello, {{name}}!"}, fr={"greeting": "Bonjour !"})
    config = {**CONFIG, "translate": {"glossaryFile": "glossary.csv"}}
    (root / "i18nprune.config.json").write_text(json.dumps(config), encoding="utf-8")
    (root / "glossary.csv").write_text("term,nonsense\nAcme,x\n", encoding="utf-8")
    result = quality(run_cli, root)
    assert result.code == 1
    assert findings(result) == [("fr", "greeting", "placeholders", "error")]
    [problem] = [
        issue
        for issue in result.envelope["issues"]
        if issue["code"] == "i18nprune.translate.glossary_invalid"
    ]
    assert "glossary.csv:1" in problem["message"]


def test_line_breaks_are_a_whitespace_finding_not_a_lost_placeholder(
    tmp_path: Path, run_cli: RunCli
) -> None:
    # Outline's Italian ends texts in line breaks the English lacks; its Japanese breaks lines
    # where the English has none. Both are style, not a broken message.
    root = project(
        tmp_path,
        {"admins": "Admins can manage the workspace.", "two": "One\nTwo", "x": "Hi {{name}}"},
        it={"admins": "Gli amministratori gestiscono il workspace.\n\n\n", "two": "Uno Due"},
        ja={"x": "こんにちは\n{{name}}"},
    )
    result = quality(run_cli, root)
    assert result.code == 0, result.stdout
    messages = {(f["target"], f["path"]): f["message"] for f in result.envelope["data"]["findings"]}
    assert messages == {
        ("it", "admins"): "whitespace differs: trailing '\\n\\n\\n' (source none)",
        ("it", "two"): "whitespace differs: 0 line break(s) inside (source 1)",
        ("ja", "x"): "whitespace differs: 1 line break(s) inside (source 0)",
    }


ORDERED = {
    "en": {"first": "Two words", "second": "Hello, {{name}}!", "third": "More words"},
    "fr": {"first": "Two words", "second": "Bonjour !", "third": "More words"},
}


@pytest.mark.slow
def test_errors_are_listed_before_warnings(tmp_path: Path, run_cli: RunCli) -> None:
    root = project(tmp_path, ORDERED["en"], fr=ORDERED["fr"])

    result = quality(run_cli, root)
    text = run_cli("quality", cwd=root).stdout

    assert findings(result) == [
        ("fr", "second", "placeholders", "error"),
        ("fr", "first", "identical", "warning"),
        ("fr", "third", "identical", "warning"),
    ]
    assert [issue["severity"] for issue in result.envelope["issues"]] == ["error", "warning"]
    rows = [line.split()[:2] for line in text.splitlines() if line.startswith("  ")]
    assert rows == [["error", "second"], ["warning", "first"], ["warning", "third"]]


@pytest.mark.slow
def test_github_annotations_place_each_finding_at_its_keys_line(
    tmp_path: Path, run_cli: RunCli
) -> None:
    root = project(tmp_path, ORDERED["en"], fr=ORDERED["fr"])

    result = run_cli("quality", "--format", "github", cwd=root)

    assert [line for line in result.stdout.splitlines() if line.startswith("::")] == [
        "::error file=locales/fr.json,line=3,col=3,title=i18nprune.quality.placeholder_mismatch"
        "::fr: `second`: placeholders differ from the source: missing {{name}}",
        "::warning file=locales/fr.json,line=2,col=3,title=i18nprune.quality.identical_to_source"
        "::fr: `first`: identical to the source text",
        "::warning file=locales/fr.json,line=4,col=3,title=i18nprune.quality.identical_to_source"
        "::fr: `third`: identical to the source text",
    ]


@pytest.mark.slow
def test_sarif_results_of_quality_have_a_region(tmp_path: Path, run_cli: RunCli) -> None:
    root = project(tmp_path, ORDERED["en"], fr=ORDERED["fr"])

    result = run_cli("quality", "--format", "sarif", cwd=root)

    locations = [
        r["locations"][0]["physicalLocation"]
        for r in json.loads(result.stdout)["runs"][0]["results"]
    ]
    assert [(p["artifactLocation"]["uri"], p["region"]["startLine"]) for p in locations] == [
        ("locales/fr.json", 3),
        ("locales/fr.json", 2),
        ("locales/fr.json", 4),
    ]
