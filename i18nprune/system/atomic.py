"""Replacing a file's bytes atomically: after a crash or kill the file holds the old bytes or the
new ones, never a mix. Temp files are named `.<name>.<random>.tmp`, so nothing that looks for
`*.json` files ever picks one up; the next write of a file removes the ones a kill left of it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import time
from collections.abc import Iterable
from pathlib import Path

from i18nprune.system.descriptors import write_all


def write_atomically(target: Path, content: bytes | Iterable[bytes]) -> None:
    """Make `content` (bytes, or chunks of them in order) the bytes of `target`, atomically
    and durably.

    The bytes go to a temp file in `target`'s folder that takes the old file's permission bits
    and owner (a new file gets the umask's defaults); it is flushed to disk, renamed over
    `target`, and the folder is flushed so the rename survives a power loss. `target` must not
    be a symbolic link (the rename would replace the link): resolve it first.

    Raises `OSError` when a step fails; the temp file is then removed and `target` is unchanged.
    A kill at any moment leaves `target` whole, at worst with a stale temp file beside it.
    """
    replacement = AtomicFile(target)
    try:
        for chunk in [content] if isinstance(content, bytes) else content:
            replacement.write(chunk)
        replacement.commit()
    finally:
        replacement.abort()


def create_atomically(target: Path, content: bytes) -> bool:
    """Make a new file `target` holding `content`, atomically and durably, unless a file of that
    name exists: then nothing is written and the answer is False.

    As `write_atomically`, but the temp file is linked to `target`'s name, which fails when the
    name is taken (also when another process takes it in the meantime), instead of renamed
    over it; a file system without hard links gets a check, then the rename. Raises `OSError`
    when a step fails; the temp file is then removed and no `target` is made.
    """
    replacement = AtomicFile(target)
    try:
        replacement.write(content)
        return replacement.commit_new()
    finally:
        replacement.abort()


_BUFFER_BYTES = 1 << 16


class AtomicFile:
    """New bytes for `target`, written in pieces over any length of time and put in place at
    once by `commit`, with the guarantees of `write_atomically` (whose temp file, ownership
    and flushing this is). Until `commit`, `target` is untouched; `abort` (or any failure of
    `commit`) removes the temp file. Small writes are gathered into 64 KB ones.

    Raises `OSError` when the temp file cannot be made (nothing is left behind then)."""

    def __init__(self, target: Path) -> None:
        self.target = target
        temp = target.with_name(f".{target.name}.{os.urandom(8).hex()}.tmp")
        self._descriptor: int | None = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        self._temp: Path | None = temp
        self._buffer = bytearray()
        self._flushed = 0
        try:
            _hold(self._descriptor)
            _take_ownership_of(target, self._descriptor)
        except BaseException:
            self.abort()
            raise
        remove_abandoned_temps(target)

    def tell(self) -> int:
        """How many bytes were written so far: the offset of the next."""
        return self._flushed + len(self._buffer)

    def write(self, data: bytes | bytearray | memoryview) -> None:
        """Append `data`. Raises `OSError` (the file is then unusable: `abort` it)."""
        if len(data) >= _BUFFER_BYTES and not self._buffer:
            self._write_out(data)
            return
        self._buffer += data
        if len(self._buffer) >= _BUFFER_BYTES:
            self._flush()

    def overwrite(self, offset: int, data: bytes) -> None:
        """Put `data` in place of the bytes already written at `offset` (a length written
        before the items it counts were known). Raises `OSError`."""
        assert offset + len(data) <= self.tell()
        self._flush()
        descriptor = self._open_descriptor()
        view = memoryview(data)
        while view:
            written = os.pwrite(descriptor, view, offset)
            view, offset = view[written:], offset + written

    def commit(self) -> None:
        """Flush the bytes to disk and rename them over `target` (then flush its folder).
        Raises `OSError`; the temp file is then removed and `target` is unchanged."""
        try:
            self._flush()
            descriptor = self._open_descriptor()
            os.fsync(descriptor)
            self._descriptor = None
            os.close(descriptor)
            assert self._temp is not None
            os.replace(self._temp, self.target)
        except BaseException:
            self.abort()
            raise
        self._temp = None
        _sync_folder(self.target.parent)

    def commit_new(self) -> bool:
        """`commit` for a `target` that must not exist: False, and the temp file removed, when
        it does (see `create_atomically`). Raises `OSError`."""
        try:
            self._flush()
            descriptor = self._open_descriptor()
            os.fsync(descriptor)
            self._descriptor = None
            os.close(descriptor)
            assert self._temp is not None
            if not _link_new(self._temp, self.target):
                self.abort()
                return False
        except BaseException:
            self.abort()
            raise
        self.abort()  # the temp name: the bytes stay under `target`'s
        _sync_folder(self.target.parent)
        return True

    def abort(self) -> None:
        """Give up: close and remove the temp file (nothing once committed; twice is fine)."""
        descriptor, self._descriptor = self._descriptor, None
        if descriptor is not None:
            with contextlib.suppress(OSError):
                os.close(descriptor)
        temp, self._temp = self._temp, None
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)

    def _flush(self) -> None:
        if self._buffer:
            self._write_out(self._buffer)
            self._buffer = bytearray()

    def _write_out(self, data: bytes | bytearray | memoryview) -> None:
        write_all(self._open_descriptor(), data)  # a full disk may take less at a time
        self._flushed += len(data)

    def _open_descriptor(self) -> int:
        if self._descriptor is None:
            raise OSError(errno.EBADF, "the replacement was committed or abandoned")
        return self._descriptor


_TEMP_RANDOM = re.compile(r"[0-9a-f]{16}")
ABANDONED_AFTER = 60.0
"""Seconds since its last write after which a temp file no live writer holds is abandoned: the
age covers the moment between a writer's making its temp file and locking it."""
ABANDONED_AFTER_UNLOCKED = 86400.0
"""The same where files cannot be locked (Windows, some network mounts): a day, far longer
than any write takes."""


def remove_abandoned_temps(target: Path) -> list[Path]:
    """Remove the temp files of earlier writes of `target` that a crash or kill left beside it,
    and say which. Only names this module makes (`.<name>.<16 hex digits>.tmp`) that are
    regular files are candidates, and one goes only when no live writer holds it (a writer
    keeps an exclusive `flock` on its temp file until it is renamed; a killed one loses it)
    and nothing wrote to it for `ABANDONED_AFTER` seconds (`ABANDONED_AFTER_UNLOCKED` where
    files cannot be locked). Problems (a folder that cannot be listed, a file that cannot be
    removed) leave the file: this is tidying, never a reason to fail a write."""
    prefix = f".{target.name}."
    removed = []
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return []
    now = time.time()
    for entry in entries:
        name = entry.name
        if (
            name.startswith(prefix)
            and name.endswith(".tmp")
            and _TEMP_RANDOM.fullmatch(name, len(prefix), len(name) - 4)
            and _abandoned(entry.path, now)
        ):
            removed.append(Path(entry.path))
    return removed


def _abandoned(path: str, now: float) -> bool:
    """Whether the temp file at `path` was abandoned, and so removed (see
    `remove_abandoned_temps`)."""
    try:
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        descriptor = os.open(path, flags)
    except OSError:
        return False
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            return False
        locked = _try_lock(descriptor)
        if locked is False:  # a live writer holds it
            return False
        age = ABANDONED_AFTER if locked else ABANDONED_AFTER_UNLOCKED
        if now - status.st_mtime < age:
            return False
        os.unlink(path)
        return True
    except OSError:
        return False
    finally:
        os.close(descriptor)


def _hold(descriptor: int) -> None:
    """Lock the new temp file `descriptor` opened, so that no other write of its target takes
    it for abandoned while this process lives (where files can be locked)."""
    _try_lock(descriptor)


def _try_lock(descriptor: int) -> bool | None:
    """Take an exclusive lock of the file `descriptor` opened without waiting: True when
    taken, False when another process holds one, None when files cannot be locked here."""
    try:
        import fcntl
    except ImportError:  # Windows
        return None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:  # a file system without locks (ENOLCK, EOPNOTSUPP)
        return None
    return True


_NO_HARD_LINKS = frozenset({errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS})


def _link_new(temp: Path, target: Path) -> bool:
    """Give `temp`'s file the name `target` too, unless that name is taken (False)."""
    try:
        os.link(temp, target)
    except FileExistsError:
        return False
    except OSError as exc:
        if exc.errno not in _NO_HARD_LINKS:
            raise
        if os.path.lexists(target):
            return False
        os.replace(temp, target)
    return True


def _take_ownership_of(target: Path, descriptor: int) -> None:
    """Give the temp file `target`'s permission bits and, where allowed, its owner."""
    if os.name != "posix":  # permission bits and owners are POSIX notions
        return
    try:
        old = os.stat(target)
    except FileNotFoundError:
        return
    os.fchmod(descriptor, stat.S_IMODE(old.st_mode))
    if (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
        # Run as root (a container), the tool must not leave the user's file owned by root.
        # Without the right to give files away, the file becomes the writer's, as any editor's
        # save would make it.
        with contextlib.suppress(PermissionError):
            os.fchown(descriptor, old.st_uid, old.st_gid)


def _sync_folder(folder: Path) -> None:
    if os.name != "posix":  # Windows cannot open a folder to flush it
        return
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        # The new bytes are in place once the rename returned; a file system that cannot flush
        # folders (some network mounts) offers nothing stronger, so that is not a failure.
        with contextlib.suppress(OSError):
            os.fsync(descriptor)
    finally:
        os.close(descriptor)
