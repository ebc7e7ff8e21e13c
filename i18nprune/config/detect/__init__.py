"""The detector: how a project's own i18n set-up and files say it is configured, read without
running anything — the one source both zero-config runs (`config.discovery`) and `init` use.

- `findings`: a detected value and where it came from;
- `setup`: the app's i18n set-up files (`i18next.init({…})`, `next-i18next.config.js`,
  `createI18n({…})`, nuxt's `i18n` options, next-intl's `request.ts`, svelte-i18n's
  `register`) and its `package.json` libraries;
- `locales`: the locale folder, its layout, the source locale, namespaces and separators, from
  the locale files themselves;
- `sources`: the folders whose files call the library;
- `workspace`: the projects of a monorepo root.
"""
