"""`generate` with a glossary, through the real CLI against the loopback fake providers: terms
never reach a provider, come back in their target form (or verbatim), survive the cache and a
glossary change, and a bad glossary is refused before anything is sent."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from i18nprune.envelope import Code
from i18nprune.testing import FakeProvider, Fault
from tests.conftest import CliResult
from tests.generate.conftest import code_using, flatten, provider_config, read_json

RunCli = Callable[..., CliResult]
MakeProject = Callable[[dict[str, Any]], Path]

GLOSSARY: list[dict[str, Any]] = [
    {"term": "Acme Cloud", "translations": {"de": "Acme Wolke"}},
    {"term": "acme", "caseSensitive": False},
]
EN = {
    "a": {
        "welcome": "Welcome to Acme Cloud",
        "shout": "ACME is great, acme is fine",
        "town": "Acmeville is near",
        "only": "Acme Cloud",
        "files": "{n, plural, one {# Acme Cloud file} other {# Acme Cloud files}}",
        "bold": "<b>Acme Cloud</b> rocks",
        "name": "Hello {{Acme}}",
    }
}
# The fake answers "DE:" + the masked text; terms come back in their German form or verbatim.
EXPECTED = {
    "a.welcome": "DE:Welcome to Acme Wolke",
    "a.shout": "DE:ACME is great, acme is fine",
    "a.town": "DE:Acmeville is near",
    "a.only": "Acme Wolke",
    "a.files": "{n, plural, one {DE:# Acme Wolke file} other {DE:# Acme Wolke files}}",
    "a.bold": "DE:<b>Acme Wolke</b> rocks",
    "a.name": "DE:Hello {{Acme}}",
}
SENT = {
    'Welcome to <x id="0"/>',
    '<x id="0"/> is great, <x id="1"/> is fine',
    "Acmeville is near",  # a longer word is not the term
    '<x id="0"/> <x id="1"/> file',
    '<x id="0"/> <x id="1"/> files',
    '<x id="0"/><x id="1"/><x id="2"/> rocks',
    'Hello <x id="0"/>',  # `{{Acme}}` is a placeholder, masked as one
}


def glossary_project(
    make_project: MakeProject,
    fake: FakeProvider,
    en: dict[str, Any] = EN,
    *,
    translate: dict[str, Any] | None = None,
    files: dict[str, Any] | None = None,
) -> Path:
    config = provider_config(fake)
    config["translate"].update({"glossary": GLOSSARY} if translate is None else translate)
    return make_project(
        {
            "i18nprune.config.json": config,
            "src/app.ts": code_using(*flatten(en)),
            "locales/en.json": en,
            **(files or {}),
        }
    )


def sent_texts(fake: FakeProvider) -> set[str]:
    return {text for request in fake.requests for text in request.texts}


def set_glossary(root: Path, glossary: list[dict[str, Any]]) -> None:
    path = root / "i18nprune.config.json"
    config = read_json(path)
    config["translate"]["glossary"] = glossary
    path.write_text(json.dumps(config))


def only_issue(result: CliResult) -> dict[str, Any]:
    assert result.envelope["ok"] is False
    [issue] = result.envelope["issues"]
    return issue


@pytest.mark.slow
def test_terms_never_reach_the_provider_and_come_back_in_their_target_form(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = glossary_project(make_project, fake)
        result = run_cli("generate", "--target", "de", "--json", cwd=root)
    assert result.code == 0, result.stdout + result.stderr
    assert sent_texts(fake) == SENT
    assert flatten(read_json(root / "locales/de.json")) == EXPECTED


@pytest.mark.slow
def test_a_target_without_a_translation_keeps_every_term_verbatim(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = glossary_project(make_project, fake, {"a": {"welcome": "Welcome to Acme Cloud"}})
        result = run_cli("generate", "--target", "fr", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert sent_texts(fake) == {'Welcome to <x id="0"/>'}
    assert read_json(root / "locales/fr.json") == {"a": {"welcome": "FR:Welcome to Acme Cloud"}}


@pytest.mark.slow
def test_the_pseudo_provider_keeps_terms_too(make_project: MakeProject, run_cli: RunCli) -> None:
    with FakeProvider("libre") as fake:
        root = glossary_project(make_project, fake, {"a": {"welcome": "Welcome to Acme Cloud"}})
        result = run_cli("generate", "--target", "de", "--provider", "pseudo", "--json", cwd=root)
    assert result.code == 0, result.stdout
    welcome = read_json(root / "locales/de.json")["a"]["welcome"]
    assert welcome.startswith("[Ŵéļçóɱé ţó Acme Wolke") and welcome.endswith("]")
    assert fake.requests == []


@pytest.mark.slow
def test_terms_from_a_csv_glossary_file(make_project: MakeProject, run_cli: RunCli) -> None:
    csv = "term,caseSensitive,de\nAcme Cloud,true,Acme Wolke\nacme,false,\n"
    with FakeProvider("libre") as fake:
        root = glossary_project(
            make_project,
            fake,
            translate={"glossaryFile": "i18n/glossary.csv"},
            files={"i18n/glossary.csv": csv},
        )
        result = run_cli("generate", "--target", "de", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert sent_texts(fake) == SENT
    assert flatten(read_json(root / "locales/de.json")) == EXPECTED


@pytest.mark.slow
def test_terms_from_a_json_glossary_file_with_config_terms_winning(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    from_file = [{"term": "Acme Cloud", "translations": {"de": "Datei-Wolke"}}, GLOSSARY[1]]
    with FakeProvider("libre") as fake:
        root = glossary_project(
            make_project,
            fake,
            translate={"glossaryFile": "glossary.json", "glossary": [GLOSSARY[0]]},
            files={"glossary.json": json.dumps(from_file)},
        )
        result = run_cli("generate", "--target", "de", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert sent_texts(fake) == SENT
    assert flatten(read_json(root / "locales/de.json")) == EXPECTED


@pytest.mark.slow
def test_a_bad_glossary_file_is_refused_before_anything_is_sent(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    csv = "term,de\nAcme Cloud,Acme Wolke\nAcme,{{x}}\n"
    with FakeProvider("libre") as fake:
        root = glossary_project(
            make_project, fake, translate={"glossaryFile": "g.csv"}, files={"g.csv": csv}
        )
        result = run_cli("generate", "--target", "de", "--json", cwd=root)
        check = run_cli("generate", "--target", "de", "--check", "--json", cwd=root)
    assert result.code != 0 and check.code != 0
    for run in (result, check):
        issue = only_issue(run)
        assert issue["code"] == Code.GLOSSARY_INVALID
        assert issue["message"] == (
            "g.csv:3: `de` must not contain placeholders, tags, braces or newlines"
        )
    assert fake.requests == []
    assert not (root / "locales/de.json").exists()


def test_a_missing_glossary_file_says_what_to_do(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = glossary_project(make_project, fake, translate={"glossaryFile": "terms.json"})
        result = run_cli("generate", "--target", "de", "--json", cwd=root)
    assert result.code != 0
    issue = only_issue(result)
    assert issue["code"] == Code.GLOSSARY_INVALID
    assert issue["message"] == (
        "terms.json: the glossary file does not exist; create it or fix `translate.glossaryFile`"
    )


def test_a_bad_config_entry_is_a_config_error_with_its_line(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = glossary_project(
            make_project, fake, translate={"glossary": [{"term": "Acme", "translations": {}}]}
        )
    config = root / "i18nprune.config.json"
    text = config.read_text().replace('"translations": {}', '"translations": {"German": "x"}')
    config.write_text(text)
    result = run_cli("generate", "--target", "de", "--json", cwd=root)
    issue = only_issue(result)
    assert issue["code"] == Code.CONFIG_INVALID
    line = next(n for n, row in enumerate(text.splitlines(), 1) if '"German"' in row)
    assert issue["message"] == (
        f"{config}:{line}: `translate.glossary[0].translations.German` is not a locale code "
        "(`de`, `pt-BR`)"
    )


@pytest.mark.slow
def test_an_answer_that_drops_a_term_is_rejected_like_a_dropped_placeholder(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    en = {"a": {"welcome": "Welcome to Acme Cloud", "plain": "Plain"}}
    with FakeProvider("libre", faults=[Fault(kind="drop_placeholder", times=-1)]) as fake:
        root = glossary_project(make_project, fake, en)
        result = run_cli("generate", "--target", "de", "--json", cwd=root)
    assert result.code == 1
    assert [issue["code"] for issue in result.envelope["issues"]] == [Code.GENERATE_PARTIAL]
    [target] = result.envelope["data"]["targetResults"]
    assert target["failedLeafCount"] == 1 and target["translatedLeafCount"] == 1
    assert read_json(root / "locales/de.json") == {"a": {"plain": "DE:Plain"}}
    # the first answer, then the text that lost its term once more on its own
    assert [request.texts for request in fake.requests][1:] == [['Welcome to <x id="0"/>']]


@pytest.mark.slow
def test_an_answer_that_dropped_a_term_is_recovered_by_the_isolated_retry(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    en = {"a": {"welcome": "Welcome to Acme Cloud", "plain": "Plain"}}
    with FakeProvider("libre", faults=[Fault(kind="drop_placeholder", times=1)]) as fake:
        root = glossary_project(make_project, fake, en)
        result = run_cli("generate", "--target", "de", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert read_json(root / "locales/de.json") == {
        "a": {"welcome": "DE:Welcome to Acme Wolke", "plain": "DE:Plain"}
    }


@pytest.mark.slow
def test_a_changed_term_translation_is_restored_from_the_cache_in_its_new_form(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    en = {"a": {"welcome": "Welcome to Acme Cloud"}}
    with FakeProvider("libre") as fake:
        root = glossary_project(make_project, fake, en)
        first = run_cli("generate", "--target", "de", "--json", cwd=root)
        requests = fake.stats().requests
        set_glossary(root, [{"term": "Acme Cloud", "translations": {"de": "Acme Himmel"}}])
        second = run_cli("generate", "--target", "de", "--force", "--json", cwd=root)
        assert fake.stats().requests == requests  # served from the cache
    assert first.code == 0 and second.code == 0, second.stdout
    [target] = second.envelope["data"]["targetResults"]
    assert target["cachedLeafCount"] == 1
    assert read_json(root / "locales/de.json") == {"a": {"welcome": "DE:Welcome to Acme Himmel"}}


@pytest.mark.slow
def test_a_new_term_is_never_served_a_cached_translation_that_saw_it(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    en = {"a": {"welcome": "Welcome to Acme Cloud"}}
    with FakeProvider("libre") as fake:
        root = glossary_project(make_project, fake, en, translate={"glossary": []})
        first = run_cli("generate", "--target", "de", "--json", cwd=root)
        set_glossary(root, GLOSSARY)
        second = run_cli("generate", "--target", "de", "--force", "--json", cwd=root)
    assert first.code == 0 and second.code == 0, second.stdout
    assert [request.texts for request in fake.requests] == [
        ["Welcome to Acme Cloud"],
        ['Welcome to <x id="0"/>'],
    ]
    assert read_json(root / "locales/de.json") == {"a": {"welcome": "DE:Welcome to Acme Wolke"}}
