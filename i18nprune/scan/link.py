"""Cross-file linking: imported names in key values become what their modules export (and a
call of an imported function what it returns), through any number of re-exports (cycles end as
unknown values).

A linker can also say what each file's linking read (`start_file`/`finish_file`), so that a
host scanning the same root again (`serve`) re-links only the files whose output may differ
(`LinkMemo`).
"""

from __future__ import annotations

import sys
import zlib
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import NamedTuple, TypeAlias

import msgspec

from i18nprune.keys import KeySyntax
from i18nprune.scan.expressions import (
    OPAQUE,
    AutoId,
    Branches,
    Called,
    Computed,
    Expr,
    Imported,
    Join,
    Member,
    Messages,
    Record,
    Returns,
    Selector,
    Text,
    computed_member,
    concatenate,
    needs_linking,
)
from i18nprune.scan.facts import FileFacts
from i18nprune.scan.records import DynamicSite, KeyObservation
from i18nprune.system.digests import blake2b

_MAX_STEPS = 64
_PURE_STEPS = _MAX_STEPS // 2
"""A link in which no step count passed this, and no `export *` cycle was met, gives every
value the same result whatever order the values are linked in (see `Linker.pure`)."""

FactsOf = Callable[[str], FileFacts | None]
ResolveModule = Callable[[str, str], str | None]
RecordOf = Callable[[str], object | None]
"""A file's scan record as the scan holds it now (compared, never read), or `None`."""
MessageIdOf = Callable[[AutoId, str], Expr]
"""The id an `AutoId` written in a file stands for (see `message_ids.MessageIds.resolve`)."""


class _FactsRead(NamedTuple):
    """Linking read a file's facts."""

    file: str


class _ModuleResolved(NamedTuple):
    """Linking resolved `specifier`, imported in `importer`, to `module`."""

    importer: str
    specifier: str
    module: str | None


_Read: TypeAlias = _FactsRead | _ModuleResolved
Read: TypeAlias = tuple[str, object | None] | _ModuleResolved
"""What a file's linking read, in order: a file's record `(file, record)`, or an import
resolved."""


class _Namespace(NamedTuple):
    """`import * as K from './keys'`: the module itself, whose members are its exports."""

    file: str


class Linker:
    """Resolves symbolic values against the exports of other project files.

    `facts_of(file)` returns a file's facts (parsing it on demand if it must); `resolve_module(
    importer, specifier)` maps a relative import to a project file, or `None`.
    """

    def __init__(
        self,
        facts_of: FactsOf,
        resolve_module: ResolveModule,
        record_of: RecordOf | None = None,
        message_id: MessageIdOf | None = None,
    ) -> None:
        """`record_of` (needed for `finish_file` and `still_valid`) gives the record a file's
        facts come from, as the scan holds it; `message_id` derives the ids of messages
        written without one (without it they stay unknown)."""
        self._facts_of_file = facts_of
        self._resolve = resolve_module
        self._record_of = record_of
        self._message_id = message_id
        self._exports: dict[tuple[str, str], tuple[Expr, str] | None] = {}
        self._in_progress: set[tuple[str, str]] = set()
        self._export_reads: dict[tuple[str, str], list[_Read]] = {}
        self._reads: list[list[_Read]] = []
        self.pure = True
        """False once a step count passed `_PURE_STEPS` or an `export *` cycle was met: a value
        linked then may depend on what was linked before it (the exports found are shared)."""

    def start_file(self) -> None:
        """Start noting what linking reads, until `finish_file`."""
        self._reads = [[]]

    def finish_file(self) -> tuple[Read, ...]:
        """What linking read since `start_file`, in order, each once (each file read with its
        record)."""
        assert self._record_of is not None
        record_of = self._record_of
        return tuple(
            (read.file, record_of(read.file)) if isinstance(read, _FactsRead) else read
            for read in self._take_reads()
        )

    def finish_reads(self) -> list[list[str]]:
        """What linking read since `start_file`, in order, each once: `[file]` for a file's
        facts, `[importer, specifier]` or `[importer, specifier, module]` for an import
        resolved to nothing or to `module` (see `recall_link`)."""
        return [
            [read.file]
            if isinstance(read, _FactsRead)
            else [read.importer, read.specifier]
            if read.module is None
            else [read.importer, read.specifier, read.module]
            for read in self._take_reads()
        ]

    def _take_reads(self) -> dict[_Read, None]:
        """What was read since `start_file`, in order, each once; noting stops."""
        reads = dict.fromkeys(self._reads[0]) if self._reads else {}
        self._reads = []
        return reads

    def still_valid(self, reads: Sequence[Read]) -> bool:
        """Whether linking would read the same now: each file read has the same record, each
        import resolves to the same module. Checked in order, stopping at the first difference,
        reading each file's facts as linking does (so the scan's side effects — a file adopted,
        a syntax error noted — are those linking would have)."""
        assert self._record_of is not None
        for read in reads:
            if isinstance(read, _ModuleResolved):
                if self._resolve(read.importer, read.specifier) != read.module:
                    return False
                continue
            file, record = read
            self._facts_of_file(file)
            if not same_record(self._record_of(file), record):
                return False
        return True

    def _facts_of(self, module: str) -> FileFacts | None:
        if self._reads:
            self._reads[-1].append(_FactsRead(module))
        return self._facts_of_file(module)

    def _resolve_module(self, importer: str, specifier: str) -> str | None:
        module = self._resolve(importer, specifier)
        if self._reads:
            self._reads[-1].append(_ModuleResolved(importer, specifier, module))
        return module

    def resolve(self, value: Expr, file: str, steps: int = 0) -> Expr:
        """`value`, as written in `file`, with every resolvable import replaced by its value."""
        if steps > _PURE_STEPS:
            self.pure = False
        if steps > _MAX_STEPS:
            return OPAQUE
        if isinstance(value, Join):
            parts = [self.resolve(part, file, steps + 1) for part in value.parts]
            return concatenate(parts, template=value.template)
        if isinstance(value, Branches):
            return Branches([self.resolve(option, file, steps + 1) for option in value.options])
        if isinstance(value, Selector):
            return Selector([self.resolve(part, file, steps + 1) for part in value.path])
        if isinstance(value, Imported | Member | Called):
            target, target_file = self._dereference(value, file, steps + 1)
            if isinstance(target, _Namespace):
                return OPAQUE
            return self.resolve(target, target_file, steps + 1)
        if isinstance(value, Computed):
            target = self.resolve(value.target, file, steps + 1)
            return computed_member(target) if isinstance(target, Messages) else OPAQUE
        if isinstance(value, AutoId):
            return OPAQUE if self._message_id is None else self._message_id(value, file)
        return value

    def resolve_key(self, value: Expr, file: str, steps: int = 0) -> Expr:
        """A site's key `value`, as written in `file`, resolved as `resolve` does, where a
        FormatJS message descriptor (an object with an `id`: `formatMessage(labels.save)` with
        `formatMessage` a configured function) stands for its id, resolved in the file that
        writes the descriptor."""
        if steps > _PURE_STEPS:
            self.pure = False
        if steps > _MAX_STEPS:
            return OPAQUE
        if type(value) is Text:  # most keys: written out in the call
            return value
        if isinstance(value, Branches):
            return Branches([self.resolve_key(o, file, steps + 1) for o in value.options])
        if isinstance(value, Imported | Member | Called):
            target, target_file = self._dereference(value, file, steps + 1)
            if isinstance(target, _Namespace):
                return OPAQUE
            return self.resolve_key(target, target_file, steps + 1)
        if isinstance(value, Record) and "id" in value.fields:
            return self.resolve(value.fields["id"], file, steps + 1)
        return self.resolve(value, file, steps) if needs_linking(value) else value

    def _dereference(self, value: Expr, file: str, steps: int) -> tuple[Expr | _Namespace, str]:
        """Follow imports, property reads and calls until a value that is not a reference.

        Returns that value with the file its own references are relative to; nested parts are
        left for `resolve`, so large exported objects are only walked where keys read them.
        """
        while steps <= _MAX_STEPS:
            steps += 1
            if steps > _PURE_STEPS:
                self.pure = False
            if isinstance(value, Imported):
                module = self._resolve_module(file, value.source)
                if module is None:
                    return OPAQUE, file
                if value.name == "*":
                    return _Namespace(module), module
                found = self._export(module, value.name, steps)
                if found is None:
                    return OPAQUE, file
                value, file = found
            elif isinstance(value, Member):
                target, target_file = self._dereference(value.target, file, steps)
                if isinstance(target, _Namespace):
                    found = self._export(target.file, value.name, steps)
                    if found is None:
                        return OPAQUE, file
                    value, file = found
                elif isinstance(target, Record):
                    value, file = target.fields.get(value.name, OPAQUE), target_file
                elif isinstance(target, Branches):
                    options: list[Expr] = [Member(option, value.name) for option in target.options]
                    return Branches(options), target_file
                elif isinstance(target, Messages):
                    return target.member(value.name), target_file
                else:
                    return OPAQUE, file
            elif isinstance(value, Called):
                target, target_file = self._dereference(value.function, file, steps)
                if not isinstance(target, Returns):
                    return OPAQUE, file
                value, file = target.value, target_file
            else:
                return value, file
        self.pure = False
        return OPAQUE, file

    def _export(self, module: str, name: str, steps: int) -> tuple[Expr, str] | None:
        """What `module` exports as `name` (directly or through `export *`), with its file."""
        key = (module, name)
        if steps > _PURE_STEPS:
            self.pure = False
        if key in self._exports:
            if self._reads:
                reads = self._export_reads.get(key)
                if reads is None:  # met in a cycle, or found while reads were not noted
                    self.pure = False
                else:
                    self._reads[-1].extend(reads)
            elif key in self._in_progress:
                self.pure = False
            return self._exports[key]
        self._exports[key] = None  # a cycle through `export *` finds nothing
        self._in_progress.add(key)
        if self._reads:
            self._reads.append([])
        found = self._find_export(module, name, steps)
        self._in_progress.discard(key)
        if self._reads:
            reads = self._export_reads[key] = self._reads.pop()
            self._reads[-1].extend(reads)
        self._exports[key] = found
        return found

    def _find_export(self, module: str, name: str, steps: int) -> tuple[Expr, str] | None:
        facts = self._facts_of(module)
        if facts is None or steps > _MAX_STEPS:
            return None
        if name in facts.exports:
            return facts.exports[name], module
        if name == "default":
            return None
        for source in facts.star_exports:
            target = self._resolve_module(module, source)
            found = self._export(target, name, steps + 1) if target is not None else None
            if found is not None:
                return found
        return None


def same_record(now: object | None, then: object | None) -> bool:
    """Whether two scan records (bytes, or slices of a loaded cache) hold the same bytes."""
    if now is then:
        return True
    if now is None or then is None:
        return False
    if type(now) is type(then):
        return now == then
    return memoryview(now) == memoryview(then)  # type: ignore[arg-type]


class LinkedFile(NamedTuple):
    """One file's linked output, and what it was computed from."""

    record: object
    """The file's record when it was linked."""
    observations: tuple[KeyObservation, ...]
    dynamic: tuple[DynamicSite, ...]
    noted: bool
    """Whether linking noted the file's syntax error (it has key sites)."""
    syntax_error: tuple[int, int] | None
    reads: tuple[Read, ...]


class LinkMemo:
    """Each file's linked output from the last scan of one root, kept by a host that scans the
    root again (`serve`'s index), so that a scan re-links only the files whose output may
    differ: a file is linked again when its own record changed, or when anything its linking
    read did — the facts of a file it imports from (directly, through re-exports, or through
    a namespace) by their record, or which file an import resolves to.

    Output is reused only from a scan whose linking was `Linker.pure`; a scan that reused some
    and found its own linking not pure links everything again (see `project_scan`). Not
    thread-safe: one scan at a time uses it.
    """

    def __init__(self) -> None:
        self.key: object = None
        """What linking depends on besides the files (the scan identity, the key syntax)."""
        self.files: dict[str, LinkedFile] = {}

    def begin(self, key: object) -> None:
        """Start a scan whose linking depends on `key`: output kept for another key goes."""
        if key != self.key:
            self.key = key
            self.files = {}

    def reusable(self, relpath: str, record: object | None, linker: Linker) -> LinkedFile | None:
        """The kept output of `relpath`, when its record is `record` and everything its linking
        read is unchanged (`Linker.still_valid`), else None."""
        kept = self.files.get(relpath)
        if kept is None or record is None or not same_record(record, kept.record):
            return None
        if kept.reads and not linker.still_valid(kept.reads):
            return None
        return kept

    def finish(self, files: dict[str, LinkedFile], pure: bool) -> None:
        """End the scan: keep `files` (every file linked or reused in it), or nothing when its
        linking was not pure."""
        self.files = files if pure else {}


class _LinkHead(msgspec.Struct, frozen=True, array_like=True):
    """The leading fields of a `_LinkSnapshot`: what decides whether it still holds."""

    syntax: KeySyntax
    paths: bytes
    """`paths_digest` of the files linked, in order."""
    records: int
    """`records_checksum` of their records and those of the files linking read."""
    reads: list[list[str]]
    """`Linker.finish_reads` of the whole linking."""
    syntax_errors: dict[str, tuple[int, int]]
    """The syntax errors linking noted (files with key sites, and files it read)."""
    options: bytes
    """`link_options_digest` of the options linking read (message ids' Babel options, the
    namespace scopes)."""


class _LinkSnapshot(_LinkHead, frozen=True, array_like=True):
    """A whole linking's output, saved beside the scan records it was computed from."""

    observations: list[KeyObservation]
    dynamic: list[DynamicSite]


class RecalledLink(NamedTuple):
    """A saved linking's output (sorted as linking returns it) and the syntax errors it noted."""

    observations: list[KeyObservation]
    dynamic: list[DynamicSite]
    syntax_errors: dict[str, tuple[int, int]]


_encoder = msgspec.msgpack.Encoder()
_head_decoder = msgspec.msgpack.Decoder(_LinkHead)
_snapshot_decoder = msgspec.msgpack.Decoder(_LinkSnapshot)
_ITEMS_PER_CHUNK = 1024


def paths_digest(relpaths: Iterable[str]) -> bytes:
    """A digest of `relpaths` in order: equal digests, the same files linked in the same
    order."""
    digest = blake2b(digest_size=16)
    for relpath in relpaths:
        digest.update(relpath.encode("utf-8", "surrogateescape") + b"\0")
    return digest.digest()


def link_options_digest(*options: object) -> bytes:
    """A digest of the scan options linking reads besides the key syntax (msgspec-encodable
    values, in a fixed order: the Babel options message ids are derived with, the namespace
    scopes): equal digests, the same linking of the same files."""
    return blake2b(_encoder.encode(options), digest_size=16).digest()


def record_checksum(record: object) -> int:
    """The checksum of one scan record's bytes (see `records_checksum`)."""
    return zlib.crc32(record)  # type: ignore[arg-type]


def records_checksum(checksums: Iterable[int | None]) -> int:
    """A checksum of scan records in order, from each one's `record_checksum` (`None`: the
    record is missing): a snapshot holds only with the very records it was computed from, even
    if the cache was altered. (Per record, so that records written out as they were made need
    not be kept.)"""
    values = array("q", (-1 if checksum is None else checksum for checksum in checksums))
    if sys.byteorder != "little":
        values.byteswap()
    return zlib.crc32(values)


def snapshot_link(
    syntax: KeySyntax,
    options: bytes,
    paths: bytes,
    records: Callable[[], int],
    reads: list[list[str]],
    syntax_errors: dict[str, tuple[int, int]],
    observations: Sequence[KeyObservation],
    dynamic: Sequence[DynamicSite],
) -> Iterator[bytes]:
    """A `_LinkSnapshot` of a pure linking's output, encoded a thousand sites at a time (the
    lists are never encoded twice over in memory). `records()` is the `records_checksum` of
    the records saved with it, taken when it is written."""
    yield (
        b"\x98"  # an array of eight fields
        + _encoder.encode(syntax)
        + _encoder.encode(paths)
        + _encoder.encode(records())
        + _encoder.encode(reads)
        + _encoder.encode(syntax_errors)
        + _encoder.encode(options)
    )
    for items in (observations, dynamic):
        yield b"\xdd" + len(items).to_bytes(4, "big")  # array 32
        for start in range(0, len(items), _ITEMS_PER_CHUNK):
            chunk = items[start : start + _ITEMS_PER_CHUNK]
            encoded = _encoder.encode(chunk)
            yield encoded[_array_header_size(len(chunk)) :]


def _array_header_size(length: int) -> int:
    """The size of msgpack's header of an array of `length` items."""
    return 1 if length < 16 else 3 if length < 1 << 16 else 5


def recall_link(
    encoded: msgspec.Raw,
    syntax: KeySyntax,
    options: bytes,
    paths: bytes,
    facts_of: FactsOf,
    resolve_module: ResolveModule,
    unchanged: Callable[[str], bool],
    records: Callable[[Iterable[str]], int],
) -> RecalledLink | None:
    """The output a saved linking (`snapshot_link`) gives, when linking now would read the same:
    the same key syntax, options (`link_options_digest`) and files (`paths`), and, in the order
    linking read them, each import resolving to the same module and each file read still
    `unchanged(file)` once `facts_of` has read it (as linking would), and `records(files
    read)` (the `records_checksum` of the linked files' records and then of the files read)
    equal to the saved one. None otherwise, or when the snapshot is damaged."""
    try:
        head = _head_decoder.decode(encoded)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    if head.paths != paths or head.syntax != syntax or head.options != options:
        return None
    for read in head.reads:
        if len(read) == 1:
            facts_of(read[0])
            if not unchanged(read[0]):
                return None
        elif resolve_module(read[0], read[1]) != (read[2] if len(read) > 2 else None):
            return None
    if records(read[0] for read in head.reads if len(read) == 1) != head.records:
        return None
    try:
        snapshot = _snapshot_decoder.decode(encoded)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    return RecalledLink(snapshot.observations, snapshot.dynamic, snapshot.syntax_errors)
