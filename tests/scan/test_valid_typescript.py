"""A file the TypeScript compiler (or Vue, or JSX) accepts is never a syntax error: each form the
grammars cannot read is repaired, or its error is confined to a type that can hold no key, and
the keys around it are read. Errors that could hide a key still count."""

from __future__ import annotations

import json

import pytest

from i18nprune.scan.callees import CalleeNames
from i18nprune.scan.expressions import Text
from i18nprune.scan.extract import extract_facts
from tests.conftest import write_tree

NAMES = CalleeNames(["t", "$t"])

# Each form TypeScript accepts, followed by a key the scan must read after it.
TYPESCRIPT_FORMS = {
    "import type with type arguments": (
        "interface Props {\n  onClick: import('react').MouseEventHandler<HTMLElement>;\n"
        "  label: string;\n}\n"
    ),
    "import type, indexed": "type H = import('react').ComponentProps<'div'>['onClick'];\n",
    "import type, typeof": "let m: typeof import('./messages');\n",
    "satisfies": "const c = { a: 1 } satisfies Record<string, number>;\n",
    "decorators": (
        "@Component({ selector: 'x' })\nclass A {\n  @Input() name!: string;\n"
        "  constructor(@Inject(T) t2: T) {}\n}\n"
    ),
    "accessor": "class A {\n  accessor x = 1;\n}\n",
    "accessor after a modifier": (
        "abstract class A {\n  static accessor y: number = 2;\n  readonly accessor z = 3;\n"
        "  abstract accessor w: number;\n}\n"
    ),
    "const type parameter": (
        "function f<const T extends readonly unknown[]>(x: T): T {\n  return x;\n}\n"
    ),
    "using": "function f() {\n  using res = open();\n}\n",
    "await using": "async function f() {\n  await using res = open();\n}\n",
    "instantiation expression": "const ErrorMap = Map<string, Error>;\n",
    "optional call with type arguments": (
        "const s = intl.formatMessage<HTMLElement>?.({ id: 'x' });\n"
    ),
    "enum with computed members": "enum E {\n  A = 1 << 0,\n  B = A | 2,\n  C = 'abc'.length,\n}\n",
    "variance annotations": "interface State<in out T> {\n  x: T;\n}\ntype Get<out T> = () => T;\n",
    "export type star": "export type * from './types';\n",
    "import attributes": "import data from './d.json' with { type: 'json' };\n",
}


def _facts(source: str, suffix: str):
    return extract_facts(source.encode(), suffix, NAMES)


@pytest.mark.parametrize("suffix", [".ts", ".tsx"])
@pytest.mark.parametrize("form", sorted(TYPESCRIPT_FORMS))
def test_valid_typescript_is_no_syntax_error(form, suffix):
    facts = _facts(TYPESCRIPT_FORMS[form] + "t('after.form');\n", suffix)

    assert facts.syntax_error is None
    assert [site.key for site in facts.sites] == [Text("after.form")]


@pytest.mark.parametrize("suffix", [".jsx", ".tsx", ".js"])
@pytest.mark.parametrize(
    "attribute",
    ["in={true}", "for='x'", "class={style}", "default", "extends={Base}", "extends='x'"],
)
def test_reserved_word_as_a_jsx_attribute_is_no_syntax_error(attribute, suffix):
    component = f"export const A = () => <Fade {attribute}>{{t('inside.fade')}}</Fade>;\n"

    facts = _facts(component, suffix)

    assert facts.syntax_error is None
    assert [site.key for site in facts.sites] == [Text("inside.fade")]


def test_reserved_word_as_a_vue_binding_is_no_syntax_error():
    component = (
        '<template>\n  <svg :class="class" :key="default">\n'
        "    <title>{{ $t('alt_logo') }}</title>\n  </svg>\n</template>\n"
        '<script setup lang="ts">\ndefineProps<{ class?: string }>()\n</script>\n'
    )

    facts = _facts(component, ".vue")

    assert facts.syntax_error is None
    assert [(site.line, site.key) for site in facts.sites] == [(3, Text("alt_logo"))]


@pytest.mark.parametrize(
    "source",
    [
        "const x = ;\nt('after.form');\n",
        # An error in a type whose text could be a key stays an error: never delete on doubt.
        "let v: Record<'legacy.banner' = 1;\nt('after.form');\n",
        "let v: Foo<'a' 'legacy.banner'>;\nt('after.form');\n",
    ],
)
def test_an_error_that_could_hide_a_key_still_counts(source):
    assert _facts(source, ".ts").syntax_error is not None


@pytest.mark.slow
def test_cleanup_runs_on_an_app_whose_types_the_grammar_misreads(tmp_path, run_cli):
    root = tmp_path / "app"
    write_tree(
        root,
        {
            "i18nprune.config.json": {"src": "src", "locales": {"directory": "locales"}},
            "locales/en.json": {"used": {"a": "A", "b": "B", "c": "C"}, "old": "Old"},
            "src/Button.tsx": TYPESCRIPT_FORMS["import type with type arguments"]
            + "export const B = (p: Props) => <Fade in={true}>{t('used.a')}</Fade>;\n",
            "src/store.ts": TYPESCRIPT_FORMS["accessor after a modifier"] + "t('used.b');\n",
            "src/Logo.vue": "<template>\n  <svg :class=\"class\">{{ $t('used.c') }}</svg>\n"
            "</template>\n",
        },
    )

    result = run_cli("cleanup", "--yes", "--json", cwd=root)

    assert result.code == 0, result.stdout
    codes = [issue["code"] for issue in result.envelope["issues"]]
    assert "i18nprune.scan.parse_error" not in codes
    assert json.loads((root / "locales/en.json").read_text()) == {
        "used": {"a": "A", "b": "B", "c": "C"}
    }
