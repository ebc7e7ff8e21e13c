"""Pseudo-localisation in a worker (runs usually run it in the front process, without workers;
see `i18nprune.translate.local`)."""

from __future__ import annotations

import httpx

from i18nprune.pool.messages import ProviderSettings, TextNote
from i18nprune.translate.pseudo import pseudo_localize

__all__ = ["pseudo_localize", "translate"]


async def translate(
    client: httpx.AsyncClient,
    settings: ProviderSettings,
    texts: list[str],
    source: str,
    target: str,
    notes: list[TextNote | None],
) -> list[str]:
    """Pseudo-localise `texts` (no HTTP; `client`, `source` and `target` are not used)."""
    return [pseudo_localize(text) for text in texts]
