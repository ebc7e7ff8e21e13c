"""Apps whose locales are YAML, through the real CLI: a Rails-style layout (each file's keys
under its locale) read by i18next code, and a vue-i18n app with YAML files and no config."""

from __future__ import annotations

from pathlib import Path

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
