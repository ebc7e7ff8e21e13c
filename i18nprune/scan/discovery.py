"""Which source files a scan reads: a sorted, cycle-safe walk of `src` minus the excludes.

Symlinks inside the project root are followed once (each real file and directory is visited at
most once, so link loops end); links that leave the root are skipped with a warning.
"""

from __future__ import annotations

import os
import re
import stat
from fnmatch import translate
from pathlib import Path
from typing import NamedTuple

from i18nprune.config.schema import ExcludeConfig
from i18nprune.envelope import Code, Issue, error, warning
from i18nprune.scan.grammars import SCANNED_SUFFIXES
from i18nprune.scan.records import ExcludedFolder

DEFAULT_SKIP_DIRS = frozenset(
    {
        "node_modules",
        "dist",
        "build",
        "coverage",
        ".git",
        ".next",
        ".nuxt",
        ".svelte-kit",
        ".output",
        "out",
    }
)
PRODUCTION_SKIP_DIRS = frozenset({"node_modules", "dist", "build", "compiled", "tests", "bench"})
PRODUCTION_SKIP_FILES = ("*.test.*", "*.spec.*")
# Counting the sources of an excluded folder stops here: the report needs an idea, not a census.
_COUNT_LIMIT = 10_000


class SourceFile(NamedTuple):
    """A discovered file: its real path relative to the root (the real root joined with it is
    its absolute path; not kept, as a scan holds one of these per file) and its stat."""

    relpath: str
    size: int
    mtime_ns: int
    inode: int


class Discovery(NamedTuple):
    """The files to scan, sorted by `relpath`, what went wrong while looking for them, and the
    folders an exclude rule (other than the default skip set) kept out."""

    files: list[SourceFile]
    issues: list[Issue]
    excluded: list[ExcludedFolder]


class _Excludes:
    """The exclude settings, compiled once."""

    def __init__(self, exclude: ExcludeConfig, issues: list[Issue]) -> None:
        production = exclude.preset == "production"
        self.dir_names = (DEFAULT_SKIP_DIRS if exclude.use_default_skip else frozenset()) | (
            PRODUCTION_SKIP_DIRS if production else frozenset()
        )
        self.dir_globs = _globs(exclude.dirs)
        self.file_globs = _globs([*exclude.files, *(PRODUCTION_SKIP_FILES if production else ())])
        self.endings = tuple(
            ending if ending.startswith(".") else "." + ending
            for ending in exclude.extensions
            if ending.strip(".")
        )
        self.patterns: list[re.Pattern[str]] = []
        for index, pattern in enumerate(exclude.patterns):
            try:
                self.patterns.append(re.compile(pattern))
            except re.error as problem:
                issues.append(
                    error(
                        Code.CONFIG_INVALID,
                        f"exclude.patterns[{index}] {pattern!r} is not a valid regular "
                        f"expression ({problem}); fix or remove it.",
                    )
                )

    def skips_dir(self, name: str) -> str | None:
        """Which setting keeps a folder called `name` out of the scan, if one does."""
        if name in self.dir_names:
            return "exclude.preset" if name not in DEFAULT_SKIP_DIRS else "default"
        if self.dir_globs and self.dir_globs.match(name):
            return "exclude.dirs"
        return None

    def keeps_file(self, name: str, walked: str) -> bool:
        """Whether file `name`, at path `walked` relative to `src`, is a source to scan."""
        dot = name.rfind(".")
        if dot <= 0 or name[dot:] not in SCANNED_SUFFIXES:
            return False
        if (self.file_globs and self.file_globs.match(name)) or name.endswith(self.endings):
            return False
        return not any(pattern.search(walked) for pattern in self.patterns)


def _globs(globs: list[str]) -> re.Pattern[str] | None:
    """One pattern matching a base name equal to, or matched by, any of `globs`."""
    if not globs:
        return None
    alternatives = [re.escape(glob) + r"\Z" for glob in globs]
    alternatives += [translate(glob) for glob in globs]
    return re.compile("|".join(f"(?:{alternative})" for alternative in alternatives))


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


class _Walk:
    """The state of one discovery walk."""

    def __init__(self, root: str, excludes: _Excludes, issues: list[Issue]) -> None:
        self.root = root
        self.excludes = excludes
        self.issues = issues
        self.files: dict[str, SourceFile] = {}
        self.visited_dirs: set[str] = set()
        self.links: list[tuple[str, str]] = []
        self.excluded: list[ExcludedFolder] = []

    def relative(self, path: str) -> str:
        """`path` (inside the root) relative to the root, with `/` separators."""
        if path == self.root:
            return "."
        return path[len(self.root.rstrip(os.sep)) + 1 :].replace(os.sep, "/")

    def directory(self, real: str, walked: str) -> None:
        """Walk a real directory; symlinks found in it are queued for `follow_links`."""
        if real in self.visited_dirs:
            return  # reached again through another source directory
        self.visited_dirs.add(real)
        try:
            with os.scandir(real) as iterator:
                entries = list(iterator)
        except OSError as problem:
            self.issues.append(
                warning(
                    Code.SCAN_UNREADABLE,
                    f"{self.relative(real)}: directory cannot be read ({problem.strerror}); "
                    "its files are not scanned.",
                    path=self.relative(real),
                )
            )
            return
        relative_dir = "" if real == self.root else self.relative(real) + "/"
        files = self.files
        for entry in entries:
            name = entry.name
            walked_path = walked + name
            try:
                if entry.is_file(follow_symlinks=False):  # the common case, kept fast
                    if self.excludes.keeps_file(name, walked_path):
                        status = entry.stat(follow_symlinks=False)
                        relpath = relative_dir + name
                        files[relpath] = SourceFile(
                            relpath, status.st_size, status.st_mtime_ns, status.st_ino
                        )
                elif entry.is_symlink():
                    self.links.append((entry.path, walked_path))
                elif entry.is_dir(follow_symlinks=False):
                    rule = self.excludes.skips_dir(name)
                    if rule is None:
                        self.directory(entry.path, walked_path + "/")
                    elif rule != "default":
                        self.excluded_folder(entry.path, rule)
                elif self.excludes.keeps_file(name, walked_path):
                    self.file(entry.path, entry.stat(follow_symlinks=False))
            except OSError as problem:
                self.unreadable(entry.path, problem)

    def excluded_folder(self, real: str, rule: str) -> None:
        """Note a folder an exclude rule skips, with how many source files it holds."""
        count = 0
        for _, _, names in os.walk(real):
            count += sum(1 for name in names if _suffix(name) in SCANNED_SUFFIXES)
            if count >= _COUNT_LIMIT:
                break
        self.excluded.append(ExcludedFolder(self.relative(real), rule, count))

    def file(self, real: str, status: os.stat_result) -> None:
        relpath = self.relative(real)
        if not stat.S_ISREG(status.st_mode):
            self.issues.append(
                warning(
                    Code.SCAN_UNREADABLE,
                    f"{relpath}: not a regular file; skipped.",
                    path=relpath,
                )
            )
            return
        self.files.setdefault(
            relpath, SourceFile(relpath, status.st_size, status.st_mtime_ns, status.st_ino)
        )

    def unreadable(self, path: str, problem: OSError) -> None:
        relpath = self.relative(path)
        self.issues.append(
            warning(
                Code.SCAN_UNREADABLE,
                f"{relpath}: cannot be read ({problem.strerror}); skipped.",
                path=relpath,
            )
        )

    def follow_links(self) -> None:
        """Follow the queued symlinks, in order, including those found behind them."""
        # Links are followed in path order so that which path reaches a target first, and
        # so every issue, does not depend on the order the file system lists entries in.
        self.links.sort()
        position = 0
        while position < len(self.links):
            link, walked = self.links[position]
            position += 1
            name = walked.rsplit("/", 1)[-1]
            try:
                self.link(link, walked, name)
            except OSError as problem:
                self.unreadable(link, problem)

    def link(self, link: str, walked: str, name: str) -> None:
        real = os.path.realpath(link)
        is_dir = os.path.isdir(real)
        if not is_dir and not self.excludes.keeps_file(name, walked):
            return
        if is_dir and self.excludes.skips_dir(name) is not None:
            return
        relpath = self.relative(link)
        if not _inside(real, self.root):
            self.issues.append(
                warning(
                    Code.SCAN_SYMLINK_SKIPPED,
                    f"{relpath}: symlink to {real}, outside the project root; not scanned. "
                    "Keys used only there may look unused.",
                    path=relpath,
                )
            )
        elif is_dir:
            if real not in self.visited_dirs:
                self.directory(real, walked + "/")
        elif not os.path.lexists(real) or not os.path.exists(link):
            self.issues.append(
                warning(
                    Code.SCAN_UNREADABLE,
                    f"{relpath}: broken symlink (its target does not exist); skipped.",
                    path=relpath,
                )
            )
        else:
            self.file(real, os.stat(real))


def discover_sources(root: Path, src_dirs: list[Path], exclude: ExcludeConfig) -> Discovery:
    """The source files under each of `src_dirs` to scan, with issues for what had to be
    skipped.

    File paths are real paths (symlinks resolved) relative to `root`, with `/` separators; a
    file under two source directories is listed once. A source directory outside the root or
    missing is an error issue and yields no files.
    """
    issues: list[Issue] = []
    excludes = _Excludes(exclude, issues)
    real_root = os.path.realpath(root)
    walk = _Walk(real_root, excludes, issues)
    for src_dir in src_dirs:
        real_src = os.path.realpath(src_dir)
        if not _inside(real_src, real_root):
            issues.append(
                error(
                    Code.PATH_OUTSIDE_ROOT,
                    f"source directory {src_dir} is outside the project root {root}; "
                    "point `src` at a directory inside the project.",
                )
            )
        elif not os.path.isdir(real_src):
            issues.append(
                error(
                    Code.SRC_MISSING,
                    f"source directory {src_dir} does not exist; set `src` in the config "
                    "or pass --src.",
                )
            )
        else:
            walk.directory(real_src, "")
    walk.follow_links()
    files = [walk.files[relpath] for relpath in sorted(walk.files)]
    return Discovery(files, issues, sorted(walk.excluded, key=lambda folder: folder.path))


def _suffix(name: str) -> str:
    dot = name.rfind(".")
    return name[dot:] if dot > 0 else ""
