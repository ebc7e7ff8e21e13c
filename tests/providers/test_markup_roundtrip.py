"""A provider's HTML-mode answer that is exactly what was sent comes back as the masked text,
whatever mix of tokens, entities-to-be and angle brackets the text holds; answers that respell
tokens or hold entities are decoded."""

from __future__ import annotations

import itertools

from i18nprune_workers.providers.markup import escape_masked, unescape_answer

PIECES = ('<x id="0"/>', '<x id="12"/>', "<", ">", "&", "&amp;", "a b", " ", "é", "<b>", "\n")


def test_every_escaped_text_comes_back_as_it_was() -> None:
    texts = [
        "".join(parts) for size in range(4) for parts in itertools.product(PIECES, repeat=size)
    ]
    assert [unescape_answer(escape_masked(text)) for text in texts] == texts


def test_an_answer_with_canonical_tokens_and_no_entity_is_kept_as_it_is() -> None:
    answer = 'Le <x id="0"/> et <x id="1"/> > 3'
    assert unescape_answer(answer) is answer


def test_respelled_tokens_beside_canonical_ones_are_made_canonical() -> None:
    answer = '<x id="0"/> et <x id = "1" ></x> et <x  id="2" />'
    assert unescape_answer(answer) == '<x id="0"/> et <x id="1"/> et <x id="2"/>'
