"""Apps of our own writing for `init` and workspace discovery: a one-app repository in Next.js's
shape, and monorepos whose package manager lists the packages (npm workspaces, pnpm), some with
locale files and a shared package without."""

from __future__ import annotations

from typing import Any

# A Next.js app with next-i18next's folder (`public/locales/<locale>/<namespace>.json`).
NEXT_APP: dict[str, Any] = {
    "package.json": {"name": "web", "dependencies": {"next": "14", "react-i18next": "14"}},
    "src/pages/index.tsx": (
        "import { useTranslation } from 'react-i18next';\n"
        "export default function Home() {\n"
        "  const { t } = useTranslation();\n"
        "  return <h1>{t('home.title')}</h1>;\n"
        "}\n"
    ),
    "public/locales/en/common.json": {"home": {"title": "Welcome", "old": "Unused"}},
    "public/locales/de/common.json": {"home": {"title": "Willkommen"}},
}

# An npm-workspaces monorepo: two apps with their own locales, and a shared UI package without
# locale files whose code names a key of the web app (`app.links.cli`).
NPM_MONOREPO: dict[str, Any] = {
    "package.json": {"name": "root", "private": True, "workspaces": ["apps/*", "packages/*"]},
    "apps/web/package.json": {"name": "web", "dependencies": {"react-i18next": "14"}},
    "apps/web/src/App.tsx": (
        "import { useTranslation } from 'react-i18next';\n"
        "export const App = () => {\n"
        "  const { t } = useTranslation();\n"
        "  return <p>{t('app.title')}</p>;\n"
        "};\n"
    ),
    "apps/web/src/locales/en.json": {
        "app": {"title": "Web", "links": {"cli": "The CLI"}, "unused": "Nobody shows this"}
    },
    "apps/web/src/locales/fr.json": {"app": {"title": "Web"}},
    "apps/admin/package.json": {"name": "admin"},
    "apps/admin/src/Admin.tsx": "export const Admin = () => t('admin.title');\n",
    "apps/admin/public/locales/en/translation.json": {"admin": {"title": "Admin"}},
    "packages/ui/package.json": {"name": "@acme/ui"},
    "packages/ui/src/Footer.tsx": "export const Footer = ({ t }) => <a>{t('app.links.cli')}</a>;\n",
}
NPM_MONOREPO_PROJECTS = ["apps/admin", "apps/web"]

# A pnpm monorepo (`pnpm-workspace.yaml`, block list with quotes and comments) in yarn's other
# spelling of nothing: the root package.json lists no workspaces.
PNPM_MONOREPO: dict[str, Any] = {
    "package.json": {"name": "root", "private": True},
    "pnpm-workspace.yaml": (
        "# the apps and their libraries\n"
        "packages:\n"
        "  - 'apps/*'   # every app\n"
        '  - "libs/**"\n'
        "  - '!libs/legacy'\n"
        "catalog:\n"
        "  react: ^18\n"
    ),
    "apps/site/package.json": {"name": "site"},
    "apps/site/src/main.ts": "t('site.title');\n",
    "apps/site/src/locales/en.json": {"site": {"title": "Site"}},
    "libs/i18n/core/package.json": {"name": "@acme/i18n"},
    "libs/i18n/core/lang/en.json": {"shared": {"ok": "OK"}},
    "libs/legacy/package.json": {"name": "legacy"},
    "libs/legacy/locales/en.json": {"legacy": {"x": "X"}},
    "tools/scripts/package.json": {"name": "scripts"},
    "tools/scripts/locales/en.json": {"not": {"a": "workspace package"}},
}
PNPM_MONOREPO_PROJECTS = ["apps/site", "libs/i18n/core"]

# An app whose code names 2 of its 6 keys: too few for `cleanup` to act on a guessed
# configuration. Its locale folder is found by looking (`public/locales`), a guess.
THIN_GUESSED: dict[str, Any] = {
    "src/App.tsx": "export const App = () => [t('home.title'), t('home.body')];\n",
    "public/locales/en/common.json": {
        "home": {"title": "T", "body": "B"},
        "settings": {"a": "A", "b": "B", "c": "C", "d": "D"},
    },
}
# The same in the default folder (`locales/en.json`): nothing is a guess but the absent file.
THIN_DEFAULTS: dict[str, Any] = {
    "src/App.tsx": THIN_GUESSED["src/App.tsx"],
    "locales/en.json": THIN_GUESSED["public/locales/en/common.json"],
}
