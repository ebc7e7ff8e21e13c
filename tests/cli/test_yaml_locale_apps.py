"""Apps whose locales are YAML, through the real CLI: a Rails-style layout (each file's keys
under its locale) read by i18next code, and a vue-i18n app with YAML files and no config."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from i18nprune.locales.yamldoc import read_yaml_file
from tests.conftest import write_tree

SOURCE = """\
# SPDX-License-Identifier: MIT
# The English texts of the shop.

en:
  greeting: "Hello, {{name}}"   # the home page
  cart:
    title: Your cart
    empty: 'Nothing here yet'
  legacy: Old banner
  steps:
    - Choose
    - Pay
"""

TARGET = """\
# Texte français, relus par Marie.
fr:
  greeting: "Bonjour, {{name}}"   # relu
  cart:
    title: Votre panier
  retired: Ancien texte
"""

CODE = """\
import i18next from 'i18next';
export const hello = (name: string) => i18next.t('greeting', { name });
export const cart = () => [i18next.t('cart.title'), i18next.t('cart.empty')];
export const steps = () => i18next.t('steps', { returnObjects: true });
export const later = () => i18next.t('checkout.pay');
"""


def shop(root: Path) -> Path:
    return write_tree(
        root,
        {
            "i18nprune.config.json": {
                "src": ["src"],
                "locales": {"directory": "config/locales", "source": "en"},
            },
            "src/shop.ts": CODE,
            "config/locales/en.yml": SOURCE,
            "config/locales/fr.yml": TARGET,
        },
    )


@pytest.mark.slow
def test_validate_reads_yaml_locales_under_their_locale_key(tmp_path, run_cli):
    root = shop(tmp_path / "shop")
    result = run_cli("validate", "--json", cwd=root)
    data = result.envelope["data"]
    assert result.code == 1, result.stdout
    assert data["missing"] == ["checkout.pay"]
    unused = run_cli("cleanup", "--dry-run", "--json", cwd=root).envelope["data"]["keys"]
    assert unused == ["legacy"]


def test_sync_keeps_the_translators_comments_quotes_and_locale_key(tmp_path, run_cli):
    root = shop(tmp_path / "shop")
    result = run_cli("sync", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["writtenFiles"] == ["config/locales/fr.yml"]
    assert (root / "config/locales/fr.yml").read_text() == (
        "# Texte français, relus par Marie.\n"
        "fr:\n"
        '  greeting: "Bonjour, {{name}}"   # relu\n'
        "  cart:\n"
        "    title: Votre panier\n"
        "    empty: Nothing here yet\n"
        "  steps:\n"
        "    - Choose\n"
        "    - Pay\n"
    )
    again = run_cli("sync", "--yes", "--json", cwd=root)
    assert again.envelope["data"]["writtenFiles"] == []


def test_cleanup_removes_only_the_unused_key_and_keeps_the_licence_header(tmp_path, run_cli):
    root = shop(tmp_path / "shop")
    result = run_cli("cleanup", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["keys"] == ["legacy"]
    assert (root / "config/locales/en.yml").read_text() == SOURCE.replace(
        "  legacy: Old banner\n", ""
    )


def test_missing_adds_placeholders_to_the_yaml_source(tmp_path, run_cli):
    root = shop(tmp_path / "shop")
    result = run_cli("missing", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    source = read_yaml_file(root / "config/locales/en.yml", "en.yml")
    assert source["checkout"] == {"pay": "__I18NPRUNE_MISSING__"}
    assert (root / "config/locales/en.yml").read_text().startswith(SOURCE[:60])


def test_generate_writes_a_new_target_under_its_own_locale_key(tmp_path, run_cli):
    root = shop(tmp_path / "shop")
    result = run_cli("generate", "--target", "de", "--provider", "pseudo", "--json", cwd=root)
    assert result.code == 0, result.stdout
    text = (root / "config/locales/de.yml").read_text()
    assert text.startswith("de:\n  greeting: ")
    german = read_yaml_file(root / "config/locales/de.yml", "de.yml")
    assert set(german) == {"greeting", "cart", "steps"}
    assert "{{name}}" in str(german["greeting"]) and len(german["steps"]) == 2
    assert (root / "i18nprune.lock.json").is_file()


def test_a_broken_yaml_target_is_named_at_its_line_and_left_as_it_is(tmp_path, run_cli):
    root = shop(tmp_path / "shop")
    broken = TARGET + "  cart:\n    title: twice\n"
    (root / "config/locales/fr.yml").write_text(broken)
    result = run_cli("sync", "--yes", "--json", cwd=root)
    assert result.code == 1
    issue = next(
        i for i in result.envelope["issues"] if i["code"] == "i18nprune.locale.invalid_syntax"
    )
    assert issue["message"].startswith('config/locales/fr.yml:7:3: the key "cart" is defined')
    assert (root / "config/locales/fr.yml").read_text() == broken


def test_an_edit_in_a_shared_anchor_is_refused_with_nothing_written(tmp_path, run_cli):
    root = shop(tmp_path / "shop")
    shared = 'fr:\n  cart: &cart\n    title: Votre panier\n  basket: *cart\n  greeting: "Bonjour"\n'
    (root / "config/locales/fr.yml").write_text(shared)
    (root / "src/more.ts").write_text(
        "import i18next from 'i18next';\ni18next.t('basket.title');\n"
    )
    (root / "config/locales/en.yml").write_text(
        SOURCE + "  basket:\n    title: Basket\n    note: Kept for later\n"
    )
    result = run_cli("sync", "--yes", "--json", cwd=root)
    assert result.code == 1, result.stdout
    issue = next(
        i for i in result.envelope["issues"] if i["code"] == "i18nprune.locale.not_editable"
    )
    assert issue["message"].startswith("config/locales/fr.yml:2: `cart.empty` lies in")
    assert "&cart" in issue["message"]
    assert (root / "config/locales/fr.yml").read_text() == shared


def test_a_vue_app_with_yaml_locales_works_without_a_config(tmp_path, run_cli):
    root = write_tree(
        tmp_path / "vue",
        {
            "package.json": {"dependencies": {"vue": "^3.4.0", "vue-i18n": "^9.10.0"}},
            "src/App.vue": (
                "<template><h1>{{ $t('hello') }}</h1><a>{{ t('menu.home') }}</a></template>\n"
                "<script setup>\nimport { useI18n } from 'vue-i18n'\n"
                "const { t } = useI18n()\n</script>\n"
            ),
            "src/locales/en.yaml": "# English\nhello: Hello\nmenu:\n  home: Home\nold: Old\n",
            "src/locales/de.yaml": "hello: Hallo\n",
        },
    )
    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["keys"] == ["old"]
    synced = run_cli("sync", "--yes", "--json", cwd=root)
    assert synced.code == 0, synced.stdout
    assert (root / "src/locales/de.yaml").read_text() == "hello: Hallo\nmenu:\n  home: Home\n"


# apache/answer's layout: one YAML file per language holds the Go server's texts (`backend:`)
# and the UI's (`ui:`); the UI's i18next set-up loads only `en_US.ui`, through an alias.
SHARED_SOURCE = """\
# The English texts of the server and the UI.
backend:
  base:
    success: Success.
    unknown: Unknown error.
  email_tpl:
    subject: "[{{.SiteName}}] Welcome"
ui:
  how_to_format:
    title: How to format
    desc: Use Markdown.
  question:
    title: Title
    unused_hint: Never shown
"""

SHARED_TARGET = """\
backend:
  base:
    success: Erfolg.
    unknown: Unbekannter Fehler.
  retired_server_text: Nur der Server kennt das.
ui:
  how_to_format:
    title: Formatieren
  retired: Alt
"""

ANSWER_UI_INIT = """\
import { initReactI18next } from 'react-i18next';
import i18next from 'i18next';
import en_US from '@i18n/en_US.yaml';

import { DEFAULT_LANG } from '@/common/constants';

const initResources = {
  en_US: {
    translation: en_US.ui,
  },
};

i18next.use(initReactI18next).init({
  resources: initResources,
  lng: DEFAULT_LANG,
  fallbackLng: DEFAULT_LANG,
});

export default i18next;
"""

ANSWER_UI_PAGE = """\
import { useTranslation } from 'react-i18next';

export const Help = () => {
  const { t } = useTranslation('translation', { keyPrefix: 'how_to_format' });
  return [t('title'), t('desc')];
};

export const Ask = () => {
  const { t } = useTranslation();
  return [t('question.title'), t('question.body')];
};
"""


def answer_shaped(root: Path) -> Path:
    return write_tree(
        root,
        {
            "go.mod": "module github.com/apache/answer\n",
            "internal/base/reason/reason.go": 'package reason\n\nconst Success = "base.success"\n',
            "i18n/en_US.yaml": SHARED_SOURCE,
            "i18n/de_DE.yaml": SHARED_TARGET,
            "ui/package.json": {
                "dependencies": {"i18next": "^23.0.0", "react": "^18.0.0", "react-i18next": "^13"}
            },
            "ui/tsconfig.json": (
                '{\n  "compilerOptions": {\n    "baseUrl": "./",\n'
                '    "paths": { "@/*": ["src/*"], "@i18n/*": ["../i18n/*"] }\n  }\n}\n'
            ),
            "ui/src/common/constants.ts": "export const DEFAULT_LANG = 'en_US';\n",
            "ui/src/i18n/init.ts": ANSWER_UI_INIT,
            "ui/src/pages/Help.tsx": ANSWER_UI_PAGE,
        },
    )


def test_a_ui_that_loads_one_object_of_shared_files_is_read_there_without_a_config(
    tmp_path, run_cli
):
    root = answer_shaped(tmp_path / "answer")
    validated = run_cli("validate", "--json", cwd=root)
    assert validated.code == 1, validated.stdout
    assert validated.envelope["data"]["missing"] == ["question.body"]
    cleaned = run_cli("cleanup", "--dry-run", "--json", cwd=root)
    assert cleaned.code == 0, cleaned.stdout
    assert cleaned.envelope["data"]["keys"] == ["question.unused_hint"]
    written = run_cli("init", "--yes", "--json", cwd=root)
    assert written.code == 0, written.stdout
    config = json.loads((root / "i18nprune.config.json").read_text())
    assert config["locales"]["root"] == "ui"


def test_writes_of_a_ui_rooted_run_never_touch_the_servers_texts(tmp_path, run_cli):
    root = answer_shaped(tmp_path / "answer")
    synced = run_cli("sync", "--yes", "--json", cwd=root)
    assert synced.code == 0, synced.stdout
    assert (root / "i18n/de_DE.yaml").read_text() == (
        "backend:\n"
        "  base:\n"
        "    success: Erfolg.\n"
        "    unknown: Unbekannter Fehler.\n"
        "  retired_server_text: Nur der Server kennt das.\n"
        "ui:\n"
        "  how_to_format:\n"
        "    title: Formatieren\n"
        "    desc: Use Markdown.\n"
        "  question:\n"
        "    title: Title\n"
    )
    cleaned = run_cli("cleanup", "--yes", "--json", cwd=root)
    assert cleaned.code == 0, cleaned.stdout
    assert (root / "i18n/en_US.yaml").read_text() == SHARED_SOURCE.replace(
        "    unused_hint: Never shown\n", ""
    )
    (root / "i18n/de_DE.yaml").write_text(SHARED_TARGET)
    generated = run_cli("generate", "--target", "de_DE", "--provider", "pseudo", "--json", cwd=root)
    assert generated.code == 0, generated.stdout
    text = (root / "i18n/de_DE.yaml").read_text()
    assert text.startswith(SHARED_TARGET.split("ui:\n")[0] + "ui:\n  how_to_format:\n")
    german = read_yaml_file(root / "i18n/de_DE.yaml", "de_DE.yaml")
    assert set(german["ui"]) == {"how_to_format", "retired", "question"}
    assert set(german["ui"]["how_to_format"]) == {"title", "desc"}
