"""YAML locale files: strict reading with file:line errors, and round-trip writing that keeps
comments, order, quoting, layout and anchors (locales.yamldoc), on real files in temp dirs."""

from __future__ import annotations

from pathlib import Path

import pytest

from i18nprune.envelope import Code, ProblemError
from i18nprune.locales.documents import counterpart_style, load_document, new_document
from i18nprune.locales.jsonfile import LocaleFileError
from i18nprune.locales.positions import file_positions
from i18nprune.locales.yamldoc import YamlDocument, read_yaml_file

RAILS = """\
# Copyright (c) Example. Licensed under the MIT licence.
# Keep keys sorted by feature.

en:
  greeting: "Hello, %{name}"   # the home page
  farewell: Goodbye
  nav:
    home: Home
    about: 'About us'
  steps:
  - one
  - two
"""


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_a_rails_file_is_read_below_its_locale_key(tmp_path):
    path = write(tmp_path, "en.yml", RAILS)
    assert read_yaml_file(path, "en.yml") == {
        "greeting": "Hello, %{name}",
        "farewell": "Goodbye",
        "nav": {"home": "Home", "about": "About us"},
        "steps": ["one", "two"],
    }


def test_a_locale_key_that_is_not_the_files_locale_is_an_ordinary_key(tmp_path):
    path = write(tmp_path, "en.yml", "fr:\n  a: b\n")
    assert read_yaml_file(path, "en.yml") == {"fr": {"a": "b"}}


def test_the_locale_key_may_come_from_the_folder(tmp_path):
    path = write(tmp_path, "locales/pt-BR/devise.yml", "pt-BR:\n  devise:\n    ok: Sim\n")
    assert read_yaml_file(path, "devise.yml") == {"devise": {"ok": "Sim"}}


def test_an_edit_keeps_comments_quoting_order_and_layout(tmp_path):
    path = write(tmp_path, "en.yml", RAILS)
    document = load_document(path, "en.yml")
    assert document.set("nav.contact", "Contact", order=["nav.home", "nav.contact", "nav.about"])
    assert not document.set("farewell", "Bye")
    assert document.delete("steps[1]")
    assert document.save(root=tmp_path)
    assert path.read_text() == RAILS.replace("Goodbye", "Bye").replace(
        "    home: Home\n", "    home: Home\n    contact: Contact\n"
    ).replace("  - two\n", "")


def test_an_unedited_document_is_never_rewritten(tmp_path):
    text = "a:    x   # odd spacing\nb: {c: d}\n"
    path = write(tmp_path, "en.yml", text)
    document = load_document(path, "en.yml")
    assert not document.set("a", "x")
    assert document.render() == text.encode()
    assert not document.save(root=tmp_path)


def test_a_replaced_text_keeps_its_quotes_and_new_texts_follow_the_file(tmp_path):
    path = write(tmp_path, "en.yml", "a: 'one'\nb: 'two'\nc: \"three\"\n")
    document = load_document(path, "en.yml")
    document.set("c", "drei")
    document.set("d", "four", order=["a", "b", "c", "d"])
    assert document.render() == b"a: 'one'\nb: 'two'\nc: \"drei\"\nd: 'four'\n"


@pytest.mark.parametrize("text", ["yes", "No", "off", "ON", "y", "1_000", "0x1F", "1:30"])
def test_a_text_a_yaml_1_1_reader_would_not_read_as_text_is_quoted(tmp_path, text):
    path = write(tmp_path, "en.yml", "a: x\n")
    document = load_document(path, "en.yml")
    document.set("b", text, order=["a", "b"])
    rendered = document.render().decode()
    assert rendered == f'a: x\nb: "{text}"\n'
    assert read_yaml_file(write(tmp_path, "out.yml", rendered), "out.yml")["b"] == text


def test_a_text_made_of_words_a_yaml_1_2_reader_keeps_is_read_as_text(tmp_path):
    path = write(tmp_path, "en.yml", "confirm: yes\nmaybe: on\n")
    assert read_yaml_file(path, "en.yml") == {"confirm": "yes", "maybe": "on"}


def test_crlf_and_byte_order_mark_survive_an_edit(tmp_path):
    path = write(tmp_path, "en.yml", b"\xef\xbb\xbfa: x\r\nb:\r\n    c: y\r\n")
    document = load_document(path, "en.yml")
    document.set("b.d", "z", order=["a", "b.c", "b.d"])
    assert document.render() == b"\xef\xbb\xbfa: x\r\nb:\r\n    c: y\r\n    d: z\r\n"


def test_a_new_target_is_made_under_its_own_locale_key_in_the_sources_layout(tmp_path):
    source = load_document(write(tmp_path, "en.yml", RAILS), "en.yml")
    style = counterpart_style(source, "pt-BR")
    target = new_document(tmp_path / "pt-BR.yml", style)
    target.set_many([("nav.home", "Início"), ("steps[0]", "um")])
    assert target.save(root=tmp_path)
    assert (
        tmp_path / "pt-BR.yml"
    ).read_text() == "pt-BR:\n  nav:\n    home: Início\n  steps:\n  - um\n"


def test_a_file_that_holds_only_comments_keeps_them_first(tmp_path):
    path = write(tmp_path, "fr.yml", "# Traductions françaises\n")
    document = load_document(path, "fr.yml")
    assert isinstance(document, YamlDocument)
    document.set("a", "b")
    assert document.render() == b"# Traductions fran\xc3\xa7aises\na: b\n"


def test_an_edit_inside_an_anchored_mapping_is_refused_and_nothing_is_written(tmp_path):
    text = "base: &base\n  ok: OK\n  cancel: Cancel\ndialog:\n  <<: *base\n  title: Dialog\n"
    path = write(tmp_path, "en.yml", text)
    document = load_document(path, "en.yml")
    assert read_yaml_file(path, "en.yml")["dialog"] == {
        "title": "Dialog",
        "ok": "OK",
        "cancel": "Cancel",
    }
    document.set("base.ok", "Okay")
    with pytest.raises(ProblemError) as raised:
        document.save(root=tmp_path)
    assert raised.value.issue.code == Code.LOCALE_NOT_EDITABLE
    assert "en.yml:1:" in raised.value.issue.message and "&base" in raised.value.issue.message
    assert path.read_text() == text


def test_removing_a_key_merged_from_an_anchor_is_refused(tmp_path):
    text = "base: &base\n  ok: OK\ndialog:\n  <<: *base\n  title: Dialog\n"
    path = write(tmp_path, "en.yml", text)
    document = load_document(path, "en.yml")
    assert document.delete("dialog.ok")
    with pytest.raises(ProblemError) as raised:
        document.render()
    assert raised.value.issue.code == Code.LOCALE_NOT_EDITABLE
    assert "dialog.ok" in raised.value.issue.message


def test_keys_outside_anchors_stay_editable_and_the_anchors_are_kept(tmp_path):
    text = "base: &base\n  ok: OK\ndialog:\n  <<: *base\n  title: Dialog\nother: x\n"
    path = write(tmp_path, "en.yml", text)
    document = load_document(path, "en.yml")
    document.set("other", "z")
    assert document.render().decode() == text.replace("other: x", "other: z")


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("a: 1\nb: [x\n", "en.yml:3:1", "not valid YAML"),
        ("a: x\nb: y\na: z\n", "en.yml:3:1", 'the key "a" is defined twice'),
        ("a:\n  b: x\n  b: y\n", "en.yml:3:3", 'the key "b" is defined twice'),
        ("a: x\n404: y\n'404': z\n", "en.yml:3:1", 'the key "404" is defined twice'),
        ("a: 2001-12-14\n", "en.yml:1:4", "YAML type"),
        ("a: !!binary aGk=\n", "en.yml:1:4", "YAML type"),
        ("a: x\n---\nb: y\n", "en.yml:2:1", "not valid YAML"),
    ],
)
def test_a_file_that_cannot_be_used_names_its_line_and_is_never_written(
    tmp_path, text, where, words
):
    path = write(tmp_path, "en.yml", text)
    with pytest.raises(LocaleFileError) as raised:
        load_document(path, "en.yml")
    issue = raised.value.issue
    assert issue.code == Code.LOCALE_INVALID_SYNTAX
    assert issue.message.startswith(where) and words in issue.message, issue.message
    assert "it will not be modified" in issue.message


def test_a_top_level_list_is_not_a_locale_file(tmp_path):
    path = write(tmp_path, "en.yml", "- a\n- b\n")
    with pytest.raises(LocaleFileError) as raised:
        read_yaml_file(path, "en.yml")
    assert raised.value.issue.code == Code.LOCALE_NOT_OBJECT


def test_invalid_utf8_names_its_line(tmp_path):
    path = write(tmp_path, "en.yml", b"a: x\nb: \xff\n")
    with pytest.raises(LocaleFileError) as raised:
        read_yaml_file(path, "en.yml")
    assert raised.value.issue.message.startswith("en.yml:2:4: not valid UTF-8 (byte 0xff)")


def test_integer_keys_are_paths_and_are_written_back_as_they_were(tmp_path):
    path = write(tmp_path, "en.yml", "errors:\n  404: Not found\n  500: Oops\n")
    document = load_document(path, "en.yml")
    assert document.paths() == ["errors.404", "errors.500"]
    document.set("errors.500", "Server error")
    assert document.render() == b"errors:\n  404: Not found\n  500: Server error\n"


def test_positions_name_each_key_below_the_locale_key(tmp_path):
    path = write(tmp_path, "en.yml", RAILS)
    positions = file_positions(RAILS, path)
    assert positions.position("greeting") == (5, 3)
    assert positions.position("nav.about") == (9, 5)
    assert positions.position("steps[1]") == (12, 5)
    assert positions.position("en") is None


@pytest.mark.parametrize(
    "head",
    ["---\n", "%YAML 1.2\n---\n", "# Licence header\n---\n# keys below\n", "# only a comment\n"],
)
def test_directives_markers_and_comments_before_the_keys_survive_an_edit(tmp_path, head):
    path = write(tmp_path, "en.yml", head + "a: x\n")
    document = load_document(path, "en.yml")
    document.set("b", "z", order=["a", "b"])
    assert document.render().decode() == head + "a: x\nb: z\n"


def test_lines_no_edit_touched_keep_spacing_ruamel_would_normalise(tmp_path):
    text = (
        "a: trailing space \n"
        "b: a plain text\n"
        "     continued further in\n"
        "c: '\ufeffbyte order mark inside'\n"
        "d: old\n"
    )
    path = write(tmp_path, "en.yml", text)
    document = load_document(path, "en.yml")
    document.set("d", "new")
    assert document.render().decode() == text.replace("d: old", "d: new")
