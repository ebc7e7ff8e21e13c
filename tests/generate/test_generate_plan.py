"""`generate` through the real CLI: which leaves it translates, what it writes where, its targets
and its envelope (pseudo provider and a loopback LibreTranslate fake)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from i18nprune.testing import FakeProvider
from tests.conftest import CliResult, write_tree
from tests.generate.conftest import code_using, flatten, provider_config, read_json

pytestmark = pytest.mark.slow

RunCli = Callable[..., CliResult]
MakeProject = Callable[[dict[str, Any]], Path]

EXAMPLE_TEMPLATE = {
    "home.title",
    "home.subtitle",
    "nav.home",
    "nav.settings",
    "header.greeting",
    "header.welcome",
    "header.signOut",
    "cart.items_one",
    "cart.items_other",
    "settings.title",
    "settings.language",
}
PLACEHOLDER = re.compile(r"\{\{[^}]*\}\}|\{[^}]*\}|</?\d+>")

EN = {
    "a": {
        "human": "Hello",
        "same": "Same text",
        "hole": "Hole source",
        "again": "Again source",
        "missing": "Missing source",
    }
}
FR = {
    "a": {
        "human": "Bonjour",
        "same": "Same text",
        "hole": "__I18NPRUNE_MISSING__",
        "again": {"value": "Ancien", "needsTranslationAgain": True, "source": "legacy"},
    }
}
EN_KEYS = ("a.human", "a.same", "a.hole", "a.again", "a.missing")


def mixed_project(make_project: MakeProject, fake: FakeProvider) -> Path:
    """A project whose fr has a human translation, a leaf equal to the source, a placeholder
    leaf, a leaf marked needsTranslationAgain, and a missing leaf."""
    return make_project(
        {
            "i18nprune.config.json": provider_config(fake),
            "src/app.ts": code_using(*EN_KEYS),
            "locales/en.json": EN,
            "locales/fr.json": FR,
        }
    )


def sent_texts(fake: FakeProvider) -> set[str]:
    return {text for request in fake.requests for text in request.texts}


# --- the example project with the offline pseudo provider -------------------------------------


def test_pseudo_writes_every_template_leaf_with_placeholders_intact(
    example_project: Path, run_cli: RunCli
) -> None:
    result = run_cli("generate", "--target", "de", "--provider", "pseudo", cwd=example_project)
    assert result.code == 0, result.stderr
    source = flatten(read_json(example_project / "locales/en.json"))
    de = flatten(read_json(example_project / "locales/de.json"))
    assert set(de) == EXAMPLE_TEMPLATE
    for path, text in de.items():
        assert text.startswith("[") and text.endswith("]"), path
        assert text != source[path]
        assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(source[path]))


def test_generate_data_has_every_documented_field(example_project: Path, run_cli: RunCli) -> None:
    result = run_cli(
        "generate", "--target", "de", "--provider", "pseudo", "--json", cwd=example_project
    )
    envelope = result.envelope
    assert result.code == 0 and envelope["ok"] is True and envelope["kind"] == "generate"
    data = envelope["data"]
    assert set(data) == {
        "providerId",
        "dryRun",
        "targets",
        "leavesProcessed",
        "partial",
        "targetResults",
        "pool",
        "localeNames",
        "lockFile",
        "fleet",
    }
    assert data["localeNames"] == {"de": "de"}
    assert data["fleet"] is None  # no shared translation memory (docs/fleet.md)
    assert data["pool"] is None  # pseudo runs in the front process, without workers
    assert data["providerId"] == "pseudo" and data["dryRun"] is False
    assert data["targets"] == ["de"] and data["partial"] is False
    assert data["leavesProcessed"] == len(EXAMPLE_TEMPLATE)
    [target] = data["targetResults"]
    assert set(target) == {
        "target",
        "status",
        "partial",
        "sourceLeafCount",
        "translatedLeafCount",
        "cachedLeafCount",
        "failedLeafCount",
        "staleLeafCount",
        "retranslatedLeafCount",
        "outputPaths",
        "providerAttempts",
        "fallbackCount",
        "durationMs",
    }
    assert target["target"] == "de" and target["status"] == "written"
    assert target["sourceLeafCount"] == target["translatedLeafCount"] == len(EXAMPLE_TEMPLATE)
    assert target["cachedLeafCount"] == target["failedLeafCount"] == 0
    assert target["outputPaths"] == ["locales/de.json"]
    assert target["fallbackCount"] == 0 and isinstance(target["durationMs"], int)
    [attempt] = target["providerAttempts"]
    assert attempt == {"providerId": "pseudo", "outcome": "ok", "requests": 1, "retries": 0}


def test_human_output_summarises_each_target(example_project: Path, run_cli: RunCli) -> None:
    result = run_cli("generate", "--target", "de", "--provider", "pseudo", cwd=example_project)
    assert result.code == 0, result.stderr
    assert "with pseudo" in result.stdout
    assert re.search(r"de\s+written\s+11\s+11\s+0\s+0", result.stdout)
    assert "wrote locales/de.json" in result.stdout


# --- which leaves are translated --------------------------------------------------------------


def test_existing_translations_are_kept_and_not_sent(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = mixed_project(make_project, fake)
        result = run_cli("generate", "--target", "fr", "--json", cwd=root)
    assert result.code == 0, result.stdout
    fr = flatten(read_json(root / "locales/fr.json"))
    assert fr["a.human"] == "Bonjour" and fr["a.same"] == "Same text"
    assert sent_texts(fake) == {"Hole source", "Again source", "Missing source"}


def test_missing_placeholder_and_needs_translation_again_leaves_are_translated(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = mixed_project(make_project, fake)
        result = run_cli("generate", "--target", "fr", "--json", cwd=root)
    assert result.code == 0, result.stdout
    fr = flatten(read_json(root / "locales/fr.json"))
    assert fr["a.hole"] == "FR:Hole source"
    assert fr["a.missing"] == "FR:Missing source"
    # an existing structured leaf stays structured and keeps its other fields
    assert fr["a.again"] == {
        "value": "FR:Again source",
        "source": "legacy",
        "status": "machine",
        "needsReview": True,
    }
    assert list(read_json(root / "locales/fr.json")["a"]) == list(EN["a"])
    assert result.envelope["data"]["targetResults"][0]["translatedLeafCount"] == 3


def test_resume_also_translates_leaves_equal_to_the_source(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = mixed_project(make_project, fake)
        result = run_cli("generate", "--target", "fr", "--resume", "--json", cwd=root)
    assert result.code == 0, result.stdout
    fr = flatten(read_json(root / "locales/fr.json"))
    assert fr["a.same"] == "FR:Same text"
    assert fr["a.human"] == "Bonjour"
    assert "Hello" not in sent_texts(fake)


def test_force_retranslates_every_leaf(make_project: MakeProject, run_cli: RunCli) -> None:
    with FakeProvider("libre") as fake:
        root = mixed_project(make_project, fake)
        result = run_cli("generate", "--target", "fr", "--force", "--json", cwd=root)
    assert result.code == 0, result.stdout
    fr = flatten(read_json(root / "locales/fr.json"))
    assert fr["a.human"] == "FR:Hello" and fr["a.same"] == "FR:Same text"
    assert sent_texts(fake) == {text for text in EN["a"].values()}


def test_preserved_keys_and_placeholder_only_sources_are_copied_not_sent(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        config = provider_config(fake)
        config["policies"] = {"preserve": {"copyKeys": ["brand.name"]}}
        root = make_project(
            {
                "i18nprune.config.json": config,
                "src/app.ts": code_using("brand.name", "a.count", "a.empty", "a.text"),
                "locales/en.json": {
                    "brand": {"name": "Acme"},
                    "a": {"count": "{{count}}", "empty": "", "text": "Text"},
                },
            }
        )
        result = run_cli("generate", "--target", "fr", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert read_json(root / "locales/fr.json") == {
        "brand": {"name": "Acme"},
        "a": {"count": "{{count}}", "empty": "", "text": "FR:Text"},
    }
    assert sent_texts(fake) == {"Text"}


def test_metadata_writes_machine_translations_as_structured_leaves(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = mixed_project(make_project, fake)
        result = run_cli("generate", "--target", "fr", "--metadata", "--json", cwd=root)
    assert result.code == 0, result.stdout
    fr = flatten(read_json(root / "locales/fr.json"))
    machine = {"status": "machine", "needsReview": True}
    assert fr["a.missing"] == {"value": "FR:Missing source", **machine}
    assert fr["a.hole"] == {"value": "FR:Hole source", **machine}
    assert fr["a.again"] == {"value": "FR:Again source", "source": "legacy", **machine}
    assert fr["a.human"] == "Bonjour"


def test_dry_run_writes_nothing_and_sends_nothing(
    make_project: MakeProject, run_cli: RunCli, home: Path
) -> None:
    with FakeProvider("libre") as fake:
        root = mixed_project(make_project, fake)
        before = (root / "locales/fr.json").read_bytes()
        result = run_cli("generate", "--target", "fr,de", "--dry-run", "--json", cwd=root)
        assert fake.stats().requests == 0
    assert result.code == 0, result.stdout
    data = result.envelope["data"]
    assert data["dryRun"] is True and data["targets"] == ["fr", "de"]
    assert [r["status"] for r in data["targetResults"]] == ["dry_run", "dry_run"]
    assert all(r["outputPaths"] == [] for r in data["targetResults"])
    assert data["leavesProcessed"] == 3 + len(EN_KEYS)
    assert (root / "locales/fr.json").read_bytes() == before
    assert not (root / "locales/de.json").exists()


def test_plural_keys_get_the_categories_of_each_target_language(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    root = make_project(
        {
            "i18nprune.config.json": {"locales": {"source": "en"}},
            "src/app.ts": code_using("cart.items#count"),
            "locales/en.json": {
                "cart": {"items_one": "{{count}} item", "items_other": "{{count}} items"}
            },
        }
    )
    result = run_cli("generate", "--target", "ar,pl,ja", "--provider", "pseudo", cwd=root)
    assert result.code == 0, result.stderr

    def categories(code: str) -> list[str]:
        items = read_json(root / f"locales/{code}.json")["cart"]
        assert all("{{count}}" in text for text in items.values())
        return [key.removeprefix("items_") for key in items]

    assert categories("ar") == ["zero", "one", "two", "few", "many", "other"]
    assert categories("pl") == ["one", "few", "many", "other"]
    assert categories("ja") == ["other"]


# --- targets ----------------------------------------------------------------------------------


def test_a_target_is_required(example_project: Path, run_cli: RunCli) -> None:
    result = run_cli("generate", "--provider", "pseudo", "--json", cwd=example_project)
    assert result.code == 2
    assert [issue["code"] for issue in result.envelope["issues"]] == [
        "i18nprune.locale.target_required"
    ]


def test_an_unknown_language_code_is_refused(example_project: Path, run_cli: RunCli) -> None:
    result = run_cli(
        "generate", "--target", "xx-invalid", "--provider", "pseudo", "--json", cwd=example_project
    )
    assert result.code == 2  # a usage error, like a mistyped flag
    codes = [issue["code"] for issue in result.envelope["issues"]]
    assert codes == ["i18nprune.languages.unsupported_language_code"]
    assert not (example_project / "locales/xx-invalid.json").exists()


@pytest.mark.parametrize("choice", [["--all"], ["--target", "all"]])
def test_all_targets_every_existing_non_source_locale(
    choice: list[str], make_project: MakeProject, run_cli: RunCli
) -> None:
    root = make_project(
        {
            "i18nprune.config.json": {"locales": {"source": "en"}},
            "src/app.ts": code_using("a.one"),
            "locales/en.json": {"a": {"one": "One"}},
            "locales/fr.json": {},
            "locales/de.json": {"a": {"one": "Eins"}},
        }
    )
    result = run_cli("generate", *choice, "--provider", "pseudo", "--json", cwd=root)
    assert result.code == 0, result.stdout
    data = result.envelope["data"]
    assert sorted(data["targets"]) == ["de", "fr"]
    statuses = {r["target"]: r["status"] for r in data["targetResults"]}
    assert statuses == {"de": "skipped", "fr": "written"}
    assert read_json(root / "locales/de.json") == {"a": {"one": "Eins"}}
    assert read_json(root / "locales/fr.json")["a"]["one"].startswith("[")


def test_a_new_target_follows_the_source_file_layout(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    root = make_project(
        {
            "i18nprune.config.json": {
                "locales": {
                    "source": "en",
                    "directory": "messages",
                    "mode": "locale_directory",
                    "structure": "locale_per_dir",
                }
            },
            "src/app.ts": code_using("common.hello", "auth.login.title"),
            "messages/en/common.json": {"common": {"hello": "Hello"}},
            "messages/en/auth/login.json": {"auth": {"login": {"title": "Sign in"}}},
        }
    )
    result = run_cli("generate", "--target", "de", "--provider", "pseudo", "--json", cwd=root)
    assert result.code == 0, result.stdout
    written = result.envelope["data"]["targetResults"][0]["outputPaths"]
    assert sorted(written) == ["messages/de/auth/login.json", "messages/de/common.json"]
    assert list(flatten(read_json(root / "messages/de/common.json"))) == ["common.hello"]
    login = flatten(read_json(root / "messages/de/auth/login.json"))
    assert list(login) == ["auth.login.title"]


def test_a_large_envelope_arrives_whole_before_the_quick_exit(
    tmp_path: Path, run_cli: RunCli
) -> None:
    # The CLI ends without interpreter teardown: what it printed must still all be flushed.
    leaves = {f"k{index}": f"Text number {index}, {{{{name}}}}" for index in range(3000)}
    write_tree(
        tmp_path,
        {
            "i18nprune.config.json": {"locales": {"source": "en"}},
            "locales/en.json": {"s": leaves},
            "src/App.tsx": "export const App = () => null;\n",
        },
    )
    result = run_cli("--json", "generate", "--target", "de", "--provider", "pseudo", cwd=tmp_path)
    assert result.code == 0, result.stderr
    assert result.envelope["data"]["targetResults"][0]["translatedLeafCount"] == 3000
    catalog = run_cli("--json", "languages", cwd=tmp_path)
    assert catalog.code == 0
    assert len(catalog.stdout) > 1 << 16  # more than a pipe holds at once
    assert len(catalog.envelope["data"]) > 100
    assert len(flatten(read_json(tmp_path / "locales/de.json"))) == 3000
    refused = run_cli("--json", "generate", cwd=tmp_path)
    assert refused.code == 2
    assert refused.envelope["issues"][0]["code"] == "i18nprune.locale.target_required"
