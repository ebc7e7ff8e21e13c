"""Interactive confirmations, driven through a real pseudo-terminal."""

from __future__ import annotations

import json

import pytest

from tests.terminal import run_on_tty


def test_cleanup_ask_removes_only_the_confirmed_keys(example_project, home):
    code, output = run_on_tty(["cleanup", "--ask"], example_project, home, ["y", "n"])
    assert code == 0, output
    en = json.loads((example_project / "locales/en.json").read_text())
    assert "errors" not in en  # errors.unused: confirmed
    assert en["legacy"] == {"banner": "This banner is no longer shown"}  # declined


@pytest.mark.slow
def test_cleanup_on_a_terminal_asks_before_writing(example_project, home):
    code, output = run_on_tty(["cleanup"], example_project, home, ["n"])
    assert code == 0  # declining is the user's choice, not a failure
    assert "Apply these changes?" in output
    assert "Nothing was changed." in output
    assert "legacy" in json.loads((example_project / "locales/en.json").read_text())
    code, _ = run_on_tty(["cleanup"], example_project, home, ["y"])
    assert code == 0
    assert "legacy" not in json.loads((example_project / "locales/en.json").read_text())
