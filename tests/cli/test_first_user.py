"""A first user's rough edges (issue 27): what `validate`, `locales list` and `doctor` say when
what they should read is broken, unread or not there."""

from __future__ import annotations

import pytest

from tests.conftest import write_tree

pytestmark = pytest.mark.slow

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


@pytest.mark.parametrize("suffix", [".ini", ".properties", ".resx", ".strings"])
def test_a_locale_folder_of_a_format_not_read_is_said_and_never_ok(suffix, tmp_path, run_cli):
    root = write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": CONFIG,
            "src/app.ts": "t('home.title');\n",
            f"locales/en{suffix}": "home.title: Welcome\n",
            f"locales/fr{suffix}": "home.title: Bienvenue\n",
        },
    )

    for command in (["validate"], ["locales", "list"]):
        result = run_cli(*command, "--json", cwd=root)

        assert result.code == 1 and result.envelope["ok"] is False, command
        [first, *_] = [i for i in result.envelope["issues"] if i["severity"] == "error"]
        assert first["code"] == "i18nprune.locale.none_read"
        assert f"holds only 2 {suffix} file(s)" in first["message"]
    assert result.envelope["data"]["locales"] == []
    validate = run_cli("validate", cwd=root)
    assert validate.stdout.splitlines()[1].startswith("Not read: the locale folder `locales`")
    assert "missing" not in validate.stdout


def test_a_project_with_no_source_file_scanned_is_said_and_never_ok(tmp_path, run_cli):
    root = write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": CONFIG,
            "src/views.py": "_('home.title')\n",
            "locales/en.json": {"home": {"title": "Welcome"}},
        },
    )

    result = run_cli("validate", "--json", cwd=root)
    text = run_cli("validate", cwd=root)

    assert result.code == 1 and result.envelope["ok"] is False
    [scanned] = _issues(result, "i18nprune.scan.nothing_scanned")
    assert "(1 .py file(s))" in scanned["message"]
    assert "All literal keys exist" not in text.stdout
    assert "Not read: no source file was scanned" in text.stdout


def _monorepo(root):
    """A root whose only locale folder lies deeper than the search from the root goes (one
    folder per locale, six levels down), named by its app's config."""
    return write_tree(
        root,
        {
            "package.json": {"private": True, "workspaces": ["apps/*"]},
            "apps/web/package.json": {"name": "web", "dependencies": {"i18next": "23"}},
            "apps/web/i18nprune.config.json": {
                "src": "src",
                "locales": {"directory": "src/shared/i18n/locales", "source": "en"},
            },
            "apps/web/src/shared/i18n/locales/en/translation.json": {"k": {"item1": "One"}},
            "apps/web/src/app.ts": "".join(f"t('k.item{i}');\n" for i in range(30)),
        },
    )


def test_validate_at_a_root_without_a_locale_folder_says_so_first(tmp_path, run_cli):
    root = _monorepo(tmp_path / "repo")

    result = run_cli("validate", "--json", cwd=root)
    text = run_cli("validate", cwd=root)

    assert result.code == 1
    first = result.envelope["issues"][0]
    assert first["code"] == "i18nprune.project.locales_directory_missing"
    assert first["message"].startswith("no locale folder was found: `locales` does not exist")
    assert "projects: apps/web" in first["message"]
    codes = [issue["code"] for issue in result.envelope["issues"]]
    assert "i18nprune.validate.missing_literal_keys" not in codes
    assert "i18nprune.validate.thin_evidence" not in codes
    commands = [tip["command"] for tip in result.envelope["data"]["suggestions"]]
    assert commands == [
        "i18nprune --workspace validate",
        "i18nprune -C apps/web validate",
        "i18nprune init",
    ]
    assert result.envelope["data"]["missing"] == []
    assert text.stdout.splitlines()[1].startswith("Not read: no locale folder was found")
    assert "missing" not in text.stdout
    for command in commands[:2]:  # the commands it suggests read the app's locale files
        ran = run_cli(*command.split()[1:], cwd=root)
        assert "29 key(s) missing from `en`" in ran.stdout, command


def test_doctor_at_a_root_without_a_locale_folder_says_so_first(tmp_path, run_cli):
    root = _monorepo(tmp_path / "repo")

    result = run_cli("doctor", "--json", cwd=root)

    failed = [finding for finding in result.envelope["data"]["findings"] if not finding["ok"]]
    first_error = next(finding for finding in failed if finding["severity"] == "error")
    assert first_error["title"] == "Locale files"
    assert first_error["detail"].startswith("no locale folder was found")
    assert "`i18nprune -C apps/web validate`" in first_error["detail"]
    assert not any("create it" in finding["detail"] for finding in failed)


def test_validate_text_says_where_each_missing_key_is_used(tmp_path, run_cli):
    root = write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": CONFIG,
            "locales/en.json": {"home": {"title": "Welcome"}},
            "src/app.ts": "t('home.title');\nt('home.lead');\n"
            + "".join("t('nav.back');\n" for _ in range(4)),
            "src/menu.ts": "\n\nt('nav.back');\n",
        },
    )

    short = run_cli("validate", cwd=root)
    full = run_cli("validate", "--full", cwd=root)

    assert "  home.lead  (src/app.ts:2)" in short.stdout
    assert "  nav.back  (src/app.ts:3, src/app.ts:4, src/app.ts:5, +2 more)" in short.stdout
    assert (
        "  nav.back  (src/app.ts:3, src/app.ts:4, src/app.ts:5, src/app.ts:6, src/menu.ts:3)"
        in full.stdout
    )
