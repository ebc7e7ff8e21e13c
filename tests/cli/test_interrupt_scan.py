"""Ctrl+C while the scan parses: the command ends with the interrupt code at once, as during
translation: no traceback (of the front or of a parse worker), no parse worker left, no temp
file left, no scan cache written."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from tests.conftest import write_tree
from tests.generate.conftest import gone, start_cli

FILES = 3000


def big_app(root: Path) -> Path:
    """An app with enough files that its first scan takes a while."""
    files: dict[str, str | dict[str, object]] = {
        "i18nprune.config.json": {"locales": {"source": "en"}, "src": "src"},
        "locales/en.json": {"a": {"k0": "Zero"}},
        "locales/fr.json": {"a": {"k0": "Zéro"}},
    }
    for index in range(FILES):
        calls = "\n".join(f"  t('a.k{index}_{line}');" for line in range(20))
        files[f"src/m{index % 50}/c{index}.ts"] = f"export function c{index}() {{\n{calls}\n}}\n"
    return write_tree(root, files)


def parse_workers(parent: int) -> list[int]:
    """The parse worker children of `parent`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if stat.rsplit(")", 1)[1].split()[1] == str(parent) and b"parse_worker" in command:
            found.append(int(entry.name))
    return found


def temp_files(folder: Path) -> list[Path]:
    return [path for path in folder.rglob("*") if path.name.endswith(".tmp")]


def streaming(home: Path) -> bool:
    """Whether the scan is writing its cache (it streams each file's record as it goes)."""
    return any(path.stat().st_size > 0 for path in temp_files(home) if path.exists())


@pytest.mark.slow
@pytest.mark.parametrize("command", [("sync", "--dry-run"), ("validate",)])
def test_ctrl_c_during_the_scan_ends_the_command_cleanly(
    command: tuple[str, ...], tmp_path: Path, home: Path
) -> None:
    root = big_app(tmp_path / "app")
    process = start_cli(*command, cwd=root, home=home)
    try:
        while not streaming(home):
            assert process.poll() is None, "the command ended before its scan streamed"
        workers = parse_workers(process.pid)
        os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl+C: the whole group
        _, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()

    assert process.returncode == 130, stderr
    assert "interrupted" in stderr
    assert "Traceback" not in stderr
    assert workers and all(gone(pid) for pid in workers)
    assert temp_files(home) == [] and temp_files(root) == []
    assert [path for path in home.rglob("*") if path.is_file()] == []  # no scan cache
