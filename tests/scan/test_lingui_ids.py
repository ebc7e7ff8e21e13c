"""Lingui message ids derived as Lingui's extractor writes them (cases written from the
expectations of `@lingui/babel-plugin-lingui-macro`'s tests and its ICU formatting)."""

from __future__ import annotations

import pytest

from i18nprune.scan.callees import CalleeNames
from i18nprune.scan.expressions import Branches, Text
from i18nprune.scan.extract import extract_facts
from i18nprune.scan.lingui import generated_id

CORE = (
    "import { t, plural, select, selectOrdinal, msg, defineMessage } from '@lingui/core/macro';\n"
)
REACT = "import { Trans, Plural, Select, useLingui } from '@lingui/react/macro';\n"


def keys(source: str) -> list[str]:
    facts = extract_facts((CORE + REACT + source).encode(), ".tsx", CalleeNames(["t"]))
    return [site.key.value for site in facts.sites if isinstance(site.key, Text)]


@pytest.mark.parametrize(
    ("source", "key"),
    [
        ("t`Hello World`", "Hello World"),
        ("t`Hi, my name is ${name}`", "Hi, my name is {name}"),
        ("t`Today is ${date.today}`", "Today is {0}"),
        ("t`${a} and ${b.c} and ${d()} and ${e}`", "{a} and {0} and {1} and {e}"),
        ("t`Line\\nbreak`", "Line\nbreak"),
        ("t({ message: `Hello ${name}` })", "Hello {name}"),
        ("t({ id: 'msg.hello', message: 'Hello' })", "msg.hello"),
        ("t({ message: 'Open', context: 'verb' })", "verb\x04Open"),
        ("msg`Lazy`", "Lazy"),
        ("defineMessage({ message: 'Defined' })", "Defined"),
        (
            "plural(count, { one: '# book', other: '# books' })",
            "{count, plural, one {# book} other {# books}}",
        ),
        (
            "plural(n, { offset: 1, 0: 'none', one: `${name} only`, other: '#' })",
            "{n, plural, offset:1 =0 {none} one {{name} only} other {#}}",
        ),
        (
            "select(gender, { male: 'he', female: 'she', other: 'they' })",
            "{gender, select, male {he} female {she} other {they}}",
        ),
        (
            "selectOrdinal(place, { one: '#st', other: '#th' })",
            "{place, selectordinal, one {#st} other {#th}}",
        ),
        (
            "t`You have ${plural(count, { one: 'a message', other: '# messages' })}`",
            "You have {count, plural, one {a message} other {# messages}}",
        ),
        ("t`Hi ${{ who: user.name }}`", "Hi {who}"),
    ],
)
def test_javascript_macros_give_lingui_ids(source, key):
    assert keys(f"const x = {source};\n") == [key]


@pytest.mark.parametrize(
    ("jsx", "key"),
    [
        ("<Trans>Hello World</Trans>", "Hello World"),
        ("<Trans>Hi, my name is {name}</Trans>", "Hi, my name is {name}"),
        (
            "<Trans>Read the <a href='/docs'>docs</a>, <strong>{user.name}</strong></Trans>",
            "Read the <0>docs</0>, <1>{0}</1>",
        ),
        ("<Trans>\n    Hello\n    World <br/>\n  </Trans>", "Hello World <0/>"),
        ("<Trans>A{' '}<em>B</em></Trans>", "A <0>B</0>"),
        ("<Trans>Outer <b>inner <i>deep</i></b> end</Trans>", "Outer <0>inner <1>deep</1></0> end"),
        ("<Trans>&copy; {year}</Trans>", "\u00a9 {year}"),
        ("<Trans id='custom.id'>Text</Trans>", "custom.id"),
        ("<Trans context='nav'>Home</Trans>", "nav\x04Home"),
        (
            "<Plural value={count} one='# book' other='# books' />",
            "{count, plural, one {# book} other {# books}}",
        ),
        (
            "<Plural value={n} _0='none' other={<b>many</b>} />",
            "{n, plural, =0 {none} other {<0>many</0>}}",
        ),
        ("<Select value={g} _male='he' other='they' />", "{g, select, male {he} other {they}}"),
    ],
)
def test_jsx_macros_give_lingui_ids(jsx, key):
    assert keys(f"const x = {jsx};\n") == [key]


def test_a_trans_lingui_4_spelled_otherwise_has_both_spellings():
    source = (REACT + "const x = <Trans>Total: {count} </Trans>;\n").encode()
    (site,) = extract_facts(source, ".tsx", CalleeNames(["t"])).sites
    assert site.key == Branches([Text("Total: {count} "), Text("Total: {count}")])
    assert site.spellings


def test_use_lingui_t_is_the_macro_and_underscore_takes_messages():
    source = (
        "function C() {\n  const { t, _ } = useLingui();\n"
        "  return [t`From hook`, _(msg`Lazy one`), _(descriptor), t(descriptor)];\n}\n"
    )
    assert keys(source) == ["From hook", "Lazy one"]


def test_runtime_i18n_names_its_literal_id():
    source = (
        "import { i18n } from '@lingui/core';\ni18n._('runtime.id');\ni18n._({ id: 'other.id' });\n"
    )
    facts = extract_facts(source.encode(), ".ts", CalleeNames(["t"]))
    assert [site.key for site in facts.sites] == [Text("runtime.id"), Text("other.id")]
    assert facts.lingui == []


def test_an_id_the_code_computes_is_not_derived():
    facts = extract_facts(
        (CORE + "t({ id: key, message: 'x' });\nt`Fine`;\n").encode(), ".ts", CalleeNames(["t"])
    )
    assert facts.lingui == [(2, 1)]
    assert [site.key for site in facts.sites if isinstance(site.key, Text)] == [Text("Fine")]


def test_a_file_without_lingui_is_read_as_before():
    facts = extract_facts(b"import { t } from 'i18next';\nt('a.b');\n", ".ts", CalleeNames(["t"]))
    assert facts.lingui is None
    assert [site.key for site in facts.sites] == [Text("a.b")]


# Messages and the ids Lingui gave them, as its catalogs hold them: a minimal JSON catalog
# (`src/locales/en/messages.json` of a Lingui 5 app), PO catalogs' `#. js-lingui-id` comments,
# and the ids `@lingui/message-utils` documents for a message with and without a context.
@pytest.mark.parametrize(
    ("message", "context", "generated"),
    [
        ("Connect wallet", "", "VHOVEJ"),
        ("Disconnect", "", "+K0AvT"),
        ("Rocket", "", "2e2I/O"),
        ("deposit-2", "", "oF+vss"),
        ("Раунд", "", "v98da7"),
        ("•", "", "x3DH6W"),
        ("Interface", "", "GfnKOF"),
        ("Record visibility", "", "7pRzO+"),
        (
            "{anotherCount, plural, one {Singular case} other {Case number {anotherCount}}}",
            "",
            "WGI12K",
        ),
        ("my message", "", "vQhkQx"),
        ("my message", "custom context", "gGUeZH"),
    ],
)
def test_generated_ids_are_lingui_s(message, context, generated):
    assert generated_id(message, context) == generated


def sites_generated(source: str) -> list[list[str]]:
    facts = extract_facts((CORE + REACT + source).encode(), ".tsx", CalleeNames(["t"]))
    return [site.generated for site in facts.sites]


def test_a_message_without_an_explicit_id_carries_its_generated_id():
    source = (
        "import { i18n } from '@lingui/core';\n"
        "const a = t`Connect wallet`;\n"
        "const b = t({ message: 'my message', context: 'custom context' });\n"
        "const c = t({ id: 'wallet.connect', message: 'Connect wallet' });\n"
        "const d = plural(n, { one: '# file', other: '# files' });\n"
        "const e = <Trans>Disconnect</Trans>;\n"
        "const f = i18n._('Rocket');\n"
    )
    assert sites_generated(source) == [
        ["VHOVEJ"],
        ["gGUeZH"],
        [],  # an explicit id is the catalog's key
        [generated_id("{n, plural, one {# file} other {# files}}")],
        ["+K0AvT"],
        [],  # a runtime lookup names an id
    ]


def test_a_trans_spelled_otherwise_by_lingui_4_carries_both_generated_ids():
    source = "const x = <Trans>Total: {count} </Trans>;\n"
    assert sites_generated(source) == [
        [generated_id("Total: {count} "), generated_id("Total: {count}")]
    ]
