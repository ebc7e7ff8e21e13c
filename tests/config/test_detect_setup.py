"""Each app's i18n set-up read statically (`config.detect.setup`): a table of the set-up shapes
each library documents, written as real files in a temp project."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from i18nprune.config.detect.setup import AppSetup, ResourceRoot, read_app_setup, read_setups
from i18nprune.config.i18n_setup import discovered_setups
from tests.conftest import write_tree

_FIELDS = (
    "source_locale",
    "default_namespace",
    "fallback_namespaces",
    "namespaces",
    "key_separator",
    "ns_separator",
    "return_objects",
    "locale_format",
)


def summary(setup: AppSetup) -> dict[str, Any]:
    """The values the set-up gave, without where they came from."""
    found: dict[str, Any] = {}
    if setup.library is not None:
        found["library"] = setup.library
    if setup.framework is not None:
        found["framework"] = setup.framework
    for name in _FIELDS:
        finding = getattr(setup, name)
        if finding is not None:
            found[name] = finding.value
    if setup.locale_paths:
        found["locale_paths"] = [finding.value for finding in setup.locale_paths]
    return found


JSON = "{}\n"

# (case, files, expected summary of the root folder's set-up)
SHAPES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        "i18next ESM, chained use().init() with an http backend",
        {
            "src/i18n.ts": (
                "import i18n from 'i18next';\n"
                "import { initReactI18next } from 'react-i18next';\n"
                "import HttpBackend from 'i18next-http-backend';\n\n"
                "i18n.use(HttpBackend).use(initReactI18next).init({\n"
                "  fallbackLng: ['en', 'de'],\n"
                "  lng: 'fr',\n"
                "  defaultNS: 'app',\n"
                "  fallbackNS: ['common'],\n"
                "  ns: ['app', 'common'],\n"
                "  keySeparator: false,\n"
                "  nsSeparator: '::',\n"
                "  returnObjects: true,\n"
                "  backend: { loadPath: '/locales/{{lng}}/{{ns}}.json' },\n"
                "});\n"
            ),
            "public/locales/en/app.json": JSON,
        },
        {
            "library": "react-i18next",
            "source_locale": "en",
            "default_namespace": "app",
            "fallback_namespaces": ["common"],
            "namespaces": ["app", "common"],
            "key_separator": False,
            "ns_separator": "::",
            "return_objects": True,
            "locale_paths": ["public/locales"],
        },
    ),
    (
        "i18next CJS, lng without fallbackLng, resources required from JSON",
        {
            "src/i18n.js": (
                "const i18next = require('i18next');\n"
                "i18next.init({\n"
                "  lng: 'de',\n"
                "  defaultNS: ['main', 'extra'],\n"
                "  fallbackNS: 'shared',\n"
                "  resources: { de: { main: require('./locales/de/main.json') } },\n"
                "});\n"
                "module.exports = i18next;\n"
            ),
            "src/locales/de/main.json": JSON,
        },
        {
            "library": "i18next",
            "source_locale": "de",
            "default_namespace": "main",
            "fallback_namespaces": ["shared"],
            "locale_paths": ["src/locales"],
        },
    ),
    (
        "createInstance({…}) with fallbackLng's per-language object form",
        {
            "src/i18n/index.ts": (
                "import { createInstance } from 'i18next';\n"
                "export const i18n = createInstance({\n"
                "  fallbackLng: { 'de-CH': ['fr'], default: ['en-GB'] },\n"
                "  defaultNS: 'ui',\n"
                "});\n"
            ),
        },
        {"library": "i18next", "source_locale": "en-GB", "default_namespace": "ui"},
    ),
    (
        "i18next.createInstance().init({…}), options in a typed local const",
        {
            "lib/i18next.ts": (
                "import i18next, { InitOptions } from 'i18next';\n"
                "const options: InitOptions = { fallbackLng: 'pt-BR', keySeparator: '.' };\n"
                "export const instance = i18next.createInstance();\n"
                "instance.init(options);\n"
            ),
        },
        {"library": "i18next", "source_locale": "pt-BR", "key_separator": "."},
    ),
    (
        "a spread of an imported config is skipped, a local one is read",
        {
            "src/i18n.ts": (
                "import base from './base';\n"
                "const shared = { nsSeparator: false };\n"
                "init({ ...base, ...shared, defaultNS: 'x' });\n"
            ),
        },
        {"default_namespace": "x", "ns_separator": False},
    ),
    (
        "non-literal values give nothing",
        {
            "src/i18n.ts": (
                "import { LANG, SEP } from './constants';\n"
                "i18next.init({ fallbackLng: LANG, defaultNS: name, keySeparator: SEP,\n"
                "  returnObjects: flag(), backend: { loadPath: base + '/{{lng}}.json' } });\n"
            ),
        },
        {},
    ),
    (
        "fs-backend loadPath from path.join(__dirname, …)",
        {
            "electron/i18n.ts": (
                "import path from 'path';\n"
                "i18next.use(Backend).init({\n"
                "  fallbackLng: 'en',\n"
                "  backend: { loadPath: path.join(__dirname, '../locales/{{lng}}/{{ns}}.json') },\n"
                "});\n"
            ),
            "locales/en/translation.json": JSON,
        },
        {"source_locale": "en", "locale_paths": ["locales"]},
    ),
    (
        "next-i18next.config.js",
        {
            "package.json": {"dependencies": {"next": "14", "next-i18next": "15", "react": "18"}},
            "next-i18next.config.js": (
                "const path = require('path');\n"
                "module.exports = {\n"
                "  i18n: { defaultLocale: 'en', locales: ['en', 'de'] },\n"
                "  fallbackLng: 'de',\n"
                "  localePath: path.resolve('./public/locales'),\n"
                "  reloadOnPrerender: process.env.NODE_ENV === 'development',\n"
                "  defaultNS: 'home',\n"
                "};\n"
            ),
            "public/locales/en/home.json": JSON,
        },
        {
            "library": "next-i18next",
            "framework": "next",
            "source_locale": "en",
            "default_namespace": "home",
            "locale_paths": ["public/locales"],
        },
    ),
    (
        "next-i18next.config.js setting no defaultNS or localePath: next-i18next's own",
        {
            "next-i18next.config.js": (
                "module.exports = { i18n: { defaultLocale: 'fr', locales: ['fr'] } };\n"
            ),
            "public/locales/fr/common.json": JSON,
        },
        {
            "library": "next-i18next",
            "source_locale": "fr",
            "default_namespace": "common",
            "locale_paths": ["public/locales"],
        },
    ),
    (
        "next-i18next localePath chosen by `typeof window`",
        {
            "next-i18next.config.mjs": (
                "export default {\n"
                "  i18n: { defaultLocale: 'en', locales: ['en'] },\n"
                "  localePath: typeof window === 'undefined'\n"
                "    ? require('path').resolve('./data/locales') : '/locales',\n"
                "};\n"
            ),
            "data/locales/en/common.json": JSON,
        },
        {
            "library": "next-i18next",
            "source_locale": "en",
            "default_namespace": "common",
            "locale_paths": ["data/locales"],
        },
    ),
    (
        "nuxt.config.ts i18n block (langDir under i18n/, as @nuxtjs/i18n v9 resolves it)",
        {
            "package.json": {"dependencies": {"nuxt": "3", "@nuxtjs/i18n": "9"}},
            "nuxt.config.ts": (
                "export default defineNuxtConfig({\n"
                "  modules: ['@nuxtjs/i18n'],\n"
                "  i18n: {\n"
                "    defaultLocale: 'fr',\n"
                "    langDir: 'locales',\n"
                "    locales: [{ code: 'fr', file: 'fr.json' }, { code: 'en', file: 'en.json' }],\n"
                "  },\n"
                "});\n"
            ),
            "i18n/locales/fr.json": JSON,
        },
        {
            "library": "@nuxtjs/i18n",
            "framework": "nuxt",
            "source_locale": "fr",
            "locale_paths": ["i18n/locales"],
        },
    ),
    (
        "nuxt module options given inline in `modules`",
        {
            "nuxt.config.js": (
                "export default {\n"
                "  modules: [['@nuxtjs/i18n', { defaultLocale: 'nl', langDir: 'lang/' }]],\n"
                "};\n"
            ),
            "lang/nl.json": JSON,
        },
        {"library": "@nuxtjs/i18n", "source_locale": "nl", "locale_paths": ["lang"]},
    ),
    (
        "vue-i18n createI18n with messages imported from JSON",
        {
            "src/i18n.ts": (
                "import { createI18n } from 'vue-i18n';\n"
                "import en from './locales/en.json';\n"
                "import de from './locales/de.json';\n"
                "export default createI18n({\n"
                "  legacy: false, locale: 'de', fallbackLocale: 'en', messages: { en, de },\n"
                "});\n"
            ),
            "src/locales/en.json": JSON,
            "src/locales/de.json": JSON,
        },
        {"library": "vue-i18n", "source_locale": "en", "locale_paths": ["src/locales"]},
    ),
    (
        "vue-i18n createI18n with messages imported from YAML",
        {
            "src/i18n.ts": (
                "import { createI18n } from 'vue-i18n';\n"
                "import en from './lang/en.yaml';\n"
                "export default createI18n({ legacy: false, locale: 'en', messages: { en } });\n"
            ),
            "src/lang/en.yaml": "hello: Hello\n",
        },
        {"library": "vue-i18n", "source_locale": "en", "locale_paths": ["src/lang"]},
    ),
    (
        "vue-i18n messages from vite's import.meta.glob",
        {
            "src/modules/i18n.ts": (
                "import { createI18n } from 'vue-i18n';\n"
                "const LOCALES = import.meta.glob('../../locales/*.json');\n"
                "export const i18n = createI18n({ fallbackLocale: 'en' });\n"
            ),
            "locales/en.json": JSON,
        },
        {"library": "vue-i18n", "source_locale": "en", "locale_paths": ["locales"]},
    ),
    (
        "vue-i18n without fallbackLocale: its locale; `<Options>{…}` type assertion",
        {
            "src/modules/i18n.ts": (
                "import { createI18n, I18nOptions } from 'vue-i18n';\n"
                "const i18n = createI18n(<I18nOptions>{ locale: 'ja', legacy: false });\n"
            ),
        },
        {"library": "vue-i18n", "source_locale": "ja"},
    ),
    (
        "nuxt's vue-i18n config: defineI18nConfig(() => ({…}))",
        {
            "i18n/i18n.config.ts": (
                "export default defineI18nConfig(() => ({\n"
                "  legacy: false, fallbackLocale: 'es' }));\n"
            ),
        },
        {"library": "@nuxtjs/i18n", "source_locale": "es"},
    ),
    (
        "svelte-i18n register and init",
        {
            "src/lib/i18n/index.js": (
                "import { register, init, getLocaleFromNavigator } from 'svelte-i18n';\n"
                "register('en', () => import('./lang/en.json'));\n"
                "register('de', () => import('./lang/de.json'));\n"
                "init({ fallbackLocale: 'en', initialLocale: getLocaleFromNavigator() });\n"
            ),
            "src/lib/i18n/lang/en.json": JSON,
        },
        {"library": "svelte-i18n", "source_locale": "en", "locale_paths": ["src/lib/i18n/lang"]},
    ),
    (
        "next-intl request.ts and routing.ts",
        {
            "src/i18n/request.ts": (
                "import { getRequestConfig } from 'next-intl/server';\n"
                "export default getRequestConfig(async ({ locale }) => ({\n"
                "  messages: (await import(`../../messages/${locale}.json`)).default,\n"
                "}));\n"
            ),
            "src/i18n/routing.ts": (
                "import { defineRouting } from 'next-intl/routing';\n"
                "export const routing = defineRouting({ locales: ['en', 'de'], "
                "defaultLocale: 'de' });\n"
            ),
            "messages/en.json": JSON,
        },
        {"library": "next-intl", "source_locale": "de", "locale_paths": ["messages"]},
    ),
    (
        "next-intl middleware's defaultLocale",
        {
            "src/middleware.ts": "",
            "src/i18n/middleware.ts": (
                "import createMiddleware from 'next-intl/middleware';\n"
                "export default createMiddleware({ locales: ['en'], defaultLocale: 'en' });\n"
            ),
        },
        {"library": "next-intl", "source_locale": "en"},
    ),
    (
        "i18next-cli's i18next.config.ts",
        {
            "i18next.config.ts": (
                "import { defineConfig } from 'i18next-cli';\n"
                "export default defineConfig({\n"
                "  locales: ['sv', 'en'],\n"
                "  extract: { input: ['src/**/*.ts'], "
                "output: 'src/locales/{{language}}/{{namespace}}.json',\n"
                "    defaultNS: 'app', keySeparator: false },\n"
                "});\n"
            ),
            "src/locales/sv/app.json": JSON,
        },
        {
            "source_locale": "sv",
            "default_namespace": "app",
            "key_separator": False,
            "locale_paths": ["src/locales"],
        },
    ),
    (
        "lingui.config.ts",
        {
            "lingui.config.ts": (
                "export default defineConfig({\n"
                "  sourceLocale: 'cs', locales: ['cs', 'en'],\n"
                "  catalogs: [{ path: '<rootDir>/src/locales/{locale}/messages' }],\n"
                "});\n"
            ),
            "src/locales/cs/messages.po": "",
        },
        {"source_locale": "cs", "locale_paths": ["src/locales"]},
    ),
    (
        "a Lingui config's format: a JSON formatter",
        {
            "lingui.config.ts": (
                "import { defineConfig } from '@lingui/cli'\n"
                "import { formatter } from '@lingui/format-json'\n"
                "export default defineConfig({ sourceLocale: 'ru', locales: ['ru', 'en'],\n"
                "  format: formatter({ style: 'minimal' }),\n"
                "  catalogs: [{ path: 'src/locales/{locale}/messages', include: ['src'] }] })\n"
            ),
            "src/locales/ru/messages.json": JSON,
        },
        {"source_locale": "ru", "locale_paths": ["src/locales"], "locale_format": "json"},
    ),
    (
        "a Lingui config's format: the PO formatter",
        {
            "lingui.config.ts": (
                "import { formatter } from '@lingui/format-po'\n"
                "export default { format: formatter({ lineNumbers: false }) }\n"
            ),
        },
        {"locale_format": "po"},
    ),
    (
        "a Lingui config's format: Lingui 3's name of JSON",
        {"lingui.config.js": "module.exports = { format: 'minimal' }\n"},
        {"locale_format": "json"},
    ),
    (
        "a .linguirc",
        {
            ".linguirc": json.dumps(
                {
                    "sourceLocale": "de",
                    "format": "minimal",
                    "catalogs": [{"path": "<rootDir>/i18n/{locale}/messages"}],
                }
            ),
            "i18n/de/messages.json": JSON,
        },
        {"source_locale": "de", "locale_paths": ["i18n"], "locale_format": "json"},
    ),
    (
        "package.json's lingui object",
        {
            "package.json": json.dumps(
                {
                    "lingui": {
                        "sourceLocale": "fr",
                        "format": "po",
                        "catalogs": [{"path": "l/{locale}"}],
                    }
                }
            ),
            "l/fr.po": "",
        },
        {"source_locale": "fr", "locale_paths": ["l"], "locale_format": "po"},
    ),
    (
        "a Lingui format of the project's own names no format",
        {"lingui.config.ts": "import f from './fmt'\nexport default { format: f() }\n"},
        {},
    ),
    (
        "a served load path with no public folder names no folder",
        {"src/i18n.ts": "i18next.init({ backend: { loadPath: '/locales/{{lng}}.json' } });\n"},
        {},
    ),
    (
        "test files and files not named for i18n are not set-up files",
        {
            "src/i18n.test.ts": "i18next.init({ defaultNS: 'test' });\n",
            "src/__tests__/i18n.ts": "i18next.init({ defaultNS: 'test' });\n",
            "src/setup/anything.ts": "i18next.init({ defaultNS: 'app' });\n",
        },
        {},
    ),
    (
        "a file named for i18n without a set-up call",
        {"src/i18n.ts": "export const defaultNS = 'app';\n"},
        {},
    ),
]


@pytest.mark.parametrize(("case", "files", "expected"), SHAPES, ids=[case for case, *_ in SHAPES])
def test_setup_shapes_are_read(tmp_path: Path, case: str, files: dict[str, Any], expected):
    write_tree(tmp_path, files)

    assert summary(read_app_setup(tmp_path, ".")) == expected


def test_each_finding_says_file_line_and_option(tmp_path: Path):
    write_tree(
        tmp_path,
        {
            "src/i18n.ts": (
                "import i18next from 'i18next';\n\n"
                "i18next.init({\n  fallbackLng: 'en',\n  defaultNS: 'app',\n});\n"
            )
        },
    )

    setup = read_app_setup(tmp_path, ".")

    assert setup.source_locale is not None and setup.default_namespace is not None
    assert setup.source_locale.origin == "src/i18n.ts:4: fallbackLng"
    assert setup.default_namespace.origin == "src/i18n.ts:5: defaultNS"
    assert setup.source_locale.read and setup.default_namespace.read
    assert setup.origins == ["src/i18n.ts"]


def test_root_config_wins_over_a_file_named_for_i18n(tmp_path: Path):
    write_tree(
        tmp_path,
        {
            "next-i18next.config.js": "module.exports = { defaultNS: 'site' };\n",
            "src/i18n.ts": "i18next.init({ defaultNS: 'other', fallbackNS: 'shared' });\n",
        },
    )

    setup = read_app_setup(tmp_path, ".")

    assert summary(setup)["default_namespace"] == "site"
    assert summary(setup)["fallback_namespaces"] == ["shared"]
    assert setup.origins == ["next-i18next.config.js", "src/i18n.ts"]


def test_an_app_folder_reads_its_own_files_and_paths_stay_relative_to_the_root(tmp_path: Path):
    write_tree(
        tmp_path,
        {
            "package.json": {"dependencies": {"i18next": "23"}},
            "src/i18n.ts": "i18next.init({ defaultNS: 'root' });\n",
            "apps/web/package.json": {"dependencies": {"react": "18", "react-i18next": "14"}},
            "apps/web/src/i18n.ts": (
                "import en from './locales/en.json';\n"
                "i18n.init({ defaultNS: 'web', resources: { en: { web: en } } });\n"
            ),
            "apps/web/src/locales/en.json": JSON,
        },
    )

    root, web = read_setups(tmp_path, [".", "apps/web"])

    assert (root.folder, summary(root)) == (
        ".",
        {"library": "i18next", "default_namespace": "root"},
    )
    assert (web.folder, summary(web)) == (
        "apps/web",
        {
            "library": "react-i18next",
            "framework": "react",
            "default_namespace": "web",
            "locale_paths": ["apps/web/src/locales"],
        },
    )
    assert web.origins == ["apps/web/src/i18n.ts"]


def test_the_library_comes_from_a_package_json_above_the_app_when_its_own_names_none(
    tmp_path: Path,
):
    write_tree(
        tmp_path,
        {
            "package.json": {"devDependencies": {"vue-i18n": "9"}},
            "packages/app/package.json": {"dependencies": {"vue": "3"}},
        },
    )

    setup = read_app_setup(tmp_path, "packages/app")

    assert (setup.library, setup.framework) == ("vue-i18n", "vue")


def test_folders_with_neither_package_json_nor_set_up_are_left_out(tmp_path: Path):
    write_tree(tmp_path, {"docs/readme.md": "x\n", "lib/package.json": {"name": "lib"}})

    assert [setup.folder for setup in read_setups(tmp_path, [".", "docs", "lib", "gone"])] == [
        "lib"
    ]


def test_set_up_files_deeper_than_the_limit_are_not_read(tmp_path: Path):
    write_tree(
        tmp_path,
        {
            "a/b/c/d/e/i18n.ts": "init({ defaultNS: 'five' });\n",
            "a/b/c/d/e/f/i18n.ts": "init({ defaultNS: 'six' });\n",
        },
    )

    setup = read_app_setup(tmp_path, ".")

    assert setup.origins == ["a/b/c/d/e/i18n.ts"]


def test_discovered_scopes_give_a_set_up_below_a_source_folder_to_that_folder(tmp_path: Path):
    write_tree(
        tmp_path,
        {
            "package.json": {"dependencies": {"i18next": "23"}},
            "src/i18n.ts": "i18next.init({ defaultNS: 'site' });\n",
            "apps/admin/i18n.ts": "i18next.init({ defaultNS: 'admin', fallbackNS: 'site' });\n",
        },
    )

    found = discovered_setups(tmp_path, ["src", "apps/admin"])

    assert [(setup.folder, setup.default_namespace, setup.origin) for setup in found] == [
        (".", "site", "src/i18n.ts:1"),
        ("apps/admin", "admin", "apps/admin/i18n.ts:1"),
    ]
    assert found[1].fallback_namespaces == ["site"]


def test_a_member_of_an_imported_config_object_is_read(tmp_path: Path):
    write_tree(
        tmp_path,
        {
            "package.json": {"dependencies": {"react-i18next": "15"}},
            "src/i18n/shared.mjs": "export default { contextSeparator: '//context:' };\n",
            "src/i18n/config.ts": (
                "import i18n from 'i18next';\nimport shared from './shared.mjs';\n"
                "i18n.init({\n  contextSeparator: shared.contextSeparator,\n"
                "  nsSeparator: '|',\n  keySeparator: false,\n});\n"
            ),
        },
    )
    setup = read_app_setup(tmp_path, ".")
    assert setup.context_separator is not None
    assert (setup.context_separator.value, setup.context_separator.origin) == (
        "//context:",
        "src/i18n/config.ts:4: contextSeparator",
    )
    assert setup.ns_separator is not None and setup.ns_separator.value == "|"


def test_discovery_takes_the_separators_the_set_up_sets(tmp_path: Path):
    from i18nprune.config import load_config

    write_tree(
        tmp_path,
        {
            "package.json": {"dependencies": {"react-i18next": "15"}},
            "src/i18n/config.ts": (
                "import i18n from 'i18next';\n"
                "i18n.init({ fallbackLng: 'de', nsSeparator: '|', keySeparator: false });\n"
            ),
            "src/i18n/locales/de/translation.json": {"Save": "Sichern", "A. B": "C"},
            "src/i18n/locales/de/glossary.json": {"Pod": "Pod"},
            "src/i18n/locales/en/translation.json": {"Save": "Save"},
            "src/App.tsx": "t('Save');\n",
        },
    )
    loaded = load_config(tmp_path, env={})
    locales = loaded.config.locales
    assert (locales.directory, locales.source, locales.namespaces) == (
        "src/i18n/locales",
        "de",
        "file",
    )
    assert (locales.ns_separator, locales.key_separator) == ("|", False)
    assert loaded.findings["locales.source"].origin == "src/i18n/config.ts:2: fallbackLng"


# --- the locale files i18next's `resources` read -----------------------------------------------

ANSWER_INIT = (
    "import i18next from 'i18next';\n"
    "import en_US from '@i18n/en_US.yaml';\n"
    "const initResources = {\n"
    "  en_US: {\n"
    "    translation: en_US.ui,\n"
    "  },\n"
    "};\n"
    "i18next.init({ resources: initResources, fallbackLng: DEFAULT_LANG });\n"
)


def test_resources_read_through_a_tsconfig_alias_name_the_file_and_its_object(tmp_path: Path):
    write_tree(
        tmp_path,
        {
            "i18n/en_US.yaml": "backend:\n  x: X\nui:\n  y: Y\n",
            "ui/package.json": {"dependencies": {"i18next": "23"}},
            "ui/tsconfig.json": (
                '{\n  // as apache/answer spells it\n  "compilerOptions": {\n'
                '    "baseUrl": "./",\n    "paths": { "@i18n/*": ["../i18n/*"] },\n  },\n}\n'
            ),
            "ui/src/i18n/init.ts": ANSWER_INIT,
        },
    )

    setup = read_app_setup(tmp_path, "ui")

    assert setup.resource_roots == [
        ResourceRoot("i18n/en_US.yaml", "ui", "ui/src/i18n/init.ts:5: resources.en_US.translation")
    ]


@pytest.mark.parametrize(
    ("imports", "resource", "root"),
    [
        ("import en from '../locales/en.json';", "en", ""),
        ("import en from '../locales/en.json';", "en.app.web", "app.web"),
        ("import en from '../locales/en.json';", "en['app']", "app"),
        ("const en = require('../locales/en.json');", "en.app", "app"),
        ("import en from '../locales/en.json';\nconst app = en.app;", "app", "app"),
        ("", "require('../locales/en.json').app", "app"),
    ],
)
def test_a_resource_is_an_imported_file_or_a_member_of_one(
    tmp_path: Path, imports: str, resource: str, root: str
):
    write_tree(
        tmp_path,
        {
            "locales/en.json": JSON,
            "src/i18n.ts": (
                f"{imports}\ni18next.init({{ resources: {{ en: {{ ns: {resource} }} }} }});\n"
            ),
        },
    )

    [read] = read_app_setup(tmp_path, ".").resource_roots

    assert (read.file, read.root) == ("locales/en.json", root)


READ_APP = "i18next.init({ resources: { en: { ns: en.app } } });\n"


@pytest.mark.parametrize(
    "setup",
    [
        # a named or namespace import is no default export of the file
        "import { app } from '../locales/en.json';\n"
        "i18next.init({ resources: { en: { ns: app } } });\n",
        "import * as en from '../locales/en.json';\n"
        "i18next.init({ resources: { en: { ns: en.app } } });\n",
        # a computed member, a call, a file that is no locale file, a file that does not exist
        "import en from '../locales/en.json';\n"
        "i18next.init({ resources: { en: { ns: en[part] } } });\n",
        "import en from '../locales/en.json';\n"
        "i18next.init({ resources: { en: { ns: pick(en) } } });\n",
        "import en from './messages';\n" + READ_APP,
        "import en from '../locales/fr.json';\n" + READ_APP,
        # an alias no tsconfig declares
        "import en from '@locales/en.json';\n" + READ_APP,
    ],
)
def test_resources_built_any_other_way_name_no_file(tmp_path: Path, setup: str):
    write_tree(tmp_path, {"locales/en.json": JSON, "src/messages.ts": "", "src/i18n.ts": setup})

    assert read_app_setup(tmp_path, ".").resource_roots == []
