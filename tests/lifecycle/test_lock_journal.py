"""A `generate` killed (SIGKILL) after writing a locale file and before writing
`i18nprune.lock.json`: the next run knows the leaves it wrote as its own output (the journal
written before the locale files says what they hold), so a later change of the source text
re-translates them instead of keeping them as a person's. The real CLI against a loopback
fake, killed for real by a start-up hook at the moment it opens the lock's temp file."""

from __future__ import annotations

import json
import signal
from collections.abc import Callable
from pathlib import Path

import pytest

from i18nprune.testing import FakeProvider, fake_translation
from i18nprune.translate.lock import LOCK_FILE
from tests.conftest import CliResult, write_tree
from tests.generate.conftest import code_using, provider_config

pytestmark = pytest.mark.slow

RunCli = Callable[..., CliResult]

EN = {"hello": "Hello", "bye": "Bye"}
PENDING_FILE = ".i18nprune.lock.pending.json"  # the journal (`lock.PENDING_FILE`)

# Loaded at start-up by a CLI run whose PYTHONPATH holds it: the process kills itself when it
# opens the temp file the lock is written through (the locale files are written by then).
KILL_HOOK = """
import os, signal, sys

def _hook(event, args):
    if event == "open" and isinstance(args[0], str):
        name = os.path.basename(args[0])
        if name.startswith(".i18nprune.lock.json.") and name.endswith(".tmp"):
            os.kill(os.getpid(), signal.SIGKILL)

sys.addaudithook(_hook)
"""


def killed_before_the_lock(tmp_path: Path, run_cli: RunCli, fake: FakeProvider) -> Path:
    """A project whose first `generate` for fr was killed between the locale file and the
    lock."""
    hook = tmp_path / "kill-hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(KILL_HOOK)
    root = write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": provider_config(fake),
            "src/app.ts": code_using(*EN),
            "locales/en.json": EN,
            "locales/fr.json": {"bye": "Au revoir"},  # a person's
        },
    )
    killed = run_cli("generate", "--target", "fr", cwd=root, env={"PYTHONPATH": str(hook)})
    assert killed.code == -signal.SIGKILL, killed.stdout + killed.stderr
    fr = json.loads((root / "locales/fr.json").read_text())
    assert fr == {"hello": fake_translation("Hello", "fr"), "bye": "Au revoir"}
    assert not (root / LOCK_FILE).exists()
    return root


def change_source(root: Path, **texts: str) -> None:
    (root / "locales/en.json").write_text(json.dumps({**EN, **texts}))


def test_a_leaf_written_before_a_kill_is_retranslated_when_its_source_changes(
    tmp_path: Path, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = killed_before_the_lock(tmp_path, run_cli, fake)
        change_source(root, hello="Hello there", bye="Goodbye")
        done = run_cli("generate", "--target", "fr", "--json", cwd=root)
    assert done.code == 0, done.stdout + done.stderr
    fr = json.loads((root / "locales/fr.json").read_text())
    # generate's own output follows the source; the person's translation is kept as theirs
    assert fr == {"hello": fake_translation("Hello there", "fr"), "bye": "Au revoir"}
    lock = json.loads((root / LOCK_FILE).read_text())["targets"]["fr"]
    assert "edited" not in lock["hello"] and lock["bye"]["edited"] is True
    assert not (root / PENDING_FILE).exists()


def test_a_leaf_a_person_changed_after_the_kill_is_theirs(tmp_path: Path, run_cli: RunCli) -> None:
    with FakeProvider("libre") as fake:
        root = killed_before_the_lock(tmp_path, run_cli, fake)
        (root / "locales/fr.json").write_text(json.dumps({"hello": "Salut", "bye": "Au revoir"}))
        change_source(root, hello="Hello there")
        done = run_cli("generate", "--target", "fr", "--json", cwd=root)
    assert done.code == 0, done.stdout + done.stderr
    assert json.loads((root / "locales/fr.json").read_text())["hello"] == "Salut"
    assert json.loads((root / LOCK_FILE).read_text())["targets"]["fr"]["hello"]["edited"] is True


def test_a_finished_run_leaves_no_journal(tmp_path: Path, run_cli: RunCli) -> None:
    with FakeProvider("libre") as fake:
        root = write_tree(
            tmp_path / "app",
            {
                "i18nprune.config.json": provider_config(fake),
                "src/app.ts": code_using(*EN),
                "locales/en.json": EN,
            },
        )
        done = run_cli("generate", "--target", "fr", "--json", cwd=root)
    assert done.code == 0, done.stdout + done.stderr
    assert (root / LOCK_FILE).exists() and not (root / PENDING_FILE).exists()
    assert sorted(path.name for path in root.iterdir() if path.name.startswith(".")) == []


def test_validate_counts_no_stale_leaf_for_what_a_killed_run_wrote(
    tmp_path: Path, run_cli: RunCli
) -> None:
    """The lock says `hello` was translated from "Hello"; the source then changed and a run
    that re-translated it was killed before the lock: `validate` reads the journal as
    `generate` does, so the new translation is not a person's text on a changed source."""
    hook = tmp_path / "kill-hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(KILL_HOOK)
    with FakeProvider("libre") as fake:
        root = write_tree(
            tmp_path / "app",
            {
                "i18nprune.config.json": provider_config(fake),
                "src/app.ts": code_using(*EN),
                "locales/en.json": EN,
            },
        )
        first = run_cli("generate", "--target", "fr", cwd=root)
        assert first.code == 0, first.stdout + first.stderr
        change_source(root, hello="Hello there")
        killed = run_cli("generate", "--target", "fr", cwd=root, env={"PYTHONPATH": str(hook)})
        assert killed.code == -signal.SIGKILL, killed.stdout + killed.stderr
    fr = json.loads((root / "locales/fr.json").read_text())
    assert fr["hello"] == fake_translation("Hello there", "fr")
    assert (root / PENDING_FILE).exists()

    for _ in range(2):  # the second run reuses the first one's counts
        checked = run_cli("validate", "--json", cwd=root)
        assert checked.code == 0, checked.stdout + checked.stderr
        assert checked.envelope["data"]["staleTranslations"].get("fr", 0) == 0

    (root / PENDING_FILE).unlink()  # without the journal, the leaf reads as a person's
    checked = run_cli("validate", "--json", cwd=root)
    assert checked.envelope["data"]["staleTranslations"] == {"fr": 1}
