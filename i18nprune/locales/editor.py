"""Edits to one locale spread over its segment files, saved through the document writer."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import msgspec

from i18nprune.locales.documents import FileStyle, load_document, new_document
from i18nprune.locales.formats import catalog_parts, counterpart_name, format_of
from i18nprune.locales.jsondoc import LinguiCatalogDocument, LocaleDocument, as_counterpart
from i18nprune.locales.layout import LocaleInventory, Segment, is_gettext_template
from i18nprune.locales.paths import array_items
from i18nprune.locales.podoc import PoDocument
from i18nprune.locales.view import LocaleView
from i18nprune.locales.xliffdoc import XliffDocument, may_hold_untranslated

# Documents whose new entries are made after the source's (`adopt`): a file loaded before the
# style of its counterpart was known takes it when the first leaf is set.
_ADOPTING = (XliffDocument, PoDocument, LinguiCatalogDocument)


class FileChange(msgspec.Struct, frozen=True):
    """What an edit does to one file (`path` relative to the project root)."""

    path: str
    changed: bool
    added: int = 0
    removed: int = 0


def counterpart_path(
    inventory: LocaleInventory, source: Segment, target_name: str, structure: str
) -> Path:
    """Where the target locale's file matching a source segment lives.

    `locale_per_dir`: `<dir>/en/auth.json` → `<dir>/fr/auth.json`, a gettext template
    `<dir>/messages.pot` → `<dir>/fr/LC_MESSAGES/messages.po`; the other layouts name the
    file after the locale (`en.json`, `auth/en.yml`) → the sibling of the same format
    (`fr.json`, `auth/fr.yml`).
    """
    if structure != "locale_per_dir":
        return source.path.with_name(counterpart_name(source.path.name, target_name))
    if is_gettext_template(inventory, source.path):
        return inventory.directory.joinpath(target_name, *catalog_parts(source.path.name))
    relative = source.path.relative_to(inventory.directory)
    return inventory.directory.joinpath(target_name, *relative.parts[1:])


class _EditedFile:
    """One file of an editor: its document, and how many leaves the edits added and removed."""

    __slots__ = ("added", "document", "removed")

    def __init__(self, document: LocaleDocument) -> None:
        self.document = document
        self.added = 0
        self.removed = 0


class LocaleEditor:
    """Pending edits to one locale; documents load lazily and save only when they change.

    `literal_keys`: keys are flat strings that may contain dots (see `LocaleDocument`). Keys
    start where the view's segments hold them (`view.key_root`), in new files too.
    """

    def __init__(self, root: Path, view: LocaleView, *, literal_keys: bool = False) -> None:
        self.root = root
        self.view = view
        self.literal_keys = literal_keys
        # One entry per file, so that an edit looks its file up once (hashing a Path is a
        # Python-level call).
        self._files: dict[Path, _EditedFile] = {}
        self._segment_paths = {segment.rel: segment.path for segment in view.segments}
        self._arrays: dict[str, list[str]] | None = None  # see `delete_key`
        self.saved: list[str] = []
        """The files the last `save` wrote (so far, when it raised)."""
        self._peeked: dict[Path, LocaleDocument] = {}
        """Documents `untranslated` read, not edited yet (`_file` takes them when they are)."""

    def document(self, path: Path, style: FileStyle | None = None) -> LocaleDocument:
        """The document at `path`, loaded once; a new empty one when the file does not exist.

        Raises LocaleFileError when the file exists but is not a valid locale file.
        """
        return self._file(path, style).document

    def segment_of(self, leaf_path: str) -> Path | None:
        """The file that holds an existing leaf."""
        rel = self.view.leaf_segment.get(leaf_path)
        return self._segment_paths.get(rel) if rel else None

    def get(self, leaf_path: str) -> object | None:
        """An existing leaf as its file holds it now (a copy; see `LocaleDocument.get`), None
        when no file of the view holds it. Raises LocaleFileError as `document` does."""
        holder = self.segment_of(leaf_path)
        return self.document(holder).get(leaf_path) if holder is not None else None

    def set(
        self,
        leaf_path: str,
        value: object,
        file: Path,
        order: Sequence[str] | None = None,
        style: FileStyle | None = None,
    ) -> None:
        """Set a leaf in the file that holds it, or (new) in `file`, placed by `order`."""
        rel = self.view.leaf_segment.get(leaf_path)
        target = (self._segment_paths.get(rel) if rel else None) or file  # `segment_of`
        edited = self._files.get(target) or self._file(target, style)
        if style is not None and isinstance(edited.document, _ADOPTING):
            # loaded before: new units and Lingui entries are copied from the source, new
            # plural entries take its msgid_plural
            edited.document.adopt(style)
        if edited.document.set(leaf_path, value, order=order):
            edited.added += 1

    def add(
        self,
        leaves: Sequence[tuple[str, object]],
        file: Path,
        order: Sequence[str] | None = None,
        style: FileStyle | None = None,
    ) -> None:
        """Set leaves that no file of the view holds: each (path, value) of `leaves` in turn,
        in `file`, placed by `order`, as `set` would (see `LocaleDocument.set_many`)."""
        edited = self._files.get(file) or self._file(file, style)
        if style is not None and isinstance(edited.document, _ADOPTING):
            edited.document.adopt(style)  # as in `set`
        edited.added += edited.document.set_many(leaves, order=order)

    def delete(self, leaf_path: str) -> bool:
        """Remove a leaf (emptied parents go too); False when the locale does not have it."""
        file = self.segment_of(leaf_path)
        if file is None:
            return False
        edited = self._file(file)
        if not edited.document.delete(leaf_path):
            return False
        edited.removed += 1
        return True

    def delete_key(self, key: str) -> bool:
        """Remove a key: its leaf, or (a key holding an array) every item of the array, data
        items too, last first so that no item moves before it goes; the array goes with
        them. False when the locale has neither."""
        if key in self.view.leaves:
            return self.delete(key)
        if self._arrays is None:
            self._arrays = array_items(self.view.leaves)
        items = self._arrays.get(key, [])
        file = self.segment_of(items[0]) if items else None
        if file is None:
            return False
        edited = self._file(file)
        removed = [edited.document.delete(item) for item in reversed(items)]
        if not any(removed):
            return False
        edited.removed += 1
        return True

    def untranslated(self) -> dict[str, Path]:
        """The keys the locale's XLIFF files hold with no translation (units without a
        target: no leaves of the view) → the file that holds each. A file is parsed only when
        it may hold one (`may_hold_untranslated`), and is no edited file until a unit of it is
        dropped. Raises LocaleFileError as `document` does."""
        leaves = Counter(self.view.leaf_segment.values())
        found: dict[str, Path] = {}
        for segment in self.view.segments:
            if format_of(segment.path.name) != "xliff":
                continue
            edited = self._files.get(segment.path)
            if edited is not None:
                document = edited.document
            elif may_hold_untranslated(segment.path, leaves[segment.rel]):
                peeked = self._peeked.get(segment.path)
                document = peeked if peeked is not None else self._load(segment.path)
                self._peeked[segment.path] = document
            else:
                continue
            if isinstance(document, XliffDocument):
                for key in document.untranslated():
                    found.setdefault(key, segment.path)
        return found

    def delete_untranslated(self, key: str, file: Path) -> bool:
        """Remove the unit of `key` that `file` holds with no translation (see
        `untranslated`); False when it holds none."""
        edited = self._file(file)
        document = edited.document
        if not isinstance(document, XliffDocument) or not document.drop_untranslated(key):
            return False
        edited.removed += 1
        return True

    def changes(self) -> list[FileChange]:
        """Every touched file and whether its bytes would change, sorted by path."""
        changes = []
        for path, edited in sorted(self._files.items()):
            before = path.read_bytes() if path.exists() else None
            changes.append(
                FileChange(
                    path=self._display(path),
                    changed=edited.document.render() != before,
                    added=edited.added,
                    removed=edited.removed,
                )
            )
        return changes

    def save(self) -> list[str]:
        """Write every changed file atomically, one after another; returns the files written.
        Raises as the failing document's `save` does, the files before it written (`saved`
        names them)."""
        self.saved = []
        for path, edited in sorted(self._files.items()):
            if edited.document.save(root=self.root):
                self.saved.append(self._display(path))
        return list(self.saved)

    def _file(self, path: Path, style: FileStyle | None = None) -> _EditedFile:
        edited = self._files.get(path)
        if edited is None:
            key_root = self.view.key_root
            peeked = self._peeked.pop(path, None)
            if peeked is not None or path.exists():
                document = peeked if peeked is not None else self._load(path)
                if style is not None:
                    document.adopt(style)
                    document = as_counterpart(document, style)
            else:
                document = new_document(
                    path, style, literal_keys=self.literal_keys, key_root=key_root
                )
            edited = self._files[path] = _EditedFile(document)
        return edited

    def _load(self, path: Path) -> LocaleDocument:
        return load_document(
            path,
            self._display(path),
            literal_keys=self.literal_keys,
            key_root=self.view.key_root,
        )

    def _display(self, path: Path) -> str:
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return str(path)
