"""The grammars' part of the scan cache's identity: found without loading a parser, the same for
a fresh install of the same wheels, and changed by any change of an installed grammar."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from i18nprune.scan.grammars import (
    GRAMMAR_PACKAGES,
    _package_files,
    _package_identity,
    grammar_versions,
)
from tests.conftest import modules_after


def test_the_identity_names_every_grammar_package_found() -> None:
    identity = grammar_versions()
    for name in GRAMMAR_PACKAGES:
        assert f"{name}=" in identity
        assert f"{name}=?" not in identity  # each is installed with the package
    # Installed from wheels (as `pip install` does here): known by their file records.
    assert identity.count("=record:") == len(GRAMMAR_PACKAGES)


def test_computing_it_loads_no_parser() -> None:
    loaded = modules_after(
        "from i18nprune.scan.grammars import grammar_versions\nassert grammar_versions()"
    )
    assert "i18nprune.scan.grammars" in loaded
    assert sorted(name for name in loaded if name.startswith("tree_sitter")) == []


def test_a_changed_grammar_changes_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "fake_grammar_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    binding = package / "_binding.abi3.so"
    binding.write_bytes(b"\x7fELF grammar tables v1")
    monkeypatch.syspath_prepend(str(tmp_path))
    before = _package_files("fake_grammar_pkg")
    assert "_binding.abi3.so:" in before
    # Rebuilt in place with the same size and mtime: the new file is another inode.
    stat = binding.stat()
    replacement = package / "new.so"
    replacement.write_bytes(b"\x7fELF grammar tables v2")
    os.utime(replacement, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    replacement.replace(binding)
    assert _package_files("fake_grammar_pkg") != before
    # Edited in place, same size, another mtime.
    middle = _package_files("fake_grammar_pkg")
    binding.write_bytes(b"\x7fELF grammar tables v3")
    os.utime(binding, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1))
    assert _package_files("fake_grammar_pkg") != middle


def test_a_missing_package_has_an_identity_too() -> None:
    assert _package_files("no_such_grammar_package_here") == "?"


def _wheel_install(site: Path, name: str, record: str) -> Path:
    """Package `name` in `site` as a wheel installs it: its files and a dist-info RECORD."""
    package = site / name
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "_binding.abi3.so").write_bytes(b"\x7fELF grammar tables")
    info = site / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "RECORD").write_text(record)
    return package


def test_a_fresh_install_of_the_same_wheel_keeps_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = (
        "fake_wheel_grammar/__init__.py,sha256=47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU,0\n"
        "fake_wheel_grammar/_binding.abi3.so,sha256=AAAA,20\n"
        "fake_wheel_grammar-1.0.dist-info/RECORD,,\n"
    )
    first, second = tmp_path / "machine-a", tmp_path / "machine-b"
    _wheel_install(first, "fake_wheel_grammar", record)
    monkeypatch.syspath_prepend(str(first))
    on_first = _package_identity("fake_wheel_grammar")
    assert on_first.startswith("record:")

    # Another machine: the same files, written at another time (other mtimes and inodes).
    _wheel_install(second, "fake_wheel_grammar", record)
    monkeypatch.setattr(sys, "path", [str(second), *sys.path[1:]])
    assert _package_identity("fake_wheel_grammar") == on_first

    # Another build of the grammar: its record's hash of the binary differs.
    (second / "fake_wheel_grammar-1.0.dist-info" / "RECORD").write_text(
        record.replace("sha256=AAAA", "sha256=BBBB")
    )
    assert _package_identity("fake_wheel_grammar") != on_first


def test_without_a_record_of_its_files_a_package_is_known_by_their_stat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An editable install: the record lists only the link to the source tree.
    _wheel_install(
        tmp_path, "fake_editable_grammar", "__editable__.fake_editable_grammar-1.0.pth,,\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    identity = _package_identity("fake_editable_grammar")
    assert identity == _package_files("fake_editable_grammar")
    assert "_binding.abi3.so:" in identity

    # Two dist-infos of the package (a leftover): which one is live is not certain.
    _wheel_install(tmp_path / "other", "fake_twice_grammar", "fake_twice_grammar/x.py,,\n")
    (tmp_path / "other" / "fake_twice_grammar-0.9.dist-info").mkdir()
    monkeypatch.syspath_prepend(str(tmp_path / "other"))
    assert _package_identity("fake_twice_grammar") == _package_files("fake_twice_grammar")
