"""i18next's plural and context forms, `t` wrappers and custom hooks, and the options users of
i18next-parser and i18next-cli set (custom function, hook and `Trans` names, functions to ignore,
separators of any string): each case saying which keys the code reads and which it does not
(`tests/conformance/harness.py`); and the real CLI over an app that uses them together."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.harness import Case, check, params
from tests.conftest import write_tree

REACT = ("i18next", "react-i18next")
HOOK = "import { useTranslation } from 'react-i18next';\n"
PLURALS_DOC = "i18next.com/translation-function/plurals"
CONTEXT_DOC = "i18next.com/translation-function/context"
OPTIONS_DOC = "i18next.com/overview/configuration-options#misc"


def component(body: str) -> dict[str, str]:
    """A component that takes `t` from `useTranslation()` and runs `body` (statements)."""
    return {
        "src/App.tsx": HOOK + "export function App({ n }: { n: number }) {\n"
        "  const { t } = useTranslation();\n" + body + "\n  return null;\n}\n"
    }


PLURAL_CASES = [
    Case(
        "plural_count",
        component("  t('cart.items', { count: n });"),
        used={"cart.items_one", "cart.items_other"},
        unused={"cart.other_one"},
        missing={"cart.items"},
        dependencies=REACT,
        doc=PLURALS_DOC + "#singular-plural",
    ),
    Case(
        "plural_zero_form",
        component("  t('cart.items', { count: n });"),
        used={"cart.items_zero", "cart.items_one", "cart.items_other"},
        missing={"cart.items"},
        dependencies=REACT,
        doc=PLURALS_DOC + "#singular-plural (`_zero` for a count of 0)",
    ),
    Case(
        "ordinal_option",
        component("  t('place', { count: n, ordinal: true });"),
        used={"place_ordinal_one", "place_ordinal_two", "place_ordinal_few", "place_ordinal_other"},
        unused={"rank_ordinal_one"},
        missing={"place"},
        dependencies=REACT,
        doc=PLURALS_DOC + "#ordinal-plurals",
    ),
    Case(
        "ordinal_by_key_suffix",
        component("  t('place_ordinal', { count: n });"),
        used={"place_ordinal_one", "place_ordinal_two", "place_ordinal_few", "place_ordinal_other"},
        unused={"rank_ordinal_one"},
        missing={"place_ordinal"},
        dependencies=REACT,
        doc=PLURALS_DOC + "#ordinal-plurals (the suffix written in the key)",
    ),
    Case(
        "ordinal_by_key_suffix_without_count",
        component("  t('place_ordinal');"),
        used={"place_ordinal_one", "place_ordinal_other"},
        missing={"place_ordinal"},
        dependencies=REACT,
        doc=PLURALS_DOC + "#ordinal-plurals",
    ),
    Case(
        "ordinal_suffix_names_a_plain_key",
        component("  t('place_ordinal');"),
        used={"place_ordinal"},
        unused={"place_one", "place_other"},
        dependencies=REACT,
        doc=PLURALS_DOC + "#ordinal-plurals",
    ),
    Case(
        "v3_plural_suffix",
        component("  t('item', { count: n });"),
        used={"item", "item_plural"},
        unused={"thing_plural"},
        missing={"item"},
        dependencies=REACT,
        doc="i18next.com/misc/json-format#i18next-json-v3 (compatibilityJSON v3)",
    ),
    Case(
        "v3_numbered_forms",
        component("  t('item', { count: n });"),
        used={"item_0", "item_1", "item_2", "item_5"},
        unused={"thing_0"},
        missing={"item"},
        dependencies=REACT,
        doc="i18next.com/misc/json-format#i18next-json-v3 (languages with several forms)",
    ),
    Case(
        "context_and_plural",
        component("  t('friend', { context: 'male', count: n });"),
        used={"friend_male_one", "friend_male_other"},
        unused={"friend_female_one", "enemy_male_one"},
        missing={"friend"},
        dependencies=REACT,
        doc=CONTEXT_DOC + "#combining-with-plurals",
    ),
    Case(
        "context_literal",
        component("  t('friend', { context: 'male' });"),
        used={"friend", "friend_male"},
        unused={"friend_female"},
        missing={"friend"},
        dependencies=REACT,
        doc=CONTEXT_DOC + "#basic",
    ),
    Case(
        "context_unknown_plural",
        component(
            "  const gender = n > 1 ? 'male' : 'female';\n"
            "  t('friend', { context: gender, count: n });"
        ),
        used={"friend_male_one", "friend_female_other"},
        unused={"enemy_male_one"},
        missing={"friend"},
        dependencies=REACT,
        doc=CONTEXT_DOC + "#combining-with-plurals",
    ),
]

SEPARATOR_CASES = [
    Case(
        "plural_separator",
        component("  t('cart.items', { count: n });\n  t('place', { count: n, ordinal: true });"),
        used={"cart.items-one", "cart.items-other", "place-ordinal-two"},
        unused={"cart.items_one", "cart.other-one"},
        missing={"cart.items", "place"},
        config={"locales": {"pluralSeparator": "-"}},
        dependencies=REACT,
        doc=OPTIONS_DOC + " (pluralSeparator)",
    ),
    Case(
        "plural_separator_ordinal_by_key_suffix",
        component("  t('place-ordinal', { count: n });"),
        used={"place-ordinal-one", "place-ordinal-few"},
        unused={"rank-ordinal-one"},
        missing={"place-ordinal"},
        config={"locales": {"pluralSeparator": "-"}},
        dependencies=REACT,
        doc=OPTIONS_DOC + " (pluralSeparator)",
    ),
    Case(
        "context_separator",
        component("  t('friend', { context: 'male', count: n });"),
        used={"friend|male_one", "friend|male_other"},
        unused={"friend|female_one"},
        missing={"friend"},
        config={"locales": {"contextSeparator": "|"}},
        dependencies=REACT,
        doc=OPTIONS_DOC + " (contextSeparator)",
    ),
    Case(
        "key_separator_dash",
        component("  t('home-title');\n  t('home-menu-' + String(n));"),
        used={"home.title", "home.menu.a"},
        unused={"home.other", "away.title"},
        missing={"home.title"},
        config={"locales": {"keySeparator": "-"}},
        dependencies=REACT,
        doc=OPTIONS_DOC + " (keySeparator)",
    ),
    Case(
        "key_separator_with_key_prefix",
        {
            "src/App.tsx": HOOK + "export function App() {\n"
            "  const { t } = useTranslation('translation', { keyPrefix: 'page-home' });\n"
            "  return <p>{t('title')}</p>;\n}\n"
        },
        used={"page.home.title"},
        unused={"page.title"},
        config={"locales": {"keySeparator": "-"}},
        dependencies=REACT,
        doc="react.i18next.com/latest/usetranslation-hook#optional-keyprefix-option",
    ),
    Case(
        "key_separator_quoted_string_keeps_the_key",
        {"src/keys.ts": "export const KEY = 'home-title';\n", **component("  t('home-x');")},
        used={"home.x"},
        unused={"home.other"},
        missing={"home.x"},
        files={},
        config={"locales": {"keySeparator": "-"}},
        dependencies=REACT,
        doc=OPTIONS_DOC + " (keySeparator)",
    ),
]


@pytest.mark.parametrize("case", params(PLURAL_CASES))
def test_plural_and_context_forms(case: Case, tmp_path: Path) -> None:
    check(case, tmp_path)


@pytest.mark.parametrize("case", params(SEPARATOR_CASES))
def test_separators(case: Case, tmp_path: Path) -> None:
    check(case, tmp_path)


WRAPPER_DOC = "i18next.com/overview/api#t (a function of the app's that calls `t` with its key)"

WRAPPER_CASES = [
    Case(
        "arrow_wrapper",
        component("  const t2 = (key: string) => t(key);\n  t2('home.title');"),
        used={"home.title"},
        unused={"home.unused"},
        dependencies=REACT,
        doc=WRAPPER_DOC,
    ),
    Case(
        "function_wrapper_with_options",
        {
            "src/i18n.ts": "import i18n from 'i18next';\n"
            "function tr(key: string, opts?: object) {\n  return i18n.t(key, opts);\n}\n"
            "export const labels = () => [tr('menu.open'), tr('cart.items', { count: 2 })];\n"
        },
        used={"menu.open", "cart.items_one", "cart.items_other"},
        unused={"menu.close"},
        missing={"menu.open", "cart.items"},
        dependencies=("i18next",),
        doc=WRAPPER_DOC,
    ),
    Case(
        "wrapper_of_a_namespaced_t",
        {
            "src/App.tsx": HOOK + "export function App() {\n"
            "  const { t } = useTranslation('auth');\n"
            "  const label = (key: string) => t(key);\n"
            "  return <p>{label('login.title')}</p>;\n}\n"
        },
        used={"auth:login.title"},
        unused={"auth:login.other", "translation:login.title"},
        namespaces=("translation", "auth"),
        dependencies=REACT,
        doc=WRAPPER_DOC,
    ),
    Case(
        "wrapper_of_a_wrapper",
        component(
            "  const a = (key: string) => t(key);\n  const b = (key: string) => a(key);\n"
            "  b('home.title');"
        ),
        used={"home.title"},
        unused={"home.unused"},
        dependencies=REACT,
        doc=WRAPPER_DOC,
    ),
    Case(
        "wrapper_with_a_dynamic_call",
        component("  const t2 = (key: string) => t(key);\n  t2(`status.${n}`);"),
        used={"status.1"},
        unused={"home.unused"},
        missing=set(),
        dependencies=REACT,
        doc=WRAPPER_DOC,
    ),
    Case(
        "exported_wrapper_in_another_file",
        {
            "src/tr.ts": "import i18n from 'i18next';\n"
            "export function tr(key: string) {\n  return i18n.t(key);\n}\n",
            "src/page.ts": "import { tr } from './tr';\nexport const save = tr('page.save');\n",
        },
        used={"page.save"},
        unused={"other.save"},
        dependencies=("i18next",),
        doc=WRAPPER_DOC,
        gap="a file that calls only the wrapper is not parsed (no translation name in it): "
        "its keys are kept by their quoted strings, and reported missing once `functions` "
        "names the wrapper",
    ),
    Case(
        "wrapper_adding_a_prefix",
        component("  const page = (key: string) => t('page.' + key);\n  page('title');"),
        used={"page.title"},
        unused={"title", "page.other"},
        dependencies=REACT,
        doc=WRAPPER_DOC,
        gap="a wrapper that builds the key from its parameter is a dynamic site (`page.`), "
        "its calls are not read as `page.title`",
    ),
    Case(
        "configured_function_wrapper_in_another_file",
        {
            "src/tr.ts": "import i18n from 'i18next';\n"
            "export function tr(key: string) {\n  return i18n.t(key);\n}\n",
            "src/page.ts": "import { tr } from './tr';\n"
            "export const title = (n: number) => tr(`page.${n}`);\n"
            "export const save = tr('page.save');\n",
        },
        used={"page.save", "page.1"},
        unused={"other.save"},
        missing={"page.save"},
        config={"functions": ["t", "tr"]},
        dependencies=("i18next",),
        doc=WRAPPER_DOC + "; i18next-cli `extract.functions`",
    ),
]

HOOK_DOC = "i18next-cli configuration: extract.useTranslationNames"

OPTION_CASES = [
    Case(
        "configured_hook_with_namespace_argument",
        {
            "src/App.tsx": "import { useAppTranslation } from './i18n';\n"
            "export function App() {\n  const { t } = useAppTranslation('auth');\n"
            "  return <p>{t('login.title')}</p>;\n}\n"
        },
        used={"auth:login.title"},
        unused={"auth:login.other", "translation:login.title"},
        namespaces=("translation", "auth"),
        config={"hooks": ["useAppTranslation"]},
        dependencies=REACT,
        doc=HOOK_DOC,
    ),
    Case(
        "configured_hook_returning_t",
        {
            "src/App.tsx": "import { useAppT } from './i18n';\n"
            "export function App() {\n  const tr = useAppT(undefined, { keyPrefix: 'home' });\n"
            "  return <p>{tr('title')}</p>;\n}\n"
        },
        used={"home.title"},
        unused={"home.other"},
        config={"hooks": ["useAppT"]},
        dependencies=REACT,
        doc=HOOK_DOC,
    ),
    Case(
        "configured_hook_without_namespace_counts_in_every_namespace",
        {
            "src/App.tsx": "import { useAppT } from './i18n';\n"
            "export function App() {\n  const { t } = useAppT();\n"
            "  return <p>{t('login.title')}</p>;\n}\n"
        },
        used={"auth:login.title", "translation:login.title"},
        unused={"auth:login.other"},
        missing={"login.title"},
        namespaces=("translation", "auth"),
        config={"hooks": ["useAppT"]},
        dependencies=REACT,
        doc=HOOK_DOC,
    ),
    Case(
        "trans_components",
        {
            "src/App.tsx": "import { AppTrans } from './AppTrans';\n"
            'export const App = () => <AppTrans i18nKey="home.title" />;\n'
        },
        used={"home.title"},
        unused={"home.other"},
        config={"transComponents": ["AppTrans"]},
        dependencies=REACT,
        doc="i18next-cli configuration: extract.transComponents",
    ),
    Case(
        "ignore_functions",
        {
            "src/App.tsx": HOOK + "import { schema } from './schema';\n"
            "export function App({ field }: { field: string }) {\n"
            "  const { t } = useTranslation();\n"
            "  schema.t(field);\n  return <p>{t('home.title')}</p>;\n}\n"
        },
        used={"home.title"},
        unused={"home.other"},
        config={"ignoreFunctions": ["schema.t"]},
        dependencies=REACT,
        doc="i18next-parser lexers: functions (only the names given are translation calls)",
    ),
]


@pytest.mark.parametrize("case", params(WRAPPER_CASES))
def test_wrappers(case: Case, tmp_path: Path) -> None:
    check(case, tmp_path)


@pytest.mark.parametrize("case", params(OPTION_CASES))
def test_extractor_options(case: Case, tmp_path: Path) -> None:
    check(case, tmp_path)


APP_HOOK = (
    "import { useTranslation } from 'react-i18next';\n"
    "export const useAppT = () => useTranslation('app').t;\n"
    "export function useAdmin() {\n"
    "  const { t } = useTranslation('admin', { keyPrefix: 'page' });\n"
    "  return t;\n}\n"
    "export const useAppTranslation = () => useTranslation('app');\n"
)
HOOKS_DOC = "react.i18next.com/latest/usetranslation-hook (an app's own hook around it)"

HOOK_CASES = [
    Case(
        "own_hook_returning_t_in_its_file",
        {
            "src/App.tsx": HOOK + "const useAppT = () => useTranslation('app').t;\n"
            "export function App() {\n  const tr = useAppT();\n"
            "  return <p>{tr('home.title')}</p>;\n}\n"
        },
        used={"app:home.title"},
        unused={"app:home.other", "translation:home.title"},
        namespaces=("translation", "app"),
        dependencies=REACT,
        doc=HOOKS_DOC,
    ),
    Case(
        "own_hook_imported",
        {
            "src/i18n.ts": APP_HOOK,
            "src/App.tsx": "import { useAppT } from './i18n';\n"
            "export function App() {\n  const t = useAppT();\n"
            "  return <p>{t('home.title')}</p>;\n}\n",
        },
        used={"app:home.title"},
        unused={"app:home.other", "translation:home.title", "admin:home.title"},
        namespaces=("translation", "app", "admin"),
        dependencies=REACT,
        doc=HOOKS_DOC,
    ),
    Case(
        "own_hook_imported_with_key_prefix",
        {
            "src/i18n.ts": APP_HOOK,
            "src/Admin.tsx": "import { useAdmin } from './i18n';\n"
            "export function Admin() {\n  const t = useAdmin();\n"
            "  return <p>{t('title')}</p>;\n}\n",
        },
        used={"admin:page.title"},
        unused={"admin:title", "app:page.title"},
        namespaces=("translation", "app", "admin"),
        dependencies=REACT,
        doc=HOOKS_DOC,
    ),
    Case(
        "own_hook_returning_the_object",
        {
            "src/i18n.ts": APP_HOOK,
            "src/App.tsx": "import { useAppTranslation } from './i18n';\n"
            "export function App() {\n  const { t } = useAppTranslation();\n"
            "  return <p>{t('home.title')}</p>;\n}\n",
        },
        used={"app:home.title"},
        unused={"translation:home.title"},
        namespaces=("translation", "app"),
        dependencies=REACT,
        doc=HOOKS_DOC,
    ),
    Case(
        "own_hook_default_export",
        {
            "src/useAppT.ts": "import { useTranslation } from 'react-i18next';\n"
            "export default function useAppT() {\n  const { t } = useTranslation('app');\n"
            "  return t;\n}\n",
            "src/App.tsx": "import useAppT from './useAppT';\n"
            "export function App() {\n  const t = useAppT();\n"
            "  return <p>{t('home.title')}</p>;\n}\n",
        },
        used={"app:home.title"},
        unused={"translation:home.title"},
        namespaces=("translation", "app"),
        dependencies=REACT,
        doc=HOOKS_DOC,
    ),
    Case(
        "own_hook_returning_an_object_literal",
        {
            "src/i18n.ts": "import { useTranslation } from 'react-i18next';\n"
            "export function useAppT() {\n  const { t } = useTranslation('app');\n"
            "  return { t };\n}\n",
            "src/App.tsx": "import { useAppT } from './i18n';\n"
            "export function App() {\n  const { t } = useAppT();\n"
            "  return <p>{t('home.title')}</p>;\n}\n",
        },
        used={"app:home.title"},
        unused={"translation:home.title"},
        namespaces=("translation", "app"),
        dependencies=REACT,
        doc=HOOKS_DOC,
    ),
    Case(
        "unknown_hook_keeps_keys_in_every_namespace",
        {
            "src/i18n.ts": "export const useAppT = () => (globalThis as any).pick();\n",
            "src/App.tsx": "import { useAppT } from './i18n';\n"
            "export function App() {\n  const t = useAppT();\n"
            "  return <p>{t('home.title')}</p>;\n}\n",
        },
        used={"app:home.title", "translation:home.title"},
        unused={"app:home.other"},
        missing={"home.title"},
        namespaces=("translation", "app"),
        dependencies=REACT,
        doc=HOOKS_DOC,
    ),
]


@pytest.mark.parametrize("case", params(HOOK_CASES))
def test_hooks(case: Case, tmp_path: Path) -> None:
    check(case, tmp_path)


# A react-i18next app configured as an i18next-cli user would: its own hooks (`useAppT`, and a
# configured `useSettingsTranslation`), a wrapper around `t`, ordinal plurals written in the
# key and by option, a `-` plural separator and a custom `<Trans>` component.
OPTIONS_APP = {
    "package.json": {"name": "shop", "dependencies": {"i18next": "*", "react-i18next": "*"}},
    "i18nprune.config.json": {
        "src": "src",
        "locales": {
            "directory": "public/locales",
            "mode": "locale_directory",
            "structure": "locale_per_dir",
            "namespaces": "file",
            "defaultNamespace": "common",
            "pluralSeparator": "-",
        },
        "hooks": ["useSettingsTranslation"],
        "transComponents": ["ShopTrans"],
        "ignoreFunctions": ["analytics.t"],
    },
    "src/i18n/hooks.ts": (
        "import { useTranslation } from 'react-i18next';\n"
        "export const useAppT = () => useTranslation('shop').t;\n"
        "export function useSettingsTranslation(ns: string) {\n"
        "  return useTranslation(ns);\n}\n"
    ),
    "src/components/Race.tsx": (
        "import { useTranslation } from 'react-i18next';\n"
        "export function Race({ place, laps }: { place: number; laps: number }) {\n"
        "  const { t } = useTranslation();\n"
        "  const label = (key: string, count: number) => t(key, { count });\n"
        "  return (\n    <p>\n"
        "      {t('race.place', { count: place, ordinal: true })}\n"
        "      {t('race.lap_ordinal', { count: laps })}\n"
        "      {label('race.laps', laps)}\n"
        "    </p>\n  );\n}\n"
    ),
    "src/components/Cart.tsx": (
        "import { useAppT } from '../i18n/hooks';\n"
        "import { ShopTrans } from './ShopTrans';\n"
        "import { analytics } from '../analytics';\n"
        "export function Cart({ event }: { event: string }) {\n"
        "  const t = useAppT();\n"
        "  analytics.t(event);\n"
        "  return (\n    <div>\n"
        "      <h1>{t('cart.title')}</h1>\n"
        '      <ShopTrans i18nKey="cart.note" />\n'
        "    </div>\n  );\n}\n"
    ),
    "src/components/Settings.tsx": (
        "import { useSettingsTranslation } from '../i18n/hooks';\n"
        "export function Settings() {\n"
        "  const { t } = useSettingsTranslation('settings');\n"
        "  return <h1>{t('title')}</h1>;\n}\n"
    ),
    "public/locales/en/common.json": {
        "race": {
            "place-ordinal-one": "{{count}}st place",
            "place-ordinal-two": "{{count}}nd place",
            "place-ordinal-few": "{{count}}rd place",
            "place-ordinal-other": "{{count}}th place",
            "lap_ordinal-one": "{{count}}st lap",
            "lap_ordinal-other": "{{count}}th lap",
            "laps-one": "{{count}} lap",
            "laps-other": "{{count}} laps",
            "finish-one": "An old finish line",
        },
        "title": "A title of another namespace's",
    },
    "public/locales/en/shop.json": {
        "cart": {"title": "Your cart", "empty": "Nothing here yet"},
    },
    "public/locales/en/settings.json": {"title": "Settings", "subtitle": "Unused subtitle"},
}
OPTIONS_APP_UNUSED = {
    "common:race.finish-one",
    "common:title",
    "shop:cart.empty",
    "settings:subtitle",
}


@pytest.mark.slow
def test_the_cli_reads_an_app_configured_as_an_i18next_cli_user_would(tmp_path, run_cli):
    root = write_tree(tmp_path / "shop", OPTIONS_APP)

    cleanup = run_cli("cleanup", "--dry-run", "--json", cwd=root)
    validate = run_cli("validate", "--json", cwd=root)

    assert cleanup.code == 0, cleanup.stdout + cleanup.stderr
    assert set(cleanup.envelope["data"]["keys"]) == OPTIONS_APP_UNUSED
    assert validate.envelope["data"]["missing"] == ["common:cart.note"]  # `<Trans>`: default ns
    codes = {issue["code"] for issue in (*cleanup.envelope["issues"], *validate.envelope["issues"])}
    assert "i18nprune.reference.unprotected_dynamic_keys" not in codes


def test_discovery_reads_the_names_and_separators_of_an_i18next_cli_config(tmp_path, run_cli):
    files = {
        key: value
        for key, value in OPTIONS_APP.items()
        if key not in ("i18nprune.config.json", "src/i18n/hooks.ts")
    }
    files["i18next.config.ts"] = (
        "import { defineConfig } from 'i18next-cli';\n"
        "export default defineConfig({\n"
        "  locales: ['en'],\n"
        "  extract: {\n"
        "    input: ['src/**/*.{ts,tsx}'],\n"
        "    output: 'public/locales/{{language}}/{{namespace}}.json',\n"
        "    defaultNS: 'common',\n"
        "    pluralSeparator: '-',\n"
        "    functions: ['t', '*.t', 'translate'],\n"
        "    useTranslationNames: ['useTranslation', 'useSettingsTranslation',\n"
        "      { name: 'useAppT', nsArg: 0, keyPrefixArg: 1 }],\n"
        "    transComponents: ['Trans', 'ShopTrans'],\n"
        "  },\n"
        "});\n"
    )
    root = write_tree(tmp_path / "shop", files)

    shown = run_cli("config", "--json", cwd=root)

    config = shown.envelope["data"]["config"]
    assert config["locales"]["pluralSeparator"] == "-"
    assert config["hooks"] == ["useSettingsTranslation", "useAppT"]
    assert config["transComponents"] == ["ShopTrans"]
    assert config["functions"] == [
        "t",
        "i18n.t",
        "i18next.t",
        "i18n.exists",
        "i18next.exists",
        "translate",
    ]


def test_discovery_reads_an_i18next_parser_config(tmp_path, run_cli):
    files = {
        key: value
        for key, value in OPTIONS_APP.items()
        if key not in ("i18nprune.config.json", "src/i18n/hooks.ts")
    }
    files["i18next-parser.config.js"] = (
        "module.exports = {\n"
        "  locales: ['en'],\n"
        "  output: 'public/locales/$LOCALE/$NAMESPACE.json',\n"
        "  defaultNamespace: 'common',\n"
        "  keySeparator: '~',\n"
        "  pluralSeparator: '-',\n"
        "  lexers: {\n"
        "    tsx: [{ lexer: 'JsxLexer', functions: ['t', 'tr'],\n"
        "      componentFunctions: ['ShopTrans'] }],\n"
        "  },\n"
        "};\n"
    )
    root = write_tree(tmp_path / "shop", files)

    shown = run_cli("config", "--json", cwd=root)

    config = shown.envelope["data"]["config"]
    assert config["locales"]["keySeparator"] == "~"
    assert config["locales"]["pluralSeparator"] == "-"
    assert config["locales"]["directory"] == "public/locales"
    assert config["transComponents"] == ["ShopTrans"]
    assert "tr" in config["functions"]
