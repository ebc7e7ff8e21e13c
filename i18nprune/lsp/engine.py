"""What the language server knows of one project at one state of its files: its locales, the
scan of its code (from the session's scan index, shared with `serve`'s ops), and `cleanup`'s
verdict — and the questions an editor asks of them, in the engine's terms (paths relative to
the root; 1-based lines, character columns). `lsp.features` turns the answers into LSP.

Everything here is synchronous and runs in worker threads. A state describes its files as they
were when it was built; what changes on it later is `unused` and `quality` (set once `cleanup`'s
dry run and `quality` have answered) and its caches of derived values (a race between two
threads computes one twice, nothing worse).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from i18nprune.envelope import Issue, ProblemError, issue_place
from i18nprune.keys import KeySyntax
from i18nprune.locales.documents import parse_locale_text
from i18nprune.locales.editor import LocaleEditor
from i18nprune.locales.jsonfile import LocaleFileError
from i18nprune.locales.positions import KeyLocation, locate_paths
from i18nprune.locales.view import LocaleView
from i18nprune.ops.cleanup import CleanupData
from i18nprune.ops.file import protected_by
from i18nprune.ops.key import spelled_path
from i18nprune.ops.keys import text_of
from i18nprune.ops.missing import HomeFiles, leaf_value, paths_to_add
from i18nprune.ops.quality import QualityFinding
from i18nprune.project import Project, ProjectHandle, ProjectRequest
from i18nprune.reference import Evidence, MissingKey, MissingPlaces, literal_candidates, named_key
from i18nprune.scan import DynamicSite, KeyObservation, ScanOptions, ScanResult
from i18nprune.serve.index import ScanIndex
from i18nprune.translate.lock import read_lock, read_pending, stale_leaves

Presence = Callable[[KeyObservation], bool]


@dataclass(frozen=True)
class Finding:
    """A diagnostic in the engine's terms."""

    line: int
    column: int
    end_line: int
    end_column: int
    severity: str
    """`error`, `warning`, `info` or `hint`."""
    code: str
    message: str
    key: str | None = None
    unnecessary: bool = False
    token: bool = False
    """Whether the range is the JSON string that starts at (`line`, `column`): a locale key,
    whose end the editor's text says (`end_line`/`end_column` are then only a fallback)."""

    @classmethod
    def at_key(
        cls,
        line: int,
        column: int,
        severity: str,
        code: str,
        message: str,
        key: str,
        *,
        unnecessary: bool = False,
    ) -> Finding:
        """A finding on the quoted key a locale file spells at (`line`, `column`)."""
        return cls(
            line, column, line, column + 1, severity, code, message, key, unnecessary, token=True
        )


@dataclass(frozen=True)
class CodeFile:
    """One source file's key sites, as on disk or as an unsaved buffer holds them."""

    relpath: str
    observations: list[KeyObservation]
    dynamic: list[DynamicSite]
    issues: list[Issue]
    evidence: Evidence
    """The project's evidence with only this file's sites."""

    def site_at(self, line: int, column: int) -> KeyObservation | None:
        """The innermost literal key site whose call holds the position."""
        holding = [
            o
            for o in self.observations
            if not o.spelling
            and (o.line, o.column) <= (line, column) <= (o.end_line or o.line, o.end_column)
        ]
        return max(holding, key=lambda o: (o.line, o.column), default=None)

    def dynamic_at(self, line: int, column: int) -> DynamicSite | None:
        """The innermost dynamic site whose call holds the position."""
        holding = [
            d
            for d in self.dynamic
            if (d.line, d.column) <= (line, column) <= (d.end_line or d.line, d.end_column)
        ]
        return max(holding, key=lambda d: (d.line, d.column), default=None)


MISSING_SOURCE = "i18nprune.validate.missing_literal_keys"
MISSING_TARGETS = "i18nprune.lsp.missing_in_targets"
DYNAMIC = "i18nprune.validate.dynamic_key_sites"
UNUSED = "i18nprune.cleanup.unused_key"
STALE = "i18nprune.lock.stale_translation"


@dataclass
class ProjectState:
    """One project as its files are at `generation` (see `ScanIndex.generation`; None: the root
    is not watched, so the session reads it afresh for every question)."""

    root: Path
    generation: int | None
    project: Project
    syntax: KeySyntax
    source: str
    locales: list[str]
    """Every locale, the source first."""
    views: dict[str, dict[str | None, LocaleView]]
    options: ScanOptions
    evidence: Evidence
    presence: dict[str, Presence]
    complete: bool = False
    """Whether `evidence` is the whole project's scan; until it is (the first answers do not
    wait for it), `evidence` holds no site and each file is read on its own."""
    stale: dict[str, list[tuple[str, KeyLocation]]] = field(default_factory=dict)
    """Each locale file → its stale leaves (the lock's verdict) and where it spells them."""
    unused: CleanupData | None = None
    """`cleanup --dry-run`'s answer (None until it has answered, or when it refused)."""
    quality: list[QualityFinding] = field(default_factory=list)
    """`quality`'s findings (empty until it has answered)."""
    _by_file: dict[str, CodeFile] = field(default_factory=dict, repr=False)
    _source_keys: dict[str | None, dict[str, str | None]] = field(default_factory=dict, repr=False)

    @property
    def targets(self) -> list[str]:
        return self.locales[1:]

    # --- code files --------------------------------------------------------------------------

    def code_file(self, relpath: str, text: str | None, index: ScanIndex) -> CodeFile:
        """The sites of `relpath`: as the scan found it on disk, or (`text`) as an unsaved
        buffer holds them, read against the rest of the project (the cost of that file)."""
        if not self.complete:
            if text is None:
                text = _disk_text(self.root / relpath)
            if text is None:
                return self._code_file(relpath, [], [], [])
        elif text is None or _same_as_disk(self.root / relpath, text):
            kept = self._by_file.get(relpath)
            if kept is None:
                scan = self.evidence.scan
                kept = self._by_file[relpath] = self._code_file(
                    relpath,
                    [o for o in scan.observations if o.file == relpath],
                    [d for d in scan.dynamic if d.file == relpath],
                    [issue for issue in scan.issues if issue.path == relpath],
                )
            return kept
        sites = index.read_buffer(self.options, relpath, text.encode("utf-8", "surrogatepass"))
        return self._code_file(relpath, sites.observations, sites.dynamic, sites.issues)

    def _code_file(
        self,
        relpath: str,
        observations: list[KeyObservation],
        dynamic: list[DynamicSite],
        issues: list[Issue],
    ) -> CodeFile:
        scan = msgspec.structs.replace(
            self.evidence.scan, observations=observations, dynamic=dynamic, issues=issues
        )
        evidence = Evidence(scan, self.syntax, self.source)
        return CodeFile(relpath, observations, dynamic, issues, evidence)

    def code_findings(self, file: CodeFile) -> list[Finding]:
        """A key the source lacks (error), a key some targets lack (warning, naming them), a
        dynamic site (hint: what it protects), a syntax error (warning)."""
        relpath = file.relpath
        lacking = {locale: MissingPlaces(self._missing(file, locale)) for locale in self.locales}
        found: list[Finding] = []
        for observation in file.observations:
            if observation.spelling:
                continue
            missing = lacking[self.source].of(observation)
            if missing is not None:
                key = self.display(missing)  # the spelling the locale would hold
                found.append(
                    _at(
                        observation,
                        "error",
                        MISSING_SOURCE,
                        f"`{key}`{named_key(missing, '')} is missing from the source locale "
                        f"`{self.source}`",
                        key,
                    )
                )
                continue
            lacks = {locale: lacking[locale].of(observation) for locale in self.targets}
            absent = [locale for locale, there in lacks.items() if there is not None]
            shown = lacks[absent[0]] if absent else None
            key = self.display(shown or observation)
            if absent:
                found.append(
                    _at(
                        observation,
                        "warning",
                        MISSING_TARGETS,
                        f"`{key}` is missing from {len(absent)} of {len(self.targets)} target "
                        f"locale(s): {', '.join(absent)}",
                        key,
                    )
                )
        for site in file.dynamic:
            if site.kind == "commented":
                continue
            found.append(
                _at(
                    site,
                    "hint",
                    DYNAMIC,
                    "dynamic key: its keys cannot be checked" + protected_by(site),
                )
            )
        for issue in file.issues:
            if issue.path == relpath:
                found.append(_issue_finding(issue))
        return sorted(found, key=lambda f: (f.line, f.column, f.code))

    def _missing(self, file: CodeFile, locale: str) -> list[KeyObservation]:
        paths = {namespace: view.leaves for namespace, view in self.views[locale].items()}
        return file.evidence.missing_sites(paths, file.relpath, presence=self.presence[locale])

    def held(self, file: CodeFile, site: KeyObservation) -> KeyObservation:
        """Of a site of several spellings (a Lingui message and the id Lingui generates of it,
        `<Trans>` children), the first the source locale holds; else `site` (its first)."""
        if site.spelling is None:
            return site
        group = sorted(
            (
                o
                for o in file.observations
                if (o.line, o.column) == (site.line, site.column) and o.spelling is not None
            ),
            key=lambda o: o.spelling or 0,
        )
        for spelled in group:
            if self.values(self.namespace_of(spelled), spelled.key).get(self.source) is not None:
                return spelled
        return site

    def display(self, observation: KeyObservation) -> str:
        """The key as code and messages spell it (`ns:path` where namespaces are on)."""
        return self.syntax.display(self.namespace_of(observation), observation.key)

    def namespace_of(self, observation: KeyObservation) -> str | None:
        if not self.syntax.uses_namespaces:
            return None
        return observation.namespace or self.syntax.default_namespace

    # --- keys --------------------------------------------------------------------------------

    def split(self, key: str) -> tuple[str | None, str]:
        """A key as code writes it → (namespace, path)."""
        namespace, path = self.syntax.split_namespace(key)
        if self.syntax.uses_namespaces and namespace is None:
            namespace = self.syntax.default_namespace
        return (namespace if self.syntax.uses_namespaces else None), path

    def values(self, namespace: str | None, path: str) -> dict[str, str | None]:
        """Each locale → the key's text there (its `_other` form for a plural key), or None."""
        found: dict[str, str | None] = {}
        for locale in self.locales:
            view = self.views[locale].get(namespace)
            spelled = spelled_path(view, path) if view is not None else None
            found[locale] = (
                text_of(view.leaves[spelled]) if view is not None and spelled is not None else None
            )
        return found

    def definitions(self, namespace: str | None, path: str) -> list[KeyLocation]:
        """Where each locale file defines the key (its `_other` form for a plural key)."""
        found: list[KeyLocation] = []
        for locale in self.locales:
            view = self.views[locale].get(namespace)
            spelled = spelled_path(view, path) if view is not None else None
            if view is not None and spelled is not None:
                found.extend(locate_paths(view, [spelled]).values())
        return found

    def usages(self, namespace: str | None, path: str) -> list[KeyObservation]:
        """Every code site of the key, as the project's files are on disk."""
        wanted = {path, *self.syntax.plurals.bases(path)}
        return [
            o
            for o in self.evidence.scan.observations
            if o.key in wanted and self.namespace_of(o) == namespace and not o.spelling
        ]

    def source_keys(self, namespace: str | None) -> dict[str, str | None]:
        """The source locale's paths of a namespace → their text (made once per state)."""
        kept = self._source_keys.get(namespace)
        if kept is None:
            view = self.views[self.source].get(namespace)
            leaves = view.leaves.items() if view is not None else ()
            kept = self._source_keys[namespace] = {path: text_of(leaf) for path, leaf in leaves}
        return kept

    def locale_file(self, relpath: str) -> tuple[str, str | None] | None:
        """(locale, namespace) of a locale file of the project, by its path from the root."""
        for locale, by_namespace in self.views.items():
            for namespace, view in by_namespace.items():
                if any(segment.rel == relpath for segment in view.segments):
                    return locale, namespace
        return None

    def locale_findings(self, relpath: str, text: str | None = None) -> list[Finding]:
        """A locale file's problems: what reading it found (invalid JSON at its line, a key
        defined twice), its stale leaves, `quality`'s findings, and each key `cleanup` would
        remove (a hint, marked unnecessary). `text`: the editor's unsaved content, read for
        JSON errors (the rest is of the file as saved)."""
        if text is not None and not _same_as_disk(self.root / relpath, text):
            try:
                parse_locale_text(text, relpath, self.root / relpath)
            except LocaleFileError as exc:
                return [_issue_finding(issue) for issue in exc.issues]
        found: list[Finding] = []
        for by_namespace in self.views.values():
            for view in by_namespace.values():
                found += [_issue_finding(i) for i in view.issues if i.path == relpath]
        for path, location in self.stale.get(relpath, []):
            message = (
                f"`{path}` is stale: the source text changed since it was translated; "
                "`generate` translates it again (edit it to keep your own)"
            )
            found.append(
                Finding.at_key(location.line, location.column, "warning", STALE, message, path)
            )
        for finding in self.quality:
            if finding.file == relpath and finding.line is not None:
                severity = "info" if finding.kind == "needs_review" else finding.severity
                code = f"i18nprune.quality.{finding.kind}"
                found.append(
                    Finding.at_key(
                        finding.line,
                        finding.column or 1,
                        severity,
                        code,
                        finding.message,
                        finding.path,
                    )
                )
        unused = self.unused.key_locations if self.unused is not None else {}
        for key, locations in unused.items():
            message = f"`{key}` is not used by the code; `cleanup` would remove it"
            found += [
                Finding.at_key(
                    location.line, location.column, "hint", UNUSED, message, key, unnecessary=True
                )
                for location in locations
                if location.file == relpath
            ]
        return sorted(set(found), key=lambda f: (f.line, f.column, f.code))

    def states(self, namespace: str | None, path: str) -> dict[str, list[str]]:
        """Each locale → what is wrong with its text of the key: `stale` (the lock's verdict),
        `needs review`, and the other `quality` findings' kinds."""
        key = self.syntax.display(namespace, path)
        found: dict[str, list[str]] = {}
        for entries in self.stale.values():
            for stale_path, location in entries:
                if stale_path in (path, f"{path}_other"):
                    found.setdefault(location.locale, []).append("stale")
        for finding in self.quality:
            if finding.path in (key, path):
                found.setdefault(finding.target, []).append(finding.kind.replace("_", " "))
        return found

    # --- edits -------------------------------------------------------------------------------

    def with_key(
        self, locale: str, namespace: str | None, observation: KeyObservation | None, path: str
    ) -> tuple[Path, bytes] | None:
        """The locale file that gets `path` and its new content (the code's default text in
        the source locale, else the configured placeholder; a plural key gets the locale's
        plural forms); None when the locale has no file for the namespace yet."""
        view = self.views[locale].get(namespace)
        if view is None or not view.segments:
            return None
        home = HomeFiles(view).file_for(path)
        if home is None:
            return None
        plural = observation.plural if observation is not None else False
        default = observation.default if observation is not None else None
        missing = MissingKey(namespace, path, plural, default)
        value = leaf_value(self.project, missing, is_source=locale == self.source)
        separator = self.syntax.plural_separator
        editor = self.project.editor(view)
        editor.add([(p, value) for p in paths_to_add(missing, locale, separator)], home)
        return home, editor.document(home).render()

    def _forms(self, view: LocaleView, path: str) -> list[str]:
        """The leaves of `view` that are the key `path` or one of its plural forms (CLDR's, as
        `KeySyntax.plurals` reads them: `items_one` is a form of `items`, `items_name` is not)."""
        return [
            leaf for leaf in view.leaves if leaf == path or path in self.syntax.plurals.bases(leaf)
        ]

    def without_keys(self, keys: list[str]) -> dict[Path, bytes]:
        """Every locale file's content without `keys` (as code writes them) and their plural
        forms: the files that hold any of them."""
        by_namespace: dict[str | None, list[str]] = {}
        for key in keys:
            namespace, path = self.split(key)
            by_namespace.setdefault(namespace, []).append(path)
        changed: dict[Path, bytes] = {}
        for locale in self.locales:
            for namespace, paths in by_namespace.items():
                view = self.views[locale].get(namespace)
                if view is None:
                    continue
                editor = self.project.editor(view)
                for path in paths:
                    for form in self._forms(view, path) or [path]:
                        editor.delete_key(form)
                changed.update(_rendered(editor, self.root))
        return changed

    def renamed(self, namespace: str | None, old: str, new: str) -> dict[Path, bytes]:
        """Every locale file's content with the key `old` (and its plural forms) moved to
        `new`, values kept."""
        changed: dict[Path, bytes] = {}
        for locale in self.locales:
            view = self.views[locale].get(namespace)
            if view is None:
                continue
            editor = self.project.editor(view)
            forms = self._forms(view, old)
            renamed = {form: new + form[len(old) :] for form in forms}
            # The renamed leaf takes the old one's place: after the path that preceded it.
            order = [renamed.get(path, path) for path in view.leaves]
            for form in forms:
                file = editor.segment_of(form)
                value = editor.get(form)
                if file is None:
                    continue
                editor.delete(form)
                editor.set(renamed[form], value, file, order)
            changed.update(_rendered(editor, self.root))
        return changed


def build_state(root: Path, index: ScanIndex, *, read_only: bool) -> ProjectState:
    """Read the project at `root` as its files are now (in a worker thread): its config and
    locales, not yet the scan of its code (see `complete_state`). Raises ProblemError when it
    cannot be opened or its locales cannot be found."""
    generation = current_generation(root, index)
    handle = ProjectHandle(ProjectRequest(cwd=root, project=root, read_only=read_only))
    project = handle.open()
    problems = [issue for issue in project.readiness() if issue.severity == "error"]
    if problems:
        raise ProblemError(*problems)
    syntax = project.key_syntax()
    source = project.source_locale()
    inventory, _ = project.inventory()
    locales = [source, *(locale for locale in inventory.locales() if locale != source)]
    views = {locale: project.load_namespaces(locale) for locale in locales}
    options = project.scan_options(literal_candidates(views[source].values(), syntax))
    nothing = ScanResult(files=0, parsed=0, cache_hits=0, observations=[], dynamic=[], issues=[])
    evidence = Evidence(nothing, syntax, source)
    state = ProjectState(
        root,
        generation,
        project,
        syntax,
        source,
        locales,
        views,
        options,
        evidence,
        _presence(evidence, views),
    )
    state.stale = _stale(project, views[source])
    return state


def complete_state(state: ProjectState, index: ScanIndex) -> ProjectState:
    """`state` with the whole project's scan (in a worker thread; through the index, so a
    later scan of unchanged files costs nothing)."""
    evidence = Evidence(index.scan(state.options, None), state.syntax, state.source)
    return dataclasses.replace(
        state,
        evidence=evidence,
        presence=_presence(evidence, state.views),
        complete=True,
        unused=None,
        quality=[],
        _by_file={},
        _source_keys={},
    )


def _presence(
    evidence: Evidence, views: dict[str, dict[str | None, LocaleView]]
) -> dict[str, Presence]:
    return {
        locale: evidence.presence({namespace: view.leaves for namespace, view in found.items()})
        for locale, found in views.items()
    }


def _stale(
    project: Project, sources: dict[str | None, LocaleView]
) -> dict[str, list[tuple[str, KeyLocation]]]:
    """Where each locale file spells its stale leaves; nothing without a usable lock file."""
    try:
        lock = read_lock(project.root)
    except ProblemError:
        return {}
    if lock is None:
        return {}
    found: dict[str, list[tuple[str, KeyLocation]]] = {}
    pending = read_pending(project.root)
    leaves = stale_leaves(lock, sources, project.load, project.editor, pending)
    for view, paths in leaves.values():
        for path, location in locate_paths(view, paths).items():
            found.setdefault(location.file, []).append((path, location))
    return found


def current_generation(root: Path, index: ScanIndex) -> int | None:
    """The state of the files under `root` now (None: not watched); never waits for a scan."""
    return index.generation(root)


def _disk_text(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("utf-8", "replace")
    except OSError:
        return None


def relative(root: Path, path: Path) -> str | None:
    """`path` relative to `root` (POSIX), or None when it lies outside."""
    try:
        return Path(os.path.realpath(path)).relative_to(root).as_posix()
    except ValueError:
        return None


def _rendered(editor: LocaleEditor, root: Path) -> dict[Path, bytes]:
    """The new content of each file `editor` changed."""
    return {
        root / change.path: editor.document(root / change.path).render()
        for change in editor.changes()
        if change.changed
    }


def _same_as_disk(path: Path, text: str) -> bool:
    try:
        return path.read_bytes() == text.encode("utf-8", "surrogatepass")
    except OSError:
        return False


def _at(
    site: KeyObservation | DynamicSite,
    severity: str,
    code: str,
    message: str,
    key: str | None = None,
) -> Finding:
    end_line = site.end_line or site.line
    end_column = site.end_column or site.column + 1
    return Finding(site.line, site.column, end_line, end_column, severity, code, message, key)


def _issue_finding(issue: Issue) -> Finding:
    """An issue located where its message says (`path:line:col: …`), else at the start."""
    line, column, message = issue_place(issue)
    severity = {"error": "error", "warning": "warning"}.get(issue.severity, "info")
    return Finding(line, column, line, column + 1, severity, issue.code, message)
