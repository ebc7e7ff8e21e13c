"""Pushed changes (docs/serve.md#watching-changed-and-diagnostics): a task per watched root waits on
inotify, lets a burst of edits settle, and sends `$/changed` for the root and `$/diagnostics` for
each changed source file, computed off the event loop through the session's scan index.
"""

from __future__ import annotations

import os
import traceback
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, Literal, TypeVar

import msgspec
import trio

from i18nprune.envelope import ProblemError
from i18nprune.locales.formats import is_locale_file_name
from i18nprune.locales.view import LocaleView
from i18nprune.ops.cleanup import CleanupData, CleanupOptions
from i18nprune.ops.engine.events import discard
from i18nprune.ops.engine.registry import CLEANUP, execute
from i18nprune.ops.engine.scanning import scanning_with
from i18nprune.ops.file import Diagnostic, file_diagnostics
from i18nprune.ops.validate import dynamic_counts, missing_in, source_views
from i18nprune.project import Project, ProjectHandle, ProjectRequest
from i18nprune.reference import Evidence, literal_candidates
from i18nprune.scan.callees import reads_templates
from i18nprune.scan.grammars import scanned_suffixes
from i18nprune.serve.folders import decides_routing, routing_of
from i18nprune.serve.index import MAX_ROOTS, MAX_WATCHED_DIRS, ScanIndex, TreeWatch, Unwatchable
from i18nprune.serve.protocol import notification_line
from i18nprune.serve.transport import notice
from i18nprune.system.inotify import Inotify

QUIET_SECONDS = 0.05
"""A burst of events is over once the root has been quiet this long."""
MAX_SETTLE_SECONDS = 0.2
"""A burst that never goes quiet (a long checkout) is reported this long after it began anyway,
so the first notice of a change comes within the half second that
docs/serve.md#watching-changed-and-diagnostics aims at."""
CONFIG_FILES = ("package.json", "i18nprune.workspace.json")
"""Files at the root, besides `i18nprune.config.*`, whose change can change the findings."""

FileKind = Literal["source", "locale", "config"]
T = TypeVar("T")


class Summary(msgspec.Struct, frozen=True):
    """What the root's findings are after the change: keys the code uses that the source locale
    lacks (as `validate` counts them), keys `cleanup` would remove from the source locale, and
    dynamic key sites (as `validate` counts them)."""

    missing: int
    unused: int
    dynamic: int


class ChangedParams(msgspec.Struct, frozen=True, rename="camel"):
    """`$/changed`: the root whose files changed, those files (relative, sorted) and its summary."""

    project_root: str
    files: list[str]
    summary: Summary


class DiagnosticsParams(msgspec.Struct, frozen=True, rename="camel"):
    """`$/diagnostics`: one source file's diagnostics after a change (an empty list clears them)."""

    project_root: str
    path: str
    diagnostics: list[Diagnostic]


def inotify_problem() -> str | None:
    """Why this system cannot watch files (no inotify, or no instance left), or None."""
    try:
        Inotify.open().close()
    except OSError as exc:
        return str(exc.strerror or exc)
    return None


@dataclass
class _Watched:
    """One watched root: the scope of its task, and whether its watch is in place."""

    scope: trio.CancelScope = field(default_factory=trio.CancelScope)
    ready: trio.Event = field(default_factory=trio.Event)
    watching: bool = False
    projects: tuple[Path, ...] | None = None
    """The roots of the projects below the root that its last report found (a workspace
    root's; None until the first report): each is reported by this watch, never watched on
    its own."""


@dataclass(frozen=True)
class _Changed:
    """A change worth a report: the project as it is now and each changed file's kind (paths
    relative to the project's root)."""

    project: Project
    files: dict[str, FileKind]


@dataclass(frozen=True)
class _Findings:
    """What a change report says of the changed source files, and what the summary is counted
    from."""

    files: list[str]
    evidence: Evidence
    views: dict[str | None, LocaleView]
    diagnostics: dict[str, list[Diagnostic]]


class Watcher:
    """The roots a session watches and the notifications their changes cause.

    `watch(root)` starts a task in `nursery` for a root not yet watched and returns once its
    watch is in place, so every change after that is reported. Notifications go through `send`
    (the session's single line writer) from the event loop, each one whole. `stop()` ends every
    watch; nothing is sent after it. A read-only session's watcher writes nothing to disk: its
    scans and project reads are those of a read op.
    """

    def __init__(
        self,
        index: ScanIndex,
        send: Callable[[bytes], None],
        nursery: trio.Nursery,
        *,
        read_only: bool,
        max_roots: int = MAX_ROOTS,
    ) -> None:
        """Scan through `index`; watch up to `max_roots` roots (the least recently named one
        stops beyond that)."""
        self._index = index
        self._send = send
        self._nursery = nursery
        self._read_only = read_only
        self._max_roots = max_roots
        self._roots: OrderedDict[Path, _Watched] = OrderedDict()
        self._stopped = False

    async def watch(self, root: Path) -> bool:
        """Watch `root` (a realpath) from now on; whether its changes are seen (False: it cannot
        be watched, said once on stderr). Returns once the watch is in place. A project of a
        workspace root already watched is reported by that root's watch."""
        if self._stopped:
            return False
        for folder, covering in self._roots.items():
            if folder in root.parents and (covering.projects is None or root in covering.projects):
                self._roots.move_to_end(folder)
                return covering.watching  # the workspace root's watch reports this project
        watched = self._roots.get(root)
        if watched is None:
            watched = self._roots[root] = _Watched()
            self._nursery.start_soon(self._run, root, watched, name=f"watch {root}")
            while len(self._roots) > self._max_roots:
                _, oldest = self._roots.popitem(last=False)
                oldest.scope.cancel()
        self._roots.move_to_end(root)
        await watched.ready.wait()
        return watched.watching

    def stop(self) -> None:
        """End every watch; no notification is sent after this returns."""
        self._stopped = True
        for watched in self._roots.values():
            watched.scope.cancel()
        self._roots.clear()

    async def _run(self, root: Path, watched: _Watched) -> None:
        with watched.scope:
            try:
                tree = await trio.to_thread.run_sync(_open_tree, str(root))
            except Unwatchable as reason:
                notice(f"serve: not watching {root} for changes ({reason})")
                return
            finally:
                watched.ready.set()
            watched.watching = True
            current: TreeWatch | None = tree
            try:
                # Scan now, so that the first change costs a warm scan: its events wait queued.
                await self._report(root, set(), warming=True)
                while current is not None:
                    try:
                        await self._follow(root, current)
                    except Unwatchable as reason:
                        _close(current)
                        current = await self._reopen(root, str(reason))
                        watched.watching = current is not None
                        if current is not None:
                            # Which files changed meanwhile is unknown: report the whole root.
                            await self._report(root, set())
            finally:
                if current is not None:
                    _close(current)

    async def _reopen(self, root: Path, reason: str) -> TreeWatch | None:
        """A new watch on `root` after the old one ended for `reason`; None when it cannot be
        watched any more (said on stderr)."""
        try:
            tree = await trio.to_thread.run_sync(_open_tree, str(root))
        except Unwatchable as failure:
            notice(f"serve: not watching {root} for changes any more ({reason}; {failure})")
            return None
        notice(f"serve: watching {root} for changes again ({reason})")
        return tree

    async def _follow(self, root: Path, tree: TreeWatch) -> None:
        """Report each burst of changes under `root` once it settles. Raises Unwatchable when
        the watch must be rebuilt."""
        while True:
            await trio.lowlevel.wait_readable(tree.fileno())
            files: set[str] = set()
            settle_by = trio.current_time() + MAX_SETTLE_SECONDS
            while True:
                _, named = await trio.to_thread.run_sync(tree.changes)
                files |= named
                quiet_until = min(trio.current_time() + QUIET_SECONDS, settle_by)
                with trio.move_on_at(quiet_until):
                    await trio.lowlevel.wait_readable(tree.fileno())
                    continue
                break
            await self._report(root, files)

    async def _report(self, root: Path, files: set[str], *, warming: bool = False) -> None:
        """Report a change of `files` under `root` (all of it when empty) for each project it
        touches (at a workspace root, each project the files belong to; a change of what
        decides the projects, such as the workspace file, touches them all); a change of no
        source, locale or config file is not reported. `warming`: only scan each project, so
        that the index is warm for the first change; send nothing."""
        try:
            found = await trio.to_thread.run_sync(self._classify, root, files, warming)
            if found is None:
                return
            projects, changes = found
            self._cover(root, projects)
            if warming:
                for changed in changes:
                    await trio.to_thread.run_sync(self._findings, changed, True)
                return
            async with trio.open_nursery() as nursery:
                for changed in changes:
                    nursery.start_soon(self._report_project, changed)
        except Exception as exc:  # a bug: this report is lost, the session goes on
            notice(f"serve: internal error while reporting changes under {root}:")
            notice("".join(traceback.format_exception(exc)))

    def _cover(self, root: Path, projects: tuple[Path, ...]) -> None:
        """Note the projects below `root` that its watch reports, and stop watching any of
        them on its own (named by a request before the root was): each change would be
        reported twice."""
        watched = self._roots.get(root)
        if watched is None:
            return
        watched.projects = projects
        for project in projects:
            below = self._roots.pop(project, None) if project != root else None
            if below is not None:
                below.scope.cancel()

    async def _report_project(self, changed: _Changed) -> None:
        """Send one project's report: first `$/diagnostics` for each changed source file, as
        soon as they are known, then `$/changed` once its summary is counted (`cleanup`'s dry
        run counts the unused keys; it reads and scans meanwhile when no diagnostics come
        first). Nothing is sent once the watcher stopped."""
        root = changed.project.root
        unused = _Later[int]()
        counted_meanwhile = not any(kind == "source" for kind in changed.files.values())
        async with trio.open_nursery() as nursery:
            if counted_meanwhile:
                nursery.start_soon(unused.run, self._unused, root)
            findings = await trio.to_thread.run_sync(self._findings, changed, False)
            if findings is None or self._stopped:
                nursery.cancel_scope.cancel()
                return
            for path, diagnostics in findings.diagnostics.items():
                pushed = DiagnosticsParams(str(root), path, diagnostics)
                self._send(notification_line("$/diagnostics", pushed))
            if not counted_meanwhile:
                nursery.start_soon(unused.run, self._unused, root)
            missing, dynamic = await trio.to_thread.run_sync(_counts, findings)
        if self._stopped:
            return
        summary = Summary(missing=missing, unused=unused.value, dynamic=dynamic)
        params = ChangedParams(str(root), findings.files, summary)
        self._send(notification_line("$/changed", params))

    def _classify(
        self, root: Path, files: set[str], quiet: bool
    ) -> tuple[tuple[Path, ...], list[_Changed]] | None:
        """The roots of the projects below `root` (none when it is one project) and, for each
        project the change of `files` touches, the project as it is now and what each changed
        file is to it (in a worker thread). None when the projects cannot be found; a project
        that cannot be opened is left out; both are said on stderr unless `quiet`."""
        try:
            routing = routing_of(self._index, root)
        except ProblemError as exc:
            if not quiet:
                notice(f"serve: no change report for {root}: {exc}")
            return None
        below = tuple(project.root for project in routing.projects) if routing.workspace else ()
        touched: dict[Path, set[str]] = {}
        everything = not files
        for path in files:
            owner = routing.project_of(path)
            if owner is not None:
                relative = os.path.relpath(root / path, owner.root).replace(os.sep, "/")
                touched.setdefault(owner.root, set()).add(relative)
            elif decides_routing(path):
                everything = True
        if everything:
            touched = {
                project.root: touched.get(project.root, set()) for project in routing.projects
            }
        changes = []
        for project_root, named in sorted(touched.items()):
            changed = self._changed_in(project_root, named, everything, quiet)
            if changed is not None:
                changes.append(changed)
        return below, changes

    def _changed_in(
        self, root: Path, files: set[str], everything: bool, quiet: bool
    ) -> _Changed | None:
        """The project at `root` and what each of `files` is to it; None when none of them
        matters (unless `everything` changed) or the project cannot be opened (said on stderr
        unless `quiet`)."""
        try:
            project = ProjectHandle(
                ProjectRequest(cwd=root, project=root, read_only=self._read_only)
            ).open()
            kinds = {path: _kind(project, path) for path in files}
        except ProblemError as exc:
            if not quiet:
                notice(f"serve: no change report for {root}: {exc}")
            return None
        relevant = {path: kind for path, kind in kinds.items() if kind is not None}
        if files and not relevant and not everything:
            return None
        return _Changed(project, relevant)

    def _findings(self, changed: _Changed, quiet: bool) -> _Findings | None:
        """The diagnostics of the changed source files and what the summary is counted from,
        in a worker thread; None when the project's locales or sources cannot be located (said
        on stderr unless `quiet`)."""
        project = changed.project
        try:
            views = source_views(project)
            options = project.scan_options(literal_candidates(views.values(), project.key_syntax()))
        except ProblemError as exc:
            if not quiet:
                notice(f"serve: no change report for {project.root}: {exc}")
            return None
        evidence = Evidence(
            self._index.scan(options, None), options.syntax, project.source_locale()
        )
        diagnostics = {
            path: file_diagnostics(evidence, views, path)
            for path, kind in sorted(changed.files.items())
            if kind == "source"
        }
        return _Findings(sorted(changed.files), evidence, views, diagnostics)

    async def _unused(self, root: Path) -> int:
        """What a dry-run `cleanup` of the source locale would remove (it reads and scans in
        worker threads, its scan answered by the index; a dry run writes nothing)."""
        handle = ProjectHandle(ProjectRequest(cwd=root, project=root, read_only=self._read_only))
        with scanning_with(self._index.scan):
            envelope = await execute(CLEANUP, handle, CleanupOptions(dry_run=True), discard)
        data = envelope.data
        return data.would_remove if isinstance(data, CleanupData) else 0


def _counts(findings: _Findings) -> tuple[int, int]:
    """The summary's `missing` and `dynamic` counts (in a worker thread)."""
    evidence = findings.evidence
    return len(missing_in(evidence, findings.views)), dynamic_counts(evidence.scan).count


class _Later(Generic[T]):
    """The result of an async call run as a task, once the task's nursery has closed."""

    def __init__(self) -> None:
        self._value: T | None = None

    async def run(self, call: Callable[[Path], Awaitable[T]], root: Path) -> None:
        self._value = await call(root)

    @property
    def value(self) -> T:
        assert self._value is not None
        return self._value


def _open_tree(root: str) -> TreeWatch:
    """A watch on every directory under `root`. Raises Unwatchable."""
    tree = TreeWatch(root, MAX_WATCHED_DIRS)
    try:
        tree.start()
    except Unwatchable:
        tree.close()
        raise
    return tree


def _close(tree: TreeWatch) -> None:
    """Close a watch whose descriptor a task of this loop may be waiting on."""
    if tree.inotify is not None:
        trio.lowlevel.notify_closing(tree.fileno())
        tree.close()


def _kind(project: Project, relpath: str) -> FileKind | None:
    """What `relpath` (relative to the root) is to the project: a file the scan reads, a
    locale file, a file of the configuration, or nothing that changes the findings."""
    path = project.root / relpath
    name = path.name
    if "/" not in relpath and (name.startswith("i18nprune.config.") or name in CONFIG_FILES):
        return "config"
    if _inside(path, project.locales_dir):
        return "locale" if is_locale_file_name(name) else None
    suffix = os.path.splitext(name)[1]
    scanned = scanned_suffixes(reads_templates(project.config.functions))
    if suffix in scanned and any(_inside(path, src) for src in project.src_dirs):
        return "source"
    return None


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents
