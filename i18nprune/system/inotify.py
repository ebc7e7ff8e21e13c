"""Linux inotify through ctypes: a non-blocking watch instance whose events are drained on demand.

No other platform has it; `Inotify.open()` raises `InotifyUnavailable` there (and where the C
library lacks the calls), so callers fall back to looking at the files themselves.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import struct
import sys
from typing import NamedTuple

IN_MODIFY = 0x00000002
IN_ATTRIB = 0x00000004
IN_CLOSE_WRITE = 0x00000008
IN_MOVED_FROM = 0x00000040
IN_MOVED_TO = 0x00000080
IN_CREATE = 0x00000100
IN_DELETE = 0x00000200
IN_DELETE_SELF = 0x00000400
IN_MOVE_SELF = 0x00000800
IN_Q_OVERFLOW = 0x00004000
IN_IGNORED = 0x00008000
IN_ONLYDIR = 0x01000000
IN_DONT_FOLLOW = 0x02000000
IN_ISDIR = 0x40000000

CHANGES = (
    IN_MODIFY
    | IN_ATTRIB
    | IN_CLOSE_WRITE
    | IN_MOVED_FROM
    | IN_MOVED_TO
    | IN_CREATE
    | IN_DELETE
    | IN_DELETE_SELF
    | IN_MOVE_SELF
)
"""Every event that says a directory's entries, or a file in it, changed."""

_IN_NONBLOCK = os.O_NONBLOCK
_IN_CLOEXEC = os.O_CLOEXEC
_HEADER = struct.Struct("iIII")  # wd, mask, cookie, len (struct inotify_event)
_READ_BYTES = 1 << 16


class InotifyUnavailable(OSError):
    """This system offers no inotify (not Linux, or a C library without it)."""


class Event(NamedTuple):
    """One inotify event: the watch it came from, what happened, and the entry's name in the
    watched directory (`""` for the directory itself)."""

    wd: int
    mask: int
    cookie: int
    name: str


class Inotify:
    """One inotify instance, non-blocking and closed on exec.

    `add_watch` may be called from any thread; `read_events` returns at once
    with what the kernel has queued (possibly nothing). Raises OSError on failures the kernel
    reports (ENOSPC when the user's watch limit is reached).
    """

    def __init__(self, fd: int, libc: ctypes.CDLL) -> None:
        self._fd = fd
        self._libc = libc

    @classmethod
    def open(cls) -> Inotify:
        """A new instance. Raises InotifyUnavailable, or OSError (EMFILE: too many instances)."""
        libc = _libc()
        fd = libc.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC)
        if fd < 0:
            raise _last_error("inotify_init1")
        return cls(fd, libc)

    def fileno(self) -> int:
        return self._fd

    def add_watch(self, path: str, mask: int) -> int:
        """Watch `path` for the events in `mask`; the watch descriptor (the same one again for a
        path already watched)."""
        wd: int = self._libc.inotify_add_watch(self._fd, os.fsencode(path), mask)
        if wd < 0:
            raise _last_error("inotify_add_watch", path)
        return wd

    def read_events(self) -> list[Event]:
        """Every event queued now, in order; an empty list when there is none."""
        events: list[Event] = []
        while True:
            try:
                data = os.read(self._fd, _READ_BYTES)
            except BlockingIOError:
                return events
            if not data:
                return events
            events += _decode(data)

    def close(self) -> None:
        """Release the instance and all its watches (idempotent)."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def _decode(data: bytes) -> list[Event]:
    events: list[Event] = []
    offset = 0
    while offset + _HEADER.size <= len(data):
        wd, mask, cookie, length = _HEADER.unpack_from(data, offset)
        start = offset + _HEADER.size
        name = data[start : start + length].rstrip(b"\0")
        events.append(Event(wd, mask, cookie, os.fsdecode(name)))
        offset = start + length
    return events


REMOTE_FILESYSTEMS = frozenset(
    {
        0x6969,  # NFS
        0x517B,  # SMB
        0xFF534D42,  # CIFS
        0xFE534D42,  # SMB2
        0x01021997,  # 9P (WSL's /mnt drives, VM shares)
        0x65735546,  # FUSE (sshfs, rclone, …)
        0x00C36400,  # Ceph
        0x5346414F,  # AFS
        0x47504653,  # GPFS
        0x0BD00BD0,  # Lustre
        0x19830326,  # Fhgfs / BeeGFS
    }
)
"""Filesystems where files change without this kernel seeing it: inotify misses those edits."""


def sees_every_change(path: str) -> bool:
    """Whether inotify on `path`'s filesystem reports every change to it: false on network and
    FUSE filesystems (another machine's or daemon's writes are not reported) and when the
    filesystem cannot be asked."""
    buffer = ctypes.create_string_buffer(256)  # struct statfs is 120 bytes on x86-64
    try:
        libc = _libc()
    except InotifyUnavailable:
        return False
    if libc.statfs(os.fsencode(path), buffer) != 0:
        return False
    magic = ctypes.c_long.from_buffer(buffer).value & 0xFFFFFFFF
    return magic not in REMOTE_FILESYSTEMS


_loaded: ctypes.CDLL | None = None


def _libc() -> ctypes.CDLL:
    global _loaded
    if _loaded is not None:
        return _loaded
    if not sys.platform.startswith("linux"):
        raise InotifyUnavailable(errno.ENOSYS, "inotify exists only on Linux")
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        for name, arguments in (
            ("inotify_init1", [ctypes.c_int]),
            ("inotify_add_watch", [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]),
            ("statfs", [ctypes.c_char_p, ctypes.c_void_p]),
        ):
            function = getattr(libc, name)
            function.argtypes = arguments
            function.restype = ctypes.c_int
    except (OSError, AttributeError) as exc:
        raise InotifyUnavailable(errno.ENOSYS, f"the C library has no inotify ({exc})") from None
    _loaded = libc
    return libc


def _last_error(call: str, path: str | None = None) -> OSError:
    error = ctypes.get_errno()
    if path is None:
        return OSError(error, os.strerror(error), call)
    return OSError(error, os.strerror(error), path)
