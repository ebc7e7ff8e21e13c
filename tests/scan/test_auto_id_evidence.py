"""FormatJS messages written without an id, in a project where babel-plugin-react-intl-auto
gives them one: each pattern with the exact keys (and dynamic sites) the scan must report."""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest

from i18nprune.envelope import Code
from i18nprune.scan.message_ids import MessageIdScope, PluginOptions
from tests.scan.conftest import ScanProject

DEFINE = "import { defineMessages } from 'react-intl';\n"
INTL = "import { FormattedMessage, useIntl, injectIntl } from 'react-intl';\n"


class Key(NamedTuple):
    key: str
    default: str | None = None


class Case(NamedTuple):
    id: str
    files: dict[str, str]
    keys: list[Key]
    dynamic: tuple[str, ...] = ()
    options: tuple[tuple[str, Any], ...] = (("remove_prefix", "src/"),)


CASES = [
    Case(
        "index_file_named_by_its_folder",
        {
            "components/StatusBadge/index.tsx": DEFINE + "const messages = defineMessages({\n"
            "  status: '{status}',\n  play: `Play on {server}`,\n});"
        },
        [
            Key("components.StatusBadge.play", "Play on {server}"),
            Key("components.StatusBadge.status", "{status}"),
        ],
    ),
    Case(
        "object_without_id_explicit_id_kept",
        {
            "a/messages.ts": DEFINE + "export default defineMessages({\n"
            "  // comments are descriptions\n"
            "  save: { defaultMessage: 'Save', description: 'button' },\n"
            "  kept: { id: 'legacy.kept', defaultMessage: 'Kept' },\n"
            "});"
        },
        [Key("a.save", "Save"), Key("legacy.kept", "Kept")],
    ),
    Case(
        "constant_value_names_the_message_by_its_text",
        {
            "a/messages.ts": DEFINE + "const TITLE = 'Title';\n"
            "export default defineMessages({ title: TITLE, both: 'a' + 'b' });"
        },
        [Key("a.Title", "Title"), Key("a.ab", "ab")],
    ),
    Case(
        "a_constant_object_argument",
        {
            "a/messages.ts": DEFINE + "const raw = { hello: 'Hello' };\n"
            "export default defineMessages(raw);\n",
            "a/View.tsx": INTL + "import messages from './messages';\n"
            "export const V = () => <FormattedMessage {...messages.hello} />;",
        },
        [Key("a.hello", "Hello")],
    ),
    Case(
        "export_names_with_include_export_name",
        {
            "a/messages.ts": DEFINE + "export const form = defineMessages({ save: 'Save' });\n"
            "export default defineMessages({ title: 'Title' });"
        },
        [Key("a.form.save", "Save"), Key("a.default.title", "Title")],
        options=(("remove_prefix", "src/"), ("include_export_name", "all")),
    ),
    Case(
        "filebase_and_separator",
        {"a/Button.messages.ts": DEFINE + "export default defineMessages({ save: 'Save' });"},
        [Key("src_a_Button_save", "Save")],
        options=(("filebase", True), ("separator", "_")),
    ),
    Case(
        "uses_across_files_resolve_to_the_declaring_files_id",
        {
            "components/Toolbar/messages.ts": DEFINE + "export default defineMessages({\n"
            "  save: 'Save', undo: 'Undo', redo: 'Redo', cut: 'Cut',\n});",
            "components/Toolbar/index.tsx": INTL + "import messages from './messages';\n"
            "export const T = ({ intl, ok }) => (\n"
            "  <div title={intl.formatMessage(messages.save)}>\n"
            "    <FormattedMessage {...messages.undo} />\n"
            "    {intl.formatMessage({ ...messages.redo }, { n: 1 })}\n"
            "    {intl.formatMessage(messages[ok ? 'cut' : 'save'])}\n"
            "  </div>\n"
            ");",
        },
        [
            Key("components.Toolbar.cut", "Cut"),
            Key("components.Toolbar.cut"),  # one of two: no one default text
            Key("components.Toolbar.redo", "Redo"),
            Key("components.Toolbar.redo", "Redo"),
            Key("components.Toolbar.save", "Save"),
            Key("components.Toolbar.save", "Save"),
            Key("components.Toolbar.save"),
            Key("components.Toolbar.undo", "Undo"),
            Key("components.Toolbar.undo", "Undo"),
        ],
    ),
    Case(
        "formatted_message_without_id_is_named_by_its_hash",
        {
            "a/View.tsx": INTL
            + "export const V = () => <FormattedMessage defaultMessage='hello' />;"
        },
        [Key("a.613153351", "hello")],
    ),
    Case(
        "formatted_message_key_with_use_key",
        {
            "a/View.tsx": INTL
            + "export const V = () => <FormattedMessage key='greeting' defaultMessage='hello' />;"
        },
        [Key("a.greeting", "hello")],
        options=(("remove_prefix", "src/"), ("use_key", True)),
    ),
    Case(
        "intl_format_message_without_id_is_named_by_its_hash",
        {
            "a/View.tsx": INTL + "function V() { const intl = useIntl();\n"
            "  return intl.formatMessage({ defaultMessage: 'hello' }); }"
        },
        [Key("a.613153351", "hello")],
    ),
    Case(
        # The plugin rewrites only `intl.formatMessage`: another callee has no id (a message
        # without one, which only `formatjs extract` would name).
        "destructured_format_message_gets_no_id",
        {
            "a/View.tsx": INTL + "function V() { const { formatMessage } = useIntl();\n"
            "  return formatMessage({ defaultMessage: 'hello' }); }"
        },
        [],
        ("missing_id",),
    ),
    Case(
        "define_messages_from_another_module_gets_no_id",
        {
            "a/messages.ts": "import { defineMessages } from './intl';\n"
            "export default defineMessages({ save: 'Save' });"
        },
        [],
        ("missing_id",),
    ),
    Case(
        "module_source_name",
        {
            "a/messages.ts": "import { defineMessages } from 'gatsby-plugin-intl';\n"
            "export default defineMessages({ save: 'Save' });"
        },
        [Key("a.save", "Save")],
        options=(("remove_prefix", "src/"), ("module_source_name", "gatsby-plugin-intl")),
    ),
    Case(
        "prefixed_helper_is_unchanged",
        {
            "a/m.tsx": "import defineMessages from '@app/utils/defineMessages';\n"
            "const messages = defineMessages('components.Badge', { play: 'Play' });"
        },
        [Key("components.Badge.play", "Play")],
    ),
    Case(
        "spreads_in_the_object_leave_the_call_alone",
        {
            "a/messages.ts": DEFINE + "const base = { ok: { id: 'common.ok' } };\n"
            "export default defineMessages({ ...base, save: 'Save' });"
        },
        [],
        ("non_literal",),
    ),
]


def options_of(case: Case, root: str) -> list[MessageIdScope]:
    options = PluginOptions(relative_to=root, **dict(case.options))
    return [MessageIdScope(folder="src", config=".babelrc", options=options)]


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_message_without_id_gets_the_plugins_id(project: ScanProject, case: Case) -> None:
    for name, text in case.files.items():
        project.write(f"src/{name}", text)

    result = project.scan(message_ids=options_of(case, str(project.root)))

    found = [Key(o.key, o.default) for o in result.observations]
    assert sorted(found, key=str) == sorted(case.keys, key=str)
    assert sorted(d.kind for d in result.dynamic) == sorted(case.dynamic)
    assert [i for i in result.issues if i.code == Code.SCAN_PARSE_ERROR] == []


MESSAGES = {
    "src/a/messages.ts": DEFINE + "export default defineMessages({ save: 'Save' });",
    "src/a/View.tsx": INTL + "import messages from './messages';\n"
    "export const V = () => <FormattedMessage {...messages.save} />;",
}


def test_without_the_plugin_a_message_without_id_names_no_key(project: ScanProject) -> None:
    for name, text in MESSAGES.items():
        project.write(name, text)

    result = project.scan()

    assert result.observations == []
    assert sorted(d.kind for d in result.dynamic) == ["missing_id", "non_literal"]
    (warning,) = [i for i in result.issues if i.code == Code.SCAN_MESSAGES_WITHOUT_ID]
    assert "1 FormatJS message site(s) have no `id`" in warning.message
    assert warning.path == "src/a/messages.ts"


def test_unknown_options_make_the_ids_unknown(project: ScanProject) -> None:
    for name, text in MESSAGES.items():
        project.write(name, text)
    scope = MessageIdScope(
        folder="src", config="babel.config.js", options=None, problem="a function call"
    )

    result = project.scan(message_ids=[scope])

    assert result.observations == []
    assert sorted(d.kind for d in result.dynamic) == ["derived_id", "derived_id"]
    (warning,) = [i for i in result.issues if i.code == Code.SCAN_MESSAGE_IDS_UNKNOWN]
    assert "babel.config.js: a function call" in warning.message
    assert warning.path == "babel.config.js"


def test_a_cached_scan_derives_ids_with_the_options_of_now(project: ScanProject) -> None:
    for name, text in MESSAGES.items():
        project.write(name, text)
    root = str(project.root)
    before = [
        MessageIdScope(folder="src", config=".babelrc", options=PluginOptions(relative_to=root))
    ]
    after = [
        MessageIdScope(
            folder="src",
            config=".babelrc",
            options=PluginOptions(relative_to=root, remove_prefix="src/"),
        )
    ]

    first = project.scan(cached=True, message_ids=before)
    second = project.scan(cached=True, message_ids=after)

    assert {o.key for o in first.observations} == {"src.a.save"}
    assert {o.key for o in second.observations} == {"a.save"}
    assert second.cache_hits == 2  # the facts are reused; only linking differs
