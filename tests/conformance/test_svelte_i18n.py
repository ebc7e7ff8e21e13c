"""svelte-i18n: every call shape of its documentation and of its own extractor
(`svelte-i18n extract`), each case saying which keys the code reads and which it does not
(`tests/conformance/harness.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.harness import Case, check, check_app, params
from tests.conftest import write_tree

SVELTE_I18N = ("svelte", "svelte-i18n")
FORMATTING = "github.com/kaisermann/svelte-i18n/blob/main/docs/Formatting.md"
METHODS = "github.com/kaisermann/svelte-i18n/blob/main/docs/Methods.md"


def _svelte(script: str, markup: str) -> dict[str, str]:
    return {"src/App.svelte": f"<script>\n{script}</script>\n\n{markup}"}


def _case(id: str, code: dict[str, str], used: set[str], unused: set[str], doc: str, **extra):
    extra.setdefault("dependencies", SVELTE_I18N)
    return Case(id, code, used=used, unused=unused, doc=doc, **extra)


CASES = [
    _case(
        "underscore_store",
        _svelte("  import { _ } from 'svelte-i18n';\n", "<h1>{$_('page_title')}</h1>\n"),
        used={"page_title"},
        unused={"page_unused"},
        doc=FORMATTING + "#format-or-_-or-t",
    ),
    _case(
        "t_and_format_aliases",
        _svelte(
            "  import { t, format } from 'svelte-i18n';\n",
            "<p>{$t('home.title')}</p>\n<p>{$format('home.body')}</p>\n",
        ),
        used={"home.title", "home.body"},
        unused={"home.unused"},
        doc=FORMATTING + "#format-or-_-or-t",
    ),
    _case(
        "options_default_and_values",
        _svelte(
            "  import { _ } from 'svelte-i18n';\n  export let n = 0;\n",
            "<p>{$_('cart.count', { values: { n }, default: '{n} items' })}</p>\n",
        ),
        used={"cart.count"},
        unused={"cart.unused"},
        doc=FORMATTING + " (format(messageId, options))",
    ),
    _case(
        "message_object",
        _svelte(
            "  import { _, t } from 'svelte-i18n';\n  export let name = '';\n",
            "<h1>{$_({ id: 'greeting.title', default: 'Hi' })}</h1>\n"
            "<p>{$t({ id: 'greeting.body', values: { name } })}</p>\n",
        ),
        used={"greeting.title", "greeting.body"},
        unused={"greeting.unused"},
        doc=FORMATTING + " (format(options: MessageObject))",
    ),
    _case(
        "message_object_locale_format",
        _svelte(
            "  import { format } from 'svelte-i18n';\n",
            "<p>{$format({ id: 'price.label', locale: 'pt', format: 'EUR' })}</p>\n",
        ),
        used={"price.label"},
        unused={"price.unused"},
        doc=FORMATTING + " (MessageObject.locale, .format)",
    ),
    _case(
        "json_subtree",
        _svelte(
            "  import { json } from 'svelte-i18n';\n",
            "{#each $json('menu.items') as item}<li>{item}</li>{/each}\n",
        ),
        used={"menu.items.home", "menu.items.about"},
        unused={"menu.title"},
        missing={"menu.items"},
        doc=FORMATTING + "#json",
    ),
    _case(
        "attributes",
        _svelte(
            "  import { _ } from 'svelte-i18n';\n",
            "<input placeholder={$_('form.name')} title=\"{$_('form.hint')}\" />\n"
            "<button aria-label=\"{$_('form.submit')} now\">x</button>\n",
        ),
        used={"form.name", "form.hint", "form.submit"},
        unused={"form.unused"},
        doc=FORMATTING + " (the store in markup and attributes)",
    ),
    _case(
        "script_calls",
        _svelte(
            "  import { _ } from 'svelte-i18n';\n"
            "  const title = $_('script.title');\n"
            "  $: label = $_('script.reactive');\n",
            "<h1>{title}{label}</h1>\n",
        ),
        used={"script.title", "script.reactive"},
        unused={"script.unused"},
        doc=FORMATTING + " (the store in a component's script)",
    ),
    _case(
        "renamed_store_import",
        _svelte(
            "  import { _ as intl, format as fmt } from 'svelte-i18n';\n",
            "<h1>{$intl('renamed.title')}</h1>\n<p>{$fmt({ id: 'renamed.body' })}</p>\n",
        ),
        used={"renamed.title", "renamed.body"},
        unused={"renamed.unused"},
        doc="svelte-i18n extract: a format store imported under any local name",
    ),
    _case(
        "unwrap_function_store",
        {
            "src/lib/notify.ts": "import { unwrapFunctionStore, format, _ } from 'svelte-i18n';\n"
            "const $format = unwrapFunctionStore(format);\n"
            "const translate = unwrapFunctionStore(_);\n"
            "export const saved = () => $format('notify.saved');\n"
            "export const failed = () => translate('notify.failed');\n"
        },
        used={"notify.saved", "notify.failed"},
        unused={"notify.unused"},
        doc="github.com/kaisermann/svelte-i18n/blob/main/docs/FAQ.md "
        "(unwrapFunctionStore outside components)",
    ),
    _case(
        "get_store_outside_components",
        {
            "src/lib/errors.ts": "import { get } from 'svelte/store';\n"
            "import { _ } from 'svelte-i18n';\n"
            "export const message = () => get(_)('errors.network');\n"
        },
        used={"errors.network"},
        unused={"errors.unused"},
        doc="svelte.dev/docs/svelte-store#get (reading svelte-i18n's store in plain modules)",
    ),
    _case(
        "define_messages",
        {
            "src/lib/messages.ts": "import { defineMessages } from 'svelte-i18n';\n"
            "export const messages = defineMessages({\n"
            "  title: { id: 'defined.title', default: 'Title' },\n});\n"
        },
        used={"defined.title"},
        unused={"defined.unused"},
        doc="github.com/kaisermann/svelte-i18n/blob/main/docs/CLI.md (defineMessages)",
    ),
    _case(
        "get_message_formatter",
        {
            "src/lib/low.ts": "import { getMessageFormatter } from 'svelte-i18n';\n"
            "export const text = getMessageFormatter('low.level', 'en').format();\n"
        },
        used={"low.level"},
        unused={"low.unused"},
        doc=METHODS + "#getmessageformatter",
    ),
    _case(
        "formatters_no_key",
        _svelte(
            "  import { _, date, time, number, locale } from 'svelte-i18n';\n",
            "<p>{$date(new Date())} {$time(new Date())} {$number(3)} {$locale}</p>\n"
            "<p>{$_.number(3, { format: 'EUR' })}</p>\n<p>{$_('fmt.used')}</p>\n",
        ),
        used={"fmt.used"},
        unused={"fmt.date", "fmt.number"},
        doc=FORMATTING + "#timenumber-date-options-messageobject",
    ),
    _case(
        "commented_call",
        _svelte(
            "  import { _ } from 'svelte-i18n';\n  // $_('old.title')\n",
            "<!-- {$_('old.markup')} -->\n<p>{$_('new.title')}</p>\n",
        ),
        used={"new.title"},
        unused={"old.body"},
        doc=FORMATTING,
    ),
]


@pytest.mark.parametrize("case", params(CASES))
def test_case(case: Case, tmp_path: Path) -> None:
    check(case, tmp_path)


# An app in the shape of a real SvelteKit + svelte-i18n one: the store renamed, message objects,
# `$json` lists, attributes, and the formatter unwrapped for plain modules.
APP = {
    "package.json": {"devDependencies": {"@sveltejs/kit": "^2.0.0", "svelte-i18n": "^4.0.0"}},
    "i18nprune.config.json": {"src": "src", "locales": {"directory": "src/lib/i18n/locales"}},
    "src/lib/i18n/index.ts": (
        "import { register, init } from 'svelte-i18n';\n"
        "register('en', () => import('./locales/en.json'));\n"
        "init({ fallbackLocale: 'en' });\n"
    ),
    "src/routes/+page.svelte": (
        '<script lang="ts">\n'
        "  import { _ as intl, json } from 'svelte-i18n';\n"
        "  export let user = '';\n"
        "</script>\n\n"
        "<h1>{$intl('home.title')}</h1>\n"
        "<p>{$intl({ id: 'home.welcome', values: { user } })}</p>\n"
        "<input placeholder=\"{$intl('home.search', { default: 'Search' })}\" />\n"
        "<ul>{#each $json('home.features') as feature}<li>{feature}</li>{/each}</ul>\n"
    ),
    "src/lib/notify.ts": (
        "import { unwrapFunctionStore, format } from 'svelte-i18n';\n"
        "const translate = unwrapFunctionStore(format);\n"
        "export const saved = () => translate('notify.saved');\n"
        "export const failed = () => translate('notify.failed');\n"
    ),
    "src/lib/i18n/locales/en.json": {
        "home": {
            "title": "Home",
            "welcome": "Welcome {user}",
            "search": "Search",
            "features": ["Fast", "Small"],
            "legacy": "Legacy",
        },
        "notify": {"saved": "Saved"},
        "about": {"title": "About"},
    },
}
APP_UNUSED = {"home.legacy", "about.title"}
APP_MISSING = ["notify.failed"]


@pytest.mark.slow
def test_app_shaped_cli(tmp_path: Path, run_cli) -> None:
    check_app(run_cli, write_tree(tmp_path / "app", APP), APP_UNUSED, APP_MISSING)
