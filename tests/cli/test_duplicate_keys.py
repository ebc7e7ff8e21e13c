"""A key spelled twice in one object of a locale file is an error, like a trailing comma: both
places named, and no command writes anything (JSON readers keep one of the two silently, so
`sync` used to replace a person's translations with the source text). The real CLI on real
files; `op.key.set` is in `tests/serve/test_editor_ops.py`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from i18nprune.testing import FakeProvider
from tests.conftest import CliResult, write_tree
from tests.generate.conftest import provider_config

RunCli = Callable[..., CliResult]

EN = '{\n  "a": {"x": "Hello", "y": "World"},\n  "b": "B"\n}\n'
FR_TWICE = '{\n  "a": {"x": "Bonjour", "x": "Salut"},\n  "a": {"y": "Monde"}\n}\n'
FR_MESSAGE = 'locales/fr.json:2:25: duplicate key "x", first at locales/fr.json:2:9'
EN_TWICE = '{\n  "a": {"x": "Hello", "y": "World"},\n  "b": "B",\n  "b": "Bee"\n}\n'
EN_MESSAGE = 'locales/en.json:4:3: duplicate key "b", first at locales/en.json:3:3'


def app(root: Path, en: str, fr: str, config: dict[str, object] | None = None) -> Path:
    return write_tree(
        root,
        {
            "i18nprune.config.json": config or {"locales": {"source": "en"}},
            "src/app.ts": "t('a.x');\nt('a.y');\nt('b');\nt('c');\n",
            "locales/en.json": en,
            "locales/fr.json": fr,
        },
    )


def snapshot(root: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted((root / "locales").iterdir())}


def messages(result: CliResult) -> list[str]:
    return [issue["message"] for issue in result.envelope["issues"]]


@pytest.mark.parametrize(
    "args",
    [
        ("sync", "--target", "fr"),
        ("missing", "--target", "fr"),
        ("cleanup", "--target", "fr", "--yes"),
    ],
)
def test_a_target_spelling_a_key_twice_is_never_written(
    tmp_path: Path, run_cli: RunCli, args: tuple[str, ...]
) -> None:
    root = app(tmp_path, EN, FR_TWICE)
    before = snapshot(root)
    done = run_cli(*args, "--json", cwd=root)
    assert done.code == 1, done.stdout + done.stderr
    assert any(message.startswith(FR_MESSAGE) for message in messages(done))
    assert snapshot(root) == before


@pytest.mark.parametrize(
    "args",
    [
        ("sync", "--target", "fr"),
        ("missing",),
        ("cleanup", "--yes", "--force"),
    ],
)
def test_a_source_spelling_a_key_twice_writes_nothing(
    tmp_path: Path, run_cli: RunCli, args: tuple[str, ...]
) -> None:
    root = app(tmp_path, EN_TWICE, '{"a": {"x": "Bonjour"}}\n')
    before = snapshot(root)
    done = run_cli(*args, "--json", cwd=root)
    assert done.code == 1, done.stdout + done.stderr
    assert any(message.startswith(EN_MESSAGE) for message in messages(done))
    assert snapshot(root) == before


@pytest.mark.slow
def test_generate_never_writes_a_target_spelling_a_key_twice(
    tmp_path: Path, run_cli: RunCli
) -> None:
    with FakeProvider("libre") as fake:
        root = app(tmp_path, EN, FR_TWICE, provider_config(fake))
        before = snapshot(root)
        done = run_cli("generate", "--target", "fr", "--json", cwd=root)
    assert done.code == 1, done.stdout + done.stderr
    assert any(message.startswith(FR_MESSAGE) for message in messages(done))
    assert snapshot(root) == before
