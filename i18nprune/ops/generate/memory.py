"""Where a `generate` run remembers translations, and which share of them it sends: the
embedded cache, or a fleet's shared memory (`cache.url`, `--cache-url`); and a shard
(`--shard K/N`, or a Kubernetes Indexed Job's JOB_COMPLETION_INDEX/JOB_COMPLETION_COUNT).

Opened before any worker starts, so a server that cannot be reached stops the run with nothing
sent or written. See docs/fleet.md.
"""

from __future__ import annotations

import os
import re
import secrets
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from i18nprune.envelope import Code, Issue, error, warning
from i18nprune.fleet.connection import FleetUnavailable, connect, shown
from i18nprune.ops.generate.model import CACHE_FILE, GenerateOptions
from i18nprune.project import Project
from i18nprune.system.digests import blake2b
from i18nprune.translate.cache import TranslationCache, TranslationMemory
from i18nprune.translate.shared import SharedMemory

if TYPE_CHECKING:
    from i18nprune.fleet.limits import FleetLimits

INDEX_VARIABLE = "JOB_COMPLETION_INDEX"
COUNT_VARIABLE = "JOB_COMPLETION_COUNT"
_SHARD = re.compile(r"\s*(\d+)\s*/\s*(\d+)\s*")


@dataclass(frozen=True)
class Shard:
    """Shard `index` (1-based) of `count`: the texts whose digest falls to it."""

    index: int
    count: int

    def owns(self, target: str, text: str) -> bool:
        """Whether this shard sends `text` into `target` (a fixed function of the two, so
        every member with the same plan splits it the same way)."""
        data = f"{target}\0{text}".encode("utf-8", "surrogatepass")
        digest = int.from_bytes(blake2b(data, digest_size=8).digest(), "big")
        return digest % self.count == self.index - 1

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


@dataclass
class RunMemory:
    """The run's translation memory (None: caching is off) and shard (None: the whole run);
    with a shared memory, the fleet's rate limits on the same server."""

    memory: TranslationMemory | None
    shard: Shard | None
    issues: list[Issue]
    limits: FleetLimits | None = None

    @property
    def shared(self) -> SharedMemory | None:
        """The fleet's memory, when the run has one."""
        return self.memory if isinstance(self.memory, SharedMemory) else None

    @property
    def location(self) -> str | None:
        """Where the memory is (a URL without its password, or the cache file)."""
        return self.memory.location if self.memory is not None else None

    @property
    def lost(self) -> FleetUnavailable | None:
        """The failure that lost the fleet's server during the run, if one did (the memory
        and the limits share the server, and its record of the failure)."""
        shared = self.shared
        return shared.lost if shared is not None else None

    @property
    def start(self) -> float:
        """Where in each target's texts this run starts sending, as a fraction of them: 0,
        except for a fleet member that is not a shard, which starts at a point of its own.
        Members of one project started together then work on different texts (sending each
        once, by the claims) instead of all waiting on whichever member claimed the first
        batches; a shard splits the texts by itself."""
        shared = self.shared
        if shared is None or self.shard is not None:
            return 0.0
        digest = blake2b(shared.store.member.encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big") / 2**64

    def close(self) -> None:
        """Close the memory (blocking: in a thread; idempotent)."""
        if self.memory is not None:
            self.memory.close()


def open_memory(project: Project, options: GenerateOptions) -> RunMemory:
    """The run's memory and shard, or `issues` with errors saying why the run cannot start (an
    invalid `--shard`, a shard without a shared memory, a server that cannot be reached).

    Blocking (it connects to the server): hosts call it in a thread. Never raises for a
    problem of the memory.
    """
    shard, issues = _shard(options, project.env)
    url = options.cache_url or project.config.cache.url
    if not project.cache_enabled:
        if shard is not None:
            issues.append(
                error(
                    Code.SHARD_INVALID,
                    f"--shard {shard} fills a shared memory, and caching is off "
                    "(--no-cache or cache.enabled: false)",
                )
            )
        return RunMemory(None, shard, issues)
    if url is None and shard is not None:
        issues.append(
            error(
                Code.SHARD_INVALID,
                f"--shard {shard} needs a shared translation memory (cache.url, "
                "I18NPRUNE_CACHE_URL or --cache-url): a shard writes nothing into the project, "
                "so without one its translations would stay in this machine's cache",
            )
        )
    if any(issue.severity == "error" for issue in issues):
        return RunMemory(None, shard, issues)
    local = TranslationCache.open(project.home / CACHE_FILE, writable=not project.read_only)
    if local.problem:
        issues.append(warning(Code.TRANSLATION_CACHE_UNAVAILABLE, local.problem, local.location))
    if url is None:
        return RunMemory(local, None, issues)
    from i18nprune.fleet.limits import FleetLimits
    from i18nprune.fleet.store import FleetStore

    try:
        server = connect(url)
    except FleetUnavailable as failure:
        local.close()
        issues.append(error(Code.SHARED_MEMORY_UNAVAILABLE, str(failure), shown(url)))
        return RunMemory(None, shard, issues)
    claim_ms = max(1, round(project.config.cache.claim_seconds * 1000))
    member = _member()
    store = FleetStore(server, member, claim_ms)
    memory = SharedMemory(local, store, writable=not project.read_only)
    limits = FleetLimits(server, member, claim_ms / 1000)
    return RunMemory(memory, shard, issues, limits)


def _shard(options: GenerateOptions, env: Mapping[str, str]) -> tuple[Shard | None, list[Issue]]:
    """The shard `--shard` names, else the one a Kubernetes Indexed Job's variables name (both
    set), else None."""
    spelled, origin = options.shard, "--shard"
    if spelled is None:
        job_index, job_count = env.get(INDEX_VARIABLE), env.get(COUNT_VARIABLE)
        if not (job_index and job_count):
            return None, []
        if not job_index.strip().isdigit():
            return None, [_invalid(f"{INDEX_VARIABLE}={job_index!r} is not a number")]
        spelled = f"{int(job_index) + 1}/{job_count}"
        origin = f"{INDEX_VARIABLE}/{COUNT_VARIABLE}"
    found = _SHARD.fullmatch(spelled)
    if found is None:
        return None, [_invalid(f"{origin} `{spelled}` is not K/N (shard K of N, from 1)")]
    index, count = int(found[1]), int(found[2])
    if not 1 <= index <= count:
        return None, [_invalid(f"{origin} `{spelled}`: K must be between 1 and N")]
    return Shard(index, count), []


def _invalid(message: str) -> Issue:
    return error(Code.SHARD_INVALID, message)


def _member() -> str:
    """This run's name among the fleet's members: host, process and a random part."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
