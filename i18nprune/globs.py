"""Path globs as the config writes them: `*` stays within one folder name, `**` spans any
number of folders (zero included), matched against POSIX paths relative to a folder."""

from __future__ import annotations

import fnmatch


def glob_match(rel: str, glob: str) -> bool:
    """Whether the POSIX path `rel` (`.` for the folder itself) matches `glob`."""
    return _match_parts(rel.split("/") if rel != "." else [], glob.split("/"))


def _match_parts(parts: list[str], pattern: list[str]) -> bool:
    if not pattern:
        return not parts
    head, rest = pattern[0], pattern[1:]
    if head == "**":
        return any(_match_parts(parts[index:], rest) for index in range(len(parts) + 1))
    return bool(parts) and fnmatch.fnmatchcase(parts[0], head) and _match_parts(parts[1:], rest)
