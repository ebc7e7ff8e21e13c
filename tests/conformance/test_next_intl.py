"""next-intl (and use-intl): every call shape of its documentation, each case saying which keys
the code reads and which it does not (`tests/conformance/harness.py`). A namespace is a key
path: `useTranslations('nav')` then `t('home')` reads `nav.home`."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

import pytest

from tests.conformance.harness import Case, check, check_app, params
from tests.conftest import write_tree

NEXT_INTL = ("next", "next-intl")
CLIENT = "import { useTranslations } from 'next-intl';\n"
SERVER = "import { getTranslations } from 'next-intl/server';\n"
EXTRACTED = "import { useExtracted } from 'next-intl';\n"


def extracted_key(message: str) -> str:
    """The key next-intl's extractor gives a message written inline (its docs' algorithm)."""
    return base64.b64encode(hashlib.sha512(message.encode()).digest()).decode()[:6]


def _case(id: str, code: dict[str, str], used: set[str], unused: set[str], doc: str, **extra):
    extra.setdefault("dependencies", NEXT_INTL)
    return Case(id, code, used=used, unused=unused, doc=doc, **extra)


def _page(head: str, body: str) -> dict[str, str]:
    return {"src/app/page.tsx": head + body}


CASES = [
    # -- useTranslations -------------------------------------------------------------------------
    _case(
        "use_translations_namespace",
        _page(
            CLIENT,
            "export default function Nav() {\n  const t = useTranslations('nav');\n"
            "  return <a>{t('home')}</a>;\n}\n",
        ),
        used={"nav.home"},
        unused={"nav.unused", "home"},
        doc="next-intl.dev/docs/usage/messages#rendering-messages-with-usetranslations",
    ),
    _case(
        "use_translations_root",
        _page(
            CLIENT,
            "export default function About() {\n  const t = useTranslations();\n"
            "  return <h1>{t('About.title')}</h1>;\n}\n",
        ),
        used={"About.title"},
        unused={"About.unused"},
        doc="next-intl.dev/docs/usage/messages (omit the namespace to reach all messages)",
    ),
    _case(
        "use_translations_nested_namespace",
        _page(
            CLIENT,
            "export default function SignUp() {\n  const t = useTranslations('auth.SignUp');\n"
            "  return <form title={t('title')}><button>{t('form.submit')}</button></form>;\n}\n",
        ),
        used={"auth.SignUp.title", "auth.SignUp.form.submit"},
        unused={"auth.SignUp.form.placeholder", "auth.title"},
        doc="next-intl.dev/docs/usage/messages#structuring-messages",
    ),
    _case(
        "use_translations_renamed_import",
        _page(
            "import { useTranslations as useT } from 'next-intl';\n",
            "export default function Nav() {\n  const t = useT('nav');\n"
            "  return <a>{t('home')}</a>;\n}\n",
        ),
        used={"nav.home"},
        unused={"nav.unused", "home"},
        doc="next-intl.dev/docs/usage/messages (an import may be renamed)",
    ),
    _case(
        "use_translations_called_at_once",
        _page(
            CLIENT,
            "export default function Nav() {\n"
            "  return <a>{useTranslations('nav')('home')}</a>;\n}\n",
        ),
        used={"nav.home"},
        unused={"nav.unused", "home"},
        doc="next-intl.dev/docs/usage/messages (the hook returns the translation function)",
    ),
    _case(
        "use_intl_package",
        _page(
            "import { useTranslations } from 'use-intl';\n",
            "export function Nav() {\n  const t = useTranslations('nav');\n"
            "  return t('home');\n}\n",
        ),
        used={"nav.home"},
        unused={"nav.unused"},
        dependencies=("use-intl",),
        doc="next-intl.dev/docs/environments/core-library (use-intl)",
    ),
    # -- rich text and friends ---------------------------------------------------------------------
    _case(
        "rich_markup_raw_has",
        _page(
            CLIENT,
            "export default function Page() {\n  const t = useTranslations('page');\n"
            "  const html = t.markup('markup', { b: (chunks) => `<b>${chunks}</b>` });\n"
            "  return <>\n    {t.rich('rich', { b: (chunks) => <b>{chunks}</b> })}\n"
            "    <div dangerouslySetInnerHTML={{ __html: t.raw('raw') }} />\n"
            "    {t.has('optional') && t('optional')}\n    {html}\n  </>;\n}\n",
        ),
        used={"page.rich", "page.markup", "page.raw", "page.optional"},
        unused={"page.unused"},
        doc="next-intl.dev/docs/usage/messages#rich-text, #html-markup, #raw-messages",
    ),
    _case(
        "icu_arguments_no_suffix_forms",
        _page(
            CLIENT,
            "export default function Cart({ n }: { n: number }) {\n"
            "  const t = useTranslations('cart');\n"
            "  return <p>{t('items', { count: n })}</p>;\n}\n",
        ),
        used={"cart.items"},
        unused={"cart.total"},
        doc="next-intl.dev/docs/usage/messages#rendering-of-messages (ICU plurals in the text)",
    ),
    _case(
        "dynamic_key_under_namespace",
        _page(
            CLIENT,
            "export function Status({ s }: { s: string }) {\n"
            "  const t = useTranslations('status');\n  return t(`${s}.label`);\n}\n",
        ),
        used={"status.active.label"},
        unused={"other.label"},
        missing=set(),
        doc="next-intl.dev/docs/usage/messages#arrays-of-messages (keys built at run time)",
    ),
    # -- server ------------------------------------------------------------------------------------
    _case(
        "get_translations_namespace",
        _page(
            SERVER,
            "export default async function Page() {\n"
            "  const t = await getTranslations('nav');\n  return <a>{t('home')}</a>;\n}\n",
        ),
        used={"nav.home"},
        unused={"nav.unused", "home"},
        doc="next-intl.dev/docs/environments/server-client-components#async-components",
    ),
    _case(
        "get_translations_options",
        _page(
            SERVER,
            "export async function generateMetadata({ params }) {\n"
            "  const { locale } = await params;\n"
            "  const t = await getTranslations({ locale, namespace: 'Metadata' });\n"
            "  return { title: t('title') };\n}\n",
        ),
        used={"Metadata.title"},
        unused={"Metadata.unused", "title"},
        doc="next-intl.dev/docs/environments/actions-metadata-route-handlers#metadata-api",
    ),
    _case(
        "get_translations_locale_only",
        _page(
            SERVER,
            "export async function GET() {\n"
            "  const t = await getTranslations({ locale: 'en' });\n"
            "  return Response.json({ title: t('Api.title') });\n}\n",
        ),
        used={"Api.title"},
        unused={"Api.unused"},
        doc="next-intl.dev/docs/environments/actions-metadata-route-handlers#route-handlers",
    ),
    _case(
        "server_action",
        {
            "src/app/actions.ts": "'use server';\n" + SERVER + "export async function save() {\n"
            "  const t = await getTranslations('actions');\n"
            "  return { message: t('saved') };\n}\n"
        },
        used={"actions.saved"},
        unused={"actions.unused"},
        doc="next-intl.dev/docs/environments/actions-metadata-route-handlers#server-actions",
    ),
    _case(
        "create_translator",
        {
            "src/lib/notify.ts": "import { createTranslator } from 'next-intl';\n"
            "export function notify(messages: any) {\n"
            "  const t = createTranslator({ locale: 'en', messages, namespace: 'Notify' });\n"
            "  return t('sent');\n}\n"
        },
        used={"Notify.sent"},
        unused={"Notify.unused", "sent"},
        doc="next-intl.dev/docs/environments/core-library#createtranslator",
    ),
    # -- the messages object -------------------------------------------------------------------
    _case(
        "use_messages",
        _page(
            "import { useMessages } from 'next-intl';\n",
            "export default function Faq() {\n  const messages = useMessages();\n"
            "  return Object.keys(messages.Faq).map((k) => <p key={k}>{k}</p>);\n}\n",
        ),
        used={"Faq.a", "Faq.b"},
        unused={"Other.c"},
        missing={"Faq"},
        doc="next-intl.dev/docs/usage/configuration#messages (useMessages)",
    ),
    _case(
        "client_provider_passes_messages",
        {
            "src/app/layout.tsx": "import { NextIntlClientProvider } from 'next-intl';\n"
            "import { getMessages } from 'next-intl/server';\n"
            "export default async function Layout({ children }) {\n"
            "  const messages = await getMessages();\n"
            "  return <NextIntlClientProvider messages={messages}>{children}"
            "</NextIntlClientProvider>;\n}\n",
            "src/app/page.tsx": CLIENT + "export default function Page() {\n"
            "  return useTranslations('Home')('title');\n}\n",
        },
        used={"Home.title"},
        unused={"Home.unused"},
        doc="next-intl.dev/docs/usage/configuration#nextintlclientprovider",
    ),
    # -- useExtracted ------------------------------------------------------------------------------
    _case(
        "use_extracted_text",
        _page(
            EXTRACTED,
            "export default function Inline() {\n  const t = useExtracted();\n"
            "  return <h1>{t('Look ma, no keys!')}</h1>;\n}\n",
        ),
        used={extracted_key("Look ma, no keys!")},
        unused={extracted_key("Gone")},
        flat=True,
        doc="next-intl.dev/docs/usage/extraction",
    ),
    _case(
        "use_extracted_values_rich_description",
        _page(
            EXTRACTED,
            "export default function Inline({ name }) {\n  const t = useExtracted();\n"
            "  return <>\n    {t('Hello, {name}!', { name })}\n"
            "    {t.rich('See the <link>guide</link>.', { link: (c) => <a>{c}</a> })}\n"
            "    {t({ message: 'Right', description: 'Advance to the next slide' })}\n  </>;\n}\n",
        ),
        used={
            extracted_key("Hello, {name}!"),
            extracted_key("See the <link>guide</link>."),
            extracted_key("Right"),
        },
        unused={extracted_key("Left")},
        flat=True,
        doc="next-intl.dev/docs/usage/extraction (ICU arguments, rich text, descriptions)",
    ),
    _case(
        "use_extracted_explicit_id",
        _page(
            EXTRACTED,
            "export default function Carousel() {\n  const t = useExtracted();\n"
            "  return <button>{t({ id: 'carousel.next', message: 'Right' })}</button>;\n}\n",
        ),
        used={"carousel.next"},
        unused={"carousel.previous", extracted_key("Right")},
        doc="next-intl.dev/docs/usage/extraction#explicit-ids",
    ),
    _case(
        "use_extracted_namespace",
        _page(
            EXTRACTED,
            "export function Button() {\n  const t = useExtracted('ui');\n"
            "  return <button>{t('Save')}</button>;\n}\n",
        ),
        used={"ui." + extracted_key("Save")},
        unused={extracted_key("Save"), "ui.other"},
        doc="next-intl.dev/docs/usage/extraction#namespaces",
    ),
    _case(
        "get_extracted",
        _page(
            "import { getExtracted } from 'next-intl/server';\n",
            "export default async function Page() {\n  const t = await getExtracted();\n"
            "  return <h1>{t('Server side')}</h1>;\n}\n",
        ),
        used={extracted_key("Server side")},
        unused={extracted_key("Client side")},
        flat=True,
        doc="next-intl.dev/docs/usage/extraction (getExtracted for server code)",
    ),
    _case(
        "get_extracted_options",
        _page(
            "import { getExtracted } from 'next-intl/server';\n",
            "export async function generateMetadata({ params }) {\n"
            "  const { locale } = await params;\n"
            "  const t = await getExtracted({ locale, namespace: 'meta' });\n"
            "  return { title: t('My page') };\n}\n",
        ),
        used={"meta." + extracted_key("My page")},
        unused={"meta.other"},
        doc="next-intl.dev/docs/usage/extraction (getExtracted({ locale, namespace }))",
    ),
]


@pytest.mark.parametrize("case", params(CASES))
def test_case(case: Case, tmp_path: Path) -> None:
    check(case, tmp_path)


# An app in the shape of a real next-intl one: client and server components, metadata, a
# server action, an import renamed, messages written inline with `useExtracted`, and the
# messages handed to the client provider.
APP = {
    "package.json": {"dependencies": {"next": "^15.0.0", "next-intl": "^4.5.0"}},
    "i18nprune.config.json": {"src": "src", "locales": {"directory": "messages"}},
    "src/app/[locale]/layout.tsx": (
        "import { NextIntlClientProvider } from 'next-intl';\n"
        "import { getMessages, getTranslations } from 'next-intl/server';\n"
        "export async function generateMetadata({ params }) {\n"
        "  const { locale } = await params;\n"
        "  const t = await getTranslations({ locale, namespace: 'Metadata' });\n"
        "  return { title: t('title') };\n"
        "}\n"
        "export default async function Layout({ children }) {\n"
        "  const messages = await getMessages();\n"
        "  return <NextIntlClientProvider messages={messages}>{children}"
        "</NextIntlClientProvider>;\n"
        "}\n"
    ),
    "src/components/Nav.tsx": (
        "'use client';\n"
        "import { useTranslations as useT } from 'next-intl';\n"
        "export function Nav() {\n"
        "  const t = useT('Nav');\n"
        "  return <nav>{t('home')} {t.rich('about', { b: (c) => <b>{c}</b> })}</nav>;\n"
        "}\n"
        "export const Footer = () => <footer>{useT('Footer')('copyright')}</footer>;\n"
    ),
    "src/components/Hero.tsx": (
        "import { useExtracted } from 'next-intl';\n"
        "export function Hero() {\n"
        "  const t = useExtracted();\n"
        "  return <h1>{t('Look ma, no keys!')}</h1>;\n"
        "}\n"
    ),
    "src/app/actions.ts": (
        "'use server';\n"
        "import { getTranslations } from 'next-intl/server';\n"
        "export async function subscribe() {\n"
        "  const t = await getTranslations('Actions');\n"
        "  return { ok: t('subscribed'), error: t('failed') };\n"
        "}\n"
    ),
    "messages/en.json": {
        "Metadata": {"title": "Shop"},
        "Nav": {"home": "Home", "about": "<b>About</b>", "blog": "Blog"},
        "Footer": {"copyright": "© Shop"},
        "Actions": {"subscribed": "Subscribed"},
        "VgH3tb": "Look ma, no keys!",
        "Old": {"banner": "Old banner"},
    },
}
APP_UNUSED = {"Nav.blog", "Old.banner"}
APP_MISSING = ["Actions.failed"]


@pytest.mark.slow
def test_app_shaped_cli(tmp_path: Path, run_cli) -> None:
    check_app(run_cli, write_tree(tmp_path / "app", APP), APP_UNUSED, APP_MISSING)
