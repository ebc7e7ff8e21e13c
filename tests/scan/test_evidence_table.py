"""The evidence table: the patterns real apps use, each with the exact keys (namespace, path,
default text, subtree) and dynamic sites the scan must report for them."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from i18nprune.envelope import Code
from i18nprune.keys import KeySyntax
from i18nprune.reference import Evidence
from tests.scan.conftest import ScanProject


class Key(NamedTuple):
    key: str
    namespace: str | None = None
    default: str | None = None
    plural: bool = False
    subtree: bool = False


class Dynamic(NamedTuple):
    kind: str
    prefix: str | None
    namespace: str | None = None
    suffix: str = ""


class Case(NamedTuple):
    id: str
    files: dict[str, str]
    keys: list[Key]
    dynamic: tuple[Dynamic, ...] | list[Dynamic] = ()
    syntax: KeySyntax = KeySyntax()
    functions: tuple[str, ...] = ("t",)


NAMESPACED = KeySyntax(namespaces=frozenset({"translation", "auth", "common", "errors"}))
FLAT = KeySyntax(key_separator=None, ns_separator=None)
# sveltekit-i18n: a file's path is its keys' prefix (`a11y/save.json` → `a11y.save.…`).
DOTTED = KeySyntax(
    namespaces=frozenset({"a11y/save", "error/api", "general", "translation"}), ns_separator="."
)
INTL = "import { FormattedMessage, defineMessages, useIntl } from 'react-intl';\n"

CASES = [
    # --- <Trans>: natural-language keys from children, `defaults`, `ns`, `t` ----------------
    Case(
        "trans_children_are_the_key",
        {"a.jsx": "const el = <Trans>Hello <strong>world</strong>, welcome back</Trans>;"},
        [
            Key(
                "Hello <strong>world</strong>, welcome back",
                default="Hello <strong>world</strong>, welcome back",
            )
        ],
        syntax=FLAT,
    ),
    Case(
        "trans_children_index_elements_and_interpolations",
        {
            "a.tsx": "const el = <Trans count={n}>You have "
            "<Link to='/inbox'>{{ n }} messages</Link>.</Trans>;"
        },
        [
            Key(
                "You have <1>{{n}} messages</1>.",
                default="You have <1>{{n}} messages</1>.",
                plural=True,
            )
        ],
        syntax=FLAT,
    ),
    Case(
        "trans_multiline_children_collapse_like_jsx",
        {"a.tsx": "const el = (\n  <Trans>\n    Delete this\n    document?\n  </Trans>\n);"},
        [Key("Delete this document?", default="Delete this document?")],
        syntax=FLAT,
    ),
    Case(
        "trans_defaults_without_key_or_children",
        {"a.jsx": 'const el = <Trans defaults="Sign in to continue" />;'},
        [Key("Sign in to continue", default="Sign in to continue")],
        syntax=FLAT,
    ),
    Case(
        "trans_i18n_key_with_defaults",
        {"a.jsx": 'const el = <Trans i18nKey="login.title" defaults="Sign in" />;'},
        [Key("login.title", default="Sign in")],
    ),
    Case(
        "trans_ns_prop_selects_namespace",
        {"a.jsx": 'const el = <Trans ns="auth" i18nKey="login.title" />;'},
        [Key("login.title", "auth")],
        syntax=NAMESPACED,
    ),
    Case(
        "trans_t_prop_takes_its_binding",
        {
            "a.jsx": "function C() { const { t } = useTranslation('auth'); "
            'return <Trans t={t} i18nKey="login.hint" />; }'
        },
        [Key("login.hint", "auth")],
        syntax=NAMESPACED,
    ),
    Case(
        "trans_dynamic_child_keeps_its_static_start_and_the_extracted_spelling",
        {"a.jsx": "const el = <Trans>Hello {name}</Trans>;"},
        # i18next-parser and i18next-cli write the child as its source: `Hello {name}`.
        [Key("Hello {name}")],
        [Dynamic("template_interpolation", "Hello ")],
        syntax=FLAT,
    ),
    Case(
        "trans_lookalike_component_is_not_trans",
        {"a.jsx": "const el = <Transition>Fade</Transition>;"},
        [],
    ),
    # --- i18next namespaces --------------------------------------------------------------------
    Case(
        "ns_prefix_in_key",
        {"a.ts": "t('auth:login.title');"},
        [Key("login.title", "auth")],
        syntax=NAMESPACED,
    ),
    Case(
        "unknown_ns_prefix_stays_in_the_key",
        {"a.ts": "t('Note: read this');"},
        [Key("Note: read this", "translation")],
        syntax=NAMESPACED,
    ),
    Case(
        "use_translation_binds_namespace",
        {"a.tsx": "function C() { const { t } = useTranslation('auth'); t('title'); }"},
        [Key("title", "auth")],
        syntax=NAMESPACED,
    ),
    Case(
        "use_translation_array_binds_first",
        {"a.tsx": "function C() { const { t } = useTranslation(['common', 'auth']); t('ok'); }"},
        [Key("ok", "common")],
        syntax=NAMESPACED,
    ),
    Case(
        "explicit_ns_in_key_wins_over_binding",
        {"a.tsx": "function C() { const { t } = useTranslation('auth'); t('common:ok'); }"},
        [Key("ok", "common")],
        syntax=NAMESPACED,
    ),
    Case(
        "ns_option_selects_namespace",
        {"a.ts": "t('retry', { ns: 'errors' });"},
        [Key("retry", "errors")],
        syntax=NAMESPACED,
    ),
    Case(
        "with_translation_hoc_binds_props_t",
        {
            "a.jsx": "function Profile(props) { return props.t('name'); }\n"
            "export default withTranslation('auth')(Profile);"
        },
        [Key("name", "auth")],
        syntax=NAMESPACED,
    ),
    Case(
        "get_fixed_t_binds_namespace_and_prefix",
        {"a.ts": "const tt = i18n.getFixedT('fr', 'errors', 'http'); tt('404');"},
        [Key("http.404", "errors")],
        syntax=NAMESPACED,
    ),
    # --- per-call keyPrefix (i18next >= 21.8.14 on a fixed `t`) -------------------------------
    Case(
        "per_call_key_prefix_on_the_hooks_t",
        {
            "a.tsx": "function C() { const { t } = useTranslation();\n"
            "  t('title', { keyPrefix: 'page' }); }"
        },
        [Key("page.title")],
    ),
    Case(
        "per_call_key_prefix_replaces_the_hooks",
        {
            "a.tsx": "function C() {\n"
            "  const { t } = useTranslation('auth', { keyPrefix: 'login' });\n"
            "  t('heading'); t('title', { keyPrefix: 'page_title' }); }"
        },
        [Key("login.heading", "auth"), Key("page_title.title", "auth")],
        syntax=NAMESPACED,
    ),
    Case(
        "empty_per_call_key_prefix_removes_the_hooks",
        {
            "a.tsx": "function C() { const { t } = useTranslation('x', { keyPrefix: 'login' });\n"
            "  t('common.ok', { keyPrefix: '' }); }"
        },
        [Key("common.ok")],
    ),
    Case(
        "per_call_key_prefix_from_a_constant",
        {
            "a.tsx": "const PREFIX = 'settings.profile';\n"
            "function C() { const { t } = useTranslation(); t('name', { keyPrefix: PREFIX }); }"
        },
        [Key("settings.profile.name")],
    ),
    Case(
        "conditional_per_call_key_prefix_takes_each_branch",
        {
            "a.tsx": "function C({ type }) { const { t } = useTranslation();\n"
            "  const keyPrefix = type === 'list' ? 'detail.list' : 'detail.unlist';\n"
            "  return t('title', { keyPrefix }); }"
        },
        [Key("detail.list.title"), Key("detail.unlist.title")],
    ),
    Case(
        "per_call_key_prefix_on_get_fixed_t",
        {
            "a.ts": "const tt = i18n.getFixedT('fr', 'errors', 'http');\n"
            "tt('404', { keyPrefix: 'ws' });"
        },
        [Key("ws.404", "errors")],
        syntax=NAMESPACED,
    ),
    Case(
        "non_literal_per_call_key_prefix_makes_the_site_dynamic",
        {
            "a.tsx": "function C({ p }) { const { t } = useTranslation();\n"
            "  t('name', { keyPrefix: p }); }"
        },
        [],
        [Dynamic("non_literal", None)],
    ),
    Case(
        "plain_t_may_ignore_the_per_call_key_prefix_so_both_readings_count",
        {"a.ts": "import i18n from 'i18next';\ni18n.t('title', { keyPrefix: 'page' });"},
        [Key("page.title"), Key("title")],
    ),
    Case(
        "a_t_the_code_is_handed_reads_both_ways",
        {"a.ts": "export const label = (t) => t('name', { keyPrefix: 'field' });"},
        [Key("field.name"), Key("name")],
    ),
    Case(
        "default_namespace_for_unbound_t",
        {"a.ts": "t('home.title');"},
        [Key("home.title", "translation")],
        syntax=NAMESPACED,
    ),
    Case(
        "translator_passed_as_argument_has_any_namespace",
        {"a.ts": "export function options(t: TFunction) { return [t('option.a')]; }"},
        [Key("option.a", None)],
        syntax=NAMESPACED,
    ),
    Case(
        "props_t_has_any_namespace",
        {"a.jsx": "function C(props) { return props.t('field.name'); }"},
        [Key("field.name", None)],
        syntax=NAMESPACED,
    ),
    Case(
        "i18n_instance_t_is_the_default_namespace",
        {"a.ts": "import i18n from 'i18next';\ni18n.t('home.title');"},
        [Key("home.title", "translation")],
        syntax=NAMESPACED,
    ),
    Case(
        "an_apps_own_i18n_instance_may_have_another_default_namespace",
        {"main.ts": "import i18n from './i18next.config';\nexport const label = i18n.t('Cut');"},
        [Key("Cut", None)],
        syntax=NAMESPACED,
    ),
    Case(
        "opaque_namespace_is_any",
        {"a.tsx": "function C({ ns }) { const { t } = useTranslation(ns); t('title'); }"},
        [Key("title", None)],
        syntax=NAMESPACED,
    ),
    Case(
        "dynamic_key_after_namespace_reaches_whole_namespace",
        {"a.ts": "t(`errors:${code}`);"},
        [],
        [Dynamic("template_interpolation", "", "errors")],
        syntax=NAMESPACED,
    ),
    Case(
        "dynamic_key_through_bound_t_reaches_its_namespace",
        {"a.tsx": "function C({ label }) { const { t } = useTranslation('auth'); t(label); }"},
        [],
        [Dynamic("non_literal", "", "auth")],
        syntax=NAMESPACED,
    ),
    Case(
        "dynamic_key_through_unbound_t_reaches_nothing",
        {"a.ts": "t(label);"},
        [],
        [Dynamic("non_literal", None, "translation")],
        syntax=NAMESPACED,
    ),
    Case(
        "dynamic_prefix_inside_namespace",
        {"a.ts": "t(`auth:fields.${name}`);"},
        [],
        [Dynamic("template_interpolation", "fields.", "auth")],
        syntax=NAMESPACED,
    ),
    Case(
        "dotted_namespace_of_a_nested_file",
        {
            "a.svelte": "<button aria-label={$t('a11y.save.clear_input')}>"
            "{$t('general.ok')}</button>"
        },
        [Key("clear_input", "a11y/save"), Key("ok", "general")],
        syntax=DOTTED,
    ),
    Case(
        "dotted_dynamic_head_reaches_the_namespaces_it_starts",
        {"a.ts": "$t(`error.${info.code}`);"},
        [],
        [
            Dynamic("template_interpolation", "", "error/api"),
            Dynamic("template_interpolation", "error.", "translation"),
        ],
        syntax=DOTTED,
        functions=("$t",),
    ),
    Case(
        "namespaces_off_strips_namespace",
        {"a.ts": "t('common:home.title');"},
        [Key("home.title")],
    ),
    Case(
        "namespaces_off_keeps_natural_language_colon",
        {"a.ts": "t('Error: please try again');"},
        [Key("Error: please try again")],
    ),
    Case(
        "ns_separator_false_never_splits",
        {"a.ts": "t('common:home');"},
        [Key("common:home")],
        syntax=KeySyntax(ns_separator=None),
    ),
    # --- flat keys (keySeparator: false) -------------------------------------------------------
    Case(
        "flat_keys_dynamic_prefix_is_the_text",
        {"a.ts": "t(`Welcome back, ${name}`); t('nav.' + id);"},
        [],
        [
            Dynamic("concatenation", "nav."),
            Dynamic("template_interpolation", "Welcome back, "),
        ],
        syntax=FLAT,
    ),
    # --- what a dynamic key reaches: its head character by character, else its tail -------------
    Case(
        "nested_prefix_is_the_static_head_not_its_segment",  # elk's AccountPaginator.vue
        {"a.vue": "<template><span>{{ $t(`account.view_other_${context}`) }}</span></template>"},
        [],
        [Dynamic("template_interpolation", "account.view_other_")],
        functions=("$t",),
    ),
    Case(
        "flat_prefix_is_the_static_head",  # uptime-kuma's ManageMaintenance.vue
        {"a.vue": '<template><p>{{ $t("maintenanceStatus-" + item.status) }}</p></template>'},
        [],
        [Dynamic("concatenation", "maintenanceStatus-")],
        syntax=FLAT,
        functions=("$t",),
    ),
    Case(
        "flat_suffix_after_an_unknown_head",
        {"a.js": "function f(kind) { return this.$t(kind + 'Response'); }"},
        [],
        [Dynamic("concatenation", None, suffix="Response")],
        syntax=FLAT,
        functions=("this.$t",),
    ),
    Case(
        "nested_suffix_after_an_unknown_head",
        {"a.ts": "t(`${section}.title`);"},
        [],
        [Dynamic("template_interpolation", None, suffix=".title")],
    ),
    Case(
        "a_head_and_a_tail_reach_by_the_head",
        {"a.ts": "t(`errors.${code}.message`);"},
        [],
        [Dynamic("template_interpolation", "errors.")],
    ),
    Case(
        "each_dynamic_branch_reaches_its_own_prefix",
        {"a.ts": "t(ok ? `done.${x}` : `failed.${y}`); t(ok ? `a.${x}` : key);"},
        [],
        [
            Dynamic("template_interpolation", "done."),
            Dynamic("template_interpolation", "failed."),
            Dynamic("template_interpolation", "a."),
            Dynamic("template_interpolation", None),
        ],
    ),
    Case(
        "branches_of_a_tail_are_each_a_suffix",
        {"a.ts": "t(`${kind}.` + (short ? 'label' : 'description'));"},
        [],
        [
            Dynamic("concatenation", None, suffix=".description"),
            Dynamic("concatenation", None, suffix=".label"),
        ],
    ),
    Case(
        "a_subtree_read_by_a_dynamic_key_has_no_suffix",  # the keys under it end otherwise
        {"a.ts": "t(`${kind}.items`, { returnObjects: true });"},
        [],
        [Dynamic("template_interpolation", None)],
    ),
    Case(
        "a_suffix_through_an_unbound_t_may_be_in_any_namespace",
        {"a.ts": "t(`${field}.hint`);"},
        [],
        [Dynamic("template_interpolation", None, None, ".hint")],
        syntax=NAMESPACED,
    ),
    Case(
        "a_suffix_through_a_bound_t_is_in_its_namespace",
        {"a.tsx": "function C({ f }) { const { t } = useTranslation('auth'); t(f + '.hint'); }"},
        [],
        [Dynamic("concatenation", None, "auth", ".hint")],
        syntax=NAMESPACED,
    ),
    Case(
        "a_suffix_after_a_namespace_is_in_that_namespace",
        {"a.ts": "t(`errors:${code}.title`);"},
        [],
        [Dynamic("template_interpolation", None, "errors", ".title")],
        syntax=NAMESPACED,
    ),
    Case(
        "a_suffix_loses_what_a_namespace_separator_may_cut_off",
        {"a.ts": "t(`${ns}:title`);"},
        [],
        [Dynamic("template_interpolation", None, None, "title")],
        syntax=NAMESPACED,
    ),
    Case(
        "a_dotted_suffix_loses_what_a_namespace_may_cut_off",
        {"a.ts": "$t(`${section}.save.title`);"},
        [],
        [Dynamic("template_interpolation", None, None, "title")],
        syntax=DOTTED,
        functions=("$t",),
    ),
    Case(
        "a_head_short_of_a_namespace_reaches_it_whole",
        {"a.ts": "t(`err${kind}`);"},  # `errors:…` is the namespace `errors`
        [],
        [
            Dynamic("template_interpolation", "", "errors"),
            Dynamic("template_interpolation", "err", "translation"),
        ],
        syntax=NAMESPACED,
    ),
    Case(
        "a_dotted_head_inside_a_segment_reaches_the_namespace_it_starts",
        {"a.ts": "$t(`error.ap${x}`);"},
        [],
        [
            Dynamic("template_interpolation", "", "error/api"),
            Dynamic("template_interpolation", "error.ap", "translation"),
        ],
        syntax=DOTTED,
        functions=("$t",),
    ),
    Case(
        "a_key_prefix_is_a_head",
        {
            "a.tsx": "function C({ f }) { const { t } = useTranslation('auth', "
            "{ keyPrefix: 'form' }); t(f + '.hint'); }"
        },
        [],
        [Dynamic("concatenation", "form.", "auth")],
        syntax=NAMESPACED,
    ),
    # --- returnObjects and subtree readers ----------------------------------------------------
    Case(
        "return_objects_reads_subtree",
        {"a.ts": "t('onboarding.steps', { returnObjects: true });"},
        [Key("onboarding.steps", subtree=True)],
    ),
    Case(
        "return_objects_false_reads_one_key",
        {"a.ts": "t('onboarding.steps', { returnObjects: false });"},
        [Key("onboarding.steps")],
    ),
    Case(
        "vue_tm_reads_subtree",
        {
            "a.vue": "<script setup>\nconst { tm } = useI18n();\n"
            "const items = tm('menu.items');\n</script>"
        },
        [Key("menu.items", subtree=True)],
    ),
    Case(
        "svelte_script_with_arrow_handler_in_head",
        {
            "a.svelte": "<svelte:head>\n  <script src='/x.js' on:load={() => { ready = true; }}>"
            "</script>\n</svelte:head>\n<h1>{$t('home.title')}</h1>\n"
        },
        [Key("home.title")],
    ),
    Case(
        "svelte_json_reads_subtree",
        {"a.svelte": "<ul>{#each $json('faq.items') as item}<li>{item}</li>{/each}</ul>"},
        [Key("faq.items", subtree=True)],
        functions=("$_", "$t", "$json"),
    ),
    # --- default values ------------------------------------------------------------------------
    Case(
        "default_value_argument",
        {"a.ts": "t('greeting', 'Hello there');"},
        [Key("greeting", default="Hello there")],
    ),
    Case(
        "default_value_option",
        {"a.ts": "t('greeting', { defaultValue: 'Hello' });"},
        [Key("greeting", default="Hello")],
    ),
    Case(
        "default_value_with_count",
        {"a.ts": "t('cart.items', '{{count}} items', { count });"},
        [Key("cart.items", default="{{count}} items", plural=True)],
    ),
    # --- FormatJS / react-intl -----------------------------------------------------------------
    Case(
        "define_messages_declares_each_id",
        {
            "m.ts": INTL + "export const messages = defineMessages({\n"
            "  follow: { id: 'account.follow', defaultMessage: 'Follow' },\n"
            "  mute: { id: 'account.mute', defaultMessage: 'Mute {name}' },\n"
            "});"
        },
        [
            Key("account.follow", default="Follow"),
            Key("account.mute", default="Mute {name}"),
        ],
    ),
    Case(
        "format_message_with_literal_descriptor",
        {
            "a.tsx": INTL + "function C() { const intl = useIntl(); "
            "return intl.formatMessage({ id: 'app.title', defaultMessage: 'Home' }); }"
        },
        [Key("app.title", default="Home")],
    ),
    Case(
        "formatted_message_element",
        {"a.tsx": INTL + "const el = <FormattedMessage id='app.posts' defaultMessage='Posts' />;"},
        [Key("app.posts", default="Posts")],
    ),
    Case(
        "formatted_message_spread_descriptor",
        {
            "a.tsx": INTL + "const messages = defineMessages({\n"
            "  bot: { id: 'badge.bot', defaultMessage: 'Bot' },\n});\n"
            "const el = <FormattedMessage {...messages.bot} />;"
        },
        [Key("badge.bot", default="Bot"), Key("badge.bot", default="Bot")],
    ),
    Case(
        "format_message_of_imported_messages",
        {
            "messages.ts": "export const messages = {\n"
            "  save: { id: 'form.save', defaultMessage: 'Save' },\n};",
            "a.tsx": INTL + "import { messages } from './messages';\n"
            "function C({ intl }) { return intl.formatMessage(messages.save); }",
        },
        [Key("form.save", default="Save")],
    ),
    Case(
        "destructured_format_message",
        {
            "a.tsx": INTL + "function C() { const { formatMessage } = useIntl(); "
            "return formatMessage({ id: 'nav.home' }); }"
        },
        [Key("nav.home")],
    ),
    Case(
        "define_messages_with_a_prefix_helper",
        {
            "a.tsx": INTL + "import defineMessages from '@app/utils/defineMessages';\n"
            "const messages = defineMessages('components.Badge', {\n"
            "  status: '{status}', play: 'Play on {server}',\n});\n"
            "export const B = () => useIntl().formatMessage(messages.play);"
        },
        [
            Key("components.Badge.play", default="Play on {server}"),
            Key("components.Badge.play", default="Play on {server}"),
            Key("components.Badge.status", default="{status}"),
        ],
    ),
    Case(
        "define_messages_wrapper_imported_alone",
        {
            "constants.ts": "import defineMessages from '@app/utils/defineMessages';\n"
            "export const titles = defineMessages('components.Discover', { popular: 'Popular' });"
        },
        [Key("components.Discover.popular", default="Popular")],
    ),
    Case(
        "format_message_dynamic_id",
        {"a.ts": INTL + "intl.formatMessage({ id: `status.${kind}` });"},
        [],
        [Dynamic("template_interpolation", "status.")],
    ),
    Case(
        "define_message_single",
        {
            "a.ts": "import { defineMessage } from '@formatjs/intl';\n"
            "const m = defineMessage({ id: 'toast.saved', defaultMessage: 'Saved' });"
        },
        [Key("toast.saved", default="Saved")],
    ),
    Case(
        "format_message_without_react_intl_import_is_not_a_site",
        {"a.ts": "intl.formatMessage({ id: 'not.intl' });"},
        [],
    ),
    # --- next-intl -----------------------------------------------------------------------------
    Case(
        "next_intl_methods_keep_the_namespace",
        {
            "a.tsx": "function P() { const t = useTranslations('home');\n"
            "  t.rich('hero', { b: (c) => c }); t.markup('note', {}); t.raw('list'); "
            "t.has('banner'); }"
        },
        [Key("home.banner"), Key("home.hero"), Key("home.list"), Key("home.note")],
    ),
]


# --- the messages object read without t() (scan.messages) -----------------------------------
MESSAGES_CASES = [
    Case(
        "messages_import_member_chain_reads_its_key_and_subtree",
        {"a.ts": "import en from '../locales/en.json';\nexport const x = en.home.title;\n"},
        [Key("home.title", subtree=True)],
    ),
    Case(
        "helper_built_from_an_import_gives_keys_to_t",
        {
            "keys.ts": "import en from '../messages/en.json';\n"
            "export const transKeys = buildPaths(en) as Keys;\n",
            "a.tsx": "import { transKeys } from './keys';\n"
            "export const A = () => t(transKeys.pricing.buttons.currentPlan);\n",
        },
        [Key("pricing.buttons.currentPlan")],
    ),
    Case(
        "helper_reached_through_a_tsconfig_alias",
        {
            "../tsconfig.json": "{\n  // comments and trailing commas, as TypeScript allows\n"
            '  "compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["./src/*",],},},\n}\n',
            "i18n/keys.ts": "import en from '../../messages/en.json';\n"
            "export const transKeys = buildPaths(en);\n",
            "a.tsx": "import { transKeys } from '@/i18n/keys';\n"
            "export const A = () => [t(transKeys.home.title), t(transKeys.modes[mode].name)];\n",
        },
        [Key("home.title")],
        [Dynamic("concatenation", "modes.")],
    ),
    Case(
        "use_messages_computed_member_protects_below_its_static_part",
        {
            "a.tsx": "import { useMessages } from 'next-intl';\n"
            "export function F({ body }) {\n  const messages = useMessages();\n"
            "  return (messages.SchemaErrors as any)[body];\n}\n"
        },
        [],
        [Dynamic("concatenation", "SchemaErrors.")],
    ),
    Case(
        "build_module_destructures_a_locale_file_read_by_name",
        {
            "pwa.ts": "export async function manifest(env) {\n"
            "  const { nav, pwa } = await readI18nFile('en.json');\n"
            "  return [nav.home, pwa.screenshots.dark, pwa.webmanifest[env].name];\n}\n"
        },
        [Key("nav.home", subtree=True), Key("pwa.screenshots.dark", subtree=True)],
        [Dynamic("concatenation", "pwa.webmanifest.")],
    ),
    Case(
        "an_imported_helper_read_without_t_reads_its_chain_and_no_other_name",
        {
            "keys.ts": "import en from '../messages/en.json';\n"
            "export const transKeys = buildPaths(en);\n",
            "b.ts": "import { transKeys } from './keys';\n"
            "export const a = transKeys.pwa.title;\n"
            "export const b = [other.transKeys.not.this, $transKeys.nor.that];\n"
            "export const c = [mytransKeys.nor.these, t('page.title')];\n",
        },
        [Key("page.title"), Key("pwa.title", subtree=True)],
    ),
    Case(
        "a_chain_that_stops_early_keeps_its_subtree",
        {
            "a.ts": "const messages = i18n.getResourceBundle('en', 'translation');\n"
            "export const codes = Object.keys(messages.errors);\n"
            "export const known = messages.errors.hasOwnProperty(code);\n"
        },
        [Key("errors", subtree=True), Key("errors", subtree=True)],
    ),
    Case(
        "the_object_passed_on_whole_reads_no_key",
        {
            "layout.tsx": "import { getMessages } from 'next-intl/server';\n"
            "export default async function L({ children }) {\n"
            "  const messages = await getMessages();\n"
            "  return <Provider messages={messages}>{children}</Provider>;\n}\n"
        },
        [],
    ),
    Case(
        "a_json_that_is_no_locale_is_no_messages",
        {"a.ts": "import pkg from '../package.json';\nexport const v = pkg.version.major;\n"},
        [],
    ),
    Case(
        "a_shadowing_parameter_is_not_the_messages",
        {
            "a.ts": "import en from './en.json';\nexport const x = en.home.title;\n"
            "export function f(en) { return en.other.thing; }\n"
        },
        [Key("home.title", subtree=True)],
    ),
    Case(
        "an_app_hook_of_the_same_name_is_no_messages",
        {
            "a.tsx": "import { useMessages } from '../hooks';\n"
            "export function F() {\n  const { labels } = useMessages();\n"
            "  return labels.save;\n}\n"
        },
        [],
    ),
    Case(
        "computing_the_whole_object_is_a_site_with_no_static_part",
        {
            "a.ts": "import { useMessages } from 'next-intl';\n"
            "const messages = useMessages();\nexport const pick = (k) => messages[k];\n"
        },
        [],
        [Dynamic("non_literal", None)],
    ),
]
CASES += MESSAGES_CASES

# --- a keyPrefix passed as a component prop (answer's QueryGroup) ---------------------------
HOOK = "import { useTranslation } from 'react-i18next';\n"
GROUP = (
    HOOK + "const Group = ({ data = [], i18nKeyPrefix }) => {\n"
    "  const { t } = useTranslation('translation', { keyPrefix: i18nKeyPrefix });\n"
    "  return data.map((name) => t(name));\n};\nexport default Group;\n"
)
PROP_CASES = [
    Case(
        "a_prop_passed_key_prefix_reaches_what_callers_pass",
        {
            "Group.tsx": GROUP,
            "Questions.tsx": "import Group from './Group';\n"
            "export const Q = () => <Group data={['newest']} i18nKeyPrefix=\"question\" />;\n",
            "Tags.tsx": "import Group from './Group';\n"
            "export const T = () => <Group data={x} i18nKeyPrefix='tags.sort' />;\n",
        },
        [],
        [
            Dynamic("non_literal", None),
            Dynamic("non_literal", "question."),
            Dynamic("non_literal", "tags.sort."),
        ],
    ),
    Case(
        "a_props_member_prefix_and_a_literal_key_are_protected_not_proven",
        {
            "Group.tsx": HOOK + "export function Group(props) {\n"
            "  const { t } = useTranslation('translation', { keyPrefix: props.prefix });\n"
            "  return t('more');\n}\n",
            "Page.tsx": "import { Group } from './Group';\n"
            'export const P = () => <Group prefix="question" />;\n',
        },
        [],
        [Dynamic("non_literal", None), Dynamic("non_literal", "question.more")],
    ),
    Case(
        "a_prefix_from_no_prop_reaches_nothing_more",
        {
            "Group.tsx": HOOK + "const prefix = compute();\n"
            "export const Group = () => {\n"
            "  const { t } = useTranslation('translation', { keyPrefix: prefix });\n"
            "  return t(name);\n};\n",
            "Page.tsx": 'export const P = () => <Group prefix="question" />;\n',
        },
        [],
        [Dynamic("non_literal", None)],
    ),
]
CASES += PROP_CASES

# --- what a project function returns (umami's `useMessages()` hook) --------------------------
ALIASES = '{"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["./src/*"]}}}\n'
LABELS = (
    "export const labels: Record<string, string> = {\n"
    "  save: 'label.save',\n  cancel: 'label.cancel',\n};\n"
    "export const messages = { saved: 'message.saved' };\n"
)
HOOK = (
    "import { useTranslations } from 'next-intl';\n"
    "import { labels, messages } from '@/components/messages';\n"
    "export function useMessages() {\n"
    "  const t = useTranslations();\n"
    "  const getMessage = (id: string) => t(`message.${id}`);\n"
    "  const getErrorMessage = (error) => {\n"
    "    if (!error) {\n      return undefined;\n    }\n"
    "    return error.code ? getMessage(error.code) : 'Unknown error';\n  };\n"
    "  return { t, messages, labels, getMessage, getErrorMessage };\n}\n"
)
RETURNED_CASES = [
    Case(
        "a_hook_of_the_project_returns_the_labels_it_imports",
        {
            "../tsconfig.json": ALIASES,
            "components/messages.ts": LABELS,
            "components/hooks/useMessages.ts": HOOK,
            "components/hooks/index.ts": "export * from './useMessages';\n",
            "app/Form.tsx": "import { useMessages } from '@/components/hooks';\n"
            "export function Form() {\n  const { t, labels, messages } = useMessages();\n"
            "  return [t(labels.save), t(labels.cancel), t(messages.saved)];\n}\n",
        },
        [Key("label.cancel"), Key("label.save"), Key("message.saved")],
        [Dynamic("template_interpolation", "message.")],
    ),
    Case(
        "formatjs_descriptors_from_a_hook_name_their_ids",
        {
            "messages.ts": INTL + "export const labels = defineMessages({\n"
            "  save: { id: 'label.save', defaultMessage: 'Save' },\n});\n",
            "useMessages.ts": INTL + "import { labels } from './messages';\n"
            "export function useMessages() {\n  const intl = useIntl();\n"
            "  const formatMessage = (descriptor, values) =>\n"
            "    intl.formatMessage(descriptor, values);\n"
            "  return { formatMessage, labels };\n}\n",
            "Button.tsx": "import { useMessages } from './useMessages';\n"
            "export function Button() {\n  const { formatMessage, labels } = useMessages();\n"
            "  return formatMessage(labels.save);\n}\n",
        },
        [Key("label.save"), Key("label.save", default="Save")],
        [Dynamic("non_literal", None)],  # the hook's own `intl.formatMessage(descriptor)`
        functions=("formatMessage",),
    ),
    Case(
        "a_literal_descriptor_given_to_a_configured_function_names_its_id",
        {"a.ts": "formatMessage({ id: 'label.slug', defaultMessage: 'Slug' });\n"},
        [Key("label.slug")],
        functions=("formatMessage",),
    ),
    Case(
        "functions_of_the_same_file",
        {
            "a.ts": "function useLabels() {\n  const inner = () => { return { k: 'no.key' }; };\n"
            "  return { labels: { save: 'a.save' } };\n}\n"
            "const keys = () => ({ title: 'a.title' } as const);\n"
            "const make = function () { return { body: 'a.body' }; };\n"
            "export function F() {\n  const { labels } = useLabels();\n"
            "  return [t(labels.save), t(keys().title), t(make().body)];\n}\n"
        },
        [Key("a.body"), Key("a.save"), Key("a.title")],
    ),
    Case(
        "a_default_export_and_a_namespace_import",
        {
            "useKeys.ts": "export default function useKeys() { return { home: 'nav.home' }; }\n",
            "useMore.ts": "export const useMore = () => ({ about: 'nav.about' });\n",
            "a.ts": "import useKeys from './useKeys';\nimport * as more from './useMore';\n"
            "export const x = [t(useKeys().home), t(more.useMore().about)];\n",
        },
        [Key("nav.about"), Key("nav.home")],
    ),
    Case(
        "a_function_that_may_return_something_else_stays_unknown",
        {
            "hooks.ts": "export function early(x) {\n  if (x) return { k: 'a.other' };\n"
            "  return { k: 'a.first' };\n}\n"
            "export function noLastReturn(x) {\n  if (x) {\n    return { k: 'a.second' };\n  }\n}\n"
            "export function* generated() { return { k: 'a.third' }; }\n"
            "export function fromParameter(k) { return { k }; }\n"
            "export function notAnObject() { return makeLabels(); }\n",
            "a.ts": "import { early, noLastReturn, generated, fromParameter, notAnObject } "
            "from './hooks';\nimport { usePackage } from 'some-package';\n"
            "export const x = [t(early(1).k), t(noLastReturn(1).k), t(generated().k),\n"
            "  t(fromParameter('a.fourth').k), t(notAnObject().k), t(usePackage().k)];\n",
        },
        [],
        [Dynamic("non_literal", None)] * 6,
    ),
]
CASES += RETURNED_CASES


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_pattern_yields_exact_evidence(project: ScanProject, case: Case) -> None:
    for name, text in case.files.items():
        project.write(f"src/{name}", text)

    result = project.scan(functions=case.functions, syntax=case.syntax)

    keys = sorted(
        (Key(o.key, o.namespace, o.default, o.plural, o.subtree) for o in result.observations),
        key=_key_order,
    )
    dynamic = sorted(
        (Dynamic(d.kind, d.prefix, d.namespace, d.suffix) for d in result.dynamic),
        key=_dynamic_order,
    )
    assert keys == sorted(case.keys, key=_key_order)
    assert dynamic == sorted(case.dynamic, key=_dynamic_order)
    assert [issue for issue in result.issues if issue.code == Code.SCAN_PARSE_ERROR] == []


def _key_order(key: Key) -> tuple[str, str, str, bool, bool]:
    return key.key, key.namespace or "", key.default or "", key.plural, key.subtree


def _dynamic_order(site: Dynamic) -> tuple[str, str, str, str]:
    return site.kind, site.prefix or "", site.namespace or "", site.suffix


VALID_TSX = {
    "styled_generic_object_type": "const Box = styled.div<{ $active: boolean }>`\n  red;\n`;\n",
    "styled_call_generic": "const B = styled(Button)<{ $wide?: boolean }>`width: 100%;`;\n",
    "css_helper_generic": "const mixin = css<{ $x: number }>`margin: 0;`;\n",
    "bare_ampersand_in_text": "const el = <span> & </span>;\n",
    "ampersand_words_in_text": "const el = <p>Terms & Conditions, R&D</p>;\n",
    "ampersand_in_attribute": 'const el = <a href="/search?a=1&b=2">x</a>;\n',
    "ampersand_in_fragment": "const el = <>Tom & Jerry</>;\n",
    "ampersand_text_beside_a_call": "const el = <p title={x('Save & exit')}>Terms & Co, R&D</p>;\n",
}


@pytest.mark.parametrize("name", sorted(VALID_TSX))
def test_valid_tsx_is_no_parse_error_and_keeps_its_keys(project: ScanProject, name: str) -> None:
    project.write("src/a.tsx", VALID_TSX[name] + "export const x = t('after.construct');\n")

    result = project.scan()

    assert [o.key for o in result.observations] == ["after.construct"]
    assert result.issues == []


def test_key_with_ampersand_inside_repaired_markup_is_read_as_written(
    project: ScanProject,
) -> None:
    project.write("src/a.tsx", "const el = <p title={t('Save & exit')}>Terms & Co, R&D</p>;\n")

    result = project.scan()

    assert [o.key for o in result.observations] == ["Save & exit"]
    assert result.issues == []


def test_ampersand_text_inside_trans_is_kept_in_the_key(project: ScanProject) -> None:
    project.write("src/a.tsx", "const el = <Trans>Terms & conditions</Trans>;\n")

    result = project.scan(syntax=FLAT)

    assert [o.key for o in result.observations] == ["Terms & conditions"]
    assert result.issues == []


def test_real_syntax_error_is_still_reported_with_its_line(project: ScanProject) -> None:
    project.write("src/a.tsx", "t('before');\nconst el = <p>& </p>;\nlet = ;\nt('after');\n")

    result = project.scan()

    assert sorted(o.key for o in result.observations) == ["after", "before"]
    [issue] = result.issues
    assert issue.code == Code.SCAN_PARSE_ERROR
    assert issue.message.startswith("src/a.tsx:3:")


def test_quoted_texts_naming_keys_are_listed_with_their_sites(project: ScanProject) -> None:
    project.write(
        "src/actions.ts",
        'export const actions = [\n  { label: "labels.copyAsSvg" },\n'
        "  { label: 'labels.paste' },\n];\n",
    )
    project.write("src/menu.tsx", "export const Menu = ({ a }) => t(a.label);\n")

    result = project.scan(literal_texts=frozenset({"labels.copyAsSvg", "labels.unused"}))

    assert [(s.text, s.file, s.line, s.column) for s in result.literals] == [
        ("labels.copyAsSvg", "src/actions.ts", 2, 12)
    ]


def test_several_source_roots_are_scanned_once_each(project: ScanProject) -> None:
    project.write("packages/web/src/a.ts", "t('web.title');\n")
    project.write("packages/ui/src/b.ts", "t('ui.button');\n")
    project.write("packages/ui/src/nested/c.ts", "t('ui.nested');\n")

    result = project.scan(src=["packages/web/src", "packages/ui/src", "packages/ui/src/nested"])

    assert sorted(o.key for o in result.observations) == ["ui.button", "ui.nested", "web.title"]
    assert result.files == 3


def test_quoted_texts_in_prose_pages_are_evidence_but_no_sites(project: ScanProject) -> None:
    project.write(
        "src/about/general.md",
        "# About\n\n<Section title={$t(\"about.heading.summary\")}>\n\nt('prose') {oops\n",
    )

    result = project.scan(literal_texts=frozenset({"about.heading.summary", "prose"}))

    assert result.observations == [] and result.issues == []
    assert [(s.text, s.line) for s in result.literals] == [
        ("about.heading.summary", 3),
        ("prose", 5),
    ]


def test_a_key_read_two_ways_is_missing_only_when_neither_is_there(project: ScanProject) -> None:
    project.write(
        "src/a.ts", "import i18n from 'i18next';\ni18n.t('title', { keyPrefix: 'page' });\n"
    )
    evidence = Evidence(project.scan(), KeySyntax())

    assert evidence.missing({None: ["page.title"]}) == []
    assert evidence.missing({None: ["title"]}) == []
    assert [m.key for m in evidence.missing({None: ["other"]})] == ["page.title"]


def test_each_branch_of_a_conditional_key_prefix_must_be_present(project: ScanProject) -> None:
    project.write(
        "src/a.tsx",
        "function C({ type }) { const { t } = useTranslation();\n"
        "  return t('title', { keyPrefix: type ? 'detail.list' : 'detail.unlist' }); }\n",
    )
    evidence = Evidence(project.scan(), KeySyntax())

    assert [m.key for m in evidence.missing({None: ["detail.list.title"]})] == [
        "detail.unlist.title"
    ]
