"""`generate` places each target's leaves as their translations settle, while other requests are
still in flight: the files come out byte for byte as if every leaf were placed at the end, and
a run stopped while leaves are being placed writes nothing (the real CLI, real workers, a
loopback fake)."""

from __future__ import annotations

import json
import os
import signal
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from i18nprune.testing import FakeProvider, Fault, fake_translation
from tests.conftest import CliResult, write_tree
from tests.generate.conftest import code_using, provider_config, start_cli, wait_until

pytestmark = pytest.mark.slow

RunCli = Callable[..., CliResult]

EN = {f"k{index:02}": f"Text {index} for {{{{name}}}}" for index in range(12)}
FR = {"k00": "Texte 0 pour {{name}}"}


def project(
    root: Path, fake: FakeProvider, batch: int, source: dict[str, str] | None = None
) -> Path:
    """`source` (default EN) to translate into fr (which holds FR) and de, `batch` texts per
    request, one request at a time."""
    config = provider_config(fake, batchSize=batch, rateLimit={"maxConcurrency": 1})
    return write_tree(
        root,
        {
            "i18nprune.config.json": config,
            "src/app.ts": code_using(*EN),
            "locales/en.json": source or EN,
            "locales/fr.json": FR,
        },
    )


def outputs(root: Path) -> dict[str, bytes]:
    return {
        name: (root / name).read_bytes()
        for name in ("locales/fr.json", "locales/de.json", "i18nprune.lock.json")
    }


def test_a_leaf_retried_at_the_end_holds_back_only_its_placing_and_the_files_match(
    tmp_path: Path, run_cli: RunCli
) -> None:
    # The first answer loses its texts' placeholders: those texts are retried alone after every
    # other request, so the target's leaves after them wait; the files must still be those of a
    # run where nothing was retried.
    results: dict[str, tuple[dict[str, bytes], CliResult]] = {}
    for name, faults in (("retried", [Fault(kind="drop_placeholder")]), ("plain", [])):
        with FakeProvider("libre", faults=faults) as fake:
            root = project(tmp_path / name, fake, batch=2)
            home = tmp_path / f"home-{name}"
            home.mkdir()
            done = run_cli(
                "generate", "--target", "fr,de", "--json", cwd=root,
                env={"I18NPRUNE_HOME": str(home)},
            )  # fmt: skip
            sent = Counter(
                (request.target, text) for request in fake.requests for text in request.texts
            )
            isolated = [text for text, times in sent.items() if times > 1]
        assert done.code == 0, done.stdout + done.stderr
        assert bool(isolated) == (name == "retried")
        results[name] = (outputs(root), done)
    retried, plain = results["retried"], results["plain"]
    assert retried[0] == plain[0]
    for target in ("fr", "de"):
        expected = {**({} if target == "de" else FR)}
        expected.update(
            {key: fake_translation(text, target) for key, text in EN.items() if key not in expected}
        )
        assert json.loads(retried[0][f"locales/{target}.json"]) == expected
    counts = [
        [
            result["translatedLeafCount"]
            for result in json.loads(done.stdout)["data"]["targetResults"]
        ]
        for _, done in (retried, plain)
    ]
    assert counts == [[11, 12], [11, 12]]


def test_leaves_placed_one_at_a_time_or_all_at_once_make_the_same_files(
    tmp_path: Path, run_cli: RunCli
) -> None:
    # Two target files, one new and one holding a person's leaves between the new ones (and a
    # key the source lacks), a plural category the source lacks: answered one text per request,
    # leaves are placed a few at a time; answered in one request, all at once.
    source = {
        "locales/en/common.json": {
            "common": {"a": "Apple {{n}}", "b": "Banana", "items_one": "One", "items_other": "Many"}
        },
        "locales/en/shop.json": {"shop": {"c": "Cherry", "d": "Date", "e": "Elder", "f": "Fig"}},
        "locales/fr/shop.json": {"shop": {"d": "Datte", "x": "En plus", "f": "Figue"}},
    }
    results = {}
    for batch in (1, 50):
        with FakeProvider("libre") as fake:
            config = provider_config(fake, batchSize=batch, rateLimit={"maxConcurrency": 1})
            config["locales"].update({"mode": "locale_directory", "structure": "locale_per_dir"})
            root = write_tree(
                tmp_path / f"batch-{batch}",
                {"i18nprune.config.json": config, "src/app.ts": "export {};\n", **source},
            )
            home = tmp_path / f"home-{batch}"
            home.mkdir()
            done = run_cli(
                "generate", "--target", "fr", "--json", cwd=root,
                env={"I18NPRUNE_HOME": str(home)},
            )  # fmt: skip
        assert done.code == 0, done.stdout + done.stderr
        names = ["locales/fr/common.json", "locales/fr/shop.json", "i18nprune.lock.json"]
        results[batch] = {name: (root / name).read_bytes() for name in names}
    assert results[1] == results[50]
    common = json.loads(results[1]["locales/fr/common.json"])["common"]
    assert list(common) == ["a", "b", "items_one", "items_many", "items_other"]
    shop = json.loads(results[1]["locales/fr/shop.json"])["shop"]
    assert shop == {
        "c": fake_translation("Cherry", "fr"),
        "d": "Datte",
        "e": fake_translation("Elder", "fr"),
        "x": "En plus",
        "f": "Figue",
    }


def test_ctrl_c_while_leaves_are_placed_writes_no_file_and_no_lock(
    tmp_path: Path, home: Path
) -> None:
    # Texts without placeholders, so drop_placeholder answers them as they are: four answers
    # (their leaves placed in memory), then every request hangs until Ctrl+C.
    answered = 4
    plain = {key: f"Plain text {index}" for index, key in enumerate(EN)}
    faults = [Fault(kind="drop_placeholder", times=answered), Fault(kind="hang", times=-1)]
    with FakeProvider("libre", faults=faults) as fake:
        root = project(tmp_path / "project", fake, batch=1, source=plain)
        before = (root / "locales/fr.json").read_bytes()
        process = start_cli("generate", "--target", "fr,de", "--json", cwd=root, home=home)
        try:
            assert fake.wait_for_requests(answered + 1, timeout=60), process.communicate()
            os.killpg(process.pid, signal.SIGINT)
            process.communicate(timeout=45)
        finally:
            if process.poll() is None:
                process.kill()
                process.communicate()
        assert wait_until(lambda: fake.stats().in_flight == 0, timeout=30)
        faulted = [request.fault for request in fake.requests]
    assert process.returncode == 130
    assert faulted[:answered] == ["drop_placeholder"] * answered and faulted[answered] == "hang"
    assert (root / "locales/fr.json").read_bytes() == before
    assert sorted(path.name for path in (root / "locales").iterdir()) == ["en.json", "fr.json"]
    assert not (root / "i18nprune.lock.json").exists()


def test_a_namespace_whose_file_cannot_be_written_fails_the_target_after_the_earlier_ones(
    tmp_path: Path, run_cli: RunCli
) -> None:
    # Namespaces are placed and saved in order: `common` is written, `other`'s target file is a
    # link out of the project, so the target fails with that file's issue and `other` is left
    # as it was (the link's file untouched).
    outside = tmp_path / "elsewhere.json"
    outside.write_text('{"b": "Ailleurs"}\n')
    with FakeProvider("libre") as fake:
        config = provider_config(fake)
        config["locales"].update(
            {"mode": "locale_directory", "structure": "locale_per_dir", "namespaces": "file"}
        )
        root = write_tree(
            tmp_path / "project",
            {
                "i18nprune.config.json": config,
                "src/app.ts": code_using("common:a", "other:b", "other:c"),
                "locales/en/common.json": {"a": "Apple {{n}}"},
                "locales/en/other.json": {"b": "Banana", "c": "Cherry"},
            },
        )
        (root / "locales/fr").mkdir()
        (root / "locales/fr/other.json").symlink_to(outside)
        done = run_cli("generate", "--target", "fr", "--json", cwd=root)
    assert done.code == 1, done.stdout + done.stderr
    envelope = json.loads(done.stdout)
    [target] = envelope["data"]["targetResults"]
    assert target["status"] == "failed"
    errors = [issue for issue in envelope["issues"] if issue["severity"] == "error"]
    assert [(issue["code"], issue["path"]) for issue in errors] == [
        ("i18nprune.project.path_outside_root", "locales/fr/other.json")
    ]
    assert json.loads((root / "locales/fr/common.json").read_text()) == {
        "a": fake_translation("Apple {{n}}", "fr")
    }
    assert outside.read_text() == '{"b": "Ailleurs"}\n'
