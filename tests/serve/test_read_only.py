"""A session without `--allow-writes` refuses every write op and writes nothing anywhere: not in
the project, not in I18NPRUNE_HOME (caches), not in the temp or user folders
(docs/serve.md#6-read-only-by-default)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from i18nprune.testing import ServeClient
from tests.conftest import EXAMPLES, QUICK_START_OUTPUT, CliResult
from tests.serve.conftest import ServeFactory, module_server

pytestmark = pytest.mark.slow

RunCli = Callable[..., CliResult]
READ_OPS: dict[str, dict[str, Any]] = {
    "config": {},
    "doctor": {},
    "validate": {},
    "languages": {"filter": "fr"},
    "workspace": {},
    "keys": {"prefix": "home"},
    "file": {"path": "src/App.tsx"},
    "key": {"key": "nav.home"},
    "providers": {},
    "locales.list": {},
    "locales.dynamic": {},
    "quality": {},
    "report": {},
}
WRITE_OPS: dict[str, dict[str, Any]] = {
    "missing": {"yes": True},
    "sync": {},
    "generate": {"target": "de", "provider": "pseudo"},
    "cleanup": {"yes": True},
    "locales.delete": {"target": "fr", "yes": True},
    "key.set": {"key": "nav.home", "locale": "fr", "value": "Début"},
    "review": {"accept": "all", "target": "fr", "yes": True},
}
Entry = tuple[str, int, int, bytes | str | None]
"""(kind, size, mtime_ns, content): content is a file's bytes or a link's target."""


def snapshot(*folders: Path) -> dict[str, Entry]:
    """Every path under `folders` (the folders too) with its kind, size, mtime and content."""
    entries: dict[str, Entry] = {}
    for folder in folders:
        for path in [folder, *sorted(folder.rglob("*"))]:
            stat = path.lstat()
            if path.is_symlink():
                entries[str(path)] = ("link", stat.st_size, stat.st_mtime_ns, os.readlink(path))
            elif path.is_dir():
                entries[str(path)] = ("dir", 0, stat.st_mtime_ns, None)
            else:
                entries[str(path)] = ("file", stat.st_size, stat.st_mtime_ns, path.read_bytes())
    return entries


def scan_caches(home: Path) -> list[Path]:
    return sorted(home.glob("cache/*/scan-*"))


@pytest.fixture
def warm_home(example_project: Path, home: Path, run_cli: RunCli) -> Path:
    """The example project after a CLI `generate`, so that `home` holds a translation cache and a
    scan cache for it."""
    done = run_cli(
        "generate", "--target", "de", "--provider", "pseudo", "--json", cwd=example_project
    )
    assert done.envelope["ok"] is True, done.stdout
    assert list(home.rglob("translations.sqlite3")), sorted(home.rglob("*"))
    assert scan_caches(home), sorted(home.rglob("*"))
    return home


def run_every_read_op(server: ServeClient, rounds: int = 3) -> None:
    for _ in range(rounds):
        for op, options in READ_OPS.items():
            envelope = server.request(f"op.{op}", {"options": options}).unwrap()
            assert envelope["kind"] == op


@pytest.mark.parametrize("scan_cache", ["absent", "stale"])
def test_read_only_session_writes_nothing_in_project_home_temp_or_user_folders(
    serve: ServeFactory,
    example_project: Path,
    warm_home: Path,
    tmp_path: Path,
    scan_cache: str,
) -> None:
    if scan_cache == "absent":
        for path in scan_caches(warm_home):
            path.unlink()
    else:
        # Code changed since the cache was written: a writing session would refresh it.
        with (example_project / "src/keys.ts").open("a") as file:
            file.write("\nexport const LATE = t('late.key');\n")
    temp, user = tmp_path / "tmp", tmp_path / "user"
    temp.mkdir()
    user.mkdir()
    before = snapshot(example_project, warm_home, temp, user)
    env = {"TMPDIR": str(temp), "HOME": str(user), "XDG_CACHE_HOME": str(user / ".cache")}
    server = serve("--project", str(example_project), env=env, init=False)
    capabilities = server.initialize()["capabilities"]
    assert set(capabilities["ops"]) - set(capabilities["writeOps"]) == set(READ_OPS)
    run_every_read_op(server)
    server.shutdown()
    server.exit()
    assert server.wait_exit(timeout=10) == 0
    assert snapshot(example_project, warm_home, temp, user) == before


def test_read_only_session_in_hub_mode_writes_nothing(
    serve: ServeFactory, example_project: Path, warm_home: Path
) -> None:
    for path in scan_caches(warm_home):
        path.unlink()
    before = snapshot(example_project, warm_home)
    server = serve()
    for op, options in READ_OPS.items():
        params = {"projectRoot": str(example_project), "options": options}
        assert server.request(f"op.{op}", params).unwrap()["kind"] == op
    server.close()
    assert snapshot(example_project, warm_home) == before


@pytest.fixture(scope="module")
def refusing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServeClient, Path, Path]]:
    """A read-only server on its own copy of the example (with its own home), shared by the
    tests of the write ops it refuses before they run (`module_server`): the server, the
    project and the home. Each test compares the project and the home before and after its own
    request, so a refusal that wrote anything still fails the test that made it."""
    folder = tmp_path_factory.mktemp("refusing")
    project = folder / "app"
    shutil.copytree(EXAMPLES, project, ignore=shutil.ignore_patterns(*QUICK_START_OUTPUT))
    for server in module_server(folder, "--project", str(project)):
        yield server, project, folder / "home"


@pytest.mark.parametrize("dry_run", [False, True], ids=["write", "dry-run"])
@pytest.mark.parametrize("op", list(WRITE_OPS))
def test_write_op_is_refused_with_writes_disabled(
    refusing: tuple[ServeClient, Path, Path], op: str, dry_run: bool
) -> None:
    server, project, home = refusing
    before = snapshot(project, home)
    options: dict[str, Any] = {**WRITE_OPS[op], "dry_run": dry_run}
    response = server.request(f"op.{op}", {"options": options})
    assert response.error is not None, response.raw
    assert (response.error.code, response.error.data["code"]) == (-32001, "SERVE_WRITES_DISABLED")
    assert snapshot(project, home) == before


def test_read_only_capabilities_say_writes_false(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project), init=False)
    capabilities = server.initialize()["capabilities"]
    assert capabilities["writes"] is False
    assert sorted(capabilities["writeOps"]) == sorted(WRITE_OPS)


def test_allow_writes_capabilities_say_writes_true(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project), "--allow-writes", init=False)
    assert server.initialize()["capabilities"]["writes"] is True


def test_allow_writes_session_runs_write_ops_and_keeps_caches(
    serve: ServeFactory, example_project: Path, home: Path
) -> None:
    server = serve("--project", str(example_project), "--allow-writes")
    envelope = server.request("op.missing", {"options": {"yes": True}}).unwrap()
    assert envelope["ok"] is True
    source = json.loads((example_project / "locales/en.json").read_text())
    assert "copyright" in source["footer"] and "search" in source["settings"]
    generated = server.request("op.generate", {"options": WRITE_OPS["generate"]}).unwrap()
    assert generated["ok"] is True
    assert (example_project / "locales/de.json").is_file()
    assert scan_caches(home)
    assert list(home.rglob("translations.sqlite3"))
