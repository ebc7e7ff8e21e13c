"""The editor features in LSP's terms: engine findings, key sites and locale files turned into
diagnostics, hovers, completions, locations, inlay hints and edits. Pure functions of a
`ProjectState`, a file's `CodeFile` and texts; run in worker threads by the server.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import msgspec

from i18nprune.locales.formats import format_of
from i18nprune.locales.positions import KeyLocation, file_positions
from i18nprune.lsp.engine import (
    MISSING_SOURCE,
    CodeFile,
    Finding,
    ProjectState,
)
from i18nprune.lsp.text import Encoding, LineMap, Position, Range, units
from i18nprune.scan import KeyObservation

SOURCE = "i18nprune"
"""Every diagnostic's `source`."""
SEVERITY = {"error": 1, "warning": 2, "info": 3, "hint": 4}
UNNECESSARY = 1
HINT_WIDTH = 40
"""Inlay hints show at most this many characters of a value."""
MAX_COMPLETIONS = 200
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
# A YAML key or item as spelled: quoted, or plain up to its `:` (or the end of its line).
_YAML_TOKEN = re.compile(
    r"\"(?:[^\"\\]|\\.)*\"|'(?:[^']|'')*'|[^\s#][^\n#]*?(?=:\s|:$|\s*#|\s*$)", re.M
)


def _key_token(text: str, start: int, yaml: bool) -> re.Match[str] | None:
    """The key (or array item) token of a locale file's text that starts at `start`."""
    return (_YAML_TOKEN if yaml else _JSON_STRING).match(text, start)


_QUOTES = "'\"`"
_CALL_BEFORE = re.compile(r"([\w$.]+)\s*\(\s*$|\b(i18nKey|keypath|path|id)=$")
"""Before a string a key may be typed in: a call's first argument (`t('`), or an attribute of
`<Trans>`-like components (`i18nKey="`)."""

LinesOf = Callable[[Path], LineMap | None]
"""The lines of a file as the editor sees it (its open buffer, else the disk)."""


class Diagnostic(msgspec.Struct, frozen=True, omit_defaults=True):
    range: Range
    severity: int
    code: str
    message: str
    source: str  # no default: omit_defaults would leave a default out of every message
    tags: list[int] | None = None
    data: dict[str, Any] | None = None


class Location(msgspec.Struct, frozen=True):
    uri: str
    range: Range


class TextEdit(msgspec.Struct, frozen=True, rename="camel"):
    range: Range
    new_text: str


def uri_of(path: Path) -> str:
    return path.as_uri()


def diagnostics(findings: list[Finding], lines: LineMap, encoding: Encoding) -> list[Diagnostic]:
    return [diagnostic(finding, lines, encoding) for finding in findings]


def diagnostic(finding: Finding, lines: LineMap, encoding: Encoding) -> Diagnostic:
    if finding.token:
        where = key_token_range(lines, finding.line, finding.column, encoding)
    else:
        where = engine_range(
            lines, finding.line, finding.column, finding.end_line, finding.end_column, encoding
        )
    return Diagnostic(
        where,
        SEVERITY[finding.severity],
        finding.code,
        finding.message,
        SOURCE,
        tags=[UNNECESSARY] if finding.unnecessary else None,
        data={"key": finding.key} if finding.key is not None else None,
    )


def engine_range(
    lines: LineMap, line: int, column: int, end_line: int, end_column: int, encoding: Encoding
) -> Range:
    start = lines.from_engine(line, column, encoding)
    end = lines.from_engine(end_line, end_column, encoding)
    return Range(
        start, end if (end.line, end.character) >= (start.line, start.character) else start
    )


def site_range(site: KeyObservation, lines: LineMap, encoding: Encoding) -> Range:
    return engine_range(
        lines,
        site.line,
        site.column,
        site.end_line or site.line,
        site.end_column or site.column + 1,
        encoding,
    )


# --- hover -------------------------------------------------------------------------------------


def hover_markdown(state: ProjectState, site: KeyObservation) -> str:
    """The key, its value in every locale (missing ones marked) and where it is defined."""
    namespace = state.namespace_of(site)
    key = state.display(site)
    values = state.values(namespace, site.key)
    marks = state.states(namespace, site.key)
    rows = [f"**{_escape(key)}**", ""]
    for locale, value in values.items():
        role = " (source)" if locale == state.source else ""
        shown = "`missing`" if value is None else (_escape(value) or "`(empty)`")
        flags = "".join(f" _({mark})_" for mark in marks.get(locale, []))
        rows.append(f"- **{locale}**{role}: {shown}{flags}")
    missing = [locale for locale, value in values.items() if value is None]
    if missing:
        rows += ["", f"Missing from {len(missing)} locale(s): {', '.join(missing)}."]
    definitions = state.definitions(namespace, site.key)
    if definitions:
        links = ", ".join(
            f"[{d.file}:{d.line}]({uri_of(state.root / d.file)}#L{d.line})" for d in definitions
        )
        rows += ["", f"Defined in {links}."]
    return "\n".join(rows)


def _escape(text: str) -> str:
    return re.sub(r"([\\`*_\[\]<>#|])", r"\\\1", text).replace("\n", " ")


# --- locations ----------------------------------------------------------------------------------


def definition_locations(
    state: ProjectState, locations: list[KeyLocation], lines_of: LinesOf, encoding: Encoding
) -> list[Location]:
    """Each locale file's key token (the quoted key) as a location."""
    found = []
    for location in locations:
        path = state.root / location.file
        lines = lines_of(path)
        if lines is None:
            continue
        found.append(
            Location(uri_of(path), key_token_range(lines, location.line, location.column, encoding))
        )
    return found


def key_token_range(lines: LineMap, line: int, column: int, encoding: Encoding) -> Range:
    """The range of the key token (a JSON string, a YAML key) that starts at an engine
    position."""
    text = lines.line_text(line - 1)
    match = _key_token(text, column - 1, text[column - 1 : column] != '"')
    end_column = match.end() + 1 if match else column + 1
    return engine_range(lines, line, column, line, end_column, encoding)


def usage_locations(
    state: ProjectState, usages: list[KeyObservation], lines_of: LinesOf, encoding: Encoding
) -> list[Location]:
    found = []
    for usage in usages:
        path = state.root / usage.file
        lines = lines_of(path)
        if lines is not None:
            found.append(Location(uri_of(path), site_range(usage, lines, encoding)))
    return found


def locale_key_at(
    state: ProjectState, relpath: str, text: str, line: int, column: int
) -> tuple[str | None, str] | None:
    """(namespace, leaf path) of the key a locale file spells at an engine position."""
    found = state.locale_file(relpath)
    if found is None:
        return None
    locale, namespace = found
    view = state.views[locale].get(namespace)
    lines = LineMap(text)
    offset = lines.starts[line - 1] + column - 1 if line - 1 < len(lines.starts) else len(text)
    yaml = format_of(relpath) == "yaml"
    positions = file_positions(text, Path(relpath))
    prefix = "".join(f"{part}." for part in view.key_root) if view is not None else ""
    best: tuple[int, str] | None = None
    for path, start in positions.offsets.items():
        match = _key_token(text, start, yaml)
        holds = match is not None and match.start() <= offset <= match.end()
        if holds and (best is None or start > best[0]):
            best = (start, path)
    if best is None or not best[1].startswith(prefix):
        return None
    return namespace, best[1][len(prefix) :]


# --- completion ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Typed:
    """Where a key is being typed: the string's content up to the cursor and its range."""

    text: str
    start: int
    """The character offset in the line where the string's content starts."""
    end: int
    """Where its content ends (the closing quote, or the cursor when there is none yet)."""


def typed_key(line_text: str, column: int) -> Typed | None:
    """The string literal the cursor (a 0-based character column) is inside, when a key may
    be typed there: a call's first argument, or a `<Trans>`-like attribute. The innermost
    quote counts, so a call inside a template attribute (`:label="t('…')"`) is found."""
    for at in range(min(column, len(line_text)) - 1, -1, -1):
        quote = line_text[at]
        if quote not in _QUOTES or quote in line_text[at + 1 : column]:
            continue
        if _CALL_BEFORE.search(line_text[:at]):
            close = line_text.find(quote, column)
            return Typed(line_text[at + 1 : column], at + 1, close if close >= 0 else column)
    return None


PROBE = "zzI18npruneCompletionzz"
"""Put where the cursor is to learn what the scan makes of a key typed there."""


def completion_items(
    state: ProjectState,
    lines: LineMap,
    position: Position,
    encoding: Encoding,
    read: Callable[[str], CodeFile],
) -> dict[str, Any] | None:
    """Keys of the source locale that fit the string being typed, in the namespace and under
    the key prefix the scan gives a key typed there; each with its text as documentation.

    Offered only where the scan reads a key: the buffer is read once more (`read`, the cost of
    the file) with a probe at the cursor, and the site holding the probe says where the typed
    text goes (its namespace, its `keyPrefix`, its scope's default namespace)."""
    line_text = lines.line_text(position.line)
    column = lines.engine(position, encoding)[1] - 1
    typed = typed_key(line_text, column)
    if typed is None:
        return None
    offset = lines.starts[position.line] + column
    probed = read(lines.text[:offset] + PROBE + lines.text[offset:])
    site = next((o for o in probed.observations if PROBE in o.key), None)
    if site is None:
        return None
    namespace = state.namespace_of(site)
    before = site.key[: site.key.index(PROBE)]
    text = typed.text
    typed_start = typed.start
    separator = state.syntax.ns_separator
    if state.syntax.uses_namespaces and separator is not None and separator in text:
        named, _, rest = text.partition(separator)
        if named in state.views[state.source]:
            text, typed_start = rest, typed.start + len(named) + len(separator)
    scope = before[: len(before) - len(text)] if before.endswith(text) else ""
    keys = state.source_keys(namespace)
    wanted = scope + text
    matches = [path for path in keys if path.startswith(wanted)] or [
        path for path in keys if path.startswith(scope) and text.lower() in path.lower()
    ]
    edit_range = Range(
        Position(position.line, _units(line_text, typed_start, encoding)),
        Position(position.line, _units(line_text, typed.end, encoding)),
    )
    items = []
    for path in heapq.nsmallest(MAX_COMPLETIONS, matches):
        label = path[len(scope) :]
        value = keys[path]
        items.append(
            {
                "label": label,
                "kind": 12,
                "detail": _short(value) if value is not None else None,
                "filterText": label,
                "textEdit": {"range": msgspec.to_builtins(edit_range), "newText": label},
                "data": {"root": str(state.root), "namespace": namespace, "path": path},
            }
        )
    return {"isIncomplete": len(matches) > MAX_COMPLETIONS, "items": items}


def resolved_item(state: ProjectState, item: dict[str, Any]) -> dict[str, Any]:
    """A completion item with its documentation: the key's text in every locale."""
    data = item.get("data") or {}
    path = data.get("path")
    if isinstance(path, str):
        value = _values_markdown(state, data.get("namespace"), path)
        item = {**item, "documentation": {"kind": "markdown", "value": value}}
    return item


def _values_markdown(state: ProjectState, namespace: str | None, path: str) -> str:
    values = state.values(namespace, path)
    return "\n".join(
        f"- **{locale}**: {'`missing`' if value is None else _escape(value)}"
        for locale, value in values.items()
    )


def _units(line_text: str, characters: int, encoding: Encoding) -> int:
    return units(line_text[:characters], encoding)


def _short(text: str) -> str:
    text = text.replace("\n", " ")
    return text if len(text) <= HINT_WIDTH else text[: HINT_WIDTH - 1] + "…"


# --- inlay hints --------------------------------------------------------------------------------


def inlay_hints(
    state: ProjectState,
    file: CodeFile,
    lines: LineMap,
    window: Range,
    locale: str,
    encoding: Encoding,
) -> list[dict[str, Any]]:
    """After each literal key site in `window`, its text in `locale` (or that it is missing)."""
    hints = []
    first, last = window.start.line + 1, window.end.line + 1
    for site in file.observations:
        if site.spelling or not first <= site.line <= last:
            continue
        values = state.values(state.namespace_of(site), site.key)
        value = values.get(locale)
        label = f"⚠ missing in {locale}" if value is None else f"“{_short(value)}”"
        position = lines.from_engine(
            site.end_line or site.line, site.end_column or site.column, encoding
        )
        hints.append(
            {"position": msgspec.to_builtins(position), "label": label, "paddingLeft": True}
        )
    return hints


# --- edits -------------------------------------------------------------------------------------


def minimal_edit(old: str, new: str, encoding: Encoding) -> TextEdit:
    """One edit that turns `old` into `new`: their common head and tail are kept."""
    head = 0
    limit = min(len(old), len(new))
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[len(old) - 1 - tail] == new[len(new) - 1 - tail]:
        tail += 1
    lines = LineMap(old)
    start = lines.position(head, encoding)
    end = lines.position(len(old) - tail, encoding)
    return TextEdit(Range(start, end), new[head : len(new) - tail])


def file_edits(
    changed: dict[Path, bytes], current_text: Callable[[Path], str | None], encoding: Encoding
) -> dict[str, list[TextEdit]]:
    """`WorkspaceEdit.changes` turning each file's current text into its new content (a file
    that does not exist yet is not covered: the caller creates it)."""
    edits: dict[str, list[TextEdit]] = {}
    for path, content in sorted(changed.items()):
        old = current_text(path)
        if old is None:
            continue
        new = content.decode("utf-8")
        if new != old:
            edits[uri_of(path)] = [minimal_edit(old, new, encoding)]
    return edits


def hover_for_key(state: ProjectState, namespace: str | None, path: str) -> str:
    """A locale file's key: its value in every locale, and how many code sites use it."""
    key = state.syntax.display(namespace, path)
    rows = [f"**{_escape(key)}**", "", _values_markdown(state, namespace, path)]
    usages = state.usages(namespace, path)
    rows += [
        "",
        f"Used at {len(usages)} code site(s)." if usages else "Not used by any literal code site.",
    ]
    return "\n".join(rows)


# --- symbols ------------------------------------------------------------------------------------

STRING_KIND, KEY_KIND = 15, 20


def locale_symbols(uri: str, text: str, encoding: Encoding) -> list[dict[str, Any]]:
    """Every path a locale file spells, at its key (flat `SymbolInformation`s)."""
    lines = LineMap(text)
    found = []
    file = Path(unquote(urlsplit(uri).path))
    yaml = format_of(file.name) == "yaml"
    for path, offset in file_positions(text, file).offsets.items():
        start = lines.position(offset, encoding)
        match = _key_token(text, offset, yaml)
        end = lines.position(match.end() if match else offset, encoding)
        found.append(
            {
                "name": path,
                "kind": KEY_KIND,
                "location": {"uri": uri, "range": msgspec.to_builtins(Range(start, end))},
            }
        )
    return found


def key_symbols(
    state: ProjectState, query: str, lines_of: LinesOf, encoding: Encoding
) -> list[dict[str, Any]]:
    """The source locale's keys containing `query` (any case), at their definition."""
    wanted = query.lower()
    found = []
    for namespace, view in state.views[state.source].items():
        for path in view.leaves:
            if wanted not in path.lower():
                continue
            locations = definition_locations(
                state, state.definitions(namespace, path)[:1], lines_of, encoding
            )
            for location in locations:
                found.append(
                    {
                        "name": state.syntax.display(namespace, path),
                        "kind": STRING_KIND,
                        "location": msgspec.to_builtins(location),
                        "containerName": state.root.name,
                    }
                )
            if len(found) >= MAX_COMPLETIONS:
                return found
    return found


# --- code actions -------------------------------------------------------------------------------

TextOf = Callable[[Path], str | None]


def add_key_actions(
    state: ProjectState,
    file: CodeFile,
    key: str,
    diagnostic: Diagnostic,
    text_of: TextOf,
    encoding: Encoding,
) -> list[dict[str, Any]]:
    """Quick fixes for a key a locale lacks: add it to the source locale (with the call's
    default text when it has one), or to each target that lacks it (the placeholder)."""
    namespace, path = state.split(key)
    site = next((o for o in file.observations if state.display(o) == key and not o.spelling), None)
    locales = (
        [state.source]
        if diagnostic.code == MISSING_SOURCE
        else [locale for locale, value in state.values(namespace, path).items() if value is None]
    )
    actions = []
    for locale in locales:
        made = state.with_key(locale, namespace, site, path)
        if made is None:
            continue
        home, content = made
        edits = file_edits({home: content}, text_of, encoding)
        if not edits:
            continue
        shown = home.relative_to(state.root).as_posix()
        actions.append(
            {
                "title": f"Add `{key}` to {shown}",
                "kind": "quickfix",
                "diagnostics": [msgspec.to_builtins(diagnostic)],
                "isPreferred": locale == state.source,
                "edit": {"changes": msgspec.to_builtins(edits)},
            }
        )
    return actions


def unused_in_file(state: ProjectState, relpath: str) -> list[str]:
    """The keys `cleanup` would remove that this locale file defines."""
    data = state.unused
    if data is None:
        return []
    return [
        key
        for key, locations in data.key_locations.items()
        if any(location.file == relpath for location in locations)
    ]


def remove_key_actions(
    state: ProjectState,
    keys: list[str],
    text_of: TextOf,
    encoding: Encoding,
    diagnostic: Diagnostic | None,
) -> list[dict[str, Any]]:
    """Remove keys `cleanup` would remove from every locale file (a quick fix for one, or the
    source action for a file's all). Nothing for a key `cleanup` does not list."""
    data = state.unused
    if data is None:
        return []
    listed = [key for key in keys if key in data.key_locations]
    if not listed:
        return []
    changed = state.without_keys(listed)
    edits = file_edits(changed, text_of, encoding)
    if not edits:
        return []
    if diagnostic is not None:
        return [
            {
                "title": f"Remove unused `{listed[0]}` from every locale",
                "kind": "quickfix",
                "diagnostics": [msgspec.to_builtins(diagnostic)],
                "edit": {"changes": msgspec.to_builtins(edits)},
            }
        ]
    return [
        {
            "title": f"Remove the {len(listed)} unused key(s) of this file from every locale",
            "kind": "source.i18nprune.removeUnused",
            "edit": {"changes": msgspec.to_builtins(edits)},
        }
    ]


# --- rename -------------------------------------------------------------------------------------


def rename_refusal(
    state: ProjectState, namespace: str | None, path: str, text_of: TextOf
) -> str | None:
    """Why renaming the key is not safe, or None: a dynamic site could build it, a quoted
    text outside key sites names it (data, a map of keys), a code site passes a `context`
    (its forms cannot be told from other keys), or a code site does not spell it whole (a key
    prefix or a constant builds it)."""
    reference = state.evidence.reference(namespace)
    for prefix in reference.prefixes:
        if prefix and path.startswith(prefix):
            return (
                f"a dynamic key site reaches keys starting with `{prefix}`: renaming `{path}` "
                "could break it"
            )
    for suffix in reference.suffixes:
        if suffix and path.endswith(suffix):
            return (
                f"a dynamic key site reaches keys ending with `{suffix}`: renaming `{path}` "
                "could break it"
            )
    spelled = state.syntax.display(namespace, path)
    usages = state.usages(namespace, path)
    sites = {(o.file, o.line) for o in usages}
    for text in {path, spelled}:
        for literal in reference.literals.get(text, []):
            if (literal.file, literal.line) not in sites:
                return (
                    f"`{text}` is also quoted at {literal.file}:{literal.line} outside a key "
                    "call (data may name the key): rename it by hand"
                )
    for usage in usages:
        if usage.context is not None:
            return (
                f"{usage.file}:{usage.line} passes a `context`: the key's context forms "
                f"(`{path}{state.syntax.context_separator}…`) cannot be told from other keys; "
                "rename it by hand"
            )
        if _spelled_at(state, usage, text_of, {path, spelled}) is None:
            return (
                f"{usage.file}:{usage.line} builds `{spelled}` (a key prefix, a namespace "
                "option or a constant): rename it by hand"
            )
    return None


def _spelled_at(
    state: ProjectState, usage: KeyObservation, text_of: TextOf, spellings: set[str]
) -> tuple[int, int, str] | None:
    """(line, column, spelling) of the quoted key inside a site's call, when the call spells
    the key whole exactly once."""
    text = text_of(state.root / usage.file)
    if text is None:
        return None
    lines = LineMap(text)
    start = lines.starts[usage.line - 1] + usage.column - 1
    end_line = usage.end_line or usage.line
    end = (
        lines.starts[end_line - 1] + (usage.end_column or usage.column) - 1
        if end_line - 1 < len(lines.starts)
        else len(text)
    )
    call = text[start:end]
    found = []
    for match in re.finditer(r"(['\"`])(.*?)\1", call):
        if match.group(2) in spellings:
            found.append((match.start(2), match.group(2)))
    if len(found) != 1:
        return None
    offset, spelling = found[0]
    position = lines.position(start + offset, "utf-32")
    return position.line + 1, position.character + 1, spelling


def rename_edits(
    state: ProjectState,
    namespace: str | None,
    old: str,
    new: str,
    text_of: TextOf,
    encoding: Encoding,
) -> dict[str, list[TextEdit]]:
    """Every code site's quoted key and every locale file's key, renamed (values kept)."""
    spelled_old = state.syntax.display(namespace, old)
    edits = file_edits(state.renamed(namespace, old, new), text_of, encoding)
    for usage in state.usages(namespace, old):
        found = _spelled_at(state, usage, text_of, {old, spelled_old})
        text = text_of(state.root / usage.file)
        if found is None or text is None:
            continue
        line, column, spelling = found
        lines = LineMap(text)
        replacement = new if spelling == old else state.syntax.display(namespace, new)
        edit = TextEdit(
            engine_range(lines, line, column, line, column + len(spelling), encoding), replacement
        )
        edits.setdefault(uri_of(state.root / usage.file), []).append(edit)
    return edits
