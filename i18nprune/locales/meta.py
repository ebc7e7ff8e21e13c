"""Key descriptions beside the source locale: `<segment>.meta.json` next to a segment file maps
the segment's key paths to what each text is for (`{"home.title": "Hero heading"}`), for
translators and the providers that can use it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from i18nprune.envelope import Code, Issue, warning
from i18nprune.locales.formats import locale_stem
from i18nprune.locales.jsonfile import LocaleFileError, parse_json_bytes, read_file_bytes
from i18nprune.locales.layout import Segment
from i18nprune.locales.positions import path_positions

META_SUFFIX = ".meta.json"


def meta_path(segment: Path) -> Path:
    """The meta file of a segment file, JSON whatever the segment's format:
    `locales/en.json` → `locales/en.meta.json`, `locales/en.yml` → `locales/en.meta.json`."""
    name = segment.name
    stem = locale_stem(name) or name
    return segment.with_name(stem + META_SUFFIX)


def read_descriptions(segments: Iterable[Segment]) -> tuple[dict[str, str], list[Issue]]:
    """The descriptions the meta files of `segments` hold, by key path, and a warning for each
    problem (the rest of the file still counts).

    Keys may be dotted (`"home.title"`) or nested objects (`{"home": {"title": …}}`); values
    are strings (trimmed; an empty one describes nothing). A path described by several meta
    files keeps the first, in segment order. A segment without a meta file has nothing to say.
    Problems are LOCALE_META_INVALID warnings whose message starts `file:line:column`: a file
    that cannot be read or is not a JSON object, a value that is not a string.
    """
    descriptions: dict[str, str] = {}
    issues: list[Issue] = []
    for segment in segments:
        path = meta_path(segment.path)
        if not path.is_file():
            continue
        shown = meta_path(Path(segment.rel)).as_posix()
        found, problems = _read_meta(path, shown)
        for key, text in found.items():
            descriptions.setdefault(key, text)
        issues.extend(problems)
    return descriptions, issues


def _read_meta(path: Path, shown: str) -> tuple[dict[str, str], list[Issue]]:
    try:
        raw = read_file_bytes(path, shown)
        document = parse_json_bytes(raw, shown)
    except LocaleFileError as failure:
        message = failure.issue.message.replace("a locale file", "a meta file")
        message = message.replace("; it will not be modified", "")
        return {}, [warning(Code.LOCALE_META_INVALID, message, failure.issue.path or shown)]
    descriptions: dict[str, str] = {}
    wrong: list[str] = []
    _collect(document, "", descriptions, wrong)
    if not wrong:
        return descriptions, []
    positions = path_positions(raw.decode("utf-8-sig", "replace"))
    issues = []
    for key in wrong:
        line, column = positions.position(key) or (1, 1)
        where = f"{shown}:{line}:{column}"
        message = f"{where}: the description of `{key}` must be a string (its text for translators)"
        issues.append(warning(Code.LOCALE_META_INVALID, message, shown))
    return descriptions, issues


def _collect(node: dict[str, object], prefix: str, into: dict[str, str], wrong: list[str]) -> None:
    for key, value in node.items():
        path = f"{prefix}.{key}" if prefix else key
        if isinstance(value, str):
            if value.strip():
                into.setdefault(path, value.strip())
        elif isinstance(value, dict):
            _collect(value, path, into, wrong)
        else:
            wrong.append(path)
