"""Apps whose locales are XLIFF through the real CLI: an Angular app with no config
(`src/locale/messages.xlf` and `messages.<locale>.xlf` beside it) found, validated, synced,
translated and reviewed with every byte outside the units touched kept, and `cleanup`
finding every unit named by its templates and `$localize`; and an i18next app with plain
`<locale>.xlf` files whose keys hold dots."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import write_tree

# Texts as Angular's extraction spells them, put into the files below.
HELLO = (
    'Hello <x id="INTERPOLATION" equiv-text="{{ user.name }}"/>, read <x id="START_LINK" '
    'ctype="x-a" equiv-text="&lt;a routerLink=&quot;/faq&quot;&gt;"/>the FAQ<x id="CLOSE_LINK" '
    'ctype="x-a" equiv-text="&lt;/a&gt;"/>'
)
ORDERS = "{VAR_PLURAL, plural, =1 {une commande} other {commandes}}"


def spelled(template: str) -> str:
    return template.replace("HELLO", HELLO).replace("ORDERS", ORDERS)


SOURCE = spelled("""<?xml version="1.0" encoding="UTF-8" ?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en-US" datatype="plaintext" original="ng2.template">
    <body>
      <trans-unit id="nav.home" datatype="html">
        <source>Home</source>
        <context-group purpose="location">
          <context context-type="sourcefile">src/app/app.component.html</context>
          <context context-type="linenumber">2</context>
        </context-group>
        <note priority="1" from="description">The first tab</note>
      </trans-unit>
      <trans-unit id="3547957582396154513" datatype="html">
        <source>HELLO</source>
        <context-group purpose="location">
          <context context-type="sourcefile">src/app/app.component.html</context>
          <context context-type="linenumber">3</context>
        </context-group>
      </trans-unit>
      <trans-unit id="6707105828259657669" datatype="html">
        <source>{VAR_PLURAL, plural, =1 {one order} other {<x id="INTERPOLATION"/> orders}}</source>
        <context-group purpose="location">
          <context context-type="sourcefile">src/app/app.component.html</context>
          <context context-type="linenumber">4</context>
        </context-group>
      </trans-unit>
      <trans-unit id="logout" datatype="html">
        <source>Log out</source>
        <context-group purpose="location">
          <context context-type="sourcefile">src/app/app.component.ts</context>
          <context context-type="linenumber">9</context>
        </context-group>
      </trans-unit>
    </body>
  </file>
</xliff>
""")

FRENCH = spelled("""<?xml version="1.0" encoding="UTF-8" ?>
<!-- Translated by the French team; keep this comment. -->
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en-US" target-language="fr" datatype="plaintext" original="ng2.template">
    <body>
      <trans-unit id="nav.home" datatype="html">
        <source>Home</source>
        <target state="final">Accueil</target>
        <context-group purpose="location">
          <context context-type="sourcefile">src/app/app.component.html</context>
          <context context-type="linenumber">2</context>
        </context-group>
        <note priority="1" from="description">The first tab</note>
      </trans-unit>
      <trans-unit id="3547957582396154513" datatype="html">
        <source>HELLO</source>
        <target state="new">HELLO</target>
        <context-group purpose="location">
          <context context-type="sourcefile">src/app/app.component.html</context>
          <context context-type="linenumber">3</context>
        </context-group>
      </trans-unit>
      <trans-unit id="6707105828259657669" datatype="html">
        <source>{VAR_PLURAL, plural, =1 {one order} other {<x id="INTERPOLATION"/> orders}}</source>
        <target state="translated">ORDERS</target>
        <context-group purpose="location">
          <context context-type="sourcefile">src/app/app.component.html</context>
          <context context-type="linenumber">4</context>
        </context-group>
      </trans-unit>
      <trans-unit id="removedLong" datatype="html">
        <source>Old text</source>
        <target state="translated">Ancien texte</target>
      </trans-unit>
    </body>
  </file>
</xliff>
""")

LOCALE = "src/locale"


def angular_app(root: Path, french: str = FRENCH) -> Path:
    return write_tree(
        root,
        {
            "package.json": {
                "name": "shop",
                "dependencies": {"@angular/core": "^17.0.0", "@angular/localize": "^17.0.0"},
            },
            "angular.json": {
                "projects": {
                    "shop": {
                        "i18n": {
                            "sourceLocale": "en-US",
                            "locales": {"fr": f"{LOCALE}/messages.fr.xlf"},
                        }
                    }
                }
            },
            "src/app/app.component.html": (
                '<a i18n="@@nav.home">Home</a>\n<p i18n>Hello {{ user.name }}, read '
                '<a routerLink="/faq">the FAQ</a></p>\n'
                "<span i18n>{count, plural, =1 {one order} other {{{ count }} orders}}</span>\n"
            ),
            "src/app/app.component.ts": "const label = $localize`:@@logout:Log out`;\n",
            f"{LOCALE}/messages.xlf": SOURCE,
            f"{LOCALE}/messages.fr.xlf": french,
        },
    )


def changed_lines(before: str, after: str) -> list[str]:
    import difflib

    return [
        line
        for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]


INLINE = re.compile(r"<x [^>]*/>")


def test_validate_finds_the_angular_source_and_its_targets_without_a_config(tmp_path, run_cli):
    root = angular_app(tmp_path / "shop")
    listed = run_cli("locales", "list", "--json", cwd=root)
    assert listed.code == 0, listed.stdout
    data = listed.envelope["data"]
    assert data["localesDir"] == LOCALE and data["source"] == "en-us"
    by_code = {locale["code"]: locale for locale in data["locales"]}
    assert by_code["en-us"]["files"] == [f"{LOCALE}/messages.xlf"]
    assert by_code["en-us"]["keys"] == 4
    assert by_code["fr"]["keys"] == 4 and by_code["fr"]["extra"] == 1
    result = run_cli("validate", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["sourceLocale"] == "en-us"


def test_sync_copies_the_missing_unit_and_drops_the_lost_one_keeping_every_other_byte(
    tmp_path, run_cli
):
    root = angular_app(tmp_path / "shop")
    result = run_cli("sync", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["writtenFiles"] == [f"{LOCALE}/messages.fr.xlf"]
    after = (root / LOCALE / "messages.fr.xlf").read_text()
    assert changed_lines(FRENCH, after) == [
        '-      <trans-unit id="removedLong" datatype="html">',
        "-        <source>Old text</source>",
        '-        <target state="translated">Ancien texte</target>',
        '+      <trans-unit id="logout" datatype="html">',
        "+        <source>Log out</source>",
        "+        <target>Log out</target>",
        '+        <context-group purpose="location">',
        '+          <context context-type="sourcefile">src/app/app.component.ts</context>',
        '+          <context context-type="linenumber">9</context>',
        "+        </context-group>",
    ]
    assert (root / LOCALE / "messages.xlf").read_text() == SOURCE
    again = run_cli("sync", "--check", "--json", cwd=root)
    assert again.code == 0, again.stdout


def test_generate_makes_a_target_from_the_source_with_every_inline_element(tmp_path, run_cli):
    root = angular_app(tmp_path / "shop")
    result = run_cli("generate", "--target", "de", "--provider", "pseudo", "--json", cwd=root)
    assert result.code == 0, result.stdout
    german = (root / LOCALE / "messages.de.xlf").read_text()
    assert 'source-language="en-US" target-language="de"' in german
    pairs = re.findall(r"<source>(.*?)</source>\n\s*<target>(.*?)</target>", german)
    assert len(pairs) == 4
    for source, target in pairs:
        assert INLINE.findall(source) == INLINE.findall(target)
        assert source != target
    without_targets = re.sub(r"\n\s*<target>.*?</target>", "", german)
    assert without_targets == SOURCE.replace(
        'source-language="en-US"', 'source-language="en-US" target-language="de"'
    )
    assert (root / "i18nprune.lock.json").exists()


def test_generate_translates_units_still_new_and_review_accepts_them(tmp_path, run_cli):
    root = angular_app(tmp_path / "shop")
    result = run_cli("generate", "--target", "fr", "--provider", "pseudo", "--json", cwd=root)
    assert result.code == 0, result.stdout
    after = (root / LOCALE / "messages.fr.xlf").read_text()
    changed = changed_lines(FRENCH, after)
    # The unit still `new` is translated and marked; the missing one is copied and translated;
    # the final and translated ones stay as they are.
    assert [line.split(">")[0] for line in changed if "<target" in line] == [
        '-        <target state="new"',
        '+        <target state="needs-review-translation"',
        "+        <target",  # a new leaf is plain text, as in JSON (`--metadata` marks it)
    ]
    assert "[Ĥéļļó <x" in after and ">[Ļóĝ óúţ" in after
    assert "Accueil" in after and "Ancien texte" in after
    review = run_cli("review", "--target", "fr", "--json", cwd=root)
    assert review.code == 0, review.stdout
    marked = {entry["path"] for entry in review.envelope["data"]["marks"]}
    assert marked == {"3547957582396154513"}
    accepted = run_cli("review", "--target", "fr", "--accept", "all", "--yes", "--json", cwd=root)
    assert accepted.code == 0, accepted.stdout
    final = (root / LOCALE / "messages.fr.xlf").read_text()
    assert final.count('state="needs-review-translation"') == 0
    marked_line = next(line for line in after.splitlines() if "needs-review-translation" in line)
    assert changed_lines(after, final) == [
        f"-{marked_line}",
        "+" + marked_line.replace("needs-review-translation", "translated"),
    ]


def test_quality_names_a_target_that_lost_an_inline_element(tmp_path, run_cli):
    broken = FRENCH.replace(
        ORDERS,
        '{VAR_PLURAL, plural, =1 {une commande} other {<x id="INTERPOLATION"/> commandes}}',
    ).replace('state="final">Accueil', 'state="final">Accueil <x id="INTERPOLATION"/>')
    root = angular_app(tmp_path / "shop", broken)
    result = run_cli("quality", "--json", cwd=root)
    findings = result.envelope["data"]["findings"]
    placeholder_keys = {finding["path"] for finding in findings if "placeholder" in finding["kind"]}
    assert placeholder_keys == {"nav.home"}, findings
    where = next(finding for finding in findings if finding["path"] == "nav.home")
    assert (where["file"], where["line"]) == (f"{LOCALE}/messages.fr.xlf", 6)


def test_cleanup_finds_every_unit_named_by_the_templates_and_localize(tmp_path, run_cli):
    # The custom `@@nav.home`, the message with an interpolation and a link, the plural and
    # `$localize`'s `@@logout`: every unit is named, so nothing is offered (`cleanup` on a
    # unit no code names: tests/cli/test_angular_i18n_app.py).
    root = angular_app(tmp_path / "shop")
    before = {path: path.read_bytes() for path in (root / LOCALE).iterdir()}
    result = run_cli("cleanup", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["keys"] == []
    assert {path: path.read_bytes() for path in (root / LOCALE).iterdir()} == before


def test_a_broken_target_is_named_at_its_line_and_never_written(tmp_path, run_cli):
    broken = FRENCH.replace('<target state="final">Accueil</target>', "<target>Accueil")
    root = angular_app(tmp_path / "shop", broken)
    result = run_cli("validate", "--json", cwd=root)
    messages = [issue["message"] for issue in result.envelope["issues"]]
    # The unclosed `<target>` (line 8) is found where its unit's end tag does not match it.
    assert any(message.startswith(f"{LOCALE}/messages.fr.xlf:14:9:") for message in messages), (
        messages
    )
    run_cli("sync", "--yes", "--json", cwd=root)
    assert (root / LOCALE / "messages.fr.xlf").read_text() == broken


PLAIN_EN = """<?xml version="1.0" encoding="UTF-8"?>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="en">
  <file id="app">
    <unit id="nav.home">
      <segment>
        <source>nav.home</source>
        <target>Home</target>
      </segment>
    </unit>
    <unit id="nav.unused">
      <segment>
        <source>nav.unused</source>
        <target>Unused</target>
      </segment>
    </unit>
  </file>
</xliff>
"""


def test_plain_locale_files_with_dotted_ids_work_with_missing_and_sync(tmp_path, run_cli):
    root = write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": {"src": ["src"], "locales": {"directory": "locales"}},
            "src/nav.ts": "import i18next from 'i18next';\ni18next.t('nav.home');\n"
            "i18next.t('nav.cart');\n",
            "locales/en.xlf": PLAIN_EN,
            "locales/fr.xlf": PLAIN_EN.replace('trgLang="en"', 'trgLang="fr"')
            .replace("<target>Home</target>", "<target>Accueil</target>")
            .replace("<target>Unused</target>", "<target></target>"),
        },
    )
    result = run_cli("missing", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["paths"] == ["nav.cart"]
    english = (root / "locales/en.xlf").read_text()
    assert '<unit id="nav.cart">' in english and english.startswith(PLAIN_EN[:-30])
    assert '"nav": ' not in english
    synced = run_cli("sync", "--yes", "--json", cwd=root)
    assert synced.code == 0, synced.stdout
    french = (root / "locales/fr.xlf").read_text()
    assert '<unit id="nav.cart">' in french and "<target>Accueil</target>" in french


def test_sync_drops_a_unit_the_source_lost_that_was_never_translated(tmp_path, run_cli):
    draft = (
        '      <trans-unit id="draftBanner" datatype="html">\n'
        "        <source>Draft</source>\n"
        "        <target/>\n"
        "      </trans-unit>\n"
    )
    french = FRENCH.replace("    </body>", draft + "    </body>")
    root = angular_app(tmp_path / "shop", french)
    planned = run_cli("sync", "--dry-run", "--json", cwd=root)
    assert planned.code == 0, planned.stdout
    assert planned.envelope["data"]["files"] == [
        {"path": f"{LOCALE}/messages.fr.xlf", "changed": True, "added": 1, "removed": 2}
    ]
    result = run_cli("sync", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    after = (root / LOCALE / "messages.fr.xlf").read_text()
    assert "draftBanner" not in after and "removedLong" not in after
    synced = angular_app(tmp_path / "plain")
    assert run_cli("sync", "--yes", "--json", cwd=synced).code == 0
    assert after == (synced / LOCALE / "messages.fr.xlf").read_text()


# An i18next app whose French file came back from an agency's translation tool, which split
# units into sentences (`<segment>`s, the space between them an `<ignorable>`) and moved a
# trailing space out of its segment.
SEGMENTED_EN = """<?xml version="1.0" encoding="UTF-8"?>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en">
  <file id="app">
    <unit id="intro">
      <segment>
        <source>Welcome. Read the guide.</source>
      </segment>
    </unit>
    <unit id="hello">
      <segment>
        <source>Hello </source>
      </segment>
    </unit>
    <unit id="steps">
      <segment>
        <source>One. Two.</source>
      </segment>
    </unit>
  </file>
</xliff>
"""

SEGMENTED_FR = """<?xml version="1.0" encoding="UTF-8"?>
<!-- Segmented by the agency's tool; keep this comment. -->
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="fr">
  <file id="app">
    <unit id="intro">
      <segment id="1" state="initial">
        <source>Welcome.</source>
        <target>Bienvenue.</target>
      </segment>
      <ignorable>
        <source> </source>
      </ignorable>
      <segment id="2" state="initial">
        <source>Read the guide.</source>
        <target>Lisez le guide.</target>
      </segment>
    </unit>
    <unit id="hello">
      <segment id="1">
        <source>Hello</source>
      </segment>
      <ignorable>
        <source xml:space="preserve"> </source>
      </ignorable>
    </unit>
    <unit id="steps">
      <segment id="1">
        <source>One.</source>
      </segment>
      <ignorable>
        <source> </source>
      </ignorable>
      <segment id="2">
        <source>Two.</source>
      </segment>
    </unit>
    <unit id="retired">
      <segment id="1">
        <source>Gone.</source>
      </segment>
    </unit>
  </file>
</xliff>
"""


def segmented_app(root: Path) -> Path:
    return write_tree(
        root,
        {
            "i18nprune.config.json": {"src": ["src"], "locales": {"directory": "locales"}},
            "src/page.ts": "import i18next from 'i18next';\n"
            "export const texts = () => [t('intro'), t('hello'), t('steps')];\n"
            "const t = (key: string) => i18next.t(key);\n",
            "locales/en.xlf": SEGMENTED_EN,
            "locales/fr.xlf": SEGMENTED_FR,
        },
    )


def test_sync_fills_each_segment_with_its_source_and_drops_the_lost_unit(tmp_path, run_cli):
    root = segmented_app(tmp_path / "app")
    result = run_cli("sync", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    after = (root / "locales/fr.xlf").read_text()
    expected = (
        SEGMENTED_FR.replace(
            "<source>Hello</source>\n", "<source>Hello</source>\n        <target>Hello</target>\n"
        )
        .replace(
            "<source>One.</source>\n", "<source>One.</source>\n        <target>One.</target>\n"
        )
        .replace(
            "<source>Two.</source>\n", "<source>Two.</source>\n        <target>Two.</target>\n"
        )
    )
    retired = expected.index('    <unit id="retired">')
    expected = expected[:retired] + expected[expected.index("  </file>") :]
    assert after == expected
    listed = run_cli("locales", "list", "--json", cwd=root).envelope["data"]["locales"]
    assert next(locale for locale in listed if locale["code"] == "fr")["keys"] == 3


def test_review_accepts_every_segment_of_a_unit(tmp_path, run_cli):
    root = segmented_app(tmp_path / "app")
    result = run_cli("review", "--target", "fr", "--accept", "all", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert (root / "locales/fr.xlf").read_text() == SEGMENTED_FR.replace(
        'state="initial"', 'state="translated"'
    )


def test_generate_writes_every_other_unit_and_names_the_one_whose_segments_cannot_take_it(
    tmp_path, run_cli
):
    root = segmented_app(tmp_path / "app")
    result = run_cli("generate", "--target", "fr", "--provider", "pseudo", "--json", cwd=root)
    assert result.code == 1, result.stdout
    [refusal] = [
        issue
        for issue in result.envelope["issues"]
        if issue["code"] == "i18nprune.locale.not_editable"
    ]
    assert refusal["message"].startswith(
        'locales/fr.xlf:26: the unit "steps" has several segments, and the new text is neither'
    )
    assert (
        "translate it in your XLIFF tool, or merge its segments into one <segment>"
        in (refusal["message"])
    )
    assert "`fr` keeps it untranslated" in refusal["message"]
    [fr] = result.envelope["data"]["targetResults"]
    assert (fr["status"], fr["partial"], fr["failedLeafCount"]) == ("written", True, 1)
    assert fr["translatedLeafCount"] == 1
    # "hello" took its translation; "steps" is as it was, every other byte too.
    written = (root / "locales/fr.xlf").read_text()
    hello = re.search(r'<unit id="hello">.*?<target>(.*?)</target>', written, re.DOTALL)
    assert hello is not None and hello.group(1) not in ("", "Hello")
    assert written == SEGMENTED_FR.replace(
        "<source>Hello</source>\n",
        f"<source>Hello</source>\n        <target>{hello.group(1)}</target>\n",
    )
    # A second run tries only "steps" again, its translation from the cache, nothing sent.
    again = run_cli("generate", "--target", "fr", "--provider", "pseudo", "--json", cwd=root)
    assert again.code == 1, again.stdout
    [fr] = again.envelope["data"]["targetResults"]
    assert (fr["cachedLeafCount"], fr["failedLeafCount"], fr["translatedLeafCount"]) == (1, 1, 0)
    assert [issue["message"][:32] for issue in again.envelope["issues"]] == [
        'locales/fr.xlf:27: the unit "ste'
    ]
    assert (root / "locales/fr.xlf").read_text() == written
