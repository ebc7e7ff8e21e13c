"""Provider options and key descriptions, end to end: the real CLI and its worker processes
against the loopback fakes, on real files. DeepL requests carry the row's `formality` (per
target) and `context`; LLM requests carry the target's instructions and each text's key paths
and description (`<segment>.meta.json` over an `// i18n:` comment); a translation made under
other options is never taken from the cache; `validate --json` lists the described keys."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from i18nprune.envelope import Code
from i18nprune.testing import FakeProvider, Fault
from tests.conftest import CliResult
from tests.generate.conftest import code_using, flatten, provider_config, read_json

RunCli = Callable[..., CliResult]
MakeProject = Callable[[dict[str, Any]], Path]
KEY = "deepl-key-0123"

EN = {
    "home": {"title": "Welcome", "body": "Read on"},
    "nav": {"home": "Home"},
    "save": "Save",
    "again": "Save",
}
CODE = "\n".join(
    [
        "// i18n: Words from a comment, which the meta file overrides",
        "t('home.title');",
        "t('home.body');",
        "// i18n: Link to the start page, in the top bar",
        "t('nav.home');",
        "t('save');",
        "t('again');",
        "",
    ]
)
META = {"home.title": "Hero heading on the landing page"}


def deepl_project(make_project: MakeProject, fake: FakeProvider, **row: Any) -> Path:
    return make_project(
        {
            "i18nprune.config.json": provider_config(fake, "deepl", apiKey=KEY, **row),
            "src/app.ts": code_using(*flatten(EN)),
            "locales/en.json": EN,
        }
    )


def llm_project(make_project: MakeProject, fake: FakeProvider, **row: Any) -> Path:
    return make_project(
        {
            "i18nprune.config.json": provider_config(fake, "llm", **row),
            "src/app.ts": CODE,
            "locales/en.json": EN,
            "locales/en.meta.json": META,
        }
    )


def set_row(root: Path, **row: Any) -> None:
    path = root / "i18nprune.config.json"
    config = read_json(path)
    config["translate"]["providers"][0].update(row)
    path.write_text(json.dumps(config))


def generate(run_cli: RunCli, root: Path, targets: str) -> CliResult:
    result = run_cli("generate", "--target", targets, "--json", cwd=root)
    assert result.code == 0, result.stdout + result.stderr
    return result


def bodies(fake: FakeProvider) -> list[Any]:
    return [request.json() for request in fake.requests]


def llm_messages(body: Any) -> tuple[str, Any]:
    """(the system message, the decoded JSON task) of a chat-completions request."""
    by_role = {message["role"]: message["content"] for message in body["messages"]}
    return by_role["system"], msgspec.json.decode(by_role["user"])


@pytest.mark.slow
def test_deepl_requests_carry_the_formality_of_their_target_and_the_context(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    context = "Buttons and labels of a reading app."
    with FakeProvider("deepl", api_key=KEY) as fake:
        root = deepl_project(
            make_project, fake, formality={"de": "less", "*": "more"}, context=context
        )
        generate(run_cli, root, "de,fr,zh")
    sent = {body["target_lang"]: body for body in bodies(fake)}
    assert {lang: body["formality"] for lang, body in sent.items()} == {
        "DE": "less",  # the target's own setting
        "FR": "more",  # `*`
        "ZH-HANS": "prefer_more",  # no formality in Chinese: `more` would be refused
    }
    assert {body["context"] for body in sent.values()} == {context}
    assert read_json(root / "locales/zh.json")["nav"]["home"] == "ZH-HANS:Home"


@pytest.mark.slow
def test_llm_requests_carry_instructions_key_paths_and_descriptions(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    instructions = {"de": "Address the reader informally (du).", "*": "Keep it short."}
    with FakeProvider("llm") as fake:
        root = llm_project(make_project, fake, instructions=instructions)
        generate(run_cli, root, "de")
    [body] = bodies(fake)
    system, task = llm_messages(body)
    assert system.endswith("\nAddress the reader informally (du).")
    assert sorted(task["texts"], key=lambda item: item["text"]) == [
        {
            "text": "Home",
            "keys": ["nav.home"],
            "description": "Link to the start page, in the top bar",
        },
        {"text": "Read on", "keys": ["home.body"]},
        {"text": "Save", "keys": ["save", "again"]},
        {
            "text": "Welcome",
            "keys": ["home.title"],
            "description": "Hero heading on the landing page",
        },
    ]
    assert read_json(root / "locales/de.json")["home"]["title"] == "DE:Welcome"


@pytest.mark.slow
def test_a_translation_made_under_other_options_is_not_taken_from_the_cache(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    texts = len(set(flatten(EN).values()))
    with FakeProvider("deepl", api_key=KEY) as fake:
        root = deepl_project(make_project, fake, formality="more")
        generate(run_cli, root, "de")
        assert len(fake.requests) == 1
        (root / "locales/de.json").unlink()
        again = generate(run_cli, root, "de")
        assert len(fake.requests) == 1  # the same options: every text came from the cache
        assert again.envelope["data"]["targetResults"][0]["cachedLeafCount"] == len(flatten(EN))

        set_row(root, formality="less")
        (root / "locales/de.json").unlink()
        generate(run_cli, root, "de")
        assert len(fake.requests) == 2
        assert fake.requests[-1].json()["formality"] == "less"
        assert len(fake.requests[-1].texts) == texts

        set_row(root, formality="more", context="A reading app.")
        (root / "locales/de.json").unlink()
        generate(run_cli, root, "de")
        assert len(fake.requests) == 3  # a new context is another option too

        set_row(root, formality="more", context=None)
        (root / "locales/de.json").unlink()
        generate(run_cli, root, "de")
        assert len(fake.requests) == 3  # back to the first options: their translations remain


@pytest.mark.slow
def test_changing_one_targets_instructions_keeps_the_others_cached(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    with FakeProvider("llm") as fake:
        root = llm_project(make_project, fake, instructions={"de": "Use du."})
        generate(run_cli, root, "de,fr")
        assert len(fake.requests) == 2
        set_row(root, instructions={"de": "Use Sie."})
        (root / "locales/de.json").unlink()
        (root / "locales/fr.json").unlink()
        generate(run_cli, root, "de,fr")
    # fr keeps its cached translations; de, whose instructions changed, is asked again
    assert [request.target for request in fake.requests[2:]] == ["de"]
    assert len(fake.requests) == 3
    assert llm_messages(fake.requests[-1].json())[0].endswith("\nUse Sie.")


@pytest.mark.slow
def test_a_translation_by_another_llm_model_is_not_taken_from_the_cache(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    with FakeProvider("llm") as fake:
        root = llm_project(make_project, fake)  # no model named: the default one
        generate(run_cli, root, "de")
        for model, asked in (("gpt-4o-mini", 1), ("gpt-4.1", 2), (None, 2), ("gpt-4.1", 2)):
            set_row(root, model=model)
            (root / "locales/de.json").unlink()
            generate(run_cli, root, "de")
            assert len(fake.requests) == asked, model
    # The default named or not is one model; another is asked once, then found in the cache.
    assert [request.json()["model"] for request in fake.requests] == ["gpt-4o-mini", "gpt-4.1"]


def test_validate_lists_the_described_keys(make_project: MakeProject, run_cli: RunCli) -> None:
    with FakeProvider("llm") as fake:
        root = llm_project(make_project, fake)
    result = run_cli("validate", "--json", cwd=root)
    assert result.code == 0, result.stdout + result.stderr
    assert result.envelope["data"]["descriptions"] == {
        "home.title": "Hero heading on the landing page",  # the meta file wins over the comment
        "nav.home": "Link to the start page, in the top bar",
    }


@pytest.mark.slow
def test_a_broken_meta_file_is_a_located_warning_and_translation_goes_on(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    with FakeProvider("llm") as fake:
        root = llm_project(make_project, fake)
        (root / "locales/en.meta.json").write_text('{\n  "home.title": 42\n}\n')
        checked = run_cli("validate", "--json", cwd=root)
        generated = generate(run_cli, root, "de")
    [issue] = [
        issue for issue in checked.envelope["issues"] if issue["code"] == Code.LOCALE_META_INVALID
    ]
    assert issue["severity"] == "warning"
    assert issue["message"].startswith("locales/en.meta.json:2:3: the description of `home.title`")
    assert checked.envelope["data"]["descriptions"] == {
        "home.title": "Words from a comment, which the meta file overrides",
        "nav.home": "Link to the start page, in the top bar",
    }
    assert Code.LOCALE_META_INVALID in {issue["code"] for issue in generated.envelope["issues"]}
    assert (root / "locales/de.json").is_file()


@pytest.mark.slow
def test_each_text_keeps_its_own_note_across_batches_and_split_retries(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    en = {f"k{index}": f"Text number {index}" for index in range(7)}
    meta = {key: f"What {key} is for" for key in en}
    with FakeProvider("llm") as fake:
        # the first answer lacks a translation: the job halves that batch and sends it again
        fake.add_fault(Fault(kind="wrong_count"))
        root = make_project(
            {
                "i18nprune.config.json": provider_config(fake, "llm", batchSize=3),
                "src/app.ts": code_using(*en),
                "locales/en.json": en,
                "locales/en.meta.json": meta,
            }
        )
        generate(run_cli, root, "de")
    items = [item for request in fake.requests for item in llm_messages(request.json())[1]["texts"]]
    assert len(fake.requests) > 3  # three batches, one of them split
    for item in items:
        key = "k" + item["text"].rsplit(" ", 1)[1]
        assert item == {"text": en[key], "keys": [key], "description": meta[key]}
    assert read_json(root / "locales/de.json") == {key: f"DE:{text}" for key, text in en.items()}
