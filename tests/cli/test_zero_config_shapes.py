"""Zero-config runs on app shapes the detector must read as the app's own set-up does: with no
config file, `validate` finds every used key and `cleanup --dry-run` offers only the unused
ones — or refuses. Each app here is ours, in the shape of a kind of real app."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write_tree


def _package(*libraries: str) -> dict[str, Any]:
    return {"name": "app", "private": True, "dependencies": dict.fromkeys(libraries, "1.0.0")}


# A Next.js pages-router app without `src/`: code in `pages/`, `components/` and `lib/`.
NEXT_WITHOUT_SRC: dict[str, Any] = {
    "package.json": _package("next", "next-i18next", "react-i18next", "i18next"),
    "next-i18next.config.js": (
        "module.exports = {\n  i18n: { defaultLocale: 'en', locales: ['en', 'fr'] },\n};\n"
    ),
    "pages/index.tsx": (
        "import { useTranslation } from 'next-i18next';\n"
        "export default function Home() {\n"
        "  const { t } = useTranslation('common');\n"
        "  return <h1>{t('home.title')}</h1>;\n"
        "}\n"
    ),
    "components/Nav.tsx": (
        "import { useTranslation } from 'next-i18next';\n"
        "export const Nav = () => { const { t } = useTranslation(); "
        "return <a>{t('nav.home')}</a>; };\n"
    ),
    "lib/errors.ts": (
        "import i18next from 'i18next';\n"
        "export const fallback = () => i18next.t('errors.fallback');\n"
    ),
    "public/locales/en/common.json": {
        "home": {"title": "Home"},
        "nav": {"home": "Start", "old": "Old link"},
        "errors": {"fallback": "Something broke"},
    },
    "public/locales/fr/common.json": {
        "home": {"title": "Accueil"},
        "nav": {"home": "Début", "old": "Ancien lien"},
        "errors": {"fallback": "Panne"},
    },
}

# next-i18next with one file per namespace, and namespaced dynamic keys.
NEXT_NAMESPACES: dict[str, Any] = {
    "package.json": _package("next-i18next", "react-i18next", "i18next"),
    "src/pages/index.tsx": (
        "import { useTranslation } from 'next-i18next';\n"
        "export default function Home({ code }: { code: string }) {\n"
        "  const { t } = useTranslation(['common', 'errors']);\n"
        "  return <p>{t('common:save')} {t(`errors:${code}`)} {t('title')}</p>;\n"
        "}\n"
    ),
    "public/locales/en/common.json": {"save": "Save", "title": "Title", "stale": "Stale"},
    "public/locales/en/errors.json": {"E1": "Broken", "E2": "Gone", "E3": "Lost"},
    "public/locales/de/common.json": {"save": "Sichern", "title": "Titel", "stale": "Alt"},
    "public/locales/de/errors.json": {"E1": "Kaputt", "E2": "Weg", "E3": "Verloren"},
}

# A vue-i18n app whose keys are flat English sentences holding `:` and `.`.
VUE_SENTENCES: dict[str, Any] = {
    "package.json": _package("vue", "vue-i18n"),
    "src/i18n.js": (
        "import { createI18n } from 'vue-i18n';\nimport en from './lang/en.json';\n"
        "export const i18n = createI18n({ locale: 'en', messages: { en } });\n"
    ),
    "src/components/Status.vue": (
        "<template>\n"
        '  <p>{{ $t("Message:") }} {{ $t("Settings.title") }}</p>\n'
        '  <span>{{ $t("maintenanceStatus-" + status) }}</span>\n'
        "</template>\n"
        "<script setup>\ndefineProps(['status']);\n</script>\n"
    ),
    "src/lang/en.json": {
        "Message:": "Message:",
        "Settings.title": "Settings",
        "maintenanceStatus-up": "Up",
        "maintenanceStatus-down": "Down",
        "Old sentence.": "Old sentence.",
    },
    "src/lang/fr.json": {"Message:": "Message :", "Old sentence.": "Ancienne phrase."},
}

# A react-intl app whose only source locale is `en-US`.
REACT_INTL_EN_US: dict[str, Any] = {
    "package.json": _package("react", "react-intl"),
    "src/App.tsx": (
        "import { FormattedMessage, useIntl } from 'react-intl';\n"
        "export const App = () => {\n"
        "  const intl = useIntl();\n"
        "  return <p title={intl.formatMessage({ id: 'app.save' })}>"
        '<FormattedMessage id="app.title" /></p>;\n'
        "};\n"
    ),
    "src/lang/en-US.json": {"app.title": "Title", "app.save": "Save", "app.unused": "Unused"},
    "src/lang/de-DE.json": {"app.title": "Titel", "app.save": "Sichern", "app.unused": "Nie"},
}

SHAPES = {
    "next-without-src": (NEXT_WITHOUT_SRC, ["common:nav.old"]),
    "next-namespaces": (NEXT_NAMESPACES, ["common:stale"]),
    "vue-sentences": (VUE_SENTENCES, ["Old sentence."]),
    "react-intl-en-US": (REACT_INTL_EN_US, ["app.unused"]),
}


@pytest.mark.slow
@pytest.mark.parametrize("shape", list(SHAPES))
def test_without_a_config_file_the_app_is_read_as_its_set_up_says(
    tmp_path: Path, run_cli, shape: str
) -> None:
    tree, unused = SHAPES[shape]
    root = write_tree(tmp_path / shape, tree)

    validate = run_cli("validate", "--json", cwd=root).envelope
    cleanup = run_cli("cleanup", "--dry-run", "--json", cwd=root).envelope

    assert validate["data"]["missing"] == [], validate["issues"]
    assert cleanup["ok"] is True, cleanup["issues"]
    assert cleanup["data"]["keys"] == unused


@pytest.mark.slow
def test_the_discovered_values_are_listed_with_their_origins(tmp_path: Path, run_cli) -> None:
    root = write_tree(tmp_path, NEXT_WITHOUT_SRC)

    envelope = run_cli("config", "--json", cwd=root).envelope
    human = run_cli("validate", cwd=root).stderr

    discovered = envelope["data"]["discovered"]
    assert discovered["src"]["value"] == ["components", "lib", "pages"]
    assert discovered["src"]["guess"] is False
    assert discovered["locales.directory"]["value"] == "public/locales"
    assert discovered["locales.defaultNamespace"] == {
        "value": "common",
        "origin": "next-i18next.config.js:1: next-i18next's default defaultNS",
        "guess": False,
    }
    [line] = [line for line in human.splitlines() if "no config file" in line]
    assert "discovered directory `public/locales`" in line
    assert "`i18nprune init` writes them" in line


@pytest.mark.slow
def test_a_guess_that_leaves_many_used_keys_missing_refuses_cleanup(
    tmp_path: Path, run_cli
) -> None:
    """Keys the set-up would read as `ns|key` read with i18next's defaults are both missing
    and unused: the cleanup refuses instead of offering used keys."""
    keys = {f"Label {n}": f"Label {n}" for n in range(30)}
    calls = "".join(f"t('glossary|Label {n}');\n" for n in range(30))
    root = write_tree(
        tmp_path,
        {
            "src/a.ts": calls + "t('Save');\n",
            "locales/en.json": {**keys, "Save": "Save", "Old": "Old"},
        },
    )

    cleanup = run_cli("cleanup", "--dry-run", "--json", cwd=root).envelope
    validate = run_cli("validate", "--json", cwd=root).envelope

    assert cleanup["ok"] is False
    [refusal] = [issue for issue in cleanup["issues"] if issue["severity"] == "error"]
    assert refusal["code"] == "i18nprune.reference.thin_evidence"
    assert "the code uses 30 key(s) the source lacks" in refusal["message"]
    tips = {tip["id"] for tip in validate["data"]["suggestions"]}
    assert "suggest.config.thin_evidence" in tips
    assert "suggest.missing.literal_keys" not in tips


def test_without_a_locale_folder_the_only_tip_is_to_name_it(tmp_path: Path, run_cli) -> None:
    root = write_tree(tmp_path, {"src/a.ts": "t('a.b');\n"})

    envelope = run_cli("validate", "--json", cwd=root).envelope

    assert [tip["id"] for tip in envelope["data"]["suggestions"]] == [
        "suggest.config.locales_missing"
    ]


@pytest.mark.slow
def test_a_written_config_keeps_its_meaning(tmp_path: Path, run_cli) -> None:
    """With a config file, the source locale, namespaces and separators are not discovered:
    what the file (and its defaults) says is what runs."""
    tree = {**VUE_SENTENCES, "i18nprune.config.json": {"locales": {"directory": "src/lang"}}}
    root = write_tree(tmp_path, tree)

    envelope = run_cli("config", "--json", cwd=root).envelope

    assert envelope["data"]["config"]["locales"]["keySeparator"] == "."
    assert json.dumps(envelope["data"]["discovered"]) == "{}"


@pytest.mark.slow
def test_an_app_that_returns_objects_everywhere_uses_whole_subtrees(
    tmp_path: Path, run_cli
) -> None:
    """`returnObjects: true` in the app's `init`: `t('menu')` returns the whole object, so its
    keys are used (read from the set-up without a config file, and pinned by `init`)."""
    root = write_tree(
        tmp_path,
        {
            "package.json": _package("i18next"),
            "src/i18n.ts": (
                "import i18next from 'i18next';\n"
                "i18next.init({ fallbackLng: 'en', returnObjects: true });\n"
            ),
            "src/menu.ts": "export const items = () => [i18next.t('menu'), t('title')];\n",
            "locales/en.json": {
                "menu": {"open": "Open", "save": "Save"},
                "title": "Title",
                "extra": "Extra",
            },
        },
    )

    cleanup = run_cli("cleanup", "--dry-run", "--json", cwd=root).envelope
    init = run_cli("init", "--yes", "--json", cwd=root).envelope
    pinned = run_cli("cleanup", "--dry-run", "--json", cwd=root).envelope

    assert cleanup["data"]["keys"] == ["extra"], cleanup["issues"]
    assert init["data"]["config"]["locales"]["returnObjects"] is True
    assert pinned["data"]["keys"] == ["extra"]
