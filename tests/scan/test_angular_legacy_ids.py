"""Angular's legacy message ids (`enableI18nLegacyMessageIdFormat`) as `scan.angular_i18n`
derives them. The ground truth is Ghostfolio's `messages.xlf` of July 2025 (commit 569d750af,
Angular 20), extracted with legacy ids: its XLIFF 1.2 units are keyed by the SHA-1 id, and the
templates below are copied from that commit with the id its catalog gives each. The XLIFF 2 /
XMB (decimal) ids of messages with placeholders, and the shapes Ghostfolio does not write, are
checked against what Angular's own compiler (`@angular/compiler` 20.0.7, `parseTemplate` with
legacy ids on) gives the same template."""

from __future__ import annotations

import pytest

from i18nprune.scan.angular_i18n import localize_messages, template_messages
from i18nprune.scan.angular_ids import legacy_ids, message_id
from i18nprune.syntax_tree import parse


def legacy(template: str) -> list[tuple[str, ...]]:
    return [message.legacy for message in template_messages(template)]


@pytest.mark.parametrize(
    ("serialized", "without_switches", "expected"),
    [
        # `<span i18n>You are using the Live Demo.</span>`: a plain text is itself, and its
        # decimal legacy id is its modern id (the current catalog's unit 2321031042449352964)
        (
            "You are using the Live Demo.",
            "You are using the Live Demo.",
            ("1c0638816928ae45284e60504936ca985960df5c", "2321031042449352964"),
        ),
        # `<small i18n>Last {{ numberOfDays }} Days</small>`: a text with `{{ }}` is a bracketed
        # list of its parts, the expression written as it is
        (
            '[Last , <ph name="INTERPOLATION"> numberOfDays </ph>,  Days]',
            '[Last , <ph name="INTERPOLATION"> numberOfDays </ph>,  Days]',
            ("ce718ababbce63d776cf8b1f91412beb4c0a6e04", "5845816146166098020"),
        ),
        # an ICU's cases are bracketed lists too; the decimal id leaves its switch out
        (
            "{summary?.activityCount, plural, =1 {[activity]}, other {[activities]}}",
            "{plural, =1 {[activity]}, other {[activities]}}",
            ("44268762ecf7c7d690288f763f17196216671353", "7222088958146058672"),
        ),
    ],
)
def test_the_digests_of_a_serialised_message_are_the_ids_angular_gave_it(
    serialized, without_switches, expected
):
    assert legacy_ids(serialized, without_switches) == expected


def test_a_meaning_is_part_of_both_legacy_ids():
    plain = legacy_ids("Hello i18n!", "Hello i18n!")
    meant = legacy_ids("Hello i18n!", "Hello i18n!", "site header")
    assert meant == (
        "d99b4d5e47ac1961d5d666875cc14d309e95ed0a",
        message_id("Hello i18n!", "site header"),
    )
    assert meant[0] != plain[0]


ICU_MESSAGE = (
    "      <ng-container i18n>{summary?.activityCount, plural,\n"
    "        =1 {activity}\n"
    "        other {activities}\n"
    "      }</ng-container>\n"
)

BLOCK_MESSAGE = (
    "              <gf-value\n"
    "                i18n\n"
    '                size="medium"\n'
    '                [colorizeSign]="true"\n'
    '                [isCurrency]="true"\n'
    '                [locale]="data.locale"\n'
    '                [precision]="netPerformanceWithCurrencyEffectPrecision"\n'
    '                [unit]="data.baseCurrency"\n'
    '                [value]="netPerformanceWithCurrencyEffect"\n'
    "              >\n"
    "                @if (\n"
    "                  SymbolProfile?.currency &&\n"
    "                  data.baseCurrency !== SymbolProfile?.currency\n"
    "                ) {\n"
    "                  Change with currency effect\n"
    "                } @else {\n"
    "                  Change\n"
    "                }\n"
    "              </gf-value>\n"
)

LINK_MESSAGE = (
    '                <div class="hint-text text-muted" i18n>\n'
    "                  If a translation is missing, kindly support us in extending it\n"
    "                  <a\n"
    '                    href="https://github.com/ghostfolio/ghostfolio/blob/main/'
    "apps/client/src/locales/messages.{{\n"
    "                      language\n"
    '                    }}.xlf"\n'
    '                    target="_blank"\n'
    "                    >here</a\n"
    "                  >.\n"
    "                </div>\n"
)

TITLE_MESSAGE = (
    "                  <gf-premium-indicator\n"
    '                    class="ml-1"\n'
    "                    i18n-title\n"
    '                    title="{{\n'
    "                      `Expires ${formatDistanceToNow(\n"
    "                        element.subscription.expiresAt\n"
    "                      )} (${\n"
    "                        (element.subscription.expiresAt\n"
    "                        | date: defaultDateFormat)\n"
    "                      })`\n"
    '                    }}"\n'
    '                    [enableLink]="false"\n'
    "/>\n"
)

FIRE_MESSAGE = (
    "      <div\n"
    "        i18n\n"
    "        [ngClass]=\"{ 'text-muted': user?.subscription?.type === 'Basic' }\"\n"
    "      >\n"
    "        If you retire today, you would be able to withdraw\n"
    '        <span class="font-weight-bold"\n'
    "          ><gf-value\n"
    '            class="d-inline-block"\n'
    '            [isCurrency]="true"\n'
    '            [locale]="user?.settings?.locale"\n'
    '            [unit]="user?.settings?.baseCurrency"\n'
    '            [value]="withdrawalRatePerYear?.toNumber()"\n'
    "          />\n"
    "          per year</span\n"
    "        >\n"
    "        or\n"
    '        <span class="font-weight-bold"\n'
    "          ><gf-value\n"
    '            class="d-inline-block"\n'
    '            [isCurrency]="true"\n'
    '            [locale]="user?.settings?.locale"\n'
    '            [unit]="user?.settings?.baseCurrency"\n'
    '            [value]="withdrawalRatePerMonth?.toNumber()"\n'
    "          />\n"
    "          per month</span\n"
    "        >, based on your total assets of\n"
    '        <span class="font-weight-bold"\n'
    "          ><gf-value\n"
    '            class="d-inline-block"\n'
    '            [isCurrency]="true"\n'
    '            [locale]="user?.settings?.locale"\n'
    '            [unit]="user?.settings?.baseCurrency"\n'
    '            [value]="fireWealth?.toNumber()"\n'
    "          />\n"
    "        </span>\n"
    "        and a withdrawal rate of 4%.\n"
    "      </div>\n"
)


def test_a_text_and_its_interpolation_as_written_give_ghostfolios_ids():
    assert legacy("<small i18n>Last {{ numberOfDays }} Days</small>") == [
        ("ce718ababbce63d776cf8b1f91412beb4c0a6e04", "5845816146166098020")
    ]
    toggle = '<mat-button-toggle i18n-title title="Table" value="TABLE"></mat-button-toggle>'
    assert legacy(toggle) == [("5c8ea0443990792280e53ee2cc87e577940c95cf", "1358239534403218079")]


def test_an_icu_message_keeps_the_white_space_of_its_cases_as_written():
    assert legacy(ICU_MESSAGE) == [
        ("44268762ecf7c7d690288f763f17196216671353", "7222088958146058672")
    ]


def test_a_message_is_serialised_before_white_space_goes():
    # The modern id is of ` {$START_BLOCK_IF} Change … ` with runs of white space collapsed;
    # the legacy one of every newline and indentation inside the element.
    (message,) = template_messages(BLOCK_MESSAGE)
    assert message.legacy[0] == "f3ac156b32df7ac0c3085fcc904ca8d1da12897d"
    assert message.id != message.legacy[1]


def test_elements_and_an_interpolated_attribute_value_give_ghostfolios_ids():
    assert legacy(LINK_MESSAGE)[0][0] == "62c28ddba8fedb2ae7b0fff9a641778b59791aa2"
    assert legacy(TITLE_MESSAGE)[0][0] == "8c9a78c3ef6f17b2fcd1c7460c436c3d4cb2be7e"
    assert legacy(FIRE_MESSAGE)[0][0] == "f42ea256db85ae2dba48b04a7bf0eb1614abac2f"


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        # an ICU case starts past its blanks; the switch and type are kept as written; the
        # ICU beside text is a placeholder and a message of its own (meaning and all)
        (
            '<span i18n="meaning|desc">Total: { count , plural , =0 { none } =1 {one <b>item</b>}'
            " other { {{count}} items, {gender, select, male {he} female {she} other {they}} } }"
            " done</span>",
            [
                ("cc58fe135237676f303fda2b9bdab9c27a5be904", "574030713201475808"),
                ("c522aefcd66134de42eebdf98d327ed67225bcaa", "2807770705821826100"),
            ],
        ),
        # cases in a JavaScript object's order: array indices first, a repeated key once
        (
            "<p i18n>{n, select, 1 {one} 0 {zero} a {A} 10 {ten} a {A2}}</p>",
            [("f56a80c991db4ce28a0cf1d9e0cfba984affc04a", "7251237129933863574")],
        ),
        # an ICU with white space around it is a placeholder, and its own message
        (
            "<p i18n>\n  {n, plural, =1 {x} other {y}}\n</p>",
            [
                ("af52e6b4a128f425c5977308f3f57fc062f8d299", "2601403779132227978"),
                ("a566693b9045a4036e49c554eb23a9f78723445e", "4356697183896484847"),
            ],
        ),
        # an attribute: entities read in its text, not inside `{{ }}`
        (
            '<img i18n-title title="Hello {{ name }} &amp; {{ a &amp;&amp; b }} bye">',
            [("4ab4ec212153c3bdb26068bad316ad294605a7a5", "4384371879989520591")],
        ),
        # line ends as the lexer gives them; `&nbsp;` is a character, not a blank
        (
            "<div i18n>Line one\r\n  {{ value }} line two &amp; three&nbsp;four</div>\r\n",
            [("a81e5502dce46548cbee97bd58c807e52008afb8", "523571432855372963")],
        ),
        # `<pre>` loses the line feed it starts with; a `<textarea>` holds text only
        (
            "<pre i18n>\nLine after pre</pre>",
            [("3935ec8281c0a3c29571592e15f1e00b70f7127e", "3104708670469670313")],
        ),
        (
            "<textarea i18n>Some {{ a }} text</textarea>",
            [("8480df778e1c1216f8b45befb29534d45dd64a92", "8076295093456103430")],
        ),
        (
            "<div i18n>Text <textarea>{{ a }} <b>b</b></textarea></div>",
            [("297f693d7fbe1aac11a284a3266b72aee8ffef30", "51697193537909088")],
        ),
        # blocks are placeholders, `@switch` a list, `@let` and comments nothing
        (
            "<div i18n>\n  Start\n  @if (a; as b) { yes <b>{{ b }}</b> } @else { no }\n"
            "  @for (item of items; track item.id) { {{ item }} } @empty { nothing }\n"
            "  @switch (mode) { @case ('a') { A } @default { D } }\n  @let x = 1;\n"
            "  <!-- a comment -->\n  end {{x}}\n  <br>\n  <pre>\nkeep   this</pre>\n"
            '  <ng-container *ngIf="z">Z</ng-container>\n</div>',
            [("6ce18c6004bf0b6b9d90e3721d68bbb6c6a2688c", "8952058058836788443")],
        ),
    ],
)
def test_legacy_ids_are_the_ones_angulars_compiler_gives(template, expected):
    assert legacy(template) == expected


def test_names_inside_an_icu_are_taken_in_the_message_around_it_first():
    # Angular names the cases' `<i>` before the `<i class="k">` after the ICU: this changes
    # the modern id (`… then {$START_ITALIC_TEXT_1}z…`) as much as the legacy one.
    template = (
        '<p i18n>A {n, plural, =1 {<i>x</i>} other {y}} then <i class="k">z</i> and <i>w</i></p>'
    )
    outer, icu = template_messages(template)
    assert outer.id == "1615033171856608131"
    assert outer.legacy == ("0565dc3662d18e44bda18e6e8267ea8ba0c6115d", "861682328372618072")
    assert icu.legacy == ("fb538a5ec9f151575007373b001754602cc06762", "1928174062563819470")


def test_an_empty_message_or_attribute_is_no_message():
    assert template_messages('<th i18n></th><td i18n>\n  </td><a i18n-title title="">k</a>') == []


def test_a_custom_id_keeps_its_legacy_ids():
    (message,) = template_messages(
        '<p i18n="site header|An introduction header@@introductionHeader">Hello i18n!</p>'
    )
    assert message.id == "introductionHeader"
    assert message.legacy == ("d99b4d5e47ac1961d5d666875cc14d309e95ed0a", "2077201021623808633")


def test_localize_takes_the_legacy_ids_its_metadata_block_lists():
    code = (
        "const a = $localize`:site header|intro\u241fd99b4d5e47ac1961d5d666875cc14d309e95ed0a"
        "\u241f2077201021623808633:Hello i18n!`;\nconst b = $localize`Plain`;\n"
    )
    first, second = localize_messages(parse(code.encode(), "typescript").root_node)
    assert first.id == message_id("Hello i18n!", "site header")
    assert first.legacy == ("d99b4d5e47ac1961d5d666875cc14d309e95ed0a",)
    assert second.legacy == ()


def test_icu_cases_past_their_blanks_and_in_object_order_give_the_modern_id_too():
    (ordered,) = template_messages(
        "<p i18n>{n, select, 1 {one} 0 {zero} a {A} 10 {ten} a {A2}}</p>"
    )
    assert ordered.id == "6005553483211524606"  # `{VAR_SELECT, select, 0 {zero} 1 {one} …}`
    (spaced,) = template_messages("<p i18n>{n, select, a {  A } other {\n B}}</p>")
    assert spaced.id == message_id("{VAR_SELECT, select, a {A } other {B}}")
