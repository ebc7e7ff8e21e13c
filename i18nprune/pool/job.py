"""A translate job: its texts cut into batches, each driven along the provider chain by the policy
(retry with backoff, split a bad answer, fall back, abort, give a hopeless provider up), and the
outcome assembled in order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal, Protocol

import msgspec
import trio

from i18nprune.config.schema import TranslatePolicy
from i18nprune.pool.messages import Failure, FailureKind, ProviderSettings, Result, TextNote
from i18nprune.pool.scheduler import ProviderHealth, backoff_delay
from i18nprune.pool.statistics import BatchTiming, PoolRecorder

ProgressCallback = Callable[[int, int], None]
TranslatedCallback = Callable[[str, list[int], list[str]], None]
Step = Literal["retry", "fallback", "abort"]
Attempt = Literal["translated", "ended", "again"]


class TranslateJob(msgspec.Struct, frozen=True, kw_only=True):
    """Unique masked texts to translate from `source` to `target` with the providers of `chain`
    (primary first; the policy decides whether later ones are used)."""

    texts: list[str]
    source: str
    target: str
    chain: list[ProviderSettings]
    policy: TranslatePolicy
    isolated: bool = False
    """One text per request (used to retry texts that failed verification)."""
    notes: list[TextNote | None] | None = None
    """One note per text (key paths, description), sent to providers that read notes."""


class ProviderAttempt(msgspec.Struct, frozen=True, rename="camel"):
    """What one provider of the chain did for a job.

    `outcome`: "ok" (every text sent to it came back translated), "failed" (none did),
    "partial" (some did).
    """

    provider_id: str
    outcome: str
    requests: int
    retries: int


class JobOutcome(msgspec.Struct, frozen=True):
    """The result of a job: `translations[i]` is the translation of `texts[i]`, or `None` with
    `failures[i]` saying why ("<kind>: <provider>: <provider's message>", or "gave up after N s:
    every request to <provider> failed: <its last failure>")."""

    translations: list[str | None]
    failures: dict[int, str]
    attempts: list[ProviderAttempt]
    fallback_count: int
    aborted: bool
    given_up: list[str] = msgspec.field(default_factory=list)
    """Ids of the providers this job gave up (`policy.giveUpAfterSeconds` without a success)."""


class BatchLost(msgspec.Struct, frozen=True):
    """A batch the pool could not get answered: the workers holding it died too often, or no
    worker process could be started; `reason` says which."""

    reason: str


class Requester(Protocol):
    """Where a job's requests go: the worker pool, or providers that run in this process."""

    async def request(
        self,
        settings: ProviderSettings,
        source: str,
        target: str,
        texts: list[str],
        admit: Callable[[], bool],
        notes: list[TextNote | None] | None = None,
    ) -> Result | Failure | BatchLost | None:
        """One request to a provider through a worker; `admit()` is called just before each
        send and may refuse it (then `None`). `notes`: one per text, or None."""
        ...

    def pause(self, settings: ProviderSettings, seconds: float) -> float:
        """No request to the provider of `settings` may start for `seconds`; returns by how
        much that lengthened its pause."""
        ...

    def health(self, settings: ProviderSettings) -> ProviderHealth:
        """Whether the provider of `settings` still answers (shared with other jobs)."""
        ...


def next_step(
    policy: TranslatePolicy, kind: FailureKind, failed_attempts: int, limited_for: float = 0.0
) -> Step:
    """What the policy does after a batch's `failed_attempts`-th failure of `kind` on a provider,
    `limited_for` seconds after its first rate limit there.

    A rate limit with "backoff" is waited out until `giveUpAfterSeconds` have passed since the
    batch's first 429 (a provider that asks to slow down is not failing; how many times it asks
    depends on the load, not on the batch). Other retrying choices (transient "retry", and always
    for a bad response) retry until `maxAttempts` attempts were made. Then they fall back.
    """
    if kind == "rate_limited" and policy.on_rate_limit == "backoff":
        return "retry" if limited_for < policy.give_up_after_seconds else "fallback"
    choice = {
        "rate_limited": policy.on_rate_limit,
        "transient": policy.on_transient_failure,
        "bad_response": "retry",
        "quota": policy.on_quota_exceeded,
        "auth": policy.on_auth_failure,
    }[kind]
    if choice in ("backoff", "retry"):
        return "retry" if failed_attempts < max(1, policy.max_attempts) else "fallback"
    return "abort" if choice == "abort" else "fallback"


@dataclass
class _Batch:
    """Consecutive texts of the job (from index `start`) on their way along the chain."""

    start: int
    texts: list[str]
    provider: int = 0
    failed_attempts: int = 0
    """Failures on the current provider."""
    limited_since: float | None = None
    """When the current provider first answered it with a rate limit (trio's clock)."""
    sent: bool = False
    """The texts were sent to the current provider (so it is answerable for them)."""
    attempts: int = 0
    """Sends, over every provider."""
    queue_wait: float = 0.0
    worker: float = 0.0
    http: float = 0.0
    """Seconds waiting for a slot, in a worker, and in HTTP, summed over the attempts."""
    in_line: bool = False
    """One of the job's batches in order whose first request has not started yet: the job's
    next batch starts once this one's request starts, or it ends without one (`_next_in_line`)."""


@dataclass
class _Tally:
    requests: int = 0
    retries: int = 0
    translated: int = 0
    lost: int = 0
    """Texts sent to this provider that it did not translate."""


class _JobRun:
    def __init__(
        self,
        job: TranslateJob,
        requester: Requester,
        on_progress: ProgressCallback | None,
        on_translated: TranslatedCallback | None,
        recorder: PoolRecorder | None,
    ) -> None:
        self._job = job
        self._requester = requester
        self._recorder = recorder if recorder is not None else PoolRecorder()
        self._on_progress = on_progress
        self._on_translated = on_translated
        self.translations: list[str | None] = [None] * len(job.texts)
        self.failures: dict[int, str] = {}
        self._tallies = [_Tally() for _ in job.chain]
        # Providers that answered quota or auth (policy "fallback") or were given up, and why:
        # this job skips them.
        self._unusable: dict[int, str] = {}
        self._given_up: list[str] = []
        # The attempts under way per provider, cancelled when it is given up.
        self._attempts_on: dict[int, set[trio.CancelScope]] = {}
        self._watched: set[int] = set()
        self._watchers: trio.Nursery | None = None
        self.fallback_count = 0
        self.abort_reason: str | None = None
        self._done = 0
        self._nursery: trio.Nursery | None = None
        self._starts: Iterator[int] = iter(())
        """Where the job's batches not started yet begin, in order."""

    async def run(self) -> JobOutcome:
        job = self._job
        if job.texts and job.chain:
            await self._run_batches()
        elif job.texts:
            self._fail(_Batch(0, job.texts), "no translation provider")
        if self.abort_reason is not None:
            self._fail_unfinished(f"aborted: {self.abort_reason}")
        return JobOutcome(
            translations=self.translations,
            failures=self.failures,
            attempts=self._attempts(),
            fallback_count=self.fallback_count,
            aborted=self.abort_reason is not None,
            given_up=self._given_up,
        )

    async def _run_batches(self) -> None:
        job = self._job
        async with trio.open_nursery() as watchers:
            self._watchers = watchers
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                self._starts = iter(range(0, len(job.texts), self._batch_size()))
                # As many in line as may be in flight: replies that free several slots at once
                # find as many batches waiting for them.
                for _ in range(max(1, job.chain[0].max_concurrency)):
                    self._next_in_line()
            watchers.cancel_scope.cancel()

    def _batch_size(self) -> int:
        return 1 if self._job.isolated else self._job.chain[0].batch_size

    def _next_in_line(self, batch: _Batch | None = None) -> None:
        """Start the job's next batch, once `batch` (one in line; None: at the start) starts
        its request or ends without one.

        So the first requests of the batches start in about the order of the job's texts (in
        order with one request in flight at a time): batches started all at once would queue
        for the provider's slots in the order the event loop happens to run them (trio shuffles
        it), and a host that uses translations in the job's order (`generate` places leaves in
        plan order) would wait for a late first text. As many batches wait for a slot as the
        provider allows in flight; retries and the pieces of a split batch do not wait in line.
        """
        if batch is not None:
            if not batch.in_line:
                return
            batch.in_line = False
        start = next(self._starts, None)
        if start is not None:
            size = self._batch_size()
            self._start(_Batch(start, self._job.texts[start : start + size], in_line=True))

    def _watch(self, provider: int) -> None:
        """From now on, give `provider` up once it has failed without a success for the
        policy's time (counted from now at the earliest: each job gives it the full time)."""
        if provider in self._watched:
            return
        self._watched.add(provider)
        health = self._requester.health(self._job.chain[provider])
        seconds = self._job.policy.give_up_after_seconds

        async def watch(since: float) -> None:
            self._give_up(provider, await health.wait_hopeless(seconds, since))

        assert self._watchers is not None
        self._watchers.start_soon(watch, trio.current_time())

    def _give_up(self, provider: int, last: str) -> None:
        """Stop using `provider`: every attempt on it ends, and its batches move on (or fail)."""
        if provider in self._unusable:
            return
        settings = self._job.chain[provider]
        seconds = self._job.policy.give_up_after_seconds
        self._unusable[provider] = (
            f"gave up after {seconds:g} s: every request to {settings.id} failed: {last}"
        )
        self._given_up.append(settings.id)
        for scope in self._attempts_on.get(provider, ()):
            scope.cancel()

    async def _drive(self, batch: _Batch) -> None:
        """Take `batch` along the chain until it is translated, failed or the job aborts."""
        translated = False
        try:
            while batch.provider < len(self._job.chain):
                unusable = self._unusable.get(batch.provider)
                if unusable is not None:
                    if not self._move_on(batch, unusable):
                        return
                    continue
                self._fit(batch)
                attempt = await self._attempt(batch)
                if attempt != "again":
                    translated = attempt == "translated"
                    return
        finally:
            self._next_in_line(batch)  # it ended before its request started
            if batch.sent and not translated:
                self._tallies[batch.provider].lost += len(batch.texts)
            if batch.attempts:
                self._recorder.settled(self._timing(batch, translated))

    def _timing(self, batch: _Batch, translated: bool) -> BatchTiming:
        provider = self._job.chain[min(batch.provider, len(self._job.chain) - 1)]
        return BatchTiming(
            provider=provider.id,
            target=self._job.target,
            texts=len(batch.texts),
            attempts=batch.attempts,
            queue_wait_ms=round(batch.queue_wait * 1000, 3),
            worker_ms=round(batch.worker * 1000, 3),
            http_ms=round(batch.http * 1000, 3),
            outcome="translated" if translated else "failed",
        )

    async def _attempt(self, batch: _Batch) -> Attempt:
        """One request of `batch` to its provider and what the policy makes of the answer;
        "again" when the batch goes on (retry, fallback, or its provider was given up)."""
        self._watch(batch.provider)
        scope = trio.CancelScope()
        scopes = self._attempts_on.setdefault(batch.provider, set())
        scopes.add(scope)
        try:
            with scope:
                reply = await self._send(batch)
                if isinstance(reply, Result):
                    self._succeed(batch, reply.translations)
                    return "translated"
                if reply is None:
                    return "again"  # not sent: the provider failed another batch meanwhile
                if isinstance(reply, BatchLost):
                    provider = self._job.chain[batch.provider].id
                    self._fail(batch, f"transient: {provider}: {reply.reason}")
                    return "ended"
                return "again" if await self._handle_failure(batch, reply) else "ended"
            return "again"  # the provider was given up while this waited
        finally:
            scopes.discard(scope)

    async def _send(self, batch: _Batch) -> Result | Failure | BatchLost | None:
        job = self._job
        provider = batch.provider
        settings = job.chain[provider]
        recorder = self._recorder
        queued_at = trio.current_time()
        sent_at: float | None = None
        recorder.queued(queued_at)

        def admit() -> bool:
            # Called as the request is about to start: the provider may have failed another
            # batch for good while this one waited.
            nonlocal sent_at
            self._next_in_line(batch)
            if provider in self._unusable:
                return False
            tally = self._tallies[provider]
            tally.requests += 1
            retry = bool(batch.failed_attempts or batch.sent)
            tally.retries += retry
            batch.sent = True
            batch.attempts += 1
            sent_at = trio.current_time()
            endpoint = (settings.id, settings.base_url)
            recorder.sent(sent_at, endpoint, settings.max_concurrency, retry=retry)
            return True

        reply: Result | Failure | BatchLost | None = None
        try:
            reply = await self._requester.request(
                settings, job.source, job.target, batch.texts, admit, self._notes(batch, settings)
            )
            return reply
        finally:
            self._next_in_line(batch)  # no request started (no worker, cancelled, …)
            now = trio.current_time()
            if sent_at is None:
                batch.queue_wait += now - queued_at
                recorder.unqueued(now)
            else:
                batch.queue_wait += sent_at - queued_at
                batch.worker += now - sent_at
                requests, limited = 1, False  # lost or abandoned: it may have been sent
                if isinstance(reply, Result | Failure):
                    requests = reply.requests
                    batch.http += reply.http_seconds
                if isinstance(reply, Failure):
                    limited = reply.status == 429 or reply.kind == "rate_limited"
                recorder.returned(now, requests, rate_limited=limited)

    def _notes(self, batch: _Batch, settings: ProviderSettings) -> list[TextNote | None] | None:
        """The notes of `batch`'s texts, for a provider that reads notes."""
        notes = self._job.notes
        if notes is None or not settings.reads_notes:
            return None
        return notes[batch.start : batch.start + len(batch.texts)]

    async def _handle_failure(self, batch: _Batch, failure: Failure) -> bool:
        """Apply the policy to `failure`; `True` when the batch goes on (retry or fallback)."""
        settings = self._job.chain[batch.provider]
        reason = f"{failure.kind}: {failure.message}"  # messages start with the provider id
        batch.failed_attempts += 1
        limited_for = 0.0
        if failure.kind == "rate_limited":
            now = trio.current_time()
            if batch.limited_since is None:
                batch.limited_since = now
            limited_for = now - batch.limited_since
        step = next_step(self._job.policy, failure.kind, batch.failed_attempts, limited_for)
        if step == "abort":
            self._abort(reason)
            return False
        if step == "fallback":
            if failure.kind in ("quota", "auth"):
                self._unusable.setdefault(batch.provider, reason)
            return self._move_on(batch, reason)
        if failure.kind == "rate_limited":
            delay = failure.retry_after
            if delay is None:
                delay = backoff_delay(batch.failed_attempts)
            self._recorder.paused(self._requester.pause(settings, delay))
        elif failure.kind == "bad_response" and len(batch.texts) > 1:
            # Typically an LLM answering the wrong number of texts: halves isolate the culprit
            # and keep the rest translating.
            half = len(batch.texts) // 2
            rest = batch.texts[half:]
            batch.texts = batch.texts[:half]
            self._start(
                _Batch(
                    batch.start + half,
                    rest,
                    provider=batch.provider,
                    failed_attempts=batch.failed_attempts,
                    sent=True,
                )
            )
        else:
            await trio.sleep(backoff_delay(batch.failed_attempts))
        return True

    def _move_on(self, batch: _Batch, reason: str) -> bool:
        """Send `batch` to the next provider of the chain; at its end, fail the texts with
        `reason` and return `False`."""
        if batch.sent:
            self._tallies[batch.provider].lost += len(batch.texts)
        batch.provider += 1
        batch.failed_attempts = 0
        batch.limited_since = None
        batch.sent = False
        if batch.provider < len(self._job.chain):
            self.fallback_count += 1
            return True
        self._fail(batch, reason)
        return False

    def _fit(self, batch: _Batch) -> None:
        """Cut `batch` to the batch size of its provider; the rest travels as new batches."""
        size = 1 if self._job.isolated else self._job.chain[batch.provider].batch_size
        for start in range(size, len(batch.texts), size):
            piece = batch.texts[start : start + size]
            self._start(_Batch(batch.start + start, piece, provider=batch.provider))
        del batch.texts[size:]

    def _start(self, batch: _Batch) -> None:
        assert self._nursery is not None
        self._nursery.start_soon(self._drive, batch)

    def _succeed(self, batch: _Batch, translations: list[str]) -> None:
        end = batch.start + len(batch.texts)
        self.translations[batch.start : end] = translations
        self._tallies[batch.provider].translated += len(batch.texts)
        self._done += len(batch.texts)
        if self._on_translated is not None:
            provider = self._job.chain[batch.provider].id
            self._on_translated(provider, list(range(batch.start, end)), translations)
        self._report()

    def _fail(self, batch: _Batch, reason: str) -> None:
        for index in range(batch.start, batch.start + len(batch.texts)):
            self.failures[index] = reason
        self._report()

    def _abort(self, reason: str) -> None:
        if self.abort_reason is None:
            self.abort_reason = reason
        assert self._nursery is not None
        self._nursery.cancel_scope.cancel()

    def _fail_unfinished(self, reason: str) -> None:
        failed_before = len(self.failures)
        for index, translation in enumerate(self.translations):
            if translation is None and index not in self.failures:
                self.failures[index] = reason
        if len(self.failures) > failed_before:
            self._report()

    def _report(self) -> None:
        if self._on_progress is not None:
            self._on_progress(self._done, len(self.failures))

    def _attempts(self) -> list[ProviderAttempt]:
        attempts = []
        for settings, tally in zip(self._job.chain, self._tallies, strict=True):
            if not tally.requests:
                continue
            outcome = "ok" if not tally.lost else "failed" if not tally.translated else "partial"
            attempts.append(ProviderAttempt(settings.id, outcome, tally.requests, tally.retries))
        return attempts


async def run_job(
    job: TranslateJob,
    requester: Requester,
    on_progress: ProgressCallback | None = None,
    on_translated: TranslatedCallback | None = None,
    recorder: PoolRecorder | None = None,
) -> JobOutcome:
    """Translate `job.texts`, batched per provider, through `requester`, following
    `job.policy`; `recorder` collects the timings of its batches.

    As each batch settles, `on_translated(provider_id, indices, translations)` receives the
    translations of `job.texts[i]` for i in `indices` (so they can be kept even if the job is
    cancelled later), and `on_progress(done_texts, failed_texts)` the cumulative counts.
    Provider failures never raise: they end up in the outcome's `failures`. Cancellation
    cancels every batch of the job (the requester aborts their requests) and raises Cancelled.
    """
    return await _JobRun(job, requester, on_progress, on_translated, recorder).run()
