"""`scan_project`: discover, reuse cached per-file facts, examine what changed, link, report.
Linking always runs on the facts, so a warm scan reports exactly what a cold one does.

Each file's record is kept encoded (see `cache`) and decoded where a step needs it; what the
result needs of a file's quoted texts is taken as its record arrives.
"""

from __future__ import annotations

import os
import posixpath
import stat
import time
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

from i18nprune.envelope import Code, Issue, warning
from i18nprune.scan.cache import (
    FACTS_VERSION,
    CachedFile,
    CachedStat,
    EncodedFile,
    decode_file,
    decode_literals,
    decode_stat,
    encode_file,
    load_cache,
    recall_scan,
    remember_scan,
    save_cache,
)
from i18nprune.scan.callees import CalleeNames
from i18nprune.scan.discovery import Discovery, SourceFile, discover_sources
from i18nprune.scan.expressions import Expr, reads_imports
from i18nprune.scan.facts import FileFacts, SiteFact
from i18nprune.scan.grammars import SOURCE_SUFFIXES, grammar_versions
from i18nprune.scan.key_shapes import resolve_key, site_namespace, static_text
from i18nprune.scan.link import Linker
from i18nprune.scan.literals import LiteralIndex, text_hash
from i18nprune.scan.records import (
    DynamicSite,
    ExcludedFolder,
    KeyObservation,
    LiteralSite,
    ScanOptions,
    ScanResult,
)
from i18nprune.system.children import usable_cpus

if TYPE_CHECKING:
    # Imported where a file is examined: a warm scan that reuses every record (most runs of a
    # short command) does not load the parsers' modules nor the worker plumbing.
    from i18nprune.scan.examine import Examined
    from i18nprune.scan.parallel import ParseWorkers

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
) -> ScanResult:
    """Find every translation key the project's source uses (PRODUCT §3).

    Synchronous and deterministic; results of a warm (cached) scan equal a cold scan's.
    `on_progress(done, total)` is called from this thread as files are accounted for. Problems
    with single files, symlinks or the cache become issues; nothing a user can cause raises.
    `stale` names files (relative to the root) known to have changed since they were cached:
    their content is read again even when their stat looks unchanged (a host that watches the
    files, such as `serve`, knows this where mtime granularity cannot tell). `discovery` is
    what `discover_sources` finds for the options now, when the host knows it (see
    `rediscover`); without it the scan walks the source directories.
    """
    scan = _ProjectScan(options, on_progress)
    scan.stale = frozenset(stale)
    scan.given_discovery = discovery
    return scan.run()


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
        self.issues: list[Issue] = []
        self.discovered: dict[str, SourceFile | None] = {}
        """Every file to scan; `None` once the file's record holds its stat (see `_source_file`)."""
        self.previous: dict[str, EncodedFile] = {}
        self.by_digest: dict[bytes, EncodedFile] | None = None
        self.current: dict[str, EncodedFile] = {}
        self.facts: dict[str, FileFacts] = {}
        """Decoded facts of the files linking looked up (their exports), by relpath."""
        self.syntax_errors: dict[str, tuple[int, int]] = {}
        self.wanted = {text_hash(text): text for text in options.literal_texts or ()}
        self.literal_hits: dict[str, list[tuple[str, int, int]]] = {}
        self.outside: dict[str, SourceFile | None] = {}
        self.located: dict[str, str | None] = {}
        self.in_flight: dict[str, SourceFile] = {}
        self.parsed = 0
        self.cache_hits: set[str] = set()
        self.accounted = 0
        self.reported_at = 0.0
        self.unreadable: set[str] = set()
        self.changed = False
        self.stale: frozenset[str] = frozenset()
        self.given_discovery: Discovery | None = None
        self.early: ParseWorkers | None = None

    def run(self) -> ScanResult:
        if self.options.cache_dir is not None:
            self.previous, cache_issues = load_cache(self.options.cache_dir, self.identity)
            self.issues.extend(cache_issues)
            if not self.options.cache_writable:  # what this process scanned since is newer
                self.previous = {**self.previous, **recall_scan(self.identity)}
        self.early = self._start_workers_early()
        try:
            return self._run()
        finally:
            if self.early is not None:
                self.early.stop()

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
        self._report_syntax_errors()
        self._save_cache()
        self._progress(force=True)
        return ScanResult(
            files=len(self.discovered),
            parsed=self.parsed,
            cache_hits=len(self.cache_hits),
            observations=observations,
            dynamic=dynamic,
            issues=sorted(self.issues, key=lambda i: (i.path or "", i.code, i.message)),
            literals=self._literal_sites(),
            excluded=excluded,
        )

    def _discover(self) -> list[ExcludedFolder]:
        """List the files to scan; the folders an exclude rule kept out."""
        discovery = self.given_discovery or discover_sources(
            self.options.root, self.options.src_dirs, self.options.exclude
        )
        self.issues.extend(discovery.issues)
        self.discovered = {file.relpath: file for file in discovery.files}
        return discovery.excluded

    # -- facts: from the cache, or examined now -------------------------------------------

    def _reuse_by_stat(self, overlay: Collection[str]) -> dict[str, SourceFile]:
        """Adopt the cached record of each discovered file (not in `overlay`) whose stat vouches
        for it; the files left to examine."""
        in_flight: dict[str, SourceFile] = {}
        previous = self.previous
        stale = self.stale
        for file in self.discovered.values():
            if file is None or file.relpath in overlay:
                continue
            relpath = file.relpath
            encoded = previous.get(relpath)
            if encoded is not None and relpath not in stale:
                known = decode_literals(encoded)
                if known is not None and _vouches_for(known, file):
                    self._adopt(relpath, encoded, known.literals)
                    continue
            in_flight[relpath] = file
        return in_flight

    def _adopt(self, relpath: str, encoded: EncodedFile, literals: LiteralIndex) -> None:
        self._account(relpath)
        self._keep(relpath, encoded, literals)
        self.cache_hits.add(relpath)

    def _keep(self, relpath: str, encoded: EncodedFile, literals: LiteralIndex) -> None:
        """Make `encoded` the file's record, noting which of its quoted texts (`literals`)
        were asked for."""
        self.current[relpath] = encoded
        if relpath in self.discovered:
            self.discovered[relpath] = None  # its stat is in its record now
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
        self._adopt(file.relpath, _encoded(self._entry(file, entry)), entry.literals)
        self.changed = True
        return entry

    def _examine(self) -> None:
        """Examine the files `in_flight` (their stat changed): reuse facts of known content,
        parse the rest. Each file leaves `in_flight` as it is recorded, so that nothing holds
        its discovery record any longer; the emptied table goes too (a dict keeps its size)."""
        if self.in_flight:
            self._examine_in_flight()
        if self.early is not None:
            self.early.stop()  # the workers the examination did not need
        self.in_flight = {}

    def _examine_in_flight(self) -> None:
        from i18nprune.scan.examine import examine_content, examine_path
        from i18nprune.scan.parallel import examine_in_processes

        contents = self._reuse_by_digest()
        jobs = self.options.jobs or usable_cpus()
        total_bytes = sum(file.size for file in self.in_flight.values())
        count = len(self.in_flight)
        if jobs > 1 and count >= _PARALLEL_MIN_FILES and total_bytes >= _PARALLEL_MIN_BYTES:
            examine_in_processes(
                self.root,
                self.in_flight.values(),
                self.functions,
                min(jobs, count),
                self._record_batch,
                examine_here=self.options.examine_here,
                started=self.early,
            )
            return
        for relpath in list(self.in_flight):
            file = self.in_flight.pop(relpath)
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
        `in_flight`); what was read of the rest, unless that is more than parsing here takes
        (worker processes read those files again)."""
        from i18nprune.scan.examine import Examined, content_digest, read_source

        if not self.previous:
            return {}
        contents: dict[str, bytes] = {}
        kept_bytes = 0
        for relpath in list(self.in_flight):
            file = self.in_flight[relpath]
            content = read_source(self._path(file), relpath)
            if isinstance(content, Issue):
                self._record(
                    self.in_flight.pop(relpath), Examined(relpath, b"", False, None, issue=content)
                )
                continue
            known = self._known_content(content_digest(content, _suffix(relpath)))
            if known is not None and self._adopt_content(file, known) is not None:
                del self.in_flight[relpath]
            elif kept_bytes + len(content) < _PARALLEL_MIN_BYTES:
                contents[relpath] = content
                kept_bytes += len(content)
        return contents

    def _record_batch(self, batch: list[Examined]) -> None:
        for examined in batch:
            self._record(self.in_flight.pop(examined.relpath), examined)

    def _record(self, file: SourceFile, examined: Examined) -> None:
        self._account(file.relpath)
        if examined.issue is not None:
            self.issues.append(examined.issue)
            self.unreadable.add(file.relpath)
            return
        self.changed = True
        self._keep(file.relpath, _encoded(self._entry(file, examined)), examined.literals)
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
        if facts.syntax_error is not None:
            self.syntax_errors[relpath] = facts.syntax_error
        else:
            self.syntax_errors.pop(relpath, None)

    def _source_file(self, relpath: str) -> SourceFile | None:
        """A project file with the stat this scan found it with, or `None` when there is no
        such regular file inside the root."""
        if relpath not in self.discovered:
            return self._outside_file(relpath)
        file = self.discovered[relpath]
        if file is not None:
            return file
        known = decode_stat(self.current[relpath])
        assert known is not None  # the record was decoded when it was kept
        return SourceFile(relpath, known.size, known.mtime_ns, known.inode)

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
        """The project file a relative import in `importer` refers to, if it exists."""
        base = posixpath.normpath(posixpath.join(posixpath.dirname(importer), specifier))
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
        linker = Linker(self._facts_of, self._resolve_module)
        observations: list[KeyObservation] = []
        dynamic: list[DynamicSite] = []
        for relpath in self.discovered:
            facts = self._triggered_facts(relpath)
            if facts is None:
                continue
            self._note_syntax_error(relpath, facts)
            for site in facts.sites:
                self._site(relpath, site, linker, observations, dynamic)
        return (
            sorted(observations, key=lambda o: (o.file, o.line, o.column, o.key)),
            sorted(dynamic, key=lambda d: (d.file, d.line, d.column, d.kind, d.preview)),
        )

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
        translator = site.translator
        key = _linked(linker, site.key, relpath)
        explicit = _linked(linker, site.namespace, relpath)
        bound = _linked(linker, translator.namespace, relpath) if explicit is None else None
        prefix = _linked(linker, translator.prefix, relpath)
        context = _linked(linker, site.context, relpath)
        default = _linked(linker, site.default, relpath)
        assert key is not None
        space = site_namespace(explicit, bound, syntax)
        meaning = resolve_key(key, prefix, context, space, syntax)
        text = static_text(default) or None
        for rank, (key_namespace, path) in enumerate(meaning.keys):
            observations.append(
                KeyObservation(
                    path,
                    relpath,
                    site.line,
                    site.column,
                    site.plural,
                    meaning.context,
                    key_namespace,
                    site.subtree,
                    text,
                    rank if site.spellings else None,
                    site.end_line,
                    site.end_column,
                    site.description,
                )
            )
        if meaning.dynamic_kind is not None:
            reaches = [(meaning.dynamic_namespace, meaning.dynamic_prefix)]
            reaches += [(whole, "") for whole in meaning.also_reaches]
            dynamic.extend(
                DynamicSite(
                    relpath,
                    site.line,
                    site.column,
                    meaning.dynamic_kind,
                    site.preview,
                    prefix,
                    reached,
                    site.end_line,
                    site.end_column,
                )
                for reached, prefix in reaches
            )

    def _literal_sites(self) -> list[LiteralSite]:
        """The first quoted occurrence, per scanned file, of each text the caller asked for."""
        sites = [
            LiteralSite(text, relpath, line, column)
            for relpath, hits in self.literal_hits.items()
            if relpath in self.discovered
            for text, line, column in hits
        ]
        return sorted(sites, key=lambda site: (site.text, site.file, site.line, site.column))

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

    def _save_cache(self) -> None:
        cache_dir = self.options.cache_dir
        if cache_dir is None or self.options.overlay:
            return  # an overlay's facts are not those of the files on disk
        if not self.options.cache_writable:
            remember_scan(self.identity, self.current)
            return
        if not self.changed and self.current.keys() == self.previous.keys():
            return
        known = {(issue.code, issue.path) for issue in self.issues}
        # A cache that could not be read usually cannot be written either: say it once.
        self.issues.extend(
            issue
            for issue in save_cache(cache_dir, self.identity, self.current)
            if (issue.code, issue.path) not in known
        )

    def _account(self, relpath: str) -> None:
        """Count a discovered file as handled, once, for progress reports (call it before the
        file's record or issue is kept)."""
        if (
            relpath in self.discovered
            and relpath not in self.current
            and relpath not in self.unreadable
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


def _encoded(entry: CachedFile) -> bytes:
    """`entry` encoded, in a bytes object of its exact size: the encoder's buffer is larger,
    and an allocator that shrinks it in place keeps the difference (~70 of ~370 bytes a file
    in a scan that keeps every record)."""
    return bytes(memoryview(encode_file(entry)))


def _vouches_for(known: CachedStat, file: SourceFile) -> bool:
    """Whether `known`'s stat proves that `file` still has the content `known` describes."""
    return known.stat_trusted and (known.size, known.mtime_ns, known.inode) == (
        file.size,
        file.mtime_ns,
        file.inode,
    )


def _linked(linker: Linker, value: Expr | None, relpath: str) -> Expr | None:
    """`value` as written in `relpath`, with what it imports from other files resolved."""
    if value is None or not reads_imports(value):
        return value
    return linker.resolve(value, relpath)


def _suffix(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    return name[dot:] if dot > 0 else ""
