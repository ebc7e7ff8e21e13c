"""The command line helps the user who mistypes a flag or asks for help: "did you mean" for
every flag (the global ones after the command too), and every command's help shows the global
flags and an example."""

from __future__ import annotations

import pytest

from i18nprune.cli.help import EXAMPLES
from i18nprune.envelope import Code


@pytest.mark.parametrize(
    ("args", "suggested"),
    [
        (("validate", "--josn"), "Did you mean '--json'?"),
        (("validate", "--sorce", "en"), "'--source'"),
        (("sync", "--dry-runn"), "Did you mean '--dry-run'?"),
        (("locales", "list", "--workspase"), "Did you mean '--workspace'?"),
        (("--sorce", "en", "validate"), "'--source'"),
    ],
)
def test_a_mistyped_flag_is_a_usage_error_that_suggests_the_nearest(
    args, suggested, example_project, run_cli
):
    result = run_cli(*args, cwd=example_project)

    assert result.code == 2
    assert suggested in result.stderr
    assert result.stdout == ""


def test_a_mistyped_global_flag_after_the_command_is_suggested_in_the_envelope(
    example_project, run_cli
):
    result = run_cli("validate", "--json", "--quite", cwd=example_project)

    assert result.code == 2
    [issue] = result.envelope["issues"]
    assert issue["code"] == Code.USAGE_ERROR
    assert issue["message"] == "No such option '--quite'. Did you mean '--quiet'?"


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(EXAMPLES))
def test_every_commands_help_shows_the_global_flags_and_an_example(
    command, example_project, run_cli
):
    result = run_cli(*command.split(), "--help", cwd=example_project, env={"COLUMNS": "200"})

    assert result.code == 0, result.stderr
    assert "Global options" in result.stdout
    for flag in ("--project", "--json", "--format", "--workspace", "--quiet"):
        assert flag in result.stdout
    assert "--version" not in result.stdout  # a root-only flag
    assert f"Example: {EXAMPLES[command]}" in result.stdout


@pytest.mark.slow
def test_every_command_has_an_example(example_project, run_cli):
    listed = run_cli("--help", cwd=example_project, env={"COLUMNS": "200"}).stdout
    groups = {"locales", "workspace"}
    commands = {
        line.split()[1]
        for line in listed.splitlines()
        if line.startswith("│ ") and not line.startswith("│ -") and len(line.split()) > 2
    }
    for group in groups & commands:
        rows = run_cli(group, "--help", cwd=example_project, env={"COLUMNS": "200"}).stdout
        commands |= {
            f"{group} {line.split()[1]}"
            for line in rows.splitlines()
            if line.startswith("│ ") and not line.startswith("│ -") and len(line.split()) > 2
        }
    assert commands - groups == set(EXAMPLES)
