"""Placeholder safety: every interpolation form is masked, translations are put back exactly, and
any translation that loses, adds or breaks a placeholder or the ICU structure is caught."""

from __future__ import annotations

import re
from collections.abc import Callable

import msgspec
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from i18nprune.placeholders import (
    PlaceholderMismatch,
    ProtectedText,
    Unit,
    placeholder_signature,
    protect_placeholders,
    verify_placeholders,
)
from tests.properties import examples

TOKEN = re.compile(r'<x id="(\d+)"/>')
PLURAL = "{count, plural, one {# item} other {# items}}"


_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def identity(protected: ProtectedText) -> str:
    return protected.restore([unit.masked for unit in protected.units])


def shout(masked: str) -> str:
    """A "translation" that changes only letters: ASCII lower case becomes upper case."""
    pieces = TOKEN.split(masked)  # text, token id, text, token id, …, text
    return "".join(
        f'<x id="{piece}"/>' if index % 2 else piece.translate(_UPPER)
        for index, piece in enumerate(pieces)
    )


# --- what gets masked ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "masked", "tokens"),
    [
        ("Hello {{name}}!", 'Hello <x id="0"/>!', ["{{name}}"]),
        ("{{count, number}} files", '<x id="0"/> files', ["{{count, number}}"]),
        ("{{- raw}} html", '<x id="0"/> html', ["{{- raw}}"]),
        ("See $t(common.more)", 'See <x id="0"/>', ["$t(common.more)"]),
        ('$t(key, {"n": {{n}} }) left', '<x id="0"/> left', ['$t(key, {"n": {{n}} })']),
        ("Hi {name}", 'Hi <x id="0"/>', ["{name}"]),
        ("{n, number} km", '<x id="0"/> km', ["{n, number}"]),
        ("On {d, date, ::yyyyMMdd}", 'On <x id="0"/>', ["{d, date, ::yyyyMMdd}"]),
        ("Hi %s", 'Hi <x id="0"/>', ["%s"]),
        ("%d items", '<x id="0"/> items', ["%d"]),
        ("%1$s of %2$s", '<x id="0"/> of <x id="1"/>', ["%1$s", "%2$s"]),
        ("%(name)s here", '<x id="0"/> here', ["%(name)s"]),
        ("file %r or %(path)a", 'file <x id="0"/> or <x id="1"/>', ["%r", "%(path)a"]),
        ("%.2f MB", '<x id="0"/> MB', ["%.2f"]),
        ("100%% sure", '100<x id="0"/> sure', ["%%"]),
        ("<b>Bold</b> text", '<x id="0"/>Bold<x id="1"/> text', ["<b>", "</b>"]),
        ("<0>Click</0> here", '<x id="0"/>Click<x id="1"/> here', ["<0>", "</0>"]),
        ("Line<br/>break", 'Line<x id="0"/>break', ["<br/>"]),
        (
            '<a href="/x?a=1&b=2">link</a>',
            '<x id="0"/>link<x id="1"/>',
            ['<a href="/x?a=1&b=2">', "</a>"],
        ),
        ("one\ntwo", 'one<x id="0"/>two', ["\n"]),
        ("one\r\ntwo", 'one<x id="0"/>two', ["\r\n"]),
        ("Use '{' to open", 'Use <x id="0"/> to open', ["'{'"]),
    ],
)
def test_each_interpolation_form_is_masked(text: str, masked: str, tokens: list[str]) -> None:
    (unit,) = protect_placeholders(text).units
    assert (unit.masked, unit.tokens, unit.original) == (masked, tokens, text)


def test_percent_in_prose_is_text() -> None:
    (unit,) = protect_placeholders("50% off, 100% sure").units
    assert unit.tokens == []


def test_edge_whitespace_and_newlines_stay_outside_the_unit() -> None:
    protected = protect_placeholders("\n  Hello {{name}}  \r\n")
    (unit,) = protected.units
    assert unit.masked == 'Hello <x id="0"/>'
    assert protected.restore(['Bonjour <x id="0"/>']) == "\n  Bonjour {{name}}  \r\n"


def test_unit_original_keeps_the_placeholder_names() -> None:
    (unit,) = protect_placeholders("Hi {{first}} %s").units
    assert unit.original == "Hi {{first}} %s"
    assert unit.masked == protect_placeholders("Hi {{last}} %d").units[0].masked


def test_unit_survives_a_msgspec_round_trip() -> None:
    (unit,) = protect_placeholders("Hi {{name}}").units
    assert msgspec.json.decode(msgspec.json.encode(unit), type=Unit) == unit


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "\n\n",
        "{{name}}",
        "{{a}} {{b}}\n",
        "123 %",
        "<br/>",
        "—…!",
        "{count, plural, one {#} other {# …}}",
    ],
)
def test_text_with_nothing_to_translate_has_no_units(text: str) -> None:
    protected = protect_placeholders(text)
    assert protected.units == []
    assert protected.restore([]) == text


# --- ICU -------------------------------------------------------------------------------------


def test_plural_gives_one_unit_per_branch_with_pound_masked() -> None:
    protected = protect_placeholders(PLURAL)
    assert [(u.masked, u.tokens) for u in protected.units] == [
        ('<x id="0"/> item', ["#"]),
        ('<x id="0"/> items', ["#"]),
    ]


def test_text_around_an_icu_block_is_a_unit_with_the_block_as_one_token() -> None:
    protected = protect_placeholders(f"You have {PLURAL} left")
    outer, one, other = protected.units
    assert (outer.masked, outer.tokens) == ('You have <x id="0"/> left', [PLURAL])
    assert (one.masked, other.masked) == ('<x id="0"/> item', '<x id="0"/> items')


def test_icu_keywords_offset_and_selectors_survive_translation() -> None:
    text = "{n, plural, offset:1 =0 {nobody} one {just you} other {you and # others}}"
    protected = protect_placeholders(text)
    translated = protected.restore(["personne", "vous seul", 'vous et <x id="0"/> autres'])
    assert translated == (
        "{n, plural, offset:1 =0 {personne} one {vous seul} other {vous et # autres}}"
    )
    assert verify_placeholders(text, translated) is None


def test_nested_icu_branches_are_units() -> None:
    text = (
        "{gender, select, female {{count, plural, one {She has # cat} other {She has # cats}}}"
        " other {They have {count} pets}}"
    )
    protected = protect_placeholders(text)
    assert [u.masked for u in protected.units] == [
        'She has <x id="0"/> cat',
        'She has <x id="0"/> cats',
        'They have <x id="0"/> pets',
    ]
    assert [u.tokens for u in protected.units] == [["#"], ["#"], ["{count}"]]


def test_branch_edge_whitespace_stays_outside_the_unit() -> None:
    protected = protect_placeholders("{n, plural, one { # item } other {# items}}")
    assert protected.units[0].masked == '<x id="0"/> item'
    translated = protected.restore(['<x id="0"/> élément', '<x id="0"/> éléments'])
    assert translated == "{n, plural, one { # élément } other {# éléments}}"


def test_pound_outside_a_plural_is_text() -> None:
    (unit,) = protect_placeholders("Ticket #42 for {name}").units
    assert unit.masked == 'Ticket #42 for <x id="0"/>'


def test_escaped_apostrophe_is_text() -> None:
    (unit,) = protect_placeholders("It''s {name}").units
    assert (unit.masked, unit.tokens) == ("It''s <x id=\"0\"/>", ["{name}"])


def test_apostrophe_before_an_icu_argument_becomes_typographic_on_restore() -> None:
    protected = protect_placeholders("The {item} is ready")
    translated = protected.restore(['L\'<x id="0"/> est prêt'])
    assert translated == "L’{item} est prêt"
    assert verify_placeholders("The {item} is ready", translated) is None


def test_apostrophe_ending_a_branch_becomes_typographic_on_restore() -> None:
    protected = protect_placeholders("{n, select, a {to the shop} other {home}}")
    assert protected.restore(["jusqu'", "chez moi"]) == "{n, select, a {jusqu’} other {chez moi}}"


def test_escaped_apostrophe_before_an_icu_argument_is_kept_on_restore() -> None:
    protected = protect_placeholders("The {item} is ready")
    assert protected.restore(["L''<x id=\"0\"/> est prêt"]) == "L''{item} est prêt"


def test_apostrophe_before_i18next_placeholder_is_left_alone() -> None:
    protected = protect_placeholders("The {{item}} is ready")
    assert protected.restore(['L\'<x id="0"/> est prêt']) == "L'{{item}} est prêt"


def test_malformed_icu_is_literal_text() -> None:
    text = "{count, plural, one {# item} other {# items}"
    (unit,) = protect_placeholders(text).units
    assert (unit.masked, unit.tokens) == (text, [])


def test_placeholders_inside_malformed_icu_stay_protected() -> None:
    (unit,) = protect_placeholders("{oops {{name}} has %d <b>new</b>").units
    assert unit.tokens == ["{{name}}", "%d", "<b>", "</b>"]


def test_well_bracketed_choice_that_does_not_parse_is_protected_whole() -> None:
    text = "Go {n, plural, one} now"
    (unit,) = protect_placeholders(text).units
    assert unit.tokens == ["{n, plural, one}"]


def test_deeply_nested_icu_does_not_crash() -> None:
    text = "{a, select, x {" * 400 + "deep" + "} other {y}}" * 400
    protected = protect_placeholders(text)
    assert identity(protected) == text


# --- restore ---------------------------------------------------------------------------------


def test_restore_accepts_tokens_in_another_order() -> None:
    protected = protect_placeholders("{{a}} before {{b}}")
    assert protected.restore(['<x id="1"/> après <x id="0"/>']) == "{{b}} après {{a}}"


@pytest.mark.parametrize("token", ['<x id="0" />', "<x id='0'/>", '<x id="0"></x>'])
def test_restore_accepts_spelling_variants_of_a_token(token: str) -> None:
    assert protect_placeholders("Hi %s").restore([f"Salut {token}"]) == "Salut %s"


def test_restore_drops_whitespace_the_provider_added() -> None:
    assert protect_placeholders("Save").restore(["  Enregistrer \n"]) == "Enregistrer"


def test_restore_rejects_a_missing_token() -> None:
    with pytest.raises(PlaceholderMismatch, match=r"\{\{name\}\}\) missing"):
        protect_placeholders("Hi {{name}}").restore(["Salut"])


def test_restore_rejects_a_duplicated_token() -> None:
    with pytest.raises(PlaceholderMismatch, match="appears twice"):
        protect_placeholders("Hi {{name}}").restore(['Salut <x id="0"/> <x id="0"/>'])


def test_nesting_with_quoted_parentheses_is_one_token() -> None:
    text = 'See $t(help, {"label": "a (b", "more": "$t(other)"}) now'
    (unit,) = protect_placeholders(text).units
    assert unit.tokens == ['$t(help, {"label": "a (b", "more": "$t(other)"})']


def test_unclosed_nesting_is_text() -> None:
    (unit,) = protect_placeholders("Costs $5 $t(price :").units
    assert (unit.masked, unit.tokens) == ("Costs $5 $t(price :", [])


def test_restore_rejects_a_renamed_token() -> None:
    with pytest.raises(PlaceholderMismatch, match="unknown token"):
        protect_placeholders("Hi {{name}}").restore(['Salut <x id="100"/>'])


def test_restore_rejects_a_token_in_a_text_without_placeholders() -> None:
    with pytest.raises(PlaceholderMismatch, match="unknown token"):
        protect_placeholders("Save").restore(['Enregistrer <x id="0"/>'])


def test_restore_rejects_a_broken_token() -> None:
    with pytest.raises(PlaceholderMismatch, match="missing"):
        protect_placeholders("Hi %s").restore(['Salut <x id="0">'])


def test_restore_rejects_the_wrong_number_of_translations() -> None:
    with pytest.raises(PlaceholderMismatch, match="expected 2 translations, got 1"):
        protect_placeholders(PLURAL).restore(["un"])


def test_placeholder_mismatch_is_a_value_error() -> None:
    assert issubclass(PlaceholderMismatch, ValueError)


# --- verify ----------------------------------------------------------------------------------


def test_verify_accepts_the_same_placeholders_in_another_order() -> None:
    assert verify_placeholders("{{a}} and %s <b>x</b>", "<b>y</b> %s et {{a}}") is None


def test_verify_treats_i18next_placeholders_as_i18next_reads_them() -> None:
    # i18next trims `{{ … }}` and around its format's comma (seen in Outline's Italian).
    assert verify_placeholders("Connect {{ provider }}", "Connetti {{provider}}") is None
    assert verify_placeholders("{{count, number}} items", "{{ count,number }} articoli") is None
    assert verify_placeholders("{{ a }} {{ a }}", "{{a}}") == "missing {{a}}"
    assert verify_placeholders("{{ name }}", "{{ nom }}") == "missing {{name}}; extra {{nom}}"


def test_verify_reports_a_missing_placeholder() -> None:
    assert verify_placeholders("Hi {{name}}", "Salut") == "missing {{name}}"


def test_verify_reports_an_extra_placeholder() -> None:
    assert verify_placeholders("Hi", "Salut %s") == "extra %s"


def test_verify_reports_an_introduced_i18next_placeholder() -> None:
    assert verify_placeholders("Hi {{name}}", "Salut {{name}} {{x}}") == "extra {{x}}"


def test_verify_reports_a_placeholder_count_change() -> None:
    assert verify_placeholders("%s %s", "%s") == "missing %s"
    assert verify_placeholders("%s", "%s %s %s") == "extra 2 × %s"


def test_verify_reports_a_dropped_newline() -> None:
    assert verify_placeholders("one\ntwo", "un deux") == "missing \\n"


def test_verify_reports_a_broken_tag() -> None:
    assert verify_placeholders("<b>Save</b>", "<b>Enregistrer</b") == "missing </b>"


def test_verify_reports_a_swapped_icu_keyword() -> None:
    translated = "{count, plural, few {# article} other {# articles}}"
    assert verify_placeholders(PLURAL, translated) == (
        "ICU branch `one` missing from {count, plural}; ICU branch `few` added to {count, plural}"
    )


def test_verify_reports_a_changed_icu_kind() -> None:
    translated = "{count, select, one {# article} other {# articles}}"
    assert verify_placeholders(PLURAL, translated) == "ICU {count, plural} became select"


def test_verify_reports_a_translated_icu_keyword() -> None:
    translated = "{count, pluriel, un {# article} autre {# articles}}"
    assert verify_placeholders(PLURAL, translated) == (
        "extra {count, pluriel, un {# article} autre {# articles}}; ICU {count, plural} missing"
    )


def test_verify_reports_a_placeholder_missing_inside_a_branch() -> None:
    translated = "{count, plural, one {un article} other {# articles}}"
    assert verify_placeholders(PLURAL, translated) == (
        "missing # in ICU branch `one` of {count, plural}"
    )


def test_verify_locates_a_difference_in_a_nested_branch() -> None:
    source = "{g, select, female {{n, plural, one {# cat} other {# cats}}} other {pets}}"
    translated = source.replace("one {# cat}", "one {un chat}")
    assert verify_placeholders(source, translated) == (
        "missing # in ICU branch `one` of {n, plural} in ICU branch `female` of {g, select}"
    )


def test_verify_reports_a_changed_offset() -> None:
    source = "{n, plural, offset:1 one {a} other {b}}"
    assert verify_placeholders(source, "{n, plural, one {a} other {b}}") == (
        "ICU {n, plural} offset 0, expected 1"
    )


def test_signature_ignores_text_and_order() -> None:
    assert placeholder_signature("a {{x}} b %s") == placeholder_signature("%s c {{x}}")
    assert placeholder_signature("{{x}}") != placeholder_signature("{{y}}")


# --- properties ------------------------------------------------------------------------------

_WORDS = st.sampled_from(["Save", "file", "you", "l'", "it's", "ça", "日本語", "x", "Item"])
_GLUE = st.sampled_from([*" !-'#%$<>{}/=:\n\t", "  ", ", ", "''", "\r\n", "42"])
_PLACEHOLDERS = st.sampled_from(
    "|".join(
        [
            '{{name}}|{{count, number}}|{{- raw}}|$t(common.ok)|$t(key, {"n": {{n}} })',
            "{name}|{n, number}|{d, date, short}|'{'|'{literal}'",
            "%s|%d|%1$s|%(name)s|%.2f|%%",
            '<b>|</b>|<0>|</0>|<br/>|<a href="/x?a=1">',
        ]
    ).split("|")
)


def _message(choices: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.lists(_WORDS | _GLUE | _PLACEHOLDERS | choices, max_size=8).map("".join)


@st.composite
def _choices(draw: st.DrawFn, bodies: st.SearchStrategy[str]) -> str:
    kind = draw(st.sampled_from(["plural", "select", "selectordinal"]))
    keys = draw(
        st.lists(
            st.sampled_from(["=0", "one", "few", "other", "male"]),
            min_size=1,
            max_size=4,
            unique=True,
        )
    )
    offset = " offset:1" if kind == "plural" and draw(st.booleans()) else ""
    branches = " ".join(f"{key} {{{draw(bodies)}}}" for key in keys)
    return f"{{count, {kind},{offset} {branches}}}"


_structured = st.recursive(
    _message(st.nothing()), lambda inner: _message(_choices(inner)), max_leaves=6
)
_syntax_soup = st.text(alphabet=" ab'#{},<>/%$\n=\t", max_size=40)
_texts = _structured | _syntax_soup | st.text(max_size=40)


@pytest.mark.slow
@settings(max_examples=examples(400))
@given(_texts)
def test_restoring_the_masked_texts_gives_back_the_source(text: str) -> None:
    assert identity(protect_placeholders(text)) == text


@pytest.mark.slow
@settings(max_examples=examples(300))
@given(_structured | _syntax_soup)
def test_a_translation_that_only_changes_letters_passes_verification(text: str) -> None:
    protected = protect_placeholders(text)
    translated = protected.restore([shout(unit.masked) for unit in protected.units])
    assert verify_placeholders(text, translated) is None


@pytest.mark.slow
@given(_texts)
def test_units_are_trimmed_and_number_their_tokens_in_order(text: str) -> None:
    for unit in protect_placeholders(text).units:
        assert unit.masked == unit.masked.strip()
        assert [int(n) for n in TOKEN.findall(unit.masked)] == list(range(len(unit.tokens)))


@given(st.text(alphabet=" 0123456789.,!?-—'#%$\n{}"))
def test_text_without_letters_has_no_units(text: str) -> None:
    assert protect_placeholders(text).units == []


@pytest.mark.slow
@given(_texts)
def test_a_text_verifies_against_itself(text: str) -> None:
    assert verify_placeholders(text, text) is None


def _tokenized(protected: ProtectedText) -> int:
    return next(i for i, unit in enumerate(protected.units) if unit.tokens)


@pytest.mark.slow
@given(_structured, st.sampled_from(["drop", "duplicate", "rename"]))
def test_restore_catches_every_token_mangling(text: str, mangling: str) -> None:
    protected = protect_placeholders(text)
    assume(any(unit.tokens for unit in protected.units))
    target = _tokenized(protected)
    masked = [unit.masked for unit in protected.units]
    first = TOKEN.search(masked[target])
    assert first is not None
    replacement = {
        "drop": "",
        "duplicate": first.group() * 2,
        "rename": f'<x id="{int(first[1]) + 100}"/>',
    }[mangling]
    masked[target] = masked[target].replace(first.group(), replacement, 1)
    with pytest.raises(PlaceholderMismatch):
        protected.restore(masked)


@pytest.mark.slow
@given(_structured, st.sampled_from(["{{x}}", "%s", "<i>", "\n"]))
def test_verify_catches_a_placeholder_the_translation_adds(text: str, added: str) -> None:
    protected = protect_placeholders(text)
    assume(protected.units)
    masked = [unit.masked for unit in protected.units]
    masked[0] += added + "z"
    translated = protected.restore(masked)
    assert verify_placeholders(text, translated) is not None


@pytest.mark.slow
@settings(max_examples=examples(300))
@given(_texts, _texts)
def test_a_texts_own_verify_says_what_verify_placeholders_says(text: str, other: str) -> None:
    protected = protect_placeholders(text)
    for translation in (other, text, other):  # the second call uses the remembered source side
        assert protected.verify(translation) == verify_placeholders(text, translation)


@pytest.mark.slow
@settings(max_examples=examples(300))
@given(_texts, st.data())
def test_verify_of_a_restored_translation_says_what_verify_placeholders_says(
    text: str, data: st.DataObject
) -> None:
    # Translations that keep every token, in any order, with any text (placeholders too)
    # around them: mostly the same placeholders as the source, sometimes more.
    protected = protect_placeholders(text)
    translations = []
    for unit in protected.units:
        tokens = data.draw(st.permutations([f'<x id="{i}"/>' for i in range(len(unit.tokens))]))
        glue = data.draw(st.lists(_WORDS | _GLUE | _PLACEHOLDERS, min_size=len(tokens) + 1))
        translations.append("".join(g + t for g, t in zip(glue, [*tokens, ""], strict=False)))
    restored = protected.restore(translations)
    for _ in range(2):  # the second call uses the remembered source side
        assert protected.verify(restored) == verify_placeholders(text, restored)


@pytest.mark.parametrize(
    ("text", "translation", "restored"),
    [
        ("Save", "Sichern", "Sichern"),
        ("  Save now ", " Jetzt sichern  ", "  Jetzt sichern "),
        ("Save\t", "Sichern", "Sichern\t"),
    ],
)
def test_a_plain_text_gets_its_edges_back(text: str, translation: str, restored: str) -> None:
    protected = protect_placeholders(text)
    assert protected.restore([translation]) == restored
    assert protected.verify(restored) is None


@pytest.mark.parametrize(
    ("translation", "problem"),
    [("Sichern {{name}}", "extra {{name}}"), ("Sichern %s", "extra %s")],
)
def test_a_plain_text_whose_translation_invents_a_placeholder_fails(
    translation: str, problem: str
) -> None:
    protected = protect_placeholders("Save")
    assert protected.verify(protected.restore([translation])) == problem


def test_a_plain_text_whose_translation_invents_a_token_is_a_mismatch() -> None:
    with pytest.raises(PlaceholderMismatch, match="unknown token"):
        protect_placeholders("Save").restore(['Sichern <x id="0"/>'])


def _restored_and_verified(protected: ProtectedText, translations: dict[str, str]) -> str:
    """What `ProtectedText.translation` must give: `restore`, then `verify` (the general path)."""
    restored = protected.restore([translations[unit.key] for unit in protected.units])
    problem = protected.verify(restored)
    if problem is not None:
        raise PlaceholderMismatch(problem)
    return restored


def _outcome(settle: Callable[[], str]) -> str:
    try:
        return settle()
    except (PlaceholderMismatch, KeyError) as exc:
        return f"{type(exc).__name__}: {exc}"


_MANGLED = st.sampled_from(["drop", "repeat", "rename", "invent", "edges"])


@pytest.mark.slow
@settings(max_examples=examples(400))
@given(_texts, st.data())
def test_a_translation_is_what_restoring_then_verifying_gives(
    text: str, data: st.DataObject
) -> None:
    # Plain texts take a shorter way; every text and every mangled translation (lost, repeated
    # or unknown tokens, invented placeholders, whitespace) must come out as the general path.
    protected = protect_placeholders(text)
    translations: dict[str, str] = {}
    for unit in protected.units:
        tokens = [f'<x id="{i}"/>' for i in range(len(unit.tokens))]
        match data.draw(_MANGLED | st.none()):
            case "drop" if tokens:
                tokens.pop()
            case "repeat" if tokens:
                tokens.append(tokens[0])
            case "rename":
                tokens.append(f'<x id="{len(tokens) + 100}"/>')
            case "invent":
                tokens.append(data.draw(_PLACEHOLDERS | _GLUE))
        glue = data.draw(st.lists(_WORDS | _GLUE, min_size=len(tokens) + 1))
        translated = "".join(g + t for g, t in zip(glue, [*tokens, ""], strict=False))
        edges = data.draw(st.sampled_from(["", " ", "\n", " \t"]))
        translations[unit.key] = edges + translated + edges
    assert _outcome(lambda: protected.translation(translations)) == _outcome(
        lambda: _restored_and_verified(protected, translations)
    )


@pytest.mark.parametrize(
    ("text", "translation", "outcome"),
    [
        ("Save", " Sichern ", "Sichern"),
        ("  Save now\t", "Jetzt sichern", "  Jetzt sichern\t"),
        ("Save", "Sichern {{name}}", "PlaceholderMismatch: extra {{name}}"),
        ("Save", "Sichern\nJetzt", "PlaceholderMismatch: extra \\n"),
        ("Save", 'Sichern <x id="0"/>', 'PlaceholderMismatch: unit 0: unknown token <x id="0"/>'),
        ("Hi {{name}}", 'Salut <x id="0"/>', "Salut {{name}}"),
        (
            "Hi {{name}}",
            "Salut",
            'PlaceholderMismatch: unit 0: token <x id="0"/> ({{name}}) missing',
        ),
    ],
)
def test_a_translation_is_restored_and_verified(text: str, translation: str, outcome: str) -> None:
    protected = protect_placeholders(text)
    translations = {unit.key: translation for unit in protected.units}
    assert _outcome(lambda: protected.translation(translations)) == outcome


def test_a_text_with_a_unit_not_translated_has_no_translation() -> None:
    with pytest.raises(KeyError):
        protect_placeholders("Save").translation({})
