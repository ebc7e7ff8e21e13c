"""Keys under a wrapper object (`locales.root`): views read leaves only below it, documents write
only below it, and every byte outside it stays as it was."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest

from i18nprune.config.schema import LocalesConfig
from i18nprune.envelope import Code
from i18nprune.locales.editor import LocaleEditor
from i18nprune.locales.jsondoc import LocaleDocument
from i18nprune.locales.jsonfile import LocaleFileError
from i18nprune.locales.keyroot import object_span, parse_key_root
from i18nprune.locales.layout import segment_namespace
from i18nprune.locales.positions import locate_paths
from i18nprune.locales.view import load_locale
from tests.locales.trees import PLACEHOLDER, locale_tree

MAPPINGS = LocalesConfig(root="mappings")

# The app's file: metadata around the keys, laid out as people write it by hand.
WRAPPED = (
    "{\n"
    '  "version": 3,\n'
    '  "tags": ["ui",   "web"],\n'
    '  "mappings": {\n'
    '    "home": {\n'
    '      "title": "Home",\n'
    '      "old": "Old"\n'
    "    },\n"
    '    "nav": {"back": "Back"}\n'
    "  },\n"
    '  "checksum": {"algorithm": "none"}\n'
    "}\n"
)
BEFORE_ROOT = WRAPPED[: WRAPPED.index('"mappings": ') + len('"mappings": ')]
AFTER_ROOT = WRAPPED[WRAPPED.index(',\n  "checksum"') :]


# the root's key path


@pytest.mark.parametrize(
    ("text", "root"),
    [("", ()), ("mappings", ("mappings",)), ("data.messages", ("data", "messages"))],
)
def test_a_root_is_read_as_its_keys(text: str, root: tuple[str, ...]) -> None:
    assert parse_key_root(text) == root


# where the text spells the root object


@pytest.mark.parametrize(
    ("text", "root", "spelled"),
    [
        ('{"mappings": {"a": "x"}}', ("mappings",), '{"a": "x"}'),
        ('{"mappings": {}}', ("mappings",), "{}"),
        (WRAPPED, ("mappings",), WRAPPED[len(BEFORE_ROOT) : -len(AFTER_ROOT)]),
        # nested objects, arrays and look-alike strings before it do not confuse the scan
        (
            '{"a": [{"mappings": {"no": 1}}], "s": "\\"mappings\\": {", "mappings": {"k": [1]}}',
            ("mappings",),
            '{"k": [1]}',
        ),
        ('{"data": {"x": 1, "messages": {"k": "v"}}}', ("data", "messages"), '{"k": "v"}'),
        # a key spelled twice: the parser keeps the last, and so does the scan
        ('{"mappings": {"a": 1}, "mappings": {"b": 2}}', ("mappings",), '{"b": 2}'),
        # an escaped spelling of the key is the same key
        ('{"\\u006dappings": {"a": 1}}', ("mappings",), '{"a": 1}'),
        ('{"other": {"mappings": {"a": 1}}}', ("mappings",), None),
        ('{"mappings": "text"}', ("mappings",), None),
        ('{"data": {"messages": ["x"]}}', ("data", "messages"), None),
    ],
)
def test_the_root_object_is_found_where_the_text_spells_it(
    text: str, root: tuple[str, ...], spelled: str | None
) -> None:
    span = object_span(text, root)
    assert (text[span[0] : span[1]] if span else None) == spelled


# reading: the leaves below the root, and what the file says about it


@pytest.mark.parametrize(
    ("content", "root", "leaves", "codes"),
    [
        (WRAPPED, "mappings", {"home.title": "Home", "home.old": "Old", "nav.back": "Back"}, []),
        # without a root the wrapper is part of every key, and the metadata is keys too
        (
            '{"version": 3, "mappings": {"a": "x"}}',
            "",
            {"version": 3, "mappings.a": "x"},
            [],
        ),
        ('{"data": {"messages": {"a": "x"}, "b": "y"}}', "data.messages", {"a": "x"}, []),
        # a file that is only `{}` holds no keys yet, and that is no problem
        ("{}", "mappings", {}, []),
        # content without the root object: no keys, and a warning that says so
        ('{"version": 3}', "mappings", {}, [Code.LOCALE_ROOT_MISSING]),
        ('{"a": "x"}', "mappings", {}, [Code.LOCALE_ROOT_MISSING]),
        # the root holding something else: the file cannot be used
        ('{"mappings": "x"}', "mappings", {}, [Code.LOCALE_NOT_OBJECT]),
        ('{"mappings": ["x"]}', "mappings", {}, [Code.LOCALE_NOT_OBJECT]),
        ('{"mappings": null}', "mappings", {}, [Code.LOCALE_NOT_OBJECT]),
        ('{"data": "x"}', "data.messages", {}, [Code.LOCALE_NOT_OBJECT]),
        # the key "" directly below the root has no path, as at the top level
        ('{"mappings": {"": "hidden", "a": "x"}}', "mappings", {"a": "x"}, [Code.LOCALE_EMPTY_KEY]),
        # a top-level "" outside the root is no key, so nothing to warn about
        ('{"": "meta", "mappings": {"a": "x"}}', "mappings", {"a": "x"}, []),
    ],
)
def test_a_view_reads_only_the_leaves_below_the_root(
    tmp_path: Path, content: str, root: str, leaves: dict[str, object], codes: list[str]
) -> None:
    inventory = locale_tree(tmp_path, {"locales/en.json": content}, LocalesConfig(root=root))
    view = load_locale(inventory, "en", PLACEHOLDER)
    assert {path: leaf.value for path, leaf in view.leaves.items()} == leaves
    assert [issue.code for issue in view.issues] == codes


def test_a_missing_root_warning_names_the_file_and_the_root(tmp_path: Path) -> None:
    inventory = locale_tree(tmp_path, {"locales/fr.json": '{"version": 3}'}, MAPPINGS)
    [issue] = load_locale(inventory, "fr", PLACEHOLDER).issues
    assert (issue.severity, issue.path) == ("warning", "locales/fr.json")
    assert issue.message.startswith(
        "locales/fr.json: has no `mappings` object (locales.root), so it holds no keys"
    )


def test_a_root_holding_a_string_is_an_error_naming_file_and_root(tmp_path: Path) -> None:
    inventory = locale_tree(
        tmp_path,
        {"locales/fr.json": '{"data": {"messages": "x"}}'},
        LocalesConfig(root="data.messages"),
    )
    [issue] = load_locale(inventory, "fr", PLACEHOLDER).issues
    assert issue.severity == "error"
    assert issue.message == (
        "locales/fr.json: `data.messages` is a string, but locales.root says keys start at "
        "`data.messages`, so it must be an object of keys — fix the file or locales.root; it "
        "will not be modified"
    )


def test_namespace_files_each_keep_their_keys_below_the_root(tmp_path: Path) -> None:
    locales = LocalesConfig(
        directory="messages",
        mode="locale_directory",
        structure="locale_per_dir",
        namespaces="file",
        root="mappings",
    )
    inventory = locale_tree(
        tmp_path,
        {
            "messages/en/auth.json": '{"v": 1, "mappings": {"title": "Sign in"}}',
            "messages/en/common.json": '{"v": 1, "mappings": {"title": "My app"}}',
        },
        locales,
    )

    def namespace_of(segment):  # type: ignore[no-untyped-def]
        return segment_namespace(inventory, segment, locales)

    auth = load_locale(inventory, "en", PLACEHOLDER, "auth", namespace_of)
    common = load_locale(inventory, "en", PLACEHOLDER, "common", namespace_of)
    assert {path: leaf.value for path, leaf in auth.leaves.items()} == {"title": "Sign in"}
    assert {path: leaf.value for path, leaf in common.leaves.items()} == {"title": "My app"}
    assert auth.issues == common.issues == []


def test_key_positions_point_into_the_root_object(tmp_path: Path) -> None:
    inventory = locale_tree(tmp_path, {"locales/en.json": WRAPPED}, MAPPINGS)
    view = load_locale(inventory, "en", PLACEHOLDER)
    found = locate_paths(view, ["home.old", "nav.back", "version"])
    assert {path: (spot.line, spot.column) for path, spot in found.items()} == {
        "home.old": (7, 7),
        "nav.back": (9, 13),
    }


# writing: only the root object changes


def _document(tmp_path: Path, content: str | bytes, root: str = "mappings") -> LocaleDocument:
    path = tmp_path / "fr.json"
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return LocaleDocument.load(path, "locales/fr.json", key_root=parse_key_root(root))


def _laid_out(keys: dict[str, object], depth: int, indent: str = "  ") -> str:
    """`keys` as the writer lays out the value of a member at `depth`."""
    text = json.dumps(keys, indent=indent, ensure_ascii=False)
    return text.replace("\n", "\n" + indent * depth)


def test_a_new_key_goes_below_the_root_and_the_bytes_around_it_stay(tmp_path: Path) -> None:
    document = _document(tmp_path, WRAPPED)
    document.set("home.subtitle", "Welcome", order=["home.title", "home.subtitle", "home.old"])
    keys = {"home": {"title": "Home", "subtitle": "Welcome", "old": "Old"}, "nav": {"back": "Back"}}
    assert document.render().decode() == BEFORE_ROOT + _laid_out(keys, 1) + AFTER_ROOT


def test_a_delete_removes_only_below_the_root_and_keeps_an_emptied_root(tmp_path: Path) -> None:
    document = _document(tmp_path, '{"version": 3, "mappings": {"a": "x"}}')
    assert document.delete("a")
    assert not document.delete("version")  # outside the root: no leaf of the document
    assert document.render() == b'{"version": 3, "mappings": {}}'


@pytest.mark.parametrize(
    ("root", "content", "after"),
    [
        # CRLF, tabs, a byte-order mark: the root is laid out in the file's style, the rest kept
        (
            "mappings",
            codecs.BOM_UTF8 + b'{\r\n\t"v": [1,2],\r\n\t"mappings": {\r\n\t\t"a": "x"\r\n\t}\r\n}',
            codecs.BOM_UTF8
            + b'{\r\n\t"v": [1,2],\r\n\t"mappings": {\r\n\t\t"a": "x",\r\n\t\t"b": "y"\r\n\t}\r\n}',
        ),
        # a deeper root is laid out at its own depth
        (
            "data.messages",
            '{\n  "data": {\n    "n": 1e3,\n    "messages": {\n      "a": "x"\n    }\n  }\n}\n',
            '{\n  "data": {\n    "n": 1e3,\n    "messages": {\n      "a": "x",\n      "b": "y"\n'
            "    }\n  }\n}\n",
        ),
    ],
)
def test_the_root_object_is_written_in_the_files_style(
    tmp_path: Path, root: str, content: str | bytes, after: str | bytes
) -> None:
    document = _document(tmp_path, content, root)
    document.set("b", "y")
    assert document.render() == (after.encode() if isinstance(after, str) else after)


def test_a_file_without_the_root_gets_it_after_its_other_keys(tmp_path: Path) -> None:
    document = _document(tmp_path, '{\n  "version": 3\n}\n')
    document.set("home.title", "Accueil")
    assert json.loads(document.render()) == {
        "version": 3,
        "mappings": {"home": {"title": "Accueil"}},
    }


def test_an_unedited_file_without_the_root_is_never_written(tmp_path: Path) -> None:
    document = _document(tmp_path, '{"version": 3}')
    assert document.paths() == []
    assert not document.save(root=tmp_path)
    assert (tmp_path / "fr.json").read_text() == '{"version": 3}'


def test_a_new_file_gets_the_wrapper(tmp_path: Path) -> None:
    document = LocaleDocument.new(tmp_path / "de.json", key_root=("data", "messages"))
    document.set("a.b", "x")
    assert json.loads(document.render()) == {"data": {"messages": {"a": {"b": "x"}}}}
    assert document.render().startswith(b'{\n  "data": {\n    "messages": {\n      "a": {\n')


def test_a_root_holding_no_object_cannot_be_loaded_for_writing(tmp_path: Path) -> None:
    with pytest.raises(LocaleFileError) as raised:
        _document(tmp_path, '{"mappings": [1]}')
    assert raised.value.issue.code == Code.LOCALE_NOT_OBJECT


def test_flat_keys_below_the_root_make_new_keys_flat(tmp_path: Path) -> None:
    # The metadata object outside the root is no nesting of keys.
    document = _document(tmp_path, '{"meta": {"x": 1}, "mappings": {"a.b": "x"}}')
    assert document.style.flat_keys
    document.set("c.d", "y")
    assert json.loads(document.render())["mappings"] == {"a.b": "x", "c.d": "y"}


def test_literal_keys_with_dots_live_below_the_root(tmp_path: Path) -> None:
    path = tmp_path / "fr.json"
    path.write_text('{"version": 3, "mappings": {"Save.": "Enregistrer."}}')
    document = LocaleDocument.load(path, "fr.json", literal_keys=True, key_root=("mappings",))
    assert document.get("Save.") == "Enregistrer."
    document.set("Are you sure? Yes.", "Vraiment ? Oui.")
    assert json.loads(document.render()) == {
        "version": 3,
        "mappings": {"Save.": "Enregistrer.", "Are you sure? Yes.": "Vraiment ? Oui."},
    }


def test_an_editor_writes_new_files_of_a_view_with_its_root(tmp_path: Path) -> None:
    inventory = locale_tree(
        tmp_path,
        {"messages/en/auth.json": '{"mappings": {"title": "Sign in"}}'},
        LocalesConfig(
            directory="messages",
            mode="locale_directory",
            structure="locale_per_dir",
            root="mappings",
        ),
    )
    editor = LocaleEditor(tmp_path, load_locale(inventory, "fr", PLACEHOLDER))
    target = tmp_path / "messages/fr/auth.json"
    editor.set("title", "Connexion", target)
    assert editor.save() == ["messages/fr/auth.json"]
    assert json.loads(target.read_text()) == {"mappings": {"title": "Connexion"}}
