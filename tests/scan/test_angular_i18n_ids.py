"""Angular's i18n message ids as `scan.angular_i18n` derives them, against ids Angular's own
extractor wrote: the templates and `$localize` calls below are copied from Ghostfolio (an
Angular 22 app), each with the id its `messages.xlf` gives it; the message texts of the last
tests are Angular's own compiler specs' (`i18n_ast` message strings)."""

from __future__ import annotations

import pytest

from i18nprune.scan.angular_i18n import localize_messages, template_messages
from i18nprune.scan.angular_ids import fingerprint, message_id
from i18nprune.syntax_tree import parse


def ids(template: str) -> list[str | None]:
    return [message.id for message in template_messages(template)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Error", "1519954996184640001"),
        (" Total ", "5915287617703658226"),  # `<td i18n>` with its text on its own line
        (" Open Source Alternative to {$INTERPOLATION} ", "1362943485319900492"),
        ("{VAR_PLURAL, plural, =1 {Activity} other {Activities}}", "6278975207599702712"),
    ],
)
def test_the_fingerprint_of_a_message_text_is_the_id_angular_gave_it(text, expected):
    assert message_id(text) == expected


def test_a_meaning_changes_the_id_and_the_fingerprint_is_64_bits():
    assert message_id("Error", "dialog title") != message_id("Error")
    assert 0 <= fingerprint("Error") < 1 << 64
    assert int(message_id("Error")) < 1 << 63


def test_whitespace_runs_collapse_and_a_text_beside_an_interpolation_keeps_its_spaces():
    template = (
        '<td *matFooterCellDef class="px-1" i18n mat-footer-cell>\n'
        "                    Total\n                  </td>\n"
        '                    <div class="h6 m-0 text-truncate" i18n>\n'
        "                      Open Source Alternative to {{ personalFinanceTool.name }}\n"
        "                    </div>\n"
    )
    assert ids(template) == ["5915287617703658226", "1362943485319900492"]


def test_a_single_white_space_character_is_not_collapsed():
    # Angular replaces runs of two or more: a lone newline before `</td>` stays a newline.
    assert ids("<td i18n>\n    Total\n</td>") == [message_id(" Total\n")]


def test_an_icu_beside_text_is_a_placeholder_and_a_message_of_its_own():
    template = (
        "<span i18n\n"
        "  >Export {{ totalItems > 1 ? totalItems : '' }}\n"
        "  {totalItems, plural, =1 {Activity} other {Activities}}</span\n>"
    )
    assert ids(template) == ["1825717711340685842", "6278975207599702712"]


def test_elements_take_their_placeholder_names_numbered_by_their_attributes():
    value = (
        '<gf-value\n class="d-inline-block"\n [isCurrency]="true"\n'
        ' [locale]="user?.settings?.locale"\n [unit]="user?.settings?.baseCurrency"\n'
        ' [value]="{}"\n'
    )
    template = (
        "<ng-container i18n\n  >If you retire today, you would be able to withdraw\n"
        '  <span class="font-weight-bold"\n    >'
        + value.format("withdrawalRatePerYear?.toNumber()")
        + '/>\n    per year</span\n  >\n  or\n  <span class="font-weight-bold"\n    >'
        + value.format("withdrawalRatePerMonth?.toNumber()")
        + "/>\n    per month</span\n  >, based on your total assets of\n"
        '  <span class="font-weight-bold"\n    >'
        + value.format("fireWealth?.today.valueInBaseCurrency")
        + "/></span>\n  and a safe withdrawal rate (SWR) of</ng-container\n>"
    )
    assert ids(template) == ["5552246967241337741"]


def test_a_link_in_a_message_and_its_own_i18n_title_are_two_messages():
    template = (
        "<ng-container i18n\n  >and is driven by the efforts of its\n  <a\n"
        '    href="https://github.com/ghostfolio/ghostfolio/graphs/contributors"\n'
        '    i18n-title\n    title="Contributors to Ghostfolio"\n    >contributors</a\n'
        "  ></ng-container\n>"
    )
    assert sorted(ids(template)) == ["4102764207131986196", "5611965261696422586"]


def test_bold_text_and_a_control_flow_block_inside_messages():
    template = (
        '        <h2 class="h4 mb-1 text-center" i18n>\n'
        "          Are <strong>you</strong> ready?\n"
        "        </h2>\n"
        '        <p class="gf-text-wrap-balance lead mb-3 text-center" i18n>\n'
        "          Join now\n"
        "          @if (hasPermissionForDemo) {\n"
        "            or check out the example account\n"
        "          }\n"
        "        </p>\n"
    )
    assert ids(template) == ["9186557608327946974", "1637219853469577528"]


def test_a_message_without_placeholders_carries_its_text_as_the_units_source():
    plural = "{n, plural, =1 {one} other {many}}"
    template = (
        f"<p i18n>\n  Pay  now\n</p>\n<p i18n>Hi {{{{ name }}}}</p>\n<p i18n>{plural}</p>\n"
        f"<b i18n>x {plural}</b>"
    )
    icu = "{VAR_PLURAL, plural, =1 {one} other {many}}"
    texts = [message.text for message in template_messages(template)]
    assert texts == [" Pay now\n", None, icu, None, icu]


def test_a_message_is_located_where_angular_locates_it():
    template = '<td i18n mat-footer-cell>\n  Total\n</td>\n<a title="Tip" i18n-title>x</a>'
    located = [(m.line, m.column, m.preview) for m in template_messages(template)]
    assert located == [(2, 3, "Total"), (4, 11, "Tip")]


def test_localize_names_placeholders_by_position_and_takes_a_custom_id():
    source = (
        b"const message = $localize`An error occurred while merging this asset profile into "
        b"${symbol} (${dataSource}).`;\n"
        b"const path = $localize`:kebab-case@@routes.about:about`;\n"
        b"const named = $localize`Hello ${name}:who:!`;\n"
        b"const called = $localize(parts, name);\n"
    )
    found = [message.id for message in localize_messages(parse(source, "typescript").root_node)]
    assert found == [
        "1029620928611278483",
        "routes.about",
        message_id("Hello {$who}!"),
        None,  # not a tagged template: its text is not known here
    ]


# Message texts from Angular's compiler specs (`i18n_ast_spec`): the template as a message,
# and the `$localize` text Angular makes of it.
@pytest.mark.parametrize(
    ("template", "texts"),
    [
        ("abc {{ 123 }}{{ 456 }} def", ["abc {$INTERPOLATION}{$INTERPOLATION_1} def"]),
        (
            "abc <span>foo</span><span>bar</span> def",
            ["abc {$START_TAG_SPAN}foo{$CLOSE_TAG_SPAN}{$START_TAG_SPAN}bar{$CLOSE_TAG_SPAN} def"],
        ),
        (
            "abc {value, select, case1 {value1} case2 {value2} case3 {value3}} def",
            [
                "abc {$ICU} def",
                "{VAR_SELECT, select, case1 {value1} case2 {value2} case3 {value3}}",
            ],
        ),
        (
            "{gender, select, male {male of age: {age, select, 10 {ten} 20 {twenty} 30 {thirty} "
            "other {other}}} female {female} other {other}}",
            [
                "{VAR_SELECT_1, select, male {male of age: {VAR_SELECT, select, 10 {ten} 20 "
                "{twenty} 30 {thirty} other {other}}} female {female} other {other}}"
            ],
        ),
    ],
)
def test_a_message_text_is_the_one_angulars_compiler_writes(template, texts):
    assert ids(f"<p i18n>{template}</p>") == [message_id(text) for text in texts]


def test_svg_inside_a_message_leaves_it_unread():
    # Angular names the elements inside `<svg>` by namespace (`:svg:path`), not read here.
    assert ids('<button i18n><svg><path d="M0"/></svg> Save</button>') == [None]


def test_markup_the_reader_does_not_follow_leaves_the_message_unread_at_its_place():
    template = '<p title="x">fine</p>\n<p i18n>Total {{ sum </p>\n<b i18n-title title="t">x</b>'
    assert [(m.id, m.line) for m in template_messages(template)] == [(None, 2), (None, 3)]
