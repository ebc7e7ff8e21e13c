"""The glossary: where terms match (whole words, longest first, case rules, never inside
placeholders), how they are masked and restored, and how glossary files are read and refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from i18nprune.config import load_config
from i18nprune.config.schema import GlossaryEntry, TranslateConfig
from i18nprune.config.terms import term_problems
from i18nprune.envelope import Code, ProblemError
from i18nprune.placeholders import PlaceholderMismatch, protect_placeholders
from i18nprune.translate.glossary import (
    Glossary,
    GlossaryTerm,
    TargetTerms,
    load_glossary,
)
from tests.properties import examples

TOKEN = re.compile(r'<x id="\d+"/>')


def terms(*entries: tuple[str, dict[str, str], bool], target: str = "de") -> TargetTerms:
    glossary = Glossary(GlossaryTerm(t, tr, cs, "test") for t, tr, cs in entries)
    found = glossary.for_target(target)
    assert found is not None
    return found


def matched(finder: TargetTerms, text: str) -> list[str]:
    return [text[start:end] for start, end, _ in finder.find(text)]


ACME = terms(("Acme Cloud", {"de": "Acme Wolke"}, True), ("Acme", {}, True))


def masked_units(text: str, finder: TargetTerms) -> list[str]:
    return [unit.masked for unit in protect_placeholders(text, finder).units]


def identity(text: str, finder: TargetTerms) -> str:
    protected = protect_placeholders(text, finder)
    restored = protected.restore([unit.masked for unit in protected.units])
    assert protected.verify(restored) is None
    return restored


# --- matching ----------------------------------------------------------------------------------


def test_a_term_matches_only_as_a_whole_word() -> None:
    finder = terms(("Go", {}, True))
    assert matched(finder, "Go is fun") == ["Go"]
    assert matched(finder, "Google and GoLang, Go_x, Go2") == []
    assert matched(finder, "(Go), «Go»: Go.") == ["Go", "Go", "Go"]


def test_combining_marks_continue_a_word() -> None:
    finder = terms(("Cafe", {}, True))
    assert matched(finder, "Cafe\u0301 open") == []  # "Café" with a combining accent
    assert matched(finder, "Cafe open") == ["Cafe"]


def test_scripts_without_spaces_need_no_word_boundary() -> None:
    assert matched(terms(("云", {}, True)), "我的云计算") == ["云"]
    # a Latin brand name touching Chinese or Japanese text is still a word
    assert matched(ACME, "Acme Cloud的用户") == ["Acme Cloud"]
    assert matched(ACME, "Acme Cloudを使う") == ["Acme Cloud"]
    # Korean particles attach to the noun
    assert matched(terms(("클라우드", {}, True)), "클라우드를 사용") == ["클라우드"]


def test_the_longest_term_wins_where_terms_overlap() -> None:
    assert matched(ACME, "Acme Cloud by Acme") == ["Acme Cloud", "Acme"]
    finder = terms(("Acme Cloud", {}, True), ("Cloud Storage", {}, True), ("Acme", {}, True))
    # "Cloud Storage" is longer than "Acme Cloud"; "Acme" still fits before it
    assert matched(finder, "Acme Cloud Storage") == ["Acme", "Cloud Storage"]


def test_a_longer_term_that_fails_its_boundary_leaves_room_for_a_shorter_one() -> None:
    assert matched(ACME, "Acme Cloudy days") == ["Acme"]


def test_case_sensitive_terms_match_their_exact_spelling() -> None:
    assert matched(ACME, "ACME CLOUD and acme") == []


def test_case_insensitive_terms_match_any_case_and_keep_the_source_spelling() -> None:
    finder = terms(("acme cloud", {}, False))
    assert matched(finder, "ACME CLOUD, Acme Cloud") == ["ACME CLOUD", "Acme Cloud"]
    assert identity("Try ACME CLOUD now", finder) == "Try ACME CLOUD now"
    assert masked_units("Try ACME CLOUD now", finder) == ['Try <x id="0"/> now']


def test_a_translation_for_the_language_serves_its_regions() -> None:
    glossary = Glossary([GlossaryTerm("Acme Cloud", {"de": "Acme Wolke"}, True, "test")])
    for target, expected in [("de", "Acme Wolke"), ("de-AT", "Acme Wolke"), ("fr", "Acme Cloud")]:
        finder = glossary.for_target(target)
        assert finder is not None
        assert identity("Acme Cloud", finder) == expected
    assert Glossary().for_target("de") is None


# --- masking and restoring ---------------------------------------------------------------------


def test_terms_are_masked_as_tokens_and_restored_in_their_target_form() -> None:
    assert masked_units("Welcome to Acme Cloud, by Acme!", ACME) == [
        'Welcome to <x id="0"/>, by <x id="1"/>!'
    ]
    assert identity("Welcome to Acme Cloud, by Acme!", ACME) == "Welcome to Acme Wolke, by Acme!"


def test_a_translation_may_move_the_term() -> None:
    protected = protect_placeholders("Acme Cloud is here", ACME)
    assert protected.restore(['Hier ist <x id="0"/>']) == "Hier ist Acme Wolke"


def test_a_term_inside_a_placeholder_or_tag_is_not_masked() -> None:
    finder = terms(("Acme", {"de": "ACME-DE"}, True))
    text = 'Use {{Acme}}, {Acme}, %(Acme)s and <Acme title="Acme">Acme</Acme>'
    assert masked_units(text, finder) == [
        'Use <x id="0"/>, <x id="1"/>, <x id="2"/> and <x id="3"/><x id="4"/><x id="5"/>'
    ]
    assert identity(text, finder) == (
        'Use {{Acme}}, {Acme}, %(Acme)s and <Acme title="Acme">ACME-DE</Acme>'
    )


def test_terms_are_masked_inside_icu_branch_text_but_not_in_its_syntax() -> None:
    finder = terms(("Acme", {"de": "Akme"}, True))
    text = "{Acme, plural, one {# Acme file} other {# files of Acme}}"
    assert masked_units(text, finder) == [
        '<x id="0"/> <x id="1"/> file',
        '<x id="0"/> files of <x id="1"/>',
    ]
    assert identity(text, finder) == "{Acme, plural, one {# Akme file} other {# files of Akme}}"


def test_a_text_that_is_only_a_term_needs_no_provider() -> None:
    protected = protect_placeholders("Acme Cloud", ACME)
    assert protected.units == []
    assert protected.restore([]) == "Acme Wolke"


def test_a_translation_that_drops_a_term_token_is_refused() -> None:
    protected = protect_placeholders("Welcome to Acme Cloud", ACME)
    with pytest.raises(PlaceholderMismatch, match="glossary term `Acme Cloud`"):
        protected.restore(["Willkommen bei der Wolke"])


def test_verify_finds_a_target_form_that_is_missing() -> None:
    protected = protect_placeholders("Welcome to Acme Cloud", ACME)
    assert protected.verify("Willkommen") == "missing glossary term `Acme Wolke`"
    assert protected.verify("Willkommen bei Acme Wolke") is None


def test_the_cache_key_tells_masked_terms_apart_but_not_their_target_form() -> None:
    plain = protect_placeholders("Welcome to Acme Cloud").units[0]
    german = protect_placeholders("Welcome to Acme Cloud", ACME).units[0]
    french = terms(("Acme Cloud", {"fr": "Acme Nuage"}, True), target="fr")
    other_form = protect_placeholders("Welcome to Acme Cloud", french).units[0]
    assert plain.key != german.key  # adding a term never reuses a translation that saw it
    assert german.key == other_form.key  # the masked translation is restored with any form
    assert TOKEN.findall(german.masked) == ['<x id="0"/>']


# --- checking entries --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("term", "translations", "problem"),
    [
        ("", {}, (("term",), "must not be empty")),
        (" Acme", {}, (("term",), "must not start or end with whitespace")),
        ("Acme {name}", {}, (("term",), "must not contain placeholders, tags, braces or newlines")),
        ("Acme <b>", {}, (("term",), "must not contain placeholders, tags, braces or newlines")),
        (
            "Acme",
            {"German": "x"},
            (("translations", "German"), "is not a locale code (`de`, `pt-BR`)"),
        ),
        ("Acme", {"de": ""}, (("translations", "de"), "must not be empty")),
        (
            "Acme",
            {"de": "%s"},
            (("translations", "de"), "must not contain placeholders, tags, braces or newlines"),
        ),
    ],
)
def test_unusable_entries_are_named(
    term: str, translations: dict[str, str], problem: tuple[tuple[str, ...], str]
) -> None:
    assert term_problems(term, translations) == [problem]


def test_usable_entries_have_no_problem() -> None:
    assert term_problems("C++ & Acme's", {"pt-BR": "Acme", "de": "Ä"}) == []


# --- glossary files ----------------------------------------------------------------------------


def load(
    root: Path, name: str, content: str, glossary: list[GlossaryEntry] | None = None
) -> Glossary:
    (root / name).write_text(content, encoding="utf-8")
    return load_glossary(TranslateConfig(glossary_file=name, glossary=glossary or []), root)


def refusal(root: Path, name: str, content: str | None) -> str:
    if content is not None:
        (root / name).write_text(content, encoding="utf-8")
    with pytest.raises(ProblemError) as caught:
        load_glossary(TranslateConfig(glossary_file=name), root)
    issue = caught.value.issue
    assert issue.code == Code.GLOSSARY_INVALID
    return issue.message


def test_a_csv_glossary_has_a_header_of_term_case_and_locale_columns(tmp_path: Path) -> None:
    glossary = load(
        tmp_path,
        "glossary.csv",
        "\ufeffterm,caseSensitive,de,pt-BR\n"
        "Acme Cloud, true , Acme Wolke,\n"  # cells are trimmed
        '"Acme, Inc.",false,,"Acme, Ltda."\n'
        "\n"
        "Acme\n",
    )
    assert [(t.term, dict(t.translations), t.case_sensitive, t.origin) for t in glossary.terms] == [
        ("Acme Cloud", {"de": "Acme Wolke"}, True, "glossary.csv:2"),
        ("Acme, Inc.", {"pt-br": "Acme, Ltda."}, False, "glossary.csv:3"),
        ("Acme", {}, True, "glossary.csv:5"),
    ]


def test_a_json_glossary_is_shaped_like_the_config_list(tmp_path: Path) -> None:
    entries = [
        {"term": "Acme Cloud", "translations": {"de": "Acme Wolke"}},
        {"term": "acme", "caseSensitive": False},
    ]
    glossary = load(tmp_path, "glossary.json", json.dumps(entries, indent=2))
    assert [(t.term, dict(t.translations), t.case_sensitive) for t in glossary.terms] == [
        ("Acme Cloud", {"de": "Acme Wolke"}, True),
        ("acme", {}, False),
    ]
    assert glossary.terms[1].origin == "glossary.json:8"


def test_config_terms_replace_the_file_terms_they_repeat(tmp_path: Path) -> None:
    glossary = load(
        tmp_path,
        "glossary.csv",
        "term,de\nAcme Cloud,Datei-Wolke\nWidget,Dings\n",
        glossary=[GlossaryEntry(term="acme cloud", translations={"de": "Konfig-Wolke"})],
    )
    assert [(t.term, dict(t.translations), t.origin) for t in glossary.terms] == [
        ("acme cloud", {"de": "Konfig-Wolke"}, "translate.glossary[0]"),
        ("Widget", {"de": "Dings"}, "glossary.csv:3"),
    ]


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("missing.csv", None, "missing.csv: the glossary file does not exist; create it or fix"),
        ("glossary.txt", "", "glossary.txt: translate.glossaryFile must be a `.csv` or `.json`"),
        ("g.csv", "", "g.csv:1: the glossary is empty; start with a header"),
        ("g.csv", "Acme,de\n", "g.csv:1: the first row must be a header naming a `term` column"),
        (
            "g.csv",
            "term,German\n",
            "g.csv:1: column `German` is neither `term`, `caseSensitive` nor",
        ),
        ("g.csv", "term,de\nA,B\nX,Y,Z\n", "g.csv:3: 3 cells but the header has 2 columns"),
        ("g.csv", "term,caseSensitive\nA,maybe\n", "g.csv:2: `caseSensitive` must be `true` or"),
        ("g.csv", "term,de\n\n ,x\n", "g.csv:3: `term` must not be empty"),
        ("g.csv", "term,de\nAcme,{x}\n", "g.csv:2: `de` must not contain placeholders"),
        ("g.csv", "term\nAcme\n\nacme\n", "g.csv:4: the term `acme` is already defined at g.csv:2"),
        (
            "g.json",
            '[\n  {"term": "A"},\n]',
            "g.json:2:16: invalid JSON: trailing comma before `]`",
        ),
        ("g.json", '{"term": "A"}', "g.json:1: the glossary must be a JSON list of entries"),
        (
            "g.json",
            '[{"term": "A"},\n {"trem": "B"}]',
            "g.json:2: `[1]`: Object contains unknown field `trem`",
        ),
        (
            "g.json",
            '[{"term": "A"},\n {"term": 3}]',
            "g.json:2: `[1].term`: Expected `str`, got `int`",
        ),
        (
            "g.json",
            '[{"term": "A"},\n {"term": "B",\n  "translations": {"de": " "}}]',
            "g.json:3: `[1].translations.de` must not be empty",
        ),
    ],
)
def test_a_bad_glossary_file_is_refused_with_its_line(
    tmp_path: Path, name: str, content: str | None, message: str
) -> None:
    assert refusal(tmp_path, name, content).startswith(message)


def test_a_glossary_file_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    (tmp_path / "g.csv").write_bytes(b"term\nCaf\xe9\n")
    with pytest.raises(ProblemError, match=r"g\.csv:2: is not UTF-8 text; save it as UTF-8"):
        load_glossary(TranslateConfig(glossary_file="g.csv"), tmp_path)


def test_a_glossary_file_outside_the_project_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (tmp_path / "g.csv").write_text("term\nAcme\n")
    with pytest.raises(ProblemError) as caught:
        load_glossary(TranslateConfig(glossary_file="../g.csv"), root)
    assert caught.value.issue.code == Code.PATH_OUTSIDE_ROOT


# --- config entries ----------------------------------------------------------------------------


def config_refusal(root: Path, glossary: list[dict[str, object]]) -> str:
    config = {"translate": {"glossary": glossary}}
    (root / "i18nprune.config.json").write_text(json.dumps(config, indent=2))
    with pytest.raises(ProblemError) as caught:
        load_config(root, env={})
    assert caught.value.issue.code == Code.CONFIG_INVALID
    return caught.value.issue.message.removeprefix(f"{root / 'i18nprune.config.json'}:")


def test_a_config_entry_with_an_empty_term_is_refused_with_its_line(tmp_path: Path) -> None:
    message = config_refusal(tmp_path, [{"term": "Acme"}, {"term": " "}])
    assert message == "8: `translate.glossary[1].term` must not be empty"


def test_a_term_given_twice_in_the_config_is_refused(tmp_path: Path) -> None:
    message = config_refusal(tmp_path, [{"term": "Acme"}, {"term": "ACME"}])
    assert message == (
        "8: `translate.glossary[1].term` repeats the term of `translate.glossary[0]` (`ACME`); "
        "keep one of them"
    )


def test_valid_config_entries_load(tmp_path: Path) -> None:
    config = {"translate": {"glossary": [{"term": "Acme", "translations": {"pt_BR": "Ácme"}}]}}
    (tmp_path / "i18nprune.config.json").write_text(json.dumps(config))
    loaded = load_config(tmp_path, env={})
    assert loaded.config.translate.glossary == [
        GlossaryEntry(term="Acme", translations={"pt_BR": "Ácme"})
    ]
    glossary = load_glossary(loaded.config.translate, tmp_path)
    finder = glossary.for_target("pt-BR")
    assert finder is not None and identity("Acme", finder) == "Ácme"


# --- properties --------------------------------------------------------------------------------

_VOCABULARY = st.sampled_from(
    [
        "Acme", "acme", "ACME", "Acme Cloud", "Acmeville", "Cloud", "云", "计算", "Go", "go",
        "{{Acme}}", "{name}", "%s", "<b>", "</b>", "<Acme/>", "#", "'", "\n", "the", "é", "\u0301",
    ]
)  # fmt: skip
_SEPARATORS = st.sampled_from(["", " ", ", ", "-", "_"])
_MESSAGES = st.lists(st.tuples(_VOCABULARY, _SEPARATORS), max_size=8).map(
    lambda pieces: "".join(word + separator for word, separator in pieces)
)
_TEXTS = _MESSAGES | st.tuples(_MESSAGES, _MESSAGES).map(
    lambda pair: f"{pair[0]} {{n, plural, one {{{pair[0]}}} other {{{pair[1]}}}}}"
)
_FINDER = terms(("Acme Cloud", {}, True), ("acme", {}, False), ("云", {}, True), ("Go", {}, True))


@pytest.mark.slow
@settings(max_examples=examples(300))
@given(_TEXTS)
def test_terms_kept_verbatim_restore_the_source_exactly(text: str) -> None:
    assert identity(text, _FINDER) == text


_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyzé", "ABCDEFGHIJKLMNOPQRSTUVWXYZÉ")


def shout(masked: str) -> str:
    """A "translation" that upper-cases every letter outside the tokens."""
    pieces = re.split(r'(<x id="\d+"/>)', masked)
    return "".join(
        piece if index % 2 else piece.translate(_UPPER) for index, piece in enumerate(pieces)
    )


@pytest.mark.slow
@settings(max_examples=examples(300))
@given(_TEXTS)
def test_a_translation_keeps_every_term_as_the_source_spells_it(text: str) -> None:
    protected = protect_placeholders(text, _FINDER)
    translated = protected.restore([shout(unit.masked) for unit in protected.units])
    assert protected.verify(translated) is None
    kept = [text[start:end] for start, end, _ in _FINDER.find(text)]
    for term in kept:
        assert translated.count(term) >= kept.count(term)
