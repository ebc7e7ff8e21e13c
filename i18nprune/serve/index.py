"""The scan index of a `serve` session: each root's last scans, and the snapshots ops derive
from its files, kept while inotify reports no change under the root, so a warm request neither
walks nor reads the project's files.

Where changes cannot be watched (not Linux, a network or FUSE filesystem, the watch limit
reached) every scan walks the files, as the CLI does. See docs/serve.md and
docs/architecture.md#the-scan-index-and-buffer-contexts.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from pathlib import Path
from typing import NamedTuple

from i18nprune.config.schema import ExcludeConfig
from i18nprune.scan import ScanOptions, ScanResult, scan_project
from i18nprune.scan.callees import reads_templates
from i18nprune.scan.discovery import Discovery, discover_sources, rediscover
from i18nprune.scan.link import LinkMemo
from i18nprune.scan.project_scan import BufferContext, BufferSites, discovery_context
from i18nprune.serve.transport import notice
from i18nprune.system.inotify import (
    CHANGES,
    IN_CREATE,
    IN_DONT_FOLLOW,
    IN_IGNORED,
    IN_ISDIR,
    IN_MOVED_FROM,
    IN_MOVED_TO,
    IN_ONLYDIR,
    IN_Q_OVERFLOW,
    Event,
    Inotify,
    sees_every_change,
)

ProgressCallback = Callable[[int, int], None]

UNWATCHED_DIRS = frozenset({".git", "node_modules"})
"""Directories never watched: large or busy, and never part of a scan (discovery skips them and
imports are resolved only by relative specifiers within the source)."""
MAX_WATCHED_DIRS = 20_000
"""Past this many directories under one root the index stops watching it and walks instead."""
MAX_ROOTS = 8
"""Roots a session's watcher watches at once (hub mode); the least recently named one stops
beyond this."""
MAX_INDEXED_ROOTS = 16
"""Roots whose scans the index keeps; the least recently used one is dropped beyond this. A
workspace root and each of its projects are roots of their own (the root's watch keeps which
projects it holds, each project's its scans), so this is twice the watcher's limit."""
RESULTS_PER_ROOT = 4
"""Scans kept per root: ops ask with different options (validate lists literal texts, generate
does not), and each keeps its own."""
_WATCH_MASK = CHANGES | IN_ONLYDIR | IN_DONT_FOLLOW


class Unwatchable(Exception):
    """Changes under a root cannot be watched; the message says why."""


class TreeWatch:
    """The inotify watches on every directory under one root, and what changed since the
    caller last asked. Not thread-safe: its owner serialises calls (the index's `_RootIndex`
    by its lock, the session's watcher by running them one after another)."""

    def __init__(self, root: str, max_dirs: int) -> None:
        self.root = root
        self.max_dirs = max_dirs
        self.inotify: Inotify | None = None
        self.paths: dict[int, str] = {}
        """Watch descriptor → the directory's path."""
        self.devices: dict[int, bool] = {}
        """st_dev → whether inotify sees every change on that filesystem."""
        self.unnamed = False
        """Whether a change since this was last cleared named no file: a directory removed or
        its attributes changed (its permissions can hide its files). Set by `changes`, cleared
        by the caller that acts on it."""

    def start(self) -> None:
        """Watch every directory under the root. Raises Unwatchable."""
        try:
            self.inotify = Inotify.open()
        except OSError as exc:
            raise Unwatchable(f"inotify is unavailable ({exc.strerror or exc})") from None
        self._watch_tree(self.root)

    def close(self) -> None:
        """Release the inotify instance (idempotent). A trio task waiting on `fileno()` must
        be told first (`trio.lowlevel.notify_closing`)."""
        if self.inotify is not None:
            self.inotify.close()
            self.inotify = None
        self.paths.clear()

    def fileno(self) -> int:
        """The inotify instance's descriptor: readable while events are queued."""
        assert self.inotify is not None
        return self.inotify.fileno()

    def changes(self) -> tuple[bool, set[str]]:
        """Drain the queued events: (whether anything changed, the files named, relative to the
        root). Raises Unwatchable when the watches no longer cover the tree (the queue
        overflowed, a directory moved or the root went away): the caller starts again."""
        assert self.inotify is not None
        try:
            events = self.inotify.read_events()
        except OSError as exc:
            raise Unwatchable(f"reading inotify events failed ({exc.strerror})") from None
        files: set[str] = set()
        for event in events:
            self._apply(event, files)
        return bool(events), files

    def _apply(self, event: Event, files: set[str]) -> None:
        if event.mask & IN_Q_OVERFLOW:
            raise Unwatchable("the inotify queue overflowed")
        if event.mask & IN_IGNORED:
            removed = self.paths.pop(event.wd, None)
            if removed == self.root:
                raise Unwatchable("the project root was removed or moved")
            self.unnamed = True
            return
        directory = self.paths.get(event.wd)
        if directory is None:
            return  # a watch already dropped
        if not event.name:
            if directory == self.root:
                raise Unwatchable("the project root was removed or moved")
            self.unnamed = True
            return
        path = os.path.join(directory, event.name)
        if event.mask & IN_ISDIR:
            if event.name in UNWATCHED_DIRS:
                return
            if not event.mask & IN_CREATE:
                self.unnamed = True
            if event.mask & (IN_MOVED_FROM | IN_MOVED_TO):
                # Watches follow a moved directory's inode: their paths are stale now.
                raise Unwatchable("a directory moved")
            if os.path.isdir(path) and not os.path.islink(path):
                # Files made in it before its watch raise no event of their own: name them here.
                self._watch_tree(path, files)
            return
        files.add(self._relative(path))

    def _relative(self, path: str) -> str:
        return os.path.relpath(path, self.root).replace(os.sep, "/")

    def _watch_tree(self, top: str, found: set[str] | None = None) -> None:
        """Watch `top` and every directory below it (links not followed: their targets inside
        the root are watched where they are); add the other entries met to `found` (relative
        to the root), when given. Raises Unwatchable."""
        assert self.inotify is not None
        pending = [top]
        while pending:
            directory = pending.pop()
            try:
                status = os.lstat(directory)
                self._check_device(directory, status.st_dev)
                wd = self.inotify.add_watch(directory, _WATCH_MASK)
            except FileNotFoundError:
                continue  # gone again: its parent's event says so
            except NotADirectoryError:
                continue
            except OSError as exc:
                raise Unwatchable(f"cannot watch {directory} ({exc.strerror})") from None
            self.paths[wd] = directory
            if len(self.paths) > self.max_dirs:
                raise Unwatchable(f"more than {self.max_dirs:,} directories to watch")
            try:
                with os.scandir(directory) as entries:
                    for entry in entries:
                        if entry.is_dir(follow_symlinks=False):
                            if entry.name not in UNWATCHED_DIRS:
                                pending.append(entry.path)
                        elif found is not None:
                            found.add(self._relative(entry.path))
            except OSError:
                continue  # unreadable: the scan reports it; its events still reach the watch

    def _check_device(self, directory: str, device: int) -> None:
        seen = self.devices.get(device)
        if seen is None:
            seen = self.devices[device] = sees_every_change(directory)
        if not seen:
            raise Unwatchable(f"{directory} is on a network or FUSE filesystem")


class _RootIndex:
    """One root's watch, its kept scans and snapshots; one scan at a time."""

    def __init__(self, root: str, max_dirs: int) -> None:
        self.root = root
        self.max_dirs = max_dirs
        self.lock = threading.Lock()
        self.watch: TreeWatch | None = None
        self.unwatchable: str | None = None
        self.closed = False
        self.invalidated = False
        self.generation = 0
        """Bumped whenever the kept scans stop describing the files (a change under the root, a
        new watch, an invalidation)."""
        self.results: list[tuple[ScanOptions, ScanResult]] = []
        self.contexts: list[tuple[ScanOptions, BufferContext]] = []
        """What the kept scans know of every file, for reading unsaved buffers (see
        `read_buffer`); kept only for options a buffer was read with."""
        self.buffer_options: list[ScanOptions] = []
        """The options buffers were last read with (a few, most recent last)."""
        self.discovered_contexts: list[tuple[ScanOptions, BufferContext]] = []
        """Files-only contexts, for reading buffers before a scan is kept."""
        self.contexts_lock = threading.Lock()
        """Guards the three lists above (`read_buffer` does not wait for `lock`)."""
        self.snapshots: dict[Hashable, object] = {}
        """Results derived from the files as they were at `generation`."""
        self.lasting: dict[Hashable, tuple[object, Callable[[str], bool]]] = {}
        """Results kept until a change of a path their test accepts (or of an unnamed path)."""
        self.stale: set[str] = set()
        """Files changed since the kept scans were made, for the next scan to reread."""
        self.discovery: tuple[_DiscoveryKey, Discovery] | None = None
        """The source files the last scan found, and what it looked for them with."""
        self.moved: set[str] = set()
        """Paths named by the watch since `discovery` was found: what `rediscover` looks at."""
        self.link_memo = LinkMemo()
        """Each file's linked output from the last scan: a scan after an edit re-links only
        the files whose output may differ. Exact whatever changed, so it outlives `_drop`."""

    def scan(self, options: ScanOptions, on_progress: ProgressCallback | None) -> ScanResult:
        with self.lock:
            return self._scan(options, on_progress)

    def read_buffer(self, options: ScanOptions, relpath: str, content: bytes) -> BufferSites:
        """The sites of `relpath` were it `content`, read against the rest of the root as
        the kept scan for `options` found it. Never waits for a scan in progress: without a
        kept scan (or while one is made) the buffer is read against the source files alone
        (`discovery_context`), and the next scan for `options` keeps its context."""
        with self.contexts_lock:
            self.buffer_options = [
                *[kept for kept in self.buffer_options if kept != options][1 - RESULTS_PER_ROOT :],
                options,
            ]
        context = None
        if self.lock.acquire(blocking=False):
            try:
                if self._catch_up():
                    context = self._context(options)
                    if context is None and any(kept == options for kept, _ in self.results):
                        self._scan(options, None, refresh=True)  # kept before it was asked for
                        context = self._context(options)
            finally:
                self.lock.release()
        if context is None:
            context = self._context(options) or self._discovery_context(options)
        return context.read(relpath, content)

    def _context(self, options: ScanOptions) -> BufferContext | None:
        with self.contexts_lock:
            return next((context for kept, context in self.contexts if kept == options), None)

    def _discovery_context(self, options: ScanOptions) -> BufferContext:
        """The files-only context for `options`, made once until the files change."""
        with self.contexts_lock:
            found = next((c for kept, c in self.discovered_contexts if kept == options), None)
        if found is None:
            found = discovery_context(options)
            with self.contexts_lock:
                self.discovered_contexts = [
                    *[kept for kept in self.discovered_contexts if kept[0] in self.buffer_options],
                    (options, found),
                ]
        return found

    def _scan(
        self, options: ScanOptions, on_progress: ProgressCallback | None, *, refresh: bool = False
    ) -> ScanResult:
        if not self._catch_up():
            return scan_project(options, on_progress, stale=self.stale, link_memo=self.link_memo)
        for kept_options, result in self.results:
            if kept_options == options and not refresh:
                if on_progress is not None:
                    on_progress(result.files, result.files)
                return result
        discovery = self._discovered(options)
        keep = None
        if options in self.buffer_options:

            def keep(context: BufferContext) -> None:
                with self.contexts_lock:
                    self.contexts = [
                        *[
                            kept
                            for kept in self.contexts
                            if kept[0] != options and kept[0] in self.buffer_options
                        ],
                        (options, context),
                    ]
                    self.discovered_contexts = [
                        kept for kept in self.discovered_contexts if kept[0] != options
                    ]

        result = scan_project(
            options,
            on_progress,
            stale=self.stale,
            discovery=discovery,
            link_memo=self.link_memo,
            keep=keep,
        )
        if not self.results:  # the first scan since the change: it reread those files
            self.stale.clear()
        self.results = [
            *[kept for kept in self.results if kept[0] != options][-(RESULTS_PER_ROOT - 1) :],
            (options, result),
        ]
        return result

    def _discovered(self, options: ScanOptions) -> Discovery:
        """The source files to scan for `options` now: the last scan's, brought up to date
        with the paths the watch named since (see `rediscover`), or found by a walk."""
        key = _DiscoveryKey(
            options.root,
            tuple(options.src_dirs),
            options.exclude,
            reads_templates(options.functions),
        )
        found = None
        if self.discovery is not None and self.discovery[0] == key:
            kept = self.discovery[1]
            found = (
                kept
                if not self.moved
                else rediscover(kept, *key.arguments, self.moved, templates=key.templates)
            )
        if found is None:
            found = discover_sources(*key.arguments, templates=key.templates)
        self.discovery = (key, found)
        self.moved.clear()
        return found

    def peek_generation(self) -> int | None:
        """The state of the files now, without waiting for a scan in progress (then: the state
        that scan started from); None when the root is not watched."""
        if self.lock.acquire(blocking=False):
            try:
                return self.generation if self._catch_up() else None
            finally:
                self.lock.release()
        return None if self.closed or self.unwatchable is not None else self.generation

    def recall(self, key: Hashable) -> tuple[int | None, object | None]:
        with self.lock:
            if not self._catch_up():
                return None, None
            return self.generation, self.snapshots.get(key)

    def remember(
        self, generation: int, key: Hashable, value: object, reads: Iterable[str | os.PathLike[str]]
    ) -> None:
        with self.lock:
            if not self._catch_up() or self.generation != generation:
                return  # something changed while it was computed
            assert self.watch is not None
            watched = set(self.watch.paths.values())
            if all(_is_watched(os.fspath(path), watched) for path in reads):
                self.snapshots[key] = value

    def recall_lasting(self, key: Hashable) -> tuple[int | None, object | None]:
        """Never waits for a scan in progress: then the value as the scan's catching up left it
        (changes since the scan started are seen at the next catch-up, as for the scan)."""
        if not self.lock.acquire(blocking=False):
            if self.closed or self.unwatchable is not None:
                return None, None
            kept = self.lasting.get(key)
            return self.generation, None if kept is None else kept[0]
        try:
            if not self._catch_up():
                return None, None
            kept = self.lasting.get(key)
            return self.generation, None if kept is None else kept[0]
        finally:
            self.lock.release()

    def remember_lasting(
        self, generation: int, key: Hashable, value: object, changes: Callable[[str], bool]
    ) -> None:
        """Never waits for a scan in progress either: the value is then not kept (the next
        request computes it again)."""
        if not self.lock.acquire(blocking=False):
            return
        try:
            if self._catch_up() and self.generation == generation:
                self.lasting[key] = (value, changes)
        finally:
            self.lock.release()

    def invalidate(self) -> None:
        """Drop the kept scans before the next one; never waits for a scan in progress (the
        event loop calls this)."""
        self.invalidated = True

    def close(self) -> None:
        with self.lock:
            self.closed = True
            if self.watch is not None:
                self.watch.close()
                self.watch = None
            self._drop()

    def _catch_up(self) -> bool:
        """Bring the watch up to date, dropping what no longer describes the files; False when
        the root is not watched (closed, or unwatchable: every scan walks the files)."""
        if self.closed or self.unwatchable is not None:
            return False
        if self.invalidated:
            self.invalidated = False
            self._drop()
            self.lasting.clear()
            self.discovery = None
        if self.watch is None:
            self._start(None)
        else:
            try:
                changed, files = self.watch.changes()
            except Unwatchable as reason:
                self.watch.close()
                self._start(str(reason))
            else:
                self.stale |= files
                self.moved |= files
                self._drop_lasting(files, unnamed=self.watch.unnamed)
                if self.watch.unnamed:  # no path says what changed: walk next time
                    self.watch.unnamed = False
                    self.discovery = None
                if changed:
                    self._drop()
        return self.unwatchable is None

    def _drop(self) -> None:
        self.results.clear()
        with self.contexts_lock:
            self.contexts = []
            self.discovered_contexts = []
        self.snapshots.clear()
        self.generation += 1

    def _drop_lasting(self, files: set[str], *, unnamed: bool) -> None:
        """Forget the lasting results that a change of `files` (or of a path no event named)
        may have made wrong."""
        for key, (_, changes) in list(self.lasting.items()):
            if unnamed or any(changes(path) for path in files):
                del self.lasting[key]

    def _start(self, restarting: str | None) -> None:
        """Watch the tree afresh (after `restarting`, the reason the old watch ended); on
        failure, walk the files from now on. Nothing kept describes the files after this."""
        self._drop()
        self.lasting.clear()
        self.discovery = None
        self.moved.clear()
        watch = TreeWatch(self.root, self.max_dirs)
        try:
            watch.start()
        except Unwatchable as failure:
            watch.close()
            self.watch = None
            self.unwatchable = str(failure)
            notice(f"serve: not watching {self.root} ({failure}); every request walks its files")
            return
        self.watch = watch
        if restarting is not None:
            notice(f"serve: watching {self.root} again ({restarting})")


class _DiscoveryKey(NamedTuple):
    """What discovery is given: equal keys, equal walks of the same files."""

    root: Path
    src_dirs: tuple[Path, ...]
    exclude: ExcludeConfig
    templates: bool
    """Angular templates are scanned (`scan.callees.reads_templates`)."""

    @property
    def arguments(self) -> tuple[Path, list[Path], ExcludeConfig]:
        """The arguments of `discover_sources` (and the first ones of `rediscover`)."""
        return self.root, list(self.src_dirs), self.exclude


def _is_watched(path: str, watched: set[str]) -> bool:
    """Whether a change of `path` shows in the watch of the `watched` directories: a directory
    must be watched itself, a file must be in a watched one, both at their real location (a
    link into an unwatched folder such as node_modules, or out of the root, is not seen)."""
    real = os.path.realpath(path)
    return real in watched if os.path.isdir(real) else os.path.dirname(real) in watched


class ScanIndex:
    """The scans of every root a session has scanned, each kept until a change under its root,
    and snapshots: results that ops derive from a root's files (`remember`), kept as long.

    `scan` has the signature of `scan_project` and returns what it would return now: a kept
    result when nothing under the root changed since it was made and the options are equal,
    else a new scan that rereads the files inotify named (whatever their stat says). Safe to
    call from several threads; calls for one root run one at a time (`recall` and `remember`
    wait for a scan of that root in progress). Writes nothing to disk.
    """

    def __init__(
        self, max_roots: int = MAX_INDEXED_ROOTS, max_watched_dirs: int = MAX_WATCHED_DIRS
    ) -> None:
        """Keep the scans of up to `max_roots` roots; a root with more than `max_watched_dirs`
        directories is not watched (its scans walk the files)."""
        self._max_roots = max_roots
        self._max_dirs = max_watched_dirs
        self._roots: OrderedDict[str, _RootIndex] = OrderedDict()
        self._lock = threading.Lock()
        self._closed = False

    def scan(self, options: ScanOptions, on_progress: ProgressCallback | None = None) -> ScanResult:
        """The scan of `options.root` for `options` as the files are now (see the class)."""
        index = self._root(os.path.realpath(options.root))
        if index is None:
            return scan_project(options, on_progress)
        return index.scan(options, on_progress)

    def read_buffer(self, options: ScanOptions, relpath: str, content: bytes) -> BufferSites:
        """The key sites and issues of `relpath` (relative to `options.root`) were its content
        `content` (an editor's unsaved buffer), read against the rest of the root as the kept
        scan for `options` found it: the cost of one file (and of the files it imports until
        a scan is kept). See `BufferContext` and `_RootIndex.read_buffer`."""
        index = self._root(os.path.realpath(options.root))
        if index is None:
            return discovery_context(options).read(relpath, content)
        return index.read_buffer(options, relpath, content)

    def recall(
        self, root: str | os.PathLike[str], key: Hashable
    ) -> tuple[int | None, object | None]:
        """(the state of the files under `root` now, what was remembered under `key` for that
        state or None). The state is a number that changes whenever anything under the root
        changes (or its kept results are invalidated), for `remember`; None when the root is not
        watched (nothing is kept for it)."""
        index = self._root(os.path.realpath(root))
        return (None, None) if index is None else index.recall(key)

    def generation(self, root: str | os.PathLike[str]) -> int | None:
        """The state of the files under `root` now, as `recall` gives it, but without waiting
        for a scan in progress (see `_RootIndex.peek_generation`)."""
        index = self._root(os.path.realpath(root))
        return None if index is None else index.peek_generation()

    def remember(
        self,
        root: str | os.PathLike[str],
        generation: int,
        key: Hashable,
        value: object,
        reads: Iterable[str | os.PathLike[str]] = (),
    ) -> None:
        """Keep `value`, computed from the files of `root` as they were at `generation`, under
        `key` until anything under the root changes. Nothing is kept when something changed
        since `generation`, or when a file or folder among `reads` (what the value was computed
        from besides the scanned sources) lies where the watch cannot see its changes."""
        index = self._root(os.path.realpath(root))
        if index is not None:
            index.remember(generation, key, value, reads)

    def recall_lasting(
        self, root: str | os.PathLike[str], key: Hashable
    ) -> tuple[int | None, object | None]:
        """Like `recall`, for a value kept by `remember_lasting`: (the state of the files under
        `root` now, or None when it is not watched; the value, or None). Unlike `recall` it
        never waits for a scan of the root in progress (see `_RootIndex.recall_lasting`): the
        routing of a workspace root is asked for before every request there."""
        index = self._root(os.path.realpath(root))
        return (None, None) if index is None else index.recall_lasting(key)

    def remember_lasting(
        self,
        root: str | os.PathLike[str],
        generation: int,
        key: Hashable,
        value: object,
        changes: Callable[[str], bool],
    ) -> None:
        """Keep `value`, computed from the files of `root` as they were at `generation`, under
        `key` until a path that `changes` accepts (relative to the root, `/`-separated) is
        changed, created or removed — or a change names no path (a directory removed, the
        watch rebuilt), or the root is invalidated. Other changes keep it. Nothing is kept
        when anything changed since `generation`."""
        index = self._root(os.path.realpath(root))
        if index is not None:
            index.remember_lasting(generation, key, value, changes)

    def invalidate(self, root: str | os.PathLike[str]) -> None:
        """Forget the kept scans and snapshots of `root` (after a write op; see fresh reads in
        docs/serve.md#5-root-modes). Does not block."""
        with self._lock:
            index = self._roots.get(os.path.realpath(root))
        if index is not None:
            index.invalidate()

    def close(self) -> None:
        """Stop every watch; later scans walk the files."""
        with self._lock:
            self._closed = True
            roots = list(self._roots.values())
            self._roots.clear()
        for index in roots:
            index.close()

    def _root(self, root: str) -> _RootIndex | None:
        evicted: list[_RootIndex] = []
        with self._lock:
            if self._closed:
                return None
            index = self._roots.get(root)
            if index is None:
                index = self._roots[root] = _RootIndex(root, self._max_dirs)
            self._roots.move_to_end(root)
            while len(self._roots) > self._max_roots:
                evicted.append(self._roots.popitem(last=False)[1])
        for old in evicted:
            old.close()
        return index
