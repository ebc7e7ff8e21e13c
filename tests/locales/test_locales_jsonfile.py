"""Reading locale JSON files: strict JSON, and failures that name file, line and column."""

from pathlib import Path

import pytest

from i18nprune.envelope import Code
from i18nprune.locales.jsonfile import LocaleFileError, read_json_file


def _write(path: Path, content: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, str):
        content = content.encode()
    path.write_bytes(content)
    return path


def _failure(path: Path) -> LocaleFileError:
    with pytest.raises(LocaleFileError) as caught:
        read_json_file(path, "locales/fr.json")
    return caught.value


def test_reads_the_top_level_object(tmp_path: Path) -> None:
    path = _write(tmp_path / "fr.json", '{"home": {"title": "Accueil"}}')
    assert read_json_file(path, "locales/fr.json") == {"home": {"title": "Accueil"}}


def test_tolerates_a_utf8_byte_order_mark(tmp_path: Path) -> None:
    path = _write(tmp_path / "fr.json", b'\xef\xbb\xbf{"a": "\xc3\xa9t\xc3\xa9"}')
    assert read_json_file(path, "locales/fr.json") == {"a": "été"}


def test_invalid_json_names_file_line_and_column(tmp_path: Path) -> None:
    path = _write(tmp_path / "fr.json", '{\n  "a": "x",\n  "b": "y" "c": 1\n}')
    issue = _failure(path).issue
    assert (issue.code, issue.severity, issue.path) == (
        Code.LOCALE_INVALID_JSON,
        "error",
        "locales/fr.json",
    )
    assert issue.message == (
        "locales/fr.json:3:12: Expecting ',' delimiter — fix the file; it will not be modified"
    )


def test_nan_is_rejected_with_its_position(tmp_path: Path) -> None:
    path = _write(tmp_path / "fr.json", '{\n  "note": "NaN here",\n  "n": NaN\n}')
    assert _failure(path).issue.message.startswith("locales/fr.json:3:8: NaN is not valid JSON")


def test_invalid_utf8_names_its_position(tmp_path: Path) -> None:
    path = _write(tmp_path / "fr.json", b'{\n  "a": "\xff"\n}')
    issue = _failure(path).issue
    assert issue.code == Code.LOCALE_INVALID_JSON
    assert issue.message.startswith("locales/fr.json:2:9: not valid UTF-8 (byte 0xff)")


def test_a_file_nested_too_deeply_is_invalid_json_not_a_crash(tmp_path: Path) -> None:
    path = _write(tmp_path / "fr.json", '{"a": ' * 100_000 + "1" + "}" * 100_000)
    issue = _failure(path).issue
    assert issue.code == Code.LOCALE_INVALID_JSON
    assert issue.message == (  # at the brace that opens the 101st level
        "locales/fr.json:1:601: nested too deeply to read (99,900 levels from here) — fix the "
        "file; it will not be modified"
    )


def test_a_top_level_array_is_not_a_locale_object(tmp_path: Path) -> None:
    issue = _failure(_write(tmp_path / "fr.json", '["a"]')).issue
    assert issue.code == Code.LOCALE_NOT_OBJECT
    assert "the top level is an array" in issue.message


def test_an_unreadable_path_is_reported_as_unreadable(tmp_path: Path) -> None:
    (tmp_path / "fr.json").mkdir()
    issue = _failure(tmp_path / "fr.json").issue
    assert issue.code == Code.LOCALE_UNREADABLE
    assert issue.message.startswith("locales/fr.json: cannot be read")


def test_a_duplicate_key_is_invalid_with_both_places_named(tmp_path: Path) -> None:
    text = '{\n  "a": {"x": "Bonjour", "x": "Salut"},\n  "a": {"y": "Monde"}\n}\n'
    issue = _failure(_write(tmp_path / "fr.json", text)).issue
    assert (issue.code, issue.severity) == (Code.LOCALE_INVALID_JSON, "error")
    assert issue.message.startswith(
        'locales/fr.json:2:25: duplicate key "x", first at locales/fr.json:2:9'
    )
    assert issue.message.endswith("fix the file; it will not be modified")


def test_a_duplicate_top_level_key_is_found_across_lines(tmp_path: Path) -> None:
    text = '{\n  "a": {"x": "Bonjour"},\n  "b": [{"a": 1}, {"a": 2}],\n  "a": {"y": "Monde"}\n}\n'
    message = _failure(_write(tmp_path / "fr.json", text)).issue.message
    assert message.startswith(
        'locales/fr.json:4:3: duplicate key "a", first at locales/fr.json:2:3'
    )


def test_keys_are_compared_as_decoded(tmp_path: Path) -> None:
    text = '{"a": "\\"a\\": is a value", "\\u0061": 1}'
    message = _failure(_write(tmp_path / "fr.json", text)).issue.message
    assert message.startswith(
        'locales/fr.json:1:28: duplicate key "a", first at locales/fr.json:1:2'
    )


def test_the_same_key_in_different_objects_is_no_duplicate(tmp_path: Path) -> None:
    text = '{"a": {"title": "A"}, "b": {"title": "B"}, "list": [{"k": 1}, {"k": 2}]}'
    assert read_json_file(_write(tmp_path / "fr.json", text), "fr.json")["b"] == {"title": "B"}
