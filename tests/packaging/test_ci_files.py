"""The CI entry points agree: `.ci/run` and the GitHub workflow run the README's exact test
command, and both check the configuration reference."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def readme_test_command() -> str:
    quick_start = (REPO / "README.md").read_text().split("## Quick start", 1)[1]
    block = re.search(r"```sh\n(.*?)```", quick_start, re.S)
    assert block is not None, "the quick start's commands are in a ```sh block"
    commands = [line for line in block.group(1).splitlines() if line.strip()]
    assert len(commands) == 2, commands
    return commands[1].strip()


def test_ci_run_runs_the_readmes_test_command_and_the_reference_check() -> None:
    script = (REPO / ".ci/run").read_text()

    assert readme_test_command() in script.splitlines()
    assert "python -m i18nprune.config_reference --check" in script


def test_the_github_workflow_runs_the_same_steps() -> None:
    # Each command is a `run:` value or a line of a `run: |` block (no YAML parser needed).
    lines = (REPO / ".github/workflows/ci.yml").read_text().splitlines()
    commands = {line.strip().removeprefix("- ").removeprefix("run: ").strip() for line in lines}

    assert readme_test_command() in commands
    assert "python -m i18nprune.config_reference --check" in commands
    assert "mypy" in commands
    assert "ruff check i18nprune workers tests benchmarks" in commands
