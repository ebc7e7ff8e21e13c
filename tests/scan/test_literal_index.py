"""The literal index: each quoted text of a file, where it first occurs, packed small."""

from __future__ import annotations

from i18nprune.scan.literals import index_literals, text_hash


def wanted(*texts: str) -> dict[int, str]:
    return {text_hash(text): text for text in texts}


def test_positions_past_one_and_two_bytes_are_found_exactly() -> None:
    content = "\n" * 299 + "a = 'near';\n" + " " * 70_000 + "b = 'far';\n" + "c = 'last';\n"

    index = index_literals(content.encode())

    assert sorted(index.find(wanted("near", "far", "last", "absent"))) == [
        ("far", 301, 70_005),
        ("last", 302, 5),
        ("near", 300, 5),
    ]


def test_short_file_keeps_a_byte_per_line_and_column() -> None:
    index = index_literals(b"a = 'x';\nb = 'y';\n\n\nc = 'z';\nd = 'x';\n")

    assert index.find(wanted("x", "y", "z")) == [("x", 1, 5), ("y", 2, 5), ("z", 5, 5)]
    assert (len(index.hashes), len(index.lines), len(index.columns)) == (24, 3, 3)


def test_file_without_quotes_keeps_nothing() -> None:
    index = index_literals(b"const answer = 42;\n")

    assert (index.hashes, index.lines, index.columns) == (b"", b"", b"")
    assert index.find(wanted("answer")) == []
