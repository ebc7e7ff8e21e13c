"""What a first-time user meets: commands that work as printed, usage errors that exit 2,
messages that point at the right place, and output that suits terminals, CI logs and NO_COLOR."""

from __future__ import annotations

import io
import json
import re
import sys

import pytest
from rich.console import Console

from i18nprune.cli.globals import GlobalOptions
from i18nprune.cli.output import consoles, rich_console
from i18nprune.cli.progress import ProgressDisplay
from i18nprune.ops.engine.events import ProgressEvent
from tests.conftest import write_tree

SIMPLE = {
    "i18nprune.config.json": {},
    "src/app.ts": "t('a.one');\nt('a.two');\nt('a.three');\n",
    "locales/en.json": {"a": {"one": "One", "two": "Two"}, "old": "Old"},
    "locales/fr.json": {"a": {"one": "Un"}, "extra": "x"},
}
_STYLE = re.compile(r"\x1b\[[0-9;]*m")  # colour, bold, dim, reset (SGR)


@pytest.mark.slow
def test_tips_name_the_project_as_run_from_elsewhere(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", SIMPLE)

    result = run_cli("-C", "app", "validate", "--json", cwd=tmp_path)

    commands = [s["command"] for s in result.envelope["data"]["suggestions"]]
    assert commands
    assert all(command.startswith("i18nprune -C app ") for command in commands)
    assert root.is_dir()


@pytest.mark.slow
def test_tips_run_in_the_project_name_no_directory(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", SIMPLE)

    result = run_cli("validate", "--json", cwd=root)

    assert "i18nprune missing" in [s["command"] for s in result.envelope["data"]["suggestions"]]


@pytest.mark.slow
def test_resume_alone_resumes_every_target(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", SIMPLE)

    result = run_cli("generate", "--resume", "--provider", "pseudo", "--json", cwd=root)

    assert result.code == 0, result.stdout
    assert result.envelope["data"]["targets"] == ["fr"]
    assert json.loads((root / "locales/fr.json").read_text())["a"]["one"] == "Un"


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ["generate", "--target", "xx-nope", "--provider", "pseudo"],
        ["sync", "--target", "de"],
        ["cleanup", "--target", "en"],
        ["-C", "does-not-exist", "validate"],
        ["-c", "missing.json", "validate"],
        ["generate", "--provider", "pseudo"],
        ["doctor", "--only", "nonsense"],
    ],
    ids=[
        "unknown-language",
        "target-not-found",
        "target-is-source",
        "no-root",
        "no-config",
        "no-target",
        "unknown-doctor-area",
    ],
)
def test_usage_errors_exit_2_with_an_envelope(args, tmp_path, run_cli):
    root = write_tree(tmp_path / "app", SIMPLE)

    result = run_cli(*args, "--json", cwd=root)

    assert result.code == 2, result.stdout
    assert result.envelope["ok"] is False


@pytest.mark.slow
def test_a_mistyped_command_is_suggested_once(tmp_path, run_cli):
    result = run_cli("valdiate", cwd=tmp_path)

    assert result.code == 2
    assert result.stderr.count("Did you mean 'validate'?") == 1


@pytest.mark.slow
def test_a_trailing_comma_is_pointed_at(tmp_path, run_cli):
    text = json.dumps({"a": {"one": "One", "two": "Two"}}, indent=2).replace('"Two"', '"Two",')
    root = write_tree(tmp_path / "app", {**SIMPLE, "locales/en.json": text})
    comma_line = next(i for i, line in enumerate(text.splitlines(), 1) if line.endswith('"Two",'))

    result = run_cli("validate", "--json", cwd=root)

    [issue] = [i for i in result.envelope["issues"] if i["code"] == "i18nprune.locale.invalid_json"]
    column = text.splitlines()[comma_line - 1].index('",') + 2
    assert issue["message"].startswith(f"locales/en.json:{comma_line}:{column}: trailing comma")


def test_every_unknown_config_key_is_reported_at_once(tmp_path, run_cli):
    config = '{\n  "locals": {},\n  "source": "en",\n  "exclude": {"dir": []}\n}\n'
    root = write_tree(tmp_path / "app", {**SIMPLE, "i18nprune.config.json": config})

    result = run_cli("validate", cwd=root)

    lines = [line for line in result.stderr.splitlines() if "unknown key" in line]
    assert [line.split("unknown key ")[1].split(";")[0] for line in lines] == [
        "`locals`",
        "`source`",
        "`exclude.dir`",
    ]
    assert all(line.count("i18nprune.config.json") == 1 for line in lines)


@pytest.mark.slow
def test_generate_stopped_before_planning_prints_no_empty_table(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", SIMPLE)

    result = run_cli("generate", "--target", "xx-nope", "--provider", "pseudo", cwd=root)

    assert "leaf(s)" not in result.stdout
    assert "not a language code" in result.stderr


@pytest.mark.slow
def test_no_color_means_no_escape_codes_at_all(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", SIMPLE)
    forced = {"FORCE_COLOR": "1", "TERM": "xterm-256color"}

    styled = run_cli("validate", cwd=root, env=forced)
    flag = run_cli("validate", "--no-color", cwd=root, env=forced)
    variable = run_cli("validate", cwd=root, env={**forced, "NO_COLOR": "1"})

    assert _STYLE.search(styled.stdout + styled.stderr)  # the check can see styles
    for plain in (flag, variable):
        assert not _STYLE.search(plain.stdout + plain.stderr)
        assert "missing" in plain.stdout


@pytest.mark.slow
def test_languages_filter_lists_codes_before_names(tmp_path, run_cli):
    result = run_cli("languages", "--filter", "fr", "--json", cwd=tmp_path)

    codes = [row["code"] for row in result.envelope["data"]]
    regional = [index for index, code in enumerate(codes) if code.startswith("fr-")]
    assert codes[0] == "fr"
    assert regional == list(range(1, len(regional) + 1))  # fr-BE … fr-YT right after fr
    assert codes.index("af") > regional[-1]  # Afrikaans only contains "fr"


def test_langs_is_listed_in_the_help(tmp_path, run_cli):
    result = run_cli("--help", cwd=tmp_path)

    assert re.search(r"\blangs\b", result.stdout)


@pytest.mark.slow
def test_doctor_names_the_parser_packages(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", SIMPLE)

    result = run_cli("doctor", "--json", cwd=root)

    [parser] = [f for f in result.envelope["data"]["findings"] if f["id"] == "tools.parser"]
    assert "tree-sitter-typescript" in parser["detail"]
    assert not re.search(r"=\d+/\d+", parser["detail"])


def _console(buffer: io.StringIO) -> Console:
    return Console(file=buffer, force_terminal=False, color_system=None)


def test_without_a_terminal_progress_is_a_line_every_interval() -> None:
    now = [0.0]
    buffer = io.StringIO()
    display = ProgressDisplay(_console(buffer), enabled=True, interval=5.0, clock=lambda: now[0])

    def translated(done: int) -> ProgressEvent:
        return ProgressEvent(
            type="run.progress.generate", phase="translate", target="fr", done=done, total=200
        )

    with display:
        display(translated(10))  # too soon after the start
        now[0] = 6.0
        display(translated(50))
        now[0] = 8.0
        display(translated(60))  # too soon after the last line
        now[0] = 12.0
        display(translated(120))

    assert buffer.getvalue().splitlines() == [
        "translate fr: 50/200 texts (25%)",
        "translate fr: 120/200 texts (60%)",
    ]


def test_a_short_run_without_a_terminal_prints_no_progress() -> None:
    buffer = io.StringIO()
    display = ProgressDisplay(_console(buffer), enabled=True, interval=5.0, clock=lambda: 1.0)

    with display:
        display(ProgressEvent(type="run.progress.sync", phase="write", done=1, total=2))

    assert buffer.getvalue() == ""


def test_demo_writes_the_example_app_to_try_commands_on(tmp_path, run_cli):
    result = run_cli("demo", "demo-app", cwd=tmp_path)

    assert result.code == 0, result.stderr
    demo = tmp_path / "demo-app"
    assert (demo / "i18nprune.config.json").is_file() and (demo / "locales/en.json").is_file()
    assert not (demo / "locales/de.json").exists()
    assert "i18nprune -C demo-app validate" in result.stderr
    validate = run_cli("-C", "demo-app", "validate", "--json", cwd=tmp_path)
    assert validate.envelope["data"]["missing"] == ["footer.copyright", "settings.search"]


def test_demo_refuses_a_directory_that_is_not_empty(tmp_path, run_cli):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken/keep.txt").write_text("mine")

    result = run_cli("demo", "taken", cwd=tmp_path)

    assert result.code == 2
    assert "not an empty directory" in result.stderr
    assert [p.name for p in (tmp_path / "taken").iterdir()] == ["keep.txt"]


class _Stream(io.StringIO):
    """A text stream that says whether it is a terminal."""

    def __init__(self, terminal: bool) -> None:
        super().__init__()
        self.terminal = terminal

    def isatty(self) -> bool:
        return self.terminal


@pytest.mark.parametrize(
    ("terminal", "variables", "expected"),
    [
        (False, {}, False),
        (True, {}, True),
        (False, {"FORCE_COLOR": "1"}, True),
        (False, {"FORCE_COLOR": ""}, False),
        (True, {"TTY_COMPATIBLE": "0"}, False),
        (False, {"TTY_COMPATIBLE": "1"}, True),
    ],
)
def test_a_console_is_a_terminal_exactly_when_rich_says_so(
    monkeypatch: pytest.MonkeyPatch, terminal: bool, variables: dict[str, str], expected: bool
) -> None:
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(sys, "stderr", _Stream(terminal))

    _, err = consoles(GlobalOptions())

    assert err.is_terminal is expected
    assert rich_console(err).is_terminal is expected  # rich's own answer
