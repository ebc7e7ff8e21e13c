"""Documents and positions: incremental changes and the three position encodings."""

from __future__ import annotations

import pytest

from i18nprune.lsp.text import ContentChange, Document, LineMap, Position, Range


def change(start: tuple[int, int], end: tuple[int, int], text: str) -> ContentChange:
    return ContentChange(text, Range(Position(*start), Position(*end)))


@pytest.mark.parametrize(
    ("encoding", "column"),
    [("utf-16", 14), ("utf-8", 17), ("utf-32", 13)],
)
def test_a_ranged_change_after_wide_characters_lands_where_the_client_meant(
    encoding: str, column: int
) -> None:
    # `old` starts after `x = '😀é'; t('`: 😀 is 2 UTF-16 units, 4 UTF-8 bytes, 1 code point.
    document = Document("file:///a.ts", "typescript", 1, "x = '😀é'; t('old');\nnext\n")

    document.apply([change((0, column), (0, column + 3), "new")], 2, encoding)  # type: ignore[arg-type]

    assert document.text == "x = '😀é'; t('new');\nnext\n"
    assert document.version == 2


def test_changes_apply_in_order_and_a_whole_text_change_replaces_everything() -> None:
    document = Document("file:///a.ts", "typescript", 1, "one\ntwo\n")

    document.apply(
        [change((1, 0), (1, 3), "TWO"), change((0, 3), (1, 0), " "), ContentChange("fresh")],
        3,
        "utf-16",
    )
    assert document.text == "fresh"

    document.apply([change((0, 5), (0, 5), "\nline")], 4, "utf-16")
    assert document.text == "fresh\nline"


def test_engine_columns_and_lsp_positions_convert_both_ways() -> None:
    lines = LineMap("a😀b\r\nc\n")
    assert lines.from_engine(1, 3, "utf-16") == Position(0, 3)
    assert lines.engine(Position(0, 3), "utf-16") == (1, 3)
    assert lines.line_text(0) == "a😀b"
    assert lines.position(lines.offset(Position(1, 1), "utf-8"), "utf-8") == Position(1, 1)
