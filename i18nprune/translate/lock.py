"""`i18nprune.lock.json`: which source text each target leaf translates, so `generate` notices
when the source changed under a translation (a *stale* leaf), and whether a person edited it.

Pure functions over texts and views, plus reading and rendering the file; the `generate` op
(`ops/generate/plan.py`, `write.py`) decides when it is read and written.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Callable, Collection, Iterator, Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal, NoReturn

import msgspec

from i18nprune.envelope import Code, ProblemError, error
from i18nprune.jsontext import json_kind, located_problem
from i18nprune.locales.leaves import marked_for_review
from i18nprune.system.atomic import write_atomically
from i18nprune.system.digests import sha256

if TYPE_CHECKING:
    from i18nprune.locales.editor import LocaleEditor
    from i18nprune.locales.view import LocaleView

LOCK_FILE = "i18nprune.lock.json"
LOCK_VERSION = 1
HASH_LENGTH = 12
"""Hex digits of SHA-256 kept per text: 48 bits, so two different texts of one leaf share a
hash about once in 10**14 edits, and a lock entry stays one short line."""

_sha256 = sha256
_FIELDS = ("source", "value", "from", "edited", "stale", "marked")
_ESCAPED = re.compile(r'[\x00-\x1f"\\]')
_FIX = (
    "fix it, or delete it (the next `generate` then adopts every existing translation as a "
    "person's, re-translating nothing)"
)
_CONFLICT_FIX = (
    "resolve the merge conflict (keep either side, or delete the file: the next `generate` "
    "adopts the translations as they are)"
)


class LockFileError(ProblemError):
    """A lock file that cannot be used: unreadable, not JSON, or not the shape `generate`
    writes. `issue` names the file (and line and column) and says what to do."""


def text_hash(text: str) -> str:
    """The short hash the lock keeps of `text` (its UTF-8 bytes)."""
    # The first HASH_LENGTH // 2 bytes in hex: the hexdigest's prefix, without the rest of it.
    return _sha256(text.encode("utf-8")).digest()[: HASH_LENGTH // 2].hex()


# Only the length is checked when reading (a pattern would double the time to read a large
# lock); the renderer escapes whatever a hand-edited hash holds.
_Hash = Annotated[str, msgspec.Meta(min_length=HASH_LENGTH, max_length=HASH_LENGTH)]


class LockEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What the lock knows of one target leaf.

    `source` and `value` hash the source text and the target value that were last known to
    belong together (what `generate` translated and wrote, or what it adopted or accepted).
    `origin` is the source path the text came from when it is not the target path (a plural
    category the source lacks). `edited`: the value is not known to be generate's own output
    (a person edited it, or it predates the lock), so it is never overwritten. `stale`: the
    hash of the value when the leaf was first reported stale (a later change of the value
    settles it); `marked`: generate marked it `needsReview` then (removing the mark settles it).
    """

    source: _Hash
    value: _Hash
    origin: str | None = msgspec.field(default=None, name="from")
    edited: bool = False
    stale: _Hash | None = None
    marked: bool = False


class _LockDocument(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The file as a whole: what the fast, typed reading of a well-formed lock decodes."""

    version: int
    targets: dict[str, dict[str, LockEntry]]


TargetEntries = dict[str, LockEntry]
"""Target path → entry, for one target locale (of one namespace)."""

Lock = dict[str, TargetEntries]
"""Lock key (`lock_key`) → that target's entries."""

Verdict = Literal["untracked", "fresh", "edited", "retranslate", "stale", "resolved"]


def lock_key(target: str, namespace: str | None) -> str:
    """How the lock names a target locale's entries: `fr`, or `fr/common` for namespace
    `common` (a locale code never holds `/`, so no two namespaces can collide)."""
    return target if namespace is None else f"{target}/{namespace}"


def split_lock_key(key: str) -> tuple[str, str | None]:
    """The target code and namespace of a lock key (see `lock_key`)."""
    code, slash, namespace = key.partition("/")
    return code, namespace if slash else None


def assess(
    entry: LockEntry | None, source_text: str, value: str, *, accepted: Callable[[], bool]
) -> Verdict:
    """What the lock says of a target leaf holding `value`, translated from `source_text`.

    `untracked`: no entry (the leaf predates the lock). `fresh`: nothing changed. `edited`:
    the source is unchanged and a person changed the value. The others are stale leaves (the
    source text changed since): `retranslate` when the value is still generate's output,
    `resolved` when a person settled a reported stale leaf (changed its value, or removed
    the `needsReview` mark generate set: `accepted` is asked only then), else `stale`.
    """
    if entry is None:
        return "untracked"
    value_hash = text_hash(value)
    if text_hash(source_text) == entry.source:
        return "fresh" if value_hash == entry.value else "edited"
    if entry.stale is not None and (value_hash != entry.stale or (entry.marked and accepted())):
        return "resolved"
    if not entry.edited and value_hash == entry.value:
        return "retranslate"
    return "stale"


def entry_for(source_path: str, target_path: str, source_text: str, value: str) -> LockEntry:
    """The entry of a value generate wrote for `source_text`."""
    origin = source_path if source_path != target_path else None
    return LockEntry(text_hash(source_text), text_hash(value), origin)


def settled_entry(
    entry: LockEntry | None,
    verdict: Verdict,
    source_path: str,
    target_path: str,
    source_text: str,
    value: str,
) -> LockEntry:
    """The entry to keep for a leaf generate leaves as it is, after `assess` gave `verdict`.

    Fresh leaves keep their entry; an adopted, edited or resolved leaf becomes a person's
    value for the current source text; a stale leaf keeps its old source hash and remembers
    the value it was reported with.
    """
    if verdict == "fresh" and entry is not None:
        return (
            entry
            if entry.stale is None and not entry.marked
            else msgspec.structs.replace(entry, stale=None, marked=False)
        )
    if verdict in ("stale", "retranslate") and entry is not None:
        return (
            entry
            if entry.stale is not None
            else msgspec.structs.replace(entry, stale=text_hash(value))
        )
    origin = source_path if source_path != target_path else None
    return LockEntry(text_hash(source_text), text_hash(value), origin, edited=True)


def count_stale(
    entries: Mapping[str, LockEntry],
    source: LocaleView,
    target: LocaleView,
    accepted: Callable[[str], bool],
) -> int:
    """How many of `target`'s tracked leaves are stale (`assess`), judged from the lock and
    the two views alone; `accepted(path)` says whether a marked leaf lost its mark."""
    return len(stale_paths(entries, source, target, accepted))


def stale_paths(
    entries: Mapping[str, LockEntry],
    source: LocaleView,
    target: LocaleView,
    accepted: Callable[[str], bool],
) -> list[str]:
    """`target`'s tracked leaves that are stale (see `count_stale`), in the lock's order."""
    found = []
    for path, entry in entries.items():
        source_leaf = source.leaves.get(entry.origin or path)
        leaf = target.leaves.get(path)
        if source_leaf is None or leaf is None or leaf.kind not in ("string", "structured"):
            continue
        if not isinstance(source_leaf.value, str) or not isinstance(leaf.value, str):
            continue
        verdict = assess(entry, source_leaf.value, leaf.value, accepted=partial(accepted, path))
        if verdict in ("stale", "retranslate"):
            found.append(path)
    return found


def stale_leaves(
    lock: Lock,
    sources: Mapping[str | None, LocaleView],
    load: Callable[[str, str | None], LocaleView],
    editor: Callable[[LocaleView], LocaleEditor],
    pending: Lock | None = None,
) -> dict[tuple[str, str | None], tuple[LocaleView, list[str]]]:
    """Each (target, namespace) the lock tracks → its view and its stale paths, judged as
    `stale_counts` judges them (an editor shows each where its file spells it)."""
    found: dict[tuple[str, str | None], tuple[LocaleView, list[str]]] = {}
    for key, entries in sorted(lock.items()):
        code, namespace = split_lock_key(key)
        source = sources.get(namespace)
        if source is None or not entries:
            continue
        target = load(code, namespace)
        journal = (pending or {}).get(key, {})
        if journal:
            entries = recover_entries(entries, journal, target)
        accepted = review_accepted(partial(editor, target))
        found[(code, namespace)] = (target, stale_paths(entries, source, target, accepted))
    return found


def stale_counts(
    lock: Lock,
    sources: Mapping[str | None, LocaleView],
    load: Callable[[str, str | None], LocaleView],
    editor: Callable[[LocaleView], LocaleEditor],
    counted: Callable[[str, str | None, Callable[[], int]], int] | None = None,
    pending: Lock | None = None,
) -> dict[str, int]:
    """Each target the lock tracks → how many of its leaves are stale, judged from the lock,
    the source views (by namespace) and each target view `load(code, namespace)` reads; a
    namespace the source no longer has counts nothing. `counted(code, namespace, count)`, when
    given, answers for `count()` of one target namespace (a caller that kept an earlier count).
    `pending`: the journal (`read_pending`); a leaf holding what it recorded is judged by its
    entry, as `generate` judges it, not as a person's edit."""
    counts: dict[str, int] = {}
    for key, entries in sorted(lock.items()):
        code, namespace = split_lock_key(key)
        counts.setdefault(code, 0)
        source = sources.get(namespace)
        if source is None or not entries:
            continue
        journal = (pending or {}).get(key, {})
        target = partial(load, code, namespace)
        count = partial(_count_target, entries, journal, source, target, editor)
        counts[code] += count() if counted is None else counted(code, namespace, count)
    return counts


def _count_target(
    entries: Mapping[str, LockEntry],
    journal: Mapping[str, LockEntry],
    source: LocaleView,
    load: Callable[[], LocaleView],
    editor: Callable[[LocaleView], LocaleEditor],
) -> int:
    target = load()
    if journal:
        entries = recover_entries(entries, journal, target)
    return count_stale(entries, source, target, review_accepted(partial(editor, target)))


def review_accepted(editor: Callable[[], LocaleEditor]) -> Callable[[str], bool]:
    """Whether the leaf at a path no longer carries `needsReview: true`, read through the
    editor `editor()` makes on first use (asked only of the leaves generate marked; a file
    that no longer parses counts as still marked)."""
    made: list[LocaleEditor] = []

    def accepted(path: str) -> bool:
        if not made:
            made.append(editor())
        try:
            return not marked_for_review(made[0].get(path))
        except ProblemError:
            return False

    return accepted


# --- the file ---------------------------------------------------------------------------------


def lock_path(root: Path) -> Path:
    """Where the lock file of the project at `root` is (a symbolic link resolved); costs one
    `lstat` when it is no link. Raises `LockFileError` for a link that leaves the root: the
    lock is never read or written outside it."""
    path = root / LOCK_FILE
    if not path.is_symlink():
        return path
    resolved = path.resolve()
    if root.resolve() not in resolved.parents:
        raise _problem(
            f"{LOCK_FILE}: a link to {resolved}, outside the project root {root} — make it a "
            "file in the project"
        )
    return resolved


def read_lock(root: Path) -> Lock | None:
    """The lock file of the project at `root` (see `lock_path`); None when there is none.

    Raises `LockFileError` (`Code.LOCK_INVALID`) when it cannot be read, is not JSON (message
    `file:line:column: why — what to do`), or does not have the shape `render_lock` writes.
    """
    path = lock_path(root)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise _problem(
            f"{LOCK_FILE}: cannot be read ({reason}) — check that it is a readable file"
        ) from exc
    return parse_lock(raw)


def update_lock(root: Path, change: Callable[[Lock], Lock]) -> bool:
    """Replace the lock file of the project at `root` by `change(the lock on disk now)`,
    atomically; True when its bytes changed.

    The lock is read again here, under an exclusive `flock` of the root folder (POSIX), so
    that runs for different targets at the same time (shards of one checkout) each keep the
    others' entries. An unchanged lock is not rewritten, and none is created empty. Raises
    `LockFileError` as `read_lock` does, and `OSError` when the file cannot be written.
    """
    with _folder_locked(root):
        current = read_lock(root)
        updated = change(dict(current or {}))
        if current is None and not any(updated.values()):
            return False
        path = lock_path(root)
        content = render_lock(updated)
        with contextlib.suppress(FileNotFoundError):
            if path.read_bytes() == content:
                return False
        write_atomically(path, content)
        return True


PENDING_FILE = ".i18nprune.lock.pending.json"
"""`generate`'s journal: the lock entries of the targets a run is about to write, put on disk
before their locale files and dropped once the lock holds them. A run killed between the two
leaves it behind, and the next run takes from it the entry of each leaf that holds what was
written (`recover_entries`): its own output is then not adopted as a person's."""


def record_pending(root: Path, entries: Lock) -> None:
    """Put `entries` (lock key → that target's entries) in the journal of the project at
    `root`, replacing what it held for those keys; atomically, under the lock's folder lock.
    Raises `OSError` when it cannot be written."""
    with _folder_locked(root):
        journal = {**read_pending(root), **entries}
        write_atomically(root / PENDING_FILE, render_lock(journal))


def settle_pending(root: Path, keys: Collection[str]) -> None:
    """Drop `keys` from the journal of the project at `root` (the lock holds their entries
    now); the file goes when nothing is left. Raises `OSError` when it cannot be changed."""
    with _folder_locked(root):
        journal = read_pending(root)
        if not journal:
            return
        left = {key: entries for key, entries in journal.items() if key not in keys}
        if any(left.values()):
            write_atomically(root / PENDING_FILE, render_lock(left))
        else:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(root / PENDING_FILE)


def read_pending(root: Path) -> Lock:
    """The journal of the project at `root` (empty when there is none). Only `generate`
    writes it, atomically; one that cannot be read is taken as empty (the entries it held
    are then adopted as a person's, as without a journal)."""
    try:
        return parse_lock((root / PENDING_FILE).read_bytes())
    except (OSError, LockFileError):
        return {}


def recover_entries(
    entries: Mapping[str, LockEntry], pending: Mapping[str, LockEntry], target: LocaleView
) -> TargetEntries:
    """`entries` (the lock's, for one target namespace) with the `pending` entry (the
    journal's) of each leaf of `target` that holds the value the journal recorded and the lock
    does not: the write of the locale file happened, that of the lock did not."""
    recovered = dict(entries)
    for path, entry in pending.items():
        leaf = target.leaves.get(path)
        if leaf is None or not isinstance(leaf.value, str) or leaf.kind == "placeholder":
            continue
        value = text_hash(leaf.value)
        known = entries.get(path)
        if value == entry.value and (known is None or known.value != value):
            recovered[path] = entry
    return recovered


@contextlib.contextmanager
def _folder_locked(folder: Path) -> Iterator[None]:
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks of folders
        yield
        return
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # releases the lock


def parse_lock(raw: bytes) -> Lock:
    """The lock that `raw` (a lock file's bytes) holds; raises `LockFileError` as `read_lock`."""
    try:
        document = _decoder.decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return _parse_slowly(raw)  # to say where and why
    if document.version != LOCK_VERSION:
        return _parse_slowly(raw)
    return document.targets


_decoder = msgspec.json.Decoder(_LockDocument)


def _parse_slowly(raw: bytes) -> Lock:
    """`parse_lock` by hand: every check names the line and column of what it refuses."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _problem(f"{LOCK_FILE}: not valid UTF-8 (byte {exc.start}) — {_FIX}") from exc
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        line, column, why = located_problem(text, exc)
        conflicted = any(row.startswith("<<<<<<<") for row in text.splitlines())
        fix = _CONFLICT_FIX if conflicted else _FIX
        raise _problem(f"{LOCK_FILE}:{line}:{column}: {why} — {fix}") from exc
    return _Shape(text).lock(doc)


def render_lock(lock: Lock) -> bytes:
    """The bytes of the lock file holding `lock`: sorted keys, two-space indent, one line per
    entry and a final newline, so that it diffs well and the same lock is the same bytes."""
    lines = ["{", f'  "version": {LOCK_VERSION},', '  "targets": {']
    targets = [(key, entries) for key, entries in sorted(lock.items()) if entries]
    for number, (key, entries) in enumerate(targets):
        lines.append(f"    {_string(key)}: {{")
        # Sorted paths, not (path, entry) pairs: a pair per entry would be as many objects
        # for the collector to track, enough to set off a costly collection of a large run.
        lines.append(",\n".join([_render_row(path, entries[path]) for path in sorted(entries)]))
        lines.append("    }" + ("," if number < len(targets) - 1 else ""))
    lines += ["  }", "}", ""]
    return "\n".join(lines).encode("utf-8")


def _render_row(path: str, entry: LockEntry) -> str:
    """The line of one entry (without its comma)."""
    if (
        entry.origin is None
        and entry.stale is None
        and not entry.edited
        and not entry.marked
        and _ESCAPED.search(path + entry.source + entry.value) is None
    ):  # the common entry, whose strings need no escaping: one search, one format
        return f'      "{path}": {{"source": "{entry.source}", "value": "{entry.value}"}}'
    return f"      {_string(path)}: {_render_entry(entry)}"


def _render_entry(entry: LockEntry) -> str:
    fields = [f'"source": {_string(entry.source)}', f'"value": {_string(entry.value)}']
    if entry.origin is not None:
        fields.append(f'"from": {_string(entry.origin)}')
    if entry.edited:
        fields.append('"edited": true')
    if entry.stale is not None:
        fields.append(f'"stale": {_string(entry.stale)}')
    if entry.marked:
        fields.append('"marked": true')
    return "{" + ", ".join(fields) + "}"


def _string(text: str) -> str:
    # json.dumps for each of a large lock's strings would be most of the write.
    return f'"{text}"' if _ESCAPED.search(text) is None else json.dumps(text, ensure_ascii=False)


def _problem(message: str) -> LockFileError:
    return LockFileError(error(Code.LOCK_INVALID, message, LOCK_FILE))


class _Shape:
    """Checks a parsed lock document, naming the line and column of what is wrong."""

    def __init__(self, text: str) -> None:
        self._text = text

    def lock(self, doc: object) -> Lock:
        if not isinstance(doc, dict):
            self._fail("", f"the top level is {json_kind(doc)}, not an object")
        unknown = sorted(set(doc) - {"version", "targets"})
        if unknown:
            self._fail(unknown[0], f"unknown field `{unknown[0]}`")
        version = doc.get("version")
        if version != LOCK_VERSION:
            if isinstance(version, int) and not isinstance(version, bool) and version > 1:
                raise _problem(
                    f"{self._at('version')}: lock file version {version} was written by a newer "
                    "i18nprune — upgrade i18nprune to use it"
                )
            self._fail("version", f"`version` must be {LOCK_VERSION}")
        targets = doc.get("targets")
        if not isinstance(targets, dict):
            self._fail("targets", "`targets` must be an object of target locales")
        return {key: dict(self._entries(key, entries)) for key, entries in targets.items()}

    def _entries(self, key: str, entries: object) -> Iterator[tuple[str, LockEntry]]:
        where = f"targets.{key}"
        if not isinstance(entries, dict):
            self._fail(where, f"`{key}` must be an object of leaf paths")
        for path, entry in entries.items():
            yield path, self._entry(f"{where}.{path}", entry)

    def _entry(self, where: str, entry: object) -> LockEntry:
        if not isinstance(entry, dict):
            self._fail(where, f"an entry is {json_kind(entry)}, not an object")
        for name in entry:
            if name not in _FIELDS:
                self._fail(f"{where}.{name}", f"unknown entry field `{name}`")
        for name in ("source", "value", "from", "stale"):
            if (name in entry or name in ("source", "value")) and not isinstance(
                entry.get(name), str
            ):
                self._fail(
                    f"{where}.{name}" if name in entry else where, f"`{name}` must be a string"
                )
        for name in ("source", "value", "stale"):
            if name in entry and len(entry[name]) != HASH_LENGTH:
                self._fail(f"{where}.{name}", f"`{name}` must be a hash of {HASH_LENGTH} digits")
        for name in ("edited", "marked"):
            if name in entry and not isinstance(entry[name], bool):
                self._fail(f"{where}.{name}", f"`{name}` must be true or false")
        return LockEntry(
            source=entry["source"],
            value=entry["value"],
            origin=entry.get("from"),
            edited=entry.get("edited", False),
            stale=entry.get("stale"),
            marked=entry.get("marked", False),
        )

    def _at(self, path: str) -> str:
        # Only a failing check needs positions (one pass over the whole text), and `validate`
        # loads this module on every run: imported here.
        from i18nprune.locales.positions import path_positions

        position = path_positions(self._text).position(path) if path else None
        line, column = position or (1, 1)
        return f"{LOCK_FILE}:{line}:{column}"

    def _fail(self, path: str, why: str) -> NoReturn:
        raise _problem(f"{self._at(path)}: {why} — {_FIX}")
