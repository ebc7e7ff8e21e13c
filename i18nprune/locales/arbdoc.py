"""Flutter's ARB files (`app_en.arb`): JSON whose `@` keys are metadata, not messages.

A message `hello` may have its metadata `@hello` (description, placeholders) beside it, and
the file its locale as `@@locale`. Readers see only the messages. Writing is the JSON
document's (`LocaleDocument`: order, indentation and spellings kept), with three rules of
ARB's own: a message's metadata goes when the message goes, a new message is placed after
the metadata of the message it follows rather than between the two, and a target made from a
source that names its locale names its own (`"@@locale": "fr"`) first.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from i18nprune.locales.jsondoc import JsonStyle, LocaleDocument, render_tree
from i18nprune.locales.jsonfile import parse_json_bytes, read_json_file
from i18nprune.locales.keyroot import KeyRoot

LOCALE_KEY = "@@locale"


class ArbStyle(msgspec.Struct, frozen=True):
    """How a new ARB file is laid out: the JSON layout, and the locale it names, if any."""

    json: JsonStyle
    locale: str | None = None
    """Written as `@@locale`, first, in a new file."""


def read_arb_file(path: Path, display_path: str) -> dict[str, object]:
    """The messages of the ARB file at `path` (its `@` keys left out). Raises
    `LocaleFileError` as `read_json_file` does."""
    return messages_of(read_json_file(path, display_path))


def parse_arb_text(text: str, display_path: str) -> dict[str, object]:
    """The messages of ARB `text` (an editor's unsaved buffer), raising as `read_arb_file`."""
    return messages_of(parse_json_bytes(text.encode("utf-8", "surrogatepass"), display_path))


def messages_of(tree: dict[str, object]) -> dict[str, object]:
    """The entries of an ARB document that are messages: every key not starting with `@`."""
    return {key: value for key, value in tree.items() if not key.startswith("@")}


class ArbDocument(LocaleDocument):
    """An ARB file held as a JSON document whose leaves are its messages (see the module)."""

    def __init__(
        self,
        path: Path,
        style: JsonStyle,
        tree: dict[str, object],
        original: bytes | None,
        *,
        literal_keys: bool = False,
        key_root: KeyRoot = (),
    ) -> None:
        super().__init__(path, style, tree, original, literal_keys=literal_keys, key_root=key_root)
        self._loaded_keys = frozenset(tree) if original is not None else frozenset()

    @classmethod
    def new(
        cls,
        path: Path,
        style: object = None,
        *,
        literal_keys: bool = False,
        key_root: KeyRoot = (),
    ) -> ArbDocument:
        """An empty ARB document for a file that does not exist yet; with an `ArbStyle` that
        names a locale, it starts with `"@@locale"`."""
        if isinstance(style, ArbStyle):
            tree: dict[str, object] = {LOCALE_KEY: style.locale} if style.locale else {}
            return cls(path, style.json, tree, None, literal_keys=literal_keys, key_root=key_root)
        document = super().new(path, style, literal_keys=literal_keys, key_root=key_root)
        assert isinstance(document, ArbDocument)
        return document

    def counterpart_style(self, locale_name: str) -> ArbStyle:
        """The style of the file of locale `locale_name` made from this one: its JSON layout,
        naming that locale when this file names its own."""
        names_locale = isinstance(self._document.get(LOCALE_KEY), str)
        return ArbStyle(self.style, locale_name if names_locale else None)

    def paths(self) -> list[str]:
        """Every message path in document order (metadata left out)."""
        return [path for path in super().paths() if not path.startswith("@")]

    def render(self) -> bytes:
        """The file's bytes (see `LocaleDocument.render`), with the metadata of removed
        messages removed and each message's metadata kept right after it."""
        if not self._edited and self._saved is not None:
            return self._saved
        self._tree.settle()
        return render_tree(_tidied(self._document, self._loaded_keys), self.style)


def _tidied(tree: dict[str, object], loaded: frozenset[str]) -> dict[str, object]:
    """`tree` without metadata whose message is gone, and with each `@key` moved back over
    the new messages placed between it and `key` (linear in the keys)."""
    messages = {key for key in tree if not key.startswith("@")}
    out: list[tuple[str, object]] = []
    held = 0  # new messages at the end of `out`, placed after the last loaded message
    last: str | None = None
    for key, value in tree.items():
        if key.startswith("@") and not key.startswith("@@"):
            if key[1:] not in messages:
                continue
            if held and key[1:] == last:
                out.insert(len(out) - held, (key, value))
                continue
            held = 0
        elif not key.startswith("@"):
            if key in loaded:
                last, held = key, 0
            else:
                held += 1
        out.append((key, value))
    return dict(out)
