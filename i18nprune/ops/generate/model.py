"""What `generate` takes and answers: its options, each target's result, the run's data, and
the names its events and files go by."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from i18nprune.pool import ProviderAttempt
from i18nprune.pool.statistics import RunPoolStatistics

KIND = "generate"
EVENT = "run.progress.generate"
CACHE_FILE = "translations.sqlite3"

TargetStatus = Literal["written", "dry_run", "skipped", "failed", "sharded"]
"""`sharded`: a shard's run sent its share into the shared memory and wrote nothing."""


class GenerateOptions(msgspec.Struct, frozen=True, kw_only=True):
    target: Annotated[
        list[str] | None, msgspec.Meta(description="target locales (comma list, or `all`)")
    ] = None
    all: Annotated[bool, msgspec.Meta(description="every existing non-source locale")] = False
    resume: Annotated[
        bool, msgspec.Meta(description="also translate leaves still equal to the source text")
    ] = False
    force: Annotated[
        bool, msgspec.Meta(description="re-translate every template leaf (overwrites)")
    ] = False
    dry_run: Annotated[bool, msgspec.Meta(description="plan only: no network, no writes")] = False
    metadata: Annotated[
        bool, msgspec.Meta(description="write structured leaves with a machine status")
    ] = False
    provider: Annotated[
        str | None, msgspec.Meta(description="translation provider (see `i18nprune providers`)")
    ] = None
    workers: Annotated[
        int | None, msgspec.Meta(description="worker processes (default: translate.workers)")
    ] = None
    check: Annotated[
        bool,
        msgspec.Meta(
            description="send and write nothing; fail when a target lacks translations or has "
            "stale ones (a CI gate: every locale is fully and currently translated)"
        ),
    ] = False
    cache_url: Annotated[
        str | None,
        msgspec.Meta(
            description="a translation memory shared by a fleet of runs: redis://, rediss:// or "
            "unix:// (default: cache.url, I18NPRUNE_CACHE_URL)"
        ),
    ] = None
    shard: Annotated[
        str | None,
        msgspec.Meta(
            description="K/N: send only shard K (from 1) of N of the texts to translate, into "
            "the shared memory, and write nothing (default: JOB_COMPLETION_INDEX + 1 of "
            "JOB_COMPLETION_COUNT when both are set)"
        ),
    ] = None
    no_retranslate_stale: Annotated[
        bool,
        msgspec.Meta(
            description="keep stale translations (source changed since) that generate wrote, "
            "instead of re-translating them; they are reported"
        ),
    ] = False


class TargetResult(msgspec.Struct, frozen=True, rename="camel"):
    target: str
    status: TargetStatus
    partial: bool
    source_leaf_count: int
    translated_leaf_count: int
    cached_leaf_count: int
    failed_leaf_count: int
    stale_leaf_count: int
    """Leaves whose source text changed since they were translated (`i18nprune.lock.json`):
    those re-translated and those kept (a person's edit, or `--no-retranslate-stale`)."""
    retranslated_leaf_count: int
    """Stale leaves this run re-translated and wrote."""
    output_paths: list[str]
    provider_attempts: list[ProviderAttempt]
    fallback_count: int
    duration_ms: int


class FleetStatistics(msgspec.Struct, frozen=True, rename="camel"):
    """What a run with a shared translation memory did as a member of its fleet."""

    memory: str
    """The shared memory's URL, password redacted."""
    shard: str | None
    """`K/N` when the run was a shard (it wrote nothing), else None."""
    shared_hits: int
    """Texts' units found in the shared memory and not in this machine's cache."""
    sent: int
    """Texts this member sent to providers."""
    received: int
    """Texts another member was translating when this one wanted them, read once it had."""


class GenerateData(msgspec.Struct, frozen=True, rename="camel"):
    provider_id: str | None
    dry_run: bool
    targets: list[str]
    leaves_processed: int
    partial: bool
    target_results: list[TargetResult]
    pool: RunPoolStatistics | None = None
    """What the worker pool did for this run; None when the run used none (a dry run,
    everything from the cache, or a provider that runs in the front process, such as
    `pseudo`)."""
    locale_names: dict[str, str] = {}
    """Each of `targets` (normalised: `pt-br`) → how the project spells it (`pt_BR`, or a new
    target as `--target` named it)."""
    lock_file: str | None = None
    """The lock file, when this run wrote it (relative to the root)."""
    fleet: FleetStatistics | None = None
    """What the run did as a member of a fleet; None without a shared memory."""
