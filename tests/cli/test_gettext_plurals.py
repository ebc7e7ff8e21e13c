"""gettext plural entries and `.pot` templates through the real CLI: a Python app's
`po/messages.pot` + `po/<lang>.po` found with zero config, targets synced and translated form by
form with each language's number of forms, every other byte kept; in a Lingui app whose code is
read, an unused plural entry is cleaned up whole and an untranslated one is missing."""

from __future__ import annotations

import json
from pathlib import Path

from i18nprune.locales.documents import read_locale_tree
from tests.conftest import write_tree

TEMPLATE = """\
# SOME DESCRIPTIVE TITLE.
#, fuzzy
msgid ""
msgstr ""
"Project-Id-Version: demo 1.0\\n"
"Language: \\n"
"Content-Type: text/plain; charset=CHARSET\\n"
"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n"

#: app/main.py:2
msgid "Welcome"
msgstr ""

#. a count of files
#: app/main.py:3
#, python-format
msgid "%(n)d file"
msgid_plural "%(n)d files"
msgstr[0] ""
msgstr[1] ""

#: app/main.py:4
msgid "{count} user"
msgid_plural "{count} users"
msgstr[0] ""
msgstr[1] ""
"""

POLISH = """\
msgid ""
msgstr ""
"Language: pl\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 ? 1 : 2);\\n"

#: app/main.py:2
msgid "Welcome"
msgstr "Witaj"

# translator: the genitive in form 2
#: app/main.py:4
msgid "{count} user"
msgid_plural "{count} users"
msgstr[0] "{count} użytkownik"
msgstr[1] ""
msgstr[2] "{count} użytkowników"

#~ msgid "Old"
#~ msgstr "Stary"
"""

FILE = "%(n)d file"
USER = "{count} user"


def gettext_app(root: Path) -> Path:
    return write_tree(
        root,
        {
            "app/main.py": (
                "from gettext import gettext as _, ngettext\n"
                "print(_('Welcome'))\n"
                "print(ngettext('%(n)d file', '%(n)d files', 3) % {'n': 3})\n"
                "print(ngettext('{count} user', '{count} users', 2).format(count=2))\n"
            ),
            "po/messages.pot": TEMPLATE,
            "po/pl.po": POLISH,
        },
    )


def configured(root: Path, run_cli) -> Path:
    result = run_cli("init", "--yes", cwd=root)
    assert result.code == 0, result.stdout + result.stderr
    return root


def test_init_reads_the_template_as_the_source_and_its_msgids_as_flat_keys(tmp_path, run_cli):
    root = configured(gettext_app(tmp_path / "app"), run_cli)
    locales = json.loads((root / "i18nprune.config.json").read_text())["locales"]
    assert locales["directory"] == "po"
    assert locales["source"] == "en"
    assert locales["keySeparator"] is False
    assert locales["nsSeparator"] is False


def test_cleanup_refuses_a_template_source_whose_code_is_not_read(tmp_path, run_cli):
    root = configured(gettext_app(tmp_path / "app"), run_cli)
    result = run_cli("cleanup", "--yes", "--force", "--json", cwd=root)
    assert result.code == 1, result.stdout
    assert any(
        issue["code"] == "i18nprune.reference.thin_evidence" and "PO files" in issue["message"]
        for issue in result.envelope["issues"]
    )
    assert (root / "po/messages.pot").read_text() == TEMPLATE
    assert (root / "po/pl.po").read_text() == POLISH


def test_sync_adds_a_plural_entry_with_the_targets_forms_untranslated(tmp_path, run_cli):
    root = configured(gettext_app(tmp_path / "app"), run_cli)
    result = run_cli("sync", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert (root / "po/pl.po").read_text() == POLISH.replace(
        "\n# translator: the genitive in form 2\n",
        "\n#. a count of files\n#: app/main.py:3\n#, python-format\n"
        'msgid "%(n)d file"\nmsgid_plural "%(n)d files"\n'
        'msgstr[0] ""\nmsgstr[1] ""\nmsgstr[2] ""\n\n'
        "# translator: the genitive in form 2\n",
    )
    again = run_cli("sync", "--check", "--json", cwd=root)
    assert again.code == 0, again.stdout
    assert (root / "po/messages.pot").read_text() == TEMPLATE
    # the untranslated entry is missing; the partly translated one, with a third form English
    # lacks and without a second, is neither missing nor extra
    listed = run_cli("locales", "list", "--json", cwd=root).envelope["data"]["locales"]
    polish = next(row for row in listed if row["code"] == "pl")
    assert (polish["missingFromSource"], polish["extra"]) == (1, 0)


def test_generate_fills_only_the_empty_forms_and_marks_the_entry_for_review(tmp_path, run_cli):
    root = configured(gettext_app(tmp_path / "app"), run_cli)
    result = run_cli("generate", "--target", "pl", "--provider", "pseudo", "--json", cwd=root)
    assert result.code == 0, result.stdout
    polish = read_locale_tree(root / "po/pl.po", "pl.po")
    review = {"needsReview": True}
    users = polish[USER]
    assert isinstance(users, list) and len(users) == 3
    assert users[0] == {"value": "{count} użytkownik", **review}
    assert users[2] == {"value": "{count} użytkowników", **review}
    assert isinstance(users[1], dict) and "{count}" in users[1]["value"]
    text = (root / "po/pl.po").read_text()
    # the comments and the other entries stay as they were
    assert text.startswith(POLISH[: POLISH.index("# translator")])
    assert "# translator: the genitive in form 2\n#: app/main.py:4\n#, fuzzy\n" in text
    assert text.endswith('#~ msgid "Old"\n#~ msgstr "Stary"\n')
    files = polish[FILE]
    assert isinstance(files, list) and len(files) == 3


def test_generate_gives_each_language_its_own_number_of_forms(tmp_path, run_cli):
    root = configured(gettext_app(tmp_path / "app"), run_cli)
    result = run_cli("generate", "--target", "ar,ja,de", "--provider", "pseudo", "--json", cwd=root)
    assert result.code == 0, result.stdout
    forms = {"ar": 6, "ja": 1, "de": 2}
    for language, count in forms.items():
        path = root / f"po/{language}.po"
        text = path.read_text()
        assert f'"Language: {language}\\n"' in text
        assert f"nplurals={count};" in text
        assert "charset=UTF-8" in text
        found = read_locale_tree(path, path.name)[FILE]
        assert isinstance(found, list) and len(found) == count
        for form in found:
            value = form["value"] if isinstance(form, dict) else form
            assert isinstance(value, str) and "%(n)d" in value
        # forms the source does not spell (Arabic's zero, two, few, many) are for review
        assert isinstance(found[0], dict) == (language == "ar")
    # Arabic's n = 1 form is its second: that one is the singular's translation
    arabic = read_locale_tree(root / "po/ar.po", "ar.po")[FILE]
    assert isinstance(arabic, list)
    texts = [form["value"] for form in arabic]
    assert texts[1] != texts[0] and texts.count(texts[0]) == 5
    japanese = read_locale_tree(root / "po/ja.po", "ja.po")[FILE]
    german = read_locale_tree(root / "po/de.po", "de.po")[FILE]
    assert isinstance(japanese, list) and isinstance(german, list)
    assert japanese[0] == german[1] != german[0]  # one form: translated from the plural


HEADER = 'msgid ""\nmsgstr ""\n"Language: {}\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n'
PLURALS = """
#. shown on the dashboard
#: src/Old.tsx:4
msgid "{0} old report"
msgid_plural "{0} old reports"
msgstr[0] "{0} old report"
msgstr[1] "{0} old reports"

msgid "One apple"
msgid_plural "Many apples"
msgstr[0] ""
msgstr[1] ""
"""


def lingui_app(root: Path) -> Path:
    return write_tree(
        root,
        {
            "package.json": json.dumps({"dependencies": {"@lingui/core": "5.6.0"}}),
            "lingui.config.ts": (
                "export default { sourceLocale: 'en', locales: ['en', 'de'],\n"
                "  catalogs: [{ path: '<rootDir>/src/locales/{locale}/messages',\n"
                "    include: ['src'] }] };\n"
            ),
            "src/App.tsx": (
                "import { useLingui } from '@lingui/react/macro';\n"
                "export function App() {\n"
                "  const { t } = useLingui();\n"
                "  return <p title={t`One apple`}>{t`Welcome`}</p>;\n}\n"
            ),
            "src/locales/en/messages.po": (
                HEADER.format("en") + '\nmsgid "Welcome"\nmsgstr "Welcome"\n' + PLURALS
            ),
            "src/locales/de/messages.po": (
                HEADER.format("de") + '\nmsgid "Welcome"\nmsgstr "Willkommen"\n' + PLURALS
            ),
        },
    )


def test_validate_finds_a_plural_entry_with_no_form_translated_missing(tmp_path, run_cli):
    root = lingui_app(tmp_path / "app")
    result = run_cli("validate", "--json", cwd=root)
    assert result.envelope["data"]["missing"] == ["One apple"]


def test_cleanup_and_sync_make_an_unused_plural_entry_obsolete_whole(tmp_path, run_cli):
    root = lingui_app(tmp_path / "app")
    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["keys"] == ["{0} old report"]
    result = run_cli("cleanup", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    result = run_cli("sync", "--yes", "--json", cwd=root)  # the target, as after any cleanup
    assert result.code == 0, result.stdout
    unused = PLURALS[: PLURALS.index('\nmsgid "One apple"')]
    for language, welcome in (("en", "Welcome"), ("de", "Willkommen")):
        text = (root / f"src/locales/{language}/messages.po").read_text()
        start = text.index("\n", text.index(f'msgstr "{welcome}"')) + 1
        kept = text[start:]
        assert kept.endswith(PLURALS.replace(unused, "")), kept
        obsolete = kept[: len(kept) - len(PLURALS.replace(unused, ""))]
        # the whole entry, every form, behind `#~`; its references dropped
        assert obsolete.lstrip("\n").startswith("#~ msgid")
        assert all(line.startswith("#") for line in obsolete.strip("\n").split("\n"))
        assert "#:" not in obsolete
        assert "{0} old report" not in str(
            read_locale_tree(root / f"src/locales/{language}/messages.po", "messages.po")
        )


def test_gettexts_own_layout_is_found_and_new_catalogs_go_in_lc_messages(tmp_path, run_cli):
    root = write_tree(
        tmp_path / "app",
        {
            "app/main.py": "from gettext import gettext as _\nprint(_('Welcome'))\n",
            "locale/messages.pot": TEMPLATE,
            "locale/pl/LC_MESSAGES/messages.po": POLISH,
        },
    )
    configured(root, run_cli)
    locales = json.loads((root / "i18nprune.config.json").read_text())["locales"]
    assert (locales["directory"], locales["structure"]) == ("locale", "locale_per_dir")
    result = run_cli("generate", "--target", "fr", "--provider", "pseudo", "--json", cwd=root)
    assert result.code == 0, result.stdout
    french = root / "locale/fr/LC_MESSAGES/messages.po"
    assert '"Language: fr\\n"' in french.read_text()
    assert set(read_locale_tree(french, "messages.po")) == {"Welcome", FILE, USER}
    for command in ("--yes", "--check"):
        result = run_cli("sync", command, "--json", cwd=root)
        assert result.code == 0, result.stdout
    polish = read_locale_tree(root / "locale/pl/LC_MESSAGES/messages.po", "messages.po")
    assert FILE not in polish and polish["Welcome"] == "Witaj"  # added untranslated
    assert 'msgstr[2] ""' in (root / "locale/pl/LC_MESSAGES/messages.po").read_text()


def test_a_msgid_ending_in_an_index_is_no_plural_form(tmp_path, run_cli):
    template = TEMPLATE + '\nmsgid "Step [1]"\nmsgstr ""\n'
    root = write_tree(tmp_path / "app", {"po/messages.pot": template})
    configured(root, run_cli)
    result = run_cli("generate", "--target", "pl", "--provider", "pseudo", "--json", cwd=root)
    assert result.code == 0, result.stdout
    polish = read_locale_tree(root / "po/pl.po", "pl.po")
    assert sorted(polish) == sorted(["Welcome", FILE, USER, "Step [1]"])
    assert polish["Step [1]"] != "Step [1]" and isinstance(polish["Step [1]"], str)
