"""A locale file of any format, opened for reading or editing by its extension
(`locales.formats`): the one door every op goes through to read a file's keys and to make,
load and write a document (docs/locale-files.md#formats)."""

from __future__ import annotations

from pathlib import Path

from i18nprune.locales.arbdoc import ArbDocument, ArbStyle, parse_arb_text, read_arb_file
from i18nprune.locales.formats import format_of, is_template_name
from i18nprune.locales.jsondoc import JsonStyle, LinguiCatalogDocument, LocaleDocument
from i18nprune.locales.jsonfile import parse_json_bytes, read_json_file
from i18nprune.locales.keyroot import KeyRoot
from i18nprune.locales.podoc import (
    PoDocument,
    PoStyle,
    parse_po_text,
    read_po_file,
)
from i18nprune.locales.xliffdoc import (
    XliffDocument,
    XliffStyle,
    parse_xliff_text,
    read_xliff_file,
)
from i18nprune.locales.yamldoc import YamlDocument, YamlStyle, parse_yaml_text, read_yaml_file

FileStyle = JsonStyle | YamlStyle | ArbStyle | PoStyle | XliffStyle
"""How a new locale file is laid out, in its format (`counterpart_style`)."""

_DOCUMENTS: dict[str | None, type[LocaleDocument]] = {
    "json": LocaleDocument,
    "yaml": YamlDocument,
    "arb": ArbDocument,
    "po": PoDocument,
    "xliff": XliffDocument,
}


def read_locale_tree(path: Path, display_path: str) -> dict[str, object]:
    """The parsed keys of the locale file at `path`, by its format: a JSON file's top-level
    object, a YAML file's below its locale key (`locales.yamldoc`), an ARB file's messages
    (`locales.arbdoc`), a PO file's translated entries (`locales.podoc`), an XLIFF file's units
    by id (`locales.xliffdoc`). Raises
    `LocaleFileError` as the format's reader does."""
    kind = format_of(path.name)
    if kind == "yaml":
        return read_yaml_file(path, display_path)
    if kind == "arb":
        return read_arb_file(path, display_path)
    if kind == "po":
        return read_po_file(path, display_path)
    if kind == "xliff":
        return read_xliff_file(path, display_path)
    return read_json_file(path, display_path)


def parse_locale_text(text: str, display_path: str, path: Path) -> dict[str, object]:
    """The parsed keys of `text`, an editor's unsaved content of the locale file `path`, by its
    format; raises `LocaleFileError` as `read_locale_tree` does."""
    kind = format_of(path.name)
    if kind == "yaml":
        return parse_yaml_text(text, display_path, path)
    if kind == "arb":
        return parse_arb_text(text, display_path)
    if kind == "po":
        return parse_po_text(text, display_path, template=is_template_name(path.name))
    if kind == "xliff":
        return parse_xliff_text(text, display_path)
    return parse_json_bytes(text.encode("utf-8", "surrogatepass"), display_path)


def load_document(
    path: Path, display_path: str, *, literal_keys: bool = False, key_root: KeyRoot = ()
) -> LocaleDocument:
    """The editable document of the existing locale file at `path`, by its format. Raises
    `LocaleFileError` as its format's `load` does."""
    kind = _DOCUMENTS.get(format_of(path.name), LocaleDocument)
    return kind.load(path, display_path, literal_keys=literal_keys, key_root=key_root)


def counterpart_style(document: LocaleDocument, locale_name: str) -> FileStyle:
    """The style of the new file of locale `locale_name` made after `document` (a source
    locale's file): its layout, and what names the locale inside the file, if anything."""
    if isinstance(document, YamlDocument | ArbDocument | PoDocument | XliffDocument):
        return document.counterpart_style(locale_name)
    if isinstance(document, LinguiCatalogDocument):
        return document.counterpart_style()
    return document.style


def new_document(
    path: Path,
    style: FileStyle | None = None,
    *,
    literal_keys: bool = False,
    key_root: KeyRoot = (),
) -> LocaleDocument:
    """An empty document for the locale file `path` that does not exist yet, by its format,
    laid out in `style` (a style of another format is ignored: the format's default)."""
    kind = _DOCUMENTS.get(format_of(path.name), LocaleDocument)
    return kind.new(path, style, literal_keys=literal_keys, key_root=key_root)
