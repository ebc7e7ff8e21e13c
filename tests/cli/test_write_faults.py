"""A file that cannot be written (a full disk) fails that file's target, says so, and leaves the
file as it was; every other target is still written and reported."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import cli_environment, write_tree

# Files may not grow past this: like a disk that fills up while writing.
_FILE_LIMIT = 4096


def _run_with_a_full_disk(
    *args: str, cwd: Path, home: Path, limit: int = _FILE_LIMIT
) -> subprocess.CompletedProcess[str]:
    def limit_file_size() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    environ = cli_environment(home, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run(
        [sys.executable, "-m", "i18nprune", *args],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        preexec_fn=limit_file_size,
    )


@pytest.mark.slow
def test_full_disk_on_one_target_reports_every_targets_status(tmp_path, home):
    keys = {f"key{n}": f"Text number {n}" for n in range(20)}
    big_extra = {f"old{n}": "x" * 40 for n in range(200)}  # fr.json cannot be rewritten
    root = write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": {},
            "src/app.ts": "".join(f"t('{key}');\n" for key in keys),
            "locales/en.json": keys,
            "locales/fr.json": {"key0": "Texte 0", **big_extra},
            "locales/de.json": {"key0": "Text 0"},
        },
    )
    before = (root / "locales/fr.json").read_bytes()

    done = _run_with_a_full_disk(
        "generate", "--all", "--provider", "pseudo", "--no-cache", "--json", cwd=root, home=home
    )

    assert done.returncode == 1, done.stderr
    envelope = json.loads(done.stdout)
    assert envelope["ok"] is False and envelope["data"] is not None
    results = {result["target"]: result for result in envelope["data"]["targetResults"]}
    assert results["fr"]["status"] == "failed" and results["de"]["status"] == "written"
    assert envelope["data"]["partial"] is True
    [failure] = [i for i in envelope["issues"] if i["code"] == "i18nprune.locale.write_failed"]
    assert failure["path"] == "locales/fr.json"
    assert (root / "locales/fr.json").read_bytes() == before
    assert len(json.loads((root / "locales/de.json").read_text())) == 20
    assert not [name for name in os.listdir(root / "locales") if name.endswith(".tmp")]


def test_full_disk_during_sync_fails_that_file_and_writes_the_others(tmp_path, home):
    keys = {f"key{n}": f"Text number {n}" for n in range(20)}
    root = write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": {},
            "src/app.ts": "".join(f"t('{key}');\n" for key in [*keys, "long"]),
            "locales/en.json": {**keys, "long": "y" * 5000},
            "locales/fr.json": {"key0": "Texte 0"},
            "locales/de.json": {"key0": "Text 0", "long": "z"},
        },
    )
    before = (root / "locales/fr.json").read_bytes()

    done = _run_with_a_full_disk("sync", "--json", cwd=root, home=home)

    envelope = json.loads(done.stdout)
    assert done.returncode == 1 and envelope["data"] is not None
    [failure] = [i for i in envelope["issues"] if i["code"] == "i18nprune.locale.write_failed"]
    assert failure["path"] == "locales/fr.json"
    assert (root / "locales/fr.json").read_bytes() == before
    assert envelope["data"]["writtenFiles"] == ["locales/de.json"]


@pytest.mark.slow
def test_a_cache_that_fails_after_opening_is_a_warning_not_silence(tmp_path, home):
    from i18nprune.translate.cache import TranslationCache

    TranslationCache.open(home / "translations.sqlite3", writable=True).close()
    # Enough room to open the cache (its 32 KB index), not to store 2,000 translations.
    keys = {f"key{n}": f"A sentence of some length, number {n}" for n in range(2000)}
    root = write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": {},
            "src/app.ts": "".join(f"t('{key}');\n" for key in keys),
            "locales/en.json": keys,
        },
    )

    done = _run_with_a_full_disk(
        "generate",
        "--target",
        "de",
        "--provider",
        "pseudo",
        "--json",
        cwd=root,
        home=home,
        limit=40_000,
    )

    envelope = json.loads(done.stdout)
    [warning] = [
        i for i in envelope["issues"] if i["code"] == "i18nprune.translate.cache_unavailable"
    ]
    assert "translations.sqlite3" in warning["message"]
