"""Import aliases: the `compilerOptions.paths` of the project's `tsconfig.json` (or
`jsconfig.json`), so that `import { transKeys } from '@/i18n/keys'` finds `src/i18n/keys.ts`
as the TypeScript compiler and the bundlers that read the same file do.

Read statically (comments and trailing commas allowed, as TypeScript allows them), following
`extends` to other files by relative path; an `extends` that names a package, a file that cannot
be read, and a value of the wrong shape are ignored (an unresolved alias leaves a key unknown,
which protects rather than removes).
"""

from __future__ import annotations

import json
import os
import posixpath
from typing import Any, NamedTuple

_CONFIG_NAMES = ("tsconfig.json", "jsconfig.json")
_MAX_EXTENDS = 8


def is_relative_module(specifier: str) -> bool:
    """Whether an import specifier names a project file (`./x`, `../x`) rather than a package
    (or an alias of the project's own files)."""
    return specifier.startswith(("./", "../")) or specifier in (".", "..")


class ImportAliases:
    """The path patterns of one project root, read on first use."""

    def __init__(self, root: str) -> None:
        self._root = root
        self._patterns: list[_Pattern] | None = None

    def expand(self, specifier: str) -> list[str]:
        """The paths (relative to the root, POSIX) that `specifier` may name, in the order the
        compiler tries them: the pattern with the longest prefix first, then its targets in
        order. Empty when no pattern matches."""
        if self._patterns is None:
            self._patterns = _patterns(self._root)
        best: _Pattern | None = None
        for pattern in self._patterns:
            if pattern.matches(specifier) and (
                best is None or len(pattern.prefix) > len(best.prefix)
            ):
                best = pattern
        if best is None:
            return []
        middle = specifier[len(best.prefix) : len(specifier) - len(best.suffix)]
        return [target.replace("*", middle, 1) for target in best.targets]


class _Pattern(NamedTuple):
    """A `paths` pattern: `prefix*suffix` (with `wildcard`), or exactly `prefix`."""

    prefix: str
    suffix: str
    wildcard: bool
    targets: list[str]
    """Relative to the root, each with at most one `*`."""

    def matches(self, specifier: str) -> bool:
        if not self.wildcard:
            return specifier == self.prefix
        return (
            len(specifier) >= len(self.prefix) + len(self.suffix)
            and specifier.startswith(self.prefix)
            and specifier.endswith(self.suffix)
        )


def _patterns(root: str) -> list[_Pattern]:
    """Every `paths` pattern of the root's config, with its targets relative to the root."""
    for name in _CONFIG_NAMES:
        file = os.path.join(root, name)
        if os.path.isfile(file):  # the first that exists is the project's, even if broken
            options = _compiler_options(file)
            return _paths(root, options) if options is not None else []
    return []


def _compiler_options(file: str) -> dict[str, Any] | None:
    """The merged `compilerOptions` of `file` and the files it extends (`paths` and `baseUrl`
    each with the folder of the file that set it), or None when `file` cannot be read."""
    merged: dict[str, Any] = {}
    chain: list[str] = []
    current: str | None = file
    while current is not None and len(chain) < _MAX_EXTENDS and current not in chain:
        document = _read_jsonc(current)
        if document is None:
            break
        chain.append(current)
        options = document.get("compilerOptions")
        folder = os.path.dirname(current)
        if isinstance(options, dict):
            for key in ("paths", "baseUrl"):
                if key in options and key not in merged:  # the extending file wins
                    merged[key] = (options[key], folder)
        extends = document.get("extends")
        if isinstance(extends, list):  # TypeScript 5: several; the last one wins, read it
            extends = extends[-1] if extends else None
        current = (
            os.path.normpath(os.path.join(folder, extends))
            if isinstance(extends, str) and extends.startswith(".")
            else None
        )
        if current is not None and not current.endswith(".json"):
            current += ".json"
    return merged if chain else None


def _paths(root: str, options: dict[str, Any]) -> list[_Pattern]:
    paths, paths_folder = options.get("paths", (None, root))
    if not isinstance(paths, dict):
        return []
    base_url, base_folder = options.get("baseUrl", (None, root))
    base = (
        os.path.normpath(os.path.join(base_folder, base_url))
        if isinstance(base_url, str)
        else paths_folder
    )
    patterns: list[_Pattern] = []
    for pattern, targets in paths.items():
        if not isinstance(pattern, str) or not isinstance(targets, list) or pattern.count("*") > 1:
            continue
        prefix, wildcard, suffix = pattern.partition("*")
        resolved = [
            posixpath.normpath(
                os.path.relpath(os.path.join(base, target), root).replace(os.sep, "/")
            )
            for target in targets
            if isinstance(target, str) and target.count("*") <= 1
        ]
        patterns.append(_Pattern(prefix, suffix, bool(wildcard), resolved))
    return patterns


def _read_jsonc(file: str) -> dict[str, Any] | None:
    try:
        with open(file, encoding="utf-8-sig") as handle:
            text = handle.read()
        document = json.loads(strip_jsonc(text))
    except (OSError, ValueError):
        return None
    return document if isinstance(document, dict) else None


def strip_jsonc(text: str) -> str:
    """`text` without the `//` and `/* */` comments and trailing commas that tsconfig files may
    hold (outside strings), as strict JSON; line breaks are kept so positions keep their line."""
    out: list[str] = []
    index, length = 0, len(text)
    pending_comma: int | None = None  # where a comma was written that may turn out trailing
    while index < length:
        char = text[index]
        if char == '"':
            end = index + 1
            while end < length and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            out.append(text[index : end + 1])
            pending_comma = None
            index = end + 1
        elif text.startswith("//", index):
            end = text.find("\n", index)
            index = length if end < 0 else end
        elif text.startswith("/*", index):
            end = text.find("*/", index + 2)
            out.append("\n" * text.count("\n", index, length if end < 0 else end))
            index = length if end < 0 else end + 2
        else:
            if char in "}]" and pending_comma is not None:
                out[pending_comma] = ""
            if char == ",":
                pending_comma = len(out)
            elif not char.isspace():
                pending_comma = None
            out.append(char)
            index += 1
    return "".join(out)
