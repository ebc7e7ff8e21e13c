"""Sending each text once across a fleet: a `Requester` that claims a batch's texts in the
fleet's records before sending them, sends only those it holds, and waits for the others.

A text another member holds is not sent: its translation is read from the claim once that
member settles it, or the text is claimed again once the claim is released (the other member's
request failed) or has expired (that member died: it renews its claims while a request is
out). So two members that plan the same texts at the same moment share them, and no text
the fleet has translated is sent again — with one exception, a text this member asks for a
second time in a run: that is a retry after its translation failed verification, so it goes
to the provider whatever the records hold (and its new translation replaces the old one).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TypeVar

import trio

from i18nprune.fleet.connection import FleetUnavailable
from i18nprune.fleet.store import FleetStore, Scope
from i18nprune.pool.job import BatchLost, Requester
from i18nprune.pool.messages import Failure, ProviderSettings, Result, TextNote
from i18nprune.pool.scheduler import ProviderHealth

_T = TypeVar("_T")

POLL_SECONDS = 0.2
"""How often a member waiting for texts another member holds looks at their claims."""


class ClaimingRequester:
    """The `Requester` of a fleet member: claims before `inner` (the worker pool, or local
    providers) sends; see the module.

    `request` returns `inner`'s Failure, BatchLost or None as they are, after releasing the
    claims of the texts it sent; a Result holds every text's translation, in order (`requests`
    and `http_seconds` are this member's own). Once the server is lost (`store.lost`), it sends
    nothing more: every batch not yet complete is BatchLost with the reason, while requests
    already out finish and their Results come back (so what arrives is kept). Raises Cancelled
    when cancelled, releasing its claims first (a lost server lets them expire).
    """

    def __init__(self, inner: Requester, store: FleetStore) -> None:
        self._inner = inner
        self._store = store
        self._answered: set[tuple[Scope, str]] = set()
        """Texts this member got a translation of in this run (a later request is a retry)."""
        self.sent = 0
        """Texts this member sent to providers."""
        self.received = 0
        """Texts another member translated, read from their claims."""

    async def request(
        self,
        settings: ProviderSettings,
        source: str,
        target: str,
        texts: list[str],
        admit: Callable[[], bool],
        notes: list[TextNote | None] | None = None,
    ) -> Result | Failure | BatchLost | None:
        """Translate `texts`: each claimed, sent by this member or awaited from another."""
        scope = Scope(settings.cache_provider(target), source, target)
        answers: dict[str, str] = {}
        requests, http = 0, 0.0
        retried = [text for text in dict.fromkeys(texts) if (scope, text) in self._answered]
        wanted = [text for text in dict.fromkeys(texts) if (scope, text) not in self._answered]
        while True:
            rest = [text for text in wanted if text not in answers]
            if not rest and not retried:
                break
            if self._store.lost is not None:
                return BatchLost(str(self._store.lost))
            if rest:
                try:
                    claimed = await self._call(self._store.claim, scope, rest)
                except FleetUnavailable as lost:
                    return BatchLost(str(lost))
                answers.update(claimed.done)
                self.received += len(claimed.done)
                mine, held = retried + claimed.mine, claimed.held
            else:
                mine, held = retried, []
            retried = []
            if mine:
                reply = await self._send(scope, settings, texts, mine, admit, notes)
                if not isinstance(reply, Result):
                    return reply
                answers.update(zip(mine, reply.translations, strict=True))
                requests += reply.requests
                http += reply.http_seconds
            elif held:
                await trio.sleep(POLL_SECONDS)
        self._answered.update((scope, text) for text in answers)
        return Result(0, [answers[text] for text in texts], requests, http)

    def pause(self, settings: ProviderSettings, seconds: float) -> float:
        """Pause the provider (`inner`'s pause)."""
        return self._inner.pause(settings, seconds)

    def health(self, settings: ProviderSettings) -> ProviderHealth:
        """Whether the provider still answers (`inner`'s record)."""
        return self._inner.health(settings)

    async def _send(
        self,
        scope: Scope,
        settings: ProviderSettings,
        texts: list[str],
        mine: list[str],
        admit: Callable[[], bool],
        notes: list[TextNote | None] | None,
    ) -> Result | Failure | BatchLost | None:
        """Send the texts this member holds (with their notes), renewing their claims while
        the request is out; settle them on success, else release them."""
        settled = False
        try:
            first = {text: index for index, text in reversed(list(enumerate(texts)))}
            their_notes = None if notes is None else [notes[first[text]] for text in mine]
            reply: Result | Failure | BatchLost | None = None
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._renew, scope, mine)
                reply = await self._inner.request(
                    settings, scope.source, scope.target, mine, admit, their_notes
                )
                nursery.cancel_scope.cancel()
            if isinstance(reply, Result):
                self.sent += len(mine)
                done = dict(zip(mine, reply.translations, strict=True))
                settled = True
                # Lost now: the Result still counts (the caller caches it locally).
                with contextlib.suppress(FleetUnavailable):
                    await self._call(self._store.settle, scope, done)
            return reply
        finally:
            if not settled:
                with trio.CancelScope(shield=True), contextlib.suppress(FleetUnavailable):
                    await trio.to_thread.run_sync(self._store.release, scope, mine)

    async def _renew(self, scope: Scope, texts: list[str]) -> None:
        # A third of a claim's life: two renewals may be late before another member takes it.
        while True:
            await trio.sleep(self._store.claim_ms / 3000)
            try:
                await self._call(self._store.renew, scope, texts)
            except FleetUnavailable:
                return  # kept in `store.lost`: the request out finishes all the same

    @staticmethod
    async def _call(function: Callable[..., _T], *arguments: object) -> _T:
        # A Redis round trip waits on the network: never on the event loop.
        return await trio.to_thread.run_sync(function, *arguments)
