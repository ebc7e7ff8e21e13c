"""Saving and deleting locale files: only real changes are written, atomically, and never outside
the project root."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from i18nprune.envelope import Code, ProblemError
from i18nprune.locales.jsondoc import LocaleDocument, delete_locale_file


def _write(path: Path, content: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content.encode())
    return path


def _pretty(data: object) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _fingerprint(path: Path) -> tuple[int, int, bytes]:
    status = path.stat()
    return status.st_ino, status.st_mtime_ns, path.read_bytes()


def test_an_unedited_document_is_not_written(tmp_path: Path) -> None:
    path = _write(tmp_path / "fr.json", '{"a":"x"}')
    before = _fingerprint(path)
    assert not LocaleDocument.load(path, "fr.json").save(root=tmp_path)
    assert _fingerprint(path) == before


def test_an_edit_that_restores_the_bytes_is_not_written(tmp_path: Path) -> None:
    path = _write(tmp_path / "fr.json", _pretty({"a": "x"}))
    before = _fingerprint(path)
    document = LocaleDocument.load(path, "fr.json")
    document.set("b", "y")
    document.delete("b")
    assert not document.save(root=tmp_path)
    assert _fingerprint(path) == before


def test_an_unedited_document_leaves_a_file_changed_since_alone(tmp_path: Path) -> None:
    path = _write(tmp_path / "fr.json", _pretty({"a": "x"}))
    document = LocaleDocument.load(path, "fr.json")
    path.write_text(_pretty({"a": "edited by someone else"}))
    assert not document.save(root=tmp_path)
    assert json.loads(path.read_text()) == {"a": "edited by someone else"}


def test_an_edit_is_written_and_a_second_save_writes_nothing(tmp_path: Path) -> None:
    path = _write(tmp_path / "fr.json", _pretty({"a": "x"}))
    document = LocaleDocument.load(path, "fr.json")
    document.set("a", "y")
    assert document.save(root=tmp_path)
    after = _fingerprint(path)
    assert after[2].decode() == _pretty({"a": "y"})
    assert not document.save(root=tmp_path)
    assert _fingerprint(path) == after


def test_a_new_document_creates_its_file_and_folders(tmp_path: Path) -> None:
    path = tmp_path / "locales" / "fr" / "auth.json"
    document = LocaleDocument.new(path)
    document.set("login.title", "Connexion")
    assert document.save(root=tmp_path)
    assert path.read_text() == _pretty({"login": {"title": "Connexion"}})


def test_a_new_empty_document_writes_an_empty_object(tmp_path: Path) -> None:
    path = tmp_path / "fr.json"
    assert LocaleDocument.new(path).save(root=tmp_path)
    assert path.read_bytes() == b"{}\n"


def test_saving_keeps_the_file_permissions(tmp_path: Path) -> None:
    path = _write(tmp_path / "fr.json", _pretty({"a": "x"}))
    path.chmod(0o640)
    document = LocaleDocument.load(path, "fr.json")
    document.set("a", "y")
    document.save(root=tmp_path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_saving_leaves_no_temp_file(tmp_path: Path) -> None:
    path = _write(tmp_path / "fr.json", _pretty({"a": "x"}))
    document = LocaleDocument.load(path, "fr.json")
    document.set("a", "y")
    document.save(root=tmp_path)
    assert sorted(os.listdir(tmp_path)) == ["fr.json"]


def test_a_link_inside_the_root_is_kept_and_its_target_written(tmp_path: Path) -> None:
    target = _write(tmp_path / "shared" / "fr.json", _pretty({"a": "x"}))
    link = tmp_path / "locales" / "fr.json"
    link.parent.mkdir()
    link.symlink_to(target)
    document = LocaleDocument.load(link, "locales/fr.json")
    document.set("a", "y")
    assert document.save(root=tmp_path)
    assert link.is_symlink()
    assert target.read_text() == _pretty({"a": "y"})


def test_a_link_leaving_the_root_is_refused(tmp_path: Path) -> None:
    outside = _write(tmp_path / "outside" / "fr.json", _pretty({"a": "x"}))
    root = tmp_path / "project"
    link = root / "locales" / "fr.json"
    link.parent.mkdir(parents=True)
    link.symlink_to(outside)
    document = LocaleDocument.load(link, "locales/fr.json")
    document.set("a", "y")
    with pytest.raises(ProblemError) as caught:
        document.save(root=root)
    issue = caught.value.issue
    assert (issue.code, issue.severity, issue.path) == (
        Code.PATH_OUTSIDE_ROOT,
        "error",
        "locales/fr.json",
    )
    assert issue.message.startswith(f"locales/fr.json: resolves to {outside.resolve()}, outside")
    assert outside.read_text() == _pretty({"a": "x"})
    assert link.is_symlink()


def test_a_folder_link_leaving_the_root_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "project"
    root.mkdir()
    (root / "locales").symlink_to(outside)
    document = LocaleDocument.new(root / "locales" / "fr.json")
    document.set("a", "x")
    with pytest.raises(ProblemError) as caught:
        document.save(root=root)
    assert caught.value.issue.code == Code.PATH_OUTSIDE_ROOT
    assert list(outside.iterdir()) == []


def test_a_failed_write_names_the_file_and_changes_nothing(tmp_path: Path) -> None:
    blocker = _write(tmp_path / "locales", "not a folder")
    document = LocaleDocument.new(tmp_path / "locales" / "fr.json")
    document.set("a", "x")
    with pytest.raises(ProblemError) as caught:
        document.save(root=tmp_path)
    issue = caught.value.issue
    assert (issue.code, issue.path) == (Code.LOCALE_WRITE_FAILED, "locales/fr.json")
    assert issue.message.startswith("locales/fr.json: cannot be written (")
    assert blocker.read_text() == "not a folder"


# deleting files


def test_deleting_a_file_removes_the_folders_it_empties(tmp_path: Path) -> None:
    locales = tmp_path / "messages"
    path = _write(locales / "fr" / "auth" / "login.json", "{}")
    delete_locale_file(path, root=tmp_path, locales_dir=locales)
    assert not (locales / "fr").exists()
    assert locales.is_dir()


def test_deleting_a_file_keeps_folders_with_other_files(tmp_path: Path) -> None:
    locales = tmp_path / "messages"
    path = _write(locales / "fr" / "auth.json", "{}")
    _write(locales / "fr" / "common.json", "{}")
    delete_locale_file(path, root=tmp_path, locales_dir=locales)
    assert [entry.name for entry in (locales / "fr").iterdir()] == ["common.json"]


def test_deleting_a_link_keeps_its_target(tmp_path: Path) -> None:
    target = _write(tmp_path / "shared" / "fr.json", "{}")
    link = tmp_path / "locales" / "fr.json"
    link.parent.mkdir()
    link.symlink_to(target)
    delete_locale_file(link, root=tmp_path, locales_dir=tmp_path / "locales")
    assert not link.is_symlink()
    assert target.read_text() == "{}"


def test_deleting_a_file_that_is_gone_is_not_an_error(tmp_path: Path) -> None:
    locales = tmp_path / "locales"
    locales.mkdir()
    delete_locale_file(locales / "fr.json", root=tmp_path, locales_dir=locales)
    assert locales.is_dir()


def test_deleting_through_a_folder_leaving_the_root_is_refused(tmp_path: Path) -> None:
    outside = _write(tmp_path / "outside" / "fr.json", "{}")
    root = tmp_path / "project"
    root.mkdir()
    (root / "locales").symlink_to(outside.parent)
    with pytest.raises(ProblemError) as caught:
        delete_locale_file(root / "locales" / "fr.json", root=root, locales_dir=root / "locales")
    assert caught.value.issue.code == Code.PATH_OUTSIDE_ROOT
    assert outside.read_text() == "{}"


def test_a_file_that_cannot_be_deleted_is_reported(tmp_path: Path) -> None:
    locales = tmp_path / "locales"
    (locales / "fr.json" / "inside").mkdir(parents=True)
    with pytest.raises(ProblemError) as caught:
        delete_locale_file(locales / "fr.json", root=tmp_path, locales_dir=locales)
    issue = caught.value.issue
    assert (issue.code, issue.path) == (Code.LOCALE_WRITE_FAILED, "locales/fr.json")
    assert issue.message.startswith("locales/fr.json: cannot be deleted (")
