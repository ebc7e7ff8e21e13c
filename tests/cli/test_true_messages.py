"""Messages that say what happened (issue 27, point 20): each names what the run really did."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from i18nprune.cli.progress import ProgressDisplay
from i18nprune.envelope import Code
from i18nprune.ops.engine.events import ProgressEvent
from tests.conftest import CliResult

RunCli = Callable[..., CliResult]
MakeProject = Callable[[dict[str, Any]], Path]
BASE = {
    "i18nprune.config.json": {"locales": {"source": "en"}, "src": "src"},
    "locales/en.json": {"a": "A", "b": {"c": "C"}},
}


def dynamic_message(result: CliResult) -> str:
    [issue] = [i for i in result.envelope["issues"] if i["code"] == Code.VALIDATE_DYNAMIC]
    return str(issue["message"])


@pytest.mark.parametrize(
    ("call", "says"),
    [
        ("t(`b.${x}`)", "their prefixes are protected"),
        ("t(x + 'Title')", "no prefix is protected: keys ending with 1 suffix(es) are"),
        ("t(key)", "none has a static prefix or suffix, so no key is protected by them"),
    ],
)
def test_the_dynamic_sites_warning_says_what_they_protect(
    call: str, says: str, make_project: MakeProject, run_cli: RunCli
) -> None:
    root = make_project({**BASE, "src/x.ts": f"t('a');\n{call};\n"})

    message = dynamic_message(run_cli("validate", "--json", cwd=root))

    assert says in message
    if "no" in says.split()[0:1] or says.startswith("none"):
        assert "their prefixes are protected" not in message


@pytest.mark.parametrize("with_json_config", [True, False])
def test_a_yaml_config_file_is_said_not_to_be_read(
    with_json_config: bool, make_project: MakeProject, run_cli: RunCli
) -> None:
    files: dict[str, Any] = {**BASE, "src/x.ts": "t('a');\n"}
    if not with_json_config:
        del files["i18nprune.config.json"]
    root = make_project({**files, "i18nprune.config.yaml": "locales:\n  source: de\n"})

    result = run_cli("validate", "--json", cwd=root)

    [issue] = [i for i in result.envelope["issues"] if i["code"] == Code.CONFIG_NOT_READ]
    assert issue["severity"] == "warning" and issue["path"] == "i18nprune.config.yaml"
    assert issue["message"].startswith("i18nprune.config.yaml is not read: ")
    read = "the settings come from i18nprune.config.json" if with_json_config else "none is read"
    assert read in issue["message"]


@pytest.mark.slow
def test_a_too_deep_locale_file_is_an_error_at_a_position(
    make_project: MakeProject, run_cli: RunCli
) -> None:
    deep = '{\n  "a": "x[{",\n  "b": ' + "[" * 50_000 + "]" * 50_000 + "\n}\n"
    root = make_project({**BASE, "src/x.ts": "t('a');\n", "locales/fr.json": deep})

    result = run_cli("sync", "--dry-run", "--json", cwd=root)

    [issue] = [i for i in result.envelope["issues"] if i["code"] == Code.LOCALE_INVALID_JSON]
    # the bracket that opens the 101st level: the 100th `[` after `"b": ` (strings skipped)
    assert issue["message"].startswith(
        "locales/fr.json:3:107: nested too deeply to read (49,901 levels from here)"
    )
    assert (root / "locales/fr.json").read_text() == deep


def _display(terminal: bool) -> tuple[ProgressDisplay, io.StringIO]:
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=terminal, color_system=None, width=120)
    return ProgressDisplay(console, enabled=True, interval=0.0), buffer


def _frames(buffer: io.StringIO) -> list[str]:
    """Every line a terminal was shown (bars are redrawn in place)."""
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", buffer.getvalue())
    return [line.strip() for line in text.replace("\r", "\n").splitlines() if line.strip()]


def _translated(done: int, total: int, **counts: int) -> ProgressEvent:
    return ProgressEvent(
        type="run.progress.generate",
        phase="translate",
        target="fr",
        done=done,
        total=total,
        **counts,
    )


def test_progress_of_texts_that_all_failed_is_not_complete() -> None:
    lines, printed = _display(terminal=False)
    bars, drawn = _display(terminal=True)
    for display in (lines, bars):
        with display:
            display(_translated(0, 50))
            display(_translated(50, 50, failed=50))

    assert printed.getvalue().splitlines()[-1] == "translate fr: 0/50 texts (0%) 50 failed"
    assert any("translate fr (texts, 50 failed)" in frame for frame in _frames(drawn))
    assert not any("50/50" in frame for frame in _frames(drawn))


def test_progress_leaves_texts_the_cache_settled_out_of_its_count_and_rate() -> None:
    lines, printed = _display(terminal=False)
    bars, drawn = _display(terminal=True)
    for display in (lines, bars):
        with display:
            display(_translated(0, 5000))
            display(_translated(4990, 5000, cached=4990))  # a part's cache was consulted
            display(_translated(5000, 5000, cached=4990))

    assert printed.getvalue().splitlines()[-1] == "translate fr: 10/10 texts (100%) 4,990 cached"
    last = _frames(drawn)[-1]
    assert "translate fr (texts, 4,990 cached)" in last and "10/10" in last
    assert "/s" not in last  # ten texts sent are too few for a rate; 4,990 cached are none


def test_the_end_of_a_run_draws_no_bar() -> None:
    for terminal in (False, True):
        display, buffer = _display(terminal)
        with display:
            display(ProgressEvent(type="run.progress.sync", phase="done", done=0, total=1))

        assert not any("done" in frame for frame in _frames(buffer))


@pytest.mark.slow
def test_generate_says_it_wrote_the_lock_file(example_project: Path, run_cli: RunCli) -> None:
    first = run_cli("generate", "--target", "de", cwd=example_project)
    again = run_cli("generate", "--target", "de", "--json", cwd=example_project)

    assert first.code == 0, first.stderr
    assert "wrote i18nprune.lock.json" in first.stdout
    assert (example_project / "i18nprune.lock.json").is_file()
    assert again.envelope["data"]["lockFile"] is None  # nothing new: the lock is unchanged
