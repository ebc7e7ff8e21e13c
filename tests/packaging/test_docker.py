"""The Docker image writes files as the project's owner, keeps a working cache, needs no network.

Two parts. The entry point's permission logic (`i18nprune/container.py`) is tested here
directly, as root where that is needed (CI runs as root). The image itself is built from the
repository and run on a copy of `examples/` owned by a non-root uid, with `--network none` —
skipped when no Docker daemon answers or the base image is not present locally (the test never
pulls; the build itself needs the package index, as `docker build` always does). Set
I18NPRUNE_TEST_IMAGE to test an image built beforehand instead of building one.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from i18nprune import container
from i18nprune.container import Owner
from i18nprune.project import user_home
from tests.conftest import EXAMPLES, QUICK_START_OUTPUT, REPO

BASE_IMAGE = "python:3.12-slim"  # the Dockerfile's FROM
OWNER = Owner(4242, 4243)  # neither root nor the image's own uid 1000
OTHER_OWNER = Owner(4344, 4344)

as_root = pytest.mark.skipif(
    os.geteuid() != 0, reason="changing file owners and dropping root need root"
)


def _copy_examples(target: Path, owner: Owner | None) -> Path:
    shutil.copytree(EXAMPLES, target, ignore=shutil.ignore_patterns(*QUICK_START_OUTPUT))
    if owner is not None:
        _chown_tree(target, owner)
    return target


def _chown_tree(root: Path, owner: Owner) -> None:
    os.chown(root, *owner)
    for folder, folders, files in os.walk(root):
        for name in (*folders, *files):
            os.chown(os.path.join(folder, name), *owner, follow_symlinks=False)


def _owners(root: Path) -> set[tuple[int, int]]:
    found = {(root.lstat().st_uid, root.lstat().st_gid)}
    for path in root.rglob("*"):
        info = path.lstat()
        found.add((info.st_uid, info.st_gid))
    return found


def _summary(envelope: dict[str, Any]) -> tuple[bool, list[tuple[str, int, int]], list[str]]:
    results = envelope["data"]["targetResults"]
    return (
        envelope["ok"],
        [(row["status"], row["translatedLeafCount"], row["cachedLeafCount"]) for row in results],
        [issue["code"] for issue in envelope["issues"]],
    )


@pytest.fixture
def open_tmp() -> Iterator[Path]:
    """A temp folder every uid can reach (pytest's own are private to the runner)."""
    path = Path(tempfile.mkdtemp(prefix="i18nprune-entry-"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


# -- the entry point's logic, without Docker ------------------------------------------------


def test_cache_home_is_where_the_tool_looks() -> None:
    for env in ({}, {"I18NPRUNE_HOME": "/cache"}, {"I18NPRUNE_HOME": "~/elsewhere"}):
        assert container.cache_home(env) == user_home(env)


def test_project_owner_is_none_for_root_and_the_owner_otherwise(tmp_path: Path) -> None:
    info = tmp_path.stat()
    expected = None if info.st_uid == 0 else Owner(info.st_uid, info.st_gid)
    assert container.project_owner(tmp_path) == expected
    if os.geteuid() == 0:
        os.chown(tmp_path, *OWNER)
        assert container.project_owner(tmp_path) == OWNER


@as_root
def test_hand_over_takes_the_whole_cache_and_follows_no_link(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("not the cache's")
    home = tmp_path / "cache"
    (home / "cache" / "0123456789abcdef").mkdir(parents=True)
    (home / "translations.sqlite3").write_bytes(b"")
    (home / "cache" / "0123456789abcdef" / "scan-v3.msgpack").write_bytes(b"")
    (home / "escape").symlink_to(outside)
    (home / "escape-dir").symlink_to(tmp_path, target_is_directory=True)
    _chown_tree(home, Owner(1000, 1000))  # a volume left by the old image (uid 1000)
    assert container.hand_over(home, OWNER) == []
    assert _owners(home) == {OWNER}
    assert (outside.stat().st_uid, tmp_path.stat().st_uid) == (0, 0)


@as_root
def test_hand_over_creates_a_missing_home(tmp_path: Path) -> None:
    home = tmp_path / "new" / "home"
    assert container.hand_over(home, OWNER) == []
    assert (home.stat().st_uid, home.stat().st_gid) == OWNER


def test_hand_over_never_touches_the_file_system_root(monkeypatch: pytest.MonkeyPatch) -> None:
    touched: list[object] = []
    monkeypatch.setattr(container.os, "chown", lambda *args, **kwargs: touched.append(args))
    monkeypatch.setattr(container.os, "fwalk", lambda *args, **kwargs: touched.append(args))
    problems = container.hand_over(Path("/"), OWNER)
    assert touched == []
    assert problems and "file system root" in problems[0]


def test_hand_over_reports_a_failure_instead_of_raising(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "cache"
    home.mkdir()

    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(container.os, "chown", refuse)
    problems = container.hand_over(home, Owner(home.stat().st_uid + 1, 0))
    assert len(problems) == 1 and "Operation not permitted" in problems[0]


def test_command_is_the_script_beside_the_interpreter() -> None:
    line = container.command(["validate", "--json"])
    assert line[1:] == ["validate", "--json"]
    assert Path(line[0]).name == "i18nprune"
    assert Path(line[0]).parent == Path(sys.executable).parent or shutil.which(line[0])


def test_started_as_another_user_it_only_executes_the_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def must_not_run(*args: object) -> list[str]:
        raise AssertionError("hand_over ran for a non-root start")

    monkeypatch.setattr(container.os, "geteuid", lambda: 4242)
    monkeypatch.setattr(container, "hand_over", must_not_run)
    monkeypatch.setattr(container, "command", lambda args: ["/nonexistent/i18nprune", *args])
    with pytest.raises(SystemExit) as exited:
        container.main(["validate"])
    assert exited.value.code == 127
    assert "cannot run /nonexistent/i18nprune" in capsys.readouterr().err


def test_a_switch_it_may_not_make_stops_with_advice(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def refuse(owner: Owner) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(container.os, "geteuid", lambda: 0)
    monkeypatch.setattr(container, "project_owner", lambda directory: OWNER)
    monkeypatch.setattr(container, "hand_over", lambda home, owner: [])
    monkeypatch.setattr(container, "drop_privileges", refuse)
    with pytest.raises(SystemExit) as exited:
        container.main(["validate"])
    assert exited.value.code == 126
    assert '--user "$(id -u):$(id -g)"' in capsys.readouterr().err


def _run_python(script: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


def _image_like(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    """A project owned by OWNER and an image-like /cache (root's, mode 1777) holding files the
    old image left as uid 1000."""
    project = _copy_examples(tmp_path / "project", OWNER)
    home = tmp_path / "cache"
    home.mkdir()
    home.chmod(0o1777)
    (home / "cache").mkdir()
    (home / "translations.sqlite3").write_bytes(b"")
    for path in (home / "cache", home / "translations.sqlite3"):
        os.chown(path, 1000, 1000)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "I18NPRUNE_HOME": str(home)}
    return project, home, env


@as_root
def test_main_drops_root_for_the_project_owner_and_passes_the_arguments(open_tmp: Path) -> None:
    project, home, env = _image_like(open_tmp)
    (home / "translations.sqlite3").unlink()
    # The command it executes is replaced by a shell probe (the interpreter running the tests
    # may live where another uid cannot read it, e.g. under /root).
    probe = (
        'id -u; id -g; id -G; echo "$@"; echo "{}" > locales/probe.json; '
        'echo ok > "$I18NPRUNE_HOME/probe"'
    )
    done = _run_python(
        f"""
        from i18nprune import container
        container.command = lambda args: ["/bin/sh", "-c", {probe!r}, "sh", *args]
        container.main(["generate", "--target", "de"])
        """,
        cwd=project,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    uid, gid, groups, args = done.stdout.splitlines()
    assert (int(uid), int(gid), groups.split()) == (OWNER.uid, OWNER.gid, [str(OWNER.gid)])
    assert args == "generate --target de"
    assert _owners(project) == {OWNER}
    assert _owners(home) == {OWNER}


@as_root
def test_cache_and_locale_writes_work_as_the_owner_the_entry_point_switched_to(
    open_tmp: Path,
) -> None:
    """What `generate` does after the switch — the atomic locale writer and the SQLite
    translation cache — on a cache the old image's uid 1000 left behind."""
    project, home, env = _image_like(open_tmp)
    (home / "translations.sqlite3").unlink()  # an sqlite file of uid 1000 follows below
    seed = _run_python(
        f"""
        import os
        from pathlib import Path
        from i18nprune.translate.cache import TranslationCache
        os.setgid(1000); os.setuid(1000)
        cache = TranslationCache.open(Path({str(home / "translations.sqlite3")!r}), writable=True)
        cache.put_many("pseudo", "en", "de", [("Hello", "[Ĥéļļó]")])
        cache.close()
        assert cache.problem is None, cache.problem
        """,
        cwd=project,
        env=env,
    )
    assert seed.returncode == 0, seed.stderr
    done = _run_python(
        f"""
        import json, os
        from pathlib import Path
        from i18nprune import container
        from i18nprune.system.atomic import write_atomically
        from i18nprune.translate.cache import TranslationCache
        owner = container.project_owner(Path.cwd())
        problems = container.hand_over(container.cache_home(os.environ), owner)
        container.drop_privileges(owner)
        write_atomically(Path("locales/de.json"), b"{{}}\\n")
        cache = TranslationCache.open(Path({str(home / "translations.sqlite3")!r}), writable=True)
        hits = cache.get_many("pseudo", "en", "de", ["Hello"])
        cache.put_many("pseudo", "en", "de", [("Bye", "[ßýé]")])
        stored = cache.statistics().writes
        print(json.dumps({{"problems": problems, "cache": cache.problem, "hits": hits,
                           "stored": stored, "ids": [os.getuid(), os.geteuid(), os.getgid()]}}))
        """,
        cwd=project,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report == {
        "problems": [],
        "cache": None,
        "hits": {"Hello": "[Ĥéļļó]"},
        "stored": 1,
        "ids": [OWNER.uid, OWNER.uid, OWNER.gid],
    }
    assert _owners(project) == {OWNER}
    assert _owners(home) == {OWNER}


@as_root
def test_any_uid_can_start_a_cache_in_the_image_cache_folder(open_tmp: Path) -> None:
    """`docker run --user uid:gid` on a fresh volume: /cache is root's, mode 1777."""
    home = open_tmp / "cache"
    home.mkdir()
    home.chmod(0o1777)
    done = _run_python(
        f"""
        import os
        from pathlib import Path
        from i18nprune.translate.cache import TranslationCache
        os.setgroups([]); os.setgid({OWNER.gid}); os.setuid({OWNER.uid})
        cache = TranslationCache.open(Path({str(home / "translations.sqlite3")!r}), writable=True)
        cache.put_many("pseudo", "en", "de", [("Hello", "[Ĥéļļó]")])
        print(cache.problem, cache.statistics().writes)
        """,
        cwd=open_tmp,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["None", "1"]


def _interpreter_usable_by(owner: Owner) -> bool:
    try:
        done = subprocess.run(
            [sys.executable, "-c", "import i18nprune.cli.app"],
            user=owner.uid,
            group=owner.gid,
            extra_groups=[],
            capture_output=True,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


@as_root
def test_entry_point_runs_generate_as_the_project_owner(open_tmp: Path) -> None:
    """The image's ENTRYPOINT command on this machine's interpreter, with a real `generate`."""
    if not _interpreter_usable_by(OWNER):
        pytest.skip(f"uid {OWNER.uid} cannot run {sys.executable} (is it under /root?)")
    project, home, env = _image_like(open_tmp)
    (home / "translations.sqlite3").unlink()
    line = [sys.executable, "-I", "-m", "i18nprune.container"]
    line += ["generate", "--target", "de", "--provider", "pseudo", "--json"]
    for attempt in ("fresh", "cached"):
        done = subprocess.run(
            line, cwd=project, env={**env, "CI": "1"}, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        ok, results, issues = _summary(json.loads(done.stdout))
        cached = 11 if attempt == "cached" else 0
        assert (ok, results, issues) == (True, [("written", 11, cached)], [])
        assert _owners(project) == {OWNER}
        assert _owners(home) == {OWNER}
        (project / "locales" / "de.json").unlink()


# -- the image itself ----------------------------------------------------------------------


def _docker(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["docker", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture(scope="session")
def image() -> str:
    """The image to test: I18NPRUNE_TEST_IMAGE, else one built from this checkout."""
    if shutil.which("docker") is None:
        pytest.skip("no docker client on PATH")
    try:
        reachable = _docker("info", timeout=30).returncode == 0
    except subprocess.TimeoutExpired:
        reachable = False
    if not reachable:
        pytest.skip("no Docker daemon reachable (`docker info` fails)")
    prebuilt = os.environ.get("I18NPRUNE_TEST_IMAGE")
    if prebuilt:
        return prebuilt
    if _docker("image", "inspect", BASE_IMAGE).returncode != 0:
        pytest.skip(f"base image {BASE_IMAGE} is not available locally (tests never pull)")
    tag = "i18nprune:test"
    built = _docker("build", "--tag", tag, str(REPO), timeout=900)
    if built.returncode != 0:
        pytest.fail(f"docker build failed:\n{built.stdout[-3000:]}\n{built.stderr[-3000:]}")
    return tag


@pytest.fixture
def volume() -> Iterator[str]:
    """A fresh named volume for /cache, removed afterwards."""
    name = f"i18nprune-test-cache-{uuid.uuid4().hex[:12]}"
    created = _docker("volume", "create", name)
    assert created.returncode == 0, created.stderr
    try:
        yield name
    finally:
        _docker("volume", "rm", "--force", name)


def _project_for_image(tmp_path: Path, name: str, owner: Owner) -> tuple[Path, Owner]:
    """A copy of the examples owned by `owner` (root can give it away), else by the runner."""
    if os.geteuid() == 0:
        return _copy_examples(tmp_path / name, owner), owner
    return _copy_examples(tmp_path / name, None), Owner(os.getuid(), os.getgid())


def _generate(
    image: str, project: Path, volume: str, *extra: str
) -> tuple[bool, list[tuple[str, int, int]], list[str]]:
    done = _docker(
        "run", "--rm", "--network", "none",
        "-v", f"{project}:/project", "-v", f"{volume}:/cache",
        *extra,
        image, "generate", "--target", "de", "--provider", "pseudo", "--json",
    )  # fmt: skip
    assert done.stdout, done.stderr
    return _summary(json.loads(done.stdout))


def _cache_owners(image: str, volume: str) -> set[str]:
    done = _docker(
        "run", "--rm", "--network", "none", "--user", "0", "-v", f"{volume}:/cache",
        "--entrypoint", "find", image, "/cache", "-mindepth", "1", "-printf", "%U:%G\\n",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


@pytest.mark.timeout(900)
def test_image_writes_as_the_project_owner_with_a_working_cache(
    image: str, volume: str, tmp_path: Path
) -> None:
    project, owner = _project_for_image(tmp_path, "app", OWNER)
    assert _generate(image, project, volume) == (True, [("written", 11, 0)], [])
    assert _owners(project) == {owner}
    assert _cache_owners(image, volume) == {f"{owner.uid}:{owner.gid}"}

    (project / "locales" / "de.json").unlink()
    assert _generate(image, project, volume) == (True, [("written", 11, 11)], [])
    assert _owners(project) == {owner}

    if os.geteuid() == 0:  # the same volume for a project of another owner: still cached
        other, _ = _project_for_image(tmp_path, "other", OTHER_OWNER)
        assert _generate(image, other, volume) == (True, [("written", 11, 11)], [])
        assert _owners(other) == {OTHER_OWNER}
        assert _cache_owners(image, volume) == {f"{OTHER_OWNER.uid}:{OTHER_OWNER.gid}"}


@pytest.mark.timeout(900)
def test_image_runs_as_any_uid_given_with_user(image: str, volume: str, tmp_path: Path) -> None:
    project, owner = _project_for_image(tmp_path, "app", OWNER)
    user = ["--user", f"{owner.uid}:{owner.gid}"]
    assert _generate(image, project, volume, *user) == (True, [("written", 11, 0)], [])
    assert _owners(project) == {owner}
    (project / "locales" / "de.json").unlink()
    assert _generate(image, project, volume, *user) == (True, [("written", 11, 11)], [])
