"""A warm `validate` of a namespaced app with many target locales: what it counts from target
files (keys the source lacks, stale leaves) is kept between runs, so a run reads no target file
that did not change — and every result equals a cold run's, whatever changed in between."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest
import trio

from i18nprune.locales.derived import DerivedStatistics
from i18nprune.locales.memo import RACY_SECONDS
from i18nprune.ops.engine.registry import OPS, execute
from i18nprune.ops.validate import ValidateOptions
from i18nprune.project import ProjectHandle, ProjectRequest
from i18nprune.translate.lock import LOCK_FILE, entry_for, render_lock
from tests.conftest import cli_environment, write_tree

pytestmark = pytest.mark.slow

SOURCE: dict[str, dict[str, Any]] = {
    "auth": {"login": {"title": "Sign in", "button": "Go"}},
    "common": {"save": "Save", "cancel": "Cancel"},
    "errors": {"404": "Not found"},
}
TARGETS = ("de", "fr", "it")


def translated(code: str, document: dict[str, Any]) -> dict[str, Any]:
    return {
        key: translated(code, value) if isinstance(value, dict) else f"[{code}] {value}"
        for key, value in document.items()
    }


def write_app(root: Path) -> Path:
    """Source `en` and three targets, one file per namespace; `de` keeps a key the source
    dropped; a lock tracks `fr/common` with one stale leaf. Every file dated long ago."""
    files: dict[str, Any] = {
        "i18nprune.config.json": {
            "src": "src",
            "locales": {
                "directory": "public/locales",
                "mode": "locale_directory",
                "structure": "locale_per_dir",
                "namespaces": "file",
                "defaultNamespace": "common",
            },
        },
        "src/Login.tsx": (
            "import { useTranslation } from 'react-i18next';\n"
            "export function Login() {\n"
            "  const { t } = useTranslation('auth');\n"
            "  return [t('login.title'), t('login.button'), t('common:save')];\n"
            "}\n"
        ),
    }
    for namespace, document in SOURCE.items():
        files[f"public/locales/en/{namespace}.json"] = document
        for code in TARGETS:
            files[f"public/locales/{code}/{namespace}.json"] = translated(code, document)
    files["public/locales/de/errors.json"] = {"404": "Nicht gefunden", "500": "Serverfehler"}
    write_tree(root, files)
    lock = {
        "fr/common": {
            "save": entry_for("save", "save", "Save", "[fr] Save"),
            "cancel": entry_for("cancel", "cancel", "Abort", "[fr] Cancel"),
        }
    }
    (root / LOCK_FILE).write_bytes(render_lock(lock))
    age(*root.rglob("*"))
    return root


def age(*paths: Path) -> None:
    """Date files back past the racy window, as files not touched for a while are."""
    past = time.time() - 10 * RACY_SECONDS
    for path in paths:
        os.utime(path, (past, past))


def rewrite(path: Path, document: dict[str, Any]) -> None:
    path.write_text(json.dumps(document, indent=2) + "\n")
    age(path)


def validate(root: Path, home: Path) -> tuple[dict[str, Any], DerivedStatistics]:
    """`validate` in this process with the data home `home`: its envelope as the CLI prints it
    (without `meta`) and what the run counted from target files or reused."""
    handle = ProjectHandle(ProjectRequest(cwd=root), env=cli_environment(home))
    envelope = trio.run(execute, OPS["validate"], handle, ValidateOptions(), lambda _: None)
    printed = json.loads(msgspec.json.encode(envelope))
    del printed["meta"]  # its duration, and the working directory of this process
    return printed, handle.open().derived_counts().statistics()


def cold_cli(root: Path, home: Path) -> dict[str, Any]:
    """A fresh CLI `validate --json` in its own empty home, as it prints it (without `meta`)."""
    home.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "i18nprune", "validate", "--json"],
        cwd=root,
        env=cli_environment(home),
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    printed: dict[str, Any] = json.loads(done.stdout)
    del printed["meta"]
    return printed


def extra_targets(envelope: dict[str, Any]) -> str | None:
    return next(
        (
            suggestion["message"]
            for suggestion in envelope["data"]["suggestions"]
            if suggestion["id"] == "suggest.cleanup.target_extra"
        ),
        None,
    )


def warmed(tmp_path: Path) -> tuple[Path, Path]:
    """The app, validated once in a home that keeps its counts."""
    root, home = write_app(tmp_path / "app"), tmp_path / "home"
    home.mkdir()
    _, first = validate(root, home)
    assert first.computed > 0
    return root, home


def test_a_warm_run_counts_nothing_again_and_equals_a_cold_run(tmp_path: Path) -> None:
    root, home = warmed(tmp_path)
    warm, statistics = validate(root, home)
    assert statistics.computed == 0 and statistics.reused > 0
    assert warm == cold_cli(root, tmp_path / "cold")
    assert extra_targets(warm) == "target locale(s) de have keys the source does not"
    assert warm["data"]["staleTranslations"] == {"fr": 1}


def test_an_edited_target_file_is_read_again(tmp_path: Path) -> None:
    root, home = warmed(tmp_path)
    rewrite(root / "public/locales/it/auth.json", {"login": {"title": "Accedi", "old": "x"}})
    warm, statistics = validate(root, home)
    assert statistics.computed == 2  # it's `auth` keys, and whether its files parse
    assert warm == cold_cli(root, tmp_path / "cold")
    assert extra_targets(warm) == "target locale(s) de, it have keys the source does not"


def test_a_deleted_target_file_is_noticed(tmp_path: Path) -> None:
    root, home = warmed(tmp_path)
    (root / "public/locales/de/errors.json").unlink()
    warm, _ = validate(root, home)
    assert warm == cold_cli(root, tmp_path / "cold")
    assert extra_targets(warm) is None


def test_an_added_target_locale_is_noticed(tmp_path: Path) -> None:
    root, home = warmed(tmp_path)
    (root / "public/locales/es").mkdir()
    rewrite(root / "public/locales/es/common.json", {"save": "Guardar", "legacy": "Viejo"})
    warm, statistics = validate(root, home)
    # es's `auth` (it has no file) and `common`, and whether its files parse
    assert statistics.computed == 3
    assert warm == cold_cli(root, tmp_path / "cold")
    assert extra_targets(warm) == "target locale(s) de, es have keys the source does not"


def test_an_edited_source_namespace_counts_its_targets_again(tmp_path: Path) -> None:
    root, home = warmed(tmp_path)
    rewrite(root / "public/locales/en/errors.json", {"404": "Not found", "500": "Oops"})
    warm, statistics = validate(root, home)
    assert statistics.computed == len(TARGETS)  # each target's `errors`, and nothing else
    assert warm == cold_cli(root, tmp_path / "cold")
    assert extra_targets(warm) is None


def test_an_edited_lock_file_counts_stale_leaves_again(tmp_path: Path) -> None:
    root, home = warmed(tmp_path)
    lock = {"fr/common": {"save": entry_for("save", "save", "Save", "[fr] Save")}}
    (root / LOCK_FILE).write_bytes(render_lock(lock))
    age(root / LOCK_FILE)
    warm, statistics = validate(root, home)
    assert statistics.computed == 1
    assert warm == cold_cli(root, tmp_path / "cold")
    assert warm["data"]["staleTranslations"] == {"fr": 0}


def test_a_target_file_edited_just_now_is_read_on_every_run(tmp_path: Path) -> None:
    root, home = warmed(tmp_path)
    (root / "public/locales/it/common.json").write_text('{"save": "Salva", "more": "Altro"}\n')
    first, counted_first = validate(root, home)
    second, counted_second = validate(root, home)
    # its `common` keys, and whether its files parse
    assert counted_first.computed == counted_second.computed == 2
    assert first == second == cold_cli(root, tmp_path / "cold")
