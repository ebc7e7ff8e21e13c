"""Translating one target's texts: placeholders masked, the cache first, the worker pool for the
rest, and every result restored and verified before anyone may write it."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import trio

from i18nprune.config.schema import TranslatePolicy
from i18nprune.pool import JobOutcome, ProviderAttempt, TranslateJob, WorkerPool
from i18nprune.translate.cache import TranslationCache
from i18nprune.translate.placeholders import (
    PlaceholderMismatch,
    ProtectedText,
    protect_placeholders,
    verify_placeholders,
)
from i18nprune.translate.providers import ProviderSettings

_TOKEN = re.compile(r'<x id="\d+"/>')

ProgressCallback = Callable[[int, int], None]


@dataclass
class TranslationReport:
    """What became of each distinct source text of a target."""

    translations: dict[str, str] = field(default_factory=dict)
    """Source text → verified translation (texts with nothing to translate map to themselves)."""
    failures: dict[str, str] = field(default_factory=dict)
    """Source text → why it has no translation."""
    cached: set[str] = field(default_factory=set)
    """Source texts served entirely from the cache."""
    attempts: list[ProviderAttempt] = field(default_factory=list)
    fallback_count: int = 0
    aborted: bool = False


def _tokens_kept(masked: str, translation: str) -> bool:
    return Counter(_TOKEN.findall(masked)) == Counter(_TOKEN.findall(translation))


def _merge_attempts(
    first: list[ProviderAttempt], then: list[ProviderAttempt]
) -> list[ProviderAttempt]:
    merged = {attempt.provider_id: attempt for attempt in first}
    for attempt in then:
        before = merged.get(attempt.provider_id)
        merged[attempt.provider_id] = (
            attempt
            if before is None
            else ProviderAttempt(
                provider_id=attempt.provider_id,
                outcome=attempt.outcome if attempt.outcome != "ok" else before.outcome,
                requests=before.requests + attempt.requests,
                retries=before.retries + attempt.retries,
            )
        )
    return list(merged.values())


class _Outgoing:
    """Pending units as a job sends them: each masked text once, with the unit keys behind it."""

    def __init__(self, pending: dict[str, str]) -> None:
        self.keys_of: dict[str, list[str]] = {}
        for key, masked in pending.items():
            self.keys_of.setdefault(masked, []).append(key)
        self.texts = list(self.keys_of)


class _CacheWriter:
    """Stores arriving translations in the cache from a thread, so the event loop never waits
    on the database; `flush` writes whatever is still buffered."""

    def __init__(self, cache: TranslationCache | None, source: str, target: str) -> None:
        self._cache = cache
        self._source = source
        self._target = target
        self._buffer: list[tuple[str, str, str]] = []
        self._arrived = trio.Event()
        self._turn = trio.Lock()

    def add(self, provider_id: str, entries: list[tuple[str, str]]) -> None:
        if self._cache is not None and entries:
            self._buffer.extend((provider_id, key, text) for key, text in entries)
            self._arrived.set()

    async def run(self) -> None:
        """Write batches as they arrive, until cancelled."""
        while True:
            await self._arrived.wait()
            self._arrived = trio.Event()
            await self.flush()

    async def flush(self) -> None:
        """Write what is buffered. Shielded: rows taken from the buffer are always written."""
        with trio.CancelScope(shield=True):
            async with self._turn:
                rows, self._buffer = self._buffer, []
                if rows:
                    await trio.to_thread.run_sync(self._write, rows)

    def _write(self, rows: list[tuple[str, str, str]]) -> None:
        assert self._cache is not None
        by_provider: dict[str, list[tuple[str, str]]] = {}
        for provider_id, key, text in rows:
            by_provider.setdefault(provider_id, []).append((key, text))
        for provider_id, entries in by_provider.items():
            self._cache.put_many(provider_id, self._source, self._target, entries)


class Translator:
    """Translates the texts of one target from `source` to `target` through a provider chain.

    Construction masks placeholders; `consult_cache` then tells how much must go to providers
    (`pending`), before any worker exists. Both are synchronous and take a while for large
    runs, so hosts call them in a thread. Translations received from providers go to the cache
    as they arrive (when their tokens are intact), so an interrupted run keeps what it paid for.
    """

    def __init__(
        self,
        chain: list[ProviderSettings],
        policy: TranslatePolicy,
        cache: TranslationCache | None,
        *,
        source: str,
        target: str,
        texts: Sequence[str],
    ) -> None:
        self.chain = chain
        self.policy = policy
        self.cache = cache
        self.source = source
        self.target = target
        self.protected = {text: protect_placeholders(text) for text in dict.fromkeys(texts)}
        self.units: dict[str, str] = {}
        """Unit key → masked translation, for every unit translated so far."""
        self.cached: set[str] = set()
        """Source texts served entirely from the cache."""
        self.pending: dict[str, str] = {}
        """Units still to send: unit key → masked text."""
        self._consulted = False

    def consult_cache(self) -> None:
        """Look every unit up in the cache (each provider of the chain in order, so what a
        fallback provider translated is found again); fills `cached` and `pending`."""
        if self.cache is not None:
            wanted = list({u.key for text in self.protected.values() for u in text.units})
            for settings in self.chain:
                missing = [key for key in wanted if key not in self.units]
                if not missing:
                    break
                found = self.cache.get_many(settings.id, self.source, self.target, missing)
                self.units.update(found)
            self._forget_unusable()
        self.cached = {
            text
            for text, masked in self.protected.items()
            if masked.units and all(unit.key in self.units for unit in masked.units)
        }
        self.pending = {
            unit.key: unit.masked
            for text in self.protected.values()
            for unit in text.units
            if unit.key not in self.units
        }
        self._progress = _Progress(self.protected, self.units)
        self._outgoing = _Outgoing(self.pending)
        self._consulted = True

    def _forget_unusable(self) -> None:
        """Treat cached translations that no longer pass verification as misses (a cache may
        hold an answer from before a stricter check), so they are translated again."""
        for text, masked in self.protected.items():
            if not masked.units or not all(unit.key in self.units for unit in masked.units):
                continue
            try:
                restored = masked.restore([self.units[unit.key] for unit in masked.units])
            except PlaceholderMismatch:
                restored = None
            if restored is None or verify_placeholders(text, restored) is not None:
                for unit in masked.units:
                    self.units.pop(unit.key, None)

    async def translate(
        self, pool: WorkerPool | None, on_progress: ProgressCallback | None = None
    ) -> TranslationReport:
        """Translate every distinct text; return translations, failures and provider attempts.

        Call `consult_cache` first. `pool` may be None only when nothing is `pending`. Raises
        trio.Cancelled or KeyboardInterrupt when the caller is cancelled or interrupted; what
        arrived before stays in the cache.
        """
        if not self._consulted:
            raise RuntimeError("consult_cache() must run before translate()")
        report = TranslationReport(cached=self.cached)
        protected, units, progress = self.protected, self.units, self._progress
        progress.listen(on_progress)
        unit_failures: dict[str, str] = {}
        chain = self.chain
        if self.pending:
            outcome, unit_failures = await self._send(pool, self._outgoing, chain, False)
            report.attempts = outcome.attempts
            report.fallback_count = outcome.fallback_count
            report.aborted = outcome.aborted
            # A provider given up stays given up for this target: the retry would only wait for
            # it all over again.
            chain = [settings for settings in chain if settings.id not in outcome.given_up]
        retry = await trio.to_thread.run_sync(self._settle, protected, units, unit_failures, report)
        if retry and chain and not report.aborted:
            again = {unit.key: unit.masked for text in retry for unit in protected[text].units}
            for key in again:
                units.pop(key, None)
            outcome, unit_failures = await self._send(pool, _Outgoing(again), chain, True)
            report.attempts = _merge_attempts(report.attempts, outcome.attempts)
            report.fallback_count += outcome.fallback_count
            retried = {text: protected[text] for text in retry}
            still = await trio.to_thread.run_sync(
                self._settle, retried, units, unit_failures, report
            )
            report.failures.update({text: retry[text] for text in still})
        else:
            report.failures.update(retry)
        progress.finish(len(report.failures))
        return report

    async def _send(
        self,
        pool: WorkerPool | None,
        outgoing: _Outgoing,
        chain: list[ProviderSettings],
        isolated: bool,
    ) -> tuple[JobOutcome, dict[str, str]]:
        """Translate `outgoing` through the pool with `chain`, caching what arrives (also when
        cancelled).

        Returns the pool's outcome and the failed units (key → reason).
        """
        assert pool is not None, "only a translator with nothing pending runs without a pool"
        writer = _CacheWriter(self.cache, self.source, self.target)
        units = self.units
        progress = self._progress

        def arrived(provider_id: str, indices: list[int], translations: list[str]) -> None:
            fresh: list[tuple[str, str]] = []
            for index, translation in zip(indices, translations, strict=True):
                masked = outgoing.texts[index]
                if _tokens_kept(masked, translation):
                    fresh.extend((key, translation) for key in outgoing.keys_of[masked])
            units.update(fresh)
            writer.add(provider_id, fresh)
            progress.units_arrived(key for key, _ in fresh)

        job = TranslateJob(
            texts=outgoing.texts,
            source=self.source,
            target=self.target,
            chain=chain,
            policy=self.policy,
            isolated=isolated,
        )
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(writer.run)
                outcome = await pool.translate(job, on_translated=arrived)
                nursery.cancel_scope.cancel()
        finally:
            await writer.flush()
        failures = {
            key: reason
            for index, reason in outcome.failures.items()
            for key in outgoing.keys_of[outgoing.texts[index]]
        }
        return outcome, failures

    @staticmethod
    def _settle(
        protected: dict[str, ProtectedText],
        units: dict[str, str],
        unit_failures: dict[str, str],
        report: TranslationReport,
    ) -> dict[str, str]:
        """Restore and verify every text whose units all arrived; return the texts to retry
        alone (text → reason). Texts with a failed unit go to `report.failures`."""
        retry: dict[str, str] = {}
        for text, masked in protected.items():
            failed = [unit_failures[u.key] for u in masked.units if u.key in unit_failures]
            if failed:
                report.failures[text] = failed[0]
                continue
            try:
                restored = masked.restore([units[unit.key] for unit in masked.units])
            except KeyError:
                retry[text] = "a part of the text came back with its placeholders changed"
                continue
            except PlaceholderMismatch as exc:
                retry[text] = f"placeholders changed: {exc}"
                continue
            problem = verify_placeholders(text, restored)
            if problem is None:
                report.translations[text] = restored
            else:
                retry[text] = f"placeholders changed: {problem}"
        return retry


class _Progress:
    """Reports `on_progress(done, failed)`: `done` counts source texts settled (every unit
    arrived; at the end, every text), `failed` those that could not be translated (known at the
    end). Neither count ever decreases."""

    def __init__(self, protected: dict[str, ProtectedText], units: dict[str, str]) -> None:
        self._callback: ProgressCallback | None = None
        self._waiting: dict[str, int] = {}
        self._dependents: dict[str, list[str]] = {}
        self._total = len(protected)
        self.done = 0
        self.failed = 0
        for text, masked in protected.items():
            missing = [unit.key for unit in masked.units if unit.key not in units]
            if missing:
                self._waiting[text] = len(missing)
                for key in missing:
                    self._dependents.setdefault(key, []).append(text)
            else:
                self.done += 1

    def listen(self, callback: ProgressCallback | None) -> None:
        self._callback = callback
        self._report()

    def units_arrived(self, keys: Iterable[str]) -> None:
        for key in keys:
            for text in self._dependents.pop(key, ()):
                self._waiting[text] -= 1
                if self._waiting[text] == 0:
                    self.done += 1
        self._report()

    def finish(self, failed: int) -> None:
        """Every text is settled; `failed` of them have no translation."""
        self.done = self._total
        self.failed = failed
        self._report()

    def _report(self) -> None:
        if self._callback is not None:
            self._callback(self.done, self.failed)
