"""Start-up cost: a command imports the op it runs and not the others; `--help` imports none.

Checked by what the process had imported when it exited (`sys.modules`), not by how long it
took.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from i18nprune.ops.engine.registry import OPS
from tests.conftest import CliResult, cli_environment, write_tree

SIMPLE = {
    "i18nprune.config.json": {"locales": {"source": "en"}},
    "locales/en.json": {"a": {"one": "One"}},
    "locales/fr.json": {"a": {"one": "Un"}},
    "src/app.ts": "t('a.one'); t('a.missing');\n",
}
# `python -m i18nprune ARGS` that writes the names in sys.modules to a file as it exits.
_RECORDING = (
    "import atexit, os, runpy, sys\n"
    "def record():\n"
    "    with open(os.environ['MODULES_FILE'], 'w') as file:\n"
    "        file.write('\\n'.join(sorted(sys.modules)))\n"
    "atexit.register(record)\n"
    "runpy.run_module('i18nprune', run_name='__main__', alter_sys=True)\n"
)

Run = Callable[..., tuple[CliResult, set[str]]]


@pytest.fixture
def run_recorded(home: Path, tmp_path: Path) -> Run:
    """Run the CLI like `run_cli`; also return the modules it had imported when it exited."""

    def run(*args: str, cwd: Path) -> tuple[CliResult, set[str]]:
        modules_file = tmp_path / "modules.txt"
        environ = cli_environment(home, MODULES_FILE=str(modules_file))
        done = subprocess.run(
            [sys.executable, "-c", _RECORDING, *args],
            cwd=cwd,
            env=environ,
            capture_output=True,
            text=True,
            timeout=120,
            stdin=subprocess.DEVNULL,
        )
        modules = set(modules_file.read_text().splitlines())
        return CliResult(done.returncode, done.stdout, done.stderr), modules

    return run


def op_modules(modules: set[str]) -> set[str]:
    """The modules of ops (`i18nprune.ops.validate`) among `modules`, not the helpers in ops/."""
    names = {f"i18nprune.ops.{spec.module}" for spec in OPS.values()}
    return modules & names


def test_help_lists_every_command_and_imports_no_op(tmp_path, run_recorded):
    result, modules = run_recorded("--help", cwd=tmp_path)

    assert result.code == 0
    top_level = [name for name, spec in OPS.items() if spec.command_line and "." not in name]
    for command in [*top_level, "langs", "demo", "serve", "locales"]:
        assert re.search(rf"\b{re.escape(command)}\s", result.stdout), command
    assert op_modules(modules) == set()
    assert not {"trio", "i18nprune.project", "i18nprune.cli.run"} & modules


def test_a_group_help_lists_its_commands_and_imports_none(tmp_path, run_recorded):
    result, modules = run_recorded("locales", "--help", cwd=tmp_path)

    assert result.code == 0
    for command in ("list", "dynamic", "delete"):
        assert re.search(rf"\b{command}\s", result.stdout), command
    assert op_modules(modules) == set()


def test_validate_imports_no_other_op_and_no_renderer_under_json(tmp_path, run_recorded):
    root = write_tree(tmp_path / "app", SIMPLE)

    result, modules = run_recorded("validate", "--json", cwd=root)

    assert result.code == 1  # a.missing
    assert result.envelope["kind"] == "validate"
    # ops.workspace: whether the root is a workspace is asked before every op
    assert op_modules(modules) == {"i18nprune.ops.validate", "i18nprune.ops.workspace"}
    assert not {"httpx", "i18nprune.pool.pool", "i18nprune.translate.translator"} & modules
    assert not [name for name in modules if name.startswith("i18nprune.cli.renderers.v")]


@pytest.mark.slow
def test_validate_runs_without_trio_and_without_rich_under_json(tmp_path, run_recorded):
    root = write_tree(tmp_path / "app", SIMPLE)

    result, modules = run_recorded("validate", "--json", cwd=root)

    assert result.envelope["data"]["missing"] == ["a.missing"]
    assert not {"trio", "rich", "rich.console"} & modules


@pytest.mark.parametrize("command", ["languages", "doctor"])
def test_languages_and_doctor_list_the_catalog_without_trio_or_babel(
    command, tmp_path, run_recorded
):
    root = write_tree(tmp_path / "app", SIMPLE)

    result, modules = run_recorded(command, "--json", cwd=root)

    assert result.envelope["kind"] == command, result.stderr
    if command == "languages":
        rows = {row["code"]: row for row in result.envelope["data"]}
        assert len(rows) > 1000
        assert rows["ar"]["english"] == "Arabic" and rows["ar"]["direction"] == "rtl"
        assert rows["ar"]["plurals"] == ["zero", "one", "two", "few", "many", "other"]
    else:
        probes = {finding["id"]: finding for finding in result.envelope["data"]["findings"]}
        assert probes["tools.catalog"]["ok"], probes["tools.catalog"]
    assert "i18nprune.locales.language_names" in modules
    assert not {"trio", "babel", "babel.core"} & modules


@pytest.mark.slow
def test_an_op_that_needs_the_event_loop_still_runs_under_trio(tmp_path, run_recorded):
    root = write_tree(tmp_path / "app", SIMPLE)

    result, modules = run_recorded("missing", "--json", "--dry-run", cwd=root)

    assert result.envelope["kind"] == "missing", result.stderr
    assert "trio" in modules and not OPS["missing"].inline


@pytest.mark.slow
def test_text_output_imports_its_own_renderer_alone(tmp_path, run_recorded):
    root = write_tree(tmp_path / "app", SIMPLE)

    result, modules = run_recorded("validate", cwd=root)

    assert "a.missing" in result.stdout
    renderers = {name for name in modules if name.startswith("i18nprune.cli.renderers.")}
    assert renderers == {"i18nprune.cli.renderers.validate"}


@pytest.mark.slow
def test_an_op_command_shows_its_flags_in_its_help(tmp_path, run_recorded):
    result, modules = run_recorded("languages", "--help", cwd=tmp_path)

    assert result.code == 0
    assert "List the language catalog." in result.stdout
    assert "--filter" in result.stdout  # a field of LanguagesOptions
    assert op_modules(modules) - {"i18nprune.ops.workspace"} == {"i18nprune.ops.languages"}


def test_a_mistyped_command_in_a_group_is_suggested(tmp_path, run_recorded):
    result, _ = run_recorded("locales", "lst", cwd=tmp_path)

    assert result.code == 2
    assert "Did you mean 'list'?" in result.stderr


@pytest.mark.slow
def test_serve_imports_every_op_before_it_reads_a_request(tmp_path, run_recorded):
    result, modules = run_recorded("serve", cwd=tmp_path)  # stdin is empty: it ends at once

    assert result.code == 0, result.stderr
    assert op_modules(modules) == {f"i18nprune.ops.{spec.module}" for spec in OPS.values()}


# `python -m i18nprune ARGS` that writes, as it exits, the types of the objects a full collection
# then finds unreachable, with those its collections found during the run (each type once).
_COLLECTING = (
    "import atexit, gc, os, runpy, sys\n"
    "gc.set_debug(gc.DEBUG_SAVEALL)\n"
    "def record():\n"
    "    gc.collect()\n"
    "    with open(os.environ['GARBAGE_FILE'], 'w') as file:\n"
    "        file.write('\\n'.join(sorted({type(o).__qualname__ for o in gc.garbage})))\n"
    "atexit.register(record)\n"
    "runpy.run_module('i18nprune', run_name='__main__', alter_sys=True)\n"
)


@pytest.mark.slow
def test_what_a_command_imports_late_is_frozen_before_its_op_runs(home, tmp_path):
    # trio and generate's package are imported after start-up froze what it built; their
    # class-creation cycles (attrs' builders, cells, functions) must be frozen too, not left
    # for a collection during the op to walk and free: a full collection at exit finds none.
    root = write_tree(tmp_path / "app", SIMPLE)
    garbage_file = tmp_path / "garbage.txt"
    environ = cli_environment(home, GARBAGE_FILE=str(garbage_file))

    done = subprocess.run(
        [sys.executable, "-c", _COLLECTING, "generate", "--target", "fr", "--provider",
         "pseudo", "--yes", "--json"],
        cwd=root, env=environ, capture_output=True, text=True, timeout=120,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    found = set(garbage_file.read_text().split())
    assert "_ClassBuilder" not in found and "_CountingAttr" not in found, sorted(found)
