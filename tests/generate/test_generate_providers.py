"""`generate` through the real CLI against loopback fake providers: results, batching, the
translation cache, placeholder verification, fallback, failures, credentials; and `providers`."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from i18nprune.envelope import Code
from i18nprune.placeholders import protect_placeholders
from i18nprune.testing import FakeProvider, Fault, fake_translation
from i18nprune.translate.cache import TranslationCache
from tests.conftest import CliResult
from tests.generate.conftest import code_using, flatten, provider_config, read_json

RunCli = Callable[..., CliResult]
MakeProject = Callable[[dict[str, Any]], Path]

# Source texts with every kind of placeholder, and what the fake's answer restores to: the fake
# prefixes each masked text with "FR:", an ICU plural is translated branch by branch.
TEXTS = {
    "hello": ("Hello {{name}}", "FR:Hello {{name}}"),
    "bold": ("Click <b>here</b>", "FR:Click <b>here</b>"),
    "amp": ("Tom & Jerry", "FR:Tom & Jerry"),
    "icu": (
        "{n, plural, one {# file} other {# files}}",
        "{n, plural, one {FR:# file} other {FR:# files}}",
    ),
    "printf": ("%s of %d", "FR:%s of %d"),
    "lines": ("Line one\nLine two", "FR:Line one\nLine two"),
    "nested": ("See $t(a.amp)", "FR:See $t(a.amp)"),
}
KEYS = tuple(f"a.{name}" for name in TEXTS)
EN = {"a": {name: source for name, (source, _) in TEXTS.items()}}
EXPECTED = {f"a.{name}": translated for name, (_, translated) in TEXTS.items()}


def libre_project(
    make_project: MakeProject, fake: FakeProvider, en: dict[str, Any] = EN, **row: Any
) -> Path:
    leaves = flatten(en)
    return make_project(
        {
            "i18nprune.config.json": provider_config(fake, **row),
            "src/app.ts": code_using(*leaves),
            "locales/en.json": en,
        }
    )


def issue_codes(result: CliResult) -> list[str]:
    return [issue["code"] for issue in result.envelope["issues"]]


def target_result(result: CliResult) -> dict[str, Any]:
    [target] = result.envelope["data"]["targetResults"]
    return target


# --- results and batching ---------------------------------------------------------------------


@pytest.mark.slow
def test_translations_are_the_providers_answers_with_placeholders_restored(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = libre_project(make_project, fake)
        result = run_cli("generate", "--target", "fr", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert flatten(read_json(root / "locales/fr.json")) == EXPECTED
    sent = {text for request in fake.requests for text in request.texts}
    assert 'Hello <x id="0"/>' in sent  # placeholders travel masked
    assert "Tom &amp; Jerry" in sent  # libre's html mode: plain text escaped


@pytest.mark.slow
def test_batches_respect_the_batch_size_and_identical_texts_are_sent_once(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    en = {"a": {f"k{index}": f"Text {index % 7}" for index in range(10)}}
    with FakeProvider("libre", batch_limit=3) as fake:
        root = libre_project(make_project, fake, en, batchSize=3)
        result = run_cli("generate", "--target", "fr", "--json", cwd=root)
    assert result.code == 0, result.stdout
    sizes = fake.stats().batch_sizes
    assert max(sizes) <= 3 and sum(sizes) == 7
    fr = read_json(root / "locales/fr.json")["a"]
    assert fr == {key: f"FR:{text}" for key, text in en["a"].items()}


# --- the translation cache --------------------------------------------------------------------


@pytest.mark.slow
def test_a_second_run_is_served_from_the_cache(make_project: MakeProject, run_cli: RunCli) -> None:
    with FakeProvider("libre") as fake:
        root = libre_project(make_project, fake)
        first = run_cli("generate", "--target", "fr", "--json", cwd=root)
        written = (root / "locales/fr.json").read_bytes()
        requests = fake.stats().requests
        (root / "locales/fr.json").unlink()
        second = run_cli("generate", "--target", "fr", "--json", cwd=root)
        assert fake.stats().requests == requests
    assert first.code == 0 and second.code == 0, second.stdout
    assert target_result(first)["cachedLeafCount"] == 0
    assert target_result(second)["cachedLeafCount"] == len(KEYS)
    assert target_result(second)["providerAttempts"] == []
    assert (root / "locales/fr.json").read_bytes() == written


@pytest.mark.slow
def test_a_cached_translation_that_fails_verification_is_translated_again(
    make_project: MakeProject, run_cli: RunCli, home: Path
) -> None:
    with FakeProvider("libre") as fake:
        root = libre_project(make_project, fake, en={"a": "Hello"})
        (unit,) = protect_placeholders("Hello").units
        with TranslationCache.open(home / "translations.sqlite3", writable=True) as cache:
            cache.put_many("libre", "en", "fr", [(unit.key, "Bonjour %s")])  # an extra placeholder
        result = run_cli("generate", "--target", "fr", "--json", cwd=root)
        assert fake.stats().texts == 1
    assert result.code == 0, result.stdout
    assert read_json(root / "locales/fr.json") == {"a": fake_translation("Hello", "fr")}
    with TranslationCache.open(home / "translations.sqlite3", writable=False) as cache:
        assert cache.get_many("libre", "en", "fr", [unit.key]) == {
            unit.key: fake_translation("Hello", "fr")
        }


@pytest.mark.slow
def test_no_cache_sends_every_text_again(make_project: MakeProject, run_cli: RunCli) -> None:
    with FakeProvider("libre") as fake:
        root = libre_project(make_project, fake)
        run_cli("generate", "--target", "fr", "--json", cwd=root)
        texts = fake.stats().texts
        (root / "locales/fr.json").unlink()
        result = run_cli("generate", "--target", "fr", "--no-cache", "--json", cwd=root)
        assert fake.stats().texts == 2 * texts
    assert result.code == 0, result.stdout
    assert target_result(result)["cachedLeafCount"] == 0
    assert flatten(read_json(root / "locales/fr.json")) == EXPECTED


# --- placeholder verification -----------------------------------------------------------------

EN_MIXED = {"a": {"greeting": "Hello {{name}}", "plain": "Plain"}}


@pytest.mark.slow
def test_mangled_placeholders_fail_the_leaf_and_are_never_written(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    with FakeProvider("libre", faults=[Fault(kind="drop_placeholder", times=-1)]) as fake:
        root = libre_project(make_project, fake, EN_MIXED)
        result = run_cli("generate", "--target", "fr", "--json", cwd=root)
    assert result.code == 1
    envelope = result.envelope
    assert envelope["ok"] is False and envelope["data"]["partial"] is True
    assert issue_codes(result) == ["i18nprune.generate.partial_failure"]
    message = envelope["issues"][0]["message"]
    assert "1 leaf" in message and "the others were written" in message
    target = target_result(result)
    assert target["status"] == "written" and target["partial"] is True
    assert target["failedLeafCount"] == 1 and target["translatedLeafCount"] == 1
    assert read_json(root / "locales/fr.json") == {"a": {"plain": "FR:Plain"}}
    # the first answer, then the failed text once more on its own
    assert [request.texts for request in fake.requests][1:] == [['Hello <x id="0"/>']]


@pytest.mark.slow
def test_a_mangled_answer_is_recovered_by_the_isolated_retry(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    with FakeProvider("libre", faults=[Fault(kind="drop_placeholder", times=1)]) as fake:
        root = libre_project(make_project, fake, EN_MIXED)
        result = run_cli("generate", "--target", "fr", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert read_json(root / "locales/fr.json") == {
        "a": {"greeting": "FR:Hello {{name}}", "plain": "FR:Plain"}
    }
    assert fake.stats().batch_sizes == [2, 1]


# --- providers failing ------------------------------------------------------------------------


@pytest.mark.slow
def test_quota_on_the_primary_falls_back_to_the_next_provider(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    key = "deepl-test-key"
    quota = Fault(kind="quota", times=-1)
    with (
        FakeProvider("deepl", api_key=key, faults=[quota]) as deepl,
        FakeProvider("libre") as libre,
    ):
        config = {
            "locales": {"source": "en"},
            "translate": {
                "primary": "deepl",
                "policy": {"routing": "auto"},
                "providers": [
                    {"id": "deepl", "baseUrl": deepl.base_url, "apiKey": key},
                    {"id": "libre", "baseUrl": libre.base_url},
                ],
            },
        }
        root = make_project(
            {
                "i18nprune.config.json": config,
                "src/app.ts": code_using(*flatten(EN_MIXED)),
                "locales/en.json": EN_MIXED,
            }
        )
        result = run_cli("generate", "--target", "fr", "--json", cwd=root)
        assert [request.status for request in deepl.requests] == [456]
        assert libre.stats().requests == 1
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["providerId"] == "deepl"
    target = target_result(result)
    assert target["providerAttempts"] == [
        {"providerId": "deepl", "outcome": "failed", "requests": 1, "retries": 0},
        {"providerId": "libre", "outcome": "ok", "requests": 1, "retries": 0},
    ]
    assert target["fallbackCount"] == 1
    assert read_json(root / "locales/fr.json") == {
        "a": {"greeting": "FR:Hello {{name}}", "plain": "FR:Plain"}
    }


def closed_port() -> int:
    """A local port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@pytest.mark.slow
def test_an_unreachable_provider_fails_without_touching_locale_files(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    config = {
        "locales": {"source": "en"},
        "translate": {
            "primary": "libre",
            "providers": [{"id": "libre", "baseUrl": f"http://127.0.0.1:{closed_port()}"}],
        },
    }
    root = make_project(
        {
            "i18nprune.config.json": config,
            "src/app.ts": code_using(*flatten(EN_MIXED)),
            "locales/en.json": EN_MIXED,
            "locales/fr.json": {"a": {"plain": "Simple"}},
        }
    )
    before = {path: path.read_bytes() for path in (root / "locales").iterdir()}
    result = run_cli("generate", "--target", "fr,de", "--json", cwd=root)
    assert result.code == 1
    assert result.envelope["ok"] is False and result.envelope["data"]["partial"] is True
    statuses = [target["status"] for target in result.envelope["data"]["targetResults"]]
    assert statuses == ["failed", "failed"]
    assert issue_codes(result) == ["i18nprune.generate.partial_failure"] * 2
    assert all("none was translated" in issue["message"] for issue in result.envelope["issues"])
    assert {path: path.read_bytes() for path in (root / "locales").iterdir()} == before


@pytest.mark.slow
def test_a_provider_that_keeps_failing_is_given_up_and_resume_finishes_the_job(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    # One request at a time: two are answered, then every request is rate limited for an hour
    # (no placeholder to drop here: drop_placeholder answers normally, it only counts them).
    en = {"a": {f"k{index}": f"Text number {index}" for index in range(6)}}
    faults = [
        Fault(kind="drop_placeholder", times=2),
        Fault(kind="rate_limit", times=-1, retry_after=3600),
    ]
    with FakeProvider("libre", faults=faults) as fake:
        root = libre_project(make_project, fake, en, batchSize=1, rateLimit={"maxConcurrency": 1})
        config = read_json(root / "i18nprune.config.json")
        config["translate"]["policy"] = {"maxAttempts": 1000, "giveUpAfterSeconds": 0.5}
        (root / "i18nprune.config.json").write_text(json.dumps(config))
        result = run_cli("generate", "--target", "fr", "--json", cwd=root)
        answered = {text for request in fake.requests[:2] for text in request.texts}
    assert result.code == 1, result.stdout + result.stderr
    assert result.envelope["ok"] is False and result.envelope["data"]["partial"] is True
    assert issue_codes(result) == ["i18nprune.generate.partial_failure"]
    message = result.envelope["issues"][0]["message"]
    assert message.startswith(
        "4 leaf(s) of `fr` could not be translated (gave up after 0.5 s: every request to "
        "libre failed: rate_limited: libre: "
    )
    assert "the others were written" in message and "--resume" in message
    expected = {key: f"FR:{text}" for key, text in en["a"].items()}
    written = {key: text for key, text in expected.items() if text[3:] in answered}
    assert len(written) == 2
    assert read_json(root / "locales/fr.json") == {"a": written}

    with FakeProvider("libre") as fresh:
        config["translate"]["providers"][0]["baseUrl"] = fresh.base_url
        (root / "i18nprune.config.json").write_text(json.dumps(config))
        resumed = run_cli("generate", "--target", "fr", "--resume", "--json", cwd=root)
        again = {text for request in fresh.requests for text in request.texts}
    assert resumed.code == 0, resumed.stdout + resumed.stderr
    assert again == set(en["a"].values()) - answered
    assert read_json(root / "locales/fr.json") == {"a": expected}


@pytest.mark.slow
def test_rate_limits_are_waited_out_however_many_times_they_come(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    # Five 429s in a row with the default `maxAttempts` (3): a provider that asks to slow down
    # is waited out within `giveUpAfterSeconds`, not failed after three answers.
    faults = [Fault(kind="rate_limit", times=5, retry_after=0.01)]
    with FakeProvider("libre", faults=faults) as fake:
        root = libre_project(make_project, fake, rateLimit={"maxConcurrency": 1})
        result = run_cli("generate", "--target", "fr", "--json", cwd=root)
        statuses = [request.status for request in fake.requests]

    assert result.code == 0, result.stdout + result.stderr
    assert statuses == [429] * 5 + [200]
    assert flatten(read_json(root / "locales/fr.json")) == EXPECTED


@pytest.mark.slow
def test_rate_limits_past_the_time_budget_fail_the_batch(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    faults = [Fault(kind="rate_limit", times=-1, retry_after=0.05)]
    with FakeProvider("libre", faults=faults) as fake:
        root = libre_project(make_project, fake, rateLimit={"maxConcurrency": 1})
        config = read_json(root / "i18nprune.config.json")
        config["translate"]["policy"] = {"giveUpAfterSeconds": 1.5}
        (root / "i18nprune.config.json").write_text(json.dumps(config))
        result = run_cli("generate", "--target", "fr", "--json", cwd=root)
        requests = len(fake.requests)

    assert result.code == 1, result.stdout + result.stderr
    assert "rate_limited: libre: " in result.envelope["issues"][0]["message"]
    assert requests > 3  # more than `maxAttempts`: the time, not the count, ended it
    assert not (root / "locales/fr.json").exists()


def test_an_unknown_provider_is_refused(example_project: Path, run_cli: RunCli) -> None:
    result = run_cli(
        "generate", "--target", "de", "--provider", "deepel", "--json", cwd=example_project
    )
    assert result.code == 2  # a usage error, like an unknown target
    assert issue_codes(result) == ["i18nprune.translate.unknown_translation_provider"]
    assert "deepl" in result.envelope["issues"][0]["message"]  # did you mean
    assert not (example_project / "locales/de.json").exists()


def test_an_unknown_provider_in_the_config_is_a_broken_config_not_a_usage_error(
    example_project: Path, run_cli: RunCli
) -> None:
    config = read_json(example_project / "i18nprune.config.json")
    config["translate"]["primary"] = "deepel"
    (example_project / "i18nprune.config.json").write_text(json.dumps(config))

    result = run_cli("generate", "--target", "de", "--json", cwd=example_project)

    assert result.code == 1
    assert issue_codes(result) == ["i18nprune.translate.unknown_translation_provider"]


def test_a_provider_without_its_api_key_reports_missing_credentials(
    example_project: Path, run_cli: RunCli
) -> None:
    result = run_cli(
        "generate", "--target", "de", "--provider", "deepl", "--json", cwd=example_project
    )
    assert result.code == 1
    assert issue_codes(result) == ["i18nprune.translate.missing_credentials"]
    assert "I18NPRUNE_TRANSLATE_DEEPL_API_KEY" in result.envelope["issues"][0]["message"]


@pytest.mark.slow
def test_an_api_key_never_appears_in_the_output(example_project: Path, run_cli: RunCli) -> None:
    secret = "sk-test-5ecret-0f-the-user"
    with FakeProvider("deepl", api_key="the-right-key") as fake:
        env = {
            "I18NPRUNE_TRANSLATE_DEEPL_API_KEY": secret,
            "I18NPRUNE_TRANSLATE_DEEPL_URL": fake.base_url,
        }
        args = ("generate", "--target", "de", "--provider", "deepl")
        as_json = run_cli(*args, "--json", cwd=example_project, env=env)
        human = run_cli(*args, cwd=example_project, env=env)
        sent = fake.requests[0].headers["authorization"]
    assert sent == f"DeepL-Auth-Key {secret}"  # it was used …
    assert as_json.code == human.code == 1
    assert as_json.envelope["data"]["targetResults"][0]["status"] == "failed"
    for output in (as_json.stdout, as_json.stderr, human.stdout, human.stderr):
        assert secret not in output  # … and never shown
    assert not (example_project / "locales/de.json").exists()


# --- providers --------------------------------------------------------------------------------

PROVIDER_IDS = ["pseudo", "google", "google-cloud", "deepl", "libre", "azure", "llm", "mymemory"]


def test_providers_json_lists_every_provider_with_its_settings(
    example_project: Path, run_cli: RunCli
) -> None:
    result = run_cli("providers", "--json", cwd=example_project)
    assert result.code == 0, result.stdout
    providers = result.envelope["data"]["providers"]
    assert [provider["id"] for provider in providers] == PROVIDER_IDS
    for provider in providers:
        assert isinstance(provider["envVars"], list)
        assert isinstance(provider["configKeys"], list) and provider["configKeys"]
        assert provider["batchLimit"] >= 1
    deepl = next(provider for provider in providers if provider["id"] == "deepl")
    assert deepl["batchLimit"] == 50
    assert "I18NPRUNE_TRANSLATE_DEEPL_API_KEY" in deepl["envVars"]
    assert "apiKey" in deepl["configKeys"]


def test_providers_human_output_names_every_provider(
    example_project: Path, run_cli: RunCli
) -> None:
    result = run_cli("providers", cwd=example_project)
    assert result.code == 0, result.stderr
    lines = result.stdout.splitlines()
    for provider_id in PROVIDER_IDS:
        assert any(line.startswith(provider_id + " ") for line in lines), provider_id


# --- the CI gate ------------------------------------------------------------------------------


@pytest.mark.slow
def test_check_sends_nothing_writes_nothing_and_fails_while_a_target_lacks_texts(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = libre_project(make_project, fake)
        (root / "locales/fr.json").write_text('{"greeting": "Bonjour"}\n')
        before = {path.name: path.read_bytes() for path in (root / "locales").iterdir()}
        result = run_cli("generate", "--target", "fr", "--check", "--json", cwd=root)
        assert fake.stats().requests == 0
    assert result.code == 1, result.stdout
    [gate] = [i for i in result.envelope["issues"] if i["code"] == Code.CHECK_WOULD_CHANGE]
    assert "would be translated: fr (" in gate["message"]
    assert "`i18nprune generate --target fr`" in gate["message"]
    assert result.envelope["data"]["dryRun"] is True
    assert {path.name: path.read_bytes() for path in (root / "locales").iterdir()} == before


@pytest.mark.slow
def test_check_passes_once_every_target_is_translated(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = libre_project(make_project, fake)
        assert run_cli("generate", "--target", "fr", "--json", cwd=root).code == 0
        sent = fake.stats().requests
        result = run_cli("generate", "--target", "fr", "--check", "--json", cwd=root)
        assert fake.stats().requests == sent
    assert result.code == 0, result.stdout
    assert Code.CHECK_WOULD_CHANGE not in issue_codes(result)
