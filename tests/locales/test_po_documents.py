"""gettext PO files: strict reading with file:line errors, entry-by-entry editing that keeps
every untouched byte, fuzzy as needsReview, headers for new targets (locales.podoc)."""

from __future__ import annotations

from pathlib import Path

import pytest

from i18nprune.envelope import Code, ProblemError
from i18nprune.locales.documents import (
    counterpart_style,
    load_document,
    new_document,
    read_locale_tree,
)
from i18nprune.locales.jsonfile import LocaleFileError
from i18nprune.locales.positions import file_positions

SOURCE = """\
msgid ""
msgstr ""
"Language: en\\n"
"Plural-Forms: \\n"
"X-Generator: @lingui/cli\\n"

#. placeholder {0}: user.name
#: src/Hello.tsx:3
msgid "Hello {0}"
msgstr "Hello {0}"

#: src/Menu.tsx
msgctxt "menu"
msgid "Open"
msgstr "Open"

#: src/Long.tsx
msgid ""
"A long text that "
"spans lines."
msgstr ""
"A long text that "
"spans lines."
"""

TARGET = """\
msgid ""
msgstr ""
"Language: de\\n"

#. placeholder {0}: user.name
#: src/Hello.tsx:3
msgid "Hello {0}"
msgstr "Hallo {0}"

# translator: check this one
#, fuzzy, javascript-format
msgctxt "menu"
msgid "Open"
msgstr "Öffnen"

msgid "A long text that spans lines."
msgstr ""

#~ msgid "Gone"
#~ msgstr "Weg"
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_keys_are_msgids_with_their_context_and_untranslated_entries_are_missing(tmp_path):
    assert read_locale_tree(write(tmp_path, "de.po", TARGET), "de.po") == {
        "Hello {0}": "Hallo {0}",
        "menu\x04Open": {"value": "Öffnen", "needsReview": True},
    }
    assert read_locale_tree(write(tmp_path, "en.po", SOURCE), "en.po") == {
        "Hello {0}": "Hello {0}",
        "menu\x04Open": "Open",
        "A long text that spans lines.": "A long text that spans lines.",
    }


def test_a_translation_set_changes_only_its_msgstr_line(tmp_path):
    path = write(tmp_path, "de.po", TARGET)
    document = load_document(path, "de.po")
    assert not document.set("Hello {0}", "Servus {0}")
    assert document.save(root=tmp_path)
    assert path.read_text() == TARGET.replace('msgstr "Hallo {0}"', 'msgstr "Servus {0}"')


def test_accepting_a_fuzzy_translation_clears_only_the_flag(tmp_path):
    path = write(tmp_path, "de.po", TARGET)
    document = load_document(path, "de.po")
    assert document.get("menu\x04Open") == {"value": "Öffnen", "needsReview": True}
    document.set("menu\x04Open", "Öffnen")
    assert document.render().decode() == TARGET.replace(
        "#, fuzzy, javascript-format\n", "#, javascript-format\n"
    )
    document.set("menu\x04Open", {"value": "Öffnen", "needsReview": True})
    assert document.render().decode() == TARGET.replace(
        "#, fuzzy, javascript-format\n", "#, fuzzy, javascript-format\n"
    )


def test_an_untranslated_entry_gets_its_translation_in_place(tmp_path):
    path = write(tmp_path, "de.po", TARGET)
    document = load_document(path, "de.po")
    assert document.set("A long text that spans lines.", "Ein langer Text.")
    assert document.render().decode() == TARGET.replace(
        'spans lines."\nmsgstr ""\n', 'spans lines."\nmsgstr "Ein langer Text."\n'
    )


def test_a_removed_entry_stays_as_an_obsolete_one_with_its_translator_comments(tmp_path):
    path = write(tmp_path, "de.po", TARGET)
    document = load_document(path, "de.po")
    assert document.delete("menu\x04Open")
    assert document.render().decode() == TARGET.replace(
        'msgctxt "menu"\nmsgid "Open"\nmsgstr "Öffnen"\n',
        '#~ msgctxt "menu"\n#~ msgid "Open"\n#~ msgstr "Öffnen"\n',
    )
    # references and extracted comments describe code that no longer names it: dropped
    assert document.delete("Hello {0}")
    document.save(root=tmp_path)
    assert '\n#~ msgid "Hello {0}"\n#~ msgstr "Hallo {0}"\n' in path.read_text()
    assert "src/Hello.tsx" not in path.read_text()
    assert read_locale_tree(path, "de.po") == {}


def test_a_new_entry_goes_after_the_one_the_source_puts_before_it(tmp_path):
    path = write(tmp_path, "de.po", TARGET)
    document = load_document(path, "de.po")
    order = ["Hello {0}", "Bye", "menu\x04Open"]
    assert document.set("Bye", "Tschüss\nbis bald", order=order)
    assert "\n".join(document.render().decode().split("\n")[7:13]) == (
        'msgstr "Hallo {0}"\n\nmsgid "Bye"\nmsgstr ""\n"Tschüss\\n"\n"bis bald"'
    )


def test_a_new_target_gets_the_sources_header_with_its_language_and_plural_forms(tmp_path):
    source = load_document(write(tmp_path, "en/messages.po", SOURCE), "en/messages.po")
    target = new_document(tmp_path / "pl/messages.po", counterpart_style(source, "pl"))
    target.set_many([("Hello {0}", "Cześć {0}"), ("menu\x04Open", "Otwórz")])
    text = target.render().decode()
    assert text.startswith('msgid ""\nmsgstr ""\n"Language: pl\\n"\n"Plural-Forms: nplurals=3;')
    assert '"X-Generator: @lingui/cli\\n"\n' in text
    assert text.endswith('msgctxt "menu"\nmsgid "Open"\nmsgstr "Otwórz"\n')
    assert read_locale_tree(write(tmp_path, "pl.po", text), "pl.po") == {
        "Hello {0}": "Cześć {0}",
        "menu\x04Open": "Otwórz",
    }


PLURAL_SOURCE = """\
msgid ""
msgstr ""
"Language: en\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgid "Welcome"
msgstr "Welcome"

#. a count of files
#: app.py:9
#, python-format
msgid "%(n)d file"
msgid_plural "%(n)d files"
msgstr[0] "%(n)d file"
msgstr[1] "%(n)d files"
"""

POLISH = """\
msgid ""
msgstr ""
"Language: pl\\n"
"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 ? 1 : 2);\\n"

msgid "Welcome"
msgstr "Witaj"

# checked by Ola
#, fuzzy, python-format
msgid "%(n)d file"
msgid_plural "%(n)d files"
msgstr[0] "%(n)d plik"
msgstr[1] ""
msgstr[2] "%(n)d plików"

#~ msgid "Gone"
#~ msgid_plural "Gones"
#~ msgstr[0] "Weg"
"""

FILE = "%(n)d file"


def test_a_plural_entry_is_one_key_whose_value_is_its_forms(tmp_path):
    assert read_locale_tree(write(tmp_path, "en.po", PLURAL_SOURCE), "en.po") == {
        "Welcome": "Welcome",
        FILE: ["%(n)d file", "%(n)d files"],
    }
    # a fuzzy entry's forms are marked for review; an empty form is missing (no leaf)
    polish = read_locale_tree(write(tmp_path, "pl.po", POLISH), "pl.po")
    review = {"needsReview": True}
    assert polish[FILE] == [
        {"value": "%(n)d plik", **review},
        {},
        {"value": "%(n)d plików", **review},
    ]
    document = load_document(tmp_path / "pl.po", "pl.po")
    assert document.paths() == ["Welcome", f"{FILE}[0]", f"{FILE}[2]"]
    assert document.get(f"{FILE}[1]") is None


def test_an_entry_whose_forms_are_all_empty_is_not_translated(tmp_path):
    text = POLISH.replace('"%(n)d plik"', '""').replace('"%(n)d plików"', '""')
    assert FILE not in read_locale_tree(write(tmp_path, "pl.po", text), "pl.po")


def test_a_form_set_changes_only_its_msgstr_line_and_the_flag(tmp_path):
    path = write(tmp_path, "pl.po", POLISH)
    document = load_document(path, "pl.po")
    assert document.set(f"{FILE}[1]", "%(n)d pliki")
    assert document.save(root=tmp_path)
    assert path.read_text() == POLISH.replace('msgstr[1] ""', 'msgstr[1] "%(n)d pliki"').replace(
        "#, fuzzy, python-format", "#, python-format"
    )


def test_a_form_the_entry_lacks_is_added_after_its_last_but_never_past_nplurals(tmp_path):
    text = POLISH.replace('msgstr[2] "%(n)d plików"\n', "")
    path = write(tmp_path, "pl.po", text)
    document = load_document(path, "pl.po")
    assert not document.set(f"{FILE}[3]", "too many")
    assert document.set(f"{FILE}[2]", {"value": "%(n)d plików", "needsReview": True})
    document.save(root=tmp_path)
    assert path.read_text() == POLISH


def test_a_new_plural_entry_has_every_form_of_its_files_language(tmp_path):
    source = load_document(write(tmp_path, "en.po", PLURAL_SOURCE), "en.po")
    style = counterpart_style(source, "ar")
    document = new_document(tmp_path / "ar.po", style)
    order = ["Welcome", f"{FILE}[0]", f"{FILE}[1]"]
    assert not document.set(f"{FILE}[0]", "", order=order)
    assert document.set("Welcome", "أهلا", order=order)
    document.save(root=tmp_path)
    text = (tmp_path / "ar.po").read_text()
    assert text.endswith(
        '\nmsgid "Welcome"\nmsgstr "أهلا"\n\n'
        "#. a count of files\n#: app.py:9\n#, python-format\n"
        'msgid "%(n)d file"\nmsgid_plural "%(n)d files"\n'
        + "".join(f'msgstr[{n}] ""\n' for n in range(6))
    )
    assert '"Plural-Forms: nplurals=6; plural=(n == 0 ? 0 : n == 1 ? 1' in text


def test_removing_any_form_makes_the_whole_entry_obsolete(tmp_path):
    path = write(tmp_path, "pl.po", POLISH)
    document = load_document(path, "pl.po")
    assert document.delete(f"{FILE}[2]")
    assert not document.delete(f"{FILE}[0]")
    document.save(root=tmp_path)
    entry = POLISH[POLISH.index('msgid "%(n)d file"') : POLISH.index("\n\n#~ msgid")]
    obsolete = "\n".join(f"#~ {line}" for line in entry.split("\n"))
    assert path.read_text() == POLISH.replace(entry, obsolete)
    assert read_locale_tree(path, "pl.po") == {"Welcome": "Witaj"}


def test_a_template_is_the_source_text_and_is_never_translated_into(tmp_path):
    template = (
        '#, fuzzy\nmsgid ""\nmsgstr ""\n"Language: \\n"\n"Plural-Forms: nplurals=INTEGER; '
        'plural=EXPRESSION;\\n"\n"Content-Type: text/plain; charset=CHARSET\\n"\n\n'
        'msgid "Welcome"\nmsgstr ""\n\n'
        'msgid "%(n)d file"\nmsgid_plural "%(n)d files"\nmsgstr[0] ""\nmsgstr[1] ""\n'
    )
    path = write(tmp_path, "messages.pot", template)
    assert read_locale_tree(path, "messages.pot") == {
        "Welcome": "Welcome",
        FILE: ["%(n)d file", "%(n)d files"],
    }
    document = load_document(path, "messages.pot")
    with pytest.raises(ProblemError) as raised:
        document.set("Welcome", "Willkommen")
    assert raised.value.issue.code == Code.LOCALE_NOT_EDITABLE
    assert raised.value.issue.message.startswith(
        "messages.pot: `Welcome` cannot be translated in a gettext template (.pot)"
    )
    french = new_document(tmp_path / "fr.po", counterpart_style(document, "fr")).render().decode()
    assert french == (
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n'
        '"Plural-Forms: nplurals=3; plural=(n == 0 || n == 1) ? 0 : '
        'n != 0 && n % 1000000 == 0 ? 1 : 2;\\n"\n'
        '"Content-Type: text/plain; charset=UTF-8\\n"\n'
    )
    assert path.read_text() == template


@pytest.mark.parametrize(
    "forms",
    ['msgstr[1] "a"\nmsgstr[0] "b"\n', 'msgstr[0] "a"\nmsgstr[2] "b"\n', 'msgstr "a"\n'],
)
def test_plural_forms_must_be_numbered_from_zero(tmp_path, forms):
    path = write(tmp_path, "de.po", f'msgid "a"\nmsgid_plural "b"\n{forms}')
    with pytest.raises(LocaleFileError) as raised:
        read_locale_tree(path, "de.po")
    assert raised.value.issue.message.startswith(
        "de.po:1:1: not valid PO: an entry with `msgid_plural`"
    )


@pytest.mark.parametrize(
    ("text", "start"),
    [
        (
            'msgid "a"\nmsgstr "b"\n\nmsgid "a"\nmsgstr "c"\n',
            'de.po:4: the msgid "a" is defined twice (first at line 1)',
        ),
        ('msgid "a"\nmsgstr "b\n', "de.po:2:1: not valid PO: a string must be on one line"),
        ('msgid "a"\nmsgstr "b"\nhello\n', "de.po:3:1: not valid PO: `hello` is not a PO line"),
        (
            'msgid "a"\n\nmsgid "b"\nmsgstr "c"\n',
            "de.po:1:1: not valid PO: an entry without its `msgstr`",
        ),
        ('msgid "a\\q"\nmsgstr ""\n', "de.po:1:9: not valid PO: an unknown escape"),
    ],
)
def test_a_file_that_cannot_be_used_names_its_line_and_is_never_written(tmp_path, text, start):
    path = write(tmp_path, "de.po", text)
    with pytest.raises(LocaleFileError) as raised:
        load_document(path, "de.po")
    assert raised.value.issue.code == Code.LOCALE_INVALID_SYNTAX
    assert raised.value.issue.message.startswith(start), raised.value.issue.message


def test_crlf_files_stay_crlf(tmp_path):
    path = tmp_path / "de.po"
    path.write_bytes(TARGET.replace("\n", "\r\n").encode())
    document = load_document(path, "de.po")
    document.set("Bye", "Tschüss", order=["Bye"])
    rendered = document.render()
    assert b"\r\n" in rendered and b"\n" not in rendered.replace(b"\r\n", b"")


def test_positions_name_each_translated_msgid_line(tmp_path):
    path = write(tmp_path, "de.po", TARGET)
    positions = file_positions(TARGET, path)
    assert positions.position("Hello {0}") == (7, 1)
    assert positions.position("menu\x04Open") == (13, 1)
    assert positions.position("A long text that spans lines.") is None


def test_invalid_utf8_names_its_line_and_column(tmp_path):
    path = tmp_path / "de.po"
    path.write_bytes(b'msgid "a"\nmsgstr "\xff"\n')
    with pytest.raises(LocaleFileError) as raised:
        read_locale_tree(path, "de.po")
    assert raised.value.issue.code == Code.LOCALE_INVALID_SYNTAX
    assert raised.value.issue.message.startswith("de.po:2:9: not valid UTF-8 (byte 0xff)")


def test_a_new_entry_starts_as_its_source_entry_is_written_without_its_translator_notes(tmp_path):
    source_text = (
        'msgid ""\nmsgstr ""\n"Language: en\\n"\n\n'
        "# a note for English translators only\n#. extracted\n#: a.py:1 b.py:2\n"
        '#, fuzzy, python-format\n#| msgid "old"\nmsgctxt "menu"\nmsgid ""\n'
        '"A long text that "\n"wraps."\nmsgstr ""\n"A long text that "\n"wraps."\n'
    )
    source = load_document(write(tmp_path, "en.po", source_text), "en.po")
    document = new_document(tmp_path / "de.po", counterpart_style(source, "de"))
    assert document.set("menu\x04A long text that wraps.", "Ein langer Text.")
    assert (
        document.render()
        .decode()
        .endswith(
            '\n\n#. extracted\n#: a.py:1 b.py:2\n#, python-format\nmsgctxt "menu"\nmsgid ""\n'
            '"A long text that "\n"wraps."\nmsgstr "Ein langer Text."\n'
        )
    )


def test_a_plural_entrys_own_key_is_no_place_for_a_text(tmp_path):
    document = load_document(write(tmp_path, "pl.po", POLISH), "pl.po")
    assert not document.reaches(FILE)
    assert document.reaches(f"{FILE}[1]") and document.reaches("Welcome")
    with pytest.raises(ValueError):
        document.set(FILE, "1 plik")
