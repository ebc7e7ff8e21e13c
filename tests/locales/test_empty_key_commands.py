"""A top-level key `""` has no key path: every command warns about it and leaves it as it is
in every file, and does the rest of its work (the real CLI)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from i18nprune.envelope import Code
from tests.conftest import CliResult, write_tree

RunCli = Callable[..., CliResult]

EN = '{"": {"b": "Shadow"}, "a": "Hello", "b": "Bee", "unused": "Unused"}\n'
FR = '{\n  "": "Vide",\n  "a": "Bonjour",\n  "stale": "Ancien"\n}\n'


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": {"locales": {"source": "en"}},
            "src/app.ts": "t('a');\nt('b');\n",
            "locales/en.json": EN,
            "locales/fr.json": FR,
        },
    )


def codes(result: CliResult) -> list[str]:
    return [issue["code"] for issue in result.envelope["issues"]]


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [
        ("sync", "--target", "fr"),
        ("generate", "--target", "fr", "--provider", "pseudo"),
        ("cleanup", "--yes"),
        ("missing",),
        ("validate",),
    ],
)
def test_every_command_warns_and_leaves_the_empty_key_alone(
    project: Path, run_cli: RunCli, command: tuple[str, ...]
) -> None:
    done = run_cli(*command, "--json", cwd=project)
    assert done.code == 0, done.stdout + done.stderr
    assert Code.LOCALE_EMPTY_KEY in codes(done)
    en = json.loads((project / "locales/en.json").read_text())
    if command[0] == "cleanup":
        # The unused key goes; the "" key and what it holds stay.
        assert en == {"": {"b": "Shadow"}, "a": "Hello", "b": "Bee"}
    else:
        assert (project / "locales/en.json").read_text() == EN
    fr = json.loads((project / "locales/fr.json").read_text())
    assert fr[""] == "Vide"
    if command[0] in ("sync", "generate"):
        # The source's `b` is written; the leaf under its "" key is not mistaken for it.
        assert set(fr) >= {"", "a", "b"} and fr["a"] == "Bonjour"
        assert fr["b"] != "Shadow"
