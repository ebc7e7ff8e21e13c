"""i18next, react-i18next and next-i18next: every call shape of their documentation, each case
saying which keys the code reads and which it does not (`tests/conformance/harness.py`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conformance.harness import Case, check, params
from tests.conftest import write_tree

CORE = ("i18next",)
REACT = ("i18next", "react-i18next")
NEXT = ("i18next", "react-i18next", "next-i18next")
HOOK = "import { useTranslation } from 'react-i18next';\n"
CORE_IMPORT = "import i18next from 'i18next';\n"
TYPES = "import type { TFunction } from 'i18next';\n"
NAMESPACES = ("translation", "common", "auth")


def component(body: str, imports: str = HOOK, hook: str = "useTranslation()") -> dict[str, str]:
    """`src/App.tsx`: a component that takes `t` from `hook` and renders `body`."""
    return {
        "src/App.tsx": f"{imports}export function App() {{\n  const {{ t }} = {hook};\n"
        f"  return <>{body}</>;\n}}\n"
    }


def script(body: str, imports: str = CORE_IMPORT) -> dict[str, str]:
    """`src/main.ts`: plain i18next code."""
    return {"src/main.ts": imports + body}


ESSENTIALS = "i18next.com/translation-function/essentials"
SELECTOR = "i18next.com/typescript/selector-api"
TS = "i18next.com/overview/typescript"
USE_TRANSLATION = "react.i18next.com/latest/usetranslation-hook"
TRANS = "react.i18next.com/latest/trans-component"
NEXT_DOC = "github.com/i18next/next-i18next#readme"

I18NEXT_CASES = [
    Case(
        "i18next_t",
        script("i18next.t('look.deep');\ni18next.t('key');\n"),
        used={"look.deep", "key"},
        unused={"look.other"},
        dependencies=CORE,
        doc=f"{ESSENTIALS}#accessing-keys",
    ),
    Case(
        "i18next_default_value",
        script("i18next.t('greeting', 'Hello');\ni18next.t('bye', { defaultValue: 'Bye' });\n"),
        used={"greeting", "bye"},
        unused={"other"},
        dependencies=CORE,
        doc=f"{ESSENTIALS}#passing-a-default-value",
    ),
    Case(
        "i18next_ns_in_key",
        script("i18next.t('common:button.save');\n"),
        used={"common:button.save"},
        unused={"translation:button.save", "common:button.cancel"},
        namespaces=NAMESPACES,
        dependencies=CORE,
        doc=f"{ESSENTIALS}#accessing-keys-in-different-namespaces",
    ),
    Case(
        "i18next_ns_option",
        script("i18next.t('button.save', { ns: 'common' });\n"),
        used={"common:button.save"},
        unused={"translation:button.save", "common:button.cancel"},
        namespaces=NAMESPACES,
        dependencies=CORE,
        doc=f"{ESSENTIALS}#accessing-keys-in-different-namespaces",
    ),
    Case(
        # i18next looks the key up in each namespace of the list, in order: any one is enough.
        "i18next_ns_option_list",
        script("i18next.t('button.save', { ns: ['common', 'auth'] });\n"),
        used={"common:button.save", "auth:button.save"},
        unused={"translation:button.save", "common:button.cancel"},
        missing={"common:button.save"},
        namespaces=NAMESPACES,
        dependencies=CORE,
        doc="i18next.com/overview/configuration-options#languages-namespaces-resources",
    ),
    Case(
        "i18next_fallback_keys",
        script("i18next.t(['error.404', 'error.unspecific']);\n"),
        used={"error.404", "error.unspecific"},
        unused={"error.500"},
        dependencies=CORE,
        doc=f"{ESSENTIALS}#multiple-fallback-keys",
    ),
    Case(
        "i18next_context",
        script("i18next.t('friend', { context: 'male' });\n"),
        used={"friend", "friend_male"},
        unused={"friend_female", "enemy"},
        missing={"friend"},
        dependencies=CORE,
        doc="i18next.com/translation-function/context",
    ),
    Case(
        "i18next_context_dynamic",
        script("declare const gender: string;\ni18next.t('friend', { context: gender });\n"),
        used={"friend", "friend_male", "friend_female"},
        unused={"enemy"},
        missing={"friend"},
        dependencies=CORE,
        doc="i18next.com/translation-function/context",
    ),
    Case(
        "i18next_plural",
        script("declare const n: number;\ni18next.t('item', { count: n });\n"),
        used={"item_zero", "item_one", "item_other"},
        unused={"items_one", "other"},
        missing={"item"},
        dependencies=CORE,
        doc="i18next.com/translation-function/plurals",
    ),
    Case(
        "i18next_plural_context",
        script("declare const n: number;\ni18next.t('friend', { context: 'male', count: n });\n"),
        used={"friend_male_one", "friend_male_other"},
        unused={"friend_female_one", "enemy"},
        missing={"friend"},
        dependencies=CORE,
        doc="i18next.com/translation-function/context#combining-with-plurals",
    ),
    Case(
        "i18next_return_objects",
        script("i18next.t('tree', { returnObjects: true });\n"),
        used={"tree.res", "tree.deep.leaf"},
        unused={"forest"},
        missing={"tree"},
        dependencies=CORE,
        doc="i18next.com/translation-function/objects-and-arrays",
    ),
    Case(
        "i18next_object_value",
        script("i18next.t('tree');\n"),
        used={"tree.res", "tree.deep.leaf"},
        unused={"forest"},
        missing={"tree"},
        dependencies=CORE,
        doc="i18next.com/translation-function/objects-and-arrays",
    ),
    Case(
        "i18next_get_fixed_t_namespace_prefix",
        script("const t = i18next.getFixedT(null, 'auth', 'login.form');\nt('title');\n"),
        used={"auth:login.form.title"},
        unused={"translation:login.form.title", "auth:title", "auth:login.form.other"},
        namespaces=NAMESPACES,
        dependencies=CORE,
        doc="i18next.com/overview/api#getfixedt",
    ),
    Case(
        "i18next_get_fixed_t_language_only",
        script("const t = i18next.getFixedT('de');\nt('title');\n"),
        used={"translation:title"},
        unused={"auth:title"},
        namespaces=NAMESPACES,
        dependencies=CORE,
        doc="i18next.com/overview/api#getfixedt",
    ),
    Case(
        "i18next_get_fixed_t_namespace_list",
        script("const t = i18next.getFixedT(null, ['auth', 'common']);\nt('title');\n"),
        used={"auth:title", "common:title"},
        unused={"translation:title"},
        missing={"auth:title"},
        namespaces=NAMESPACES,
        dependencies=CORE,
        doc="i18next.com/overview/api#getfixedt",
    ),
    Case(
        "i18next_get_fixed_t_called_at_once",
        script("i18next.getFixedT(null, 'auth', 'form')('title');\n"),
        used={"auth:form.title"},
        unused={"auth:title"},
        namespaces=NAMESPACES,
        dependencies=CORE,
        doc="i18next.com/overview/api#getfixedt",
    ),
    Case(
        "i18next_call_key_prefix",
        script("const t = i18next.getFixedT(null, null, 'a');\nt('title', { keyPrefix: 'b' });\n"),
        used={"b.title"},
        unused={"a.title"},
        dependencies=CORE,
        doc="i18next.com/overview/api#getfixedt",
    ),
    Case(
        "i18next_exists",
        script("if (i18next.exists('hint.optional')) console.log('yes');\n"),
        used={"hint.optional"},
        unused={"hint.other"},
        dependencies=CORE,
        doc="i18next.com/overview/api#exists",
    ),
    Case(
        "i18next_flat_natural_keys",
        script("i18next.t('Welcome to the app. Enjoy!');\n"),
        used={"Welcome to the app. Enjoy!"},
        unused={"Goodbye."},
        flat=True,
        dependencies=CORE,
        doc="i18next.com/overview/configuration-options#misc",
    ),
    Case(
        "i18next_exists_namespace",
        script("i18next.exists('hint', { ns: 'auth' });\n"),
        used={"auth:hint"},
        unused={"translation:hint"},
        namespaces=NAMESPACES,
        dependencies=CORE,
        doc="i18next.com/overview/api#exists",
    ),
    Case(
        "i18next_get_resource",
        script("i18next.getResource('en', 'auth', 'login.title');\n"),
        used={"auth:login.title"},
        unused={"auth:login.other"},
        namespaces=NAMESPACES,
        dependencies=CORE,
        doc="i18next.com/overview/api#getresource",
    ),
    Case(
        "i18next_key_prefix_removed",
        component(
            "{t('title', { keyPrefix: '' })}", hook="useTranslation('auth', { keyPrefix: 'a' })"
        ),
        used={"auth:title"},
        unused={"auth:a.title"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc="i18next.com/translation-function/essentials#overview-options",
    ),
    Case(
        "i18next_create_instance",
        script(
            "const i18n = i18next.createInstance();\ni18n.t('home.title');\n"
            "const t = i18n.getFixedT(null, 'auth');\nt('login');\n"
        ),
        used={"translation:home.title", "auth:login"},
        unused={"translation:login", "auth:home.title"},
        namespaces=NAMESPACES,
        dependencies=CORE,
        doc="i18next.com/overview/api#createinstance",
    ),
    Case(
        "i18next_constant_key",
        script("const KEY = 'home.title';\ni18next.t(KEY);\ni18next.t(`home.${'sub'}`);\n"),
        used={"home.title", "home.sub"},
        unused={"home.other"},
        dependencies=CORE,
        doc=f"{ESSENTIALS}#accessing-keys",
    ),
    Case(
        "i18next_dynamic_key_protects_its_prefix",
        script("declare const code: string;\ni18next.t(`errors.${code}`);\ni18next.t('ok');\n"),
        used={"ok", "errors.404"},
        unused={"other"},
        missing={"ok"},
        dependencies=CORE,
        doc=f"{ESSENTIALS}#accessing-keys",
    ),
]

SELECTOR_CASES = [
    Case(
        "selector_api",
        component("{t($ => $.app.title.main)}"),
        used={"app.title.main"},
        unused={"app.title.other"},
        dependencies=REACT,
        doc=f"{SELECTOR}#keys",
    ),
    Case(
        "selector_brackets",
        component("{t($ => $.app['title'].main)}{t($ => $['my text'])}{t($ => $.steps[0])}"),
        used={"app.title.main", "my text", "steps.0"},
        unused={"app.title.other", "steps.1"},
        dependencies=REACT,
        doc=f"{SELECTOR}#keys",
    ),
    Case(
        "selector_core_t",
        script("i18next.t($ => $.button.save);\ni18next.t($ => $.welcome, { ns: 'common' });\n"),
        used={"translation:button.save", "common:welcome"},
        unused={"translation:welcome", "common:button.save"},
        namespaces=NAMESPACES,
        dependencies=CORE,
        doc=f"{SELECTOR}#keys",
    ),
    Case(
        "selector_fallback_keys",
        script(
            "declare const code: string;\ni18next.t([$ => $.error[code], $ => $.error.unknown]);\n"
        ),
        used={"error.unknown", "error.404"},
        unused={"other"},
        missing={"error.unknown"},
        dependencies=CORE,
        doc=f"{SELECTOR}#keys",
    ),
    Case(
        # With several namespaces, the first is `$` itself and the others hang under their
        # names (`$.auth.key`); `$.common.key` is a key `common.key` of the first.
        "selector_namespaces",
        component(
            "{t($ => $.title)}{t($ => $.auth.login)}{t($ => $.common.nested)}",
            hook="useTranslation(['common', 'auth'])",
        ),
        used={"common:title", "auth:login", "common:common.nested"},
        unused={"translation:title", "common:login", "auth:title"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc=f"{SELECTOR}#namespaces",
    ),
    Case(
        "selector_strict_namespaces",
        component(
            "{t($ => $.common.title)}{t($ => $.auth.login)}",
            hook="useTranslation(['common', 'auth'])",
        ),
        used={"common:title", "auth:login", "common:common.title"},
        unused={"translation:title", "common:login"},
        missing={"common:common.title", "auth:login"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc=f"{SELECTOR}#namespaces (enableSelector: 'strict')",
    ),
    Case(
        "selector_key_prefix",
        component("{t($ => $.title)}", hook="useTranslation('auth', { keyPrefix: 'login' })"),
        used={"auth:login.title"},
        unused={"auth:title", "auth:login.other"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc=f"{SELECTOR}#key-prefix",
    ),
    Case(
        "selector_key_prefix_selector",
        component("{t($ => $.title)}", hook="useTranslation('auth', { keyPrefix: $ => $.login })"),
        used={"auth:login.title"},
        unused={"auth:title", "auth:login.other"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc=f"{SELECTOR}#key-prefix",
    ),
    Case(
        "selector_trans",
        component(
            "<Trans i18nKey={$ => $.intro.text} />",
            imports=HOOK.replace("{ useTranslation }", "{ Trans, useTranslation }"),
        ),
        used={"intro.text"},
        unused={"intro.other"},
        dependencies=REACT,
        doc=f"{TRANS}#trans-props",
    ),
    Case(
        "selector_key_from_selector",
        script(
            "import { keyFromSelector } from 'i18next';\n"
            "const key = keyFromSelector($ => $.app.name);\ni18next.t(key);\n"
        ),
        used={"app.name"},
        unused={"app.other"},
        dependencies=CORE,
        doc=f"{SELECTOR}#keyfromselector",
    ),
    Case(
        "selector_return_objects",
        component("{t($ => $.tree, { returnObjects: true })}"),
        used={"tree.a", "tree.b"},
        unused={"forest"},
        missing={"tree"},
        dependencies=REACT,
        doc=f"{SELECTOR}#options",
    ),
    Case(
        "selector_plural_context",
        component("{t($ => $.friend, { context: 'male', count: 2 })}"),
        used={"friend_male_one", "friend_male_other"},
        unused={"friend_female_one"},
        missing={"friend"},
        dependencies=REACT,
        doc=f"{SELECTOR}#options",
    ),
    Case(
        "selector_get_fixed_t",
        script(
            "const t = i18next.getFixedT(null, ['auth', 'common'], 'form');\nt($ => $.title);\n"
        ),
        used={"auth:form.title", "common:form.title"},
        unused={"auth:title"},
        missing={"auth:form.title"},
        namespaces=NAMESPACES,
        dependencies=CORE,
        doc=f"{SELECTOR}#namespaces",
    ),
    Case(
        # A `t` whose namespaces are not known (it is handed in): a first segment naming a
        # namespace may be one.
        "selector_handed_t",
        {"src/f.ts": "export const f = (t: any) => t($ => $.auth.login);\n"},
        used={"auth:login", "translation:auth.login", "common:auth.login"},
        unused={"auth:other"},
        missing={"auth.login"},
        namespaces=NAMESPACES,
        dependencies=CORE,
        doc=f"{SELECTOR}#namespaces",
    ),
]

TYPED_CASES = [
    Case(
        "typed_t_namespace_prefix",
        script("export const f = (t: TFunction<'auth', 'login.form'>) => t('title');\n", TYPES),
        used={"auth:login.form.title"},
        unused={"translation:login.form.title", "auth:title", "common:login.form.title"},
        namespaces=NAMESPACES,
        dependencies=CORE,
        doc=f"{TS}#tfunction",
    ),
    Case(
        "typed_t_namespace_list",
        script(
            "export function f(t: TFunction<['auth', 'common']>) {\n  return t('title');\n}\n",
            TYPES,
        ),
        used={"auth:title"},
        unused={"translation:title", "common:title"},
        namespaces=NAMESPACES,
        dependencies=CORE,
        doc=f"{TS}#tfunction",
    ),
    Case(
        # Without typed resources, any `t` may be passed as a bare `TFunction`.
        "typed_t_bare_any_namespace",
        script("export function f(t: TFunction) {\n  return t('title');\n}\n", TYPES),
        used={"translation:title", "auth:title", "common:title"},
        unused={"auth:other"},
        missing={"title"},
        namespaces=NAMESPACES,
        dependencies=CORE,
        doc=f"{TS}#tfunction",
    ),
    Case(
        # i18next's default type written out (`TFunction<"translation", undefined>`) in an app
        # whose namespaces are others (linkwarden: `common`): the type says nothing there.
        "typed_t_namespace_the_locale_lacks",
        script(
            "export function f(t: TFunction<'translation', undefined>) {\n"
            "  return t('title');\n}\n",
            TYPES,
        ),
        used={"common:title"},
        unused={"common:other"},
        missing={"title"},
        namespaces=("common",),
        default_namespace="common",
        dependencies=CORE,
        doc=f"{TS}#tfunction",
    ),
    Case(
        "typed_props_t",
        {
            "src/Row.tsx": TYPES + "export function Row({ t }: { t: TFunction<'auth'> }) {\n"
            "  return <p>{t('row.title')}</p>;\n}\n"
        },
        used={"auth:row.title"},
        unused={"translation:row.title", "common:row.title"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc=f"{TS}#tfunction",
    ),
    Case(
        "typed_props_interface",
        {
            "src/Row.tsx": TYPES + "interface Props {\n  t: TFunction<'auth', 'row'>;\n}\n"
            "export function Row(props: Props) {\n  return <p>{props.t('title')}</p>;\n}\n"
        },
        used={"auth:row.title"},
        unused={"translation:row.title", "auth:title"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc=f"{TS}#tfunction",
    ),
    Case(
        "typed_with_translation_props",
        {
            "src/Row.tsx": "import { withTranslation, type WithTranslation }"
            " from 'react-i18next';\n"
            "function Row({ t }: WithTranslation<'auth'>) {\n  return <p>{t('row.title')}</p>;\n}\n"
            "export default withTranslation('auth')(Row);\n"
        },
        used={"auth:row.title"},
        unused={"translation:row.title"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc="react.i18next.com/latest/withtranslation-hoc",
    ),
]

REACT_CASES = [
    Case(
        "use_translation_t",
        component("{t('home.title')}"),
        used={"home.title"},
        unused={"home.unused"},
        dependencies=REACT,
        doc=USE_TRANSLATION,
    ),
    Case(
        "use_translation_array_result",
        {
            "src/App.tsx": HOOK + "export function App() {\n  const [t] = useTranslation();\n"
            "  return <p>{t('home.title')}</p>;\n}\n"
        },
        used={"home.title"},
        unused={"home.unused"},
        dependencies=REACT,
        doc=USE_TRANSLATION,
    ),
    Case(
        "use_translation_namespace",
        component("{t('login.title')}", hook="useTranslation('auth')"),
        used={"auth:login.title"},
        unused={"auth:login.unused", "translation:login.title"},
        namespaces=("translation", "auth"),
        dependencies=REACT,
        doc=f"{USE_TRANSLATION}#loading-namespaces",
    ),
    Case(
        "use_translation_namespaces",
        component(
            "{t('title')}{t('common:save')}{t('cancel', { ns: 'common' })}",
            hook="useTranslation(['auth', 'common'])",
        ),
        used={"auth:title", "common:save", "common:cancel"},
        unused={"common:title", "auth:save", "translation:title"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc=f"{USE_TRANSLATION}#loading-namespaces",
    ),
    Case(
        "use_translation_key_prefix",
        component("{t('title')}", hook="useTranslation('auth', { keyPrefix: 'very.deeply' })"),
        used={"auth:very.deeply.title"},
        unused={"auth:title", "auth:very.deeply.other"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc=f"{USE_TRANSLATION}#optional-keyprefix-option",
    ),
    Case(
        "with_translation_props",
        {
            "src/Row.jsx": "import { withTranslation } from 'react-i18next';\n"
            "function Row({ t }) {\n  return <p>{t('row.title')}</p>;\n}\n"
            "export default withTranslation('auth')(Row);\n"
        },
        used={"auth:row.title"},
        unused={"translation:row.title", "auth:row.other"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc="react.i18next.com/latest/withtranslation-hoc",
    ),
    Case(
        "with_translation_class",
        {
            "src/Row.jsx": "import React from 'react';\n"
            "import { withTranslation } from 'react-i18next';\n"
            "class Row extends React.Component {\n  render() {\n"
            "    return <p>{this.props.t('row.title')}</p>;\n  }\n}\n"
            "export default withTranslation()(Row);\n"
        },
        used={"translation:row.title"},
        unused={"translation:row.other", "auth:row.title"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc="react.i18next.com/latest/withtranslation-hoc",
    ),
    Case(
        "with_translation_key_prefix",
        {
            "src/Row.jsx": "import { withTranslation } from 'react-i18next';\n"
            "function Row({ t }) {\n  return <p>{t('title')}</p>;\n}\n"
            "export default withTranslation('auth', { keyPrefix: 'row' })(Row);\n"
        },
        used={"auth:row.title"},
        unused={"auth:title", "auth:row.other"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc="react.i18next.com/latest/withtranslation-hoc",
    ),
    Case(
        "translation_render_prop",
        {
            "src/App.jsx": "import { Translation } from 'react-i18next';\n"
            "export const App = () => (\n"
            "  <Translation>{(tr) => <p>{tr('home.title')}</p>}</Translation>\n);\n"
        },
        used={"home.title"},
        unused={"home.other"},
        dependencies=REACT,
        doc="react.i18next.com/latest/translation-render-prop",
    ),
    Case(
        "translation_render_prop_namespace",
        {
            "src/App.jsx": "import { Translation } from 'react-i18next';\n"
            "export const App = () => (\n"
            '  <Translation ns="auth" keyPrefix="login">'
            "{(t) => <p>{t('title')}</p>}</Translation>\n);\n"
        },
        used={"auth:login.title"},
        unused={"translation:login.title", "auth:title"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc="react.i18next.com/latest/translation-render-prop",
    ),
    Case(
        "use_translation_namespace_constant",
        {
            "src/ns.ts": "export const AUTH = 'auth';\n",
            "src/App.tsx": HOOK + "import { AUTH } from './ns';\nexport function App() {\n"
            "  const { t } = useTranslation(AUTH);\n  return <p>{t('title')}</p>;\n}\n",
        },
        used={"auth:title"},
        unused={"translation:title"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc=f"{USE_TRANSLATION}#loading-namespaces",
    ),
    Case(
        "use_translation_i18n_t",
        {
            "src/App.tsx": HOOK
            + "export function App() {\n  const { i18n } = useTranslation('auth');\n"
            "  return <p>{i18n.t('home.title')}</p>;\n}\n"
        },
        used={"home.title"},
        unused={"home.other"},
        dependencies=REACT,
        doc=f"{USE_TRANSLATION}#what-it-does",
    ),
    Case(
        "with_translation_namespaces",
        {
            "src/Row.jsx": "import { withTranslation } from 'react-i18next';\n"
            "function Row({ t }) {\n  return <p>{t('title')}{t('common:save')}</p>;\n}\n"
            "export default withTranslation(['auth', 'common'])(Row);\n"
        },
        used={"auth:title", "common:save"},
        unused={"common:title", "auth:save"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc="react.i18next.com/latest/withtranslation-hoc",
    ),
]

TRANS_IMPORT = "import { Trans, useTranslation } from 'react-i18next';\n"


def trans(body: str, hook: str = "useTranslation()") -> dict[str, str]:
    return component(body, TRANS_IMPORT, hook)


TRANS_CASES = [
    Case(
        "trans_i18n_key",
        trans('<Trans i18nKey="welcome.user">Hello <strong>{{ name }}</strong></Trans>'),
        used={"welcome.user"},
        unused={"welcome.other", "Hello <1>{{name}}</1>"},
        dependencies=REACT,
        doc=f"{TRANS}#trans-props",
    ),
    Case(
        "trans_children_key",
        trans("<Trans>Hello <strong>world</strong>, welcome.</Trans>"),
        used={"Hello <strong>world</strong>, welcome."},
        unused={"Hello"},
        flat=True,
        dependencies=REACT,
        doc=f"{TRANS}#how-to-get-the-correct-translation-string",
    ),
    Case(
        "trans_defaults_values_components",
        trans(
            '<Trans i18nKey="invite" defaults="Hi <bold>{{who}}</bold>" values={{ who: "you" }}'
            " components={{ bold: <strong /> }} />"
        ),
        used={"invite"},
        unused={"other"},
        dependencies=REACT,
        doc=f"{TRANS}#alternative-usage-components-array",
    ),
    Case(
        "trans_components_array",
        trans('<Trans i18nKey="invite" components={[<strong key="0" />]} />'),
        used={"invite"},
        unused={"other"},
        dependencies=REACT,
        doc=f"{TRANS}#alternative-usage-components-array",
    ),
    Case(
        "trans_count",
        trans('<Trans i18nKey="inbox" count={3}>You have {{ count }} messages.</Trans>'),
        used={"inbox_one", "inbox_other"},
        unused={"outbox_one"},
        missing={"inbox"},
        dependencies=REACT,
        doc=f"{TRANS}#plural",
    ),
    Case(
        "trans_context",
        trans('<Trans i18nKey="friend" context="male">A friend</Trans>'),
        used={"friend", "friend_male"},
        unused={"friend_female"},
        missing={"friend"},
        dependencies=REACT,
        doc=f"{TRANS}#trans-props",
    ),
    Case(
        "trans_ns",
        trans('<Trans ns="auth" i18nKey="login.title" />'),
        used={"auth:login.title"},
        unused={"translation:login.title"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc=f"{TRANS}#trans-props",
    ),
    Case(
        "trans_ns_in_key",
        trans('<Trans i18nKey="auth:login.title" />'),
        used={"auth:login.title"},
        unused={"translation:login.title"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc=f"{TRANS}#trans-props",
    ),
    Case(
        "trans_t_prop",
        trans(
            '<Trans t={t} i18nKey="title" />', hook="useTranslation('auth', { keyPrefix: 'login' })"
        ),
        used={"auth:login.title"},
        unused={"translation:title", "auth:title"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc=f"{TRANS}#trans-props",
    ),
    Case(
        "trans_hook_namespace_without_t",
        trans('<Trans i18nKey="title" />', hook="useTranslation('auth')"),
        used={"translation:title"},
        unused={"auth:title"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc=f"{TRANS}#trans-props",
    ),
    Case(
        # react-i18next passes `ns` (the prop, else `t`'s) over `tOptions.ns`; the extractors
        # write the key into `tOptions.ns`: either is read.
        "trans_t_options",
        trans('<Trans i18nKey="title" tOptions={{ ns: "auth", context: "short" }} />'),
        used={"translation:title_short", "auth:title_short", "translation:title"},
        unused={"common:title"},
        missing={"translation:title"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc=f"{TRANS}#trans-props",
    ),
    Case(
        "trans_ns_list",
        trans('<Trans ns={["auth", "common"]} i18nKey="title" />'),
        used={"auth:title", "common:title"},
        unused={"translation:title"},
        missing={"auth:title"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc=f"{TRANS}#trans-props",
    ),
    Case(
        "trans_context_dynamic",
        {
            "src/App.tsx": TRANS_IMPORT + "export function App({ kind }: { kind: string }) {\n"
            '  return <Trans i18nKey="title" context={kind} />;\n}\n'
        },
        used={"title", "title_short", "title_long"},
        unused={"other"},
        missing={"title"},
        dependencies=REACT,
        doc=f"{TRANS}#trans-props",
    ),
    Case(
        "trans_selector_t_prop",
        trans(
            "<Trans t={t} i18nKey={$ => $.common.save} />",
            hook="useTranslation(['auth', 'common'])",
        ),
        used={"common:save"},
        unused={"auth:common.save", "auth:save"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc=f"{TRANS}#trans-props",
    ),
    Case(
        "icu_trans",
        {
            "src/App.tsx": "import { IcuTrans } from 'react-i18next';\n"
            "export const App = () => (\n"
            '  <IcuTrans i18nKey="welcome.message" ns="auth"'
            ' defaultTranslation="Welcome <0>friend</0>!"'
            " content={[{ type: 'strong' }]} />\n);\n"
        },
        used={"auth:welcome.message"},
        unused={"translation:welcome.message"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc="react.i18next.com/latest/icutrans-component",
    ),
    Case(
        "trans_fallback_keys",
        trans('<Trans i18nKey={["error.specific", "error.unspecific"]} />'),
        used={"error.specific", "error.unspecific"},
        unused={"error.other"},
        dependencies=REACT,
        doc=f"{TRANS}#trans-props",
    ),
    Case(
        "provider_default_namespace",
        {
            "src/App.tsx": "import { I18nextProvider, useTranslation } from 'react-i18next';\n"
            "import i18n from './i18n';\n"
            "function Title() {\n  const { t } = useTranslation();\n"
            "  return <h1>{t('title')}</h1>;\n}\n"
            "export const App = () => (\n"
            '  <I18nextProvider i18n={i18n} defaultNS="auth"><Title /></I18nextProvider>\n);\n'
        },
        used={"auth:title"},
        unused={"translation:title"},
        namespaces=NAMESPACES,
        dependencies=REACT,
        doc="react.i18next.com/latest/i18nextprovider",
        gap="the default namespace an I18nextProvider gives the components it renders is not"
        " followed (set locales.scopes for their folder)",
    ),
]

NEXT_CASES = [
    Case(
        "next_use_translation",
        {
            "src/pages/index.tsx": "import { useTranslation } from 'next-i18next';\n"
            "import { serverSideTranslations } from 'next-i18next/serverSideTranslations';\n"
            "export default function Home() {\n  const { t } = useTranslation('auth');\n"
            "  return <p>{t('title')}</p>;\n}\n"
            "export const getStaticProps = async ({ locale }) => ({\n"
            "  props: { ...(await serverSideTranslations(locale, ['auth', 'common'])) },\n});\n"
        },
        used={"auth:title"},
        unused={"common:title", "auth:other"},
        namespaces=NAMESPACES,
        dependencies=NEXT,
        doc=f"{NEXT_DOC} (pages router: serverSideTranslations, useTranslation)",
    ),
    Case(
        "next_app_with_translation",
        {
            "src/pages/_app.tsx": "import { appWithTranslation } from 'next-i18next';\n"
            "const MyApp = ({ Component, pageProps }) => <Component {...pageProps} />;\n"
            "export default appWithTranslation(MyApp);\n",
            "src/pages/index.tsx": "import { Trans, withTranslation } from 'next-i18next';\n"
            "function Home({ t }) {\n"
            "  return <p>{t('title')}<Trans i18nKey=\"intro\" t={t} /></p>;\n}\n"
            "export default withTranslation('common')(Home);\n",
        },
        used={"common:title", "common:intro"},
        unused={"translation:title", "common:other"},
        namespaces=NAMESPACES,
        dependencies=NEXT,
        doc=f"{NEXT_DOC} (pages router: appWithTranslation, withTranslation, Trans)",
    ),
    Case(
        "next_use_t",
        {
            "src/app/todos.tsx": "'use client';\nimport { useT } from 'next-i18next/client';\n"
            "export function Todos() {\n  const { t } = useT('auth', { keyPrefix: 'todos' });\n"
            "  return <p>{t('title')}</p>;\n}\n"
        },
        used={"auth:todos.title"},
        unused={"auth:title", "translation:todos.title"},
        namespaces=NAMESPACES,
        dependencies=NEXT,
        doc=f"{NEXT_DOC} (app router: useT)",
    ),
    Case(
        "next_get_t",
        {
            "src/app/page.tsx": "import { getT } from 'next-i18next/server';\n"
            "export default async function Page() {\n  const { t } = await getT('auth');\n"
            "  const { t: tp } = await getT('common', { keyPrefix: 'page' });\n"
            "  return <h1>{t('heading')}{tp('title')}</h1>;\n}\n"
        },
        used={"auth:heading", "common:page.title"},
        unused={"translation:heading", "common:title"},
        namespaces=NAMESPACES,
        dependencies=NEXT,
        doc=f"{NEXT_DOC} (app router: getT)",
    ),
    Case(
        "next_get_t_default",
        {
            "src/app/page.tsx": "import { getT } from 'next-i18next/server';\n"
            "export default async function Page() {\n  const { t } = await getT();\n"
            "  return <h1>{t('heading')}</h1>;\n}\n"
        },
        used={"translation:heading"},
        unused={"auth:heading"},
        namespaces=NAMESPACES,
        dependencies=NEXT,
        doc=f"{NEXT_DOC} (app router: getT)",
    ),
    Case(
        "next_trans_client",
        {
            "src/app/intro.tsx": "'use client';\nimport { Trans } from 'next-i18next/client';\n"
            "import { useT } from 'next-i18next/client';\n"
            "export function Intro() {\n  const { t } = useT('auth');\n"
            '  return <Trans t={t} i18nKey="intro" />;\n}\n'
        },
        used={"auth:intro"},
        unused={"translation:intro"},
        namespaces=NAMESPACES,
        dependencies=NEXT,
        doc=f"{NEXT_DOC} (app router: Trans)",
    ),
    Case(
        # next-i18next's app router sets i18next's `fallbackNS` to `defaultNS`: a key of
        # another namespace not found there is read from the default one.
        "next_app_router_fallback_namespace",
        {
            "src/app/page.tsx": "import { getT } from 'next-i18next/server';\n"
            "export default async function Page() {\n  const { t } = await getT('auth');\n"
            "  return <h1>{t('save')}</h1>;\n}\n"
        },
        used={"auth:save", "translation:save"},
        unused={"common:save"},
        missing={"auth:save"},
        namespaces=NAMESPACES,
        dependencies=NEXT,
        doc=f"{NEXT_DOC} (app router: getT, I18nProvider)",
        gap="next-i18next's implicit fallbackNS is not read; set locales.fallbackNamespaces",
    ),
]

CASES = [*I18NEXT_CASES, *SELECTOR_CASES, *TYPED_CASES, *REACT_CASES, *TRANS_CASES, *NEXT_CASES]


@pytest.mark.parametrize("case", params(CASES))
def test_case(case: Case, tmp_path: Path) -> None:
    check(case, tmp_path)


# A Next.js app on next-i18next (pages and app router) using many of the shapes at once.
APP: dict[str, Any] = {
    "package.json": {
        "dependencies": {"i18next": "^26.0.0", "react-i18next": "^17.0.0", "next-i18next": "^16"}
    },
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
    "src/pages/_app.tsx": (
        "import { appWithTranslation } from 'next-i18next';\n"
        "const MyApp = ({ Component, pageProps }) => <Component {...pageProps} />;\n"
        "export default appWithTranslation(MyApp);\n"
    ),
    "src/pages/index.tsx": (
        "import { Trans, useTranslation } from 'next-i18next';\n"
        "import { serverSideTranslations } from 'next-i18next/serverSideTranslations';\n"
        "import { Row } from '../components/Row';\n"
        "export default function Home() {\n"
        "  const { t } = useTranslation(['common', 'auth']);\n"
        "  return (\n    <main>\n      <h1>{t('title')}</h1>\n"
        "      <p>{t($ => $.auth.login.title)}</p>\n"
        '      <Trans t={t} i18nKey="welcome">Welcome <b>back</b></Trans>\n'
        "      <Row t={t} />\n    </main>\n  );\n}\n"
        "export const getStaticProps = async ({ locale }) => ({\n"
        "  props: { ...(await serverSideTranslations(locale, ['common', 'auth', 'settings'])) },\n"
        "});\n"
    ),
    "src/components/Row.tsx": (
        "import type { TFunction } from 'i18next';\n"
        "export function Row({ t }: { t: TFunction<'settings', 'row'> }) {\n"
        "  return <p title={t('hint')}>{t('label')}</p>;\n}\n"
    ),
    "src/app/[lng]/page.tsx": (
        "import { getT } from 'next-i18next/server';\n"
        "export default async function Page() {\n"
        "  const { t } = await getT('settings', { keyPrefix: 'page' });\n"
        "  return <h1>{t('heading')}{t($ => $.intro)}</h1>;\n}\n"
    ),
    "src/app/[lng]/client.tsx": (
        "'use client';\nimport { useT } from 'next-i18next/client';\n"
        "import { Translation } from 'react-i18next';\n"
        "export function Client() {\n  const { t } = useT('auth');\n"
        "  return (\n    <>\n      <button>{t('logout')}</button>\n"
        "      <Translation ns=\"settings\">{(ts) => ts('theme.label')}</Translation>\n"
        "    </>\n  );\n}\n"
    ),
    "src/lib/errors.ts": (
        "import i18next from 'i18next';\n"
        "export const unknown = () => i18next.t('error.unknown', { ns: ['auth', 'common'] });\n"
        "export const hasHelp = () => i18next.exists('error.help');\n"
        "const errors = i18next.getFixedT(null, 'auth', 'errors');\n"
        "export const timeout = () => errors('timeout');\n"
    ),
    "public/locales/en/common.json": {
        "title": "Home",
        "welcome": "Welcome <1>back</1>",
        "error": {"unknown": "Something went wrong", "help": "Ask for help"},
        "footer": "Made with care",
    },
    "public/locales/en/auth.json": {
        "login": {"title": "Sign in"},
        "logout": "Sign out",
        "errors": {"timeout": "Timed out"},
        "unused": "Never shown",
    },
    "public/locales/en/settings.json": {
        "row": {"label": "Row"},
        "page": {"heading": "Settings", "intro": "Choose"},
        "theme": {"label": "Theme"},
        "old": "Old setting",
    },
    "public/locales/fr/common.json": {"title": "Accueil", "footer": "Fait avec soin"},
}


def test_app_cleanup_offers_exactly_the_unused_keys(tmp_path: Path, run_cli) -> None:
    root = write_tree(tmp_path / "app", APP)

    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    assert result.code == 0, result.stdout
    assert set(result.envelope["data"]["keys"]) == {"common:footer", "auth:unused", "settings:old"}


def test_app_validate_finds_exactly_the_missing_keys(tmp_path: Path, run_cli) -> None:
    root = write_tree(tmp_path / "app", APP)

    result = run_cli("validate", "--json", cwd=root)

    assert result.envelope["data"]["missing"] == ["settings:row.hint"]
