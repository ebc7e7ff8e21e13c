"""The real CLI on apps in the shapes of real ones: cleanup offers exactly the unused keys,
`validate` finds every missing key, and the write ops put keys where the app keeps them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.app_shapes import (
    APPS,
    FORMATJS,
    FORMATJS_HOOK,
    FORMATJS_STRUCTURED,
    HOOK_LABELS,
    I18NEXT_NAMESPACES,
    I18NEXT_NESTING,
    REACT_I18NEXT_NATURAL,
    VUE_I18N_LINKED,
    VUE_NESTED_HEAD,
    VUE_OPTIONS_FLAT,
)
from tests.conftest import write_tree


def read(path: Path) -> dict:
    return json.loads(path.read_text())


@pytest.mark.slow
@pytest.mark.parametrize("app", sorted(APPS))
def test_cleanup_candidates_are_exactly_the_unused_keys(app, tmp_path, run_cli):
    files, unused = APPS[app]
    root = write_tree(tmp_path / app, files)

    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    assert result.code == 0, result.stdout
    assert set(result.envelope["data"]["keys"]) == unused
    codes = {issue["code"] for issue in result.envelope["issues"]}
    assert "i18nprune.scan.parse_error" not in codes


@pytest.mark.parametrize("app", sorted(APPS))
def test_validate_finds_exactly_the_missing_keys(app, tmp_path, run_cli):
    files, _ = APPS[app]
    root = write_tree(tmp_path / app, files)

    result = run_cli("validate", "--json", cwd=root)

    expected = {
        "i18next-namespaces": ["auth:login.subtitle", "settings:theme.label"],
        "formatjs": ["account.block"],  # declared in defineMessages, absent from en.json
        "wrapped-keys": ["home.subtitle"],  # used in the code, absent from `mappings`
        # ids babel-plugin-react-intl-auto derives from the file's folder, absent from en.json
        "formatjs-auto-ids": [
            "components.Activity.error_copied",
            "components.Settings.General.currency",
        ],
        "hook-labels": ["label.title"],  # read through the hook's labels, absent from en-US
        "formatjs-hook": ["label.slug"],  # a literal descriptor given to formatMessage
    }
    assert result.envelope["data"]["missing"] == expected.get(app, [])


def test_keys_kept_as_data_are_listed_with_their_sites(tmp_path, run_cli):
    files, _ = APPS["react-own-t"]
    root = write_tree(tmp_path / "app", files)

    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    referenced = {entry["key"]: entry["sites"] for entry in result.envelope["data"]["referenced"]}
    assert set(referenced) == {"labels.copyAsSvg", "labels.copyAsPng"}
    assert referenced["labels.copyAsSvg"] == [
        {
            "text": "labels.copyAsSvg",
            "file": "src/actions/actionExport.tsx",
            "line": 3,
            "column": 10,
        }
    ]
    codes = {issue["code"] for issue in result.envelope["issues"]}
    assert "i18nprune.reference.referenced_as_data" in codes


def test_cleanup_yes_removes_only_the_unused_keys(tmp_path, run_cli):
    files, _ = APPS["react-own-t"]
    root = write_tree(tmp_path / "app", files)

    result = run_cli("cleanup", "--yes", "--json", cwd=root)

    assert result.code == 0, result.stdout
    en = read(root / "src/locales/en.json")
    assert en["labels"] == {
        "copyAsSvg": "Copy to clipboard as SVG",
        "copyAsPng": "Copy to clipboard as PNG",
        "paste": "Paste",
    }
    assert "alerts" not in en and en["toolBar"] == files["src/locales/en.json"]["toolBar"]


def test_sync_never_prunes_a_target_key_named_as_data(tmp_path, run_cli):
    files, _ = APPS["react-own-t"]
    root = write_tree(
        tmp_path / "app",
        {**files, "src/locales/fr.json": {"labels": {"copyAsSvg": "Copier en SVG", "x": "y"}}},
    )

    run_cli("sync", "--json", cwd=root)

    fr = read(root / "src/locales/fr.json")
    assert fr["labels"]["copyAsSvg"] == "Copier en SVG"
    assert "x" not in fr["labels"]


def test_namespaced_cleanup_names_keys_with_their_namespace(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", I18NEXT_NAMESPACES)

    result = run_cli("cleanup", "--yes", "--json", cwd=root)

    assert result.code == 0, result.stdout
    assert result.envelope["data"]["keys"] == ["auth:title", "common:cancel"]
    locales = root / "public/locales"
    assert read(locales / "en/auth.json") == {"login": {"title": "Sign in"}}
    assert read(locales / "en/common.json") == {"save": "Save", "title": "My app"}
    # `t(\`errors:${code}\`)` protects the whole errors namespace.
    assert read(locales / "en/errors.json") == {"404": "Not found", "500": "Server error"}
    duplicate = [
        i for i in result.envelope["issues"] if i["code"] == "i18nprune.locale.duplicate_path"
    ]
    assert duplicate == []  # `title` in two namespace files is two keys


def test_missing_writes_each_key_into_its_namespace_file(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", I18NEXT_NAMESPACES)

    result = run_cli("missing", "--yes", "--json", cwd=root)

    assert result.code == 0, result.stdout
    assert result.envelope["data"]["paths"] == ["auth:login.subtitle", "settings:theme.label"]
    locales = root / "public/locales/en"
    assert read(locales / "auth.json")["login"]["subtitle"] == "__I18NPRUNE_MISSING__"
    # A namespace the code uses that has no file yet gets one, in the layout; the key's
    # default text from the code is its value.
    assert read(locales / "settings.json") == {"theme": {"label": "Theme"}}


@pytest.mark.slow
def test_sync_creates_a_target_namespace_file_in_the_source_layout(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", I18NEXT_NAMESPACES)

    result = run_cli("sync", "--json", cwd=root)

    assert result.code == 0, result.stdout
    locales = root / "public/locales/fr"
    assert read(locales / "auth.json") == {"login": {"title": "Sign in"}}
    assert read(locales / "common.json") == {"save": "Enregistrer", "title": "Mon app"}


@pytest.mark.slow
def test_generate_writes_every_namespace_of_a_new_target(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", I18NEXT_NAMESPACES)

    result = run_cli("generate", "--target", "de", "--provider", "pseudo", "--json", cwd=root)

    assert result.code == 0, result.stdout
    [target] = result.envelope["data"]["targetResults"]
    assert sorted(target["outputPaths"]) == [
        "public/locales/de/auth.json",
        "public/locales/de/common.json",
        "public/locales/de/errors.json",
    ]
    assert set(read(root / "public/locales/de/errors.json")) == {"404", "500"}


def test_missing_writes_default_texts_into_the_source(tmp_path, run_cli):
    files = {
        **FORMATJS,
        "app/javascript/New.tsx": (
            "import { FormattedMessage } from 'react-intl';\n"
            "export const New = () => <FormattedMessage id='compose.publish' "
            "defaultMessage='Publish!' />;\n"
        ),
    }
    root = write_tree(tmp_path / "app", files)

    result = run_cli("missing", "--yes", "--json", cwd=root)

    assert result.code == 0, result.stdout
    en = read(root / "app/locales/en.json")
    assert en["account.block"] == "Block @{name}"
    assert en["compose.publish"] == "Publish!"  # flat dotted keys stay flat


@pytest.mark.slow
def test_flat_keys_are_written_as_flat_keys(tmp_path, run_cli):
    files = {
        **REACT_I18NEXT_NATURAL,
        "app/scenes/More.tsx": "export const More = ({ t }) => t('Sign out. See you soon');\n",
    }
    root = write_tree(tmp_path / "app", files)

    run_cli("missing", "--yes", "--json", cwd=root)
    result = run_cli("cleanup", "--yes", "--json", cwd=root)

    translation = read(root / "shared/i18n/locales/en_US/translation.json")
    assert translation["Sign out. See you soon"] == "__I18NPRUNE_MISSING__"
    assert "Archived." not in translation
    assert result.envelope["data"]["keys"] == ["Archived."]


def test_cleanup_names_the_prefixes_and_suffixes_that_kept_keys(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", VUE_OPTIONS_FLAT)

    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    data = result.envelope["data"]
    assert data["uncertainPrefixes"] == ["maintenanceStatus-"]
    assert data["uncertainSuffixes"] == ["Help"]
    notes = {issue["code"]: issue["message"] for issue in result.envelope["issues"]}
    assert notes["i18nprune.cleanup.uncertain_paths_excluded"] == (
        "paths under dynamic prefixes (maintenanceStatus-) and paths ending with dynamic "
        "suffixes (Help) were not removed"
    )
    assert "i18nprune.reference.unprotected_dynamic_keys" not in notes


def test_locales_dynamic_lists_prefixes_and_suffixes_but_not_followed_variables(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", VUE_OPTIONS_FLAT)

    result = run_cli("locales", "dynamic", "--json", cwd=root)

    data = result.envelope["data"]
    assert data["prefixes"] == ["maintenanceStatus-"] and data["suffixes"] == ["Help"]
    reached = sorted((s["file"], s["prefix"], s["suffix"]) for s in data["sites"])
    assert reached == [
        ("src/components/NotificationHelp.vue", None, "Help"),
        ("src/pages/ManageMaintenance.vue", "maintenanceStatus-", ""),
    ]


def test_sync_keeps_a_target_key_a_suffix_reaches(tmp_path, run_cli):
    fr = {"smtpHelp": "Le port de votre serveur", "pushoverHelp": "Ancien", "Gone": "Parti"}
    root = write_tree(tmp_path / "app", {**VUE_OPTIONS_FLAT, "src/lang/fr.json": fr})

    result = run_cli("sync", "--json", cwd=root)

    assert result.code == 0, result.stdout
    synced = read(root / "src/lang/fr.json")
    assert synced["smtpHelp"] == "Le port de votre serveur"
    assert synced["pushoverHelp"] == "Ancien"  # not in the source, but `provider + "Help"`
    assert "Gone" not in synced


def test_cleanup_removes_a_sibling_of_a_dynamic_head_inside_a_segment(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", VUE_NESTED_HEAD)

    result = run_cli("cleanup", "--yes", "--json", cwd=root)

    assert result.code == 0, result.stdout
    assert result.envelope["data"]["uncertainPrefixes"] == ["account.view_other_"]
    assert set(read(root / "locales/en.json")["account"]) == {
        "follow",
        "view_other_followers",
        "view_other_following",
    }


def test_config_shows_the_names_presets_add(tmp_path, run_cli):
    files, _ = APPS["vue-i18n"]
    root = write_tree(tmp_path / "app", files)

    result = run_cli("config", "--json", cwd=root)

    sources = result.envelope["data"]["functionSources"]
    assert sources["t"] == "default"
    assert sources["$tc"] == "package.json: vue-i18n"
    assert result.envelope["data"]["fieldSources"]["functions"] == "preset"


def test_explicit_functions_win_over_presets(tmp_path, run_cli):
    files, _ = APPS["vue-i18n"]
    config = {**files["i18nprune.config.json"], "functions": ["t", "$t"]}
    root = write_tree(tmp_path / "app", {**files, "i18nprune.config.json": config})

    result = run_cli("config", "--json", cwd=root)

    assert result.envelope["data"]["functionSources"] == {"t": "file", "$t": "file"}


@pytest.mark.slow
def test_several_source_roots_from_the_config(tmp_path, run_cli):
    root = write_tree(
        tmp_path / "mono",
        {
            "i18nprune.config.json": {"src": ["packages/web/src", "packages/ui/src"]},
            "packages/web/src/a.ts": "t('web.title');\n",
            "packages/ui/src/b.ts": "t('ui.button');\n",
            "locales/en.json": {"web": {"title": "W"}, "ui": {"button": "B"}, "gone": "x"},
        },
    )

    cleanup = run_cli("cleanup", "--dry-run", "--json", cwd=root)
    config = run_cli("config", "--json", cwd=root)

    assert cleanup.envelope["data"]["keys"] == ["gone"]
    assert [Path(p).name for p in config.envelope["data"]["resolvedPaths"]["srcDirs"]] == [
        "src",
        "src",
    ]


def test_excluded_folders_are_reported_with_their_file_counts(tmp_path, run_cli):
    root = write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": {"exclude": {"dirs": ["test"]}},
            "src/components/http/test/request.ts": "t('http.retry');\n",
            "src/components/http/test/response.ts": "t('http.parse');\n",
            "src/app.ts": "t('app.title');\n",
            "locales/en.json": {"app": {"title": "A"}, "http": {"retry": "R", "parse": "P"}},
        },
    )

    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    note = next(
        i for i in result.envelope["issues"] if i["code"] == "i18nprune.scan.excluded_folders"
    )
    assert "src/components/http/test (2, exclude.dirs)" in note["message"]
    assert note["path"] == "src/components/http/test"


@pytest.mark.slow
def test_dynamic_sites_without_static_part_are_a_warning_with_their_sites(tmp_path, run_cli):
    root = write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": {},
            "src/app.ts": "t('a');\nexport const label = (key: string) => t(key);\n",
            "locales/en.json": {"a": "A", "b": "B"},
        },
    )

    for command in ("cleanup", "sync"):
        result = run_cli(command, "--dry-run", "--json", cwd=root)
        warning = next(
            i
            for i in result.envelope["issues"]
            if i["code"] == "i18nprune.reference.unprotected_dynamic_keys"
        )
        assert warning["severity"] == "warning"
        assert "src/app.ts:2" in warning["message"] and "policies.preserve" in warning["message"]


@pytest.mark.slow
def test_keys_read_through_an_apps_own_hook_are_no_dynamic_sites(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", HOOK_LABELS)

    dynamic = run_cli("locales", "dynamic", "--json", cwd=root)
    cleanup = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    assert [site["prefix"] for site in dynamic.envelope["data"]["sites"]] == ["message."]
    codes = {issue["code"] for issue in cleanup.envelope["issues"]}
    assert "i18nprune.reference.unprotected_dynamic_keys" not in codes


def test_descriptors_from_a_hook_warn_only_of_the_hooks_own_calls(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", FORMATJS_HOOK)

    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    warning = next(
        issue
        for issue in result.envelope["issues"]
        if issue["code"] == "i18nprune.reference.unprotected_dynamic_keys"
    )
    assert "1 key site(s)" in warning["message"]
    assert "src/components/hooks/useMessages.ts:6" in warning["message"]
    assert "Button.tsx" not in warning["message"]


@pytest.mark.slow
def test_structured_json_messages_are_one_key_each(tmp_path, run_cli):
    root = write_tree(
        tmp_path / "app",
        {**FORMATJS_STRUCTURED, "locale/fr.json": {"D2aHLc": {"string": "Commandes"}}},
    )

    cleanup = run_cli("cleanup", "--yes", "--json", cwd=root)
    generate = run_cli("generate", "--target", "fr", "--provider", "pseudo", "--json", cwd=root)

    assert cleanup.envelope["data"]["keys"] == ["Q3kT0z"]
    assert read(root / "locale/en.json") == {
        "D2aHLc": {"context": "page title", "string": "Orders"},
        "x9bN7p": {"string": "Draft"},
    }
    assert generate.code == 0, generate.stdout
    fr = read(root / "locale/fr.json")
    assert fr["D2aHLc"] == {"string": "Commandes"}  # a human translation stays
    assert set(fr["x9bN7p"]) == {"string"} and fr["x9bN7p"]["string"].startswith("[")


def test_locales_list_counts_namespaces_apart(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", I18NEXT_NAMESPACES)

    result = run_cli("locales", "list", "--json", cwd=root)

    rows = {row["code"]: row for row in result.envelope["data"]["locales"]}
    assert rows["en"]["keys"] == 7  # common 3, auth 2 (its own `title`), errors 2
    assert rows["fr"]["missingFromSource"] == 5 and rows["fr"]["extra"] == 0
    assert not [i for i in result.envelope["issues"] if i["code"].endswith("duplicate_path")]


def test_a_subtree_head_in_the_code_keeps_the_subtree(tmp_path, run_cli):
    root = write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": {},
            "src/resolver.ts": (
                "export const issueKey = (issue) => ({ key: `errors.tooSmall.${issue.type}` });\n"
                "export function describe(platform) {\n"
                "  let key = 'dialog.picker.description.';\n"
                "  key += platform;\n"
                "  return key;\n"
                "}\n"
            ),
            "src/form.ts": (
                "export const show = (error) =>\n"
                "  t(error.key) + t(describe('ios')) + t('errors.title');\n"
            ),
            "locales/en.json": {
                "errors": {
                    "title": "Error",
                    "tooSmall": {"string": "Too short", "array": "Too few"},
                    "other": "x",
                },
                "dialog": {"picker": {"description": {"ios": "Tap", "android": "Press"}}},
            },
        },
    )

    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    assert result.envelope["data"]["keys"] == ["errors.other"]
    referenced = {entry["key"] for entry in result.envelope["data"]["referenced"]}
    assert referenced == {
        "errors.tooSmall.string",
        "errors.tooSmall.array",
        "dialog.picker.description.ios",
        "dialog.picker.description.android",
    }


TEAM_DELETE = (
    "import { Trans } from 'react-i18next';\n"
    "export const TeamDelete = ({ team }) => (\n"
    "  <Trans>Deleting the <strong>{{ workspaceName: team.name }}</strong> workspace</Trans>\n"
    ");\n"
)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("spelling", "missing"),
    [
        ("Deleting the <strong>{{workspaceName}}</strong> workspace", []),  # react-i18next 17
        ("Deleting the <1>{{workspaceName}}</1> workspace", []),  # 16 and its extractors
        ("Something else", ["Deleting the <strong>{{workspaceName}}</strong> workspace"]),
    ],
    ids=["v17", "v16", "neither"],
)
def test_trans_children_in_any_versions_spelling_are_one_key(spelling, missing, tmp_path, run_cli):
    root = write_tree(
        tmp_path / "app",
        {
            "i18nprune.config.json": {"locales": {"keySeparator": False, "nsSeparator": False}},
            "src/TeamDelete.tsx": TEAM_DELETE,
            "locales/en.json": {spelling: spelling, "Unused.": "Unused."},
        },
    )

    validate = run_cli("validate", "--json", cwd=root)
    cleanup = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    assert validate.envelope["data"]["missing"] == missing
    expected = {"Unused."} | ({spelling} if missing else set())
    assert set(cleanup.envelope["data"]["keys"]) == expected


def test_a_default_namespace_without_a_file_is_a_warning(tmp_path, run_cli):
    config = {**I18NEXT_NAMESPACES["i18nprune.config.json"]}
    config["locales"] = {**config["locales"], "defaultNamespace": "translation"}
    root = write_tree(tmp_path / "app", {**I18NEXT_NAMESPACES, "i18nprune.config.json": config})

    result = run_cli("validate", "--json", cwd=root)

    [issue] = [
        i
        for i in result.envelope["issues"]
        if i["code"] == "i18nprune.project.default_namespace_missing"
    ]
    assert "`translation`" in issue["message"] and "auth, common, errors" in issue["message"]


def _line_of(path: Path, text: str) -> int:
    """The 1-based line of `path` that holds `text` first."""
    lines = path.read_text().splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)


def test_keys_named_inside_used_messages_are_kept_with_the_messages_that_name_them(
    tmp_path, run_cli
):
    root = write_tree(tmp_path / "app", I18NEXT_NESTING)
    common = root / "public/locales/en/common.json"
    auth = root / "public/locales/en/auth.json"

    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    named = {entry["key"]: entry["sites"] for entry in result.envelope["data"]["namedInMessages"]}
    assert set(named) == {
        "common:brand.name",
        "common:brand.suffix",
        "common:cart.items_one",
        "common:cart.items_other",
    }
    assert named["common:brand.name"] == [
        {
            "message": "auth:login.heading",
            "file": "public/locales/en/auth.json",
            "line": _line_of(auth, '"heading"'),
            "column": 5,
        },
        {
            "message": "common:welcome",
            "file": "public/locales/en/common.json",
            "line": _line_of(common, '"welcome"'),
            "column": 3,
        },
    ]
    assert [site["message"] for site in named["common:brand.suffix"]] == ["common:brand.name"]
    notes = [i for i in result.envelope["issues"] if i["code"].endswith("named_in_messages")]
    assert len(notes) == 1 and "named inside the message of a used key" in notes[0]["message"]


def test_linked_messages_keep_the_keys_they_link(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", VUE_I18N_LINKED)

    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    named = {entry["key"]: entry["sites"] for entry in result.envelope["data"]["namedInMessages"]}
    assert {key: [site["message"] for site in sites] for key, sites in named.items()} == {
        "common.save": ["form.save"],
        "common.address": ["form.missingAddress"],
        "common.delete": ["form.remove"],
    }


@pytest.mark.slow
def test_cleanup_removes_a_message_and_the_key_it_names_together(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", I18NEXT_NESTING)

    result = run_cli("cleanup", "--yes", "--json", cwd=root)

    assert result.code == 0, result.stdout
    common = read(root / "public/locales/en/common.json")
    assert "legacy" not in common and "loop" not in common
    assert common["brand"] == {"name": "Acme $t(brand.suffix)", "suffix": "Inc."}


@pytest.mark.slow
def test_a_chosen_key_that_a_staying_message_names_is_not_removed(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", I18NEXT_NESTING)

    result = run_cli("cleanup", "--keys", "common:legacy.notice", "--yes", "--json", cwd=root)

    assert result.code == 0, result.stdout
    assert result.envelope["data"]["keys"] == []
    named = {e["key"]: e["sites"] for e in result.envelope["data"]["namedInMessages"]}
    assert [site["message"] for site in named["common:legacy.notice"]] == ["common:legacy.banner"]
    assert read(root / "public/locales/en/common.json")["legacy"]["notice"] == "An old notice"


@pytest.mark.slow
def test_sync_keeps_the_keys_messages_name_in_targets(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", I18NEXT_NESTING)

    result = run_cli("sync", "--json", cwd=root)

    assert result.code == 0, result.stdout
    fr = read(root / "public/locales/fr/common.json")
    # the source's messages name brand.name and brand.suffix; fr's own welcome names brand.nom
    assert fr["brand"] == {"nom": "Acmé", "name": "Acme $t(brand.suffix)", "suffix": "Inc."}
    assert set(fr["cart"]) == {"summary", "items_one", "items_other"}
    assert fr["page_title"] == {"title": "Home"}


def test_sync_keeps_linked_keys_and_prunes_a_link_chain_nobody_uses(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", VUE_I18N_LINKED)

    run_cli("sync", "--json", cwd=root)

    fr = read(root / "src/locales/fr.json")
    assert fr["common"] == {
        "save": "Enregistrer",
        "address": "Home address",
        "delete": "Delete",
    }
    assert "old" not in fr["form"]


def test_cleanup_of_a_target_keeps_what_its_own_messages_name(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", I18NEXT_NESTING)

    result = run_cli("cleanup", "--target", "fr", "--dry-run", "--json", cwd=root)

    assert result.envelope["data"]["keys"] == ["common:brand.slogan"]
    named = {e["key"]: e["sites"] for e in result.envelope["data"]["namedInMessages"]}
    fr = root / "public/locales/fr/common.json"
    assert named["common:brand.nom"] == [
        {
            "message": "common:welcome",
            "file": "public/locales/fr/common.json",
            "line": _line_of(fr, '"welcome"'),
            "column": 3,
        }
    ]


@pytest.mark.slow
def test_validate_warns_of_a_key_a_used_message_names_that_the_source_lacks(tmp_path, run_cli):
    files = dict(I18NEXT_NESTING)
    files["public/locales/en/auth.json"] = {
        "login": {"heading": "Sign in to $t(common:brand.nam)"},
        "page_title": {"title": "Sign in"},
    }
    root = write_tree(tmp_path / "app", files)

    result = run_cli("validate", "--json", cwd=root)

    assert result.code == 0, result.stdout
    assert result.envelope["data"]["missing"] == []
    auth = root / "public/locales/en/auth.json"
    assert result.envelope["data"]["missingNested"] == {
        "common:brand.nam": [
            {
                "message": "auth:login.heading",
                "file": "public/locales/en/auth.json",
                "line": _line_of(auth, '"heading"'),
                "column": 5,
            }
        ]
    }
    [issue] = [i for i in result.envelope["issues"] if i["code"].endswith("missing_nested")]
    assert issue["severity"] == "warning"
    assert (
        "common:brand.nam (in `auth:login.heading`, public/locales/en/auth.json:"
        in (issue["message"])
    )
