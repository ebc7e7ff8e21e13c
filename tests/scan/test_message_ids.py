"""babel-plugin-react-intl-auto's ids, option by option: each row is a message (what its file
says) in `src/__fixtures__/messages.js`, the plugin's options, and the id the plugin gives it
(the ids its own test suite expects)."""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest

from i18nprune.scan.expressions import OPAQUE, AutoId, Text
from i18nprune.scan.message_ids import (
    JsRegex,
    MessageIds,
    MessageIdScope,
    PluginOptions,
    PluginRules,
    check_options,
    message_hash,
    murmur3_32,
)

FILE = "src/__fixtures__/messages.js"
HELLO = AutoId("hello", hashed=False, modules=["react-intl"])
IN_EXPORT = AutoId("hello", hashed=False, export="extra", modules=["react-intl"])
IN_DEFAULT = AutoId("hello", hashed=False, default_export=True, modules=["react-intl"])
HASHED = AutoId(message_hash("hello"), hashed=True, key="foobar", modules=["react-intl"])


class Row(NamedTuple):
    id: str
    options: dict[str, Any]
    message: AutoId
    expected: str
    file: str = FILE


ROWS = [
    Row("defaults_dotted_folder_and_name", {}, HELLO, "src.__fixtures__.hello"),
    Row("remove_prefix_word", {"remove_prefix": "src"}, HELLO, "__fixtures__.hello"),
    Row("remove_prefix_with_slash", {"remove_prefix": "src/"}, HELLO, "__fixtures__.hello"),
    Row("remove_prefix_dotted_path", {"remove_prefix": "src.__fixtures__"}, HELLO, "hello"),
    Row("remove_prefix_true_drops_the_path", {"remove_prefix": True}, HELLO, "hello"),
    Row("remove_prefix_false_keeps_it", {"remove_prefix": False}, HELLO, "src.__fixtures__.hello"),
    Row(
        "remove_prefix_regex_on_the_slashed_path",
        {"remove_prefix": JsRegex("src[\\\\/]__f.+?_", "u"), "include_export_name": True},
        HELLO,
        "_.hello",
    ),
    Row(
        "remove_prefix_is_a_pattern_dot_matches_any",
        {"remove_prefix": "src.components"},
        HELLO,
        "hello",
        "src/components/messages.js",
    ),
    Row(
        "filebase_adds_the_file_name", {"filebase": True}, HELLO, "src.__fixtures__.messages.hello"
    ),
    Row(
        "filebase_cuts_at_the_first_dot",
        {"filebase": True},
        HELLO,
        "src.Button.hello",
        "src/Button.messages.ts",
    ),
    Row(
        "index_file_is_named_by_its_folder",
        {"remove_prefix": "src/"},
        AutoId("status", hashed=False, modules=["react-intl"]),
        "components.StatusBadge.status",
        "src/components/StatusBadge/index.tsx",
    ),
    Row("file_at_the_root_has_no_path", {}, HELLO, "hello", "messages.js"),
    Row(
        "file_at_the_root_with_an_export",
        {"include_export_name": True},
        IN_EXPORT,
        "extra.hello",
        "messages.js",
    ),
    Row(
        # The unset removePrefix takes one leading separator off the dotted `../shared`.
        "file_above_where_babel_runs",
        {},
        HELLO,
        "..shared.hello",
        "../shared/messages.js",
    ),
    Row(
        "include_export_name_adds_the_named_export",
        {"include_export_name": True},
        IN_EXPORT,
        "src.__fixtures__.extra.hello",
    ),
    Row(
        "include_export_name_true_ignores_default",
        {"include_export_name": True},
        IN_DEFAULT,
        "src.__fixtures__.hello",
    ),
    Row(
        "include_export_name_all_adds_default",
        {"include_export_name": "all"},
        IN_DEFAULT,
        "src.__fixtures__.default.hello",
    ),
    Row(
        "include_export_name_all_adds_named_too",
        {"include_export_name": "all"},
        IN_EXPORT,
        "src.__fixtures__.extra.hello",
    ),
    Row(
        "remove_prefix_true_keeps_the_export",
        {"remove_prefix": True, "include_export_name": True},
        IN_EXPORT,
        "extra.hello",
    ),
    Row(
        "remove_prefix_true_with_default",
        {"remove_prefix": True, "include_export_name": "all"},
        IN_DEFAULT,
        "default.hello",
    ),
    Row(
        "remove_prefix_dotted_with_export",
        {"remove_prefix": "src.__fixtures__", "include_export_name": True},
        IN_EXPORT,
        "extra.hello",
    ),
    Row("separator_empty", {"separator": ""}, HELLO, "src__fixtures__hello"),
    Row("separator_underscore", {"separator": "_"}, HELLO, "src___fixtures___hello"),
    Row("separator_word", {"separator": "foo"}, HELLO, "srcfoo__fixtures__foohello"),
    Row(
        # `^src\_?` does not compile in `u` mode; the plugin then matches the expression as
        # text, which never occurs: nothing is removed.
        "separator_underscore_keeps_remove_prefix_from_acting",
        {"separator": "_", "remove_prefix": "src"},
        HELLO,
        "src___fixtures___hello",
    ),
    Row(
        "separator_slash_with_remove_prefix",
        {"separator": "/", "remove_prefix": "src"},
        HELLO,
        "__fixtures__/hello",
    ),
    Row("hashed_message", {}, HASHED, "src.__fixtures__.613153351"),
    Row("hashed_message_use_key", {"use_key": True}, HASHED, "src.__fixtures__.foobar"),
    Row("hashed_message_remove_prefix_true", {"remove_prefix": True}, HASHED, "613153351"),
    Row(
        "hashed_message_ignores_export_names",
        {"include_export_name": "all"},
        HASHED,
        "src.__fixtures__.613153351",
    ),
    Row(
        "hashed_message_regex_remove_prefix",
        {"remove_prefix": JsRegex("[\\\\/]__fixtures__", "u")},
        HASHED,
        "src.613153351",
    ),
    Row(
        "hashed_message_joined_with_a_dot_whatever_the_separator",
        {"separator": "_"},
        HASHED,
        "src___fixtures__.613153351",
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=[row.id for row in ROWS])
def test_id_is_the_plugins(row: Row) -> None:
    rules = PluginRules(PluginOptions(relative_to="/app", **row.options))

    assert rules.message_id(row.message, row.file) == row.expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("hello", 613153351),
        ("another", 1418522856),
        ("<span>hello</span>", 205247277),
        ("hello world 2", 3540954520),
        ("variable message", 3082794952),
        ("some other message", 831373691),
        ("", 0),
    ],
)
def test_message_hash_is_murmurhash3_of_the_text(text: str, expected: int) -> None:
    assert murmur3_32(text) == expected


def test_message_hash_reads_the_low_byte_of_each_utf16_unit() -> None:
    # murmurhash3js masks each UTF-16 code unit to its low byte: U+00E9 and U+01E9 share it,
    # and a character outside the BMP is two units.
    assert murmur3_32("\u00e9") == murmur3_32("\u01e9") != murmur3_32("e")
    assert murmur3_32("😀") == murmur3_32("\x3d\x00")


def test_a_remove_prefix_with_groups_is_not_guessed() -> None:
    options = PluginOptions(relative_to="/app", remove_prefix="(src|app)/")

    problem = check_options(options)

    assert problem is not None and "removePrefix" in problem


def test_an_expression_that_would_stop_the_build_is_not_guessed() -> None:
    # `^my-app\_?` fails in `u` mode, and so does the escaped text the plugin tries next.
    options = PluginOptions(relative_to="/app", remove_prefix="my-app", separator="_")

    assert check_options(options) is not None


def scope(options: PluginOptions | None, folder: str = "src") -> MessageIdScope:
    return MessageIdScope(folder=folder, config=".babelrc", options=options, problem=None)


def test_a_file_outside_every_scope_gets_no_id() -> None:
    ids = MessageIds("/app", [scope(PluginOptions(relative_to="/app"))])

    assert ids.resolve(HELLO, "lib/messages.js") is OPAQUE


def test_paths_are_relative_to_where_babel_runs() -> None:
    ids = MessageIds("/app/web", [scope(PluginOptions(relative_to="/app"))])

    assert ids.resolve(HELLO, "src/a/messages.js") == Text("web.src.a.hello")


def test_the_plugin_acts_only_on_imports_from_its_module() -> None:
    options = PluginOptions(relative_to="/app", module_source_name="gatsby-plugin-intl")
    ids = MessageIds("/app", [scope(options)])

    assert ids.resolve(HELLO, "src/messages.js") is OPAQUE
    from_gatsby = AutoId("hello", hashed=False, modules=["gatsby-plugin-intl"])
    assert ids.resolve(from_gatsby, "src/messages.js") == Text("src.hello")


def test_unknown_options_leave_the_id_unknown() -> None:
    ids = MessageIds("/app", [scope(None)])

    assert ids.resolve(HELLO, "src/messages.js") == HELLO


def test_the_innermost_scope_decides() -> None:
    outer = scope(PluginOptions(relative_to="/app"), folder="")
    inner = scope(PluginOptions(relative_to="/app", remove_prefix=True), folder="src/admin")
    ids = MessageIds("/app", [outer, inner])

    assert ids.resolve(HELLO, "src/admin/messages.js") == Text("hello")
    assert ids.resolve(HELLO, "src/site/messages.js") == Text("src.site.hello")
