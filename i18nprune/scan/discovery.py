"""Which source files a scan reads: a sorted, cycle-safe walk of `src` minus the excludes.

Symlinks inside the project root are followed once (each real file and directory is visited at
most once, so link loops end); links that leave the root are skipped with a warning.
"""

from __future__ import annotations

import os
import re
import stat
from array import array
from bisect import bisect_left
from collections.abc import Collection, Iterable, Iterator, Sequence
from fnmatch import translate
from pathlib import Path
from typing import NamedTuple, overload

from i18nprune.config.schema import ExcludeConfig
from i18nprune.envelope import Code, Issue, error, warning
from i18nprune.scan.grammars import scanned_suffixes
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
_LISTS_BY_DESCRIPTOR = os.scandir in os.supports_fd
_DIRECTORY_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)


class SourceFile(NamedTuple):
    """A discovered file: its real path relative to the root (the real root joined with it is
    its absolute path; not kept, as a scan holds one of these per file) and its stat."""

    relpath: str
    size: int
    mtime_ns: int
    inode: int


class SourceFiles(Sequence[SourceFile]):
    """Discovered files, kept compactly: their paths in a list and their stats in three packed
    arrays (a scan of 100k files holds every one of them; as `SourceFile` tuples with their
    ints they took ~180 bytes a file more). Items are made as they are read.

    Equal to another `SourceFiles`, or to a list of `SourceFile`, with the same items in the
    same order. Lookups by path (`find`) expect the files sorted by `relpath`, as discovery
    lists them."""

    __slots__ = ("_inodes", "_mtimes", "_sizes", "relpaths")

    def __init__(self, files: Iterable[SourceFile] = ()) -> None:
        self.relpaths: list[str] = []
        """Each file's `relpath`, in order."""
        self._sizes = array("q")
        self._mtimes = array("q")
        self._inodes = array("Q")
        for file in files:
            self.append(*file)

    def append(self, relpath: str, size: int, mtime_ns: int, inode: int) -> None:
        """Add a file at the end."""
        self.relpaths.append(relpath)
        self._sizes.append(size)
        self._mtimes.append(mtime_ns)
        self._inodes.append(inode)

    def insert(self, index: int, file: SourceFile) -> None:
        """Add `file` before position `index`."""
        self.relpaths.insert(index, file.relpath)
        self._sizes.insert(index, file.size)
        self._mtimes.insert(index, file.mtime_ns)
        self._inodes.insert(index, file.inode)

    def replace(self, index: int, file: SourceFile) -> None:
        """Put `file` in place of the file at `index`."""
        self.relpaths[index] = file.relpath
        self._sizes[index] = file.size
        self._mtimes[index] = file.mtime_ns
        self._inodes[index] = file.inode

    def __delitem__(self, index: int) -> None:
        del self.relpaths[index], self._sizes[index], self._mtimes[index], self._inodes[index]

    def copy(self) -> SourceFiles:
        """A copy that changes independently of this one."""
        copied = SourceFiles()
        copied.relpaths = self.relpaths.copy()
        copied._sizes = array("q", self._sizes)
        copied._mtimes = array("q", self._mtimes)
        copied._inodes = array("Q", self._inodes)
        return copied

    def ordered(self, order: Sequence[int]) -> SourceFiles:
        """The files at the positions `order` gives, in that order."""
        chosen = SourceFiles()
        relpaths, sizes, mtimes, inodes = self.relpaths, self._sizes, self._mtimes, self._inodes
        chosen.relpaths = [relpaths[index] for index in order]
        chosen._sizes = array("q", (sizes[index] for index in order))
        chosen._mtimes = array("q", (mtimes[index] for index in order))
        chosen._inodes = array("Q", (inodes[index] for index in order))
        return chosen

    def position(self, relpath: str) -> int:
        """Where `relpath` is, or would be inserted, in files sorted by `relpath`."""
        return bisect_left(self.relpaths, relpath)

    def index_of(self, relpath: str) -> int | None:
        """The position of the file with `relpath` (the files sorted by `relpath`), if there
        is one."""
        index = bisect_left(self.relpaths, relpath)
        if index < len(self.relpaths) and self.relpaths[index] == relpath:
            return index
        return None

    def find(self, relpath: str) -> SourceFile | None:
        """The file with `relpath` (the files sorted by `relpath`), if there is one."""
        index = self.index_of(relpath)
        return None if index is None else self[index]

    def stats(self) -> Iterator[tuple[str, int, int, int]]:
        """`(relpath, size, mtime_ns, inode)` of each file, in order, without making tuples
        that outlive the loop reading them."""
        return zip(self.relpaths, self._sizes, self._mtimes, self._inodes, strict=True)

    def total_size(self) -> int:
        """The sum of the files' sizes."""
        return sum(self._sizes)

    def __len__(self) -> int:
        return len(self.relpaths)

    @overload
    def __getitem__(self, index: int) -> SourceFile: ...

    @overload
    def __getitem__(self, index: slice) -> SourceFiles: ...

    def __getitem__(self, index: int | slice) -> SourceFile | SourceFiles:
        if isinstance(index, slice):
            return self.ordered(range(len(self))[index])
        return SourceFile(
            self.relpaths[index], self._sizes[index], self._mtimes[index], self._inodes[index]
        )

    def __iter__(self) -> Iterator[SourceFile]:
        for relpath, size, mtime_ns, inode in self.stats():
            yield SourceFile(relpath, size, mtime_ns, inode)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SourceFiles):
            return (self.relpaths, self._sizes, self._mtimes, self._inodes) == (
                other.relpaths,
                other._sizes,
                other._mtimes,
                other._inodes,
            )
        if isinstance(other, list):
            return list(self) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"SourceFiles({list(self)!r})"


class Discovery(NamedTuple):
    """The files to scan, sorted by `relpath`, what went wrong while looking for them, and the
    folders an exclude rule (other than the default skip set) kept out; `link_targets`: where
    the links the walk followed lead (relative to the root), whose changes `rediscover` cannot
    attribute by path."""

    files: SourceFiles
    issues: list[Issue]
    excluded: list[ExcludedFolder]
    link_targets: frozenset[str] = frozenset()


class _Excludes:
    """The exclude settings, compiled once."""

    def __init__(
        self, exclude: ExcludeConfig, issues: list[Issue], *, templates: bool = False
    ) -> None:
        self.suffixes = scanned_suffixes(templates)
        """The suffixes of the files scanned (`.html` too with Angular templates)."""
        production = exclude.preset == "production"
        self.dir_names = (DEFAULT_SKIP_DIRS if exclude.use_default_skip else frozenset()) | (
            PRODUCTION_SKIP_DIRS if production else frozenset()
        )
        self.dir_globs = _globs(exclude.dirs)
        file_globs = [*exclude.files, *(PRODUCTION_SKIP_FILES if production else ())]
        self.file_globs = _globs(file_globs)
        self.file_hint = _hint(file_globs)
        self.endings = tuple(
            ending if ending.startswith(".") else "." + ending
            for ending in exclude.extensions
            if ending.strip(".")
        )
        self.patterns: list[re.Pattern[str]] = []
        self.drop_hint: re.Pattern[str] | None = None
        """Found in the name of every source file that a rule drops (when set and no path
        pattern is configured): the walk asks `drops_source` only about names it is found in."""
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
        if not exclude.patterns and (self.file_hint is not None or not file_globs):
            hints = [self.file_hint.pattern] if self.file_hint is not None else []
            hints += [re.escape(ending) + r"\Z" for ending in self.endings]
            self.drop_hint = re.compile("|".join(hints)) if hints else None

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
        if dot <= 0 or name[dot:] not in self.suffixes:
            return False
        return not self.drops_source(name, walked)

    def drops_source(self, name: str, walked: str) -> bool:
        """Whether a rule keeps out file `name` (a scanned suffix), at `walked` under `src`."""
        hinted = self.file_hint is None or self.file_hint.search(name) is not None
        if self.file_globs and hinted and self.file_globs.match(name):
            return True
        if name.endswith(self.endings):
            return True
        return bool(self.patterns) and any(pattern.search(walked) for pattern in self.patterns)

    @property
    def drops_sources(self) -> bool:
        """Whether any rule keeps out files by name or path (else `drops_source` is False)."""
        return bool(self.file_globs or self.endings or self.patterns)


def _globs(globs: list[str]) -> re.Pattern[str] | None:
    """One pattern matching a base name equal to, or matched by, any of `globs`."""
    if not globs:
        return None
    alternatives = [re.escape(glob) + r"\Z" for glob in globs]
    alternatives += [translate(glob) for glob in globs]
    return re.compile("|".join(f"(?:{alternative})" for alternative in alternatives))


def _hint(globs: list[str]) -> re.Pattern[str] | None:
    """A pattern that finds, in any name one of `globs` matches, that glob's longest run of
    plain characters; None when a glob has none (or a `[…]` set, whose letters are not plain).
    Searching for it is several times faster than matching the globs, and most names fail."""
    runs = []
    for glob in globs:
        if "[" in glob:
            return None
        run = max(re.split(r"[*?]", glob), key=len)
        if not run:
            return None
        runs.append(re.escape(run))
    return re.compile("|".join(runs)) if runs else None


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


class _Walk:
    """The state of one discovery walk."""

    def __init__(self, root: str, excludes: _Excludes, issues: list[Issue]) -> None:
        self.root = root
        self.excludes = excludes
        self.issues = issues
        self.files = SourceFiles()
        """The files found, in the order found (`sorted_files` sorts them; a file reached again
        through a link is listed again)."""
        self.visited_dirs: set[str] = set()
        self.links: list[tuple[str, str]] = []
        self.link_targets: set[str] = set()
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
        fd = None
        try:
            if _LISTS_BY_DESCRIPTOR:
                # Each file's stat then looks up one name in the directory, not a whole path.
                fd = os.open(real, _DIRECTORY_FLAGS)
            with os.scandir(real if fd is None else fd) as iterator:
                entries = list(iterator)
        except OSError as problem:
            if fd is not None:
                os.close(fd)
            self.unreadable_directory(real, problem)
            return
        try:
            self.entries(real, walked, entries)
        finally:
            if fd is not None:
                os.close(fd)

    def entries(self, real: str, walked: str, entries: list[os.DirEntry[str]]) -> None:
        """Take in the entries of directory `real` (listed by descriptor where the system can:
        `entry.path` may be the name alone)."""
        relative_dir = "" if real == self.root else self.relative(real) + "/"
        add = self.files.append
        excludes = self.excludes
        drops = excludes.drops_source if excludes.drops_sources else None
        hint = excludes.drop_hint.search if excludes.drop_hint is not None else None
        suffixes = excludes.suffixes
        for entry in entries:
            name = entry.name
            try:
                if entry.is_file(follow_symlinks=False):  # the common case, kept fast
                    dot = name.rfind(".")
                    if dot <= 0 or name[dot:] not in suffixes:
                        continue
                    if (
                        drops is not None
                        and (hint is None or hint(name) is not None)
                        and drops(name, walked + name)
                    ):
                        continue
                    status = entry.stat(follow_symlinks=False)
                    add(relative_dir + name, status.st_size, status.st_mtime_ns, status.st_ino)
                    continue
                path = os.path.join(real, name)
                walked_path = walked + name
                if entry.is_symlink():
                    self.links.append((path, walked_path))
                elif entry.is_dir(follow_symlinks=False):
                    rule = excludes.skips_dir(name)
                    if rule is None:
                        self.directory(path, walked_path + "/")
                    elif rule != "default":
                        self.excluded_folder(path, rule)
                elif excludes.keeps_file(name, walked_path):
                    self.file(path, entry.stat(follow_symlinks=False))
            except OSError as problem:
                self.unreadable(os.path.join(real, name), problem)

    def unreadable_directory(self, real: str, problem: OSError) -> None:
        self.issues.append(
            warning(
                Code.SCAN_UNREADABLE,
                f"{self.relative(real)}: directory cannot be read ({problem.strerror}); "
                "its files are not scanned.",
                path=self.relative(real),
            )
        )

    def excluded_folder(self, real: str, rule: str) -> None:
        """Note a folder an exclude rule skips, with how many source files it holds."""
        count = 0
        for _, _, names in os.walk(real):
            count += sum(1 for name in names if _suffix(name) in self.excludes.suffixes)
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
        self.files.append(relpath, status.st_size, status.st_mtime_ns, status.st_ino)

    def sorted_files(self) -> SourceFiles:
        """The files found, sorted by `relpath`, each once (as first found)."""
        relpaths = self.files.relpaths
        order = sorted(range(len(relpaths)), key=relpaths.__getitem__)
        if self.links:  # only a link reaches a file twice
            order = [
                index
                for previous, index in zip([-1, *order], order, strict=False)
                if previous < 0 or relpaths[previous] != relpaths[index]
            ]
        return self.files.ordered(order)

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
            self.link_targets.add(self.relative(real))
            if real not in self.visited_dirs:
                self.directory(real, walked + "/")
        elif not os.path.lexists(real) or not os.path.exists(link):
            self.link_targets.add(self.relative(real))  # the file it names may appear
            self.issues.append(
                warning(
                    Code.SCAN_UNREADABLE,
                    f"{relpath}: broken symlink (its target does not exist); skipped.",
                    path=relpath,
                )
            )
        else:
            self.link_targets.add(self.relative(real))
            self.file(real, os.stat(real))


def discover_sources(
    root: Path, src_dirs: list[Path], exclude: ExcludeConfig, *, templates: bool = False
) -> Discovery:
    """The source files under each of `src_dirs` to scan, with issues for what had to be
    skipped; with `templates`, Angular's `.html` templates too.

    File paths are real paths (symlinks resolved) relative to `root`, with `/` separators; a
    file under two source directories is listed once. A source directory outside the root or
    missing is an error issue and yields no files.
    """
    issues: list[Issue] = []
    excludes = _Excludes(exclude, issues, templates=templates)
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
    files = walk.sorted_files()
    excluded = sorted(walk.excluded, key=lambda folder: folder.path)
    return Discovery(files, issues, excluded, frozenset(walk.link_targets))


_REDISCOVERED_AT_MOST = 1_000
"""`rediscover` looks at up to this many paths, or a quarter of the files if more; a larger
change is walked."""
REWALKED_NAMES = frozenset({".gitignore", "package.json", "i18nprune.workspace.json"})
"""Files whose change makes `rediscover` give up (as does any `i18nprune.config.*`): what
discovery is given may have changed with them, so a host walks again to be sure."""


def rediscover(
    previous: Discovery,
    root: Path,
    src_dirs: list[Path],
    exclude: ExcludeConfig,
    changed: Collection[str],
    *,
    templates: bool = False,
) -> Discovery | None:
    """What `discover_sources(root, src_dirs, exclude)` finds now, from what it found before
    (`previous`, with the same arguments) and the paths that changed since (relative to the
    real root, `/`-separated: files created, modified or deleted): each is looked at again,
    nothing else is.

    None when the change cannot be applied path by path and only a walk can tell: `previous`
    has issues, a changed path is a link, where a link `previous` followed leads, under an
    exclude rule that notes folders, or a source that is not a regular file; a source
    directory is gone or holds another, a configuration file changed, or the default skip set
    is off (the folders it names may not be watched). Also None when a walk costs less: more
    paths than a thousand and a quarter of the files (a checkout).
    """
    if previous.issues or not exclude.use_default_skip:
        return None
    if len(changed) > max(_REDISCOVERED_AT_MOST, len(previous.files) // 4):
        return None  # a checkout, say: walking costs less than looking at each path
    real_root = os.path.realpath(root)
    sources = _source_prefixes(real_root, src_dirs)
    if sources is None:
        return None
    issues: list[Issue] = []
    excludes = _Excludes(exclude, issues, templates=templates)
    if issues:
        return None
    files = previous.files.copy()
    for relpath in sorted(changed):
        name = relpath.rsplit("/", 1)[-1]
        if name in REWALKED_NAMES or name.startswith("i18nprune.config."):
            return None
        if any(_under(relpath, target) for target in previous.link_targets):
            return None
        walked = _walked(relpath, sources, excludes)
        if walked is None:
            return None
        source = bool(walked) and excludes.keeps_file(name, walked)
        if walked and not _restat(real_root, relpath, files, source=source):
            return None
    return Discovery(files, [], previous.excluded, previous.link_targets)


def _under(relpath: str, folder: str) -> bool:
    return folder == "." or relpath == folder or relpath.startswith(folder + "/")


def _source_prefixes(real_root: str, src_dirs: list[Path]) -> list[str] | None:
    """Each source directory as a prefix of the paths under it (`""`: the root itself); None
    when one is missing, outside the root or inside another."""
    prefixes = []
    for src_dir in src_dirs:
        real = os.path.realpath(src_dir)
        if not _inside(real, real_root) or not os.path.isdir(real):
            return None
        relative = real[len(real_root.rstrip(os.sep)) + 1 :].replace(os.sep, "/")
        prefixes.append(relative + "/" if relative else "")
    for prefix in prefixes:
        if any(other != prefix and other.startswith(prefix) for other in prefixes):
            return None
    if len(set(prefixes)) != len(prefixes):
        return None
    return prefixes


def _walked(relpath: str, sources: list[str], excludes: _Excludes) -> str | None:
    """`relpath` relative to the source directory holding it, as the walk would reach it;
    `""` when no walk reaches it (outside every source directory, or in a folder of the
    default skip set); None when an exclude rule that notes folders covers it."""
    for prefix in sources:
        if relpath.startswith(prefix):
            walked = relpath[len(prefix) :]
            break
    else:
        return ""
    for folder in walked.split("/")[:-1]:
        rule = excludes.skips_dir(folder)
        if rule == "default":
            return ""
        if rule is not None:
            return None
    return walked


def _restat(real_root: str, relpath: str, files: SourceFiles, *, source: bool) -> bool:
    """Bring `relpath`'s entry of `files` (sorted) up to date: its stat now when it is a
    `source` by name, no entry when it is gone. False when it is a link (the walk follows
    links, whatever their names), a source that is not a regular file, or unreadable."""
    index = files.position(relpath)
    listed = index < len(files) and files.relpaths[index] == relpath
    try:
        status = os.lstat(os.path.join(real_root, relpath))
    except FileNotFoundError:
        if listed:
            del files[index]
        return True
    except OSError:
        return False
    if stat.S_ISLNK(status.st_mode):
        return False
    if not source:
        return True
    if not stat.S_ISREG(status.st_mode):
        return False
    file = SourceFile(relpath, status.st_size, status.st_mtime_ns, status.st_ino)
    if listed:
        files.replace(index, file)
    else:
        files.insert(index, file)
    return True


def _suffix(name: str) -> str:
    dot = name.rfind(".")
    return name[dot:] if dot > 0 else ""
