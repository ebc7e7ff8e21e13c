"""An Angular app with its built-in i18n (`i18n` attributes, `$localize`, XLIFF from `ng
extract-i18n`) through the real CLI with zero config: `@angular/localize` in `package.json`
makes its templates read and its messages key sites under the ids Angular's extractor gives
them, so `validate` names the message the catalog lacks at its line, and `cleanup` and
`sync` act on the one unit no code names, while anything not read keeps `cleanup` refusing.
"""

from __future__ import annotations

from pathlib import Path

from i18nprune.scan.angular_ids import message_id
from tests.cli.test_xliff_locale_apps import FRENCH, LOCALE, SOURCE, angular_app, changed_lines

STALE_ID = message_id("Our old banner")
STALE_UNIT = f"""      <trans-unit id="{STALE_ID}" datatype="html">
        <source>Our old banner</source>
      </trans-unit>
"""


def with_stale_unit(text: str, target: str = "</source>") -> str:
    return text.replace("    </body>", STALE_UNIT.replace("</source>", target) + "    </body>", 1)


STALE_FRENCH = with_stale_unit(
    FRENCH, '</source>\n        <target state="translated">Notre ancienne banni\u00e8re</target>'
)


def app_with_stale_unit(root: Path) -> Path:
    root = angular_app(root, french=STALE_FRENCH)
    (root / LOCALE / "messages.xlf").write_text(with_stale_unit(SOURCE))
    return root


def refusal(result) -> str:
    return next(
        issue["message"]
        for issue in result.envelope["issues"]
        if issue["code"] == "i18nprune.reference.thin_evidence"
    )


def test_validate_names_the_message_the_catalog_lacks_where_the_template_has_it(tmp_path, run_cli):
    root = angular_app(tmp_path / "shop")
    page = root / "src/app/app.component.html"
    page.write_text(page.read_text() + '<button type="submit" i18n>\n  Pay  now\n</button>\n')
    result = run_cli("validate", "--json", cwd=root)
    new_id = message_id(" Pay now\n")  # runs of white space become one space, a lone one stays
    assert result.envelope["data"]["missing"] == [new_id], result.stdout
    listed = run_cli("validate", cwd=root).stdout
    assert f"{new_id}  (src/app/app.component.html:5)" in listed


def test_cleanup_offers_exactly_the_unit_no_template_or_localize_names(tmp_path, run_cli):
    root = app_with_stale_unit(tmp_path / "shop")
    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["keys"] == [STALE_ID]


def test_cleanup_removes_the_unit_keeping_every_other_byte(tmp_path, run_cli):
    root = app_with_stale_unit(tmp_path / "shop")
    result = run_cli("cleanup", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert (root / LOCALE / "messages.xlf").read_text() == SOURCE


def test_sync_prunes_the_unused_unit_from_the_target_only(tmp_path, run_cli):
    root = app_with_stale_unit(tmp_path / "shop")
    result = run_cli("sync", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    french = (root / LOCALE / "messages.fr.xlf").read_text()
    assert STALE_ID not in french
    assert "-        <source>Our old banner</source>" in changed_lines(STALE_FRENCH, french)
    assert STALE_ID in (root / LOCALE / "messages.xlf").read_text()


def test_cleanup_refuses_while_a_template_message_is_not_read_and_names_it(tmp_path, run_cli):
    root = app_with_stale_unit(tmp_path / "shop")
    (root / "src/app/cart.component.html").write_text("<h1>Cart</h1>\n<p i18n>Total {{ sum </p>\n")
    before = {path: path.read_bytes() for path in (root / LOCALE).iterdir()}
    result = run_cli("cleanup", "--yes", "--force", "--json", cwd=root)
    assert result.code == 1, result.stdout
    message = refusal(result)
    assert "1 place(s) are not read (src/app/cart.component.html:2:" in message
    assert {path: path.read_bytes() for path in (root / LOCALE).iterdir()} == before


def test_cleanup_refuses_a_localize_that_is_not_a_tagged_template(tmp_path, run_cli):
    root = app_with_stale_unit(tmp_path / "shop")
    (root / "src/app/labels.ts").write_text("export const label = $localize(parts, count);\n")
    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)
    assert result.code == 1, result.stdout
    assert "src/app/labels.ts:1:22" in refusal(result)


# The same app's catalogs as `ng extract-i18n` writes them with legacy ids on (Angular's
# default before the application builder): a template message's unit is keyed by its SHA-1
# legacy id, as Angular's compiler gives these templates; custom ids and `$localize` in code
# keep theirs. The stale unit is keyed like its neighbours.
LEGACY_IDS = {
    "3547957582396154513": "0d800be3486fe4dfbc5663677d6ebcc9689b3fe1",
    "6707105828259657669": "593df3588f45ee3ba298e95c2ff94cc095bac5a6",
    STALE_ID: "5d3d7c1b2f0e9c1a4b6a8e0f2d4c6b8a0e2f4d6c",
}


def legacy_keyed(text: str) -> str:
    for modern, legacy in LEGACY_IDS.items():
        text = text.replace(f'id="{modern}"', f'id="{legacy}"')
    return text


def legacy_app(root: Path) -> Path:
    root = angular_app(root, french=legacy_keyed(STALE_FRENCH))
    (root / LOCALE / "messages.xlf").write_text(legacy_keyed(with_stale_unit(SOURCE)))
    return root


def test_a_catalog_keyed_by_legacy_ids_lacks_nothing_and_cleanup_offers_its_stale_unit(
    tmp_path, run_cli
):
    root = legacy_app(tmp_path / "shop")
    validated = run_cli("validate", "--json", cwd=root)
    assert validated.envelope["data"]["missing"] == [], validated.stdout
    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["keys"] == [LEGACY_IDS[STALE_ID]]


def test_cleanup_removes_the_stale_legacy_unit_keeping_every_other_byte(tmp_path, run_cli):
    root = legacy_app(tmp_path / "shop")
    result = run_cli("cleanup", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert (root / LOCALE / "messages.xlf").read_text() == legacy_keyed(SOURCE)


def test_a_message_a_legacy_catalog_lacks_is_reported_by_its_legacy_id(tmp_path, run_cli):
    root = legacy_app(tmp_path / "shop")
    page = root / "src/app/app.component.html"
    page.write_text(page.read_text() + "<button i18n>Pay</button>\n")
    result = run_cli("validate", "--json", cwd=root)
    # the SHA-1 of `Pay[]`: the message's text, then its (empty) meaning in brackets
    assert result.envelope["data"]["missing"] == ["506a8569098f2412ee410abf96f805a1eb097987"]


def test_without_localize_among_the_functions_templates_stay_unread(tmp_path, run_cli):
    root = app_with_stale_unit(tmp_path / "shop")
    (root / "i18nprune.config.json").write_text(
        '{"functions": ["t"], "locales": {"directory": "src/locale", "source": "en-US"}}\n'
    )
    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)
    assert result.code == 1, result.stdout
    assert "Angular's templates (`i18n` attributes)" in refusal(result)


def test_cleanup_refuses_where_angular_keeps_white_space_in_messages(tmp_path, run_cli):
    root = app_with_stale_unit(tmp_path / "shop")
    (root / "tsconfig.json").write_text(
        '{\n  "angularCompilerOptions": {\n    "preserveWhitespaces": true\n  }\n}\n'
    )
    (root / "src/app/cart.component.ts").write_text(
        "@Component({\n  templateUrl: './cart.component.html',\n  preserveWhitespaces: true,\n})\n"
        "export class Cart {}\n"
    )
    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)
    assert result.code == 1, result.stdout
    message = refusal(result)
    assert "src/app/cart.component.ts:3:3" in message and "tsconfig.json:3:5" in message


def test_cleanup_refuses_where_a_component_has_its_own_interpolation_delimiters(tmp_path, run_cli):
    # `{{ }}` is text there and `[[ ]]` a placeholder: Angular's ids differ from the ones read
    root = app_with_stale_unit(tmp_path / "shop")
    (root / "src/app/cart.component.ts").write_text(
        "@Component({\n  templateUrl: './cart.component.html',\n"
        "  interpolation: ['[[', ']]'],\n})\nexport class Cart {}\n"
    )
    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)
    assert result.code == 1, result.stdout
    assert "src/app/cart.component.ts:3:3" in refusal(result)


def test_missing_gives_the_source_a_unit_with_the_message_text(tmp_path, run_cli):
    root = angular_app(tmp_path / "shop")
    page = root / "src/app/app.component.html"
    page.write_text(page.read_text() + "<button i18n>Pay now</button>\n")
    result = run_cli("missing", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    new_id = message_id("Pay now")
    assert result.envelope["data"]["paths"] == [new_id]
    source = (root / LOCALE / "messages.xlf").read_text()
    assert f'<trans-unit id="{new_id}"' in source
    assert source.count("<source>Pay now</source>") == 1
