"""Repository-wide literal evidence: the quoted texts of every text file of the repository that
holds the project, in any language — a Go template's `{{ L.T "public.subTitle" }}`, a Python
backend's `I18nData("chat.title")`, a server module's `msg: "successEnabled"`, a sibling
package's `t('app.links.cli')`. A key such a text names is kept as data, never removed.

The pass is lexical (`literals.index_literals`) over every file except those the scan reads
itself (their texts come from the scan, which knows a key argument from data), the locale files,
and what nobody writes by hand: dependencies, vendored and build folders, lock files, minified
bundles, source maps and binaries. Each file's index is cached by its stat, as the scan's are.

Files of languages the scanner does not parse are also searched for translation calls whose key
is not a quoted text (`{{ item.label | translate }}`, `i18n.T(key)`, `AppLocalizations.of`):
`ForeignSite`s, which say the evidence has a blind spot there.
"""

from __future__ import annotations

import os
import re
import stat
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

import msgspec

from i18nprune.envelope import Code, Issue, info
from i18nprune.globs import glob_match
from i18nprune.locale_codes import is_language_code
from i18nprune.scan.literals import LiteralIndex, index_literals
from i18nprune.scan.records import ForeignSite, LiteralSite, RepositoryScope
from i18nprune.system.atomic import write_atomically

MAX_FILE_BYTES = 64 << 20
"""Files larger than this are not read (as for the scan); an info issue names them."""

_LISTING_RULES = "2"
"""Which rules a cached folder listing was made by: changed whenever what a listing leaves
out changes (2: virtualenvs), so that a listing made by the older rules is not kept."""

VIRTUALENV_MARK = "pyvenv.cfg"
"""A folder holding this file is a Python virtualenv (PEP 405), nobody's hand-written code
whatever its name (`.venv-ci`, `env`): its installed scripts and packages are not read."""

# Folders nobody writes by hand: dependencies, vendored code, build output, tool caches.
SKIPPED_FOLDERS = frozenset(
    {
        "node_modules",
        "bower_components",
        "jspm_packages",
        "vendor",
        "third_party",
        "third-party",
        "venv",
        "__pycache__",
        "site-packages",
        "dist",
        "build",
        "out",
        "coverage",
        "target",
        "Pods",
        "DerivedData",
        "storybook-static",
        ".git",
        ".hg",
        ".svn",
        ".next",
        ".nuxt",
        ".svelte-kit",
        ".output",
        ".cache",
        ".turbo",
        ".parcel-cache",
        ".venv",
        ".tox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".yarn",
        ".pnpm-store",
        ".idea",
        ".gradle",
        ".dart_tool",
        ".angular",
        ".expo",
        ".vercel",
        ".netlify",
        ".docusaurus",
    }
)
# Files that only list dependencies or i18nprune's own state (its lock names every key).
_SKIPPED_NAMES = frozenset(
    {
        "package-lock.json",
        "npm-shrinkwrap.json",
        "yarn.lock",
        "pnpm-lock.yaml",
        "bun.lockb",
        "composer.lock",
        "Cargo.lock",
        "poetry.lock",
        "uv.lock",
        "Pipfile.lock",
        "Gemfile.lock",
        "go.sum",
        "i18nprune.lock.json",
        "i18nprune.workspace.json",
    }
)
_SKIPPED_ENDINGS = (".min.js", ".min.mjs", ".min.css", ".map", ".meta.json")
# Binary formats, skipped by name (anything else with NUL bytes is skipped once read).
_BINARY_SUFFIXES = frozenset(
    [
        ".png",
        ".jpg",
        ".jpeg",
        ".gif",
        ".webp",
        ".avif",
        ".bmp",
        ".ico",
        ".icns",
        ".tif",
        ".tiff",
        ".psd",
        ".heic",
        ".mp3",
        ".mp4",
        ".m4a",
        ".wav",
        ".ogg",
        ".oga",
        ".webm",
        ".mov",
        ".avi",
        ".mkv",
        ".flac",
        ".woff",
        ".woff2",
        ".ttf",
        ".otf",
        ".eot",
        ".zip",
        ".gz",
        ".tgz",
        ".bz2",
        ".xz",
        ".7z",
        ".rar",
        ".zst",
        ".jar",
        ".war",
        ".class",
        ".pdf",
        ".doc",
        ".docx",
        ".xls",
        ".xlsx",
        ".ppt",
        ".pptx",
        ".exe",
        ".dll",
        ".so",
        ".dylib",
        ".a",
        ".o",
        ".obj",
        ".wasm",
        ".pyc",
        ".pyo",
        ".sqlite",
        ".sqlite3",
        ".db",
        ".bin",
        ".dat",
        ".lockb",
        ".keystore",
        ".jks",
        ".p12",
        ".der",
    ]
)
# Data formats a locale may be written in: such a file named by a locale code (`fr.json`,
# `messages.fr.xlf`, `app_en.arb`) or inside a folder named by one (`locales/en/ui.json`) is a
# locale file — of this project or of another one in the repository — whose keys are
# definitions, not uses.
_LOCALE_DATA_SUFFIXES = frozenset(
    [
        ".json",
        ".json5",
        ".yaml",
        ".yml",
        ".po",
        ".pot",
        ".xlf",
        ".xliff",
        ".arb",
        ".properties",
        ".strings",
        ".resx",
        ".toml",
    ]
)
_ALWAYS_LOCALE_SUFFIXES = frozenset({".po", ".pot", ".xlf", ".xliff", ".arb"})
_NAME_PARTS = re.compile(r"[._-]")
# How each format of `report` (reports/, cli/report_output.py) starts: a saved report names
# every key it lists, so read as evidence it would keep the unused keys it shows.
_REPORT_HEADS = re.compile(
    rb'\A(?:\{\s*"ok":\s*(?:true|false),\s*"kind":\s*"report"'
    rb'|<!doctype html>\n<html lang="en"><head><meta charset="utf-8">\n'
    rb'<meta name="generator" content="i18nprune report">'
    rb"|(?:project,)?status,key,locale,file,line,detail(?:,change)?\r?\n"
    rb"|[^\n]*: \d+ project\(s\) \xe2\x80\x94 i18nprune report\n"
    rb"|[^\n]*: \d+ source keys \([^)\n]*\), \d+ files scanned \xe2\x80\x94 i18nprune )"
)
# Bytes looked at for NUL to tell a binary file (as git does).
_BINARY_PROBE = 8000
# A file modified this close to the start of a pass may change again within the same mtime tick.
_RACY_WINDOW_NS = 100_000_000
_PREVIEW_CHARS = 80


class _Record(msgspec.Struct, frozen=True, array_like=True):
    """What is remembered of one file: its stat, whether it was read as text, its quoted texts,
    and its foreign sites as (line, column, preview)."""

    size: int
    mtime_ns: int
    inode: int
    trusted: bool
    text: bool
    literals: LiteralIndex
    foreign: list[tuple[int, int, str]]


class _Folder(msgspec.Struct, frozen=True, array_like=True):
    """What is remembered of one folder: its mtime (which changes when an entry is added,
    removed or renamed, not when a file's content changes), whether that may be trusted, and
    its entries worth looking at: sub-folders to walk and files to read (names)."""

    mtime_ns: int
    trusted: bool
    folders: list[str]
    files: list[str]


class _Pass(msgspec.Struct):
    """The last pass of one part: the folders it listed and the files it read, by path relative
    to the repository (a folder's with a trailing `/`; the root's is `""`). `listing` says what
    chose the listed files (the scan's sources and the excludes): listings made for another
    choice are not reused."""

    key: str
    listing: str = ""
    folders: dict[str, _Folder] = {}
    files: dict[str, _Record] = {}


_decoder = msgspec.msgpack.Decoder(_Pass)
_encoder = msgspec.msgpack.Encoder()

_MEMORY_KEYS = 8
_memory: OrderedDict[str, _Pass] = OrderedDict()
_memory_lock = threading.Lock()


class RepositoryReading(msgspec.Struct, frozen=True):
    """What the pass found: where the wanted texts are quoted (first place per file), the
    foreign sites, how many files it read, and its notes."""

    literals: list[LiteralSite]
    foreign: list[ForeignSite]
    files: int
    issues: list[Issue]


def read_repository(
    scope: RepositoryScope,
    wanted: dict[int, str],
    project_root: Path,
    *,
    inside: bool,
    scanned: Callable[[str], bool] = lambda relpath: False,
    sources: str = "",
    writable: bool = True,
) -> RepositoryReading:
    """The files of `scope` inside the project root (`inside`) or outside it, less those the
    scan reads (`scanned(relpath)`, relpath relative to `project_root`; `sources` identifies
    what decides that — the source folders and excludes — so that folder listings made for
    another choice are not reused), searched for the texts of `wanted` (keyed as
    `literals.keyed_by_hash`) and for foreign sites.

    The scan reads the inside part (a host that watches the project sees its changes); the
    outside part is read after every scan, whatever the host keeps. Files are named relative to
    `project_root` (`../server/app.go` outside it). Synchronous; a file that cannot be read is
    left out (an info issue names those too large to read); nothing raises for single files.
    The cache is written only when `writable`; this process keeps the last pass in memory."""
    reader = _Reader(scope, wanted, project_root, scanned, inside=inside, sources=sources)
    reader.run()
    done = reader.made
    if scope.cache_dir is not None and writable and reader.changed:
        reader.issues.extend(_save(scope.cache_dir, reader.cache_name, done))
    _remember(done)
    return RepositoryReading(
        literals=sorted(reader.sites),
        foreign=sorted(reader.foreign, key=lambda s: (s.file, s.line, s.column)),
        files=reader.read,
        issues=reader.issues,
    )


class _Reader:
    """The state of one pass."""

    def __init__(
        self,
        scope: RepositoryScope,
        wanted: dict[int, str],
        project_root: Path,
        scanned: Callable[[str], bool],
        *,
        inside: bool,
        sources: str,
    ) -> None:
        self.scope = scope
        self.wanted = wanted
        self.scanned = scanned
        self.inside = inside
        self.root = os.path.realpath(scope.root)
        self.project = os.path.realpath(project_root)
        within = os.path.relpath(self.project, self.root)
        self.project_prefix = "" if within == "." else within.replace(os.sep, "/") + "/"
        part = "inside" if inside else "outside"
        self.cache_name = f"repository-{part}-v1.msgpack"
        self.started_ns = time.time_ns()
        key = f"{part}|{self.root}|{self.project}"
        listing = "|".join([_LISTING_RULES, sources, *scope.exclude])
        self.previous = _load(scope.cache_dir, self.cache_name, key)
        self.previous_folders = self.previous.folders if self.previous.listing == listing else {}
        self.made = _Pass(key, listing, {}, {})
        self.changed = False
        self.sites: list[LiteralSite] = []
        self.foreign: list[ForeignSite] = []
        self.issues: list[Issue] = []
        self.read = 0
        self.too_large: list[str] = []
        self.unreadable: list[str] = []

    def run(self) -> None:
        for start in self._starts():
            rel = os.path.relpath(start, self.root).replace(os.sep, "/")
            self._walk(start, "" if rel == "." else rel + "/")
        self.changed = (
            self.changed
            or self.made.files.keys() != self.previous.files.keys()
            or self.made.folders.keys() != self.previous.folders.keys()
        )
        for files, why in (
            (self.too_large, f"are over {MAX_FILE_BYTES >> 20} MB"),
            (self.unreadable, "could not be read"),
        ):
            if files:
                named = ", ".join(files[:3]) + (", …" if len(files) > 3 else "")
                self.issues.append(
                    info(
                        Code.REPOSITORY_FILE_SKIPPED,
                        f"{len(files)} file(s) of the repository {why}, so keys named only "
                        f"there are not seen ({named}); `reference.repository.exclude` "
                        "silences this",
                        path=files[0],
                    )
                )

    def _starts(self) -> list[str]:
        """The folders to walk: each configured folder's part inside the project, or outside
        it (the walk then steps over the project's folder)."""
        starts: list[str] = []
        for folder in self.scope.folders:
            start = os.path.normpath(os.path.join(self.root, folder))
            if not _within(start, self.root):
                continue  # a folder outside the repository is never read
            if self.inside:
                if _within(start, self.project):
                    starts.append(start)
                elif _within(self.project, start):
                    starts.append(self.project)
            elif not _within(start, self.project):
                starts.append(start)
        return list(dict.fromkeys(starts))

    def _walk(self, start: str, start_rel: str) -> None:
        """Read every file to read under `start`; symbolic links are not followed."""
        pending = [(start, start_rel)]
        while pending:
            directory, rel = pending.pop()
            folder = self._folder(directory, rel)
            if folder is None:
                continue  # gone, or unreadable (noted): nothing of it to read
            self.made.folders[rel] = folder
            pending.extend(
                (os.path.join(directory, name), f"{rel}{name}/") for name in folder.folders
            )
            for name in folder.files:
                self._file(os.path.join(directory, name), rel + name)

    def _folder(self, directory: str, rel: str) -> _Folder | None:
        """The entries of `directory` worth looking at: as the last pass listed them while the
        folder's mtime vouches for that listing, else listed now."""
        try:
            mtime_ns = os.stat(directory, follow_symlinks=False).st_mtime_ns
        except OSError:
            return None
        known = self.previous_folders.get(rel)
        if known is not None and known.trusted and known.mtime_ns == mtime_ns:
            return known
        self.changed = True
        try:
            with os.scandir(directory) as entries:
                listed = list(entries)
        except OSError:
            self.unreadable.append((self._in_project(rel) or self._shown(directory)) + "/")
            return None
        trusted = mtime_ns < self.started_ns - _RACY_WINDOW_NS
        if any(entry.name == VIRTUALENV_MARK for entry in listed):
            return _Folder(mtime_ns, trusted, [], [])  # a virtualenv, whatever its name
        exclude = self.scope.exclude
        folders: list[str] = []
        files: list[str] = []
        for entry in listed:
            name = entry.name
            try:
                if entry.is_dir(follow_symlinks=False):
                    if not (
                        name in SKIPPED_FOLDERS
                        or (exclude and _excluded(rel + name, exclude))
                        or (not self.inside and entry.path == self.project)
                    ):
                        folders.append(name)
                elif entry.is_file(follow_symlinks=False) and not (
                    _skipped_file(name, rel)
                    or (exclude and _excluded(rel + name, exclude))
                    or self._scanned(rel + name)
                ):
                    files.append(name)
            except OSError:
                continue
        return _Folder(mtime_ns, trusted, folders, files)

    def _scanned(self, rel: str) -> bool:
        in_project = self._in_project(rel)
        return in_project is not None and self.scanned(in_project)

    def _file(self, path: str, rel: str) -> None:
        if path in self.scope.skip:
            return
        try:
            status = os.stat(path, follow_symlinks=False)
        except OSError:
            return
        if not stat.S_ISREG(status.st_mode):
            return  # became a link or something else since the folder was listed
        record = self.previous.files.get(rel)
        if (
            record is None
            or not record.trusted
            or (record.size, record.mtime_ns, record.inode)
            != (status.st_size, status.st_mtime_ns, status.st_ino)
        ):
            record = self._index(path, rel, status)
            self.changed = True
            if record is None:
                return
        self.made.files[rel] = record
        if not record.text:
            return
        self.read += 1
        in_project = self._in_project(rel)
        shown = in_project if in_project is not None else self._shown(path)
        if self.wanted:
            self.sites.extend(
                LiteralSite(text, shown, line, column)
                for text, line, column in record.literals.find(self.wanted)
            )
        self.foreign.extend(
            ForeignSite(shown, line, column, preview) for line, column, preview in record.foreign
        )

    def _index(self, path: str, rel: str, status: os.stat_result) -> _Record | None:
        """A new record of the file (`None`: it could not be read, and a note says so; it is
        then not cached)."""
        trusted = status.st_mtime_ns < self.started_ns - _RACY_WINDOW_NS
        stat_fields = (status.st_size, status.st_mtime_ns, status.st_ino, trusted)
        if status.st_size > MAX_FILE_BYTES:
            self.too_large.append(self._in_project(rel) or self._shown(path))
            return None
        try:
            with open(path, "rb") as file:
                content = file.read()
        except OSError:
            self.unreadable.append(self._in_project(rel) or self._shown(path))
            return None
        if b"\0" in content[:_BINARY_PROBE] or is_report(content):
            return _Record(*stat_fields, False, LiteralIndex(), [])
        if not content.isascii():
            try:
                content.decode("utf-8")
            except UnicodeDecodeError:  # another encoding: its ASCII texts still count
                content = content.decode("utf-8", "replace").encode("utf-8")
        return _Record(*stat_fields, True, index_literals(content), foreign_sites(rel, content))

    def _in_project(self, rel: str) -> str | None:
        """`rel` (relative to the repository) relative to the project root, if inside it."""
        prefix = self.project_prefix
        if not prefix:
            return rel
        return rel[len(prefix) :] if rel.startswith(prefix) else None

    def _shown(self, path: str) -> str:
        return os.path.relpath(path, self.project).replace(os.sep, "/")


def is_report(content: bytes) -> bool:
    """Whether `content` is a report i18nprune wrote (any of its formats): never evidence."""
    return _REPORT_HEADS.match(content) is not None


def _skipped_file(name: str, rel_folder: str) -> bool:
    """Whether file `name` in folder `rel_folder` is never read: a lock file, a minified
    bundle, a source map, a binary format, or a locale file."""
    if name in _SKIPPED_NAMES or name.endswith(_SKIPPED_ENDINGS):
        return True
    dot = name.rfind(".")
    if dot <= 0:
        return False
    suffix = name[dot:].lower()
    if suffix in _BINARY_SUFFIXES:
        return True
    if suffix not in _LOCALE_DATA_SUFFIXES:
        return False
    if suffix in _ALWAYS_LOCALE_SUFFIXES:
        return True
    stem = name[:dot]
    names = [stem, *(stem[match.end() :] for match in _NAME_PARTS.finditer(stem))]
    names += rel_folder.split("/")[:-1]
    return any(is_language_code(candidate) for candidate in names)


def _excluded(rel: str, exclude: list[str]) -> bool:
    return any(glob_match(rel, glob) for glob in exclude)


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _load(cache_dir: Path | None, name: str, key: str) -> _Pass:
    """The last pass of `key`: this process's, else the cache file's (an unreadable or foreign
    one counts as empty: it is rebuilt)."""
    with _memory_lock:
        kept = _memory.get(key)
    if kept is not None:
        return kept
    if cache_dir is not None:
        try:
            document = _decoder.decode((cache_dir / name).read_bytes())
        except (OSError, msgspec.DecodeError, msgspec.ValidationError):
            pass
        else:
            if document.key == key:
                return document
    return _Pass(key)


def _save(cache_dir: Path, name: str, done: _Pass) -> list[Issue]:
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        write_atomically(cache_dir / name, _encoder.encode(done))
    except OSError as problem:
        return [
            info(
                Code.SCAN_CACHE_ERROR,
                f"repository cache {cache_dir / name} cannot be written "
                f"({problem.strerror}); the next run reads the repository's files again",
            )
        ]
    return []


def _remember(done: _Pass) -> None:
    with _memory_lock:
        _memory[done.key] = done
        _memory.move_to_end(done.key)
        while len(_memory) > _MEMORY_KEYS:
            _memory.popitem(last=False)


# -- foreign sites -----------------------------------------------------------------------------

# Per kind of file, the translation calls whose key is an expression rather than a quoted text.
# A quoted key is found by the literal search; these are where nothing can be found.
_ANGULAR = (
    # `{{ item.label | translate }}`: a pipe fed by a value (a quoted key ends in a quote).
    rb"[\w$)\]]\s*\|\s*(?:translate|transloco)\b",
    # `[translate]="expr"`, `[transloco]="expr"` (a quoted key starts with `'`).
    rb"\[(?:translate|transloco)\]\s*=\s*\"\s*(?!')",
)
_DART = (
    # Flutter's generated getters (`AppLocalizations.of(context)!.title`, `S.of(context)`), and
    # easy_localization's `value.tr()`.
    rb"\bAppLocalizations\.of\(",
    rb"\bS\.of\(\s*context\s*\)",
    rb"[\w)\]]\.tr\(",
)
_GO = (
    # `i18n.T(key)`, `{{ L.T .Name }}` (Go templates call without parentheses).
    rb"\.(?:T|Tc|Ts|Translate|Localize|MustLocalize)\(\s*(?![\"`'])",
    rb"\bL\.T\s+(?![\"`'\s])",
)
_PYTHON = (
    rb"\b(?:_|gettext|ngettext|pgettext|lazy_gettext|gettext_lazy|I18nData)\(\s*(?![rRbBuUfF]{0,2}[\"'])",
)
_RUBY = (rb"\b(?:I18n\.)?t\(\s*(?![\"':])",)
_PHP = (rb"(?:\b__|\btrans|\btrans_choice|@lang)\(\s*(?![\"'])",)
_FOREIGN_PATTERNS: dict[str, re.Pattern[bytes]] = {
    suffix: re.compile(b"|".join(patterns))
    for suffixes, patterns in (
        ((".html", ".htm"), (*_ANGULAR, *_GO, *_PYTHON)),
        ((".dart",), _DART),
        ((".go", ".tmpl", ".gohtml", ".gotmpl"), _GO),
        ((".py", ".jinja", ".jinja2", ".j2"), _PYTHON),
        ((".rb", ".erb", ".haml", ".slim"), _RUBY),
        ((".php",), _PHP),
    )
    for suffix in suffixes
}


def foreign_sites(name: str, content: bytes) -> list[tuple[int, int, str]]:
    """(line, column, preview) of each translation call in `content` (a file called `name`,
    of a language the scanner does not parse) whose key is not a quoted text."""
    dot = name.rfind(".")
    pattern = _FOREIGN_PATTERNS.get(name[dot:].lower()) if dot > 0 else None
    if pattern is None:
        return []
    found = []
    line, counted = 1, 0
    for match in pattern.finditer(content):
        start = match.start()
        line += content.count(b"\n", counted, start)
        counted = start
        line_start = content.rfind(b"\n", 0, start) + 1
        line_end = content.find(b"\n", start)
        line_text = content[line_start : line_end if line_end >= 0 else len(content)]
        preview = line_text.decode("utf-8", "replace").strip()[:_PREVIEW_CHARS]
        column = len(content[line_start:start].decode("utf-8", "replace")) + 1
        found.append((line, column, preview))
    return found
