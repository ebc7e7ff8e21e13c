"""Named edits of a project tree for tests that replay a session of changes: each is a callable
on the project root whose `__name__` says what it does (shown when an assertion fails)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

Change = Callable[[Path], None]


def write(relpath: str, text: str) -> Change:
    """Write `text` to `relpath` (its folders made as needed)."""

    def change(root: Path) -> None:
        path = root / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    change.__name__ = f"write {relpath}"
    return change


def remove(relpath: str) -> Change:
    """Delete `relpath`."""

    def change(root: Path) -> None:
        (root / relpath).unlink()

    change.__name__ = f"remove {relpath}"
    return change


def rename(old: str, new: str) -> Change:
    """Rename `old` to `new`."""

    def change(root: Path) -> None:
        (root / old).rename(root / new)

    change.__name__ = f"rename {old} {new}"
    return change
