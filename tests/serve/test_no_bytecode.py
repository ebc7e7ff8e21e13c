"""A read-only `serve` on an install without compiled bytecode writes nothing at all: no `.pyc`,
no `__pycache__`, no cache, in itself or in the parse workers it starts
(docs/serve.md#6-read-only-by-default).

The server runs from a copy of the package tree without bytecode, with an audit hook in a
`sitecustomize` on its PYTHONPATH (inherited by its children) that reports on stderr every file
opened for writing, every directory made and every file renamed or removed, and every process
started. Python compiles the modules it imports before our first line runs (the package's
`__init__` and the entry module `__main__`) and caches them like any install that compiles
does; every other module is left without bytecode.
"""

from __future__ import annotations

import os
import py_compile
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from i18nprune.system.children import usable_cpus
from i18nprune.testing import ServeClient
from tests.conftest import REPO, write_tree
from tests.serve.conftest import ServeEnv

AUDIT_HOOK = """
import os
import sys

_WRITES = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_CHANGES = frozenset({
    "os.mkdir", "os.rename", "os.remove", "os.rmdir", "os.truncate", "os.symlink", "os.link",
    "shutil.copyfile", "shutil.copytree", "shutil.move", "shutil.rmtree",
})


def _report(kind, what):
    os.write(2, ("AUDIT %s %s %r\\n" % (os.getpid(), kind, what)).encode())


def _hook(event, args):
    if event == "open":
        path, mode, flags = args
        writes = any(c in mode for c in "wax+") if isinstance(mode, str) else flags & _WRITES
        if writes and not isinstance(path, int):  # an int wraps a descriptor already open
            _report("write", os.fsdecode(path))
    elif event in _CHANGES:
        _report("write", os.fsdecode(args[0]))
    elif event == "subprocess.Popen":
        _report("spawn", " ".join(os.fsdecode(arg) for arg in args[1]))


sys.addaudithook(_hook)
"""
AUDIT_LINE = re.compile(r"^AUDIT (\d+) (write|spawn) '(.*)'$", re.MULTILINE)
READ_OPS = ["config", "doctor", "validate", "languages", "providers", "locales.list"]
ENTRY_MODULES = ("__init__.py", "__main__.py")
"""The modules Python compiles (and caches) before the entry point's first line runs."""
PARSE_WORKER = "-m i18nprune.scan.parse_worker"


def copy_without_bytecode(target: Path) -> Path:
    """The `i18nprune` and `workers` packages copied to `target` without any bytecode, but for
    the entry modules, compiled as an install does."""
    for package in ("i18nprune", "workers"):
        shutil.copytree(
            REPO / package, target / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    for module in ENTRY_MODULES:
        py_compile.compile(str(target / "i18nprune" / module), doraise=True)
    return target


def big_project(root: Path) -> Path:
    """A project whose cold scan is large enough to run in parse worker processes."""
    line = "export const label{n} = t('screen{file}.label{n}');\n"
    sources = {
        f"src/screen{file}.ts": "".join(line.format(file=file, n=n) for n in range(1100))
        for file in range(40)
    }
    config = {"locales": {"source": "en"}}
    files = {"i18nprune.config.json": config, "locales/en.json": {"title": "Shop"}, **sources}
    return write_tree(root, files)


def console_script(folder: Path) -> Path:
    """The `i18nprune` script an installer writes for pyproject's `[project.scripts]` entry."""
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    module, function = scripts["i18nprune"].split(":")
    script = folder / "i18nprune"
    script.write_text(
        f"import sys\nfrom {module} import {function}\n"
        f"if __name__ == '__main__':\n    sys.exit({function}())\n"
    )
    return script


def files_under(root: Path) -> set[str]:
    return {str(path.relative_to(root)) for path in root.rglob("*")}


def imported_from(env: dict[str, str], cwd: Path) -> str:
    """Where a Python started with `env` in `cwd` imports the `i18nprune` package from."""
    done = subprocess.run(
        [sys.executable, "-B", "-c", "import i18nprune; print(i18nprune.__file__)"],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


@pytest.mark.slow
@pytest.mark.parametrize("entry", ["python -m i18nprune", "i18nprune script"])
def test_read_only_serve_writes_no_bytecode_and_nothing_else(
    tmp_path: Path, home: Path, serve_env: ServeEnv, entry: str
) -> None:
    tree = copy_without_bytecode(tmp_path / "install")
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(AUDIT_HOOK)
    py_compile.compile(str(hook / "sitecustomize.py"), doraise=True)
    project = big_project(tmp_path / "project")
    temp, user = tmp_path / "tmp", tmp_path / "user"
    temp.mkdir()
    user.mkdir()
    env = serve_env(
        {"PYTHONPATH": os.pathsep.join([str(hook), str(tree)]), "TMPDIR": str(temp)}
        | {"HOME": str(user), "XDG_CACHE_HOME": str(user / ".cache")}
    )
    for name in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX"):
        env.pop(name, None)
    # `-m` and `-c` import from the working directory first: not from the repository's tree.
    assert imported_from(env, tmp_path) == str(tree / "i18nprune" / "__init__.py")
    folders = (tree, hook, project, home, temp, user)
    before = {folder: files_under(folder) for folder in folders}
    command = [sys.executable, "-m", "i18nprune"]
    if entry == "i18nprune script":
        command = [sys.executable, str(console_script(tmp_path))]
    argv = [*command, "serve", "--project", str(project)]
    with ServeClient.spawn(command=argv, env=env, cwd=tmp_path) as client:
        client.initialize(timeout=60)
        for op in READ_OPS:
            assert client.request(f"op.{op}", timeout=60).unwrap()["kind"] == op
        client.shutdown()
        client.exit()
        assert client.wait_exit(timeout=30) == 0
    audit = AUDIT_LINE.findall(client.stderr_text())
    writes = [path for _, kind, path in audit if kind == "write" and not path.startswith("/dev/")]
    assert writes == [], client.stderr_text()[-3000:]
    assert {folder: files_under(folder) for folder in folders} == before
    if usable_cpus() > 1:  # a cold scan this large runs in parse workers: they wrote nothing too
        spawned = [what for _, kind, what in audit if kind == "spawn"]
        assert any(PARSE_WORKER in what for what in spawned), spawned
