"""`scan_project`: discover, reuse cached per-file facts, examine what changed, link, report.
Linking always runs on the facts, so a warm scan reports exactly what a cold one does.

Each file's record is kept encoded (see `cache`) and decoded where a step needs it; what the
result needs of a file's quoted texts is taken as its record arrives.
"""

from __future__ import annotations

import copy
import itertools
import os
import posixpath
import stat
import time
from array import array
from collections.abc import Callable, Collection, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import msgspec

from i18nprune.envelope import Code, Issue, warning
from i18nprune.scan.aliases import ImportAliases, is_relative_module
from i18nprune.scan.angular_i18n import id_settings
from i18nprune.scan.cache import (
    FACTS_VERSION,
    CachedFile,
    CachedStat,
    CacheStream,
    EncodedFile,
    decode_file,
    decode_literals,
    decode_stat,
    encode_file,
    load_cache_document,
    recall_scan,
    remember_scan,
    save_cache,
)
from i18nprune.scan.callees import CalleeNames
from i18nprune.scan.discovery import Discovery, SourceFile, SourceFiles, discover_sources
from i18nprune.scan.expressions import OPAQUE, AutoId, Expr, Messages, Record, Text, needs_linking
from i18nprune.scan.facts import HOOK, HOOK_NAMESPACE, HOOK_PREFIX, FileFacts, SiteFact, Translator
from i18nprune.scan.grammars import SOURCE_SUFFIXES, TEMPLATE_SUFFIX, grammar_versions
from i18nprune.scan.key_shapes import (
    Namespace,
    resolve_key,
    site_namespaces,
    site_prefixes,
    static_text,
)
from i18nprune.scan.link import (
    LinkedFile,
    Linker,
    LinkMemo,
    link_options_digest,
    paths_digest,
    recall_link,
    record_checksum,
    records_checksum,
    snapshot_link,
)
from i18nprune.scan.literals import LiteralIndex
from i18nprune.scan.message_ids import MessageIds
from i18nprune.scan.messages import IMPORTED_READ
from i18nprune.scan.positions import Positions
from i18nprune.scan.records import (
    DERIVED_ID,
    MISSING_ID,
    AngularReading,
    DynamicSite,
    ExcludedFolder,
    KeyObservation,
    LinguiReading,
    LiteralSite,
    ScanOptions,
    ScanResult,
    ScopeRule,
)
from i18nprune.scan.selectors import (
    has_selector,
    plain_key,
    selector_readings,
    selector_scope,
)
from i18nprune.system.children import usable_cpus
from i18nprune.system.interrupts import raise_if_interrupted

if TYPE_CHECKING:
    # Imported where a file is examined: a warm scan that reuses every record (most runs of a
    # short command) does not load the parsers' modules nor the worker plumbing.
    from i18nprune.keys import KeySyntax
    from i18nprune.scan.examine import Examined
    from i18nprune.scan.parallel import ParseWorkers
    from i18nprune.scan.repository import RepositoryReading

ProgressCallback = Callable[[int, int], None]

# A file modified this close to the start of a scan may change again within the same mtime
# tick after it was read, so its stat cannot vouch for its content next time.
_RACY_WINDOW_NS = 100_000_000
# Below this much source to parse, starting worker processes costs more than it saves.
_PARALLEL_MIN_BYTES = 2 << 20
_PARALLEL_MIN_FILES = 32
# Progress is reported at most this often (plus at the start and the end): hosts relay each
# report across threads, so a fast warm scan should cost them a handful, not one per file.
_PROGRESS_INTERVAL_S = 0.1
# How `import './x'` finds a file: the extension as written, then these, then `x/index.*`.
_RESOLUTION_ORDER = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_RESOLUTION_ORDER_MARKUP = (".vue", ".svelte")
_TYPESCRIPT_FOR_JS = {
    ".js": (".ts", ".tsx"),
    ".jsx": (".tsx",),
    ".mjs": (".mts",),
    ".cjs": (".cts",),
}


def scan_project(
    options: ScanOptions,
    on_progress: ProgressCallback | None = None,
    *,
    stale: Collection[str] = (),
    discovery: Discovery | None = None,
    link_memo: LinkMemo | None = None,
    keep: Callable[[BufferContext], None] | None = None,
) -> ScanResult:
    """Find every translation key the project's source uses (docs/evidence.md#proof-key-sites).

    Synchronous and deterministic; results of a warm (cached) scan equal a cold scan's.
    `on_progress(done, total)` is called from this thread as files are accounted for. Problems
    with single files, symlinks or the cache become issues; nothing a user can cause raises.
    `stale` names files (relative to the root) known to have changed since they were cached:
    their content is read again even when their stat looks unchanged (a host that watches the
    files, such as `serve`, knows this where mtime granularity cannot tell). `discovery` is
    what `discover_sources` finds for the options now, when the host knows it (see
    `rediscover`); without it the scan walks the source directories. `link_memo` is the
    linked output a host keeps between scans of this root (see `LinkMemo`): files whose
    output cannot differ are not linked again, and the memo is brought up to date. `keep` is
    given the scan's `BufferContext` once the result is made.
    """
    scan = _ProjectScan(options, on_progress)
    scan.stale = frozenset(stale)
    scan.given_discovery = discovery
    scan.link_memo = link_memo
    result = scan.run()
    if keep is not None:
        keep(BufferContext(scan))
    return result


class BufferContext:
    """What a finished scan knows of every file, kept by a host (an editor's language server)
    to read one file's unsaved content against the rest of the project as scanned: the cost of
    a keystroke is the cost of that file (parsing it, linking its sites), not of the project.

    The buffer's own imports are followed as the scan found them on disk; files that import
    the buffer see it as it is on disk until it is saved and the project scanned again. Not
    thread-safe: the host serialises calls (and scans) of one root.
    """

    def __init__(self, scan: _ProjectScan) -> None:
        # What only the finished scan needed: the loaded cache file (what the scan adopted is in
        # `current`), the quoted texts found (in the result now), progress and streaming.
        scan.previous = {}
        scan.by_digest = None
        scan.literal_hits = {}
        scan.on_progress = None
        scan.early = None
        scan.stream = None
        scan.streamed = array("q")
        self._scan = scan

    def read(self, relpath: str, content: bytes) -> BufferSites:
        """The key sites and issues of `relpath` (relative to the root) were it `content`;
        a path that is not one of the scanned source files has none, and says so."""
        return self._scan.read_buffer(relpath, content)


def discovery_context(options: ScanOptions, discovery: Discovery | None = None) -> BufferContext:
    """A context that knows only which source files the project has (`discovery`, else a
    walk): a buffer read against it parses the files its imports reach when it reaches them.
    Its sites are those a whole scan would link, but for keys read under a `keyPrefix` that
    a component prop gives (`i18nKeyPrefix="…"` elsewhere): those need every file. For a
    host's first answer, before the whole scan is done."""
    scan = _ProjectScan(options, None)
    scan.given_discovery = discovery
    scan._discover()
    return BufferContext(scan)


class BufferSites(msgspec.Struct, frozen=True):
    """One file's linked sites and issues (`BufferContext.read`)."""

    observations: list[KeyObservation]
    dynamic: list[DynamicSite]
    issues: list[Issue]


class _ProjectScan:
    """The state of one scan."""

    def __init__(self, options: ScanOptions, on_progress: ProgressCallback | None) -> None:
        self.options = options
        self.on_progress = on_progress
        self.names = CalleeNames(options.functions)
        self.functions = self.names.configured
        self.root = os.path.realpath(options.root)
        self.started_ns = time.time_ns()
        self.identity = "|".join(
            [str(FACTS_VERSION), self.root, ",".join(self.functions), grammar_versions()]
        )
        self.message_ids = MessageIds(self.root, options.message_ids)
        self.link_options = link_options_digest(options.message_ids, options.scopes)
        """What linking reads from the options besides the key syntax: saved or kept linked
        output computed under other Babel options or namespace scopes is not reused."""
        self.issues: list[Issue] = []
        self.files = SourceFiles()
        """Every file to scan, with the stat it was found with, sorted by `relpath`."""
        self.discovered: Collection[str] = _Listed(self.files)
        """The `relpath` of every file to scan, in order: which paths are in `files`."""
        self.previous: dict[str, EncodedFile] = {}
        self.by_digest: dict[bytes, EncodedFile] | None = None
        self.current: dict[str, EncodedFile] = {}
        self.facts: dict[str, FileFacts] = {}
        """Decoded facts of the files linking looked up (their exports), by relpath."""
        self.syntax_errors: dict[str, tuple[int, int]] = {}
        self.wanted = options.literal_texts or {}
        self.interned: dict[str, str] | None = None
        """Each text of `wanted`, by itself (see `_shared`), made when first needed."""
        self.literal_hits: dict[str, list[tuple[str, int, int]]] = {}
        self.outside: dict[str, SourceFile | None] = {}
        self.located: dict[str, str | None] = {}
        self.aliases: ImportAliases | None = None
        self.scope_rules: dict[str, ScopeRule | None] = {}
        """Each linked file's namespace scope (see `_namespaces`)."""
        self.in_flight = SourceFiles()
        """The files left to examine (their stat changed), in order."""
        self.parsed = 0
        self.cache_hits: set[str] = set()
        self.accounted = 0
        self.reported_at = 0.0
        self.unreadable: set[str] = set()
        self.changed = False
        self.stale: frozenset[str] = frozenset()
        self.given_discovery: Discovery | None = None
        self.link_memo: LinkMemo | None = None
        self.previous_link: msgspec.Raw | None = None
        """The linked output saved with the cache (see `_recall_link`)."""
        self.link_snapshot: Iterable[bytes] | None = None
        """The linked output to save with the cache: computed from exactly its records."""
        self.link_recalled = False
        self.early: ParseWorkers | None = None
        self.stream: CacheStream | None = None
        """The new cache file, written as records are made (see `_made`)."""
        self.stream_refused = False
        """Whether the cache file could not be made (records are then kept whole)."""
        self.streamed = array("q")
        """The `record_checksum` of the record written into `stream` for each file of
        `files`, by position (-1: none was; the file's record is written at the end)."""

    def run(self) -> ScanResult:
        if self.options.cache_dir is not None:
            self.previous, self.previous_link, cache_issues = load_cache_document(
                self.options.cache_dir, self.identity
            )
            self.issues.extend(cache_issues)
            if not self.options.cache_writable:  # what this process scanned since is newer
                self.previous = {**self.previous, **recall_scan(self.identity)}
        self.early = self._start_workers_early()
        try:
            return self._run()
        finally:
            if self.early is not None:
                self.early.stop()
            if self.stream is not None:  # interrupted: the old cache stays
                self.stream.abort()

    def read_buffer(self, relpath: str, content: bytes) -> BufferSites:
        """`BufferContext.read`: this finished scan's state, copied where reading the buffer
        changes it (the records, the facts looked up, the notes), so the scan itself is left
        as it was."""
        from i18nprune.scan.examine import examine_content

        child = copy.copy(self)
        child.current = dict(self.current)
        child.facts = {path: facts for path, facts in self.facts.items() if path != relpath}
        child.unreadable = self.unreadable - {relpath}
        child.issues = []
        child.syntax_errors = {}
        child.wanted = {}
        child.interned = None
        child.literal_hits = {}
        child.cache_hits = set()
        child.stream_refused = True
        file = child.files.find(relpath) if relpath in child.discovered else None
        if file is None:
            child._examine_overlay({relpath: content})  # says it is not a source file
            return BufferSites([], [], child.issues)
        child._record(file, examine_content(relpath, content, child.functions, force=True))
        linker = Linker(
            child._facts_of, child._resolve_module, child.current.get, child.message_ids.resolve
        )
        observations: list[KeyObservation] = []
        dynamic: list[DynamicSite] = []
        child._link_file(relpath, linker, observations, dynamic)
        if any(site.prefix_prop for site in dynamic):
            dynamic = child._with_prop_prefixes(dynamic)
        child._report_message_ids(dynamic)
        child.syntax_errors = {
            path: error for path, error in child.syntax_errors.items() if path == relpath
        }
        child._report_syntax_errors()
        observations.sort(key=lambda o: (o.line, o.column, o.key))
        dynamic.sort(key=lambda d: (d.line, d.column, d.kind, d.preview))
        issues = [issue for issue in child.issues if issue.path in (relpath, None)]
        return BufferSites(observations, dynamic, issues)

    def _start_workers_early(self) -> ParseWorkers | None:
        """The parse workers of a cold scan, started now so that their interpreters start
        while discovery walks the tree (none when a previous scan was cached: most files are
        then reused). A project too small to parse in parallel stops them unused.

        Only for a caller that lends its own thread (`examine_here`: the command line). A host
        that does not is one whose event loop must answer quickly (`serve`): interpreters
        started on speculation compete with it for the CPU (they made serve's ping p99 during
        a small project's first `op.generate` 2–5× worse), so its workers start when the files
        to parse are known, as before."""
        jobs = self.options.jobs or usable_cpus()
        if jobs < 2 or self.previous or self.options.overlay or not self.options.examine_here:
            return None
        from i18nprune.scan.parallel import ParseWorkers

        return ParseWorkers(jobs - 1)

    def _run(self) -> ScanResult:
        excluded = self._discover()
        overlay = self.options.overlay or {}
        self.in_flight = self._reuse_by_stat(overlay)
        self._progress(force=True)
        self._examine_overlay(overlay)
        self._examine()
        observations, dynamic = self._link()
        if any(site.prefix_prop for site in dynamic):
            dynamic = self._with_prop_prefixes(dynamic)
            _sort_by_file(dynamic, lambda d: (d.file, d.line, d.column, d.kind, d.preview))
        self._report_message_ids(dynamic)
        self._report_syntax_errors()
        self._save_cache()
        repository = self._read_repository()
        self._progress(force=True)
        issues = sorted(self.issues, key=lambda i: (i.path or "", i.code, i.message))
        literals = self._literal_sites(repository)
        shared_messages = self._shared_messages()
        lingui, angular = self._message_readings()
        return ScanResult(
            files=len(self.discovered),
            parsed=self.parsed,
            cache_hits=len(self.cache_hits),
            observations=observations,
            dynamic=dynamic,
            issues=issues,
            literals=literals,
            excluded=excluded,
            foreign=repository.foreign if repository is not None else [],
            shared_messages=shared_messages,
            lingui=lingui,
            angular=angular,
        )

    def _message_readings(self) -> tuple[LinguiReading | None, AngularReading | None]:
        """Which files import Lingui, and which hold Angular i18n messages, with where their
        messages could not be read: a site or message whose id is not derived, a syntax
        error (for Angular, in a code file, where a `$localize` may hide; a template's own
        markup errors are not: its messages are read by `scan.angular_i18n`). One pass over
        the files' facts for both: each decoding costs a record."""
        lingui_files = angular_files = 0
        lingui_unread: list[str] = []
        angular_unread: list[str] = []
        for relpath in self.discovered:
            facts = self._triggered_facts(relpath)
            if facts is None or (facts.lingui is None and facts.angular is None):
                continue
            error = self.syntax_errors.get(relpath)
            if facts.lingui is not None:
                lingui_files += 1
                lingui_unread.extend(f"{relpath}:{line}:{column}" for line, column in facts.lingui)
                if error is not None:
                    lingui_unread.append(f"{relpath}:{error[0]}:{error[1]}")
            if facts.angular is not None:
                angular_files += 1
                angular_unread.extend(
                    f"{relpath}:{line}:{column}" for line, column in facts.angular
                )
                if error is not None and not relpath.endswith(TEMPLATE_SUFFIX):
                    angular_unread.append(f"{relpath}:{error[0]}:{error[1]}")
        lingui = LinguiReading(lingui_files, lingui_unread) if lingui_files else None
        if not angular_files:
            return lingui, None
        return lingui, AngularReading(angular_files, [*angular_unread, *self._id_settings()])

    def _id_settings(self) -> list[str]:
        """Places in the `tsconfig*.json` files beside the scanned files (and above them, up
        to the root) that make Angular keep white space in messages
        (`angular_i18n.id_settings`)."""
        folders = {""}
        for relpath in self.discovered:
            folder = posixpath.dirname(relpath)
            while folder not in folders:
                folders.add(folder)
                folder = posixpath.dirname(folder)
        places: list[str] = []
        for folder in sorted(folders):
            try:
                entries = sorted(os.scandir(os.path.join(self.root, folder)), key=lambda e: e.name)
            except OSError:
                continue
            for entry in entries:
                if not (entry.name.startswith("tsconfig") and entry.name.endswith(".json")):
                    continue
                try:
                    content = Path(entry.path).read_bytes()
                except OSError:
                    continue
                relpath = posixpath.join(folder, entry.name)
                positions = Positions(content)
                for offset in id_settings(content):
                    line, column = positions.line_column(offset)
                    places.append(f"{relpath}:{line}:{column}")
        return places

    def _shared_messages(self) -> list[tuple[str, str]]:
        """The (locale, path) pairs of every `<i18n global>` block of the project's
        single-file components."""
        found: set[tuple[str, str]] = set()
        for relpath in self.discovered:
            if not relpath.endswith(".vue"):
                continue
            facts = self._triggered_facts(relpath)
            for messages in facts.shared_messages if facts is not None else ():
                found.update((messages.locale, path) for path in messages.paths)
        return sorted(found)

    def _read_repository(self) -> RepositoryReading | None:
        """The quoted texts asked for in the project's files the scan does not read (the part
        of `options.repository` inside the root; `scan_code` reads the rest), with their notes
        added to the scan's; `None` when not asked for."""
        scope = self.options.repository
        if scope is None or not self.wanted:
            return None
        from i18nprune.scan.repository import read_repository

        reading = read_repository(
            scope,
            self.wanted,
            Path(self.root),
            inside=True,
            scanned=self.discovered.__contains__,
            sources=msgspec.json.encode(
                [[str(folder) for folder in self.options.src_dirs], self.options.exclude]
            ).decode(),
            writable=self.options.cache_writable,
        )
        self.issues.extend(reading.issues)
        return reading

    def _discover(self) -> list[ExcludedFolder]:
        """List the files to scan; the folders an exclude rule kept out."""
        discovery = self.given_discovery or discover_sources(
            self.options.root,
            self.options.src_dirs,
            self.options.exclude,
            templates=self.names.reads_templates,
        )
        self.issues.extend(discovery.issues)
        self.files = discovery.files
        # A host with a link memo (`serve`) checks every import's resolution on each scan, and
        # a table answers those look-ups ~20× faster than bisection: there, speed over memory.
        self.discovered = (
            dict.fromkeys(self.files.relpaths)
            if self.link_memo is not None
            else _Listed(self.files)
        )
        return discovery.excluded

    # -- facts: from the cache, or examined now -------------------------------------------

    def _reuse_by_stat(self, overlay: Collection[str]) -> SourceFiles:
        """Adopt the cached record of each discovered file (not in `overlay`) whose stat vouches
        for it; the files left to examine."""
        previous = self.previous
        if not previous and not overlay:
            return self.files  # all of them (not a copy: a cold scan of 100k files holds it)
        in_flight = SourceFiles()
        stale = self.stale
        for relpath, size, mtime_ns, inode in self.files.stats():
            if relpath in overlay:
                continue
            encoded = previous.get(relpath)
            if encoded is not None and relpath not in stale:
                known = decode_literals(encoded)
                if (
                    known is not None
                    and known.stat_trusted
                    and (known.size, known.mtime_ns, known.inode) == (size, mtime_ns, inode)
                ):
                    self._adopt(relpath, encoded, known.literals)
                    continue
            in_flight.append(relpath, size, mtime_ns, inode)
        return in_flight

    def _adopt(self, relpath: str, encoded: EncodedFile, literals: LiteralIndex) -> None:
        self._account(relpath)
        self._keep(relpath, encoded, literals)
        self.cache_hits.add(relpath)

    def _made(self, relpath: str, entry: CachedFile) -> bytes:
        """The record to keep of `entry`, made in this scan. A command's scan writes it into
        the new cache file now and keeps it without its quoted texts, which only the cache
        needs (the caller takes what the result needs of them): a cold scan of 100k files
        keeps ~185 bytes a file less, and of the files without key sites nothing of their
        own."""
        encoded = _encoded(entry)
        index = self._stream_slot(relpath)
        if index is None:
            return encoded
        assert self.stream is not None
        self.stream.add(relpath, encoded)
        self.streamed[index] = record_checksum(encoded)
        if entry.facts is None and not entry.triggered and not self.previous:
            # Of a file without key sites linking reads only that (and, to find facts parsed
            # before, its content hash: there are none without a previous cache).
            return _NO_SITES
        return _encoded(msgspec.structs.replace(entry, literals=_NO_LITERALS))

    def _stream_slot(self, relpath: str) -> int | None:
        """The position in `files` of a discovered file whose records go into `stream` as they
        are made (opened on first use), or `None` when this scan does not stream them: a host
        with a memo compares the records it keeps, one that may not write keeps them whole
        (`remember_scan`), an overlay writes no cache, and the cache file may not be
        makeable."""
        options = self.options
        if (
            self.stream_refused
            or options.cache_dir is None
            or not options.cache_writable
            or options.overlay
            or self.link_memo is not None
        ):
            return None
        index = self.files.index_of(relpath)
        if index is None:
            return None  # a file outside the sources: kept whole, written at the end
        if self.stream is None:
            try:
                self.stream = CacheStream(options.cache_dir, self.identity)
            except OSError:  # `_save_cache` tries again, and says why it cannot
                self.stream_refused = True
                return None
            self.streamed = array("q", [-1]) * len(self.files)
        return index

    def _keep(self, relpath: str, encoded: EncodedFile, literals: LiteralIndex) -> None:
        """Make `encoded` the file's record, noting which of its quoted texts (`literals`)
        were asked for."""
        self.current[relpath] = encoded
        if not self.wanted:
            return
        hits = literals.find(self.wanted)
        if hits:
            self.literal_hits[relpath] = hits
        else:
            self.literal_hits.pop(relpath, None)

    def _entry(self, file: SourceFile, known: CachedFile | Examined) -> CachedFile:
        """What to remember of `file`, whose content is what `known` describes."""
        return CachedFile(
            size=file.size,
            mtime_ns=file.mtime_ns,
            inode=file.inode,
            digest=known.digest,
            triggered=known.triggered,
            stat_trusted=file.mtime_ns < self.started_ns - _RACY_WINDOW_NS,
            literals=known.literals,
            facts=known.facts,
        )

    def _known_content(self, digest: bytes) -> EncodedFile | None:
        """The cached record of a file whose content has `digest`, if there is one."""
        if self.by_digest is None:
            self.by_digest = {
                known.digest: encoded
                for encoded in self.previous.values()
                if (known := decode_stat(encoded)) is not None
            }
        return self.by_digest.get(digest)

    def _adopt_content(self, file: SourceFile, known: EncodedFile) -> CachedFile | None:
        """Adopt the cached record of `file`'s content (known by its hash) under its new stat;
        `None` when that record turns out to be damaged (the file is then examined)."""
        entry = decode_file(known)
        if entry is None:
            return None
        self._adopt(
            file.relpath, self._made(file.relpath, self._entry(file, entry)), entry.literals
        )
        self.changed = True
        return entry

    def _examine(self) -> None:
        """Examine the files `in_flight` (their stat changed): reuse facts of known content,
        parse the rest."""
        if self.in_flight:
            self._examine_in_flight()
        if self.early is not None:
            self.early.stop()  # the workers the examination did not need
        self.in_flight = SourceFiles()

    def _examine_in_flight(self) -> None:
        from i18nprune.scan.examine import examine_content, examine_path
        from i18nprune.scan.parallel import examine_in_processes

        contents = self._reuse_by_digest()
        jobs = self.options.jobs or usable_cpus()
        total_bytes = self.in_flight.total_size()
        count = len(self.in_flight)
        if jobs > 1 and count >= _PARALLEL_MIN_FILES and total_bytes >= _PARALLEL_MIN_BYTES:
            examine_in_processes(
                self.root,
                self.in_flight,
                self.functions,
                min(jobs, count),
                self._record_batch,
                examine_here=self.options.examine_here,
                started=self.early,
            )
            return
        for file in self.in_flight:
            raise_if_interrupted()
            relpath = file.relpath
            known_content = contents.pop(relpath, None)
            examined = (
                examine_path(relpath, self._path(file), self.functions, force=False)
                if known_content is None
                else examine_content(relpath, known_content, self.functions, force=False)
            )
            self._record(file, examined)

    def _examine_overlay(self, overlay: dict[str, bytes]) -> None:
        """Examine the given contents in place of the files on disk; a path that is not one of
        the project's source files is an issue."""
        if not overlay:
            return
        from i18nprune.scan.examine import examine_content

        for relpath, content in overlay.items():
            file = self._source_file(relpath) if relpath in self.discovered else None
            if file is None:
                self.issues.append(
                    warning(
                        Code.SCAN_NOT_A_SOURCE_FILE,
                        f"{relpath} is not one of the project's source files (outside `src`, "
                        "excluded, or not JS/TS/Vue/Svelte): nothing in it is checked",
                        path=relpath,
                    )
                )
                continue
            self._record(file, examine_content(relpath, content, self.functions, force=True))

    def _reuse_by_digest(self) -> dict[str, bytes]:
        """Adopt the cached facts of files `in_flight` whose content is known (they leave
        `in_flight`, as do those that cannot be read); what was read of the rest, unless that
        is more than parsing here takes (worker processes read those files again)."""
        from i18nprune.scan.examine import Examined, content_digest, read_source

        if not self.previous:
            return {}
        contents: dict[str, bytes] = {}
        kept_bytes = 0
        left = SourceFiles()
        for file in self.in_flight:
            relpath = file.relpath
            content = read_source(self._path(file), relpath)
            if isinstance(content, Issue):
                self._record(file, Examined(relpath, b"", False, None, issue=content))
                continue
            known = self._known_content(content_digest(content, _suffix(relpath)))
            if known is not None and self._adopt_content(file, known) is not None:
                continue
            left.append(*file)
            if kept_bytes + len(content) < _PARALLEL_MIN_BYTES:
                contents[relpath] = content
                kept_bytes += len(content)
        self.in_flight = left
        return contents

    def _record_batch(self, batch: list[Examined]) -> None:
        for examined in batch:
            file = self.in_flight.find(examined.relpath)
            assert file is not None  # a worker examines only the files it is given
            self._record(file, examined)

    def _record(self, file: SourceFile, examined: Examined) -> None:
        self._account(file.relpath)
        if examined.issue is not None:
            self.issues.append(examined.issue)
            self.unreadable.add(file.relpath)
            return
        self.changed = True
        self._keep(
            file.relpath, self._made(file.relpath, self._entry(file, examined)), examined.literals
        )
        self.facts.pop(file.relpath, None)
        if examined.facts is not None:
            self.parsed += 1

    def _facts_of(self, relpath: str) -> FileFacts | None:
        """The facts of any project file, parsed now if they were never needed before."""
        facts = self.facts.get(relpath)
        if facts is not None or relpath in self.unreadable:
            return facts
        facts = self._find_facts(relpath)
        if facts is not None:
            self.facts[relpath] = facts
            self._note_syntax_error(relpath, facts)
        return facts

    def _find_facts(self, relpath: str) -> FileFacts | None:
        current = self.current.get(relpath)
        entry = decode_file(current) if current is not None else None
        if entry is not None and entry.facts is not None:
            return entry.facts
        file = self._source_file(relpath)
        if file is None:
            return None
        if current is None and (previous := self.previous.get(relpath)) is not None:
            cached = decode_file(previous)
            if (
                cached is not None
                and cached.facts is not None
                and _vouches_for(cached, file)
                and relpath not in self.stale
            ):
                self._adopt(relpath, previous, cached.literals)
                return cached.facts
        if entry is not None:
            # Prefiltered this run: the content hash may still name facts parsed earlier.
            known = self._known_content(entry.digest)
            adopted = self._adopt_content(file, known) if known is not None else None
            if adopted is not None and adopted.facts is not None:
                return adopted.facts
        from i18nprune.scan.examine import examine_path

        examined = examine_path(relpath, self._path(file), self.functions, force=True)
        self._record(file, examined)
        return examined.facts

    def _note_syntax_error(self, relpath: str, facts: FileFacts) -> None:
        self._note_error(relpath, facts.syntax_error)

    def _note_error(self, relpath: str, syntax_error: tuple[int, int] | None) -> None:
        if syntax_error is not None:
            self.syntax_errors[relpath] = syntax_error
        else:
            self.syntax_errors.pop(relpath, None)

    def _source_file(self, relpath: str) -> SourceFile | None:
        """A project file with the stat this scan found it with, or `None` when there is no
        such regular file inside the root."""
        file = self.files.find(relpath)
        return file if file is not None else self._outside_file(relpath)

    def _path(self, file: SourceFile) -> str:
        """The absolute path of a project file."""
        return os.path.join(self.root, file.relpath)

    def _outside_file(self, relpath: str) -> SourceFile | None:
        """A project file that discovery did not list (outside `src`, or excluded)."""
        if relpath not in self.outside:
            path = os.path.join(self.root, relpath)
            try:
                status = os.stat(path)
            except OSError:
                status = None
            self.outside[relpath] = (
                SourceFile(relpath, status.st_size, status.st_mtime_ns, status.st_ino)
                if status is not None and stat.S_ISREG(status.st_mode)
                else None
            )
        return self.outside[relpath]

    # -- linking ----------------------------------------------------------------------------

    def _resolve_module(self, importer: str, specifier: str) -> str | None:
        """The project file an import in `importer` refers to, if it exists: a relative one,
        or one the project's import aliases map (`@/i18n/keys`, see `aliases`)."""
        if not is_relative_module(specifier):
            if self.aliases is None:
                self.aliases = ImportAliases(self.root)
            bases = self.aliases.expand(specifier)
            return next(filter(None, map(self._source_at, bases)), None)
        return self._source_at(
            posixpath.normpath(posixpath.join(posixpath.dirname(importer), specifier))
        )

    def _source_at(self, base: str) -> str | None:
        """The source file a module path (relative to the root) names, as imports find it."""
        if base == ".." or base.startswith("../") or base.startswith("/"):
            return None
        suffix = _suffix(base)
        candidates = [base] if suffix in SOURCE_SUFFIXES else []
        candidates += [base[: -len(suffix)] + ts for ts in _TYPESCRIPT_FOR_JS.get(suffix, ())]
        for order in (_RESOLUTION_ORDER, _RESOLUTION_ORDER_MARKUP):
            candidates += [base + extension for extension in order]
        candidates += [base + "/index" + extension for extension in _RESOLUTION_ORDER]
        for candidate in candidates:
            found = self._locate(candidate)
            if found is not None:
                return found
        return None

    def _locate(self, candidate: str) -> str | None:
        """`candidate`'s real path relative to the root, if it is a file inside the root."""
        if candidate in self.discovered:
            return candidate
        if candidate not in self.located:
            real = os.path.realpath(os.path.join(self.root, candidate))
            inside = real.startswith(self.root.rstrip(os.sep) + os.sep)
            self.located[candidate] = (
                os.path.relpath(real, self.root).replace(os.sep, "/")
                if inside and os.path.isfile(real) and _suffix(real) in SOURCE_SUFFIXES
                else None
            )
        return self.located[candidate]

    def _link(self) -> tuple[list[KeyObservation], list[DynamicSite]]:
        memo = None if self.options.overlay else self.link_memo
        # A command's scan saves its linking with the cache (a host with a memo keeps its own).
        saved = (
            memo is None
            and self.options.cache_writable
            and self.options.cache_dir is not None
            and not self.options.overlay
        )
        if saved and (recalled := self._recall_link()) is not None:
            return recalled
        linker = Linker(
            self._facts_of, self._resolve_module, self.current.get, self.message_ids.resolve
        )
        observations: list[KeyObservation] = []
        dynamic: list[DynamicSite] = []
        if memo is None:
            linker.start_file()  # the whole linking's reads, for its snapshot
            for relpath in self.discovered:
                self._link_file(relpath, linker, observations, dynamic)
        elif not self._link_with(memo, linker, observations, dynamic):
            # What was reused may differ from what linking in this order finds: link it all.
            self.link_memo = None
            return self._link()
        _sort_by_file(observations, lambda o: (o.file, o.line, o.column, o.key))
        _sort_by_file(dynamic, lambda d: (d.file, d.line, d.column, d.kind, d.preview))
        if saved and linker.pure:
            reads = linker.finish_reads()
            read_files = [read[0] for read in reads if len(read) == 1]
            self.link_snapshot = snapshot_link(
                self.options.syntax,
                self.link_options,
                paths_digest(self.discovered),
                lambda: self._records_checksum(read_files),
                reads,
                dict(self.syntax_errors),
                observations,
                dynamic,
            )
        return observations, dynamic

    def _records_checksum(self, read_files: Iterable[str]) -> int:
        """`records_checksum` of the records of every linked file, then of the files read (of
        a record written into the cache as it was made, the checksum taken then)."""
        return records_checksum(
            itertools.chain(
                itertools.starmap(
                    self._record_checksum,
                    itertools.zip_longest(self.files.relpaths, self.streamed, fillvalue=-1),
                ),
                (
                    self._record_checksum(relpath, self._streamed_checksum(relpath))
                    for relpath in read_files
                ),
            )
        )

    def _record_checksum(self, relpath: str, streamed: int) -> int | None:
        """The `record_checksum` of the file's record: `streamed` when it was written out."""
        if streamed >= 0:
            return streamed
        record = self.current.get(relpath)
        return None if record is None else record_checksum(record)

    def _streamed_checksum(self, relpath: str) -> int:
        """The checksum of the record of `relpath` written as it was made (-1: none)."""
        index = self.files.index_of(relpath) if self.streamed else None
        return -1 if index is None else self.streamed[index]

    def _recall_link(self) -> tuple[list[KeyObservation], list[DynamicSite]] | None:
        """The linked output saved with the cache, when it holds: every file's record was
        reused by its stat (so it is the one the output was computed from: they were saved
        together), and linking would read the same (`recall_link`)."""
        if (
            self.previous_link is None
            or self.changed
            or self.unreadable
            or len(self.cache_hits) != len(self.discovered)
        ):
            return None
        recalled = recall_link(
            self.previous_link,
            self.options.syntax,
            self.link_options,
            paths_digest(self.discovered),
            self._facts_of,
            self._resolve_module,
            lambda relpath: self.current.get(relpath) is self.previous.get(relpath),
            self._records_checksum,
        )
        if recalled is None:
            return None
        self.syntax_errors = dict(recalled.syntax_errors)
        self.link_snapshot = (bytes(self.previous_link),)
        self.link_recalled = True
        return recalled.observations, recalled.dynamic

    def _link_file(
        self,
        relpath: str,
        linker: Linker,
        observations: list[KeyObservation],
        dynamic: list[DynamicSite],
    ) -> FileFacts | None:
        """Link one file's key sites; the facts linked (None: the file has no key site)."""
        facts = self._triggered_facts(relpath)
        if facts is not None:
            self._note_syntax_error(relpath, facts)
            for site in facts.sites:
                self._site(relpath, site, linker, observations, dynamic)
        return facts

    def _link_with(
        self,
        memo: LinkMemo,
        linker: Linker,
        observations: list[KeyObservation],
        dynamic: list[DynamicSite],
    ) -> bool:
        """Link every file, reusing `memo`'s output of the files whose linking would read the
        same as when it was kept, and update `memo`. False when output was reused and this
        linking was not pure (the caller then links everything afresh)."""
        memo.begin((self.identity, self.options.syntax, self.link_options))
        files: dict[str, LinkedFile] = {}
        reused = False
        for relpath in self.discovered:
            record = self.current.get(relpath)
            linked = memo.reusable(relpath, record, linker)
            if linked is not None:
                reused = True
                if linked.noted:
                    self._note_error(relpath, linked.syntax_error)
            else:
                found: list[KeyObservation] = []
                sites: list[DynamicSite] = []
                linker.start_file()
                facts = self._link_file(relpath, linker, found, sites)
                reads = linker.finish_file()
                error = facts.syntax_error if facts is not None else None
                linked = LinkedFile(
                    record, tuple(found), tuple(sites), facts is not None, error, reads
                )
            observations += linked.observations
            dynamic += linked.dynamic
            if record is not None and self.current.get(relpath) is record:
                files[relpath] = linked
        memo.finish(files, linker.pure)
        return linker.pure or not reused

    def _triggered_facts(self, relpath: str) -> FileFacts | None:
        """The facts of a file whose key sites count (the prefilter found one possible)."""
        encoded = self.current.get(relpath)
        if encoded is None:
            return None
        entry = decode_file(encoded)  # one decoding: most files have sites
        if entry is None:
            known = decode_stat(encoded)
            if known is None or not known.triggered:
                return None
            return self._facts_of(relpath)  # a damaged cache record: examined again
        if not entry.triggered:
            return None
        if relpath in self.facts:
            return self.facts[relpath]
        return entry.facts

    def _site(
        self,
        relpath: str,
        site: SiteFact,
        linker: Linker,
        observations: list[KeyObservation],
        dynamic: list[DynamicSite],
    ) -> None:
        if site.kind == IMPORTED_READ:
            read = linker.resolve(site.key, relpath)
            if not isinstance(read, Messages):
                return  # not a messages value: a chain on some other import, no key
            site = msgspec.structs.replace(site, kind="key", key=read)
        if site.kind != "key":
            dynamic.append(
                DynamicSite(
                    relpath,
                    site.line,
                    site.column,
                    site.kind,
                    site.preview,
                    None,
                    end_line=site.end_line,
                    end_column=site.end_column,
                )
            )
            return
        syntax = self.options.syntax
        translator = _hooked(linker, site.translator, relpath)
        key = linker.resolve_key(site.key, relpath)
        explicit = _linked(linker, site.namespace, relpath)
        bound = _linked(linker, translator.namespace, relpath) if explicit is None else None
        if translator.typed and _unknown_namespace(bound, syntax):
            bound = OPAQUE  # a type's namespace the locale lacks: any namespace, as a bare type
        prefixes, prefix_readings = site_prefixes(
            _selector_path(_linked(linker, translator.prefix, relpath), syntax),
            _selector_path(_linked(linker, site.key_prefix, relpath), syntax),
            translator.fixed,
        )
        context = _linked(linker, site.context, relpath)
        default = _linked(linker, site.default, relpath)
        assert key is not None
        readings = self._readings(relpath, site, translator, key, explicit, bound, linker)
        meanings = [
            resolve_key(reading, prefix, context, space, syntax, subtree=site.subtree)
            for prefix in prefixes
            for reading, reading_spaces in readings
            for space in reading_spaces
        ]
        if isinstance(site.key, AutoId):
            # A message written without an id, which no Babel plugin we know gives one.
            meanings = [
                meaning._replace(dynamic_kind=MISSING_ID)
                if meaning.dynamic_kind == "non_literal"
                else meaning
                for meaning in meanings
            ]
        if len(meanings) == 1:
            keys, spellings = meanings[0].keys, site.spellings
        else:
            keys = list(dict.fromkeys(slot for meaning in meanings for slot in meaning.keys))
            spellings = site.spellings or prefix_readings or len(meanings) > len(prefixes)
        text = static_text(default) or None
        written = len(keys)
        if site.generated:
            # Lingui's generated ids: spellings a catalog keyed by them holds instead
            space = keys[0][0] if keys else None
            keys = list(dict.fromkeys([*keys, *((space, found) for found in site.generated)]))
            spellings = True
        for rank, (key_namespace, path) in enumerate(keys):
            observations.append(
                KeyObservation(
                    self._shared(path),
                    relpath,
                    site.line,
                    site.column,
                    site.plural,
                    meanings[0].context,
                    key_namespace,
                    site.subtree,
                    text,
                    rank if spellings else None,
                    site.end_line,
                    site.end_column,
                    site.description,
                    tuple(site.answered),
                    rank >= written,
                )
            )
        reaches: dict[tuple[str | None, str | None, str], str] = {}
        for meaning in meanings:
            if meaning.dynamic_kind is not None:
                for reach in meaning.reaches:
                    slot = (reach.namespace, reach.prefix, reach.suffix)
                    reaches.setdefault(slot, meaning.dynamic_kind)
        if not reaches:
            return
        dynamic.extend(
            DynamicSite(
                relpath,
                site.line,
                site.column,
                kind,
                site.preview,
                prefix,
                reached,
                site.end_line,
                site.end_column,
                suffix,
                translator.prefix_prop or "",
            )
            for (reached, prefix, suffix), kind in reaches.items()
        )

    def _readings(
        self,
        relpath: str,
        site: SiteFact,
        translator: Translator,
        key: Expr,
        explicit: Expr | None,
        bound: Expr | None,
        linker: Linker,
    ) -> list[tuple[Expr, list[Namespace]]]:
        """Each key a site may mean (several: spellings of one key), with the namespaces it is
        read in: the site's (each of a list, `<Trans tOptions={{ ns }}>`'s too), or the one a
        selector's path names (see `scan.selectors`)."""
        syntax = self.options.syntax
        spaces = [
            namespace
            for chosen in site_namespaces(explicit, bound, syntax)
            for namespace in self._namespaces(relpath, chosen)
        ]
        also = _linked(linker, site.also_namespace, relpath)
        if isinstance(also, Text) and syntax.uses_namespaces:
            spaces = list(dict.fromkeys([*spaces, Namespace(also.value, True)]))
        if not has_selector(key):
            return [(key, spaces)]
        scope = selector_scope(
            explicit,
            _linked(linker, translator.namespace, relpath),
            [_linked(linker, part, relpath) or OPAQUE for part in translator.scope],
            translator.fixed,
            syntax,
        )
        return [
            (reading.key, [Namespace(reading.namespace, True)])
            if reading.namespace is not None and syntax.uses_namespaces
            else (reading.key, spaces)
            for reading in selector_readings(key, scope, syntax)
        ]

    def _with_prop_prefixes(self, dynamic: list[DynamicSite]) -> list[DynamicSite]:
        """`dynamic` with, for each site whose `keyPrefix` is a component prop, a site per
        text the project passes to that prop (`i18nKeyPrefix="question"` in any file): its
        keys are read under that prefix, and protected, never proven (which text reaches
        which call is not known). The site itself stays: a caller may pass anything."""
        values = self._prefix_values()
        linker = Linker(
            self._facts_of, self._resolve_module, self.current.get, self.message_ids.resolve
        )
        added: dict[DynamicSite, None] = {}
        for found in dynamic:
            texts = values.get(found.prefix_prop) if found.prefix_prop else None
            facts = self._facts_of(found.file) if texts else None
            if facts is None or texts is None:
                continue
            place = (found.line, found.column)
            site = next((s for s in facts.sites if (s.line, s.column) == place), None)
            if site is None:
                continue
            key = _linked(linker, site.key, found.file)
            assert key is not None
            key = plain_key(key, self.options.syntax)
            space = Namespace(found.namespace, found.namespace is not None)
            for text in texts:
                meaning = resolve_key(key, Text(text), None, space, self.options.syntax)
                heads: list[tuple[str | None, str | None, str]] = [
                    (namespace, path, "") for namespace, path in meaning.keys
                ]
                heads += [(r.namespace, r.prefix, r.suffix) for r in meaning.reaches]
                for namespace, head, tail in heads:
                    if head is None and not tail:
                        continue
                    reached = msgspec.structs.replace(
                        found, prefix=head, namespace=namespace, suffix=tail
                    )
                    added[reached] = None
        known = set(dynamic)
        return [*dynamic, *(site for site in added if site not in known)]

    def _prefix_values(self) -> dict[str, list[str]]:
        """Each attribute named like a key prefix → the texts the project's files give it
        (`FileFacts.prefix_props`; files named with such an attribute are always parsed)."""
        values: dict[str, dict[str, None]] = {}
        for relpath in self.discovered:
            facts = self.facts.get(relpath)
            if facts is None and (encoded := self.current.get(relpath)) is not None:
                entry = decode_file(encoded)
                facts = entry.facts if entry is not None else None
            for name, text in facts.prefix_props if facts is not None else ():
                values.setdefault(name, {})[text] = None
        return {name: list(texts) for name, texts in values.items()}

    def _namespaces(self, relpath: str, space: Namespace) -> list[Namespace]:
        """Where keys of a site in `relpath` that name no namespace go: the namespace the code
        chose, else the file's scope's default and then its fallbacks (`options.scopes`; one
        of them holding the key is enough), else `space` (the project's default)."""
        if space.chosen or not self.options.scopes or space.name is None:
            return [space]
        rule = self.scope_rules.get(relpath)
        if rule is None:
            rule = self.scope_rules[relpath] = _scope_rule(self.options.scopes, relpath)
        if rule is None:
            return [space]
        return [Namespace(name, False) for name in dict.fromkeys([rule.default, *rule.fallbacks])]

    def _shared(self, key: str) -> str:
        """`key`, as the caller's own string when it is one of the texts asked for (`wanted`,
        the locale's paths): each key a site uses is then held once, not again by each of its
        observations (~60 bytes a site in a 100k-site scan)."""
        if not self.wanted:
            return key
        if self.interned is None:  # the texts by themselves: a lookup costs no hashing of ours
            self.interned = {text: text for text in self.wanted.values()}
        return self.interned.get(key, key)

    def _literal_sites(self, repository: RepositoryReading | None) -> list[LiteralSite]:
        """The first quoted occurrence, per scanned file (and per file of the repository read
        besides), of each text the caller asked for."""
        sites = [
            LiteralSite(text, relpath, line, column)
            for relpath, hits in self.literal_hits.items()
            if relpath in self.discovered
            for text, line, column in hits
        ]
        if repository is not None:
            sites.extend(repository.literals)
        return sorted(sites)

    # -- reporting ------------------------------------------------------------------------------

    def _report_syntax_errors(self) -> None:
        # Only the files whose facts were needed (with key sites, or looked up) are noted.
        for relpath in sorted(self.syntax_errors):
            line, column = self.syntax_errors[relpath]
            self.issues.append(
                warning(
                    Code.SCAN_PARSE_ERROR,
                    f"{relpath}:{line}:{column}: syntax error; keys after it may be missed. "
                    "Fix the syntax so the file parses cleanly.",
                    path=relpath,
                )
            )

    def _report_message_ids(self, dynamic: list[DynamicSite]) -> None:
        """Say which FormatJS messages have ids that are not known, and why."""
        unknown = [site for site in dynamic if site.kind == DERIVED_ID]
        if unknown:
            scopes = [scope for scope in self.options.message_ids if scope.problem is not None]
            reasons = "; ".join(f"{scope.config}: {scope.problem}" for scope in scopes)
            self.issues.append(
                warning(
                    Code.SCAN_MESSAGE_IDS_UNKNOWN,
                    f"{len(unknown)} FormatJS message site(s) (declarations and uses) get "
                    "their id from babel-plugin-react-intl-auto or `formatjs extract`, whose "
                    "options i18nprune cannot read "
                    f"({reasons or 'unknown options'}), so their ids are unknown "
                    f"({_named_sites(unknown)}); cleanup and sync remove no key until the "
                    "options can be read: put them in a JSON `.babelrc`/`babel.config.json`, "
                    "or export an object literal from `babel.config.js`",
                    path=scopes[0].config if scopes else unknown[0].file,
                )
            )
        without = [site for site in dynamic if site.kind == MISSING_ID]
        if without:
            self.issues.append(
                warning(
                    Code.SCAN_MESSAGES_WITHOUT_ID,
                    f"{len(without)} FormatJS message site(s) have no `id` "
                    f"({_named_sites(without)}), and no Babel config i18nprune reads gives them "
                    "one, so they name no key; if babel-plugin-react-intl-auto gives them ids, "
                    "configure it in `.babelrc`, `babel.config.json` or a `babel.config.js` "
                    "that exports an object literal",
                    path=without[0].file,
                )
            )

    def _save_cache(self) -> None:
        if self.stream is not None:
            stream, self.stream = self.stream, None
            self._note_cache_issues(stream.finish(self._unstreamed(), self.link_snapshot))
            return
        cache_dir = self.options.cache_dir
        if cache_dir is None or self.options.overlay:
            return  # an overlay's facts are not those of the files on disk
        if not self.options.cache_writable:
            remember_scan(self.identity, self.current)
            return
        if (
            not self.changed
            and self.current.keys() == self.previous.keys()
            and (self.link_snapshot is None or self.link_recalled)
        ):
            return  # (a linking that was recalled is the one saved)
        self._note_cache_issues(
            save_cache(cache_dir, self.identity, self.current, self.link_snapshot)
        )

    def _note_cache_issues(self, issues: list[Issue]) -> None:
        known = {(issue.code, issue.path) for issue in self.issues}
        # A cache that could not be read usually cannot be written either: say it once.
        self.issues.extend(issue for issue in issues if (issue.code, issue.path) not in known)

    def _unstreamed(self) -> Iterator[tuple[str, EncodedFile]]:
        """The records kept that were not written as they were made (reused ones, and those of
        files outside the sources)."""
        current = self.current
        for relpath, streamed in zip(self.files.relpaths, self.streamed, strict=True):
            if streamed < 0 and (record := current.get(relpath)) is not None:
                yield relpath, record
        for relpath in self.outside:
            if (record := current.get(relpath)) is not None:
                yield relpath, record

    def _account(self, relpath: str) -> None:
        """Count a discovered file as handled, once, for progress reports (call it before the
        file's record or issue is kept)."""
        if (
            relpath not in self.current
            and relpath not in self.unreadable
            # A file kept is discovered, or one `_outside_file` looked up (never both).
            and relpath not in self.outside
        ):
            self.accounted += 1
            self._progress()

    def _progress(self, *, force: bool = False) -> None:
        if self.on_progress is None:
            return
        now = time.monotonic()
        if force or now - self.reported_at >= _PROGRESS_INTERVAL_S:
            self.reported_at = now
            self.on_progress(self.accounted, len(self.discovered))


def _scope_rule(rules: list[ScopeRule], relpath: str) -> ScopeRule | None:
    """The innermost of `rules` whose folder holds `relpath`."""
    holding = [
        rule
        for rule in rules
        if not rule.folder or relpath == rule.folder or relpath.startswith(rule.folder + "/")
    ]
    return max(holding, key=lambda rule: len(rule.folder), default=None)


class _Listed(Collection[str]):
    """The paths of discovered files (sorted), in order, as a collection: membership by
    bisection rather than a table (~37 bytes a file at 100k files)."""

    __slots__ = ("_files",)

    def __init__(self, files: SourceFiles) -> None:
        self._files = files

    def __contains__(self, relpath: object) -> bool:
        return isinstance(relpath, str) and self._files.index_of(relpath) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self._files.relpaths)

    def __len__(self) -> int:
        return len(self._files.relpaths)


_NO_LITERALS = LiteralIndex()
_NO_SITES = encode_file(CachedFile(0, 0, 0, b"", False, False, _NO_LITERALS, None))
"""What a cold scan keeps of each file without key sites whose record it wrote out."""


def _encoded(entry: CachedFile) -> bytes:
    """`entry` encoded, in a bytes object of its exact size: the encoder's buffer is larger,
    and an allocator that shrinks it in place keeps the difference (~70 of ~370 bytes a file
    in a scan that keeps every record)."""
    return bytes(memoryview(encode_file(entry)))


_Sited = TypeVar("_Sited", KeyObservation, DynamicSite)


def _sort_by_file(items: list[_Sited], key: Callable[[_Sited], tuple[str | int, ...]]) -> None:
    """`items.sort(key=key)`, where `key` starts with the item's file: when the items come
    grouped by file in file order (as linking makes them), each file's run is sorted alone, so
    that the keys of 100k sites are not all held at once at the scan's peak."""
    start, count = 0, len(items)
    previous: str | None = None
    while start < count:
        file = items[start].file
        if previous is not None and file <= previous:
            items.sort(key=key)  # not grouped: stable, so the runs sorted so far do not matter
            return
        end = start + 1
        while end < count and items[end].file == file:
            end += 1
        if end - start > 1:
            items[start:end] = sorted(items[start:end], key=key)
        previous, start = file, end


_NAMED_SITES = 3


def _named_sites(sites: list[DynamicSite]) -> str:
    """The first sites, `file:line` with their source, and how many more."""
    named = ", ".join(f"{s.file}:{s.line} `{s.preview}`" for s in sites[:_NAMED_SITES])
    more = len(sites) - _NAMED_SITES
    return named + (f" and {more} more" if more > 0 else "")


def _vouches_for(known: CachedStat, file: SourceFile) -> bool:
    """Whether `known`'s stat proves that `file` still has the content `known` describes."""
    return known.stat_trusted and (known.size, known.mtime_ns, known.inode) == (
        file.size,
        file.mtime_ns,
        file.inode,
    )


def _unknown_namespace(namespace: Expr | None, syntax: KeySyntax) -> bool:
    """Whether `namespace` is a literal namespace the source locale does not have."""
    known = syntax.namespaces
    return known is not None and isinstance(namespace, Text) and namespace.value not in known


def _hooked(linker: Linker, translator: Translator, relpath: str) -> Translator:
    """The translator of a site, where the app's own hook that made it (`Translator.hook`)
    says its namespace and key prefix; as it is when the hook is not one linking can read."""
    if translator.hook is None:
        return translator
    made = linker.resolve(translator.hook, relpath)
    if not isinstance(made, Record) or HOOK not in made.fields:
        return translator
    prefix, namespace = made.fields.get(HOOK_PREFIX), made.fields.get(HOOK_NAMESPACE)
    if not all(value is None or isinstance(value, Text) for value in (prefix, namespace)):
        return translator  # values of the hook's own file that are not literal: not known here
    return Translator(prefix, namespace, fixed=True)


def _selector_path(value: Expr | None, syntax: KeySyntax) -> Expr | None:
    """A `keyPrefix` given as a selector (`{ keyPrefix: $ => $.login }`) as its path."""
    return plain_key(value, syntax) if value is not None else None


def _linked(linker: Linker, value: Expr | None, relpath: str) -> Expr | None:
    """`value` as written in `relpath`, with what it imports from other files resolved."""
    if value is None or not needs_linking(value):
        return value
    return linker.resolve(value, relpath)


def _suffix(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    return name[dot:] if dot > 0 else ""
