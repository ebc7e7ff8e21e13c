"""The `<Trans>` key table: each snippet with the exact key react-i18next builds from it.

Expectations under a source comment are copied from that file (snippets shortened where the
markup around them does not matter): react-i18next's `test/trans.nodeToString.spec.jsx` and
`test/trans.render.spec.jsx`, and i18next-cli's `test/extractor.Trans.test.ts`, whose expected
default values are the `nodesToString` of the children.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest
import tree_sitter

from i18nprune.scan.evaluate import Evaluator
from i18nprune.scan.expressions import OPAQUE, Branches, Expr, Join, Text
from i18nprune.scan.scopes import node_text
from i18nprune.scan.trans import trans_children_key, trans_key
from i18nprune.syntax_tree import GrammarName, parse


class Case(NamedTuple):
    id: str
    source: str
    key: Expr
    grammar: GrammarName = "tsx"


class DefaultsCase(NamedTuple):
    id: str
    source: str
    key: Expr | None
    default: Expr | None
    grammar: GrammarName = "tsx"


def join(*parts: str | Expr) -> Join:
    return Join([Text(part) if isinstance(part, str) else part for part in parts], True)


CASES = [
    # --- kept basic HTML nodes and indexed elements ------------------------------------------
    # react-i18next test/trans.nodeToString.spec.jsx
    Case("br_kept", "<Trans>\n  lorem <br /> ipsum\n</Trans>", Text("lorem <br/> ipsum")),
    Case(
        "strong_kept",
        "<Trans>\n  lorem <strong>bold</strong> ipsum\n</Trans>",
        Text("lorem <strong>bold</strong> ipsum"),
    ),
    Case(
        "kept_around_interpolation",
        "<Trans>\n  lorem <strong>{{ insert: 'x' }}</strong> ipsum\n</Trans>",
        Text("lorem <strong>{{insert}}</strong> ipsum"),
    ),
    Case(
        "kept_around_text_and_interpolation",
        "<Trans>\n  lorem <strong>Level {{ level: 5 }}</strong> ipsum\n</Trans>",
        Text("lorem <strong>Level {{level}}</strong> ipsum"),
    ),
    Case(
        "void_with_class_indexed",
        '<Trans>\n  lorem <i className="icon-gear" /> ipsum\n</Trans>',
        Text("lorem <1></1> ipsum"),
    ),
    Case(
        "strong_with_class_indexed",
        '<Trans>\n  lorem <strong className="special">bold</strong> ipsum\n</Trans>',
        Text("lorem <1>bold</1> ipsum"),
    ),
    Case(
        "kept_p_around_indexed_link",
        '<Trans>\n  <p>\n    You can <a href="http://example.com">click here</a>.\n'
        "  </p>\n</Trans>",
        Text("<p>You can <1>click here</1>.</p>"),
    ),
    Case(
        "nested_list_indexed",
        "<Trans>\n  {'lorem '}\n  <ul>\n    <li>a</li>\n    <li>b</li>\n  </ul>\n"
        "  {' ipsum'}\n</Trans>",
        Text("lorem <1><0>a</0><1>b</1></1> ipsum"),
    ),
    Case(
        "dynamic_list_empty",
        "<Trans>\n  {'lorem '}\n  <ul i18nIsDynamicList>\n    <li>a</li>\n    <li>b</li>\n"
        "  </ul>\n  {' ipsum'}\n</Trans>",
        Text("lorem <1></1> ipsum"),
    ),
    # react-i18next test/trans.render.spec.jsx
    Case(
        "keep_p_inside_indexed_div",
        "<Trans>\n  <div>\n    <ul>\n      <li>PDF</li>\n    </ul>\n    <p>\n      You can "
        '<a href="http://example.com">click here</a>.\n    </p>\n  </div>\n</Trans>',
        Text("<0><0><0>PDF</0></0><p>You can <1>click here</1>.</p></0>"),
    ),
    Case(
        "nested_elements_ref_on_indexed",
        '<Trans>\n  <div className="App">\n    <h1>Hello CodeSandbox</h1>\n'
        "    <h2 ref={ref}>Start editing to see some magic happen!</h2>\n  </div>\n</Trans>",
        Text("<0><0>Hello CodeSandbox</0><1>Start editing to see some magic happen!</1></0>"),
    ),
    Case(
        "kept_around_multiline_interpolations",
        "<Trans>\n  <strong>\n    {{ count }} and {{ stuff }}\n  </strong>\n</Trans>",
        Text("<strong>{{count}} and {{stuff}}</strong>"),
    ),
    Case(
        "strong_between_text_and_interpolation",
        "<Trans>\n  This is <strong>just</strong> some {{ value }} text\n</Trans>",
        Text("This is <strong>just</strong> some {{value}} text"),
    ),
    Case(
        "fragment_indexed_after_comment",
        "<Trans>\n  {/* eslint-disable-next-line react/jsx-no-useless-fragment */}\n"
        "  Some text <>and a fragment</>\n</Trans>",
        Text("Some text <1>and a fragment</1>"),
    ),
    Case(
        "string_literal_child_and_br",
        "<Trans>\n  number: {'{{count, INTEGER}}'}\n  <br />\n  name: {{ name }}\n</Trans>",
        Text("number: {{count, INTEGER}}<br/>name: {{name}}"),
    ),
    # own cases for the rules of `nodesToString`
    Case("empty_kept_node_self_closes", "<Trans><strong></strong></Trans>", Text("<strong/>")),
    Case("key_is_not_a_prop", '<Trans>a<br key="k" />b</Trans>', Text("a<br/>b")),
    Case(
        "ref_is_not_a_prop", "<Trans><strong ref={r}>x</strong></Trans>", Text("<strong>x</strong>")
    ),
    Case(
        "lone_falsy_child_empties_kept_node",
        "<Trans><strong>{0}</strong> <strong>{1}</strong></Trans>",
        Text("<0></0> <strong></strong>"),
    ),
    Case("component_indexed", "<Trans>Go <Link to='/'>home</Link></Trans>", Text("Go <1>home</1>")),
    Case("capitalised_tag_not_kept", "<Trans><Strong>x</Strong></Trans>", Text("<0>x</0>")),
    Case("self_closing_component_empty", "<Trans>a <Icon /> b</Trans>", Text("a <1></1> b")),
    Case("element_in_expression_container", "<Trans>a {<b>x</b>}</Trans>", Text("a <1>x</1>")),
    Case(
        "kept_node_with_spread_props_unknown",
        "<Trans><strong {...props}>x</strong> end</Trans>",
        join(OPAQUE, " end"),
    ),
    Case("spread_props_on_component", "<Trans><a {...props}>x</a></Trans>", Text("<0>x</0>")),
    Case("children_attribute", '<Trans children="Hello" />', Text("Hello")),
    Case("self_closing_trans_empty", "<Trans />", Text("")),
    # --- JSX text -------------------------------------------------------------------------------
    Case(
        "multiline_text_joined",
        "<Trans>\n    Hello\n\n    world,   how\n\tare you\n  </Trans>",
        Text("Hello world,   how are you"),
    ),
    Case("crlf_lines_joined", "<Trans>\r\n  one\r\n  two\r\n</Trans>", Text("one two")),
    Case(
        "same_line_space_between_elements",
        "<Trans><b>x</b> <i>y</i></Trans>",
        Text("<0>x</0> <i>y</i>"),
    ),
    Case("tab_becomes_space", "<Trans>a\tb</Trans>", Text("a b")),
    Case(
        "entities_decoded",
        "<Trans>&amp; &lt;b&gt; &nbsp;x &copy; &#65;&#x42; &apos;</Trans>",
        Text("& <b> \u00a0x © AB '"),
    ),
    Case("unknown_entity_kept", "<Trans>&bogus; and &#X41;</Trans>", Text("&bogus; and &#X41;")),
    Case("encoded_newline_joins_lines", "<Trans>a&#10;b</Trans>", Text("a b")),
    Case(
        "bare_ampersand",
        "const x = (\n  <Trans>\n    Tom & Jerry <b>x</b>\n  </Trans>\n);",
        Text("Tom & Jerry <1>x</1>"),
    ),
    Case(
        "bare_ampersand_before_expression",
        "const x = <Trans>Tom & {name} here</Trans>;",
        join("Tom & ", OPAQUE, " here"),
        "javascript",
    ),
    Case("bare_ampersands_inline", "const x = <Trans>a && b &, c</Trans>;", Text("a && b &, c")),
    # i18next-cli test/extractor.Trans.test.ts
    Case(
        "boundary_whitespace_dropped",
        '<Trans count={1}>\n  <span className="font-extrabold">\n'
        "    {{ username: item.userName }}\n  </span>{' '}\n  got{' '}\n"
        '  <span className="font-extrabold text-brand">\n    {{ count: 1 }}\n'
        "  </span>{' '}\n  ticket\n</Trans>",
        Text("<0>{{username}}</0> got <4>{{count}}</4> ticket"),
    ),
    Case(
        "explicit_space_before_component",
        "<Trans>\n  Some text{' '}\n  <TextLink to='someUrl' external>\n    link\n"
        "  </TextLink>\n  .\n</Trans>",
        Text("Some text <2>link</2>."),
    ),
    Case(
        "newline_before_component_is_no_space",
        "<Trans>\n  Some text\n  <TextLink to='someUrl' external>\n    link\n"
        "  </TextLink>\n  .\n</Trans>",
        Text("Some text<1>link</1>."),
    ),
    Case(
        "trailing_comment_no_child",
        "<Trans>\n  Some content\n  {/* Hidden comment */}\n</Trans>",
        Text("Some content"),
    ),
    Case(
        "void_component_and_br_indices",
        "<Trans>\n  Maybe you mistyped the URL or the plugin with the id "
        '<Badge text={id} color="orange" /> is unavailable.\n  <br />\n'
        "  To see a list of available datasources please "
        "<TextLink href={ROUTES.AddNewConnection}>click here</TextLink>.\n</Trans>",
        Text(
            "Maybe you mistyped the URL or the plugin with the id <1></1> is unavailable.<br/>"
            "To see a list of available datasources please <5>click here</5>."
        ),
    ),
    Case(
        "kept_strong_spacing_preserved",
        "<Trans>\n  <Text.P>This action is irreversible.</Text.P>\n  <Text.P>\n"
        "    Hold down button for\n    <strong> 3 seconds </strong>\n"
        "    to confirm deletion of data\n  </Text.P>\n</Trans>",
        Text(
            "<0>This action is irreversible.</0><1>Hold down button for"
            "<strong> 3 seconds </strong>to confirm deletion of data</1>"
        ),
    ),
    Case(
        "br_newline_versus_space",
        "<Trans>\n  Text before<br />\n  Newline after br\n  <br /> Space after this br\n"
        "  Final text\n</Trans>",
        Text("Text before<br/>Newline after br<br/> Space after this br Final text"),
    ),
    Case(
        "apos_entity_in_kept_paragraph",
        "<Trans>\n  <p>\n    If you&apos;re having a problem, check the <b>Help</b> menu.\n"
        "  </p>\n</Trans>",
        Text("<p>If you're having a problem, check the <1>Help</1> menu.</p>"),
    ),
    # --- expression children ----------------------------------------------------------------
    Case(
        "string_literal_not_trimmed",
        "<Trans>{'  two  spaces\\n'}</Trans>",
        Text("  two  spaces\n"),
    ),
    Case("template_without_holes", "<Trans>{`plain`} text</Trans>", Text("plain text")),
    Case("template_with_hole", "<Trans>{`a${b}c`}!</Trans>", join("a", OPAQUE, "c!")),
    Case(
        "constant_child_resolved",
        "const brand = 'Acme';\nconst x = <Trans>Welcome to {brand}</Trans>;",
        Text("Welcome to Acme"),
    ),
    Case(
        "dynamic_child_gives_prefix",
        "<Trans>Hello {name}, welcome <b>back</b></Trans>",
        join("Hello ", OPAQUE, ", welcome <3>back</3>"),
    ),
    Case(
        "conditional_child_branches",
        "<Trans>Status: {ok ? 'up' : 'down'}</Trans>",
        join("Status: ", Branches([Text("up"), Text("down")])),
    ),
    Case(
        "primitives_skipped_but_counted",
        "<Trans>{true}{null}{undefined}{false}{42}<b>x</b></Trans>",
        Text("<5>x</5>"),
    ),
    Case(
        "comment_splits_text_into_two_children",
        '<Trans>a{/* c */}b<br/><i className="x"/></Trans>',
        Text("ab<br/><3></3>"),
    ),
    Case("empty_expressions_no_child", "<Trans>{}{/* c */}<b>x</b></Trans>", Text("<0>x</0>")),
    Case(
        "spread_child_ends_static_text",
        "<Trans>a <b>x</b> {...items} c</Trans>",
        join("a <1>x</1> ", OPAQUE),
    ),
    Case(
        "interpolation_renamed_value",
        "<Trans>Hi {{ name: user.name }}!</Trans>",
        Text("Hi {{name}}!"),
    ),
    Case(
        "interpolation_with_format",
        "<Trans>Total: {{ val, format: 'number' }}</Trans>",
        Text("Total: {{val, number}}"),
    ),
    Case(
        "interpolation_with_two_keys_adds_nothing",
        "<Trans>a {{ x, y }} b</Trans>",
        Text("a  b"),
    ),
    Case(
        "interpolation_with_spread_unknown",
        "<Trans>a {{ ...values }} b</Trans>",
        join("a ", OPAQUE, " b"),
    ),
    # --- the JavaScript grammar -------------------------------------------------------------
    Case(
        "js_kept_and_indexed",
        "const x = (\n  <Trans>\n    Hello <strong>{{ name }}</strong>, see <a href='/'>this</a>.\n"
        "  </Trans>\n);",
        Text("Hello <strong>{{name}}</strong>, see <3>this</3>."),
        "javascript",
    ),
    Case(
        "js_dynamic_child",
        "export const X = () => <Trans>Count: {count} items</Trans>;",
        join("Count: ", OPAQUE, " items"),
        "javascript",
    ),
    Case(
        "js_entities_and_fragment",
        "<Trans>Fish &amp; chips <>now</></Trans>",
        Text("Fish & chips <1>now</1>"),
        "javascript",
    ),
]

DEFAULTS_CASES = [
    # react-i18next test/trans.render.spec.jsx ("trans with defaults property and children")
    DefaultsCase(
        "children_win_over_defaults",
        '<Trans count={3} defaults="This property should not get used">\n'
        "  You have {{ count: 3 }} message\n</Trans>",
        Text("You have {{count}} message"),
        Text("This property should not get used"),
    ),
    # react-i18next test/trans.render.object.spec.jsx
    DefaultsCase(
        "self_closing_with_defaults",
        '<Trans defaults="hello <ClickMe />" components={{ ClickMe: <Button /> }} />',
        Text("hello <ClickMe />"),
        Text("hello <ClickMe />"),
    ),
    # react-i18next test/trans.render.spec.jsx ("trans with empty content")
    DefaultsCase("nothing_to_look_up", "<Trans />", None, None),
    # react-i18next test/trans.render.spec.jsx ("defaults (via tOptions)"), without its i18nKey
    DefaultsCase(
        "options_default_value",
        "<Trans count={4} tOptions={{ defaultValue: 'There are {{ count }} items' }} />",
        Text("There are {{ count }} items"),
        Text("There are {{ count }} items"),
    ),
    DefaultsCase(
        "children_only",
        "<Trans>Hello <b>you</b></Trans>",
        Text("Hello <1>you</1>"),
        Text("Hello <1>you</1>"),
    ),
    DefaultsCase(
        "defaults_before_options",
        "<Trans defaults=\"a\" tOptions={{ defaultValue: 'b' }} />",
        Text("a"),
        Text("a"),
    ),
    DefaultsCase(
        "blank_children_use_defaults",
        "<Trans defaults={'Hi there'}>\n  {/* later */}\n</Trans>",
        Text("Hi there"),
        Text("Hi there"),
    ),
    DefaultsCase("empty_defaults_ignored", '<Trans defaults="" />', None, None),
    DefaultsCase(
        "dynamic_defaults",
        "<Trans defaults={message}>Hi</Trans>",
        Text("Hi"),
        Branches([OPAQUE, Text("Hi")]),
    ),
    DefaultsCase(
        "options_from_variable_unknown",
        "<Trans tOptions={options}>Hi</Trans>",
        Text("Hi"),
        Branches([OPAQUE, Text("Hi")]),
    ),
    DefaultsCase(
        "js_self_closing_with_defaults",
        'const x = <Trans defaults="Welcome, {{name}}" values={{ name }} />;',
        Text("Welcome, {{name}}"),
        Text("Welcome, {{name}}"),
        "javascript",
    ),
]


def _first_trans(node: tree_sitter.Node) -> tree_sitter.Node | None:
    if node.type in ("jsx_element", "jsx_self_closing_element"):
        opening = node.child_by_field_name("open_tag") if node.type == "jsx_element" else node
        name = opening.child_by_field_name("name") if opening is not None else None
        if name is not None and node_text(name) == "Trans":
            return node
    for child in node.children:
        found = _first_trans(child)
        if found is not None:
            return found
    return None


def _parsed(source: str, grammar: GrammarName) -> tuple[tree_sitter.Node, bytes]:
    content = source.encode()
    element = _first_trans(parse(content, grammar).root_node)
    assert element is not None, "no <Trans> element in the snippet"
    return element, content


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_children_serialise_to_the_i18next_key(case: Case) -> None:
    element, content = _parsed(case.source, case.grammar)
    assert trans_children_key(element, content, Evaluator().value_of) == case.key


@pytest.mark.parametrize("case", DEFAULTS_CASES, ids=[case.id for case in DEFAULTS_CASES])
def test_key_and_default_value_without_i18n_key(case: DefaultsCase) -> None:
    element, content = _parsed(case.source, case.grammar)
    assert trans_key(element, content, Evaluator().value_of) == (case.key, case.default)
