"""A react-intl app whose messages have no `id` and get one from `formatjs extract` (the hash
of their text), through the real CLI: `config` shows the pattern and where it came from, the
hashed ids are used keys, and an extractor whose pattern is not known removes nothing."""

from __future__ import annotations

import base64
import hashlib
import json

import pytest

from tests.conftest import write_tree


def sha512_id(content: str) -> str:
    return base64.b64encode(hashlib.sha512(content.encode()).digest()).decode()[:6]


SCRIPT = "formatjs extract 'src/**/*.tsx' --out-file lang/en.json"
APP = {
    "package.json": {
        "dependencies": {"react-intl": "^6.0.0"},
        "devDependencies": {"@formatjs/cli": "^6.0.0"},
        "scripts": {
            "extract": SCRIPT + " --id-interpolation-pattern '[sha512:contenthash:base64:6]'"
        },
    },
    "i18nprune.config.json": {"src": "src", "locales": {"directory": "lang"}},
    "src/Cart.tsx": (
        "import { FormattedMessage, useIntl } from 'react-intl';\n"
        "export function Cart({ count }: { count: number }) {\n"
        "  const intl = useIntl();\n"
        "  return (\n"
        "    <section\n"
        "      title={intl.formatMessage({ defaultMessage: 'Your cart', description: 'title' })}>\n"
        "      <FormattedMessage defaultMessage='{count, plural, one {# item} other {# items}}'\n"
        "        values={{ count }} />\n"
        "      <FormattedMessage id='cart.checkout' defaultMessage='Checkout' />\n"
        "    </section>\n"
        "  );\n"
        "}\n"
    ),
    "lang/en.json": {
        sha512_id("Your cart#title"): "Your cart",
        sha512_id("{count, plural, one {# item} other {# items}}"): "{count} items",
        "cart.checkout": "Checkout",
        sha512_id("Removed banner"): "Removed banner",
    },
}


def test_config_shows_the_extractors_pattern(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", APP)

    result = run_cli("config", "--json", cwd=root)

    assert result.code == 0, result.stdout
    (scope,) = result.envelope["data"]["messageIds"]
    assert scope["config"] == "package.json"
    assert scope["pattern"] == "[sha512:contenthash:base64:6]"
    assert scope["problem"] is None


@pytest.mark.slow
def test_hashed_ids_are_used_and_only_the_stale_one_is_offered(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", APP)

    cleanup = run_cli("cleanup", "--dry-run", "--json", cwd=root)
    validate = run_cli("validate", "--json", cwd=root)

    assert cleanup.code == 0, cleanup.stdout
    assert cleanup.envelope["data"]["keys"] == [sha512_id("Removed banner")]
    assert validate.envelope["data"]["missing"] == []
    codes = {issue["code"] for issue in validate.envelope["issues"]}
    assert "i18nprune.scan.messages_without_id" not in codes


def test_an_extractor_whose_pattern_is_unknown_removes_nothing(tmp_path, run_cli):
    manifest = {**APP["package.json"], "scripts": {}}
    root = write_tree(tmp_path / "app", {**APP, "package.json": manifest})
    before = (root / "lang/en.json").read_bytes()

    result = run_cli("cleanup", "--yes", "--json", cwd=root)

    assert result.code == 1, result.stdout
    issues = {issue["code"]: issue for issue in result.envelope["issues"]}
    unknown = issues["i18nprune.scan.message_ids_unknown"]
    assert unknown["path"] == "package.json"
    assert "no package.json script runs `formatjs extract`" in unknown["message"]
    assert issues["i18nprune.scan.incomplete_evidence"]["severity"] == "error"
    assert (root / "lang/en.json").read_bytes() == before


@pytest.mark.slow
def test_a_script_that_keeps_white_space_hashes_the_text_as_written(tmp_path, run_cli):
    manifest = {**APP["package.json"], "scripts": {"extract": SCRIPT + " --preserve-whitespace"}}
    source = APP["src/Cart.tsx"].replace("'Your cart'", "'Your  cart '")
    locale = {
        sha512_id("Your  cart #title"): "Your cart",
        sha512_id("{count, plural, one {# item} other {# items}}"): "{count} items",
        "cart.checkout": "Checkout",
    }
    files = {**APP, "package.json": manifest, "src/Cart.tsx": source, "lang/en.json": locale}
    root = write_tree(tmp_path / "app", files)

    cleanup = run_cli("cleanup", "--dry-run", "--json", cwd=root)
    validate = run_cli("validate", "--json", cwd=root)

    assert cleanup.envelope["data"]["keys"] == [], json.dumps(cleanup.envelope, indent=1)
    assert validate.envelope["data"]["missing"] == []


def test_a_shell_script_the_package_runs_gives_the_pattern(tmp_path, run_cli):
    manifest = {**APP["package.json"], "scripts": {"i18n": "bash bin/i18n-extract.sh"}}
    shell = (
        "#!/bin/bash\nset -e\n"
        "yarn formatjs extract 'src/**/*.tsx' \\\n"
        "  --out-file lang/en.json \\\n"
        "  --id-interpolation-pattern '[md5:contenthash:hex:10]'\n"
    )
    root = write_tree(
        tmp_path / "app", {**APP, "package.json": manifest, "bin/i18n-extract.sh": shell}
    )

    result = run_cli("config", "--json", cwd=root)

    (scope,) = result.envelope["data"]["messageIds"]
    assert scope["pattern"] == "[md5:contenthash:hex:10]"


def test_a_pattern_passed_on_to_the_extract_script_is_its_pattern(tmp_path, run_cli):
    scripts = {
        "extract": "formatjs extract",
        "i18n": "npm run extract -- 'src/**/*.tsx' --id-interpolation-pattern=[sha1:hash:base64:8]",
    }
    manifest = {**APP["package.json"], "scripts": scripts}
    root = write_tree(tmp_path / "app", {**APP, "package.json": manifest})

    result = run_cli("config", "--json", cwd=root)

    (scope,) = result.envelope["data"]["messageIds"]
    assert scope["pattern"] == "[sha1:hash:base64:8]"
