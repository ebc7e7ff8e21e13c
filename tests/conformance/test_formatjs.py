"""FormatJS (react-intl, @formatjs/intl, vue-intl): every call shape of its documentation and of
its own extractor (`formatjs extract`), each case saying which message ids the code reads and
which it does not (`tests/conformance/harness.py`). Ids are flat strings, as FormatJS keeps
them: a `.` in an id is part of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.harness import Case, check, check_app, params
from tests.conftest import write_tree

REACT_INTL = ("react-intl",)
IMPORT = "import { FormattedMessage, defineMessages, defineMessage, useIntl } from 'react-intl';\n"


def _component(body: str, *, head: str = IMPORT) -> dict[str, str]:
    return {"src/App.tsx": head + body}


def _case(
    id: str,
    code: dict[str, str],
    used: set[str],
    unused: set[str],
    doc: str,
    **extra: object,
) -> Case:
    extra.setdefault("dependencies", REACT_INTL)
    return Case(id, code, used=used, unused=unused, doc=doc, flat=True, **extra)  # type: ignore[arg-type]


CASES = [
    # -- declaring messages ---------------------------------------------------------------------
    _case(
        "define_messages",
        _component(
            "const messages = defineMessages({\n"
            "  greeting: { id: 'app.greeting', defaultMessage: 'Hello', description: 'hi' },\n"
            "  farewell: { id: 'app.farewell', defaultMessage: 'Bye' },\n"
            "});\n"
            "export const App = () => useIntl().formatMessage(messages.greeting);\n"
        ),
        used={"app.greeting", "app.farewell"},
        unused={"app.unused"},
        doc="formatjs.github.io/docs/react-intl/api#definemessagesdefinemessage",
    ),
    _case(
        "define_message",
        _component(
            "const title = defineMessage({ id: 'app.title', defaultMessage: 'Title' });\n"
            "export const App = () => <FormattedMessage {...title} />;\n"
        ),
        used={"app.title"},
        unused={"app.unused"},
        doc="formatjs.github.io/docs/react-intl/api#definemessagesdefinemessage",
    ),
    _case(
        "define_messages_as_const",
        _component(
            "export const messages = defineMessages({\n"
            "  save: { id: 'form.save', defaultMessage: 'Save' },\n"
            "} as const);\n"
        ),
        used={"form.save"},
        unused={"form.unused"},
        doc="formatjs.github.io/docs/tooling/cli#extraction (TypeScript wrappers are unwrapped)",
    ),
    _case(
        "define_messages_satisfies",
        _component(
            "import type { MessageDescriptor } from 'react-intl';\n"
            "export const messages = defineMessages({\n"
            "  save: { id: 'form.save', defaultMessage: 'Save' } satisfies MessageDescriptor,\n"
            "  cancel: { id: 'form.cancel', defaultMessage: 'Cancel' } as MessageDescriptor,\n"
            "} satisfies Record<string, MessageDescriptor>);\n"
        ),
        used={"form.save", "form.cancel"},
        unused={"form.unused"},
        doc="formatjs.github.io/docs/tooling/cli#extraction (TypeScript wrappers are unwrapped)",
    ),
    _case(
        "define_message_as_const",
        _component(
            "export const title = defineMessage(\n"
            "  { id: 'app.title', defaultMessage: 'T' } as const,\n);\n"
        ),
        used={"app.title"},
        unused={"app.unused"},
        doc="formatjs.github.io/docs/react-intl/api#definemessagesdefinemessage",
    ),
    # -- formatting ------------------------------------------------------------------------------
    _case(
        "use_intl_format_message",
        _component(
            "export function App() {\n  const intl = useIntl();\n"
            "  return <p>{intl.formatMessage({ id: 'app.welcome', defaultMessage: 'Hi {name}' },"
            " { name: 'Ann' })}</p>;\n}\n"
        ),
        used={"app.welcome"},
        unused={"app.unused"},
        doc="formatjs.github.io/docs/react-intl/api#useintl-hook",
    ),
    _case(
        "use_intl_destructured",
        _component(
            "export function App() {\n  const { formatMessage } = useIntl();\n"
            "  return <p>{formatMessage({ id: 'app.welcome' })}</p>;\n}\n"
        ),
        used={"app.welcome"},
        unused={"app.unused"},
        doc="formatjs.github.io/docs/react-intl/api#formatmessage",
    ),
    _case(
        "format_message_messages_member",
        {
            "src/messages.ts": IMPORT + "export default defineMessages({\n"
            "  title: { id: 'page.title', defaultMessage: 'T' },\n});\n",
            "src/App.tsx": IMPORT + "import messages from './messages';\n"
            "export function App() {\n  const intl = useIntl();\n"
            "  return <h1>{intl.formatMessage(messages.title)}</h1>;\n}\n",
        },
        used={"page.title"},
        unused={"page.unused"},
        doc="formatjs.github.io/docs/react-intl/api#definemessagesdefinemessage",
    ),
    _case(
        "format_message_dynamic_member",
        _component(
            "const messages = defineMessages({\n"
            "  draft: { id: 'status.draft', defaultMessage: 'Draft' },\n"
            "  live: { id: 'status.live', defaultMessage: 'Live' },\n"
            "});\n"
            "export function Status({ status }: { status: 'draft' | 'live' }) {\n"
            "  const intl = useIntl();\n"
            "  return <span>{intl.formatMessage(messages[status])}</span>;\n}\n"
        ),
        used={"status.draft", "status.live"},
        unused={"status.unused"},
        doc="formatjs.github.io/docs/guides/develop#message-declaration (declared ids are used)",
    ),
    _case(
        "instantiation_expression_optional_call",
        _component(
            "export function App() {\n  const intl = useIntl();\n"
            "  return intl.formatMessage<HTMLElement>?.({ id: 'app.generic' });\n}\n"
        ),
        used={"app.generic"},
        unused={"app.unused"},
        doc="formatjs ts-transformer: `foo.formatMessage<T>?.()` (GH #4471)",
    ),
    _case(
        "format_message_id_as_const",
        _component(
            "export function App() {\n  const intl = useIntl();\n"
            "  return intl.formatMessage({ id: 'app.typed', defaultMessage: 'T' } as const);\n}\n"
        ),
        used={"app.typed"},
        unused={"app.unused"},
        doc="formatjs.github.io/docs/tooling/cli#extraction",
    ),
    _case(
        "dollar_format_message",
        _component(
            "declare const $formatMessage: (d: { id: string }) => string;\n"
            "export const title = $formatMessage({ id: 'app.dollar', defaultMessage: 'D' });\n"
        ),
        used={"app.dollar"},
        unused={"app.unused"},
        doc="formatjs extract: default function names `formatMessage`, `$formatMessage`, `$t`",
    ),
    _case(
        "intl_dollar_t",
        _component(
            "export function App({ intl }) {\n"
            "  return intl.$t({ id: 'app.short', defaultMessage: 'S' });\n}\n"
        ),
        used={"app.short"},
        unused={"app.unused"},
        doc="formatjs extract: default function names `formatMessage`, `$formatMessage`, `$t`",
    ),
    _case(
        "create_intl",
        _component(
            "const cache = createIntlCache();\n"
            "const intl = createIntl({ locale: 'en', messages: {} }, cache);\n"
            "export const label = intl.formatMessage({ id: 'imperative.label' });\n",
            head="import { createIntl, createIntlCache } from '@formatjs/intl';\n",
        ),
        used={"imperative.label"},
        unused={"imperative.unused"},
        dependencies=("@formatjs/intl",),
        doc="formatjs.github.io/docs/intl#createintl",
    ),
    _case(
        "create_intl_react_intl",
        _component(
            "const intl = createIntl({ locale: 'en', messages: {} });\n"
            "export const { formatMessage } = intl;\n"
            "export const label = formatMessage({ id: 'imperative.label' });\n",
            head="import { createIntl } from 'react-intl';\n",
        ),
        used={"imperative.label"},
        unused={"imperative.unused"},
        doc="formatjs.github.io/docs/react-intl/api#createintl",
    ),
    _case(
        "inject_intl_props",
        _component(
            "function Greeting({ intl }: { intl: IntlShape }) {\n"
            "  return <p>{intl.formatMessage({ id: 'hoc.greeting' })}</p>;\n}\n"
            "export default injectIntl(Greeting);\n",
            head="import { injectIntl, type IntlShape } from 'react-intl';\n",
        ),
        used={"hoc.greeting"},
        unused={"hoc.unused"},
        doc="formatjs.github.io/docs/react-intl/api#injectintl-hoc",
    ),
    _case(
        "inject_intl_this_props",
        _component(
            "class Greeting extends React.Component<{ intl: IntlShape }> {\n"
            "  render() {\n"
            "    return <p>{this.props.intl.formatMessage({ id: 'hoc.class' })}</p>;\n  }\n}\n"
            "export default injectIntl(Greeting);\n",
            head="import React from 'react';\n"
            "import { injectIntl, type IntlShape } from 'react-intl';\n",
        ),
        used={"hoc.class"},
        unused={"hoc.unused"},
        doc="formatjs.github.io/docs/react-intl/api#injectintl-hoc",
    ),
    # -- components ------------------------------------------------------------------------------
    _case(
        "formatted_message",
        _component(
            "export const App = () => (\n"
            "  <FormattedMessage id='app.hello' defaultMessage='Hello {name}'\n"
            "    values={{ name: 'A' }} />\n);\n"
        ),
        used={"app.hello"},
        unused={"app.unused"},
        doc="formatjs.github.io/docs/react-intl/components#formattedmessage",
    ),
    _case(
        "formatted_message_children_function",
        _component(
            "export const App = () => (\n"
            "  <FormattedMessage id={'app.render'} defaultMessage='R'>\n"
            "    {(chunks) => <b>{chunks}</b>}\n  </FormattedMessage>\n);\n"
        ),
        used={"app.render"},
        unused={"app.unused"},
        doc="formatjs.github.io/docs/react-intl/components#formattedmessage",
    ),
    _case(
        "formatted_message_spread",
        _component(
            "const messages = defineMessages({ hi: { id: 'spread.hi', defaultMessage: 'Hi' } });\n"
            "export const App = () => <FormattedMessage {...messages.hi} values={{}} />;\n"
        ),
        used={"spread.hi"},
        unused={"spread.unused"},
        doc="formatjs.github.io/docs/react-intl/components#formattedmessage",
    ),
    _case(
        "formatted_html_message",
        _component(
            "export const App = () => (\n"
            "  <FormattedHTMLMessage id='legacy.html' defaultMessage='<b>x</b>' />\n);\n",
            head="import { FormattedHTMLMessage } from 'react-intl';\n",
        ),
        used={"legacy.html"},
        unused={"legacy.unused"},
        doc="react-intl v2/v3 components#formattedhtmlmessage (removed in v4)",
    ),
    _case(
        "formatted_message_renamed_import",
        _component(
            "export const App = () => <Message id='renamed.el' />;\n",
            head="import { FormattedMessage as Message } from 'react-intl';\n",
        ),
        used={"renamed.el"},
        unused={"renamed.unused"},
        doc="formatjs.github.io/docs/tooling/cli (imported components may be renamed)",
    ),
    _case(
        "formatted_number_no_key",
        _component(
            "import { FormattedNumber, FormattedDate } from 'react-intl';\n"
            "export const App = () => (\n"
            "  <><FormattedNumber value={3} /><FormattedDate value={0} /></>\n);\n"
            "export const Label = () => <FormattedMessage id='app.label' />;\n"
        ),
        used={"app.label"},
        unused={"app.number", "app.date"},
        doc="formatjs.github.io/docs/react-intl/components#formattednumber",
    ),
    # -- vue-intl --------------------------------------------------------------------------------
    _case(
        "vue_intl_template",
        {
            "src/App.vue": "<template>\n"
            "  <h1>{{ $formatMessage({ id: 'vue.title', defaultMessage: 'Title' }) }}</h1>\n"
            "  <p :title=\"$t({ id: 'vue.short' })\">x</p>\n</template>\n"
        },
        used={"vue.title", "vue.short"},
        unused={"vue.unused"},
        dependencies=("vue", "vue-intl"),
        doc="formatjs.github.io/docs/vue-intl#usage ($formatMessage and its alias $t)",
    ),
    _case(
        "vue_intl_use_intl",
        {
            "src/App.vue": "<script setup lang=\"ts\">\nimport { useIntl } from 'vue-intl';\n"
            "const intl = useIntl();\n"
            "const label = intl.formatMessage({ id: 'vue.script', defaultMessage: 'S' });\n"
            "</script>\n<template><p>{{ label }}</p></template>\n"
        },
        used={"vue.script"},
        unused={"vue.unused"},
        dependencies=("vue", "vue-intl"),
        doc="formatjs.github.io/docs/vue-intl#composition-api",
    ),
    # -- ids the extractor makes -------------------------------------------------------------------
    _case(
        "id_interpolation_pattern",
        _component(
            "export function App() {\n  const intl = useIntl();\n"
            "  return <>\n"
            "    {intl.formatMessage({ defaultMessage: 'Hello', description: 'greeting' })}\n"
            "    <FormattedMessage defaultMessage='  Bye ' />\n  </>;\n}\n"
        ),
        used={"K+VETU", "wNBUiv"},
        unused={"Xx0000"},
        files={
            "package.json": '{"dependencies": {"react-intl": "*"}, "devDependencies": '
            '{"@formatjs/cli": "*"}, "scripts": {"extract": "formatjs extract src --out-file '
            "lang/en.json --id-interpolation-pattern '[sha512:contenthash:base64:6]'\"}}"
        },
        doc="formatjs.github.io/docs/getting-started/message-extraction#id-interpolation-pattern",
    ),
    _case(
        "id_interpolation_default_pattern",
        _component(
            "export const messages = defineMessages({\n"
            "  saved: { defaultMessage: 'Saved' },\n"
            "  remove: { defaultMessage: 'Delete {name}', description: 'Delete button' },\n"
            "});\n"
            "export const Old = () => <FormattedMessage id='app.kept' />;\n"
        ),
        used={"fsB/4p", "vr1/nM", "app.kept"},
        unused={"app.old"},
        files={
            "package.json": '{"dependencies": {"react-intl": "*", "@formatjs/cli": "*"}, '
            '"scripts": {"i18n": "formatjs extract \'src/**/*.tsx\' --out-file lang/en.json"}}'
        },
        doc="formatjs.github.io/docs/tooling/cli#--id-interpolation-pattern-pattern (default)",
    ),
    _case(
        "id_interpolation_md5_hex",
        _component("export const m = defineMessage({ defaultMessage: 'Saved' });\n"),
        used={"24833"},
        unused={"app.old"},
        files={
            "package.json": '{"dependencies": {"react-intl": "*"}, "scripts": {"extract": '
            '"formatjs extract src --id-interpolation-pattern=[contenthash:5] && echo done"}}'
        },
        doc="formatjs.github.io/docs/tooling/cli#--id-interpolation-pattern-pattern",
    ),
    # -- extractor options -----------------------------------------------------------------------
    _case(
        "additional_function_names",
        _component(
            "import { translate } from './i18n';\n"
            "export const title = translate({ id: 'custom.fn', defaultMessage: 'C' });\n",
            head="",
        ),
        used={"custom.fn"},
        unused={"custom.unused"},
        config={"functions": ["translate"]},
        doc="formatjs.github.io/docs/tooling/cli#--additional-function-names-comma-separated-names",
    ),
    _case(
        "additional_component_names",
        _component(
            "import { T } from './i18n';\n"
            "export const App = () => <T id='custom.component' defaultMessage='C' />;\n",
            head="",
        ),
        used={"custom.component"},
        unused={"custom.unused"},
        config={"functions": ["<T>"]},
        doc="formatjs.github.io/docs/tooling/cli#--additional-component-names-comma-separated-names",
    ),
    _case(
        "additional_names_from_the_extract_script",
        _component(
            "import { F, useMsg } from './i18n';\n"
            "export const App = () => <><F defaultMessage='Logout' />{useMsg({ id: 'm.x' })}</>;\n",
            head="",
        ),
        used={"C81/uG", "m.x"},
        unused={"custom.unused"},
        files={
            "package.json": '{"dependencies": {"react-intl": "*"}, "scripts": {"i18n": '
            '"formatjs extract src --additional-component-names F '
            '--additional-function-names useMsg,t"}}'
        },
        doc="formatjs.github.io/docs/tooling/cli#--additional-component-names-comma-separated-names",
    ),
    # -- what is not a key -----------------------------------------------------------------------
    _case(
        "commented_call",
        _component(
            "export function App() {\n  const intl = useIntl();\n"
            "  // intl.formatMessage({ id: 'app.old' })\n"
            "  return intl.formatMessage({ id: 'app.new' });\n}\n"
        ),
        used={"app.new"},
        unused={"app.gone"},
        doc="formatjs.github.io/docs/react-intl/api#formatmessage",
    ),
]


@pytest.mark.parametrize("case", params(CASES))
def test_case(case: Case, tmp_path: Path) -> None:
    check(case, tmp_path)


# An app in the shape of a real react-intl one: messages declared `as const` in their own
# module, read through `useIntl()`, `injectIntl`, `<FormattedMessage {...}>`, an optional call
# with type arguments, and messages without an id that `formatjs extract` names by hash.
APP = {
    "package.json": {
        "dependencies": {"react": "^18.0.0", "react-intl": "^6.6.0"},
        "devDependencies": {"@formatjs/cli": "^6.2.0"},
        "scripts": {"i18n:extract": "formatjs extract 'src/**/*.tsx' --out-file lang/en.json"},
    },
    "i18nprune.config.json": {"src": "src", "locales": {"directory": "lang"}},
    "src/orders/messages.ts": (
        "import { defineMessages } from 'react-intl';\n"
        "export const orderMessages = defineMessages({\n"
        "  title: { id: 'orders.title', defaultMessage: 'Orders' },\n"
        "  empty: { id: 'orders.empty', defaultMessage: 'No orders yet' },\n"
        "  export: { id: 'orders.export', defaultMessage: 'Export' },\n"
        "} as const);\n"
    ),
    "src/orders/List.tsx": (
        "import { FormattedMessage, useIntl } from 'react-intl';\n"
        "import { orderMessages } from './messages';\n"
        "export function List({ orders }: { orders: string[] }) {\n"
        "  const intl = useIntl();\n"
        "  const search = intl.formatMessage({\n"
        "    defaultMessage: 'Search orders',\n"
        "    description: 'search box placeholder',\n"
        "  });\n"
        "  return (\n"
        "    <section aria-label={intl.formatMessage<HTMLElement>?.(orderMessages.title)}>\n"
        "      <input placeholder={search} />\n"
        "      {orders.length === 0 && <FormattedMessage {...orderMessages.empty} />}\n"
        "      <button><FormattedMessage defaultMessage='Retry' /></button>\n"
        "    </section>\n"
        "  );\n"
        "}\n"
    ),
    "src/legacy/Banner.tsx": (
        "import React from 'react';\n"
        "import { injectIntl, type IntlShape } from 'react-intl';\n"
        "class Banner extends React.Component<{ intl: IntlShape }> {\n"
        "  render() {\n"
        "    return <p>{this.props.intl.formatMessage({ id: 'banner.notice' })}</p>;\n"
        "  }\n"
        "}\n"
        "export default injectIntl(Banner);\n"
    ),
    "lang/en.json": {
        "orders.title": "Orders",
        "orders.empty": "No orders yet",
        "S2q7JN": "Search orders",
        "62nsdy": "Retry",
        "banner.notice": "Read the notice",
        "orders.archive": "Archive",
        "Qp0x2L": "An old hashed message",
    },
}
APP_UNUSED = {"orders.archive", "Qp0x2L"}
APP_MISSING = ["orders.export"]


@pytest.mark.slow
def test_app_shaped_cli(tmp_path: Path, run_cli) -> None:
    codes = check_app(run_cli, write_tree(tmp_path / "app", APP), APP_UNUSED, APP_MISSING)
    assert "i18nprune.scan.messages_without_id" not in codes
