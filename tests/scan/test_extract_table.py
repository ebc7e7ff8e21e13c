"""The extraction table: each snippet with the exact keys and dynamic sites it must yield."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import pytest

from tests.scan.conftest import ScanProject


class Key(NamedTuple):
    key: str
    plural: bool = False
    context: str | None = None


class Case(NamedTuple):
    id: str
    file: str
    source: str
    keys: tuple[Key, ...] | list[Key] = ()
    dynamic: Sequence[tuple[str, str | None] | tuple[str, str | None, str]] = ()
    """(kind, prefix) of each dynamic site, and its suffix when it has one."""
    functions: tuple[str, ...] = ("t",)


def k(key: str, *, plural: bool = False, context: str | None = None) -> Key:
    return Key(key, plural, context)


CASES = [
    # --- literal keys --------------------------------------------------------------------
    Case("js_single_quoted", "a.js", "t('home.title');", [k("home.title")]),
    Case("js_double_quoted", "a.js", 't("home.title");', [k("home.title")]),
    Case("template_without_holes", "a.ts", "t(`home.title`);", [k("home.title")]),
    Case("escapes_decoded", "a.js", r"t('caf\u00e9.ti\x74le');", [k("café.title")]),
    Case("member_callee", "a.js", "i18n.t('a.b');", [k("a.b")]),
    Case("this_dollar_t", "a.js", "this.$t('a.this');", [k("a.this")]),
    Case("bare_dollar_t_always_a_site", "a.js", "$t('a.bare');", [k("a.bare")]),
    Case("optional_chain_callee", "a.ts", "i18n?.t('a.optional');", [k("a.optional")]),
    Case("generic_call", "a.ts", "t<string>('a.generic');", [k("a.generic")]),
    Case("props_member_callee", "a.jsx", "props.t('props.key');", [k("props.key")]),
    Case(
        "class_method_call",
        "a.ts",
        "class A { render() { return this.props.t('cls.key'); } }",
        [k("cls.key")],
    ),
    Case("namespace_prefix_stripped", "a.js", "t('common:home.title');", [k("home.title")]),
    Case("mjs_module", "a.mjs", "export const x = t('mjs.key');", [k("mjs.key")]),
    Case("cts_module", "a.cts", "const x: string = t('cts.key');", [k("cts.key")]),
    Case("non_null_callee", "a.ts", "t!('ts.non.null');", [k("ts.non.null")]),
    Case("parenthesized_callee", "a.js", "(t)('paren.key');", [k("paren.key")]),
    Case(
        "tsx_generic_arrow",
        "a.tsx",
        "const f = <T,>(x: T) => <p>{t('tsx.generic')}</p>;",
        [k("tsx.generic")],
    ),
    Case(
        "dollar_t_with_other_configured_names",
        "a.js",
        "this.$t('always.dollar'); translate('custom');",
        [k("always.dollar"), k("custom")],
        functions=("translate",),
    ),
    Case(
        "bracket_segment_prefix",
        "a.js",
        "t(`list[${i}].label`);",
        [],
        [("template_interpolation", "list[")],
    ),
    Case("number_in_template", "a.js", "t(`step.${1}.title`);", [k("step.1.title")]),
    Case(
        "object_spread_of_constant",
        "a.js",
        "const BASE = { a: 'base.a' }; const K = { ...BASE, b: 'k.b' }; t(K.a); t(K.b);",
        [k("base.a"), k("k.b")],
    ),
    # --- options: plural and context ---------------------------------------------------------
    Case(
        "count_shorthand_is_plural",
        "a.js",
        "t('cart.items', { count });",
        [k("cart.items", plural=True)],
    ),
    Case(
        "count_pair_is_plural",
        "a.js",
        "t('cart.items', { count: n });",
        [k("cart.items", plural=True)],
    ),
    Case(
        "options_after_default_value",
        "a.js",
        "t('cart.items', 'Items', { count: 2 });",
        [k("cart.items", plural=True)],
    ),
    Case(
        "context_literal",
        "a.js",
        "t('friend', { context: 'male' });",
        [k("friend", context="male")],
    ),
    Case(
        "context_not_literal",
        "a.js",
        "t('friend', { context: gender });",
        [k("friend", context="*")],
    ),
    Case(
        "context_from_constant",
        "a.js",
        "const G = 'female'; t('friend', { context: G, count: 1 });",
        [k("friend", plural=True, context="female")],
    ),
    # --- conditionals and fallbacks ------------------------------------------------------
    Case("conditional_branches", "a.js", "t(ok ? 'a.ok' : 'a.err');", [k("a.err"), k("a.ok")]),
    Case(
        "nested_conditional",
        "a.js",
        "t(a ? 'x.a' : b ? 'x.b' : 'x.c');",
        [k("x.a"), k("x.b"), k("x.c")],
    ),
    Case(
        "fallback_key_array",
        "a.js",
        "t(['a.specific', 'a.generic']);",
        [k("a.generic"), k("a.specific")],
    ),
    Case(
        "conditional_inside_template",
        "a.ts",
        "t(`state.${open ? 'open' : 'closed'}`);",
        [k("state.closed"), k("state.open")],
    ),
    Case(
        "nullish_default_branch",
        "a.js",
        "t(custom ?? 'fallback.key');",
        [k("fallback.key")],
        [("non_literal", None)],
    ),
    Case(
        "conditional_with_one_dynamic_branch",
        "a.ts",
        "t(ok ? 'a.ok' : `a.${x}`);",
        [k("a.ok")],
        [("template_interpolation", "a.")],
    ),
    # --- dynamic sites and their prefixes ----------------------------------------------------
    Case(
        "template_prefix",
        "a.js",
        "t(`errors.${code}`);",
        [],
        [("template_interpolation", "errors.")],
    ),
    Case("concatenation_prefix", "a.js", "t('nav.' + id);", [], [("concatenation", "nav.")]),
    Case(
        "partial_segment_is_a_character_prefix",
        "a.js",
        "t(`a.b${x}`);",
        [],
        [("template_interpolation", "a.b")],
    ),
    Case("deep_prefix", "a.js", "t(`a.b.c.${x}.d`);", [], [("template_interpolation", "a.b.c.")]),
    Case(
        "hole_first_has_a_suffix",
        "a.js",
        "t(`${x}.title`);",
        [],
        [("template_interpolation", None, ".title")],
    ),
    Case(
        "concatenation_without_dot",
        "a.js",
        "t('errors' + code);",
        [],
        [("concatenation", "errors")],
    ),
    Case("identifier_argument", "a.js", "t(key);", [], [("non_literal", None)]),
    Case("call_argument", "a.js", "t(getKey());", [], [("non_literal", None)]),
    Case("empty_call", "a.js", "t();", [], [("empty_call", None)]),
    Case(
        "namespace_before_hole_stripped",
        "a.js",
        "t(`common:errors.${code}`);",
        [],
        [("template_interpolation", "errors.")],
    ),
    # --- constants in scope ----------------------------------------------------------------
    Case("const_concatenation", "a.js", "const NS = 'home'; t(NS + '.title');", [k("home.title")]),
    Case("const_template", "a.js", "const NS = 'home'; t(`${NS}.title`);", [k("home.title")]),
    Case(
        "as_const_object",
        "a.ts",
        "const KEYS = { home: 'home.title' } as const; t(KEYS.home);",
        [k("home.title")],
    ),
    Case(
        "subscript_access",
        "a.ts",
        "const KEYS = { home: 'home.title' } as const; t(KEYS['home']);",
        [k("home.title")],
    ),
    Case(
        "nested_object",
        "a.js",
        "const K = { a: { b: 'x.y' } }; t(K.a.b); t(`${K.a.b}.z`);",
        [k("x.y"), k("x.y.z")],
    ),
    Case(
        "typescript_enum",
        "a.ts",
        "enum Keys { Title = 'page.title' }\nt(Keys.Title);",
        [k("page.title")],
    ),
    Case(
        "object_freeze",
        "a.js",
        "const K = Object.freeze({ a: 'frozen.a' }); t(K.a);",
        [k("frozen.a")],
    ),
    Case(
        "destructured_constant",
        "a.js",
        "const K = { a: 'destructured.a' }; const { a } = K; t(a);",
        [k("destructured.a")],
    ),
    Case(
        "function_local_constant",
        "a.js",
        "function g() { const key = 'local.key'; return t(key); }",
        [k("local.key")],
    ),
    Case(
        "constant_of_other_function_does_not_leak",
        "a.js",
        "function f() { const key = 'leak.key'; }\nfunction g() { return t(key); }",
        [],
        [("non_literal", None)],
    ),
    Case(
        "parameter_shadows_constant",
        "a.js",
        "const key = 'outer.key';\nfunction g(key) { return t(key); }",
        [],
        [("non_literal", None)],
    ),
    Case(
        "inner_block_constant_wins",
        "a.js",
        "const key = 'outer.key';\nfunction g() { const key = 'inner.key'; return t(key); }",
        [k("inner.key")],
    ),
    Case(
        "top_level_let_is_not_followed",  # a script's top-level variable is global
        "a.js",
        "let key = 'mutable.key'; t(key);",
        [],
        [("non_literal", None)],
    ),
    # --- local variables: every value a `let`/`var` is given in its function -------------------
    Case(
        "let_reassigned_in_a_branch_is_each_value",  # uptime-kuma's Details.vue
        "a.vue",
        "<script>\nexport default { methods: {\n"
        "  pingTitle(average = false) {\n"
        "    let translationPrefix = '';\n"
        "    if (average) { translationPrefix = 'Avg. '; }\n"
        "    if (this.http) { return this.$t(translationPrefix + 'Response'); }\n"
        "    return this.$t(translationPrefix + 'Ping');\n"
        "  },\n} };\n</script>",
        [k("Avg. Ping"), k("Avg. Response"), k("Ping"), k("Response")],
    ),
    Case(
        "let_without_initializer_then_assigned",
        "a.js",
        "function f() { let key; key = 'later.key'; return t(key); }",
        [k("later.key")],
    ),
    Case(
        "var_assigned_in_switch_arms",
        "a.ts",
        "function f(s) { var k = 'st.none';\n"
        "  switch (s) { case 1: k = 'st.one'; break; default: k = s > 2 ? 'st.many' : 'st.two'; }\n"
        "  return t(k); }",
        [k("st.many"), k("st.none"), k("st.one"), k("st.two")],
    ),
    Case(
        "let_read_in_a_closure_keeps_its_values",
        "a.js",
        "function f(ids) { let head = 'row.'; return ids.map((id) => t(head + id)); }",
        [],
        [("concatenation", "row.")],
    ),
    Case(
        "let_with_an_unknown_assignment_keeps_the_known_ones",
        "a.js",
        "function f() { let key = 'known.key'; if (c) key = lookup(); return t(key); }",
        [k("known.key")],
        [("non_literal", None)],
    ),
    Case(
        "let_built_up_with_plus_equals_is_unknown",
        "a.js",
        "function f() { let key = 'a.'; key += part; return t(key); }",
        [],
        [("non_literal", None)],
    ),
    Case(
        "let_built_in_a_loop_is_unknown",
        "a.js",
        "function f(parts) { let key = 'a'; for (const p of parts) { key += '.' + p; }\n"
        "  return t(key); }",
        [],
        [("non_literal", None)],
    ),
    Case(
        "let_that_reads_itself_keeps_only_its_tail",  # 'a', 'a.b', 'a.b.b', …
        "a.js",
        "function f() { let key = 'a'; while (more()) { key = key + '.b'; } return t(key); }",
        [k("a")],
        [("concatenation", None, ".b")],
    ),
    Case(
        "let_assigned_by_a_closure_is_unknown",
        "a.js",
        "function f() { let key = 'a.b'; on('x', () => { key = 'a.c'; }); return t(key); }",
        [],
        [("non_literal", None)],
    ),
    Case(
        "a_closures_own_variable_of_the_same_name_is_another",
        "a.js",
        "function f() { let key = 'a.b';\n"
        "  on('x', () => { let key; key = 'z.z'; }); return t(key); }",
        [k("a.b")],
    ),
    Case(
        "let_incremented_is_unknown",
        "a.js",
        "function f() { let key = 'a'; key++; return t(key); }",
        [],
        [("non_literal", None)],
    ),
    Case(
        "let_destructured_into_is_unknown",
        "a.js",
        "function f() { let key = 'a.b'; [key] = pair; return t(key); }",
        [],
        [("non_literal", None)],
    ),
    Case(
        "let_as_a_loop_variable_is_unknown",
        "a.js",
        "function f() { let key = 'a.b'; for (key of keys) { g(); } return t(key); }",
        [],
        [("non_literal", None)],
    ),
    Case(
        "var_that_is_also_a_parameter_is_unknown",
        "a.js",
        "function f(key) { var key; if (c) key = 'a.b'; return t(key); }",
        [],
        [("non_literal", None)],
    ),
    Case(
        "let_in_a_function_that_calls_eval_is_unknown",
        "a.js",
        "function f(code) { let key = 'a.b'; eval(code); return t(key); }",
        [],
        [("non_literal", None)],
    ),
    Case(
        "template_constant_with_hole",
        "a.js",
        "const key = `errors.${code}`; t(key);",
        [],
        [("template_interpolation", "errors.")],
    ),
    # --- not sites -----------------------------------------------------------------------------
    Case("call_inside_string_is_not_a_site", "a.js", "const s = \"t('not.a.key')\";"),
    Case("call_inside_template_text_is_not_a_site", "a.js", "const s = `t('not.a.key')`;"),
    Case("function_declaration_is_not_a_site", "a.js", "function t(key) { return key; }"),
    Case("other_function_ignored", "a.js", "translate('other.key'); at('x'); t2('y');"),
    Case("jsx_text_is_not_a_site", "a.jsx", "const el = <p>Call t('not.key') here</p>;"),
    # --- comments ----------------------------------------------------------------------------
    Case("line_comment_is_commented_site", "a.js", "// t('old.key')\n", [], [("commented", None)]),
    Case(
        "block_comment_is_commented_site",
        "a.ts",
        "/* i18n.t('old.key') */",
        [],
        [("commented", None)],
    ),
    Case(
        "jsx_comment_is_commented_site",
        "a.tsx",
        "const el = <div>{/* t('old.key') */}</div>;",
        [],
        [("commented", None)],
    ),
    # --- configured names --------------------------------------------------------------------
    Case(
        "dotted_configured_name",
        "a.js",
        "i18n.t('dotted.yes'); app.i18n.t('dotted.suffix'); t('dotted.no');",
        [k("dotted.suffix"), k("dotted.yes")],
        functions=("i18n.t",),
    ),
    Case(
        "custom_configured_name",
        "a.js",
        "translate('custom.yes'); t('custom.no');",
        [k("custom.yes")],
        functions=("translate",),
    ),
    Case(
        "dollar_underscore_svelte_i18n",
        "a.js",
        "$_('svelte.i18n');",
        [k("svelte.i18n")],
        functions=("$_",),
    ),
    # --- translator bindings -------------------------------------------------------------------
    Case(
        "use_translation_namespace_not_a_prefix",
        "a.tsx",
        "const { t } = useTranslation('ns'); t('plain.key');",
        [k("plain.key")],
    ),
    Case(
        "use_translation_key_prefix",
        "a.tsx",
        "function C() { const { t } = useTranslation('ns', { keyPrefix: 'home' }); t('title'); }",
        [k("home.title")],
    ),
    Case(
        "key_prefix_applies_only_to_its_component",
        "a.tsx",
        "function A() { const { t } = useTranslation('ns', { keyPrefix: 'home' }); t('a'); }\n"
        "function B() { const { t } = useTranslation(); t('b'); }\n"
        "function C() { t('c'); }",
        [k("b"), k("c"), k("home.a")],
    ),
    Case(
        "key_prefix_on_dynamic_key",
        "a.tsx",
        "const { t } = useTranslation('ns', { keyPrefix: 'home' }); t(`x.${y}`); t(key);",
        [],
        [("non_literal", "home."), ("template_interpolation", "home.x.")],
    ),
    Case(
        "renamed_hook_result",
        "a.tsx",
        "const { t: tx } = useTranslation(); tx('renamed.key');",
        [k("renamed.key")],
    ),
    Case(
        "array_hook_result",
        "a.tsx",
        "const [tr] = useTranslation('ns', { keyPrefix: 'arr' }); tr('key');",
        [k("arr.key")],
    ),
    Case("use_i18n", "a.ts", "const { t: tt } = useI18n(); tt('vue.key');", [k("vue.key")]),
    Case(
        "next_intl_use_translations",
        "a.tsx",
        "const tr = useTranslations('home'); tr('title');",
        [k("home.title")],
    ),
    Case(
        "next_intl_get_translations",
        "a.ts",
        "async function P() { const tr = await getTranslations('page'); return tr('heading'); }",
        [k("page.heading")],
    ),
    Case(
        "get_fixed_t_key_prefix",
        "a.js",
        "const tf = i18next.getFixedT(null, null, 'fixed'); tf('key');",
        [k("fixed.key")],
    ),
    Case(
        "import_alias",
        "a.js",
        "import { t as tr } from 'i18next';\ntr('imported.key');",
        [k("imported.key")],
    ),
    Case("reassignment_alias", "a.js", "const tt = t; tt('alias.key');", [k("alias.key")]),
    Case("member_alias", "a.js", "const tt = i18n.t; tt('alias.member');", [k("alias.member")]),
    Case(
        "bind_alias", "a.js", "const tt = i18n.t.bind(i18n); tt('alias.bind');", [k("alias.bind")]
    ),
    Case(
        "alias_of_prefixed_translator",
        "a.tsx",
        "const { t } = useTranslation('ns', { keyPrefix: 'p' }); const tt = t; tt('k');",
        [k("p.k")],
    ),
    Case(
        "renamed_prop_parameter",
        "a.tsx",
        "function C({ t: translate }) { return translate('prop.key'); }",
        [k("prop.key")],
    ),
    # --- i18next <Trans> ---------------------------------------------------------------------
    Case("trans_string", "a.jsx", 'const el = <Trans i18nKey="trans.key" />;', [k("trans.key")]),
    Case(
        "trans_expression_with_count",
        "a.tsx",
        "const el = <Trans i18nKey={'trans.expr'} count={n}>x</Trans>;",
        [k("trans.expr", plural=True)],
    ),
    Case(
        "trans_dynamic",
        "a.tsx",
        "const el = <Trans i18nKey={`trans.${x}`} />;",
        [],
        [("template_interpolation", "trans.")],
    ),
    Case(
        "jsx_expression_call",
        "a.tsx",
        "const el = <p title={t('jsx.title')}>{t('jsx.body')}</p>;",
        [k("jsx.body"), k("jsx.title")],
    ),
    Case(
        "syntax_error_does_not_stop_extraction",
        "a.ts",
        "const = ;\nt('after.error');",
        [k("after.error")],
    ),
    # --- Vue single-file components ----------------------------------------------------------
    Case(
        "vue_interpolation",
        "a.vue",
        "<template><p>{{ $t('vue.hello') }}</p></template>",
        [k("vue.hello")],
    ),
    Case(
        "vue_bound_attribute",
        "a.vue",
        "<template><p :title=\"t('vue.title')\"></p></template>",
        [k("vue.title")],
    ),
    Case(
        "vue_v_bind_attribute",
        "a.vue",
        "<template><p v-bind:title=\"$t('vue.long')\"></p></template>",
        [k("vue.long")],
    ),
    Case(
        "vue_event_handler",
        "a.vue",
        "<template><b @click=\"notify($t('vue.click')); done()\">x</b></template>",
        [k("vue.click")],
    ),
    Case(
        "vue_directives",
        "a.vue",
        "<template><p v-if=\"t('vue.if')\" v-show=\"t('vue.show')\" v-html=\"$t('vue.html')\""
        " v-text=\"$t('vue.text')\"></p></template>",
        [k("vue.html"), k("vue.if"), k("vue.show"), k("vue.text")],
    ),
    Case(
        "vue_v_for_iterable",
        "a.vue",
        "<template><li v-for=\"(item, i) in t('vue.items')\">{{ item }}</li></template>",
        [k("vue.items")],
    ),
    Case(
        "vue_script_setup_typescript",
        "a.vue",
        "<template><p>{{ t('vue.tpl') }}</p></template>\n"
        '<script setup lang="ts">\nconst { t } = useI18n();\n'
        "const label: string = t('vue.script');\n</script>",
        [k("vue.script"), k("vue.tpl")],
    ),
    Case(
        "vue_options_api",
        "a.vue",
        "<script>\nexport default { methods: { f() { return this.$t('vue.options'); } } };\n"
        "</script>",
        [k("vue.options")],
    ),
    Case(
        "vue_template_reads_script_constant",
        "a.vue",
        "<template><p>{{ t(`${NS}.x`) }}</p></template>\n"
        "<script setup>\nconst NS = 'vue';\n</script>",
        [k("vue.x")],
    ),
    Case(
        "vue_nested_template_blocks",
        "a.vue",
        "<template><div><template v-if=\"ok\"><p>{{ $t('vue.nested') }}</p></template>"
        "<p>{{ $t('vue.after') }}</p></div></template>",
        [k("vue.after"), k("vue.nested")],
    ),
    Case(
        "vue_tsx_script",
        "a.vue",
        "<script lang=\"tsx\">\nconst el = <p>{t<string>('vue.tsx')}</p>;\n</script>",
        [k("vue.tsx")],
    ),
    Case("vue_text_is_not_a_site", "a.vue", "<template><p>t('vue.not')</p></template>"),
    Case(
        "vue_html_comment_is_commented_site",
        "a.vue",
        "<template><!-- {{ $t('vue.old') }} --><p></p></template>",
        [],
        [("commented", None)],
    ),
    Case(
        "vue_v_t_directive", "a.vue", "<template><p v-t=\"'vue.vt'\"></p></template>", [k("vue.vt")]
    ),
    Case(
        "vue_i18n_t_keypath",
        "a.vue",
        '<template><i18n-t keypath="vue.keypath" tag="p"></i18n-t></template>',
        [k("vue.keypath")],
    ),
    Case(
        "vue_dynamic_interpolation",
        "a.vue",
        "<template><p>{{ $t('status.' + s) }}</p></template>",
        [],
        [("concatenation", "status.")],
    ),
    Case(
        "vue_style_and_custom_blocks_ignored",
        "a.vue",
        "<template><p></p></template>\n<style>.t { content: \"t('x')\" }</style>\n"
        '<i18n lang="json">{"en": {"t(\'y\')": 1}}</i18n>',
    ),
    # --- Svelte components ---------------------------------------------------------------------
    Case("svelte_markup_expression", "a.svelte", "<h1>{$t('sv.title')}</h1>", [k("sv.title")]),
    Case("svelte_attribute_expression", "a.svelte", "<img alt={$t('sv.alt')} />", [k("sv.alt")]),
    Case(
        "svelte_quoted_attribute_expression",
        "a.svelte",
        "<b title=\"x {t('sv.quoted')} y\">z</b>",
        [k("sv.quoted")],
    ),
    Case(
        "svelte_blocks",
        "a.svelte",
        "{#if t('sv.if')}<p>{@html $t('sv.html')}</p>{:else if t('sv.elseif')}x{/if}\n"
        "{#each t('sv.each') as item (item.id)}{item}{/each}",
        [k("sv.each"), k("sv.elseif"), k("sv.html"), k("sv.if")],
    ),
    Case(
        "svelte_script_typescript",
        "a.svelte",
        "<script lang=\"ts\">\nconst label: string = $t('sv.script');\n</script>\n<p>{label}</p>",
        [k("sv.script")],
    ),
    Case(
        "svelte_markup_reads_script_constant",
        "a.svelte",
        "<script>\nconst key = 'sv.const';\n</script>\n<p>{$t(key)}</p>",
        [k("sv.const")],
    ),
    Case("svelte_text_is_not_a_site", "a.svelte", "<p>t('sv.not')</p>"),
    Case(
        "svelte_html_comment_is_commented_site",
        "a.svelte",
        "<!-- {$t('sv.old')} -->\n<p></p>",
        [],
        [("commented", None)],
    ),
    Case(
        "svelte_style_ignored",
        "a.svelte",
        "<style>\n.t { content: \"{t('sv.style')}\"; }\n</style>\n<p>x</p>",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_snippet_yields_exact_keys_and_dynamic_sites(project: ScanProject, case: Case) -> None:
    project.write(f"src/{case.file}", case.source)

    result = project.scan(functions=case.functions)

    found_keys = sorted(Key(o.key, o.plural, o.context) for o in result.observations)
    found_dynamic = sorted(
        ((d.kind, d.prefix, d.suffix) for d in result.dynamic), key=_dynamic_order
    )
    expected = [(kind, prefix, suffix) for kind, prefix, suffix in map(_with_suffix, case.dynamic)]
    assert found_keys == sorted(case.keys)
    assert found_dynamic == sorted(expected, key=_dynamic_order)


def _with_suffix(
    site: tuple[str, str | None] | tuple[str, str | None, str],
) -> tuple[str, str | None, str]:
    return (site[0], site[1], "") if len(site) == 2 else site


def _dynamic_order(site: tuple[str, str | None, str]) -> tuple[str, str, str]:
    return site[0], site[1] or "", site[2]


def test_table_covers_every_source_type() -> None:
    suffixes = {case.file.rsplit(".", 1)[1] for case in CASES}
    assert {"js", "jsx", "ts", "tsx", "vue", "svelte"} <= suffixes
    assert len(CASES) >= 60
