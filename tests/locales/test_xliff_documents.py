"""XLIFF 1.2 and 2.0 files: unit ids as flat keys, targets (or an Angular source's sources) as
values, inline elements kept through translation, edits spliced into the original text, and
files that must not be read refused with their line and column."""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest

from i18nprune.config.schema import LocalesConfig
from i18nprune.envelope import Code, ProblemError
from i18nprune.locales.documents import (
    counterpart_style,
    load_document,
    new_document,
    parse_locale_text,
    read_locale_tree,
)
from i18nprune.locales.formats import counterpart_name, locale_stem, unlocalised_source
from i18nprune.locales.jsonfile import LocaleFileError
from i18nprune.locales.layout import discover_locales
from i18nprune.locales.positions import file_positions
from i18nprune.locales.xliffdoc import may_hold_untranslated
from i18nprune.placeholders import protect_placeholders, verify_placeholders
from i18nprune.translate.pseudo import pseudo_localize

# Inline elements as Angular (1.2) and XLIFF 2.0 spell them, put into the files below.
HELLO = (
    'Hello <x id="INTERPOLATION" equiv-text="{{ user.name &gt; 1 }}"/>, see <x id="START_LINK" '
    'ctype="x-a" equiv-text="&lt;a href=&quot;/faq&quot;&gt;"/>the FAQ<x id="CLOSE_LINK" '
    'ctype="x-a" equiv-text="&lt;/a&gt;"/>'
)
BOOKS = (
    '{VAR_PLURAL, plural, =1 {One <g id="1" ctype="x-b">book</g>} other '
    '{<x id="INTERPOLATION"/> books}}'
)
PRESS = 'Press <bpt id="1">&lt;b&gt;</bpt>Save<ept id="1">&lt;/b&gt;</ept> <ph id="2">{0}</ph>'
HI = 'Hi <ph id="0" equiv="INTERPOLATION" disp="{{ name }}"/>, '
PC_OPEN = (
    '<pc id="1" equivStart="START_BOLD_TEXT" equivEnd="CLOSE_BOLD_TEXT" dispStart="&lt;b&gt;" '
    'dispEnd="&lt;/b&gt;">'
)


def spelled(template: str) -> str:
    """`template` with the inline texts above put in."""
    for name, text in (("HELLO", HELLO), ("BOOKS", BOOKS), ("PRESS", PRESS), ("HI", HI)):
        template = template.replace(name, text)
    return template.replace("PC_OPEN", PC_OPEN)


SOURCE_12 = spelled("""<?xml version="1.0" encoding="UTF-8" ?>
<!-- made by ng extract-i18n -->
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en" datatype="plaintext" original="ng2.template">
    <body>
      <trans-unit id="nav.home" datatype="html">
        <source>Home &amp; garden</source>
        <note priority="1" from="description">The first tab</note>
      </trans-unit>
      <trans-unit id="4816216590591222133" datatype="html">
        <source>HELLO</source>
        <context-group purpose="location">
          <context context-type="sourcefile">src/app/app.component.html</context>
          <context context-type="linenumber">4</context>
        </context-group>
      </trans-unit>
      <trans-unit id="1541521390115871091" datatype="html">
        <source>BOOKS</source>
      </trans-unit>
      <trans-unit id="code" datatype="html">
        <source>PRESS</source>
      </trans-unit>
    </body>
  </file>
</xliff>
""")

TARGET_12 = spelled("""<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en" target-language="fr" datatype="plaintext" original="ng2.template">
    <body>
      <trans-unit id="nav.home" datatype="html">
        <source>Home &amp; garden</source>
        <target state="translated">Accueil &amp; jardin</target>
        <note priority="1" from="description">The first tab</note>
      </trans-unit>
      <trans-unit id="4816216590591222133" datatype="html">
        <source>HELLO</source>
        <target state="new">HELLO</target>
      </trans-unit>
      <trans-unit id="1541521390115871091" datatype="html">
        <source>BOOKS</source>
        <target/>
      </trans-unit>
      <trans-unit id="old" datatype="html">
        <source>Gone</source>
        <target state="needs-review-translation">Parti</target>
      </trans-unit>
    </body>
  </file>
</xliff>
""")

SOURCE_20 = spelled("""<?xml version="1.0" encoding="UTF-8"?>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en">
  <file id="ngi18n" original="ng.template">
    <unit id="greeting">
      <notes>
        <note category="description">Shown on the home page</note>
      </notes>
      <segment>
        <source>HIPC_OPENwelcome</pc></source>
      </segment>
    </unit>
    <unit id="bye">
      <segment>
        <source>Bye</source>
      </segment>
    </unit>
  </file>
</xliff>
""")

TARGET_20 = spelled("""<?xml version="1.0" encoding="UTF-8"?>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="de">
  <file id="ngi18n" original="ng.template">
    <unit id="greeting">
      <segment state="initial">
        <source>HIPC_OPENwelcome</pc></source>
        <target>HIPC_OPENwillkommen</pc></target>
      </segment>
    </unit>
    <unit id="bye">
      <segment>
        <source>Bye</source>
        <target>Tschüss</target>
      </segment>
    </unit>
  </file>
</xliff>
""")

INLINE = re.compile(r"<(?:x|g|ph|pc|bpt|ept)\b[^>]*>|</(?:g|pc|bpt|ept|ph)>")


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


def pseudo(text: str) -> str:
    """`text` pseudo-translated the way `generate --provider pseudo` does it."""
    protected = protect_placeholders(text)
    return protected.restore([pseudo_localize(unit.masked) for unit in protected.units])


@pytest.mark.parametrize(
    ("name", "locale", "french", "unlocalised"),
    [
        ("messages.fr.xlf", "fr", "messages.fr.xlf", False),
        ("messages.pt-BR.xliff", "pt-BR", "messages.fr.xliff", False),
        ("messages.xlf", None, "messages.fr.xlf", True),
        ("de.xlf", "de", "fr.xlf", False),
        ("app.messages.xlf", None, "app.messages.fr.xlf", True),
    ],
)
def test_an_xliff_name_carries_its_locale_after_a_dot_or_none(name, locale, french, unlocalised):
    assert locale_stem(name) == locale
    assert counterpart_name(name, "fr") == french
    assert unlocalised_source(name) is unlocalised


def test_json_yaml_and_arb_names_are_read_as_before():
    assert locale_stem("messages.fr.json") == "messages.fr"
    assert not unlocalised_source("messages.json") and not unlocalised_source("messages.yml")
    assert counterpart_name("app_en.arb", "fr") == "app_fr.arb"


def test_a_source_file_holds_its_sources_and_ids_stay_flat(tmp_path):
    path = write(tmp_path / "messages.xlf", SOURCE_12)
    tree = read_locale_tree(path, "messages.xlf")
    assert list(tree) == ["nav.home", "4816216590591222133", "1541521390115871091", "code"]
    assert tree["nav.home"] == "Home & garden"
    assert tree["4816216590591222133"] == HELLO  # inline elements as spelled
    # Text is read (`&lt;b&gt;` is `<b>`), so the native code a `<bpt>` holds is a tag too.
    assert tree["code"] == PRESS.replace("&lt;", "<").replace("&gt;", ">")
    document = load_document(path, "messages.xlf")
    assert document.paths() == list(tree)
    assert document.get("nav.home") == "Home & garden" and document.get("nav") is None


def test_a_target_holds_its_targets_with_states_as_marks_and_no_empty_ones(tmp_path):
    tree = read_locale_tree(write(tmp_path / "messages.fr.xlf", TARGET_12), "messages.fr.xlf")
    assert tree["nav.home"] == "Accueil & jardin"
    assert tree["4816216590591222133"]["needsTranslationAgain"] is True
    assert tree["old"] == {"value": "Parti", "needsReview": True}
    assert "1541521390115871091" not in tree  # `<target/>`: missing


def test_xliff_20_units_segments_and_initial_state(tmp_path):
    assert read_locale_tree(write(tmp_path / "messages.xlf", SOURCE_20), "m") == {
        "greeting": f"{HI}{PC_OPEN}welcome</pc>",
        "bye": "Bye",
    }
    german = parse_locale_text(TARGET_20, "m", tmp_path / "messages.de.xlf")
    assert german["greeting"]["needsReview"] is True
    assert german["bye"] == "Tschüss"


@pytest.mark.parametrize(("source", "name"), [(SOURCE_12, "1.2"), (SOURCE_20, "2.0")])
def test_a_pseudo_translated_target_keeps_every_inline_element_with_its_attributes(
    tmp_path, source, name
):
    source_path = write(tmp_path / "messages.xlf", source)
    origin = load_document(source_path, "messages.xlf")
    target = new_document(tmp_path / "messages.fr.xlf", counterpart_style(origin, "fr"))
    translated = {path: pseudo(str(origin.get(path))) for path in origin.paths()}
    for path, text in translated.items():
        assert verify_placeholders(str(origin.get(path)), text) is None
        target.set(path, {"value": text, "status": "machine", "needsReview": True})
    assert target.save(root=tmp_path)
    written = (tmp_path / "messages.fr.xlf").read_text()
    pairs = re.findall(r"<source>(.*?)</source>\s*<target[^>]*>(.*?)</target>", written, re.S)
    assert len(pairs) == len(translated)
    for source_text, target_text in pairs:
        assert sorted(INLINE.findall(source_text)) == sorted(INLINE.findall(target_text))
        assert source_text != target_text
    back = read_locale_tree(tmp_path / "messages.fr.xlf", "f")
    assert {path: leaf["value"] for path, leaf in back.items()} == translated
    assert all(leaf["needsReview"] for leaf in back.values())
    language = 'target-language="fr"' if name == "1.2" else 'trgLang="fr"'
    assert language in written
    # Everything else is the source's text: notes, context, comments, the declaration.
    stripped = re.sub(r"\s*<target[^>]*>.*?</target>", "", written, flags=re.S)
    stripped = stripped.replace(' state="initial"', "")
    named = source.replace('source-language="en"', f'source-language="en" {language}')
    assert stripped == named.replace('srcLang="en"', f'srcLang="en" {language}')


def test_editing_a_target_changes_only_the_targets_and_units_touched(tmp_path):
    path = write(tmp_path / "messages.fr.xlf", TARGET_12)
    document = load_document(path, "messages.fr.xlf")
    source = load_document(write(tmp_path / "messages.xlf", SOURCE_12), "messages.xlf")
    document.adopt(counterpart_style(source, "fr"))
    document.set("nav.home", "Maison & jardin")
    books = BOOKS.replace("One", "Un").replace("book", "livre")
    document.set("1541521390115871091", books)
    document.delete("old")
    document.set("code", "Appuyez", order=source.paths())
    assert document.save(root=tmp_path)
    after = path.read_text()
    diff = difflib.unified_diff(TARGET_12.splitlines(), after.splitlines(), n=0, lineterm="")
    changed = [line for line in diff if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert changed == [
        '-        <target state="translated">Accueil &amp; jardin</target>',
        '+        <target state="translated">Maison &amp; jardin</target>',
        "-        <target/>",
        f"+        <target>{books}</target>",
        '-      <trans-unit id="old" datatype="html">',
        "-        <source>Gone</source>",
        '-        <target state="needs-review-translation">Parti</target>',
        '+      <trans-unit id="code" datatype="html">',
        f"+        <source>{PRESS}</source>",
        "+        <target>Appuyez</target>",
    ]
    assert read_locale_tree(path, "f")["code"] == "Appuyez"


def test_accepting_a_review_mark_sets_the_state_translated(tmp_path):
    path = write(tmp_path / "messages.fr.xlf", TARGET_12)
    document = load_document(path, "f")
    document.set("old", {"value": "Parti"})
    document.set("4816216590591222133", {"value": "x", "needsReview": True})
    text = document.render().decode()
    assert '<target state="translated">Parti</target>' in text
    assert '<target state="needs-review-translation">x</target>' in text


@pytest.mark.parametrize(
    ("text", "where", "why"),
    [
        ('<xliff version="1.2">\n <file>\n  <body>\n </file>\n</xliff>', ":4:4:", "mismatched tag"),
        (
            '<xliff version="1.2"><file><body>\n<trans-unit id="a"><source>A</source>'
            '</trans-unit>\n  <trans-unit id="a"><source>B</source></trans-unit></body></file>'
            "</xliff>",
            ":3:3:",
            'unit id "a" is used twice',
        ),
        (
            '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 '
            '"&lol;&lol;&lol;&lol;">]>\n<xliff version="1.2"><file><body><trans-unit id="a">'
            "<source>&lol2;</source></trans-unit></body></file></xliff>",
            ":2:",
            "DOCTYPE",
        ),
        (
            '<?xml version="1.0" encoding="ISO-8859-1"?>\n<xliff version="1.2"/>',
            ":1:1:",
            "ISO-8859-1",
        ),
    ],
)
def test_a_file_that_must_not_be_read_is_refused_with_its_place(tmp_path, text, where, why):
    path = write(tmp_path / "messages.fr.xlf", text)
    with pytest.raises(LocaleFileError) as raised:
        read_locale_tree(path, "src/messages.fr.xlf")
    issue = raised.value.issues[0]
    assert issue.code == Code.LOCALE_INVALID_SYNTAX
    assert issue.message.startswith("src/messages.fr.xlf" + where), issue.message
    assert why in issue.message
    with pytest.raises(LocaleFileError):
        load_document(path, "src/messages.fr.xlf")


def test_a_unit_that_cannot_be_spelled_back_is_refused_and_not_written(tmp_path):
    text = TARGET_20.replace(
        "<target>Tschüss</target>\n      </segment>",
        "<target>Tschüss</target>\n      </segment>\n      <segment>\n        <source>!</source>"
        "\n      </segment>",
    ).replace("<target>Hi <ph", "<target>Hi &lt;x/&gt; <ph")
    path = write(tmp_path / "messages.de.xlf", text)
    for key, why in (("bye", "several segments"), ("greeting", "spells an inline tag")):
        document = load_document(path, "messages.de.xlf")
        document.set(key, "neu")
        with pytest.raises(ProblemError) as raised:
            document.save(root=tmp_path)
        assert raised.value.issues[0].code == Code.LOCALE_NOT_EDITABLE
        assert why in raised.value.issues[0].message
    assert path.read_text() == text


def test_positions_name_each_unit_id_where_it_is_spelled(tmp_path):
    positions = file_positions(TARGET_12, tmp_path / "messages.fr.xlf")
    assert positions.position("nav.home") == (4, 22)
    assert positions.position("old") == (17, 22)
    assert file_positions(SOURCE_20, tmp_path / "m.xlf").position("bye") == (12, 14)


def test_angular_layout_names_the_source_file_by_the_configured_source(tmp_path):
    write(tmp_path / "src/locale/messages.xlf", SOURCE_12)
    write(tmp_path / "src/locale/messages.fr.xlf", TARGET_12)
    write(tmp_path / "src/locale/notes.txt", "")
    config = LocalesConfig(source="en-US", directory="src/locale")
    inventory, issues = discover_locales(tmp_path, config)
    assert not issues
    assert {code: [s.rel for s in found] for code, found in inventory.segments.items()} == {
        "en-us": ["src/locale/messages.xlf"],
        "fr": ["src/locale/messages.fr.xlf"],
    }
    assert inventory.segments["en-us"][0].name == "en-US"
    assert inventory.suffix == ".xlf"


def test_an_inline_element_is_the_same_placeholder_whatever_its_display_text():
    # Angular keeps a translation's old `equiv-text` when the template's markup changes; the
    # element is still the one its id names, and quality must not call it lost.
    old = HELLO.replace("{{ user.name &gt; 1 }}", "{{ name }}").replace("Hello", "Salut")
    assert verify_placeholders(HELLO, old) is None
    dropped = re.sub(r'<x id="CLOSE_LINK"[^>]*/>', "", HELLO)
    assert verify_placeholders(HELLO, dropped) == 'missing <x id="CLOSE_LINK" ctype="x-a"/>'
    renamed = HELLO.replace('id="START_LINK"', 'id="START_LINK_1"')
    assert verify_placeholders(HELLO, renamed) is not None
    assert verify_placeholders(f"{HI}{PC_OPEN}a</pc>", f"{PC_OPEN}b</pc> {HI}") is None
    assert verify_placeholders("<b disp='1'>a</b>", "<b disp='2'>b</b>") is None


# A target made by an XLIFF tool that splits units into sentences (`intro`, `first`) and moves
# a trailing space out of the segment (`hello`, as SDL Trados does), and one whose targets
# `order` puts in the other order.
SEGMENTED_20 = """<?xml version="1.0" encoding="UTF-8"?>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="de">
  <file id="f">
    <unit id="intro">
      <segment id="s1" state="initial">
        <source>Welcome.</source>
        <target>Willkommen.</target>
      </segment>
      <ignorable>
        <source> </source>
      </ignorable>
      <segment id="s2" state="initial">
        <source>Read the <pc id="1">guide</pc>.</source>
        <target>Lies die <pc id="1">Anleitung</pc>.</target>
      </segment>
    </unit>
    <unit id="first">
      <segment>
        <source>First.</source>
      </segment>
      <ignorable>
        <source> </source>
      </ignorable>
      <segment>
        <source>Second.</source>
        <target>Zweitens.</target>
      </segment>
    </unit>
    <unit id="hello">
      <segment>
        <source>Hello</source>
      </segment>
      <ignorable>
        <source xml:space="preserve"> </source>
      </ignorable>
    </unit>
    <unit id="swapped">
      <segment>
        <source>A.</source>
        <target order="3">B-de.</target>
      </segment>
      <ignorable>
        <source> </source>
      </ignorable>
      <segment>
        <source>B.</source>
        <target order="1">A-de.</target>
      </segment>
    </unit>
  </file>
</xliff>
"""


def changed_lines(before: str, after: str) -> list[str]:
    diff = difflib.unified_diff(before.splitlines(), after.splitlines(), n=0, lineterm="")
    return [line for line in diff if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def test_a_unit_of_several_segments_reads_its_targets_in_their_order(tmp_path):
    tree = read_locale_tree(write(tmp_path / "messages.de.xlf", SEGMENTED_20), "m")
    assert tree == {
        "intro": {
            "value": 'Willkommen. Lies die <pc id="1">Anleitung</pc>.',
            "needsReview": True,
        },
        "swapped": "A-de. B-de.",
    }


def test_accepting_a_unit_of_several_segments_marks_each_segment(tmp_path):
    path = write(tmp_path / "messages.de.xlf", SEGMENTED_20)
    document = load_document(path, "messages.de.xlf")
    document.set("intro", 'Willkommen. Lies die <pc id="1">Anleitung</pc>.')
    assert document.save(root=tmp_path)
    assert changed_lines(SEGMENTED_20, path.read_text()) == [
        '-      <segment id="s1" state="initial">',
        '+      <segment id="s1" state="translated">',
        '-      <segment id="s2" state="initial">',
        '+      <segment id="s2" state="translated">',
    ]


def test_the_source_text_of_a_unit_of_several_segments_goes_to_each_segment(tmp_path):
    path = write(tmp_path / "messages.de.xlf", SEGMENTED_20)
    document = load_document(path, "messages.de.xlf")
    document.set("first", "First. Second.")
    document.set("intro", 'Welcome. Read the <pc id="1">guide</pc>.')
    assert document.save(root=tmp_path)
    assert changed_lines(SEGMENTED_20, path.read_text()) == [
        '-      <segment id="s1" state="initial">',
        '+      <segment id="s1" state="translated">',
        "-        <target>Willkommen.</target>",
        "+        <target>Welcome.</target>",
        '-      <segment id="s2" state="initial">',
        '+      <segment id="s2" state="translated">',
        '-        <target>Lies die <pc id="1">Anleitung</pc>.</target>',
        '+        <target>Read the <pc id="1">guide</pc>.</target>',
        "+        <target>First.</target>",
        "-        <target>Zweitens.</target>",
        "+        <target>Second.</target>",
    ]


def test_one_segment_takes_the_text_between_the_ignorables_around_it(tmp_path):
    path = write(tmp_path / "messages.de.xlf", SEGMENTED_20)
    document = load_document(path, "messages.de.xlf")
    document.set("hello", {"value": "Hallo ", "needsReview": True})
    assert document.save(root=tmp_path)
    assert changed_lines(SEGMENTED_20, path.read_text()) == [
        "-      <segment>",
        '+      <segment state="initial">',
        "+        <target>Hallo</target>",
    ]
    assert read_locale_tree(path, "m")["hello"] == {"value": "Hallo ", "needsReview": True}


@pytest.mark.parametrize(
    ("key", "text", "line", "why"),
    [
        ("intro", "Hallo. Lies.", 4, "has several segments, and the new text is neither"),
        ("first", "Erstens. Zweitens.", 17, "has several segments"),
        ("hello", "Hallo", 29, "keeps text outside its segment (in an <ignorable>)"),
        ("swapped", "A-de! B-de!", 37, "orders its targets (`order`)"),
    ],
)
def test_a_text_that_does_not_split_among_segments_is_refused_with_its_place(
    tmp_path, key, text, line, why
):
    path = write(tmp_path / "messages.de.xlf", SEGMENTED_20)
    document = load_document(path, "src/locale/messages.de.xlf")
    document.set(key, text)
    with pytest.raises(ProblemError) as raised:
        document.save(root=tmp_path)
    issue = raised.value.issues[0]
    assert issue.code == Code.LOCALE_NOT_EDITABLE
    assert issue.message.startswith(f'src/locale/messages.de.xlf:{line}: the unit "{key}" {why}')
    assert "merge its segments into one <segment>" in issue.message
    assert issue.message.endswith("; the file was not changed")
    assert path.read_text() == SEGMENTED_20


def test_a_new_target_copies_a_unit_of_several_segments_with_its_source_text(tmp_path):
    source_text = re.sub(r"\s*<target[^>]*>.*?</target>", "", SEGMENTED_20)
    source_text = source_text.replace(' trgLang="de"', "").replace(' state="initial"', "")
    origin = load_document(write(tmp_path / "messages.xlf", source_text), "messages.xlf")
    assert origin.get("first") == "First. Second."
    target = new_document(tmp_path / "messages.fr.xlf", counterpart_style(origin, "fr"))
    target.set("first", "First. Second.")
    target.set("hello", "Bonjour ")
    assert target.save(root=tmp_path)
    written = (tmp_path / "messages.fr.xlf").read_text()
    assert "<source>First.</source>\n        <target>First.</target>" in written
    assert "<source>Second.</source>\n        <target>Second.</target>" in written
    assert "<source>Hello</source>\n        <target>Bonjour</target>" in written
    assert read_locale_tree(tmp_path / "messages.fr.xlf", "f") == {
        "first": "First. Second.",
        "hello": "Bonjour ",
    }
    refused = new_document(tmp_path / "messages.it.xlf", counterpart_style(origin, "it"))
    refused.set("first", "Primo. Secondo.")
    with pytest.raises(ProblemError) as raised:
        refused.save(root=tmp_path)
    assert 'the unit "first" has several segments' in raised.value.issues[0].message
    assert not (tmp_path / "messages.it.xlf").exists()


def test_a_unit_without_a_translation_is_dropped_only_when_asked(tmp_path):
    path = write(tmp_path / "messages.fr.xlf", TARGET_12)
    document = load_document(path, "messages.fr.xlf")
    assert document.untranslated() == ["1541521390115871091"]
    assert not document.drop_untranslated("nav.home")  # translated: `delete` removes it
    assert document.drop_untranslated("1541521390115871091")
    assert document.save(root=tmp_path)
    assert changed_lines(TARGET_12, path.read_text()) == [
        '-      <trans-unit id="1541521390115871091" datatype="html">',
        f"-        <source>{BOOKS}</source>",
        "-        <target/>",
        "-      </trans-unit>",
    ]
    source = load_document(write(tmp_path / "messages.xlf", SOURCE_12), "messages.xlf")
    assert source.untranslated() == []


def test_a_file_may_hold_an_untranslated_unit_only_with_more_unit_tags_than_leaves(tmp_path):
    assert not may_hold_untranslated(write(tmp_path / "de.xlf", TARGET_20), 2)
    assert may_hold_untranslated(write(tmp_path / "fr.xlf", TARGET_12), 3)
    prefixed = (
        '<x:xliff version="1.2" xmlns:x="urn:oasis:names:tc:xliff:document:1.2">'
        '<x:file target-language="fr"><x:body><x:trans-unit id="a"><x:source>A</x:source>'
        "</x:trans-unit></x:body></x:file></x:xliff>"
    )
    path = write(tmp_path / "prefixed.xlf", prefixed)
    assert load_document(path, "prefixed.xlf").untranslated() == ["a"]
    assert may_hold_untranslated(path, 0)
