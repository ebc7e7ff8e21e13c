"""A config file as read from disk: its top-level object and the line of every key in it.

Readers (JSON, static TS/JS) produce it; validation uses the lines to point at a bad key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TYPESCRIPT_SUFFIXES = (".ts", ".mts", ".cts")
JAVASCRIPT_SUFFIXES = (".js", ".mjs", ".cjs")
"""The config files read statically (see `static_reader`) rather than as JSON."""
KeyPath = tuple[str | int, ...]
"""Where a value sits in a config: object keys and array indices from the top."""


def format_key_path(path: KeyPath) -> str:
    """The dotted form people read: `("translate", "providers", 0, "apiKey")` →
    `translate.providers[0].apiKey`."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


@dataclass(frozen=True)
class ConfigDocument:
    """The parsed content of one config file."""

    path: Path
    data: dict[str, Any]
    key_lines: Mapping[KeyPath, int]

    def location(self, key_path: KeyPath = ()) -> str:
        """`file:line` of `key_path` (or of its nearest ancestor whose line is known)."""
        for length in range(len(key_path), 0, -1):
            line = self.key_lines.get(key_path[:length])
            if line is not None:
                return f"{self.path}:{line}"
        return str(self.path)
