"""Replacing a file's bytes atomically: after a crash or kill the file holds the old bytes or the
new ones, never a mix. Temp files are named `.<name>.<random>.tmp`, so nothing that looks for
`*.json` files ever picks one up.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
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
    temp = target.with_name(f".{target.name}.{secrets.token_hex(8)}.tmp")
    descriptor = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        try:
            _take_ownership_of(target, descriptor)
            for chunk in [content] if isinstance(content, bytes) else content:
                write_all(descriptor, chunk)
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _sync_folder(target.parent)


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
