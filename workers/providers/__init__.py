"""Provider adapters: `translate_batch` sends one batch of masked texts to the provider a
ProviderSettings names and returns its translations in order, or raises ProviderError.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import httpx

from i18nprune.pool.messages import ProviderSettings

from . import azure, deepl, google, google_cloud, libre, llm, mymemory, pseudo
from .errors import ProviderError, bad_response

Adapter = Callable[[httpx.AsyncClient, ProviderSettings, list[str], str, str], Awaitable[list[str]]]

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
) -> list[str]:
    """Translate `texts` (masked, at most `settings.batch_size`) from `source` to `target`
    (our locale codes) with the provider `settings` names.

    Returns exactly one translation per text, in order; identical texts are sent once. Each
    request is bounded by `settings.timeout_seconds`. Cancellation aborts the request in flight
    and propagates. Raises ProviderError (classified) on any failure, including an answer with
    the wrong number of translations; KeyError for a provider id the registry does not know.
    """
    adapter = ADAPTERS[settings.id]
    unique = list(dict.fromkeys(texts))
    translations = await adapter(client, settings, unique, source, target) if unique else []
    if len(translations) != len(unique):
        raise bad_response(settings.id, f"{len(translations)} translations for {len(unique)} texts")
    by_text = dict(zip(unique, translations, strict=True))
    return [by_text[text] for text in texts]
