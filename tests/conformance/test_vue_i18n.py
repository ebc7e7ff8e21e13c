"""vue-i18n (and petite-vue-i18n, @nuxtjs/i18n where they differ): every call shape of their
documentation, each case saying which keys the code reads and which it does not
(`tests/conformance/harness.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.harness import Case, check, params
from tests.conftest import write_tree

VUE_I18N = ("vue", "vue-i18n")
SETUP = "<script setup>\nimport { useI18n } from 'vue-i18n';\nconst { t } = useI18n();\n</script>\n"
DOCS = "vue-i18n.intlify.dev/"


def sfc(template: str, script: str = "", blocks: str = "") -> str:
    """A single-file component: `script` (a whole `<script>` element), then the template."""
    return f"{script}<template>\n{template}\n</template>\n{blocks}"


CASES = [
    # -- templates ------------------------------------------------------------------------------
    Case(
        "template_dollar_t",
        {"src/App.vue": sfc("  <h1>{{ $t('message.hello') }}</h1>")},
        used={"message.hello"},
        unused={"message.other"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/essentials/started#html",
    ),
    Case(
        "template_bound_attribute",
        {
            "src/App.vue": sfc(
                "  <input :placeholder=\"$t('form.name')\" v-bind:title=\"$t('form.tip')\">"
            )
        },
        used={"form.name", "form.tip"},
        unused={"form.other"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/essentials/syntax",
    ),
    Case(
        "template_v_html",
        {"src/App.vue": sfc("  <p v-html=\"$t('legal.notice')\"></p>")},
        used={"legal.notice"},
        unused={"legal.other"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/essentials/syntax#html-message",
    ),
    Case(
        "template_named_and_list_interpolation",
        {
            "src/App.vue": sfc(
                "  <p>{{ $t('named', { msg: 'hi' }) }}</p>\n  <p>{{ $t('list', ['hi']) }}</p>"
            )
        },
        used={"named", "list"},
        unused={"literal"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/essentials/syntax#named-interpolation",
    ),
    Case(
        "template_locale_argument",
        {
            "src/App.vue": sfc(
                "  <p>{{ $t('greeting', 'ja') }} {{ $t('farewell', {}, { locale: 'ja' }) }}</p>"
            )
        },
        used={"greeting", "farewell"},
        unused={"other"},
        dependencies=VUE_I18N,
        doc=DOCS + "api/general/interfaces/Composer#t",
    ),
    Case(
        "template_default_message",
        {"src/App.vue": sfc("  <p>{{ $t('banner.title', 'Welcome!') }}</p>")},
        used={"banner.title"},
        unused={"banner.other"},
        dependencies=VUE_I18N,
        doc=DOCS + "api/general/interfaces/Composer#t",
    ),
    Case(
        "template_v_for_tm_rt",
        {
            "src/App.vue": sfc(
                '  <ul><li v-for="item in $tm(\'features\')" :key="item">{{ $rt(item) }}</li></ul>'
            )
        },
        used={"features.fast", "features.small"},
        unused={"pricing.free"},
        missing={"features"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/composition#implicit-with-injected-properties-and-functions",
    ),
    Case(
        "template_te_guard",
        {"src/App.vue": sfc("  <p v-if=\"$te('promo.banner')\">{{ $t('promo.banner') }}</p>")},
        used={"promo.banner"},
        unused={"promo.other"},
        dependencies=VUE_I18N,
        doc=DOCS + "api/general/interfaces/Composer#te",
    ),
    Case(
        "template_tc_plural_v8",
        {"src/App.vue": sfc("  <p>{{ $tc('apple', count) }} {{ $tc('car', 1, { n: 1 }) }}</p>")},
        used={"apple", "car"},
        unused={"banana"},
        dependencies=VUE_I18N,
        doc="kazupon.github.io/vue-i18n/guide/pluralization.html",
    ),
    Case(
        "template_t_plural",
        {"src/App.vue": sfc("  <p>{{ $t('apple', 2) }} {{ $t('banana', { n: 1 }, 1) }}</p>")},
        used={"apple", "banana"},
        unused={"car"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/essentials/pluralization",
    ),
    Case(
        "template_dollar_i18n_t_legacy",
        {"src/App.vue": sfc("  <p>{{ $i18n.t('legacy.title') }}</p>")},
        used={"legacy.title"},
        unused={"legacy.other"},
        dependencies=VUE_I18N,
        doc="kazupon.github.io/vue-i18n/api/#methods",
    ),
    Case(
        "datetime_number_formats_are_not_keys",
        {
            "src/App.vue": sfc(
                "  <p>{{ $t('money') }}: {{ $n(price, 'currency') }} {{ $d(now, 'long') }}</p>\n"
                '  <i18n-d tag="span" :value="now" format="short"></i18n-d>\n'
                '  <i18n-n tag="span" :value="price" format="decimal"></i18n-n>'
            )
        },
        used={"money"},
        unused={"total"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/essentials/datetime",
    ),
    # -- components -----------------------------------------------------------------------------
    Case(
        "i18n_t_keypath",
        {
            "src/App.vue": sfc(
                '  <i18n-t keypath="term" tag="label" for="tos">\n'
                '    <a :href="url" target="_blank">{{ $t(\'tos\') }}</a>\n  </i18n-t>'
            )
        },
        used={"term", "tos"},
        unused={"other"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/component#basic-usage",
    ),
    Case(
        "i18n_t_slots_plural_scope",
        {
            "src/App.vue": sfc(
                '  <i18n-t keypath="message.plural" :plural="count" scope="global" tag="p">\n'
                "    <template #n><b>{{ count }}</b></template>\n"
                "    <template v-slot:action><a>{{ $t('change') }}</a></template>\n  </i18n-t>"
            )
        },
        used={"message.plural", "change"},
        unused={"message.other"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/component#pluralization-usage",
    ),
    Case(
        "i18n_t_bound_keypath",
        {"src/App.vue": sfc('  <i18n-t :keypath="\'info.\' + kind" tag="p"></i18n-t>')},
        used=set(),
        unused={"other.text"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/component#basic-usage",
        files={},
    ),
    Case(
        "i18n_t_path",
        {"src/App.vue": sfc('  <i18n-t path="term" tag="p"></i18n-t>')},
        used={"term"},
        unused={"other"},
        dependencies=VUE_I18N,
        doc="kazupon.github.io/vue-i18n/guide/interpolation.html (`path`, later `keypath`)",
    ),
    Case(
        "i18n_component_path_v8",
        {
            "src/App.vue": sfc(
                '  <i18n path="term" tag="label" for="tos">\n'
                "    <a :href=\"url\">{{ $t('tos') }}</a>\n  </i18n>"
            )
        },
        used={"term", "tos"},
        unused={"other"},
        dependencies=VUE_I18N,
        doc="kazupon.github.io/vue-i18n/guide/interpolation.html#basic-usage",
    ),
    Case(
        "i18n_component_places_v8",
        {
            "src/App.vue": sfc(
                '  <i18n path="info" tag="p" :places="{ limit: refundLimit }">\n'
                "    <span place=\"action\">{{ $t('refund') }}</span>\n  </i18n>"
            )
        },
        used={"info", "refund"},
        unused={"other"},
        dependencies=VUE_I18N,
        doc="kazupon.github.io/vue-i18n/guide/interpolation.html#places-syntax-usage",
    ),
    Case(
        "I18nT_pascal_case",
        {
            "src/App.vue": "<script setup>\nimport { I18nT } from 'vue-i18n';\n</script>\n"
            + sfc('  <I18nT keypath="terms.accept" tag="p"><b>{{ $t(\'terms.link\') }}</b></I18nT>')
        },
        used={"terms.accept", "terms.link"},
        unused={"terms.other"},
        dependencies=VUE_I18N,
        doc=DOCS + "api/general/variables/Translation",
    ),
    Case(
        "Translation_component_in_template",
        {
            "src/App.vue": "<script setup>\nimport { Translation } from 'vue-i18n';\n</script>\n"
            + sfc('  <Translation keypath="terms.accept" tag="p" />')
        },
        used={"terms.accept"},
        unused={"terms.other"},
        dependencies=VUE_I18N,
        doc=DOCS + "api/general/variables/Translation",
    ),
    Case(
        "h_Translation_render_function",
        {
            "src/Terms.ts": "import { h, defineComponent } from 'vue';\n"
            "import { Translation } from 'vue-i18n';\n"
            "export default defineComponent({\n  render() {\n"
            "    return h(Translation, { keypath: 'terms.accept', tag: 'p' }, {\n"
            "      link: () => h('a', this.$t('terms.link')),\n    });\n  },\n});\n"
        },
        used={"terms.accept", "terms.link"},
        unused={"terms.other"},
        dependencies=VUE_I18N,
        doc=DOCS + "api/general/variables/Translation",
    ),
    Case(
        "jsx_Translation",
        {
            "src/Terms.tsx": "import { defineComponent } from 'vue';\n"
            "import { Translation } from 'vue-i18n';\n"
            "export default defineComponent(() => () => (\n"
            '  <Translation keypath="terms.accept" tag="p" />\n));\n'
        },
        used={"terms.accept"},
        unused={"terms.other"},
        dependencies=VUE_I18N,
        doc=DOCS + "api/general/variables/Translation",
    ),
    # -- directive ------------------------------------------------------------------------------
    Case(
        "v_t_string",
        {"src/App.vue": sfc("  <p v-t=\"'hello'\"></p>")},
        used={"hello"},
        unused={"other"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/directive#string-syntax",
    ),
    Case(
        "v_t_object",
        {
            "src/App.vue": sfc(
                "  <p v-t=\"{ path: 'hello', locale: 'ja', args: { name: 'kazupon' } }\"></p>\n"
                "  <p v-t=\"{ path: 'cart.items', plural: 2 }\"></p>"
            )
        },
        used={"hello", "cart.items"},
        unused={"other"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/directive#object-syntax",
    ),
    Case(
        "v_t_preserve",
        {"src/App.vue": sfc('  <p v-if="toggle" v-t.preserve="\'preserve\'"></p>')},
        used={"preserve"},
        unused={"other"},
        dependencies=VUE_I18N,
        doc="kazupon.github.io/vue-i18n/guide/directive.html#use-with-transitions",
    ),
    # -- Composition API ------------------------------------------------------------------------
    Case(
        "use_i18n_script_setup",
        {
            "src/App.vue": SETUP
            + sfc("  <h1>{{ t('message.hello') }}</h1>").replace(
                "</script>\n", "const title = t('message.title');\n</script>\n", 0
            )
        },
        used={"message.hello"},
        unused={"message.other"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/composition#basic-usage",
    ),
    Case(
        "use_i18n_in_script_setup_body",
        {
            "src/App.vue": "<script setup lang=\"ts\">\nimport { computed } from 'vue';\n"
            "import { useI18n } from 'vue-i18n';\nconst { t, te, tm, rt, d, n } = useI18n();\n"
            "const title = computed(() => t('page.title'));\n"
            "const has = te('page.banner');\n"
            "const rows = tm('page.rows').map((row) => rt(row));\n"
            "const when = d(new Date(), 'long') + n(3, 'currency');\n</script>\n"
            + sfc("  <h1>{{ title }}</h1>")
        },
        used={"page.title", "page.banner", "page.rows.a", "page.rows.b"},
        unused={"page.other"},
        missing={"page.title", "page.banner", "page.rows"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/composition#message-translation",
    ),
    Case(
        "use_i18n_renamed",
        {
            "src/App.vue": "<script setup>\nimport { useI18n } from 'vue-i18n';\n"
            "const { t: translate, locale } = useI18n();\n</script>\n"
            + sfc("  <p>{{ translate('menu.home') }} {{ locale }}</p>")
        },
        used={"menu.home"},
        unused={"menu.other"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/composition#basic-usage",
    ),
    Case(
        "use_i18n_global_scope",
        {
            "src/App.vue": "<script setup>\nimport { useI18n } from 'vue-i18n';\n"
            "const { t, locale } = useI18n({ useScope: 'global' });\n"
            "locale.value = 'en';\n</script>\n" + sfc("  <p>{{ t('menu.home') }}</p>")
        },
        used={"menu.home"},
        unused={"menu.other"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/composition#explicit-with-usei18n",
    ),
    Case(
        "use_i18n_setup_function",
        {
            "src/App.vue": "<script>\nimport { defineComponent } from 'vue';\n"
            "import { useI18n } from 'vue-i18n';\nexport default defineComponent({\n"
            "  setup() {\n    const { t } = useI18n();\n    return { t, label: t('menu.label') };\n"
            "  },\n});\n</script>\n" + sfc("  <p>{{ t('menu.home') }}</p>")
        },
        used={"menu.home", "menu.label"},
        unused={"menu.other"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/composition#basic-usage",
    ),
    Case(
        "use_i18n_whole_composer",
        {
            "src/App.vue": "<script setup>\nimport { useI18n } from 'vue-i18n';\n"
            "const i18n = useI18n();\nconst x = i18n.t('menu.label');\n</script>\n"
            + sfc("  <p>{{ i18n.t('menu.home') }}</p>")
        },
        used={"menu.home", "menu.label"},
        unused={"menu.other"},
        dependencies=VUE_I18N,
        doc=DOCS + "api/general/functions/useI18n",
    ),
    Case(
        "composable_in_ts_file",
        {
            "src/composables/useTitle.ts": "import { useI18n } from 'vue-i18n';\n"
            "export function useTitle(): string {\n  const { t } = useI18n();\n"
            "  return t('page.title', { site: 'x' });\n}\n"
        },
        used={"page.title"},
        unused={"page.other"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/composition",
    ),
    Case(
        "global_composer",
        {
            "src/i18n.ts": "import { createI18n } from 'vue-i18n';\n"
            "export const i18n = createI18n({ legacy: false, locale: 'en', messages: {} });\n",
            "src/notify.ts": "import { i18n } from './i18n';\n"
            "export const notify = () => [\n  i18n.global.t('toast.saved'),\n"
            "  i18n.global.tc('toast.items', 3),\n  i18n.global.te('toast.extra'),\n"
            "  i18n.global.tm('toast.list'),\n  i18n.global.d(new Date(), 'short'),\n"
            "  (i18n.global.locale.value = 'en'),\n];\n",
        },
        used={"toast.saved", "toast.items", "toast.extra", "toast.list.a"},
        unused={"toast.other"},
        missing={"toast.saved", "toast.items", "toast.extra", "toast.list"},
        dependencies=VUE_I18N,
        doc=DOCS + "api/general/interfaces/I18n#global",
    ),
    Case(
        "global_composer_rt",
        {
            "src/notify.ts": "import { i18n } from './i18n';\n"
            "export const lines = () => i18n.global.tm('help.lines').map("
            "(line) => i18n.global.rt(line));\n",
            "src/i18n.ts": "import { createI18n } from 'vue-i18n';\n"
            "export const i18n = createI18n({ legacy: false });\n",
        },
        used={"help.lines.a"},
        unused={"help.other"},
        missing={"help.lines"},
        dependencies=VUE_I18N,
        doc=DOCS + "api/general/interfaces/Composer#rt",
    ),
    Case(
        "rt_of_a_literal_message_is_not_a_key",
        {
            "src/App.vue": "<script setup>\nimport { useI18n } from 'vue-i18n';\n"
            "const { t, rt } = useI18n();\nconst a = rt('Hello {name}', { name: 'x' });\n"
            "const b = t('greeting');\n</script>\n" + sfc("  <p>{{ b }}</p>")
        },
        used={"greeting"},
        unused={"farewell"},
        dependencies=VUE_I18N,
        doc=DOCS + "api/general/interfaces/Composer#rt",
    ),
    # -- Options (Legacy) API -------------------------------------------------------------------
    Case(
        "options_api_this",
        {
            "src/App.vue": "<script>\nexport default {\n  computed: {\n"
            "    title() { return this.$t('page.title'); },\n"
            "    count() { return this.$tc('page.items', 2); },\n"
            "    has() { return this.$te('page.banner'); },\n"
            "    legacy() { return this.$i18n.t('page.legacy'); },\n"
            "  },\n  methods: { setLocale() { this.$i18n.locale = 'en'; } },\n};\n</script>\n"
            + sfc("  <h1>{{ title }}</h1>")
        },
        used={"page.title", "page.items", "page.banner", "page.legacy"},
        unused={"page.other"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/essentials/started#javascript",
    ),
    Case(
        "options_api_template_option_string",
        {
            "src/components.js": "import { defineComponent } from 'vue';\n"
            "export const Hello = defineComponent({\n"
            "  template: '<p>{{ $t(\"message.hello\") }}</p>',\n});\n"
            "export const Card = {\n  template: `\n    <div>\n"
            "      <h2 v-t=\"'card.title'\"></h2>\n"
            '      <i18n-t keypath="card.body" tag="p"><b>{{ $t(\'card.link\') }}</b></i18n-t>\n'
            "    </div>\n  `,\n};\n"
        },
        used={"message.hello", "card.title", "card.body", "card.link"},
        unused={"card.other"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/essentials/local#i18n-component-options",
    ),
    Case(
        "options_api_i18n_option_local_messages",
        {
            "src/Component1.js": "export const Component1 = {\n"
            "  template: `<p>{{ $t('message.hello') }} {{ $t('message.greeting') }}</p>`,\n"
            "  i18n: {\n    messages: {\n      en: { message: { hello: 'hello component1' } },\n"
            "      ja: { message: { hello: 'こんにちは、component1' } },\n    },\n  },\n};\n"
        },
        used={"message.hello", "message.greeting"},
        unused={"message.other"},
        missing={"message.greeting"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/essentials/local#i18n-component-options",
    ),
    # -- local messages -------------------------------------------------------------------------
    Case(
        "use_i18n_local_messages",
        {
            "src/App.vue": "<script setup>\nimport { useI18n } from 'vue-i18n';\n"
            "const { t } = useI18n({\n  locale: 'en',\n  messages: {\n"
            "    en: { msg: 'hello', named: '{msg} world!' },\n    ja: { msg: 'こんにちは' },\n"
            "  },\n});\n</script>\n"
            + sfc("  <p>{{ t('msg') }} {{ t('named', { msg: 'x' }) }} {{ t('global.only') }}</p>")
        },
        used={"msg", "named", "global.only"},
        unused={"other"},
        missing={"global.only"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/composition#local-scope",
    ),
    Case(
        "sfc_block_json",
        {
            "src/App.vue": sfc(
                "  <p>{{ $t('hello') }} {{ $t('nav.home') }}</p>",
                blocks='<i18n>\n{\n  "en": { "hello": "hello world!" },\n'
                '  "ja": { "hello": "こんにちは" }\n}\n</i18n>\n',
            )
        },
        used={"hello", "nav.home"},
        unused={"nav.other"},
        missing={"nav.home"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/sfc#basic-usage",
    ),
    Case(
        "sfc_block_locale_attribute",
        {
            "src/App.vue": SETUP
            + sfc(
                "  <p>{{ t('hello') }} {{ t('bye') }}</p>",
                blocks='<i18n locale="en">\n{ "hello": "hello world!" }\n</i18n>\n'
                '<i18n locale="ja">\n{ "hello": "こんにちは", "bye": "さよなら" }\n</i18n>\n',
            )
        },
        used={"hello", "bye"},
        unused={"other"},
        missing={"bye"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/sfc#define-locale-messages-each-locales",
    ),
    Case(
        "sfc_block_yaml",
        {
            "src/App.vue": sfc(
                "  <p>{{ $t('hello') }} {{ $t('form.name') }} {{ $t('form.mail') }}</p>",
                blocks='<i18n lang="yaml">\nen:\n  hello: "hello world!"\n  form:\n'
                "    name: Name\n    notes: |\n      Notes\n      over lines\n"
                "ja:\n  hello: こんにちは\n</i18n>\n",
            )
        },
        used={"hello", "form.name", "form.mail"},
        unused={"other"},
        missing={"form.mail"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/sfc#yaml",
    ),
    Case(
        "sfc_block_yml_locale",
        {
            "src/App.vue": sfc(
                "  <p>{{ $t('hello') }} {{ $t('bye') }}</p>",
                blocks='<i18n locale="en" lang="yml">\nhello: "hello world!"\n'
                "'quoted key': x\n</i18n>\n",
            )
        },
        used={"hello", "bye"},
        unused={"other"},
        missing={"bye"},
        dependencies=VUE_I18N,
        doc="npmjs.com/package/@intlify/vue-i18n-loader#locale-definition",
    ),
    Case(
        "sfc_block_json5",
        {
            "src/App.vue": sfc(
                "  <p>{{ $t('hello') }} {{ $t('bye') }}</p>",
                blocks='<i18n lang="json5">\n{\n  // for english\n  en: {\n'
                "    hello: 'hello world!',\n  },\n}\n</i18n>\n",
            )
        },
        used={"hello", "bye"},
        unused={"other"},
        missing={"bye"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/sfc#json5",
    ),
    Case(
        "sfc_block_of_another_locale_answers_nothing_in_the_source",
        {
            "src/App.vue": sfc(
                "  <p>{{ $t('hello') }}</p>",
                blocks='<i18n locale="ja">\n{ "hello": "こんにちは" }\n</i18n>\n',
            )
        },
        used={"hello"},
        unused={"other"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/sfc#define-locale-messages-each-locales",
    ),
    Case(
        "sfc_block_answers_only_its_component",
        {
            "src/A.vue": sfc(
                "  <p>{{ $t('hello') }}</p>",
                blocks='<i18n>\n{ "en": { "hello": "hello world!" } }\n</i18n>\n',
            ),
            "src/B.vue": sfc("  <p>{{ $t('hello') }}</p>"),
        },
        used={"hello"},
        unused={"other"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/sfc#basic-usage",
    ),
    Case(
        "sfc_block_global",
        {
            "src/Messages.vue": sfc(
                "  <span />",
                blocks='<i18n global>\n{ "en": { "shared": { "save": "Save" } } }\n</i18n>\n',
            ),
            "src/App.vue": SETUP.replace("useI18n()", "useI18n({ useScope: 'global' })")
            + sfc("  <p>{{ t('shared.save') }} {{ t('shared.cancel') }}</p>"),
        },
        used={"shared.save", "shared.cancel"},
        unused={"shared.other"},
        missing={"shared.cancel"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/sfc#define-locale-messages-for-global-scope",
    ),
    Case(
        "sfc_block_src",
        {
            "src/App.vue": sfc(
                "  <p>{{ $t('hello') }} {{ $t('bye') }}</p>",
                blocks='<i18n src="./App.i18n.json"></i18n>\n',
            ),
        },
        files={"src/App.i18n.json": '{ "en": { "hello": "hello world!" } }\n'},
        used={"hello", "bye"},
        unused={"other"},
        missing={"bye"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/sfc#define-locale-messages-importing",
        gap="a block loaded from another file (`src`) is not read: the scan reads each file "
        "on its own, so its keys are reported missing (never removed)",
    ),
    Case(
        "use_i18n_imported_messages",
        {
            "src/App.vue": "<script setup>\nimport { useI18n } from 'vue-i18n';\n"
            "import en from './en.json';\nconst { t } = useI18n({ messages: { en } });\n"
            "</script>\n" + sfc("  <p>{{ t('hello') }}</p>")
        },
        files={"src/en.json": '{ "hello": "hello world!" }\n'},
        used={"hello"},
        unused={"other"},
        missing=set(),
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/composition#locale-messages",
        gap="messages imported from another file are not read: the keys they answer are "
        "reported missing (never removed)",
    ),
    Case(
        "sfc_block_after_an_i18n_t",
        {
            "src/App.vue": sfc(
                '  <i18n-t keypath="info" tag="p"><b>{{ $t(\'hello\') }}</b></i18n-t>',
                blocks='<i18n lang="yaml">\nen:\n  info: "Say {0}"\n  hello: Hello\n</i18n>\n',
            )
        },
        used={"info", "hello"},
        unused={"other"},
        missing=set(),
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/sfc#yaml",
    ),
    Case(
        "sfc_block_with_an_array",
        {
            "src/App.vue": sfc(
                "  <p>{{ $t('tips.1') }} {{ $t('tips.2') }}</p>",
                blocks='<i18n lang="yaml">\nen:\n  tips:\n    - One\n    - Two\n</i18n>\n',
            )
        },
        used={"tips"},
        unused={"other"},
        missing={"tips.2"},
        values={"tips": ["One", "Two", "Three"]},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/sfc#yaml",
    ),
    Case(
        "use_i18n_local_scope_option",
        {
            "src/App.vue": "<script setup>\nimport { useI18n } from 'vue-i18n';\n"
            "const { t } = useI18n({ useScope: 'local', inheritLocale: true });\n</script>\n"
            + sfc(
                "  <p>{{ t('hello') }} {{ t('menu.home') }}</p>",
                blocks='<i18n>\n{ "en": { "hello": "Hello" } }\n</i18n>\n',
            )
        },
        used={"hello", "menu.home"},
        unused={"menu.other"},
        missing={"menu.home"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/composition#local-scope",
    ),
    Case(
        "use_i18n_typed_schema",
        {
            "src/composables/menu.ts": "import { useI18n } from 'vue-i18n';\n"
            "import type en from '../locales/en.json';\ntype MessageSchema = typeof en;\n"
            "export function useMenu() {\n"
            "  const { t } = useI18n<{ message: MessageSchema }, 'en-US'>({\n"
            "    useScope: 'global',\n  });\n"
            "  return [t('menu.home'), t('menu.about')];\n}\n"
        },
        used={"menu.home", "menu.about"},
        unused={"menu.other"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/typescript#typed-resource-schema",
        config={"locales": {"directory": "src/locales"}},
    ),
    Case(
        "use_i18n_called_inline",
        {
            "src/composables/title.ts": "import { useI18n } from 'vue-i18n';\n"
            "export const title = () => useI18n().t('page.title');\n"
        },
        used={"page.title"},
        unused={"page.other"},
        dependencies=VUE_I18N,
        doc=DOCS + "api/general/functions/useI18n",
    ),
    Case(
        "instance_proxy_dollar_t",
        {
            "src/App.vue": "<script setup>\nimport { getCurrentInstance } from 'vue';\n"
            "const title = getCurrentInstance().proxy.$t('page.title');\n</script>\n"
            + sfc("  <p>{{ title }}</p>")
        },
        used={"page.title"},
        unused={"page.other"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/composition#implicit-with-injected-properties-and-functions",
    ),
    Case(
        "options_api_tm_and_te_with_locale",
        {
            "src/Menu.vue": "<script>\nexport default {\n  computed: {\n"
            "    items() { return this.$tm('menu.items'); },\n"
            "    hasJa() { return this.$te('menu.title', 'ja'); },\n  },\n};\n</script>\n"
            + sfc("  <p>{{ items }}</p>")
        },
        used={"menu.items.a", "menu.title"},
        unused={"menu.other"},
        missing={"menu.items", "menu.title"},
        dependencies=VUE_I18N,
        doc=DOCS + "api/general/interfaces/Composer#tm",
    ),
    Case(
        "i18n_t_bound_literal_keypath",
        {"src/App.vue": sfc('  <i18n-t :keypath="\'info.text\'" tag="p"></i18n-t>')},
        used={"info.text"},
        unused={"info.other"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/advanced/component#basic-usage",
    ),
    # -- keys, values and messages --------------------------------------------------------------
    Case(
        "numeric_path_into_an_array",
        {"src/App.vue": sfc("  <p>{{ $t('steps.0') }} {{ $t('steps.1') }}</p>")},
        used={"steps"},
        unused={"other"},
        missing={"steps.0", "steps.1"},
        values={"steps": ["First", "Second"]},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/essentials/syntax#list-interpolation",
    ),
    Case(
        "numeric_path_into_an_array_of_objects",
        {"src/App.vue": sfc("  <p>{{ $t('faq.0.question') }}</p>")},
        used={"faq"},
        unused={"other"},
        missing={"faq.0.question"},
        values={"faq": [{"question": "Why?", "answer": "Because."}]},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/essentials/syntax",
    ),
    Case(
        "bracket_path_into_an_array",
        {"src/App.vue": sfc("  <p>{{ $t('steps[0]') }}</p>")},
        used={"steps"},
        unused={"other"},
        missing={"steps[0]"},
        values={"steps": ["First", "Second"]},
        dependencies=VUE_I18N,
        doc="kazupon.github.io/vue-i18n/guide/messages.html (path `steps[0]`)",
    ),
    Case(
        "linked_message",
        {"src/App.vue": sfc("  <p>{{ $t('linked') }}</p>")},
        used={"linked", "dio", "the_world", "common.address"},
        unused={"other"},
        missing={"linked"},
        values={"linked": "@:dio @:the_world @.lower:common.address !!!!"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/essentials/syntax#linked-messages",
    ),
    Case(
        "plural_pipe_message",
        {
            "src/App.vue": SETUP
            + sfc(
                "  <p>{{ t('car', 1) }} {{ t('apple', { count: 10 }, 10) }}"
                " {{ t('banana', n) }}</p>"
            )
        },
        used={"car", "apple", "banana"},
        unused={"pear"},
        values={"car": "car | cars", "apple": "no apples | one apple | {count} apples"},
        dependencies=VUE_I18N,
        doc=DOCS + "guide/essentials/pluralization",
    ),
    Case(
        "dynamic_key_head",
        {"src/App.vue": sfc("  <p>{{ $t(`errors.${code}`) }}</p>")},
        used={"errors.auth", "errors.network"},
        unused={"other"},
        missing=set(),
        dependencies=VUE_I18N,
        doc=DOCS + "guide/essentials/syntax",
    ),
    # -- petite-vue-i18n and @nuxtjs/i18n -------------------------------------------------------
    Case(
        "petite_vue_i18n",
        {
            "src/App.vue": SETUP.replace("'vue-i18n'", "'petite-vue-i18n'")
            + sfc("  <p>{{ t('hello') }} {{ $t('bye') }}</p>")
        },
        used={"hello", "bye"},
        unused={"other"},
        dependencies=("vue", "petite-vue-i18n"),
        doc=DOCS + "guide/advanced/lite",
    ),
    Case(
        "nuxt_auto_imported_use_i18n",
        {
            "pages/index.vue": '<script setup lang="ts">\nconst { t } = useI18n();\n'
            "const localePath = useLocalePath();\nconst title = t('home.title');\n</script>\n"
            + sfc("  <NuxtLink :to=\"localePath('/about')\">{{ $t('home.about') }}</NuxtLink>")
        },
        used={"home.title", "home.about"},
        unused={"home.other"},
        dependencies=("nuxt", "@nuxtjs/i18n"),
        config={"src": "."},
        doc="i18n.nuxtjs.org/docs/getting-started/usage",
    ),
    Case(
        "nuxt_app_i18n",
        {
            "plugins/toast.ts": "export default defineNuxtPlugin((nuxtApp) => {\n"
            "  const message = nuxtApp.$i18n.t('toast.ready');\n"
            "  const { $i18n } = useNuxtApp();\n"
            "  return { provide: { ready: $i18n.t('toast.go') } };\n"
            "});\n"
        },
        used={"toast.ready", "toast.go"},
        unused={"toast.other"},
        dependencies=("nuxt", "@nuxtjs/i18n"),
        config={"src": "."},
        doc="i18n.nuxtjs.org/docs/api/nuxt",
    ),
]


@pytest.mark.parametrize("case", params(CASES))
def test_case(case: Case, tmp_path: Path) -> None:
    check(case, tmp_path)


# A Vue 3 + vue-i18n app using many of the shapes at once: `<script setup>` with `useI18n`, the
# Options API, `<i18n-t>`, `v-t`, an SFC block of its own, a global block, a template string, a
# global composer in a `.ts` store, an array item, a linked message and a pipe plural.
APP: dict[str, str] = {
    "package.json": '{"name": "shop", "dependencies": {"vue": "^3.4.0", "vue-i18n": "^9.14.0"}}',
    "src/i18n.ts": "import { createI18n } from 'vue-i18n';\nimport en from './locales/en.json';\n"
    "export const i18n = createI18n({ legacy: false, locale: 'en', messages: { en } });\n",
    "src/stores/cart.ts": "import { i18n } from '../i18n';\n"
    "export function notify(count: number): string {\n"
    "  return i18n.global.t('cart.added', count);\n}\n",
    "src/App.vue": "<script setup lang=\"ts\">\nimport { useI18n } from 'vue-i18n';\n"
    "const { t, tm, rt } = useI18n();\nconst steps = tm('checkout.steps');\n</script>\n"
    "<template>\n  <h1>{{ t('home.title') }}</h1>\n"
    '  <ol><li v-for="step in steps" :key="step">{{ rt(step) }}</li></ol>\n'
    '  <i18n-t keypath="home.terms" tag="p">\n'
    "    <template #link><a href=\"/terms\">{{ $t('home.termsLink') }}</a></template>\n"
    "  </i18n-t>\n  <button v-t=\"'actions.save'\" />\n"
    "  <p>{{ $t('faq.0') }} {{ $t('footer.copyright') }}</p>\n</template>\n",
    "src/components/Badge.vue": "<template>\n  <span>{{ $t('badge.new') }} {{ $t('badge.hot') }}"
    "</span>\n</template>\n"
    '<i18n lang="yaml">\nen:\n  badge:\n    new: New!\n</i18n>\n',
    "src/components/Shared.vue": "<template><span /></template>\n"
    '<i18n global>\n{ "en": { "shared": { "close": "Close" } } }\n</i18n>\n',
    "src/components/Legacy.js": "export default {\n"
    "  template: `<p>{{ $t('legacy.notice') }} {{ $t('shared.close') }}</p>`,\n"
    "  computed: { label() { return this.$t('legacy.label'); } },\n};\n",
    "src/locales/en.json": (
        "{\n"
        '  "home": {"title": "Shop", "terms": "Read {link}", "termsLink": "the terms",'
        ' "banner": "Sale"},\n'
        '  "checkout": {"steps": {"cart": "Cart", "pay": "Pay"}},\n'
        '  "cart": {"added": "Nothing added | One item added | {n} items added",'
        ' "removed": "Removed"},\n'
        '  "actions": {"save": "Save", "delete": "Delete"},\n'
        '  "faq": ["Shipping is free", "Returns within 30 days"],\n'
        '  "footer": {"copyright": "@:home.title © 2026", "legal": "Legal"},\n'
        '  "badge": {"new": "New"},\n'
        '  "legacy": {"notice": "Old", "label": "Label"},\n'
        '  "orphan": {"old": "Old text"}\n'
        "}\n"
    ),
}
APP_UNUSED = {"home.banner", "cart.removed", "actions.delete", "footer.legal", "orphan.old"}


def test_app_cleanup_offers_exactly_the_unused_keys(tmp_path: Path, run_cli) -> None:
    root = write_tree(tmp_path / "shop", APP)

    result = run_cli("cleanup", "--dry-run", "--json", cwd=root)

    assert result.code == 0, result.stdout
    assert set(result.envelope["data"]["keys"]) == APP_UNUSED
    codes = {issue["code"] for issue in result.envelope["issues"]}
    assert "i18nprune.scan.parse_error" not in codes


def test_app_validate_reports_only_keys_nothing_answers(tmp_path: Path, run_cli) -> None:
    root = write_tree(tmp_path / "shop", APP)

    result = run_cli("validate", "--json", cwd=root)

    # `badge.hot` is in neither the locale nor the component's block; `badge.new` is in its
    # block, and `shared.close` in another component's global block.
    assert result.envelope["data"]["missing"] == ["badge.hot"]
