"""Providers that need no network (`pseudo`) run in the front process: a `Requester` that
answers their batches at once, handing the other providers' batches to the worker pool.
"""

from __future__ import annotations

from collections.abc import Callable

import trio

from i18nprune.pool.job import BatchLost, Requester
from i18nprune.pool.messages import Failure, ProviderSettings, Result, TextNote
from i18nprune.pool.scheduler import ProviderGates, ProviderHealth
from i18nprune.translate.pseudo import pseudo_localize

LOCAL_PROVIDERS: dict[str, Callable[[str], str]] = {"pseudo": pseudo_localize}
"""Provider id → the function that translates one masked text, in this process."""


def runs_locally(settings: ProviderSettings) -> bool:
    """Whether the provider of `settings` runs in this process (it needs no worker)."""
    return settings.id in LOCAL_PROVIDERS


def providers_in_use(chain: list[ProviderSettings]) -> list[ProviderSettings]:
    """The providers of `chain` a job can reach: a local provider never fails, so none after
    the first local one is ever asked."""
    for index, settings in enumerate(chain):
        if runs_locally(settings):
            return chain[: index + 1]
    return chain


class LocalRequester:
    """A `Requester` that translates the batches of local providers in this process, between
    two checkpoints (so a cancel is honoured before each batch), and sends the others to
    `remote` (the worker pool), which must be given when the chain has such providers.

    Local batches hold no rate limit: they cost no request to anyone.
    """

    def __init__(self, remote: Requester | None = None) -> None:
        self._remote = remote
        self._gates = ProviderGates()

    async def request(
        self,
        settings: ProviderSettings,
        source: str,
        target: str,
        texts: list[str],
        admit: Callable[[], bool],
        notes: list[TextNote | None] | None = None,
    ) -> Result | Failure | BatchLost | None:
        """A local provider's translations of `texts` (in order), or the remote requester's
        answer (local providers have no use for `notes`); `None` when `admit()` refuses the
        batch."""
        translate = LOCAL_PROVIDERS.get(settings.id)
        if translate is None:
            if self._remote is None:
                return BatchLost(f"`{settings.id}` needs worker processes, and none were started")
            return await self._remote.request(settings, source, target, texts, admit, notes)
        await trio.lowlevel.checkpoint()
        if not admit():
            return None
        by_text = {text: translate(text) for text in dict.fromkeys(texts)}
        self._gates.health(settings).succeeded()
        return Result(0, [by_text[text] for text in texts])

    def pause(self, settings: ProviderSettings, seconds: float) -> float:
        """Pause a provider (the remote requester's, for a remote one)."""
        if self._remote is not None and not runs_locally(settings):
            return self._remote.pause(settings, seconds)
        return self._gates.gate(settings).pause(seconds)

    def health(self, settings: ProviderSettings) -> ProviderHealth:
        """Whether a provider still answers (the remote requester's view, for a remote one)."""
        if self._remote is not None and not runs_locally(settings):
            return self._remote.health(settings)
        return self._gates.health(settings)
