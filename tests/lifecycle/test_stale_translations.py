"""Stale translations and `i18nprune.lock.json`, end to end: the real CLI (and `serve`) against a
loopback fake provider, on real files. A leaf whose source text changed since `generate`
translated it is stale: re-translated while it holds generate's output, kept (and reported)
once a person edited it."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from i18nprune.envelope import Code
from i18nprune.testing import FakeProvider, ServeClient
from i18nprune.translate.lock import LOCK_FILE, text_hash
from tests.conftest import CliResult, write_tree
from tests.generate.conftest import code_using, flatten, provider_config, read_json, start_cli

pytestmark = pytest.mark.slow

RunCli = Callable[..., CliResult]
EN = {"a": {"hello": "Hello", "bye": "Bye"}, "items_one": "# item", "items_other": "# items"}


def project(root: Path, fake: FakeProvider, en: dict[str, Any] = EN, **extra: Any) -> Path:
    """A project translating `en` (every leaf used in code, `items` as a plural); `extra`
    adds files."""
    keys = [path for path in flatten(en) if not path.startswith("items_")] + ["items#count"]
    return write_tree(
        root,
        {
            "i18nprune.config.json": provider_config(fake),
            "src/app.ts": code_using(*keys),
            "locales/en.json": en,
            **extra,
        },
    )


def generate(run_cli: RunCli, root: Path, *args: str) -> CliResult:
    return run_cli("generate", "--target", "fr", *args, "--json", cwd=root)


def sent(fake: FakeProvider, since: int = 0) -> list[str]:
    """The texts of the requests `fake` received after its first `since` ones."""
    return [text for request in fake.requests[since:] for text in request.texts]


def edit(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


def counts(result: CliResult) -> tuple[int, int]:
    [target] = result.envelope["data"]["targetResults"]
    return target["staleLeafCount"], target["retranslatedLeafCount"]


def issues(result: CliResult, code: str) -> list[dict[str, Any]]:
    return [issue for issue in result.envelope["issues"] if issue["code"] == code]


def lock_entries(root: Path, key: str = "fr") -> dict[str, Any]:
    entries: dict[str, Any] = read_json(root / LOCK_FILE)["targets"][key]
    return entries


def translated_project(tmp_path: Path, fake: FakeProvider, run_cli: RunCli) -> Path:
    """A project whose `fr` generate translated (so the lock knows every leaf)."""
    root = project(tmp_path / "app", fake)
    first = generate(run_cli, root)
    assert first.code == 0, first.stdout
    return root


def set_source(root: Path, path: str, text: str) -> None:
    def change(doc: dict[str, Any]) -> None:
        node = doc
        *parents, leaf = path.split(".")
        for parent in parents:
            node = node[parent]
        node[leaf] = text

    edit(root / "locales/en.json", change)


def test_a_changed_source_leaf_is_retranslated_alone(tmp_path: Path, run_cli: RunCli) -> None:
    with FakeProvider("libre") as fake:
        root = translated_project(tmp_path, fake, run_cli)
        start = len(fake.requests)
        set_source(root, "a.hello", "Hello there, friend")
        result = generate(run_cli, root)
        assert result.code == 0, result.stdout
        assert sent(fake, start) == ["Hello there, friend"]
    fr = flatten(read_json(root / "locales/fr.json"))
    assert fr["a.hello"] == "FR:Hello there, friend" and fr["a.bye"] == "FR:Bye"
    assert counts(result) == (1, 1)
    assert lock_entries(root)["a.hello"] == {
        "source": text_hash("Hello there, friend"),
        "value": text_hash("FR:Hello there, friend"),
    }
    assert not issues(result, Code.GENERATE_STALE)


def test_a_hand_edited_stale_leaf_is_kept_reported_and_marked_with_metadata(
    tmp_path: Path, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = translated_project(tmp_path, fake, run_cli)
        start = len(fake.requests)
        edit(root / "locales/fr.json", lambda doc: doc["a"].update(hello="Salut"))
        set_source(root, "a.hello", "Hello there, friend")
        result = generate(run_cli, root, "--metadata")
        assert result.code == 0, result.stdout
        assert sent(fake, start) == []
    assert read_json(root / "locales/fr.json")["a"]["hello"] == {
        "value": "Salut",
        "needsReview": True,
    }
    assert counts(result) == (1, 0)
    [stale] = issues(result, Code.GENERATE_STALE)
    assert stale["severity"] == "warning"
    assert (
        "1 translation(s) of `fr` are stale" in stale["message"] and "a.hello" in stale["message"]
    )
    assert "review --accept a.hello --target fr" in stale["message"]


def test_no_retranslate_stale_keeps_what_generate_wrote(tmp_path: Path, run_cli: RunCli) -> None:
    with FakeProvider("libre") as fake:
        root = translated_project(tmp_path, fake, run_cli)
        start = len(fake.requests)
        set_source(root, "a.bye", "Goodbye")
        kept = generate(run_cli, root, "--no-retranslate-stale")
        assert kept.code == 0, kept.stdout
        assert sent(fake, start) == []
        assert flatten(read_json(root / "locales/fr.json"))["a.bye"] == "FR:Bye"
        assert counts(kept) == (1, 0) and issues(kept, Code.GENERATE_STALE)
        redone = generate(run_cli, root)
        assert sent(fake, start) == ["Goodbye"]
    assert flatten(read_json(root / "locales/fr.json"))["a.bye"] == "FR:Goodbye"
    assert counts(redone) == (1, 1)


def test_leaves_that_predate_the_lock_are_adopted_and_never_overwritten(
    tmp_path: Path, run_cli: RunCli
) -> None:
    fr = {"a": {"hello": "Bonjour", "bye": "Au revoir"}, "items_one": "# article"}
    fr |= {"items_many": "# d'articles", "items_other": "# articles"}
    with FakeProvider("libre") as fake:
        root = project(tmp_path / "app", fake, **{"locales/fr.json": fr})
        adopted = generate(run_cli, root)
        assert adopted.code == 0, adopted.stdout
        assert sent(fake) == []
        entries = lock_entries(root)
        assert entries["a.hello"] == {
            "source": text_hash("Hello"),
            "value": text_hash("Bonjour"),
            "edited": True,
        }
        assert entries["items_many"]["from"] == "items_other"
        set_source(root, "a.hello", "Hello there")
        later = generate(run_cli, root)
        assert sent(fake) == []  # a translation nobody proved generate wrote stays a person's
    assert read_json(root / "locales/fr.json") == fr
    assert counts(adopted) == (0, 0) and counts(later) == (1, 0)
    assert issues(later, Code.GENERATE_STALE)


def test_check_sends_nothing_writes_nothing_and_fails_on_a_stale_leaf(
    tmp_path: Path, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = translated_project(tmp_path, fake, run_cli)
        assert generate(run_cli, root, "--check").code == 0  # up to date: the gate passes
        start = len(fake.requests)
        set_source(root, "a.bye", "Goodbye")
        before = {path: (root / path).read_bytes() for path in ("locales/fr.json", LOCK_FILE)}
        result = generate(run_cli, root, "--check")
        assert sent(fake, start) == []
    assert result.code == 1, result.stdout
    [gate] = issues(result, Code.CHECK_WOULD_CHANGE)
    assert "1 leaf(s) would be translated" in gate["message"] and "fr (1)" in (gate["message"])
    assert counts(result) == (1, 0)
    assert {path: (root / path).read_bytes() for path in before} == before


def test_check_fails_on_a_kept_stale_leaf_until_a_person_settles_it(
    tmp_path: Path, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = translated_project(tmp_path, fake, run_cli)
        edit(root / "locales/fr.json", lambda doc: doc["a"].update(bye="Salut"))
        set_source(root, "a.bye", "See you")
        reported = generate(run_cli, root)
        assert reported.code == 0 and counts(reported) == (1, 0)
        check = generate(run_cli, root, "--check")
        assert (
            check.code == 1
            and "fr (0, 1 stale kept)" in issues(check, Code.CHECK_WOULD_CHANGE)[0]["message"]
        )
        # The person updates the translation: any change after the report settles it.
        edit(root / "locales/fr.json", lambda doc: doc["a"].update(bye="À plus"))
        settled = generate(run_cli, root)
        assert counts(settled) == (0, 0) and not issues(settled, Code.GENERATE_STALE)
        assert generate(run_cli, root, "--check").code == 0
        assert fake.requests and "See you" not in sent(fake)
    assert lock_entries(root)["a.bye"] == {
        "source": text_hash("See you"),
        "value": text_hash("À plus"),
        "edited": True,
    }


def test_review_accept_settles_a_stale_leaf_generate_marked(
    tmp_path: Path, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = translated_project(tmp_path, fake, run_cli)
        edit(root / "locales/fr.json", lambda doc: doc["a"].update(bye="Salut"))
        set_source(root, "a.bye", "See you")
        assert counts(generate(run_cli, root, "--metadata")) == (1, 0)
        assert generate(run_cli, root, "--check").code == 1
        accept = ("review", "--accept", "a.bye", "--target", "fr", "--yes", "--json")
        assert run_cli(*accept, cwd=root).code == 0
        assert generate(run_cli, root, "--check").code == 0
        settled = generate(run_cli, root, "--metadata")
    assert counts(settled) == (0, 0)
    assert read_json(root / "locales/fr.json")["a"]["bye"] == {"value": "Salut"}
    assert lock_entries(root)["a.bye"]["source"] == text_hash("See you")


def test_a_changed_plural_source_retranslates_every_category_it_feeds(
    tmp_path: Path, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = translated_project(tmp_path, fake, run_cli)
        start = len(fake.requests)
        set_source(root, "items_other", "# things")
        result = generate(run_cli, root)
        assert sent(fake, start) == ["# things"]  # `many` and `other` share one text
    fr = read_json(root / "locales/fr.json")
    assert fr["items_many"] == fr["items_other"] == "FR:# things"
    assert fr["items_one"] == "FR:# item"
    assert counts(result) == (2, 2)
    assert lock_entries(root)["items_many"]["from"] == "items_other"


def test_entries_of_paths_no_longer_in_the_template_are_dropped(
    tmp_path: Path, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = translated_project(tmp_path, fake, run_cli)
        edit(root / "locales/en.json", lambda doc: doc["a"].pop("bye"))
        (root / "src/app.ts").write_text(code_using("a.hello", "items#count"))
        assert generate(run_cli, root).code == 0
    assert "a.bye" not in lock_entries(root) and "a.hello" in lock_entries(root)


def test_validate_reports_stale_counts_per_target(tmp_path: Path, run_cli: RunCli) -> None:
    with FakeProvider("libre") as fake:
        root = translated_project(tmp_path, fake, run_cli)
        assert run_cli("generate", "--target", "de", "--json", cwd=root).code == 0
        clean = run_cli("validate", "--json", cwd=root)
        set_source(root, "a.hello", "Hello there")
        set_source(root, "a.bye", "Goodbye")
        assert generate(run_cli, root).code == 0  # fr is current again; de is not
        result = run_cli("validate", "--json", cwd=root)
    assert clean.envelope["data"]["staleTranslations"] == {"de": 0, "fr": 0}
    assert not issues(clean, Code.GENERATE_STALE)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["staleTranslations"] == {"de": 2, "fr": 0}
    [stale] = issues(result, Code.GENERATE_STALE)
    assert stale["severity"] == "warning" and "de (2)" in stale["message"]
    assert "generate --target de" in stale["message"]


def test_validate_without_a_lock_file_reports_no_stale_counts(
    tmp_path: Path, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = project(tmp_path / "app", fake, **{"locales/fr.json": {"a": {}}})
        result = run_cli("validate", "--json", cwd=root)
    assert result.envelope["data"]["staleTranslations"] == {}
    assert not issues(result, Code.GENERATE_STALE)


def test_a_dry_run_writes_no_lock_file(tmp_path: Path, run_cli: RunCli) -> None:
    with FakeProvider("libre") as fake:
        root = project(tmp_path / "app", fake)
        result = generate(run_cli, root, "--dry-run")
        assert fake.requests == []
    assert result.code == 0, result.stdout
    assert not (root / LOCK_FILE).exists()
    assert not (root / "locales/fr.json").exists()


def test_the_lock_file_is_sorted_stable_and_not_rewritten_when_nothing_changed(
    tmp_path: Path, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = translated_project(tmp_path, fake, run_cli)
        lock = root / LOCK_FILE
        before, stat = lock.read_bytes(), os.stat(lock)
        assert generate(run_cli, root).code == 0
    assert lock.read_bytes() == before
    assert (os.stat(lock).st_ino, os.stat(lock).st_mtime_ns) == (stat.st_ino, stat.st_mtime_ns)
    lines = before.decode().splitlines()
    assert lines[:4] == ["{", '  "version": 1,', '  "targets": {', '    "fr": {']
    entries = [line.strip().split('"')[1] for line in lines[4:-3]]
    assert (
        entries == sorted(entries) == ["a.bye", "a.hello", "items_many", "items_one", "items_other"]
    )
    assert before.endswith(b"}\n")


def test_a_malformed_lock_file_is_an_error_naming_line_and_column(
    tmp_path: Path, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = project(tmp_path / "app", fake)
        broken = b'{\n  "version": 1,\n  "targets": {"fr": {"a.hello": {"source": 1}}}\n}\n'
        (root / LOCK_FILE).write_bytes(broken)
        result = generate(run_cli, root)
        assert fake.requests == []
    assert result.code == 1
    [problem] = issues(result, Code.LOCK_INVALID)
    assert problem["message"].startswith(f"{LOCK_FILE}:3:")
    assert "`source` must be a string" in problem["message"] and "delete it" in problem["message"]
    assert (root / LOCK_FILE).read_bytes() == broken
    assert not (root / "locales/fr.json").exists()


def test_a_lock_file_with_a_merge_conflict_says_to_resolve_it(
    tmp_path: Path, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = project(tmp_path / "app", fake)
        conflicted = '{\n<<<<<<< HEAD\n  "version": 1,\n=======\n  "version": 1,\n>>>>>>> x\n}\n'
        (root / LOCK_FILE).write_text(conflicted)
        result = generate(run_cli, root)
        validate = run_cli("validate", "--json", cwd=root)
    [problem] = issues(result, Code.LOCK_INVALID)
    assert (
        problem["message"].startswith(f"{LOCK_FILE}:2:1:")
        and "merge conflict" in (problem["message"])
    )
    [warned] = issues(validate, Code.LOCK_INVALID)
    assert warned["severity"] == "warning"


def test_namespaces_keep_their_entries_apart(tmp_path: Path, run_cli: RunCli) -> None:
    with FakeProvider("libre") as fake:
        config = provider_config(fake)
        config["locales"] |= {
            "directory": "locales",
            "mode": "locale_directory",
            "structure": "locale_per_dir",
            "namespaces": "file",
            "defaultNamespace": "common",
        }
        root = write_tree(
            tmp_path / "app",
            {
                "i18nprune.config.json": config,
                "src/app.ts": "t('common:save'); t('auth:save');\n",
                "locales/en/common.json": {"save": "Save"},
                "locales/en/auth.json": {"save": "Save"},
            },
        )
        assert generate(run_cli, root).code == 0
        edit(root / "locales/en/auth.json", lambda doc: doc.update(save="Sign in"))
        start = len(fake.requests)
        result = generate(run_cli, root)
        assert sent(fake, start) == ["Sign in"]
    assert counts(result) == (1, 1)
    targets = read_json(root / LOCK_FILE)["targets"]
    assert set(targets) == {"fr/auth", "fr/common"}
    assert targets["fr/common"]["save"]["source"] == text_hash("Save")
    assert targets["fr/auth"]["save"]["source"] == text_hash("Sign in")
    assert read_json(root / "locales/fr/common.json") == {"save": "FR:Save"}


def test_serve_generate_result_carries_the_stale_counts(
    tmp_path: Path, run_cli: RunCli, home: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("I18NPRUNE_")}
    env.pop("CI", None)
    env["I18NPRUNE_HOME"] = str(home)
    with FakeProvider("libre") as fake:
        root = translated_project(tmp_path, fake, run_cli)
        set_source(root, "a.hello", "Hello there")
        start = len(fake.requests)
        with ServeClient.spawn("--project", str(root), "--allow-writes", env=env) as client:
            client.initialize()
            envelope = client.op("generate", {"target": "fr", "no_retranslate_stale": True})
            redone = client.op("generate", {"target": "fr"})
        assert sent(fake, start) == ["Hello there"]
    [kept] = envelope["data"]["targetResults"]
    assert (kept["staleLeafCount"], kept["retranslatedLeafCount"]) == (1, 0)
    [target] = redone["data"]["targetResults"]
    assert (target["staleLeafCount"], target["retranslatedLeafCount"]) == (1, 1)
    assert flatten(read_json(root / "locales/fr.json"))["a.hello"] == "FR:Hello there"


def test_a_lock_file_linked_outside_the_root_is_refused(tmp_path: Path, run_cli: RunCli) -> None:
    outside = tmp_path / "elsewhere.json"
    outside.write_text('{"version": 1, "targets": {}}\n')
    with FakeProvider("libre") as fake:
        root = project(tmp_path / "app", fake)
        (root / LOCK_FILE).symlink_to(outside)
        result = generate(run_cli, root)
        assert fake.requests == []
    assert result.code == 1
    [problem] = issues(result, Code.LOCK_INVALID)
    assert "outside the project root" in problem["message"]
    assert outside.read_text() == '{"version": 1, "targets": {}}\n'


def test_each_project_of_a_workspace_keeps_its_own_lock_file(
    tmp_path: Path, run_cli: RunCli
) -> None:
    config = {"locales": {"source": "en"}, "translate": {"primary": "pseudo"}}
    root = write_tree(
        tmp_path / "repo",
        {
            "i18nprune.workspace.json": {"projects": ["apps/*"]},
            "apps/web/i18nprune.config.json": config,
            "apps/web/src/app.ts": code_using("home.title"),
            "apps/web/locales/en.json": {"home": {"title": "Home"}},
            "apps/admin/i18nprune.config.json": config,
            "apps/admin/src/app.ts": code_using("save"),
            "apps/admin/locales/en.json": {"save": "Save"},
        },
    )
    result = run_cli("--workspace", "generate", "--target", "fr", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert not (root / LOCK_FILE).exists()
    web = read_json(root / "apps/web" / LOCK_FILE)["targets"]["fr"]
    admin = read_json(root / "apps/admin" / LOCK_FILE)["targets"]["fr"]
    assert set(web) == {"home.title"} and set(admin) == {"save"}
    assert web["home.title"]["source"] == text_hash("Home")


def test_runs_for_different_targets_at_once_keep_each_others_entries(
    tmp_path: Path, home: Path
) -> None:
    config = {"locales": {"source": "en"}, "translate": {"primary": "pseudo"}}
    en = {f"k{index}": f"Text {index}" for index in range(300)}
    root = write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": config,
            "src/app.ts": code_using(*en),
            "locales/en.json": en,
        },
    )
    codes = ["fr", "de", "it", "es"]
    runs = [
        start_cli("generate", "--target", code, "--json", cwd=root, home=home) for code in codes
    ]
    for run in runs:
        _, stderr = run.communicate(timeout=120)
        assert run.returncode == 0, stderr
    targets = read_json(root / LOCK_FILE)["targets"]
    assert sorted(targets) == sorted(codes)
    assert all(len(entries) == len(en) for entries in targets.values())
