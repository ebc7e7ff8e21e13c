"""Arrays in locale files are positional: `generate` and `sync` copy a source array's data items
(numbers, booleans, null) so the texts after them keep their places, and an item whose
translation failed holds back the items after it, with a warning, instead of crashing (the
real CLI, real workers, a loopback fake)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from i18nprune.envelope import Code
from i18nprune.testing import FakeProvider, Fault, fake_translation
from tests.conftest import CliResult, write_tree
from tests.generate.conftest import provider_config

pytestmark = pytest.mark.slow

RunCli = Callable[..., CliResult]

EN = {"steps": ["First", 5, None, "Last"], "title": "Title"}


def project(root: Path, fake: FakeProvider | None, **fr: Any) -> Path:
    config = (
        provider_config(fake, batchSize=1, rateLimit={"maxConcurrency": 1})
        if fake is not None
        else {"locales": {"source": "en"}}
    )
    if fake is not None:
        config["translate"]["policy"] = {"maxAttempts": 1}
    files: dict[str, Any] = {
        "i18nprune.config.json": config,
        "src/app.ts": "t('steps', { returnObjects: true });\nt('title');\n",
        "locales/en.json": EN,
    }
    if fr:
        files["locales/fr.json"] = fr
    return write_tree(root, files)


def codes(result: CliResult) -> list[str]:
    return [issue["code"] for issue in result.envelope["issues"]]


def test_generate_keeps_an_arrays_data_items_in_place(tmp_path: Path, run_cli: RunCli) -> None:
    with FakeProvider("libre") as fake:
        root = project(tmp_path / "app", fake)
        done = run_cli("generate", "--target", "fr", "--json", cwd=root)
    assert done.code == 0, done.stdout + done.stderr
    fr = json.loads((root / "locales/fr.json").read_text())
    assert fr == {
        "steps": [fake_translation("First", "fr"), 5, None, fake_translation("Last", "fr")],
        "title": fake_translation("Title", "fr"),
    }
    assert Code.LOCALE_ARRAY_GAP not in codes(done)


def test_sync_copies_the_data_items_a_target_array_lacks(tmp_path: Path, run_cli: RunCli) -> None:
    root = project(tmp_path / "app", None, steps=["Premier"], title="Titre")
    done = run_cli("sync", "--target", "fr", "--json", cwd=root)
    assert done.code == 0, done.stdout + done.stderr
    fr = json.loads((root / "locales/fr.json").read_text())
    assert fr["steps"][:3] == ["Premier", 5, None] and len(fr["steps"]) == 4
    assert fr["title"] == "Titre"


def test_a_failed_item_holds_back_the_items_after_it_until_resume(
    tmp_path: Path, run_cli: RunCli
) -> None:
    # One text per request, in plan order: the first request (steps[0]) fails.
    with FakeProvider("libre", faults=[Fault(kind="server_error")]) as fake:
        root = project(tmp_path / "app", fake)
        failed = run_cli("generate", "--target", "fr", "--json", cwd=root)
    assert failed.code == 1, failed.stdout + failed.stderr
    assert {Code.GENERATE_PARTIAL, Code.LOCALE_ARRAY_GAP} <= set(codes(failed))
    [gap] = [issue for issue in failed.envelope["issues"] if issue["code"] == Code.LOCALE_ARRAY_GAP]
    assert "steps[1], steps[2], steps[3]" in gap["message"] and "--resume" in gap["message"]
    fr = json.loads((root / "locales/fr.json").read_text())
    assert fr == {"title": fake_translation("Title", "fr")}

    with FakeProvider("libre") as fake:
        config = json.loads((root / "i18nprune.config.json").read_text())
        config["translate"]["providers"][0]["baseUrl"] = fake.base_url
        (root / "i18nprune.config.json").write_text(json.dumps(config))
        resumed = run_cli("generate", "--target", "fr", "--resume", "--json", cwd=root)
    assert resumed.code == 0, resumed.stdout + resumed.stderr
    fr = json.loads((root / "locales/fr.json").read_text())
    assert fr["steps"] == [
        fake_translation("First", "fr"),
        5,
        None,
        fake_translation("Last", "fr"),
    ]


def test_generate_writes_nothing_into_a_used_keys_value_of_another_shape(
    tmp_path: Path, run_cli: RunCli
) -> None:
    # The target has a text where the source has an array, an array where it has a text, and
    # an object where it has a text: each is that key's value, translated by a person.
    fr = {"days": "lundi, mardi", "list": ["un", "deux"], "title": {"short": "Titre"}}
    with FakeProvider("libre") as fake:
        config = provider_config(fake)
        root = write_tree(
            tmp_path / "app",
            {
                "i18nprune.config.json": config,
                "src/app.ts": "t('days');\nt('list');\nt('title');\nt('steps');\n",
                "locales/en.json": {
                    "days": ["Monday", "Tuesday"],
                    "list": "one, two",
                    "title": "Title",
                    "steps": ["First", "Last"],
                },
                "locales/fr.json": fr,
            },
        )
        done = run_cli("generate", "--target", "fr", "--json", cwd=root)
    assert done.code == 0, done.stdout + done.stderr
    written = json.loads((root / "locales/fr.json").read_text())
    assert written == {
        **fr,
        "steps": [fake_translation("First", "fr"), fake_translation("Last", "fr")],
    }
