"""A target with many texts is prepared and sent in parts (`text_parts`), each part sent while
the next is masked and looked up: the files, the lock and the counts are those of the texts
sent whole, a failure in a later part spares the earlier ones, and the parts of a target join
into one report (the real CLI or the op run in process, real workers, a loopback fake)."""

from __future__ import annotations

import itertools
import json
import os
import signal
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio
from hypothesis import given
from hypothesis import strategies as st

from i18nprune.envelope import Code
from i18nprune.ops.engine.events import ProgressEvent
from i18nprune.ops.engine.registry import OPS, execute
from i18nprune.ops.generate import (
    FIRST_PART_TEXTS,
    LARGEST_PART,
    PART_GROWTH,
    PARTS_FROM,
    GenerateOptions,
    text_parts,
)
from i18nprune.pool.job import ProviderAttempt
from i18nprune.project import ProjectHandle, ProjectRequest
from i18nprune.testing import FakeProvider, Fault, fake_translation
from i18nprune.translate.translator import TranslationReport, joined_reports
from tests.conftest import CliResult
from tests.generate.conftest import code_using, provider_config, start_cli, wait_until

RunCli = Callable[..., CliResult]
MakeProject = Callable[[dict[str, Any]], Path]

BATCH = 100
# Enough distinct texts for three parts; every tenth one carries a placeholder.
TEXTS = PARTS_FROM + 3 * FIRST_PART_TEXTS + 37
EN = {
    f"k{index:05}": f"Text {index} for {{{{name}}}}" if index % 10 == 0 else f"Text {index}"
    for index in range(TEXTS)
}
# A person's translations, in the first part and in the last: never sent, never changed.
FR = {"k00003": "Texte 3", f"k{TEXTS - 2:05}": "Avant-dernier"}


def parts_project(make_project: MakeProject, fake: FakeProvider, **row: Any) -> Path:
    return make_project(
        {
            "i18nprune.config.json": provider_config(fake, batchSize=BATCH, **row),
            "src/app.ts": code_using(*EN),
            "locales/en.json": EN,
            "locales/fr.json": FR,
        }
    )


def expected(target: str, held: dict[str, str]) -> dict[str, str]:
    """The target file a complete run writes: the source's keys in its order."""
    return {key: held.get(key) or fake_translation(text, target) for key, text in EN.items()}


@pytest.mark.slow
def test_texts_sent_in_parts_make_the_files_of_the_texts_sent_whole(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    assert len(text_parts(list(EN), BATCH)) == 3
    with FakeProvider("libre") as fake:
        root = parts_project(make_project, fake)
        done = run_cli("generate", "--target", "fr,de", "--json", cwd=root)
        sent = Counter(
            (request.target, text) for request in fake.requests for text in request.texts
        )
        requests = fake.stats().requests
    assert done.code == 0, done.stdout + done.stderr
    fr = json.loads((root / "locales/fr.json").read_text())
    de = json.loads((root / "locales/de.json").read_text())
    assert list(fr.items()) == list(expected("fr", FR).items())
    assert list(de.items()) == list(expected("de", {}).items())
    # Each text went once, in batches the size of the whole texts' batches.
    assert set(sent.values()) == {1}
    assert len(sent) == 2 * TEXTS - len(FR)
    assert requests == -(-(TEXTS - len(FR)) // BATCH) + -(-TEXTS // BATCH)
    results = {result["target"]: result for result in done.envelope["data"]["targetResults"]}
    assert results["fr"]["translatedLeafCount"] == TEXTS - len(FR)
    assert results["de"]["translatedLeafCount"] == TEXTS
    assert [result["failedLeafCount"] for result in results.values()] == [0, 0]
    [attempt] = results["fr"]["providerAttempts"]
    assert (attempt["outcome"], attempt["requests"]) == ("ok", -(-(TEXTS - len(FR)) // BATCH))
    lock = json.loads((root / "i18nprune.lock.json").read_text())
    assert [list(lock["targets"][target]) for target in ("de", "fr")] == [list(EN)] * 2

    # Served from the cache the second time, part after part: nothing is sent.
    for name in ("locales/fr.json", "locales/de.json", "i18nprune.lock.json"):
        (root / name).unlink()
    (root / "locales/fr.json").write_text(json.dumps(FR))
    with FakeProvider("libre") as again:
        config = json.loads((root / "i18nprune.config.json").read_text())
        config["translate"]["providers"][0]["baseUrl"] = again.base_url
        (root / "i18nprune.config.json").write_text(json.dumps(config))
        cached = run_cli("generate", "--target", "fr,de", "--json", cwd=root)
        assert again.stats().requests == 0
    assert cached.code == 0, cached.stdout + cached.stderr
    assert json.loads((root / "locales/fr.json").read_text()) == fr
    counts = [result["cachedLeafCount"] for result in cached.envelope["data"]["targetResults"]]
    assert counts == [TEXTS - len(FR), TEXTS]


@pytest.mark.slow
def test_the_plan_is_announced_before_any_part_reports_progress(
    make_project: MakeProject, home: Path
) -> None:
    # The op in process, to see every event (serve coalesces them, the CLI draws bars).
    events: list[ProgressEvent] = []
    with FakeProvider("libre") as fake:
        root = parts_project(make_project, fake)
        env = {**os.environ, "I18NPRUNE_HOME": str(home)}
        handle = ProjectHandle(ProjectRequest(cwd=root), env=env)
        envelope = trio.run(
            execute, OPS["generate"], handle, GenerateOptions(target=["fr"]), events.append
        )
    assert envelope.ok, envelope.issues
    phases = [event.phase for event in events]
    assert phases.count("plan") == 1
    assert "translate" in phases[phases.index("plan") :]
    assert "translate" not in phases[: phases.index("plan")]
    translated = [event for event in events if event.phase == "translate"]
    # One count for the target, over all its parts, that never decreases and ends complete.
    assert {event.total for event in translated} == {TEXTS - len(FR)}
    done = [event.done for event in translated]
    assert done == sorted(done) and done[-1] == TEXTS - len(FR)


@pytest.mark.slow
def test_a_failure_in_a_later_part_spares_the_texts_translated_before_it(
    make_project: MakeProject, home: Path
) -> None:
    with FakeProvider("libre") as fake:
        root = parts_project(make_project, fake, rateLimit={"maxConcurrency": 1})
        config = json.loads((root / "i18nprune.config.json").read_text())
        config["translate"]["policy"] = {"maxAttempts": 1}
        (root / "i18nprune.config.json").write_text(json.dumps(config))
        run = start_cli("generate", "--target", "fr", "--json", cwd=root, home=home)
        # The first part is FIRST_PART_TEXTS texts, one request at a time: past it, every
        # request fails from now on.
        first_part = FIRST_PART_TEXTS // BATCH
        assert wait_until(lambda: fake.stats().requests >= first_part + 2, timeout=60)
        fake.add_fault(Fault(kind="server_error", times=-1))
        stdout, stderr = run.communicate(timeout=120)
        answered = [
            text for request in fake.requests if request.status == 200 for text in request.texts
        ]
    assert run.returncode == 1, stdout + stderr
    envelope = json.loads(stdout)
    assert Code.GENERATE_PARTIAL in [issue["code"] for issue in envelope["issues"]]
    [result] = envelope["data"]["targetResults"]
    assert result["translatedLeafCount"] == len(answered) >= FIRST_PART_TEXTS
    assert result["failedLeafCount"] == TEXTS - len(FR) - len(answered) > 0
    fr = json.loads((root / "locales/fr.json").read_text())
    translated = {key: value for key, value in fr.items() if key not in FR}
    # What was answered is written (nothing else but the person's leaves), as a whole run
    # would write it.
    assert len(translated) == len(answered)
    complete = expected("fr", FR)
    assert translated == {key: complete[key] for key in translated}
    assert {key: fr[key] for key in FR} == FR


@pytest.mark.slow
def test_ctrl_c_in_a_later_part_writes_nothing_and_keeps_what_arrived_cached(
    make_project: MakeProject, home: Path
) -> None:
    # Past the first part, every request hangs: the run is interrupted while parts are sent.
    answered = FIRST_PART_TEXTS // BATCH + 2
    faults = [Fault(kind="drop_placeholder", times=answered), Fault(kind="hang", times=-1)]
    with FakeProvider("libre", faults=faults) as fake:
        # drop_placeholder only keeps the hang queued behind the answers: the first part's texts
        # that hold a placeholder are answered without it, fail verification and are retried.
        root = parts_project(make_project, fake, rateLimit={"maxConcurrency": 1})
        before = (root / "locales/fr.json").read_bytes()
        run = start_cli("generate", "--target", "fr", "--json", cwd=root, home=home)
        assert wait_until(lambda: fake.stats().requests > answered, timeout=60)
        os.killpg(run.pid, signal.SIGINT)
        stdout, stderr = run.communicate(timeout=60)
        arrived = [text for request in fake.requests[:answered] for text in request.texts]
    assert run.returncode == 130, stdout + stderr
    assert (root / "locales/fr.json").read_bytes() == before
    assert sorted(path.name for path in (root / "locales").iterdir()) == ["en.json", "fr.json"]
    assert not (root / "i18nprune.lock.json").exists()

    with FakeProvider("libre") as fresh:
        config = json.loads((root / "i18nprune.config.json").read_text())
        config["translate"]["providers"][0]["baseUrl"] = fresh.base_url
        (root / "i18nprune.config.json").write_text(json.dumps(config))
        done = start_cli("generate", "--target", "fr", "--json", cwd=root, home=home)
        stdout, stderr = done.communicate(timeout=120)
        again = {text for request in fresh.requests for text in request.texts}
    assert done.returncode == 0, stdout + stderr
    # What arrived intact was kept: only the texts of the unanswered requests go again.
    plain = {text for text in arrived if "<x" not in text}
    assert plain and not plain & again
    assert json.loads((root / "locales/fr.json").read_text()) == expected("fr", FR)


@given(
    count=st.integers(min_value=0, max_value=3 * LARGEST_PART),
    batch=st.integers(min_value=1, max_value=300),
)
def test_parts_cover_the_texts_in_order_in_whole_batches(count: int, batch: int) -> None:
    texts = [f"t{index}" for index in range(count)]
    parts = text_parts(texts, batch)
    assert [text for part in parts for text in part] == texts
    if count < PARTS_FROM:
        assert parts == [texts]
        return
    largest = -(-LARGEST_PART // batch) * batch
    assert len(parts[0]) >= FIRST_PART_TEXTS
    for before, part in itertools.pairwise(parts[:-1]):
        assert len(before) % batch == 0 and len(part) % batch == 0
        assert len(part) <= max(len(before) * PART_GROWTH, largest)
    # The rest goes with the last part rather than make a small part of its own.
    assert len(parts[-1]) < 2 * largest


def test_joined_reports_sum_each_provider_and_mark_differing_outcomes_partial() -> None:
    first = TranslationReport(
        translations={"a": "A"},
        failures={},
        cached={"a"},
        attempts=[ProviderAttempt("libre", "ok", 3, 1)],
    )
    second = TranslationReport(
        translations={"b": "B"},
        failures={"c": "transient: libre: 500"},
        attempts=[
            ProviderAttempt("libre", "partial", 2, 0),
            ProviderAttempt("deepl", "ok", 1, 0),
        ],
        fallback_count=1,
    )
    joined = joined_reports([first, second])
    assert joined.translations == {"a": "A", "b": "B"}
    assert joined.failures == {"c": "transient: libre: 500"}
    assert joined.cached == {"a"}
    assert joined.attempts == [
        ProviderAttempt("libre", "partial", 5, 1),
        ProviderAttempt("deepl", "ok", 1, 0),
    ]
    assert (joined.fallback_count, joined.aborted) == (1, False)
