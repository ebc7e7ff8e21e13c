"""`scan_project`: discover, reuse cached per-file facts, examine what changed, link, report.
Linking always runs on the facts, so a warm scan reports exactly what a cold one does.
"""

from __future__ import annotations

import os
import posixpath
import stat
import time
from collections.abc import Callable, Collection

from i18nprune.envelope import Code, Issue, warning
from i18nprune.scan.cache import (
    FACTS_VERSION,
    CachedFile,
    load_cache,
    recall_scan,
    remember_scan,
    save_cache,
)
from i18nprune.scan.callees import CalleeNames
from i18nprune.scan.discovery import SourceFile, discover_sources
from i18nprune.scan.examine import (
    Examined,
    content_digest,
    examine_content,
    examine_path,
    read_source,
)
from i18nprune.scan.expressions import Expr, reads_imports
from i18nprune.scan.facts import FileFacts, SiteFact
from i18nprune.scan.grammars import SOURCE_SUFFIXES, grammar_versions
from i18nprune.scan.key_shapes import resolve_key, site_namespace, static_text
from i18nprune.scan.link import Linker
from i18nprune.scan.literals import text_hash
from i18nprune.scan.parallel import examine_in_processes
from i18nprune.scan.records import (
    DynamicSite,
    KeyObservation,
    LiteralSite,
    ScanOptions,
    ScanResult,
)

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
) -> ScanResult:
    """Find every translation key the project's source uses (PRODUCT §3).

    Synchronous and deterministic; results of a warm (cached) scan equal a cold scan's.
    `on_progress(done, total)` is called from this thread as files are accounted for. Problems
    with single files, symlinks or the cache become issues; nothing a user can cause raises.
    `stale` names files (relative to the root) known to have changed since they were cached:
    their content is read again even when their stat looks unchanged (a host that watches the
    files, such as `serve`, knows this where mtime granularity cannot tell).
    """
    scan = _ProjectScan(options, on_progress)
    scan.stale = frozenset(stale)
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
        self.discovered: dict[str, SourceFile] = {}
        self.previous: dict[str, CachedFile] = {}
        self.by_digest: dict[bytes, CachedFile] = {}
        self.current: dict[str, CachedFile] = {}
        self.facts: dict[str, FileFacts] = {}
        self.outside: dict[str, SourceFile | None] = {}
        self.located: dict[str, str | None] = {}
        self.needed: set[str] = set()
        self.in_flight: dict[str, SourceFile] = {}
        self.parsed = 0
        self.cache_hits: set[str] = set()
        self.accounted: set[str] = set()
        self.reported_at = 0.0
        self.unreadable: set[str] = set()
        self.changed = False
        self.stale: frozenset[str] = frozenset()

    def run(self) -> ScanResult:
        discovery = discover_sources(self.options.root, self.options.src_dirs, self.options.exclude)
        self.issues.extend(discovery.issues)
        self.discovered = {file.relpath: file for file in discovery.files}
        if self.options.cache_dir is not None:
            self.previous, cache_issues = load_cache(self.options.cache_dir, self.identity)
            self.issues.extend(cache_issues)
            if not self.options.cache_writable:  # what this process scanned since is newer
                self.previous = {**self.previous, **recall_scan(self.identity)}
            self.by_digest = {entry.digest: entry for entry in self.previous.values()}
        overlay = self.options.overlay or {}
        pending = [
            file
            for file in discovery.files
            if file.relpath not in overlay and not self._reuse_by_stat(file)
        ]
        self._progress(force=True)
        self._examine_overlay(overlay)
        self._examine(pending)
        observations, dynamic = self._link()
        self._report_syntax_errors()
        self._save_cache()
        self._progress(force=True)
        return ScanResult(
            files=len(discovery.files),
            parsed=self.parsed,
            cache_hits=len(self.cache_hits),
            observations=observations,
            dynamic=dynamic,
            issues=sorted(self.issues, key=lambda i: (i.path or "", i.code, i.message)),
            literals=self._literal_sites(),
            excluded=discovery.excluded,
        )

    # -- facts: from the cache, or examined now -------------------------------------------

    def _reuse_by_stat(self, file: SourceFile) -> bool:
        entry = self.previous.get(file.relpath)
        if (
            entry is None
            or not entry.stat_trusted
            or (entry.size, entry.mtime_ns, entry.inode) != (file.size, file.mtime_ns, file.inode)
            or file.relpath in self.stale
        ):
            return False
        self._adopt(file.relpath, entry)
        return True

    def _adopt(self, relpath: str, entry: CachedFile) -> None:
        self.current[relpath] = entry
        if entry.facts is not None:
            self.facts[relpath] = entry.facts
        self.cache_hits.add(relpath)
        self._account(relpath)

    def _entry(self, file: SourceFile, known: CachedFile | Examined) -> CachedFile:
        """What to remember of `file`, whose content is what `known` describes."""
        return CachedFile(
            size=file.size,
            mtime_ns=file.mtime_ns,
            inode=file.inode,
            digest=known.digest,
            triggered=known.triggered,
            stat_trusted=file.mtime_ns < self.started_ns - _RACY_WINDOW_NS,
            facts=known.facts,
            literals=known.literals,
        )

    def _examine(self, pending: list[SourceFile]) -> None:
        """Examine files whose stat changed: reuse facts of known content, parse the rest."""
        to_parse, contents = self._reuse_by_digest(pending)
        jobs = self.options.jobs or _usable_cpus()
        total_bytes = sum(file.size for file in to_parse)
        if jobs > 1 and len(to_parse) >= _PARALLEL_MIN_FILES and total_bytes >= _PARALLEL_MIN_BYTES:
            self.in_flight = {file.relpath: file for file in to_parse}
            examine_in_processes(
                [(file.relpath, file.path, file.size) for file in to_parse],
                self.functions,
                min(jobs, len(to_parse)),
                self._record_batch,
                examine_here=self.options.examine_here,
            )
            return
        for file in to_parse:
            known_content = contents.pop(file.relpath, None)
            examined = (
                examine_path(file.relpath, file.path, self.functions, force=False)
                if known_content is None
                else examine_content(file.relpath, known_content, self.functions, force=False)
            )
            self._record(file, examined)

    def _examine_overlay(self, overlay: dict[str, bytes]) -> None:
        """Examine the given contents in place of the files on disk; a path that is not one of
        the project's source files is an issue."""
        for relpath, content in overlay.items():
            file = self.discovered.get(relpath)
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

    def _reuse_by_digest(
        self, pending: list[SourceFile]
    ) -> tuple[list[SourceFile], dict[str, bytes]]:
        """Adopt cached facts of files whose content is known; the rest, with what was read."""
        if not self.by_digest:
            return pending, {}
        to_parse: list[SourceFile] = []
        contents: dict[str, bytes] = {}
        for file in pending:
            content = read_source(file.path, file.relpath)
            if isinstance(content, Issue):
                self._record(file, Examined(file.relpath, b"", False, None, issue=content))
                continue
            known = self.by_digest.get(content_digest(content, _suffix(file.relpath)))
            if known is None:
                to_parse.append(file)
                contents[file.relpath] = content
                continue
            self._adopt(file.relpath, self._entry(file, known))
            self.changed = True
        return to_parse, contents

    def _record_batch(self, batch: list[Examined]) -> None:
        for examined in batch:
            self._record(self.in_flight[examined.relpath], examined)

    def _record(self, file: SourceFile, examined: Examined) -> None:
        self._account(file.relpath)
        if examined.issue is not None:
            self.issues.append(examined.issue)
            self.unreadable.add(file.relpath)
            return
        self.changed = True
        self.current[file.relpath] = self._entry(file, examined)
        if examined.facts is not None:
            self.parsed += 1
            self.facts[file.relpath] = examined.facts

    def _facts_of(self, relpath: str) -> FileFacts | None:
        """The facts of any project file, parsed now if they were never needed before."""
        self.needed.add(relpath)
        facts = self.facts.get(relpath)
        if facts is not None or relpath in self.unreadable:
            return facts
        file = self.discovered.get(relpath) or self._outside_file(relpath)
        if file is None:
            return None
        entry = self.current.get(relpath) or self.previous.get(relpath)
        if (
            entry is not None
            and entry.facts is not None
            and (entry.size, entry.mtime_ns, entry.inode) == (file.size, file.mtime_ns, file.inode)
            and entry.stat_trusted
            and relpath not in self.stale
        ):
            self._adopt(relpath, entry)
            return entry.facts
        if entry is not None and entry.facts is None and relpath in self.current:
            # Prefiltered this run: the content hash may still name facts parsed earlier.
            known = self.by_digest.get(entry.digest)
            if known is not None and known.facts is not None:
                self._adopt(relpath, self._entry(file, known))
                self.changed = True
                return known.facts
        examined = examine_path(relpath, file.path, self.functions, force=True)
        self._record(file, examined)
        return examined.facts

    def _outside_file(self, relpath: str) -> SourceFile | None:
        """A project file that discovery did not list (outside `src`, or excluded)."""
        if relpath not in self.outside:
            path = os.path.join(self.root, relpath)
            try:
                status = os.stat(path)
            except OSError:
                status = None
            self.outside[relpath] = (
                SourceFile(relpath, path, status.st_size, status.st_mtime_ns, status.st_ino)
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
            entry = self.current.get(relpath)
            if entry is None or not entry.triggered or entry.facts is None:
                continue
            self.needed.add(relpath)
            for site in entry.facts.sites:
                self._site(relpath, site, linker, observations, dynamic)
        return (
            sorted(observations, key=lambda o: (o.file, o.line, o.column, o.key)),
            sorted(dynamic, key=lambda d: (d.file, d.line, d.column, d.kind, d.preview)),
        )

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
        if not self.options.literal_texts:
            return []
        wanted = {text_hash(text): text for text in self.options.literal_texts}
        sites = [
            LiteralSite(text, relpath, line, column)
            for relpath in self.discovered
            if (entry := self.current.get(relpath)) is not None
            for text, line, column in entry.literals.find(wanted)
        ]
        return sorted(sites, key=lambda site: (site.text, site.file, site.line, site.column))

    # -- reporting ------------------------------------------------------------------------------

    def _report_syntax_errors(self) -> None:
        for relpath in sorted(self.needed):
            facts = self.facts.get(relpath)
            if facts is None or facts.syntax_error is None:
                continue
            line, column = facts.syntax_error
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
        """Count a discovered file as handled, once, for progress reports."""
        if relpath in self.discovered and relpath not in self.accounted:
            self.accounted.add(relpath)
            self._progress()

    def _progress(self, *, force: bool = False) -> None:
        if self.on_progress is None:
            return
        now = time.monotonic()
        if force or now - self.reported_at >= _PROGRESS_INTERVAL_S:
            self.reported_at = now
            self.on_progress(len(self.accounted), len(self.discovered))


def _linked(linker: Linker, value: Expr | None, relpath: str) -> Expr | None:
    """`value` as written in `relpath`, with what it imports from other files resolved."""
    if value is None or not reads_imports(value):
        return value
    return linker.resolve(value, relpath)


def _usable_cpus() -> int:
    """CPUs this process may run on (its affinity mask, which containers narrow)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def _suffix(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    return name[dot:] if dot > 0 else ""
