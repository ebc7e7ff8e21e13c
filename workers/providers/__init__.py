"""Provider adapters: `translate_batch` sends one batch of masked texts to the provider a
ProviderSettings names and returns its translations in order, or raises ProviderError.

An adapter is called with the unique texts and one note per text (None: nothing known of it);
adapters that have no use for notes ignore them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import httpx

from i18nprune.pool.messages import ProviderSettings, TextNote

from . import azure, deepl, google, google_cloud, libre, llm, mymemory, pseudo
from .errors import ProviderError, bad_response

Adapter = Callable[
    [httpx.AsyncClient, ProviderSettings, list[str], str, str, list[TextNote | None]],
    Awaitable[list[str]],
]

ADAPTERS: dict[str, Adapter] = {
    "pseudo": pseudo.translate,
    "google": google.translate,
    "google-cloud": google_cloud.translate,
    "deepl": deepl.translate,
    "libre": libre.translate,
    "azure": azure.translate,
    "llm": llm.translate,
    "mymemory": mymemory.translate,
}

__all__ = ["ADAPTERS", "ProviderError", "translate_batch"]


async def translate_batch(
    client: httpx.AsyncClient,
    settings: ProviderSettings,
    texts: list[str],
    source: str,
    target: str,
    notes: list[TextNote | None] | None = None,
) -> list[str]:
    """Translate `texts` (masked, at most `settings.batch_size`) from `source` to `target`
    (our locale codes) with the provider `settings` names; `notes` (one per text, or None)
    say what is known of each text.

    Returns exactly one translation per text, in order; identical texts are sent once, with
    their notes merged (`TextNote.merged`). Each
    request is bounded by `settings.timeout_seconds`. Cancellation aborts the request in flight
    and propagates. Raises ProviderError (classified) on any failure, including an answer with
    the wrong number of translations; KeyError for a provider id the registry does not know.
    """
    adapter = ADAPTERS[settings.id]
    unique = list(dict.fromkeys(texts))
    merged = _merged_notes(texts, notes, unique)
    translations = await adapter(client, settings, unique, source, target, merged) if unique else []
    if len(translations) != len(unique):
        raise bad_response(settings.id, f"{len(translations)} translations for {len(unique)} texts")
    by_text = dict(zip(unique, translations, strict=True))
    return [by_text[text] for text in texts]


def _merged_notes(
    texts: list[str], notes: list[TextNote | None] | None, unique: list[str]
) -> list[TextNote | None]:
    """One note per unique text: the notes of its copies merged (`notes` has one per text)."""
    if notes is None:
        return [None] * len(unique)
    by_text: dict[str, TextNote | None] = {}
    for text, note in zip(texts, notes, strict=True):
        before = by_text.get(text)
        by_text[text] = note if before is None else before.merged(note)
    return [by_text[text] for text in unique]
