"""A first user's rough edges (issue 27): what `validate`, `locales list` and `doctor` say when
what they should read is broken, unread or not there."""

from __future__ import annotations

from tests.conftest import write_tree

CONFIG = {"src": "src", "locales": {"directory": "locales"}}


def _issues(result, code: str) -> list[dict]:
    return [issue for issue in result.envelope["issues"] if issue["code"] == code]


def test_validate_names_a_target_file_that_does_not_parse_warm_and_cold(tmp_path, run_cli):
    root = write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": CONFIG,
            "src/app.ts": "t('a');\n",
            "locales/en.json": {"a": "A"},
            "locales/fr.json": '{\n  "a": "Un",\n}\n',
        },
    )

    for _ in range(2):  # the second run reuses what the first counted
        result = run_cli("validate", "--json", cwd=root)

        assert result.code == 1, result.stdout
        [broken] = _issues(result, "i18nprune.locale.invalid_json")
        assert broken["severity"] == "error"
        assert broken["message"].startswith("locales/fr.json:2:12: ")


def test_locales_list_names_every_target_file_that_does_not_parse(tmp_path, run_cli):
    root = write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": {
                **CONFIG,
                "locales": {"directory": "locales", "namespaces": "file"},
            },
            "src/app.ts": "t('a');\n",
            "locales/en/translation.json": {"a": "A"},
            "locales/fr/translation.json": {"a": "Un"},
            # a namespace the source does not have: no comparison ever loads it
            "locales/fr/legacy.json": '{"old": "Vieux",}',
        },
    )

    result = run_cli("locales", "list", "--json", cwd=root)
    text = run_cli("locales", "list", cwd=root)

    assert result.code == 1
    [broken] = _issues(result, "i18nprune.locale.invalid_json")
    assert broken["message"].startswith("locales/fr/legacy.json:1:16: ")
    fr = next(row for row in result.envelope["data"]["locales"] if row["code"] == "fr")
    assert fr["unreadable"] == ["locales/fr/legacy.json"]
    assert "does not parse: locales/fr/legacy.json" in text.stdout
    assert "locales/fr/legacy.json:1:16:" in text.stderr


def test_validate_reports_only_the_parse_error_of_a_source_that_does_not_parse(tmp_path, run_cli):
    keys = [f"page.item{index}" for index in range(30)]
    en = '{\n  "page": {\n' + ",\n".join(f'    "item{i}": "Item {i}"' for i in range(30))
    root = write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": CONFIG,
            "src/app.ts": "".join(f"t('{key}');\n" for key in keys),
            "locales/en.json": en + ",\n  }\n}\n",  # a trailing comma
            "locales/fr.json": {"page": {"item0": "Objet 0", "old": "Vieux"}},
        },
    )

    result = run_cli("validate", "--json", cwd=root)
    text = run_cli("validate", cwd=root)

    assert result.code == 1
    errors = [issue for issue in result.envelope["issues"] if issue["severity"] == "error"]
    assert [issue["code"] for issue in errors] == ["i18nprune.locale.invalid_json"]
    assert errors[0]["message"].startswith("locales/en.json:32:")
    data = result.envelope["data"]
    assert data["missing"] == [] and data["suggestions"] == []
    assert data["sourceUnreadable"] == ["locales/en.json"]
    assert "does not parse (locales/en.json)" in text.stdout
    assert "[tip]" not in text.stdout and "missing" not in text.stdout
