"""`<segment>.meta.json` beside a source segment: key descriptions, dotted or nested, and
problems reported as warnings that point at the file, line and column."""

from __future__ import annotations

from pathlib import Path

from i18nprune.envelope import Code
from i18nprune.locales.layout import Segment
from i18nprune.locales.meta import meta_path, read_descriptions


def segment(root: Path, rel: str) -> Segment:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{}\n")
    return Segment(locale="en", name="en", path=path, rel=rel)


def test_the_meta_file_of_a_segment_sits_beside_it() -> None:
    assert meta_path(Path("locales/en.json")) == Path("locales/en.meta.json")
    assert meta_path(Path("messages/en/auth/login.json")) == Path(
        "messages/en/auth/login.meta.json"
    )


def test_descriptions_may_be_dotted_or_nested(tmp_path: Path) -> None:
    source = segment(tmp_path, "locales/en.json")
    (tmp_path / "locales/en.meta.json").write_text(
        '{"home.title": " Hero heading ", "nav": {"home": "Link to the start page"}, "x": ""}'
    )
    assert read_descriptions([source]) == (
        {"home.title": "Hero heading", "nav.home": "Link to the start page"},
        [],
    )


def test_a_segment_without_a_meta_file_describes_nothing(tmp_path: Path) -> None:
    assert read_descriptions([segment(tmp_path, "locales/en.json")]) == ({}, [])


def test_the_first_segment_describing_a_key_wins(tmp_path: Path) -> None:
    first = segment(tmp_path, "messages/en/a.json")
    second = segment(tmp_path, "messages/en/b.json")
    (tmp_path / "messages/en/a.meta.json").write_text('{"k": "from a"}')
    (tmp_path / "messages/en/b.meta.json").write_text('{"k": "from b", "j": "only b"}')
    descriptions, _ = read_descriptions([first, second])
    assert descriptions == {"k": "from a", "j": "only b"}


def test_invalid_json_is_a_warning_with_its_file_line_and_column(tmp_path: Path) -> None:
    source = segment(tmp_path, "locales/en.json")
    (tmp_path / "locales/en.meta.json").write_text('{\n  "a": "x",\n}\n')
    descriptions, [issue] = read_descriptions([source])
    assert descriptions == {}
    assert issue.code == Code.LOCALE_META_INVALID
    assert issue.severity == "warning"
    assert issue.path == "locales/en.meta.json"
    assert issue.message.startswith("locales/en.meta.json:2:")
    assert "trailing comma" in issue.message


def test_a_description_that_is_not_a_string_is_a_located_warning(tmp_path: Path) -> None:
    source = segment(tmp_path, "locales/en.json")
    (tmp_path / "locales/en.meta.json").write_text('{\n  "a": "fine",\n  "b": 3\n}\n')
    descriptions, [issue] = read_descriptions([source])
    assert descriptions == {"a": "fine"}
    assert issue.message == (
        "locales/en.meta.json:3:3: the description of `b` must be a string (its text for "
        "translators)"
    )
