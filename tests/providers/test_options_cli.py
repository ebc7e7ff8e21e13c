"""The provider options as a user meets them on the command line: `providers` documents each
one, and the config refuses a formality DeepL does not have, saying where and what it accepts."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from i18nprune.envelope import Code
from tests.conftest import CliResult

RunCli = Callable[..., CliResult]
ACCEPTED = "one of `default`, `more`, `less`, `prefer_more`, `prefer_less`"


@pytest.mark.slow
def test_providers_json_documents_each_option_per_provider(tmp_path: Path, run_cli: RunCli) -> None:
    result = run_cli("providers", "--json", cwd=tmp_path)
    assert result.code == 0, result.stderr
    providers = {row["id"]: row for row in result.envelope["data"]["providers"]}
    deepl, llm = providers["deepl"], providers["llm"]
    assert [option["key"] for option in deepl["options"]] == ["formality", "context"]
    assert [option["key"] for option in llm["options"]] == ["instructions"]
    formality = deepl["options"][0]
    assert formality["accepts"] == "default | more | less | prefer_more | prefer_less"
    assert formality["perTarget"] is True
    assert "prefer_more" in formality["description"]
    assert {"formality", "context"} <= set(deepl["configKeys"])
    assert "instructions" in llm["configKeys"]
    assert llm["readsDescriptions"] is True and deepl["readsDescriptions"] is False
    assert all(not row["options"] for key, row in providers.items() if key not in ("deepl", "llm"))


@pytest.mark.slow
def test_providers_human_output_mentions_the_options(tmp_path: Path, run_cli: RunCli) -> None:
    result = run_cli("providers", cwd=tmp_path)
    assert result.code == 0, result.stderr
    shown = result.stdout + result.stderr
    for needle in ("formality", "prefer_more", "context", "instructions", "meta.json"):
        assert needle in shown


@pytest.mark.parametrize(
    ("formality", "key", "got"),
    [
        ('"formal"', "formality", 'the string `"formal"`'),
        ('{"de": "less", "fr": "very"}', "formality.fr", 'the string `"very"`'),
    ],
)
def test_config_refuses_a_formality_deepl_does_not_have(
    tmp_path: Path, run_cli: RunCli, formality: str, key: str, got: str
) -> None:
    # the formality on line 2, so the message can point at it
    config = '{"translate": {"providers": [{"id": "deepl",\n"formality": ' + formality + "}]}}"
    (tmp_path / "i18nprune.config.json").write_text(config)
    result = run_cli("generate", "--target", "de", "--json", cwd=tmp_path)
    assert result.code == 1
    [issue] = result.envelope["issues"]
    assert issue["code"] == Code.CONFIG_INVALID
    where = f"{tmp_path / 'i18nprune.config.json'}:2"
    assert issue["message"] == (
        f"{where}: `translate.providers[0].{key}` must be {ACCEPTED}, got {got}"
    )


def test_config_accepts_every_formality_value_per_target(tmp_path: Path, run_cli: RunCli) -> None:
    row: dict[str, Any] = {
        "id": "deepl",
        "formality": {"de": "more", "fr": "less", "it": "prefer_more", "*": "prefer_less"},
        "context": "A dashboard.",
    }
    llm = {"id": "llm", "instructions": {"de": "Use du.", "*": "Be brief."}}
    config = {"translate": {"providers": [row, llm]}}
    (tmp_path / "i18nprune.config.json").write_text(json.dumps(config))
    result = run_cli("config", "--json", cwd=tmp_path)
    assert result.code == 0, result.stdout
    rows = result.envelope["data"]["config"]["translate"]["providers"]
    assert rows[0]["formality"] == row["formality"]
    assert rows[1]["instructions"] == llm["instructions"]
