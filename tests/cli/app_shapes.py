"""Small apps of our own writing, each in the shape of a kind of real app the scanner serves:
their layout, their i18n library, and the ways they use keys (data tables, `<Trans>` children,
namespaces, FormatJS descriptors, presets, keys named inside messages). `UNUSED` names the keys
that truly are unused."""

from __future__ import annotations

from typing import Any

# A React app with its own `t()` that keeps many keys in data tables (Excalidraw's shape).
REACT_OWN_T: dict[str, Any] = {
    "i18nprune.config.json": {"src": "src", "locales": {"directory": "src/locales"}},
    "src/i18n.ts": (
        "import en from './locales/en.json';\n"
        "export const t = (path: string, replacement?: Record<string, string>) =>\n"
        "  path.split('.').reduce((node: any, key) => node?.[key], en) ?? path;\n"
    ),
    "src/actions/actionExport.tsx": (
        "export const actionCopyAsSvg = {\n"
        '  name: "copyAsSvg",\n'
        '  label: "labels.copyAsSvg",\n'
        "  perform: () => true,\n"
        "};\n"
        "export const actionCopyAsPng = { name: 'copyAsPng', label: 'labels.copyAsPng' };\n"
    ),
    "src/actions/index.ts": (
        "import { actionCopyAsPng, actionCopyAsSvg } from './actionExport';\n"
        "export const actions = [actionCopyAsSvg, actionCopyAsPng];\n"
    ),
    "src/components/ContextMenu.tsx": (
        "import { t } from '../i18n';\n"
        "import { actions } from '../actions';\n"
        "export const ContextMenu = () => (\n"
        "  <ul>\n"
        "    {actions.map((action) => <li key={action.name}>{t(action.label)}</li>)}\n"
        "    <li>{t('labels.paste')}</li>\n"
        "  </ul>\n"
        ");\n"
    ),
    "src/components/Toolbar.tsx": (
        "import { t } from '../i18n';\n"
        "const TOOLS = ['selection', 'rectangle'] as const;\n"
        "export const Toolbar = () => TOOLS.map((tool) => t(`toolBar.${tool}`));\n"
    ),
    "src/locales/en.json": {
        "labels": {
            "copyAsSvg": "Copy to clipboard as SVG",
            "copyAsPng": "Copy to clipboard as PNG",
            "paste": "Paste",
            "removed": "A label nobody shows",
        },
        "toolBar": {"selection": "Selection", "rectangle": "Rectangle"},
        "alerts": {"old": "An alert from an old version"},
    },
}
REACT_OWN_T_UNUSED = {"labels.removed", "alerts.old"}

# A react-i18next app with natural-language keys, `<Trans>` children and v4 plurals (Outline's).
REACT_I18NEXT_NATURAL: dict[str, Any] = {
    "i18nprune.config.json": {
        "src": "app",
        "locales": {
            "directory": "shared/i18n/locales",
            "source": "en_US",
            "mode": "locale_directory",
            "structure": "locale_per_dir",
            "keySeparator": False,
            "nsSeparator": False,
        },
    },
    "app/scenes/Delete.tsx": (
        "import { Trans, useTranslation } from 'react-i18next';\n"
        "export function Delete({ document, count }) {\n"
        "  const { t } = useTranslation();\n"
        "  return (\n"
        "    <div>\n"
        "      <p>{t('Are you sure?')}</p>\n"
        "      <Trans>\n"
        "        Deleting the <strong>{{ documentName: document.title }}</strong> document is\n"
        "        permanent.\n"
        "      </Trans>\n"
        "      <p>{t('{{ count }} documents', { count })}</p>\n"
        "      <Trans defaults='Welcome back' />\n"
        "    </div>\n"
        "  );\n"
        "}\n"
    ),
    "app/menus/items.ts": (
        "export const items = [\n"
        "  { title: 'New document', shortcut: 'n' },\n"
        "  { title: 'Templates' },\n"
        "];\n"
    ),
    "app/menus/Menu.tsx": (
        "import { useTranslation } from 'react-i18next';\n"
        "import { items } from './items';\n"
        "export const Menu = () => { const { t } = useTranslation();\n"
        "  return items.map((item) => t(item.title)); };\n"
    ),
    "shared/i18n/locales/en_US/translation.json": {
        "Are you sure?": "Are you sure?",
        "Deleting the <strong>{{documentName}}</strong> document is permanent.": (
            "Deleting the <strong>{{documentName}}</strong> document is permanent."
        ),
        "{{ count }} documents_one": "{{ count }} document",
        "{{ count }} documents_other": "{{ count }} documents",
        "Welcome back": "Welcome back",
        "New document": "New document",
        "Templates": "Templates",
        "Archived.": "Archived.",
    },
}
REACT_I18NEXT_NATURAL_UNUSED = {"Archived."}

# An i18next app with one file per namespace (`locales/en/<ns>.json`).
I18NEXT_NAMESPACES: dict[str, Any] = {
    "i18nprune.config.json": {
        "src": "src",
        "locales": {
            "directory": "public/locales",
            "mode": "locale_directory",
            "structure": "locale_per_dir",
            "namespaces": "file",
            "defaultNamespace": "common",
        },
    },
    "src/Login.tsx": (
        "import { useTranslation } from 'react-i18next';\n"
        "export function Login({ code }) {\n"
        "  const { t } = useTranslation('auth');\n"
        "  return [t('login.title'), t('common:save'), t('title', { ns: 'common' }),\n"
        "    t('login.subtitle'), t(`errors:${code}`)];\n"
        "}\n"
    ),
    "src/Settings.tsx": (
        "import { useTranslation } from 'react-i18next';\n"
        "export function Settings() {\n"
        "  const { t } = useTranslation('settings');\n"
        "  return t('theme.label', 'Theme');\n"
        "}\n"
    ),
    "public/locales/en/common.json": {"save": "Save", "title": "My app", "cancel": "Cancel"},
    "public/locales/en/auth.json": {"login": {"title": "Sign in"}, "title": "Auth"},
    "public/locales/en/errors.json": {"404": "Not found", "500": "Server error"},
    "public/locales/fr/common.json": {"save": "Enregistrer", "title": "Mon app"},
}
I18NEXT_NAMESPACES_UNUSED = {"common:cancel", "auth:title"}

# A react-intl app: messages in `defineMessages`, flat dotted ids (Mastodon's shape).
FORMATJS: dict[str, Any] = {
    "i18nprune.config.json": {"src": "app/javascript", "locales": {"directory": "app/locales"}},
    "app/javascript/messages.ts": (
        "import { defineMessages } from 'react-intl';\n"
        "export const messages = defineMessages({\n"
        "  follow: { id: 'account.follow', defaultMessage: 'Follow' },\n"
        "  unfollow: { id: 'account.unfollow', defaultMessage: 'Unfollow' },\n"
        "  block: { id: 'account.block', defaultMessage: 'Block @{name}' },\n"
        "});\n"
    ),
    "app/javascript/Account.tsx": (
        "import { FormattedMessage, useIntl } from 'react-intl';\n"
        "import { messages } from './messages';\n"
        "export const Account = ({ following }) => {\n"
        "  const intl = useIntl();\n"
        "  return (\n"
        "    <div title={intl.formatMessage(following ? messages.unfollow : messages.follow)}>\n"
        "      <FormattedMessage id='account.posts' defaultMessage='Posts' />\n"
        "    </div>\n"
        "  );\n"
        "};\n"
    ),
    "app/locales/en.json": {
        "account.follow": "Follow",
        "account.unfollow": "Unfollow",
        "account.posts": "Posts",
        "account.mute": "Mute",
    },
}
FORMATJS_UNUSED = {"account.mute"}

# A Vue 3 + vue-i18n app: `$t`/`$tc` in templates, `t`/`tm` from `useI18n()` (preset names).
VUE_I18N: dict[str, Any] = {
    "package.json": {"dependencies": {"vue": "^3.4.0", "vue-i18n": "^9.9.0"}},
    "i18nprune.config.json": {"src": "src", "locales": {"directory": "src/locales"}},
    "src/components/Cart.vue": (
        "<template>\n"
        "  <button :title=\"$t('action.save')\">{{ $tc('cart.items', count) }}</button>\n"
        '  <p v-for="item in menu" :key="item">{{ item }}</p>\n'
        "</template>\n"
        '<script setup lang="ts">\n'
        "const { t, tm } = useI18n();\n"
        "const title = t('app.name');\n"
        "const menu = tm('menu.items');\n"
        "</script>\n"
    ),
    "src/locales/en.json": {
        "action": {"save": "Save", "delete": "Delete"},
        "cart": {"items": "no items | one item | {count} items"},
        "app": {"name": "Shop"},
        "menu": {"items": {"home": "Home", "about": "About"}},
    },
}
VUE_I18N_UNUSED = {"action.delete"}

# A Svelte app with svelte-i18n's `$_` store (preset names).
SVELTE_I18N: dict[str, Any] = {
    "package.json": {"devDependencies": {"svelte": "^4.0.0", "svelte-i18n": "^4.0.0"}},
    "i18nprune.config.json": {"src": "src", "locales": {"directory": "src/lib/i18n"}},
    "src/routes/+page.svelte": (
        "<script>\n  import { _ } from 'svelte-i18n';\n  export let count = 0;\n</script>\n"
        "<h1>{$_('home.title')}</h1>\n"
        "<p>{$_('home.count', { values: { count } })}</p>\n"
        "<footer>{$_('footer.copyright')}</footer>\n"
    ),
    "src/lib/i18n/en.json": {
        "home": {"title": "Hello", "count": "{count} visits", "unused": "Old"},
        "footer": {"copyright": "© Us"},
    },
}
SVELTE_I18N_UNUSED = {"home.unused"}

# A react-intl app whose messages file is structured JSON: `{"id": {"string", "context"}}`
# (Saleor's shape, also FormatJS's `--format crowdin`).
FORMATJS_STRUCTURED: dict[str, Any] = {
    "i18nprune.config.json": {"src": "src", "locales": {"directory": "locale"}},
    "src/orders/messages.ts": (
        "import { defineMessages } from 'react-intl';\n"
        "export const orderMessages = defineMessages({\n"
        "  title: { id: 'D2aHLc', defaultMessage: 'Orders', description: 'page title' },\n"
        "});\n"
    ),
    "src/orders/List.tsx": (
        "import { useIntl, FormattedMessage } from 'react-intl';\n"
        "import { orderMessages } from './messages';\n"
        "export const List = () => {\n"
        "  const intl = useIntl();\n"
        "  return <h1 title={intl.formatMessage(orderMessages.title)}>\n"
        "    <FormattedMessage id='x9bN7p' defaultMessage='Draft' />\n"
        "  </h1>;\n"
        "};\n"
    ),
    "locale/en.json": {
        "D2aHLc": {"context": "page title", "string": "Orders"},
        "x9bN7p": {"string": "Draft"},
        "Q3kT0z": {"context": "removed button", "string": "Archive"},
    },
}
FORMATJS_STRUCTURED_UNUSED = {"Q3kT0z"}

# An app whose locale files keep their keys in one object beside metadata, loaded as
# `module.mappings` (`locales.root: "mappings"`). The metadata is spelled as a hand-written file
# spells it, so a writer that touched it would show.
WRAPPED_KEYS_SOURCE = (
    "{\n"
    '  "version": 3,\n'
    '  "tags": ["web",   "app"],\n'
    '  "mappings": {\n'
    '    "home": {\n'
    '      "title": "Home",\n'
    '      "old": "An old heading"\n'
    "    },\n"
    '    "nav": {\n'
    '      "back": "Back"\n'
    "    },\n"
    '    "errors": {\n'
    '      "404": "Not found",\n'
    '      "500": "Server error"\n'
    "    },\n"
    '    "legacy": {\n'
    '      "banner": "A banner nobody shows"\n'
    "    }\n"
    "  },\n"
    '  "checksum": {"algorithm": "none", "value": null}\n'
    "}\n"
)
WRAPPED_KEYS: dict[str, Any] = {
    "i18nprune.config.json": {"src": "src", "locales": {"root": "mappings"}},
    "src/i18n.ts": (
        "import en from '../locales/en.json';\n"
        "const messages = en.mappings;\n"
        "export const t = (key: string) =>\n"
        "  key.split('.').reduce((node: any, part) => node?.[part], messages) ?? key;\n"
    ),
    "src/Home.tsx": (
        "import { t } from './i18n';\n"
        "export const Home = ({ code }: { code: number }) => (\n"
        "  <main>\n"
        "    <h1>{t('home.title')}</h1>\n"
        "    <p>{t('home.subtitle')}</p>\n"
        "    <a>{t('nav.back')}</a>\n"
        "    <small>{t(`errors.${code}`)}</small>\n"
        "  </main>\n"
        ");\n"
    ),
    "locales/en.json": WRAPPED_KEYS_SOURCE,
}
WRAPPED_KEYS_UNUSED = {"home.old", "legacy.banner"}

# A next-intl app that reads its messages without t(): a key object built from the locale
# imported through a tsconfig alias (onlook's shape), zod error ids looked up in `useMessages()`
# (spliit's), and a build module that reads the locale file by name for a PWA manifest (elk's).
MESSAGES_OBJECT: dict[str, Any] = {
    "i18nprune.config.json": {"src": ["src", "modules"], "locales": {"directory": "messages"}},
    "tsconfig.json": (
        '{\n  "compilerOptions": {\n    "paths": {"@/*": ["./src/*"]}, // aliases\n  }\n}\n'
    ),
    "src/i18n/keys.ts": (
        "import en from '../../messages/en.json';\n"
        "export const transKeys = buildPaths(en) as MessageKeyPaths;\n"
        "function buildPaths(obj: any, prefix = ''): any {\n"
        "  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, prefix + k]));\n"
        "}\n"
    ),
    "src/components/PricingCard.tsx": (
        "import { useTranslations } from 'next-intl';\n"
        "import { transKeys } from '@/i18n/keys';\n"
        "export function PricingCard({ mode }) {\n"
        "  const t = useTranslations();\n"
        "  return <p>{t(transKeys.pricing.currentPlan)} {t(transKeys.modes[mode].name)}</p>;\n"
        "}\n"
    ),
    # the labels of a data table read from the key object, then `t(tab.label)` (onlook's tabs);
    # a chain on an imported constants object and on a package prove no key
    "src/components/Tabs.tsx": (
        "import { useTranslations } from 'next-intl';\n"
        "import * as React from 'react';\n"
        "import { transKeys } from '@/i18n/keys';\n"
        "import { LIMITS } from '../lib/limits';\n"
        "const TABS = [\n"
        "  { id: 'layers', label: transKeys.tabs.layers },\n"
        "  { id: 'pages', label: transKeys.tabs.pages },\n"
        "];\n"
        "type Tab = keyof typeof transKeys.tabs.gone;  // a type reads no key\n"
        "export function Tabs() {\n"
        "  const t = useTranslations();\n"
        "  const most = LIMITS.tabs.most + React.Children.count(null);\n"
        "  return TABS.slice(0, most).map((tab) => <b key={tab.id}>{t(tab.label)}</b>);\n"
        "}\n"
    ),
    "src/lib/limits.ts": "export const LIMITS = { tabs: { most: 'nav.gone' } };\n",
    "src/components/ui/form.tsx": (
        "import { useMessages } from 'next-intl';\n"
        "export function FormMessage({ error }) {\n"
        "  const messages = useMessages();\n"
        "  const body = String(error?.message);\n"
        "  return (messages.SchemaErrors as any)[body] ?? body;\n"
        "}\n"
    ),
    "src/lib/schemas.ts": "export const name = z.string().min(2, 'min2').max(50, 'max50');\n",
    "src/app/layout.tsx": (
        "import { getMessages } from 'next-intl/server';\n"
        "export default async function Layout({ children }) {\n"
        "  const messages = await getMessages();\n"
        "  return <Provider messages={messages}>{children}</Provider>;\n"
        "}\n"
    ),
    "modules/pwa/i18n.ts": (
        "export async function createManifest(env: string) {\n"
        "  const { nav, pwa } = await readI18nFile('en.json');\n"
        "  return { name: pwa.webmanifest[env].name, shortcuts: [nav.home],\n"
        "    screenshots: [pwa.screenshots.dark] };\n"
        "}\n"
    ),
    "messages/en.json": {
        "pricing": {"currentPlan": "Current plan", "oldPlan": "A plan nobody sells"},
        "modes": {"design": {"name": "Design"}, "code": {"name": "Code"}},
        "SchemaErrors": {"min2": "Too short", "max50": "Too long"},
        "nav": {"home": "Home", "gone": "A page that was removed"},
        "tabs": {"layers": "Layers", "pages": "Pages", "history": "History"},
        "pwa": {
            "screenshots": {"dark": "Dark theme", "light": "Light theme"},
            "webmanifest": {"dev": {"name": "Elk (dev)"}, "release": {"name": "Elk"}},
        },
    },
}
MESSAGES_OBJECT_UNUSED = {"pricing.oldPlan", "pwa.screenshots.light", "tabs.history"}
# A react-intl app whose ids babel-plugin-react-intl-auto derives from each file's folder
# (`removePrefix: "src/"`): messages without ids beside their components (Zap's shape).
FORMATJS_AUTO_IDS: dict[str, Any] = {
    "i18nprune.config.json": {"src": "src", "locales": {"directory": "translations"}},
    "package.json": {
        "name": "wallet",
        "dependencies": {"react-intl": "^5.0.0"},
        "devDependencies": {"babel-plugin-react-intl-auto": "3.3.0"},
    },
    ".babelrc": (
        "{\n"
        '  "presets": ["@babel/preset-react"],\n'
        "  // ids from each file's folder\n"
        '  "plugins": [["react-intl-auto", { "removePrefix": "src/", "filebase": false }]],\n'
        "}\n"
    ),
    "src/components/StatusBadge/index.tsx": (
        "import { defineMessages, FormattedMessage } from 'react-intl';\n"
        "const messages = defineMessages({ status: '{status}' });\n"
        "export const StatusBadge = ({ status }) => (\n"
        "  <span title='hello'>\n"
        "    <FormattedMessage {...messages.status} values={{ status }} />\n"
        "    <FormattedMessage defaultMessage='hello' />\n"
        "  </span>\n"
        ");\n"
    ),
    "src/components/Activity/messages.js": (
        "import { defineMessages } from 'react-intl'\n"
        "export default defineMessages({\n"
        "  title: 'Activity',\n"
        "  empty: 'No activity yet',\n"
        "  error_copied: 'Could not copy',\n"
        "})\n"
    ),
    "src/components/Activity/Activity.js": (
        "import React from 'react'\n"
        "import { FormattedMessage, injectIntl } from 'react-intl'\n"
        "import messages from './messages'\n"
        "const Activity = ({ intl, items, onCopyError }) => {\n"
        "  onCopyError(() => intl.formatMessage({ ...messages.error_copied }))\n"
        "  return items.length ? (\n"
        "    <h1><FormattedMessage {...messages.title} /></h1>\n"
        "  ) : intl.formatMessage(messages.empty)\n"
        "}\n"
        "export default injectIntl(Activity)\n"
    ),
    "src/components/Settings/General/messages.js": (
        "import { defineMessages } from 'react-intl'\n"
        "export default defineMessages({\n"
        "  language: 'Language',\n"
        "  currency: { defaultMessage: 'Currency', description: 'fiat currency' },\n"
        "})\n"
    ),
    "src/components/Settings/General/General.js": (
        "import { FormattedMessage } from 'react-intl'\n"
        "import messages from './messages'\n"
        "export const General = ({ fiat }) => (\n"
        "  <FormattedMessage {...messages[fiat ? 'currency' : 'language']} />\n"
        ")\n"
    ),
    "translations/en.json": {
        "components.Activity.empty": "No activity yet",
        "components.Activity.refresh": "Refresh",
        "components.Activity.title": "Activity",
        "components.Settings.General.language": "Language",
        "components.StatusBadge.613153351": "hello",
        "components.StatusBadge.status": "{status}",
        "components.Wallet.balance": "Balance",
    },
}
FORMATJS_AUTO_IDS_UNUSED = {"components.Activity.refresh", "components.Wallet.balance"}
# A Vue 3 options-API app with flat natural-language keys (uptime-kuma's shape): keys built from
# a local variable's values, a prefix (`"maintenanceStatus-" + status`) and a suffix among flat
# keys.
VUE_OPTIONS_FLAT: dict[str, Any] = {
    "package.json": {"dependencies": {"vue": "^3.4.0", "vue-i18n": "^9.9.0"}},
    "i18nprune.config.json": {
        "src": "src",
        "locales": {"directory": "src/lang", "keySeparator": False, "nsSeparator": False},
    },
    "src/pages/Details.vue": (
        "<template>\n"
        '    <div class="shadow-box">\n'
        "        <h4>{{ pingTitle() }}</h4>\n"
        "        <h4>{{ pingTitle(true) }}</h4>\n"
        '        <span>{{ $t("Uptime") }}</span>\n'
        "    </div>\n"
        "</template>\n"
        "<script>\n"
        "export default {\n"
        "    props: { monitor: Object },\n"
        "    methods: {\n"
        "        pingTitle(average = false) {\n"
        '            let translationPrefix = "";\n'
        "            if (average) {\n"
        '                translationPrefix = "Avg. ";\n'
        "            }\n"
        '            if (this.monitor.type === "http" || this.monitor.type === "keyword") {\n'
        '                return this.$t(translationPrefix + "Response");\n'
        "            }\n"
        '            return this.$t(translationPrefix + "Ping");\n'
        "        },\n"
        "    },\n"
        "};\n"
        "</script>\n"
    ),
    "src/pages/ManageMaintenance.vue": (
        "<template>\n"
        '    <div v-for="item in maintenanceList" :key="item.id">\n'
        '        <span class="status">{{ $t("maintenanceStatus-" + item.status) }}</span>\n'
        "    </div>\n"
        "</template>\n"
        "<script>\n"
        "export default {\n"
        '    computed: { title() { return this.$t("Maintenance"); } },\n'
        "};\n"
        "</script>\n"
    ),
    "src/components/NotificationHelp.vue": (
        '<template><p class="form-text">{{ helpText }}</p></template>\n'
        "<script>\n"
        "export default {\n"
        "    props: { provider: String },\n"
        '    computed: { helpText() { return this.$t(this.provider + "Help"); } },\n'
        "};\n"
        "</script>\n"
    ),
    "src/lang/en.json": {
        "Uptime": "Uptime",
        "Response": "Response",
        "Avg. Response": "Avg. Response",
        "Ping": "Ping",
        "Avg. Ping": "Avg. Ping",
        "Avg. Uptime": "Avg. Uptime",
        "Maintenance": "Maintenance",
        "maintenanceStatus": "Status",
        "maintenanceStatus-ended": "Ended",
        "maintenanceStatus-under-maintenance": "Under Maintenance",
        "smtpHelp": "Use your mail server's port",
        "webhookHelp": "We POST a JSON body",
        "Certificate Expiry": "Certificate Expiry",
    },
}
VUE_OPTIONS_FLAT_UNUSED = {"Avg. Uptime", "maintenanceStatus", "Certificate Expiry"}

# A Nuxt + vue-i18n app with nested keys (elk's shape): a dynamic key whose static head ends
# inside a segment protects the keys that start with it, not the whole `account` subtree.
VUE_NESTED_HEAD: dict[str, Any] = {
    "package.json": {"dependencies": {"nuxt": "^3.10.0", "@nuxtjs/i18n": "^8.0.0"}},
    "i18nprune.config.json": {"src": "app", "locales": {"directory": "locales"}},
    "app/components/account/AccountPaginator.vue": (
        '<script setup lang="ts">\n'
        "defineProps<{ context?: 'followers' | 'following' }>()\n"
        "</script>\n"
        "<template>\n"
        "  <div>\n"
        "    <span italic>{{ $t(`account.view_other_${context}`) }}</span>\n"
        "    <button>{{ $t('account.follow') }}</button>\n"
        "  </div>\n"
        "</template>\n"
    ),
    "locales/en.json": {
        "account": {
            "follow": "Follow",
            "posts": "Posts",
            "view_other_followers": "Followers from other instances may not be displayed.",
            "view_other_following": "Following from other instances may not be displayed.",
        },
    },
}
VUE_NESTED_HEAD_UNUSED = {"account.posts"}
# A react-i18next app whose used messages nest other keys (`$t(key)`, with options, across
# namespaces) and which reads some keys under a per-call `keyPrefix`.
I18NEXT_NESTING: dict[str, Any] = {
    "package.json": {"dependencies": {"i18next": "^24.0.0", "react-i18next": "^15.0.0"}},
    "i18nprune.config.json": {
        "src": "src",
        "locales": {
            "directory": "public/locales",
            "mode": "locale_directory",
            "structure": "locale_per_dir",
            "namespaces": "file",
            "defaultNamespace": "common",
        },
    },
    "src/Home.tsx": (
        "import { useTranslation } from 'react-i18next';\n"
        "export function Home({ count }) {\n"
        "  const { t } = useTranslation();\n"
        "  return [t('welcome'), t('cart.summary', { count }),\n"
        "    t('title', { keyPrefix: 'page_title' })];\n"
        "}\n"
    ),
    "src/Login.tsx": (
        "import { useTranslation } from 'react-i18next';\n"
        "export function Login() {\n"
        "  const { t } = useTranslation('auth', { keyPrefix: 'login' });\n"
        "  return [t('heading'), t('title', { keyPrefix: 'page_title' })];\n"
        "}\n"
    ),
    "public/locales/en/common.json": {
        "welcome": "Welcome to $t(brand.name)",
        "brand": {"name": "Acme $t(brand.suffix)", "suffix": "Inc.", "slogan": "An old slogan"},
        "cart": {
            "summary": '$t(cart.items, {"count": {{count}} }) in your cart',
            "items_one": "one item",
            "items_other": "{{count}} items",
        },
        "page_title": {"title": "Home"},
        "legacy": {"banner": "$t(legacy.notice)", "notice": "An old notice"},
        "loop": {"a": "$t(loop.b)", "b": "$t(loop.a)"},
    },
    "public/locales/en/auth.json": {
        "login": {"heading": "Sign in to $t(common:brand.name)", "hint": "An old hint"},
        "page_title": {"title": "Sign in"},
    },
    "public/locales/fr/common.json": {
        "welcome": "Bienvenue chez $t(brand.nom)",
        "brand": {"nom": "Acmé", "slogan": "Un vieux slogan"},
    },
}
# `legacy.banner` names `legacy.notice`, but no used message names either: both go together.
I18NEXT_NESTING_UNUSED = {
    "common:brand.slogan",
    "common:legacy.banner",
    "common:legacy.notice",
    "common:loop.a",
    "common:loop.b",
    "auth:login.hint",
}

# A vue-i18n app whose used messages link other keys (`@:key`, modifiers, braces).
VUE_I18N_LINKED: dict[str, Any] = {
    "package.json": {"dependencies": {"vue": "^3.4.0", "vue-i18n": "^9.9.0"}},
    "i18nprune.config.json": {"src": "src", "locales": {"directory": "src/locales"}},
    "src/components/Form.vue": (
        "<template>\n"
        "  <button>{{ $t('form.save') }}</button>\n"
        "  <p>{{ $t('form.missingAddress') }}</p>\n"
        "  <p>{{ $t('form.remove') }}</p>\n"
        "  <p>{{ $t('form.contact') }}</p>\n"
        "</template>\n"
    ),
    "src/locales/en.json": {
        "common": {
            "save": "Save",
            "address": "Home address",
            "delete": "Delete",
            "cancel": "Cancel",
            "help": "Help",
        },
        "form": {
            "save": "@:common.save",
            "missingAddress": "Please provide @.lower:common.address.",
            "remove": "@.capitalize:{'common.delete'} this entry",
            "contact": "Write to help{'@'}example.com",
            "old": "@:common.cancel",
        },
    },
    "src/locales/fr.json": {
        "common": {"save": "Enregistrer", "cancel": "Annuler"},
        "form": {"save": "@:common.save", "old": "@:common.cancel"},
    },
}
VUE_I18N_LINKED_UNUSED = {"common.cancel", "common.help", "form.old"}

# A next-intl app whose own `useMessages()` hook returns the label table it imports, reached
# through a tsconfig alias and an index module (umami's shape since 2026).
HOOK_LABELS: dict[str, Any] = {
    "i18nprune.config.json": {
        "src": "src",
        "locales": {"directory": "public/intl/messages", "source": "en-US"},
    },
    "tsconfig.json": '{"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["./src/*"]}}}\n',
    "src/components/messages.ts": (
        "export const labels: Record<string, string> = {\n"
        "  save: 'label.save',\n  cancel: 'label.cancel',\n  title: 'label.title',\n"
        "  legacy: 'label.legacy',\n};\n"
        "export const messages = { saved: 'message.saved' };\n"
    ),
    "src/components/hooks/useMessages.ts": (
        "import { useTranslations } from 'next-intl';\n"
        "import { labels, messages } from '@/components/messages';\n"
        "export function useMessages() {\n"
        "  const t = useTranslations();\n"
        "  const getMessage = (id: string) => t(`message.${id}`);\n"
        "  return { t, messages, labels, getMessage };\n"
        "}\n"
    ),
    "src/components/hooks/index.ts": "export * from './useMessages';\n",
    "src/app/Form.tsx": (
        "import { useMessages } from '@/components/hooks';\n"
        "export function Form() {\n"
        "  const { t, labels, messages } = useMessages();\n"
        "  return [t(labels.title), t(labels.save), t(labels.cancel), t(messages.saved)];\n"
        "}\n"
    ),
    "public/intl/messages/en-US.json": {
        "label": {"save": "Save", "cancel": "Cancel", "legacy": "Legacy", "unused": "Unused"},
        "message": {"saved": "Saved", "forbidden": "Forbidden"},
    },
}
HOOK_LABELS_UNUSED = {"label.unused"}  # `label.legacy` is named in messages.ts: kept as data
# A react-intl app whose `useMessages()` hook returns its `formatMessage` and the descriptors
# `defineMessages` declares, with `formatMessage` configured by name (umami's shape until 2026).
FORMATJS_HOOK: dict[str, Any] = {
    "i18nprune.config.json": {
        "src": "src",
        "functions": ["formatMessage"],
        "locales": {
            "directory": "src/lang",
            "source": "en-US",
            "keySeparator": False,
            "nsSeparator": False,
        },
    },
    "src/components/messages.ts": (
        "import { defineMessages } from 'react-intl';\n"
        "export const labels = defineMessages({\n"
        "  save: { id: 'label.save', defaultMessage: 'Save' },\n"
        "  gone: { id: 'label.gone', defaultMessage: 'Gone' },\n"
        "});\n"
    ),
    "src/components/hooks/useMessages.ts": (
        "import { useIntl } from 'react-intl';\n"
        "import { labels } from '../messages';\n"
        "export function useMessages() {\n"
        "  const intl = useIntl();\n"
        "  const formatMessage = (descriptor, values?) =>\n"
        "    descriptor ? intl.formatMessage(descriptor, values) : null;\n"
        "  return { formatMessage, labels };\n"
        "}\n"
    ),
    "src/app/Button.tsx": (
        "import { useMessages } from '../components/hooks/useMessages';\n"
        "export function Button() {\n"
        "  const { formatMessage, labels } = useMessages();\n"
        "  return [formatMessage(labels.save),\n"
        "    formatMessage({ id: 'label.slug', defaultMessage: 'Slug' })];\n"
        "}\n"
    ),
    "src/lang/en-US.json": {"label.save": "Save", "label.gone": "Gone", "label.unused": "Unused"},
}
FORMATJS_HOOK_UNUSED = {"label.unused"}  # `label.gone` is declared: proven by defineMessages

# A shared component that takes its key prefix as a prop and its leaf names as data (answer's
# QueryGroup): the pages pass `i18nKeyPrefix="question"` and arrays of literal names.
PROP_PREFIX: dict[str, Any] = {
    "i18nprune.config.json": {"src": "src"},
    "src/components/QueryGroup/index.tsx": (
        "import { useTranslation } from 'react-i18next';\n"
        "const Index = ({ data = [], i18nKeyPrefix = '' }) => {\n"
        "  const { t } = useTranslation('translation', { keyPrefix: i18nKeyPrefix });\n"
        "  return <div>{data.map((name) => <button key={name}>{t(name)}</button>)}</div>;\n"
        "};\nexport default Index;\n"
    ),
    "src/pages/Questions.tsx": (
        "import QueryGroup from '../components/QueryGroup';\n"
        "const ORDER = ['newest', 'active'];\n"
        'export const Questions = () => <QueryGroup data={ORDER} i18nKeyPrefix="question" />;\n'
    ),
    "src/pages/Tags.tsx": (
        "import { useTranslation } from 'react-i18next';\n"
        "import QueryGroup from '../components/QueryGroup';\n"
        "export const Tags = () => {\n  const { t } = useTranslation();\n"
        "  return <><h1>{t('tags.title')}</h1>"
        "<QueryGroup data={['popular']} i18nKeyPrefix='tags.sort_buttons' /></>;\n};\n"
    ),
    "locales/en.json": {
        "question": {"newest": "Newest", "active": "Active"},
        "tags": {"title": "Tags", "sort_buttons": {"popular": "Popular"}, "old": "Old tab"},
        "legacy": {"banner": "An old banner"},
    },
}
PROP_PREFIX_UNUSED = {"tags.old", "legacy.banner"}

APPS: dict[str, tuple[dict[str, Any], set[str]]] = {
    "formatjs-structured-json": (FORMATJS_STRUCTURED, FORMATJS_STRUCTURED_UNUSED),
    "react-own-t": (REACT_OWN_T, REACT_OWN_T_UNUSED),
    "react-i18next-natural": (REACT_I18NEXT_NATURAL, REACT_I18NEXT_NATURAL_UNUSED),
    "i18next-namespaces": (I18NEXT_NAMESPACES, I18NEXT_NAMESPACES_UNUSED),
    "formatjs": (FORMATJS, FORMATJS_UNUSED),
    "formatjs-auto-ids": (FORMATJS_AUTO_IDS, FORMATJS_AUTO_IDS_UNUSED),
    "vue-i18n": (VUE_I18N, VUE_I18N_UNUSED),
    "svelte-i18n": (SVELTE_I18N, SVELTE_I18N_UNUSED),
    "wrapped-keys": (WRAPPED_KEYS, WRAPPED_KEYS_UNUSED),
    "messages-object": (MESSAGES_OBJECT, MESSAGES_OBJECT_UNUSED),
    "vue-options-flat": (VUE_OPTIONS_FLAT, VUE_OPTIONS_FLAT_UNUSED),
    "vue-nested-head": (VUE_NESTED_HEAD, VUE_NESTED_HEAD_UNUSED),
    "i18next-nesting": (I18NEXT_NESTING, I18NEXT_NESTING_UNUSED),
    "vue-i18n-linked": (VUE_I18N_LINKED, VUE_I18N_LINKED_UNUSED),
    "hook-labels": (HOOK_LABELS, HOOK_LABELS_UNUSED),
    "formatjs-hook": (FORMATJS_HOOK, FORMATJS_HOOK_UNUSED),
    "prop-prefix": (PROP_PREFIX, PROP_PREFIX_UNUSED),
}
