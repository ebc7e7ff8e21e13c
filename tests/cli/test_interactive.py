"""Interactive confirmations, driven through a real pseudo-terminal."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path


def run_on_tty(args: list[str], cwd: Path, home: Path, answers: list[str]) -> tuple[int, str]:
    """Run the CLI with a terminal as stdin/stdout, answering each `?` prompt in turn."""
    leader, follower = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "CI" and not k.startswith("I18NPRUNE_")}
    env.update(I18NPRUNE_HOME=str(home), TERM="dumb", COLUMNS="200")
    process = subprocess.Popen(
        [sys.executable, "-m", "i18nprune", *args],
        cwd=cwd,
        env=env,
        stdin=follower,
        stdout=follower,
        stderr=follower,
    )
    os.close(follower)
    seen, pending, deadline = b"", list(answers), time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
            if pending and seen.rstrip().endswith(b"[y/N]:"):
                os.write(leader, pending.pop(0).encode() + b"\n")
        elif process.poll() is not None:
            break
    code = process.wait(timeout=10)
    os.close(leader)
    return code, seen.decode(errors="replace")


def test_cleanup_ask_removes_only_the_confirmed_keys(example_project, home):
    code, output = run_on_tty(["cleanup", "--ask"], example_project, home, ["y", "n"])
    assert code == 0, output
    en = json.loads((example_project / "locales/en.json").read_text())
    assert "errors" not in en  # errors.unused: confirmed
    assert en["legacy"] == {"banner": "This banner is no longer shown"}  # declined


def test_cleanup_on_a_terminal_asks_before_writing(example_project, home):
    code, output = run_on_tty(["cleanup"], example_project, home, ["n"])
    assert code == 0  # declining is the user's choice, not a failure
    assert "Apply these changes?" in output
    assert "Nothing was changed." in output
    assert "legacy" in json.loads((example_project / "locales/en.json").read_text())
    code, _ = run_on_tty(["cleanup"], example_project, home, ["y"])
    assert code == 0
    assert "legacy" not in json.loads((example_project / "locales/en.json").read_text())
