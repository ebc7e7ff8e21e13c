"""Locale codes compare normalised (`pt_BR` is `pt-br`), but people read them as their files
spell them: messages and human output say `en_US` and `pt_BR` (Outline's folders), JSON `data`
keeps the normalised codes and maps them in `data.localeNames`, and a suggested command line
works when pasted."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write_tree

APP: dict[str, Any] = {
    "i18nprune.config.json": {
        "src": "app",
        "locales": {
            "directory": "shared/i18n/locales",
            "source": "en_US",
            "mode": "locale_directory",
            "structure": "locale_per_dir",
            "keySeparator": False,
            "nsSeparator": False,
        },
    },
    "app/Menu.tsx": (
        "import { useTranslation } from 'react-i18next';\n"
        "export function Menu() {\n"
        "  const { t } = useTranslation();\n"
        "  return [t('Open'), t('Close'), t('Share')];\n"
        "}\n"
    ),
    "shared/i18n/locales/en_US/translation.json": {"Open": "Open", "Close": "Close", "Old": "Old"},
    "shared/i18n/locales/pt_BR/translation.json": {"Open": "Abrir", "Gone": "Removido"},
}


def human(result: Any) -> str:
    return result.stdout + result.stderr


def test_validate_names_the_source_as_its_folder_spells_it(tmp_path: Path, run_cli) -> None:
    root = write_tree(tmp_path / "app", APP)

    text = human(run_cli("validate", cwd=root))
    envelope = run_cli("validate", "--json", cwd=root).envelope

    assert "missing from `en_US`" in text and "en-us" not in text
    assert envelope["data"]["sourceLocale"] == "en-us"  # the stable field keeps the code
    assert envelope["data"]["localeNames"] == {"en-us": "en_US"}
    missing = next(i for i in envelope["issues"] if i["code"].endswith("missing_literal_keys"))
    assert "source locale `en_US`" in missing["message"]


def test_a_suggested_command_names_targets_as_spelled_and_works_when_pasted(
    tmp_path: Path, run_cli
) -> None:
    root = write_tree(tmp_path / "app", APP)
    suggestions = run_cli("validate", "--json", cwd=root).envelope["data"]["suggestions"]
    command = next(s["command"] for s in suggestions if s["id"] == "suggest.cleanup.target_extra")

    words = shlex.split(command)
    pasted = run_cli(*words[1:], "--json", cwd=root)

    assert "--target pt_BR" in command
    assert pasted.code == 0, pasted.stdout
    assert [change["path"] for change in pasted.envelope["data"]["files"]] == [
        "shared/i18n/locales/pt_BR/translation.json"
    ]


@pytest.mark.parametrize(
    ("arguments", "shown"),
    [
        (["locales", "list"], "source `en_US`"),
        (["cleanup", "--dry-run"], "unused key(s) in en_US"),
        (["cleanup", "--dry-run", "--target", "pt-br"], "unused key(s) in pt_BR"),
        (["missing", "--dry-run", "--target", "PT-br"], "missing key(s) for pt_BR"),
        (["quality", "--target", "pt_br"], "pt_BR: 1 leaf(s) checked"),
        (["review", "--target", "pt-BR"], "marked needsReview in pt_BR"),
        (["locales", "delete", "--target", "pt-br", "--dry-run"], "file(s) of pt_BR"),
        (["workspace", "list"], "source `en_US`, targets pt_BR"),
    ],
    ids=lambda value: "-".join(value) if isinstance(value, list) else None,
)
def test_human_output_names_locales_as_their_folders_do(
    tmp_path: Path, run_cli, arguments: list[str], shown: str
) -> None:
    root = write_tree(tmp_path / "app", APP)

    result = run_cli(*arguments, cwd=root)

    assert shown in human(result)
    assert "pt-br" not in human(result) and "en-us" not in human(result)


@pytest.mark.slow
def test_json_keeps_codes_and_maps_them_to_their_spelling(tmp_path: Path, run_cli) -> None:
    root = write_tree(tmp_path / "app", APP)

    data = run_cli("cleanup", "--dry-run", "--target", "pt_BR", "--json", cwd=root).envelope["data"]

    assert data["targets"] == ["pt-br"]
    assert data["localeNames"] == {"pt-br": "pt_BR"}


@pytest.mark.slow
def test_generate_check_names_a_target_as_spelled_in_its_error_and_its_command(
    tmp_path: Path, run_cli
) -> None:
    root = write_tree(tmp_path / "app", APP)

    result = run_cli(
        "generate", "--target", "pt-br", "--check", "--provider", "pseudo", "--json", cwd=root
    )

    check = next(i for i in result.envelope["issues"] if i["code"].endswith("would_change"))
    assert "pt_BR (1)" in check["message"]
    assert "generate --target pt_BR" in check["message"]
    assert result.envelope["data"]["localeNames"] == {"pt-br": "pt_BR"}


def test_a_new_target_is_named_as_typed(tmp_path: Path, run_cli) -> None:
    root = write_tree(tmp_path / "app", APP)

    result = run_cli("generate", "--target", "de_DE", "--dry-run", "--provider", "pseudo", cwd=root)

    assert "de_DE" in result.stdout and "de-de" not in result.stdout


def test_github_annotations_name_the_source_as_spelled(tmp_path: Path, run_cli) -> None:
    root = write_tree(tmp_path / "app", APP)

    result = run_cli("validate", "--format", "github", cwd=root)

    annotation = next(line for line in result.stdout.splitlines() if line.startswith("::error"))
    assert "`Share` is missing from the source locale `en_US`" in annotation


@pytest.mark.slow
def test_the_locale_files_are_untouched_by_the_spelling(tmp_path: Path, run_cli) -> None:
    root = write_tree(tmp_path / "app", APP)

    run_cli("sync", "--target", "PT-BR", "--yes", cwd=root)

    written = json.loads((root / "shared/i18n/locales/pt_BR/translation.json").read_text())
    assert written == {"Open": "Abrir", "Close": "Close"}
    assert sorted(p.name for p in (root / "shared/i18n/locales").iterdir()) == ["en_US", "pt_BR"]
