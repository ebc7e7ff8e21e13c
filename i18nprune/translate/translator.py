"""Translating one target's texts: placeholders masked, the cache first, a `Requester` (the worker
pool, or providers that run in this process) for the rest, and every result restored and
verified before anyone may write it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field

import trio

from i18nprune.config.schema import TranslatePolicy
from i18nprune.placeholders import (
    PlaceholderMismatch,
    ProtectedText,
    TermFinder,
    protect_placeholders,
)
from i18nprune.pool.job import JobOutcome, ProviderAttempt, Requester, TranslateJob, run_job
from i18nprune.pool.messages import ProviderSettings, TextNote
from i18nprune.pool.statistics import PoolRecorder
from i18nprune.translate.cache import TranslationMemory

_TOKEN = re.compile(r'<x id="\d+"/>')
_MISSING_PART = "a part of the text came back with its placeholders changed"

ProgressCallback = Callable[[int, int], None]
SettledCallback = Callable[[dict[str, str]], None]
"""Receives source texts that settled (text → verified translation); see `Translator.translate`."""


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


def joined_reports(reports: Sequence[TranslationReport]) -> TranslationReport:
    """One report for texts translated in parts (disjoint sets of texts, each by its own
    `Translator`): each provider's requests and retries summed, its outcome "partial" where the
    parts' outcomes differ."""
    joined = TranslationReport()
    for report in reports:
        joined.translations.update(report.translations)
        joined.failures.update(report.failures)
        joined.cached.update(report.cached)
        joined.fallback_count += report.fallback_count
        joined.aborted = joined.aborted or report.aborted
        joined.attempts = _merge_attempts(
            joined.attempts,
            report.attempts,
            lambda before, then: then if then == before else "partial",
        )
    return joined


def _tokens_kept(masked: str, translation: str) -> bool:
    return sorted(_TOKEN.findall(masked)) == sorted(_TOKEN.findall(translation))


def _merge_attempts(
    first: list[ProviderAttempt],
    then: list[ProviderAttempt],
    outcome: Callable[[str, str], str] = lambda before, then: before if then == "ok" else then,
) -> list[ProviderAttempt]:
    """`first` and `then` with each provider's requests and retries summed; `outcome(before,
    then)` of a provider in both (by default, for a retry round after the first: its outcome
    unless it was "ok")."""
    merged = {attempt.provider_id: attempt for attempt in first}
    for attempt in then:
        before = merged.get(attempt.provider_id)
        merged[attempt.provider_id] = (
            attempt
            if before is None
            else ProviderAttempt(
                provider_id=attempt.provider_id,
                outcome=outcome(before.outcome, attempt.outcome),
                requests=before.requests + attempt.requests,
                retries=before.retries + attempt.retries,
            )
        )
    return list(merged.values())


def _settle_text(masked: ProtectedText, units: Mapping[str, str]) -> tuple[str, bool]:
    """(the verified translation, True) of a text whose units all arrived, or (why it must be
    retried alone, False)."""
    try:
        return masked.translation(units), True
    except KeyError:
        return _MISSING_PART, False
    except PlaceholderMismatch as exc:
        return f"placeholders changed: {exc}", False


class _Outgoing:
    """Pending units as a job sends them: each masked text once, with the unit keys behind it
    (`keys[i]` are those of `texts[i]`) and the note of each text for providers that read
    notes. Built where it costs nothing to the event loop (with the cache lookup, in a thread),
    since a large run has tens of thousands of units."""

    def __init__(self, pending: dict[str, str], unit_notes: Mapping[str, TextNote]) -> None:
        keys_of: dict[str, list[str]] = {}
        for key, masked in pending.items():
            keys = keys_of.get(masked)
            if keys is None:
                keys_of[masked] = [key]
            else:
                keys.append(key)
        self.texts = list(keys_of)
        self.keys = list(keys_of.values())
        self.notes = _outgoing_notes(self.keys, unit_notes) if unit_notes else None


def _outgoing_notes(
    keys: list[list[str]], unit_notes: Mapping[str, TextNote]
) -> list[TextNote | None]:
    """One note per outgoing text: the merged notes of its units."""
    notes: list[TextNote | None] = []
    for text_keys in keys:
        note: TextNote | None = None
        for key in text_keys:
            found = unit_notes.get(key)
            if found is not None:
                note = found if note is None else note.merged(found)
        notes.append(note)
    return notes


class _Settling:
    """The texts of one round waiting for their units. `arrived` (on the event loop) only counts:
    a text whose last unit arrived is *complete*; `settle_texts` (in a thread: restoring and
    verifying cost a few microseconds a text, which on the loop would delay every reply behind
    it) then restores and verifies complete texts, taken on the loop with `take_complete`, into
    `settled` (text → translation) or `retry` (text → reason). One thread at a time settles;
    the loop only adds complete texts meanwhile, and reads `settled` and `retry` once the round
    is over."""

    def __init__(
        self,
        protected: dict[str, ProtectedText],
        units: dict[str, str],
        texts: Iterable[str],
        verified: dict[str, str] | None = None,
    ) -> None:
        """`verified`: texts already known to be complete and their translations."""
        self._protected = protected
        self._units = units
        self._waiting: dict[str, int] = {}
        self._dependents: dict[str, list[str]] = {}
        self._complete: list[str] = []
        self.settled: dict[str, str] = dict(verified or {})
        self.retry: dict[str, str] = {}
        self.missing: dict[str, str] = {}
        """Unit key → masked text of each unit a waiting text lacks, in the order of the texts
        (what the round must send)."""
        # One pass per text, the round's bookkeeping and what to send together: a large run
        # has tens of thousands of texts.
        settled, waiting, dependents = self.settled, self._waiting, self._dependents
        missing = self.missing
        for index, text in enumerate(texts):
            if index and not index % _YIELD_EVERY_LIGHT:
                time.sleep(0)  # see YIELD_EVERY: a run prepares while it translates
            if text in settled:
                continue
            lacking = 0
            for unit in protected[text].units:
                key = unit.key
                if key in units:
                    continue
                lacking += 1
                missing[key] = unit.masked
                found = dependents.get(key)
                if found is None:
                    dependents[key] = [text]
                else:
                    found.append(text)
            if lacking:
                waiting[text] = lacking
            else:
                self._complete.append(text)

    def arrived(self, units: Iterable[tuple[str, str]]) -> int:
        """`(key, translation)` units arrived; returns how many texts they complete (to
        `settle` later)."""
        completed = 0
        waiting = self._waiting
        complete = self._complete
        dependents = self._dependents
        for key, _ in units:
            for text in dependents.pop(key, ()):
                left = waiting[text] - 1
                if left:
                    waiting[text] = left
                    continue
                del waiting[text]
                complete.append(text)
                completed += 1
        return completed

    @property
    def waiting(self) -> int:
        """How many texts still wait for a unit."""
        return len(self._waiting)

    def unfinished(self) -> list[str]:
        """Texts with a unit that never arrived."""
        return list(self._waiting)

    def take_complete(self) -> list[str]:
        """The texts completed since the last call (on the loop: `arrived` adds to them)."""
        complete, self._complete = self._complete, []
        return complete

    def settle_texts(self, complete: list[str]) -> dict[str, str]:
        """Restore and verify `complete` texts (pure CPU work: hosts call it in a thread); the
        verified ones, with their translations (also added to `settled`)."""
        protected, units = self._protected, self._units
        fresh: dict[str, str] = {}
        for start in range(0, len(complete), YIELD_EVERY):
            if start:
                time.sleep(0)  # see YIELD_EVERY
            for text in complete[start : start + YIELD_EVERY]:
                outcome, verified = _settle_text(protected[text], units)
                if verified:
                    fresh[text] = outcome
                else:
                    self.retry[text] = outcome
        self.settled.update(fresh)
        return fresh

    def settle(self) -> dict[str, str]:
        """Restore and verify every text completed since the last call, while no unit arrives
        for this round; the verified ones, with their translations."""
        return self.settle_texts(self.take_complete())


YIELD_EVERY = 32
"""Settling (and `generate`'s placing) lets go of the GIL after this many texts (~0.1–0.2 ms
of work): the event loop, which relays every reply and sends the next batch, takes it at once
instead of waiting out the switch interval each time it wants it back."""

_YIELD_EVERY_LIGHT = 4 * YIELD_EVERY
"""The same for work that costs about a quarter as much per text."""

SETTLE_INTERVAL_SECONDS = 0.02
"""A round settles what completed at most this often (each step is a trip to a thread)."""


class _Settler:
    """Settles the texts of one round while it runs: whenever texts complete, a step takes them
    (on the loop) and settles them in a thread, one step at a time, then hands the verified
    translations to `on_settled` in that thread — so restoring, verifying and whatever the
    host does with them overlap the requests still in flight instead of following the last."""

    def __init__(
        self,
        settling: _Settling,
        on_settled: SettledCallback | None,
        first: dict[str, str] | None = None,
    ) -> None:
        """`first`: translations verified before the round (from the cache), handed over with
        the first step."""
        self.settling = settling
        self._on_settled = on_settled
        self._first = first or None
        self._wake = trio.Event()
        self._closing = False
        self._closed = trio.Event()
        self._stopped = trio.Event()

    def completed(self) -> None:
        """Texts completed (on the loop): a step will settle them."""
        self._wake.set()

    async def run(self) -> None:
        """Run steps as texts complete, until `close`. Cancellation abandons the step under
        way (it only settles in memory)."""
        try:
            while True:
                await self._wake.wait()
                self._wake = trio.Event()
                if self._closing:
                    return
                texts = self.settling.take_complete()
                await trio.to_thread.run_sync(self._step, texts, abandon_on_cancel=True)
                # Texts completing meanwhile wait for the next step: fewer, larger steps.
                with trio.move_on_after(SETTLE_INTERVAL_SECONDS):
                    await self._closed.wait()
        finally:
            self._stopped.set()

    async def close(self) -> None:
        """Let the step under way finish, then stop (`finish` settles the rest)."""
        self._closing = True
        self._closed.set()
        self._wake.set()
        await self._stopped.wait()

    def finish(self) -> None:
        """Settle every text completed and not settled yet (in a thread, once the round's
        units stopped arriving and `run` is over)."""
        self._step(self.settling.take_complete())

    def _step(self, texts: list[str]) -> None:
        fresh = self.settling.settle_texts(texts)
        first, self._first = self._first, None
        if first is not None:
            first.update(fresh)
            fresh = first
        if fresh and self._on_settled is not None:
            self._on_settled(fresh)


CACHE_WRITE_INTERVAL_SECONDS = 0.2
"""After writing to the cache, a job waits this long before its next write, so that the batches
arriving meanwhile go into one transaction. A commit writes every page its rows touched, and
the key index takes them in no order: 20,000 rows in 17 transactions wrote 32 MB to the log,
in 8 20 MB, in 4 14 MB, in one 12 MB. A process killed outright loses at most this long's
answers (a cancelled job writes them)."""


class _CacheWriter:
    """Stores arriving translations in the cache from a thread, so the event loop never waits
    on the database, at most once per CACHE_WRITE_INTERVAL_SECONDS; `flush` writes whatever is
    still buffered (the job calls it when it ends, also when cancelled)."""

    def __init__(self, cache: TranslationMemory | None, source: str, target: str) -> None:
        self._cache = cache
        self._source = source
        self._target = target
        self._buffer: dict[str, list[tuple[str, str]]] = {}
        """Cached provider name → (key, translation) entries to store."""
        self._arrived = trio.Event()
        self._turn = trio.Lock()

    def add(self, provider: str, entries: list[tuple[str, str]]) -> None:
        """Buffer `entries` to store under the cached provider name `provider`."""
        if self._cache is not None and entries:
            self._buffer.setdefault(provider, []).extend(entries)
            self._arrived.set()

    async def run(self) -> None:
        """Write batches as they arrive, until cancelled."""
        while True:
            await self._arrived.wait()
            self._arrived = trio.Event()
            await self.flush()
            await trio.sleep(CACHE_WRITE_INTERVAL_SECONDS)

    async def flush(self) -> None:
        """Write what is buffered. Shielded: rows taken from the buffer are always written."""
        with trio.CancelScope(shield=True):
            async with self._turn:
                buffered, self._buffer = self._buffer, {}
                if buffered:
                    await trio.to_thread.run_sync(self._write, buffered)

    def _write(self, buffered: dict[str, list[tuple[str, str]]]) -> None:
        assert self._cache is not None
        for provider, entries in buffered.items():
            self._cache.put_many(provider, self._source, self._target, entries)


class Translator:
    """Translates the texts of one target from `source` to `target` through a provider chain.

    Construction masks placeholders; `consult_cache` then tells how much must go to providers
    (`pending`), before any provider is asked. Both are synchronous and take a while for large
    runs, so hosts call them in a thread. Translations received from providers go to the cache
    as they arrive (when their tokens are intact), so an interrupted run keeps what it paid for;
    each text is restored and verified as soon as its last part arrives.
    """

    def __init__(
        self,
        chain: list[ProviderSettings],
        policy: TranslatePolicy,
        cache: TranslationMemory | None,
        *,
        source: str,
        target: str,
        texts: Sequence[str],
        notes: Mapping[str, TextNote] | None = None,
        glossary: TermFinder | None = None,
        masks: MutableMapping[str, ProtectedText] | None = None,
    ) -> None:
        """`notes`: what is known of source texts (key paths, description), by text; providers
        that read notes get them with each part of those texts. `glossary`: the target's
        glossary terms, masked like placeholders (restored in their target form, verified).
        `masks`: texts already masked the same way (the same `glossary`, or none), by text,
        shared with other translators of the run; the texts this one masks are added to it."""
        self.chain = chain
        self.policy = policy
        self.cache = cache
        self.source = source
        self.target = target
        memo: MutableMapping[str, ProtectedText] = {} if masks is None else masks
        protected: dict[str, ProtectedText] = {}
        masking = 0
        for text in texts:
            if text in protected:
                continue
            masked = memo.get(text)
            if masked is None:
                masked = memo[text] = protect_placeholders(text, glossary)
                masking += 1
                if not masking % YIELD_EVERY:
                    time.sleep(0)  # see YIELD_EVERY: a run prepares while it translates
            protected[text] = masked
        self.protected = protected
        self._unit_notes = self._notes_by_unit(notes or {})
        self.units: dict[str, str] = {}
        """Unit key → masked translation, for every unit translated so far."""
        self.cached: set[str] = set()
        """Source texts served entirely from the cache."""
        self.pending: dict[str, str] = {}
        """Units still to send: unit key → masked text."""
        self._settling: _Settling | None = None
        self._outgoing: _Outgoing | None = None

    def consult_cache(self) -> None:
        """Look every unit up in the cache (each provider of the chain in order, so what a
        fallback provider translated is found again); fills `cached` and `pending`.

        A cached translation that no longer passes verification (a cache may hold an answer
        from before a stricter check) counts as a miss, so it is translated again.
        """
        units = self.units
        verified: dict[str, str] = {}
        if self.cache is not None:
            keys = {unit.key: None for text in self.protected.values() for unit in text.units}
            missing = list(keys)
            for settings in self.chain:
                if not missing:
                    break
                provider = settings.cache_provider(self.target)
                found = self.cache.get_many(provider, self.source, self.target, missing)
                if found:
                    units.update(found)
                    missing = [key for key in missing if key not in found]
            if units:
                verified = self._verify_cached()
        settling = self._settling = _Settling(self.protected, units, self.protected, verified)
        self.pending = settling.missing
        # A text whose units are all cached verified (the units of those that did not were
        # forgotten, also where another text shares them).
        self.cached = {
            text
            for text in verified
            if all(unit.key in units for unit in self.protected[text].units)
        }
        settling.settle()  # the texts the cache completed (this runs in a thread too)
        self._outgoing = _Outgoing(self.pending, self._unit_notes)

    def _notes_by_unit(self, notes: Mapping[str, TextNote]) -> dict[str, TextNote]:
        """Unit key → the notes of the source texts it is a part of, merged. (`notes` may
        hold the notes of a whole target for a translator of a part of its texts.)"""
        by_unit: dict[str, TextNote] = {}
        if not notes:
            return by_unit
        for text, masked in self.protected.items():
            note = notes.get(text)
            if note is None:
                continue
            for unit in masked.units:
                before = by_unit.get(unit.key)
                by_unit[unit.key] = note if before is None else before.merged(note)
        return by_unit

    def _verify_cached(self) -> dict[str, str]:
        """The texts complete from the cache whose translation verifies, with it; the units
        of the others are forgotten."""
        units = self.units
        verified: dict[str, str] = {}
        for text, masked in self.protected.items():
            if not masked.units or not all(unit.key in units for unit in masked.units):
                continue
            outcome, ok = _settle_text(masked, units)
            if ok:
                verified[text] = outcome
            else:
                for unit in masked.units:
                    units.pop(unit.key, None)
        return verified

    async def translate(
        self,
        requester: Requester | None,
        on_progress: ProgressCallback | None = None,
        *,
        recorder: PoolRecorder | None = None,
        on_settled: SettledCallback | None = None,
    ) -> TranslationReport:
        """Translate every distinct text; return translations, failures and provider attempts.

        Call `consult_cache` first. `requester` (the worker pool, or providers that run in this
        process) may be None only when nothing is `pending`; `recorder` collects the timings of
        its batches. `on_settled(translations)` receives the texts that settled (verified, as
        the report will hold them) while the requests of the others are still under way: it is
        called in a worker thread, one call at a time, and gets each text of the report's
        `translations` exactly once before this returns (never a failed one). Raises
        trio.Cancelled or KeyboardInterrupt when the caller is cancelled or interrupted; what
        arrived before stays in the cache.
        """
        settling, outgoing = self._settling, self._outgoing
        if settling is None or outgoing is None:
            raise RuntimeError("consult_cache() must run before translate()")
        report = TranslationReport(cached=self.cached)
        progress = _Progress(len(self.protected), len(self.protected) - settling.waiting)
        progress.listen(on_progress)
        unit_failures: dict[str, str] = {}
        chain = self.chain
        # The texts the cache settled go to `on_settled` with the round's first step.
        settler = _Settler(settling, on_settled, dict(settling.settled))
        if self.pending:
            assert requester is not None, "only a translator with nothing pending needs none"
            outcome, unit_failures = await self._send(
                requester, outgoing, chain, settler, progress, False, recorder
            )
            report.attempts = outcome.attempts
            report.fallback_count = outcome.fallback_count
            report.aborted = outcome.aborted
            # A provider given up stays given up for this target: the retry would only wait for
            # it all over again.
            chain = [settings for settings in chain if settings.id not in outcome.given_up]
        if self.pending or (on_settled is not None and settling.settled):
            await trio.to_thread.run_sync(settler.finish, abandon_on_cancel=True)
        retry = self._conclude(settling, unit_failures, report)
        if retry and chain and not report.aborted:
            assert requester is not None
            for text in retry:
                for unit in self.protected[text].units:
                    self.units.pop(unit.key, None)
            round_two = _Settling(self.protected, self.units, retry)
            settler = _Settler(round_two, on_settled)
            outcome, unit_failures = await self._send(
                requester,
                _Outgoing(round_two.missing, self._unit_notes),
                chain,
                settler,
                None,
                True,
                recorder,
            )
            report.attempts = _merge_attempts(report.attempts, outcome.attempts)
            report.fallback_count += outcome.fallback_count
            await trio.to_thread.run_sync(settler.finish, abandon_on_cancel=True)
            still = self._conclude(round_two, unit_failures, report)
            report.failures.update({text: retry[text] for text in still})
        else:
            report.failures.update(retry)
        progress.finish(len(report.failures))
        return report

    def _conclude(
        self, settling: _Settling, unit_failures: dict[str, str], report: TranslationReport
    ) -> dict[str, str]:
        """Move a round's verified texts into `report`; texts with a failed unit become
        failures; returns the texts to retry alone (text → reason)."""
        report.translations.update(settling.settled)
        retry = dict(settling.retry)
        for text in settling.unfinished():
            failed = [
                unit_failures[unit.key]
                for unit in self.protected[text].units
                if unit.key in unit_failures
            ]
            if failed:
                report.failures[text] = failed[0]
            else:
                retry[text] = _MISSING_PART
        return retry

    async def _send(
        self,
        requester: Requester,
        outgoing: _Outgoing,
        chain: list[ProviderSettings],
        settler: _Settler,
        progress: _Progress | None,
        isolated: bool,
        recorder: PoolRecorder | None,
    ) -> tuple[JobOutcome, dict[str, str]]:
        """Translate `outgoing` through `requester` with `chain`, caching what arrives (also
        when cancelled) and settling the texts it completes as they complete (`settler`; the
        texts of the last step that was still to start are left to `settler.finish`).

        Returns the job's outcome and the failed units (key → reason).
        """
        settling = settler.settling
        writer = _CacheWriter(self.cache, self.source, self.target)
        # What arrives is cached under the provider and the options it was made with.
        cache_names = {settings.id: settings.cache_provider(self.target) for settings in chain}
        units = self.units
        texts, keys = outgoing.texts, outgoing.keys

        # On the event loop, once per batch: kept to a single pass over the batch's texts.
        def arrived(provider_id: str, indices: list[int], translations: list[str]) -> None:
            fresh: list[tuple[str, str]] = []
            add = fresh.append
            for index, translation in zip(indices, translations, strict=True):
                masked = texts[index]
                if ("<x" in masked or "<x" in translation) and not _tokens_kept(
                    masked, translation
                ):
                    continue
                for key in keys[index]:
                    add((key, translation))
            units.update(fresh)
            writer.add(cache_names.get(provider_id, provider_id), fresh)
            completed = settling.arrived(fresh)
            if completed:
                settler.completed()
            if progress is not None:
                progress.advance(completed)

        job = TranslateJob(
            texts=texts,
            source=self.source,
            target=self.target,
            chain=chain,
            policy=self.policy,
            isolated=isolated,
            notes=outgoing.notes,
        )
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(writer.run)
                nursery.start_soon(settler.run)
                outcome = await run_job(job, requester, None, arrived, recorder)
                await settler.close()
                nursery.cancel_scope.cancel()
        finally:
            await writer.flush()
        failures = {
            key: reason for index, reason in outcome.failures.items() for key in keys[index]
        }
        return outcome, failures


class _Progress:
    """Reports `on_progress(done, failed)`: `done` counts source texts settled (every unit
    arrived; at the end, every text), `failed` those that could not be translated (known at the
    end). Neither count ever decreases."""

    def __init__(self, total: int, done: int) -> None:
        self._callback: ProgressCallback | None = None
        self._total = total
        self.done = done
        self.failed = 0

    def listen(self, callback: ProgressCallback | None) -> None:
        self._callback = callback
        self._report()

    def advance(self, completed: int) -> None:
        """`completed` more texts have every unit."""
        self.done += completed
        self._report()

    def finish(self, failed: int) -> None:
        """Every text is settled; `failed` of them have no translation."""
        self.done = self._total
        self.failed = failed
        self._report()

    def _report(self) -> None:
        if self._callback is not None:
            self._callback(self.done, self.failed)
