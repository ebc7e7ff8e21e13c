"""Making a new file atomically, never over one that exists."""

from __future__ import annotations

from pathlib import Path

from i18nprune.system.atomic import create_atomically


def test_a_new_file_gets_the_bytes_and_no_temp_file_is_left(tmp_path: Path) -> None:
    target = tmp_path / "i18nprune.config.json"

    assert create_atomically(target, b'{"src": "src"}\n') is True

    assert target.read_bytes() == b'{"src": "src"}\n'
    assert [path.name for path in tmp_path.iterdir()] == [target.name]


def test_an_existing_file_is_left_as_it_is(tmp_path: Path) -> None:
    target = tmp_path / "i18nprune.config.json"
    target.write_bytes(b"mine\n")

    assert create_atomically(target, b"theirs\n") is False

    assert target.read_bytes() == b"mine\n"
    assert [path.name for path in tmp_path.iterdir()] == [target.name]


def test_a_dangling_link_in_the_way_is_not_followed_or_replaced(tmp_path: Path) -> None:
    target = tmp_path / "i18nprune.config.json"
    target.symlink_to(tmp_path / "elsewhere.json")

    assert create_atomically(target, b"{}\n") is False

    assert target.is_symlink() and not (tmp_path / "elsewhere.json").exists()
