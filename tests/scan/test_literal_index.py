"""The literal index: each quoted text of a file, where it first occurs, packed small."""

from __future__ import annotations

import pytest

from i18nprune.scan.literals import index_literals, text_hash
from i18nprune.scan.positions import Positions


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


def _first_quoted(content: bytes, texts: list[str]) -> list[tuple[str, int, int]]:
    """`(text, line, column)` of each text's first quoted occurrence, by `Positions`."""
    positions = Positions(content)
    found = []
    for text in texts:
        offsets = [
            content.find(quote + text.encode() + quote)
            for quote in (b"'", b'"', b"`")
            if quote + text.encode() + quote in content
        ]
        found.append((text, *positions.line_column(min(offsets))))
    return sorted(found)


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("bom", ["", "\ufeff"])
def test_lines_and_columns_are_what_positions_counts_in_any_file(newline: str, bom: str) -> None:
    lines = [
        "const a = 'plain';",
        "const é = 'après'; const b = \"ünïcode\";",
        "// 日本語のコメント",
        "x = `tmpl`, y = 'it\\'s', z = '𝄞 clef';",
        "  w = 'plain' + 'after-repeat'",
        ("q = 'é'; " * 200) + "r = 'end-of-long-line';",
        's = "last"',
    ]
    content = (bom + newline.join(lines) + newline).encode()
    texts = ["plain", "après", "ünïcode", "tmpl", "𝄞 clef", "after-repeat", "é"]
    texts += ["end-of-long-line", "last"]

    index = index_literals(content)

    assert sorted(index.find(wanted(*texts, "it's", "absent"))) == sorted(
        [*_first_quoted(content, texts), ("it's", 4, 17)]
    )


def test_a_skipped_first_occurrence_leaves_the_next_one() -> None:
    content = b"t('k');\nx = 'k';\n"

    index = index_literals(content, frozenset({2}))

    assert index.find(wanted("k")) == [("k", 2, 5)]


def test_an_escaped_quote_of_each_kind_belongs_to_its_text() -> None:
    content = (
        b"a = 'it\\'s';\n"
        b'b = "say \\"hi\\"";\n'
        b"c = `tick \\` tock`;\n"
        b"d = `head.${x}`;\n"
        b"e = 'plain';\n"
    )

    index = index_literals(content)

    assert sorted(index.find(wanted("it's", 'say "hi"', "tick ` tock", "head.", "plain"))) == [
        ("head.", 4, 5),
        ("it's", 1, 5),
        ("plain", 5, 5),
        ('say "hi"', 2, 5),
        ("tick ` tock", 3, 5),
    ]


def test_a_backslash_elsewhere_changes_no_text_before_it() -> None:
    lines = [
        f"x{n} = 'single{n}' + \"double{n}\" + `back{n}` + `head{n}.${{n}}`;" for n in range(40)
    ]
    content = "\n".join(lines).encode() + b"\n"
    texts = [f"{kind}{n}" for n in range(40) for kind in ("single", "double", "back")]
    texts += [f"head{n}." for n in range(40)]

    plain = index_literals(content)
    # Escaped quotes of every kind after all of them: each kind is then read by splitting.
    escaped = index_literals(content + b"// \\' \\\" \\`\n")

    assert len(plain.find(wanted(*texts))) == len(texts)
    assert escaped.find(wanted(*texts)) == plain.find(wanted(*texts))
