"""Pushed changes (docs/serve.md#watching-changed-and-diagnostics): a client that asks for
`capabilities.watch` gets `$/changed` for each changed root and `$/diagnostics` for each changed
source file, without a request — for its own edits and other processes' alike — and nothing after
`shutdown`.

Each test edits real files under a real server and waits (bounded) for what it pushes.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from i18nprune.testing import ServeClient
from i18nprune.testing.client import Notification
from tests.conftest import CliResult, write_tree
from tests.serve.conftest import ServeFactory, lines_before_ping
from tests.serve.test_read_only import Entry, snapshot

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")

WATCH = {"capabilities": {"watch": True}}
NOTICE_TIMEOUT = 10.0
SETTLED_SECONDS = 1.0
"""Longer than a burst takes to be reported: after it, a watcher that would report has done so."""
RunCli = Callable[..., CliResult]
# Injected into the server through PYTHONPATH: no C library to load inotify from, as on a
# system without it. No code of ours changes; only what the library lookup finds.
NO_INOTIFY_HOOK = """
import ctypes.util

_find = ctypes.util.find_library


def _without_inotify(name):
    return "/nonexistent/libc.so.6" if name == "c" else _find(name)


ctypes.util.find_library = _without_inotify
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """`home.title` used and present, `home.old` present and unused, one dynamic site."""
    return write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": {"locales": {"source": "en"}},
            "locales/en.json": {"home": {"title": "Home", "old": "Old"}},
            "src/app.ts": "t('home.title');\n",
            "src/menu.ts": "t(`menu.${item}`);\n",
        },
    )


def watching(serve: ServeFactory, *args: str) -> ServeClient:
    client = serve(*args, init=False)
    assert client.initialize(**WATCH)["capabilities"]["watch"] is True
    return client


def for_root(root: Path, path: str | None = None) -> Callable[[Any], bool]:
    def matches(params: Any) -> bool:
        return bool(params["projectRoot"] == str(root) and (path is None or params["path"] == path))

    return matches


def changed_after(client: ServeClient, since: int, root: Path) -> dict[str, Any]:
    found: dict[str, Any] = client.wait_notification(
        "$/changed", for_root(root), after=since, timeout=NOTICE_TIMEOUT
    ).params
    return found


def diagnostics_after(client: ServeClient, since: int, root: Path, path: str) -> list[Any]:
    found: list[Any] = client.wait_notification(
        "$/diagnostics", for_root(root, path), after=since, timeout=NOTICE_TIMEOUT
    ).params["diagnostics"]
    return found


@pytest.mark.slow
def test_initialize_with_watch_answers_capabilities_watch_true(
    serve: ServeFactory, project: Path
) -> None:
    client = serve("--project", str(project), init=False)
    assert client.initialize(**WATCH)["capabilities"]["watch"] is True


@pytest.mark.slow
@pytest.mark.parametrize("asked", [None, {}, {"watch": False}], ids=["absent", "empty", "false"])
def test_initialize_without_watch_answers_capabilities_watch_false(
    serve: ServeFactory, project: Path, asked: dict[str, Any] | None
) -> None:
    client = serve("--project", str(project), init=False)
    extra = {} if asked is None else {"capabilities": asked}
    assert client.initialize(**extra)["capabilities"]["watch"] is False


@pytest.mark.slow
def test_a_watch_that_is_not_a_boolean_is_invalid_params(
    serve: ServeFactory, project: Path
) -> None:
    client = serve("--project", str(project), init=False)
    params = {"protocolVersion": "1", "capabilities": {"watch": "yes"}}
    error = client.request("initialize", params).error
    assert error is not None
    assert (error.code, error.data["code"]) == (-32602, "SERVE_INVALID_PARAMS")
    assert "capabilities.watch" in error.message


@pytest.mark.slow
def test_without_inotify_watch_is_false_and_stderr_says_so_once(
    serve: ServeFactory, project: Path, tmp_path: Path
) -> None:
    hook = tmp_path / "no-inotify"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(NO_INOTIFY_HOOK)
    client = serve("--project", str(project), env={"PYTHONPATH": str(hook)}, init=False)
    assert client.initialize(**WATCH)["capabilities"]["watch"] is False
    assert client.request("op.validate", {"options": {}}).unwrap()["ok"] is True
    client.shutdown()
    client.exit()
    assert client.wait_exit() == 0
    assert client.stderr_text().count("capabilities.watch is false") == 1


@pytest.mark.slow
def test_a_source_edit_pushes_changed_and_its_diagnostics(
    serve: ServeFactory, project: Path
) -> None:
    client = watching(serve, "--project", str(project))
    since = len(client.notifications())
    (project / "src/app.ts").write_text("t('home.title');\nconst x = t('home.lost');\n")
    changed = changed_after(client, since, project)
    assert changed["files"] == ["src/app.ts"]
    assert changed["summary"] == {"missing": 1, "unused": 1, "dynamic": 1}
    [diagnostic] = diagnostics_after(client, since, project, "src/app.ts")
    assert diagnostic["key"] == "home.lost"
    assert diagnostic["severity"] == "error"
    assert (diagnostic["range"]["line"], diagnostic["range"]["column"]) == (2, 11)


@pytest.mark.slow
def test_a_saves_diagnostics_are_pushed_before_its_changed(
    serve: ServeFactory, project: Path
) -> None:
    # The file's diagnostics are known before the unused count (a cleanup dry run) is: they
    # do not wait for it.
    client = watching(serve, "--project", str(project))
    since = len(client.notifications())
    (project / "src/app.ts").write_text("t('home.title');\nt('home.lost');\n")
    changed_after(client, since, project)
    methods = [(n.method, n.params.get("path")) for n in client.notifications()[since:]]
    assert methods == [("$/diagnostics", "src/app.ts"), ("$/changed", None)]


@pytest.mark.slow
def test_fixing_a_source_file_pushes_an_empty_list_that_clears_it(
    serve: ServeFactory, project: Path
) -> None:
    client = watching(serve, "--project", str(project))
    since = len(client.notifications())
    (project / "src/app.ts").write_text("t('home.lost');\n")
    assert diagnostics_after(client, since, project, "src/app.ts")
    changed_after(client, since, project)  # the report ends with it
    since = len(client.notifications())
    (project / "src/app.ts").write_text("t('home.old');\n")
    assert diagnostics_after(client, since, project, "src/app.ts") == []
    assert changed_after(client, since, project)["summary"]["missing"] == 0


@pytest.mark.slow
def test_deleting_a_source_file_clears_its_diagnostics(serve: ServeFactory, project: Path) -> None:
    write_tree(project, {"src/lost.ts": "t('home.lost');\n"})
    client = watching(serve, "--project", str(project))
    assert client.op("validate")["data"]["missing"] == ["home.lost"]
    since = len(client.notifications())
    (project / "src/lost.ts").unlink()
    assert diagnostics_after(client, since, project, "src/lost.ts") == []
    changed = changed_after(client, since, project)
    assert (changed["files"], changed["summary"]["missing"]) == (["src/lost.ts"], 0)


@pytest.mark.slow
def test_a_locale_edit_adding_the_missing_key_pushes_missing_zero(
    serve: ServeFactory, project: Path
) -> None:
    (project / "src/app.ts").write_text("t('home.title');\nt('home.lost');\n")
    client = watching(serve, "--project", str(project))
    assert client.op("validate")["data"]["missing"] == ["home.lost"]
    since = len(client.notifications())
    locale = {"home": {"title": "Home", "old": "Old", "lost": "Lost"}}
    (project / "locales/en.json").write_text(json.dumps(locale))
    changed = changed_after(client, since, project)
    assert changed["files"] == ["locales/en.json"]
    assert changed["summary"] == {"missing": 0, "unused": 1, "dynamic": 1}
    # Only source files get diagnostics; a report's lines all precede a later answer.
    lines_before_ping(client, len(client.lines))
    assert not [n for n in client.notifications()[since:] if n.method == "$/diagnostics"]


@pytest.mark.slow
def test_another_processes_write_is_seen(
    serve: ServeFactory, project: Path, run_cli: RunCli
) -> None:
    (project / "src/app.ts").write_text("t('home.title');\nt('home.lost');\n")
    client = watching(serve, "--project", str(project))
    since = len(client.notifications())
    done = run_cli("missing", "--yes", "--json", cwd=project)
    assert done.envelope["ok"] is True, done.stdout
    changed = changed_after(client, since, project)
    assert "locales/en.json" in changed["files"]
    assert changed["summary"]["missing"] == 0


@pytest.mark.slow
def test_files_in_a_new_directory_are_named(serve: ServeFactory, project: Path) -> None:
    # As a checkout makes them: the directory, then its files, before the server can look.
    client = watching(serve, "--project", str(project))
    since = len(client.notifications())
    write_tree(project, {"src/feature/deep/panel.ts": "t('home.lost');\n"})
    diagnostics = diagnostics_after(client, since, project, "src/feature/deep/panel.ts")
    assert [d["key"] for d in diagnostics] == ["home.lost"]


@pytest.mark.slow
def test_a_change_of_no_source_or_locale_file_is_not_reported(
    serve: ServeFactory, project: Path
) -> None:
    client = watching(serve, "--project", str(project))
    since = len(client.notifications())
    (project / "notes.txt").write_text("todo\n")
    (project / "src/app.ts").write_text("t('home.old');\n")
    changed = changed_after(client, since, project)
    assert changed["files"] == ["src/app.ts"]
    assert all("notes.txt" not in n.params["files"] for n in client.notifications("$/changed"))


@pytest.mark.slow
def test_a_broken_config_is_said_on_stderr_and_its_fix_is_reported(
    serve: ServeFactory, project: Path
) -> None:
    client = watching(serve, "--project", str(project))
    config = project / "i18nprune.config.json"
    config.write_text('{"locales": ')
    client.wait_stderr(f"serve: no change report for {project}", timeout=NOTICE_TIMEOUT)
    since = len(client.notifications())
    config.write_text(json.dumps({"locales": {"source": "en"}}))
    changed = changed_after(client, since, project)
    assert changed["files"] == ["i18nprune.config.json"]
    assert changed["summary"] == {"missing": 0, "unused": 1, "dynamic": 1}


@pytest.mark.slow
def test_hub_mode_watches_every_root_a_request_named(serve: ServeFactory, tmp_path: Path) -> None:
    files = {
        "i18nprune.config.json": {"locales": {"source": "en"}},
        "locales/en.json": {"a": "A"},
        "src/app.ts": "t('a');\n",
    }
    first, second = write_tree(tmp_path / "one", files), write_tree(tmp_path / "two", files)
    client = watching(serve)
    for root in (first, second):
        assert client.op("validate", root=root)["ok"] is True
    since = len(client.notifications())
    (second / "src/app.ts").write_text("t('a');\nt('b');\n")
    assert changed_after(client, since, second)["summary"]["missing"] == 1
    since = len(client.notifications())
    (first / "src/app.ts").write_text("t('c');\n")
    assert changed_after(client, since, first)["summary"]["missing"] == 1


@pytest.mark.slow
def test_without_the_capability_no_change_is_ever_pushed(
    serve: ServeFactory, project: Path
) -> None:
    client = serve("--project", str(project))
    (project / "src/app.ts").write_text("t('home.lost');\n")
    assert client.op("validate")["data"]["missing"] == ["home.lost"]
    time.sleep(SETTLED_SECONDS)
    since = len(client.lines)
    assert lines_before_ping(client, since) == []
    assert client.notifications() == []


@pytest.mark.slow
def test_nothing_is_pushed_after_shutdown(serve: ServeFactory, project: Path) -> None:
    client = watching(serve, "--project", str(project))
    (project / "src/app.ts").write_text("t('home.lost');\n")
    answer = client.request("shutdown")
    assert answer.ok
    (project / "src/app.ts").write_text("t('home.gone');\n")
    (project / "locales/en.json").write_text(json.dumps({"home": {}}))
    time.sleep(SETTLED_SECONDS)
    client.exit()
    assert client.wait_exit() == 0
    after_shutdown = client.lines[client.lines.index(answer.raw) + 1 :]
    assert after_shutdown == []
    assert all(n.params["files"] == ["src/app.ts"] for n in client.notifications("$/changed"))


def _without(entries: dict[str, Entry], *paths: Path) -> dict[str, Entry]:
    return {name: entry for name, entry in entries.items() if name not in map(str, paths)}


@pytest.mark.slow
def test_a_read_only_sessions_watcher_writes_nothing(
    serve: ServeFactory, project: Path, home: Path, tmp_path: Path, run_cli: RunCli
) -> None:
    # A scan cache the CLI wrote: the watcher's rescans of edited files would refresh it if
    # they could write.
    assert run_cli("validate", "--json", cwd=project).envelope["ok"] is True
    assert list(home.glob("cache/*/scan-*"))
    temp, user = tmp_path / "tmp", tmp_path / "user"
    temp.mkdir()
    user.mkdir()
    env = {"TMPDIR": str(temp), "HOME": str(user), "XDG_CACHE_HOME": str(user / ".cache")}
    client = serve("--project", str(project), env=env, init=False)
    assert client.initialize(**WATCH)["capabilities"]["watch"] is True
    source, locale = project / "src/app.ts", project / "locales/en.json"
    before = snapshot(project, home, temp, user)
    since = len(client.notifications())
    source.write_text("t('home.title');\nt('home.lost');\n")
    assert diagnostics_after(client, since, project, "src/app.ts")
    changed_after(client, since, project)  # the report ends with it
    since = len(client.notifications())
    locale.write_text(json.dumps({"home": {"title": "Home", "lost": "Lost"}}))
    assert changed_after(client, since, project)["summary"]["missing"] == 0
    client.shutdown()
    client.exit()
    assert client.wait_exit() == 0
    after = snapshot(project, home, temp, user)
    assert _without(after, source, locale) == _without(before, source, locale)


@pytest.mark.slow
def test_notifications_are_whole_lines_between_answers(serve: ServeFactory, project: Path) -> None:
    # Pushed lines share stdout with answers and progress: each is one whole message.
    client = watching(serve, "--project", str(project))
    since = len(client.notifications())
    for round_ in range(5):
        (project / "src/app.ts").write_text(f"t('home.k{round_}');\n")
        client.submit("op.validate", {"options": {}})
        client.ping()
    changed_after(client, since, project)
    answers = [client.wait_response(id) for id in range(2, 12, 2)]
    assert all(answer.ok for answer in answers)
    notifications: list[Notification] = client.notifications()
    assert all(n.method in ("$/changed", "$/diagnostics") for n in notifications)
    for line in client.lines:
        assert line.endswith(b"\n") and line.count(b"\n") == 1
        json.loads(line)
