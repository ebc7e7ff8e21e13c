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

APPS: dict[str, tuple[dict[str, Any], set[str]]] = {
    "formatjs-structured-json": (FORMATJS_STRUCTURED, FORMATJS_STRUCTURED_UNUSED),
    "react-own-t": (REACT_OWN_T, REACT_OWN_T_UNUSED),
    "react-i18next-natural": (REACT_I18NEXT_NATURAL, REACT_I18NEXT_NATURAL_UNUSED),
    "i18next-namespaces": (I18NEXT_NAMESPACES, I18NEXT_NAMESPACES_UNUSED),
    "formatjs": (FORMATJS, FORMATJS_UNUSED),
    "vue-i18n": (VUE_I18N, VUE_I18N_UNUSED),
    "svelte-i18n": (SVELTE_I18N, SVELTE_I18N_UNUSED),
    "i18next-nesting": (I18NEXT_NESTING, I18NEXT_NESTING_UNUSED),
    "vue-i18n-linked": (VUE_I18N_LINKED, VUE_I18N_LINKED_UNUSED),
}
