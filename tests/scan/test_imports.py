"""Constants imported from other project files resolve keys, across any number of re-exports."""

from __future__ import annotations

from tests.scan.conftest import ScanProject, keys_of


def test_named_import_of_a_constant(project: ScanProject) -> None:
    project.write("src/keys.ts", "export const NS = 'home';\n")
    project.write("src/app.ts", "import { NS } from './keys';\nt(`${NS}.title`);\n")

    assert keys_of(project.scan()) == ["home.title"]


def test_renamed_import_and_as_const_object(project: ScanProject) -> None:
    project.write(
        "src/keys.ts",
        "export const KEYS = { nav: { about: 'nav.about' } } as const;\n",
    )
    project.write(
        "src/app.tsx",
        "import { KEYS as K } from './keys';\nt(K.nav.about); t(K['nav']['about'] + '.tip');\n",
    )

    assert keys_of(project.scan()) == ["nav.about", "nav.about.tip"]


def test_import_from_parent_directory_outside_src(project: ScanProject) -> None:
    project.write("shared/keys.ts", "export const ERRORS = 'errors';\n")
    project.write(
        "src/feature/app.ts", "import { ERRORS } from '../../shared/keys';\nt(ERRORS + '.x');\n"
    )

    result = project.scan()

    assert keys_of(result) == ["errors.x"]
    assert result.files == 1


def test_index_file_and_extension_resolution(project: ScanProject) -> None:
    project.write("src/keys/index.ts", "export const A = 'from.index';\n")
    project.write("src/b.tsx", "export const B = 'from.tsx';\n")
    project.write("src/c.ts", "export const C = 'from.js.specifier';\n")
    project.write(
        "src/app.ts",
        "import { A } from './keys';\nimport { B } from './b';\nimport { C } from './c.js';\n"
        "t(A); t(B); t(C);\n",
    )

    assert keys_of(project.scan()) == ["from.index", "from.js.specifier", "from.tsx"]


def test_namespace_import(project: ScanProject) -> None:
    project.write("src/keys.ts", "export const TITLE = 'ns.title';\n")
    project.write("src/app.ts", "import * as K from './keys';\nt(K.TITLE);\n")

    assert keys_of(project.scan()) == ["ns.title"]


def test_default_export_object(project: ScanProject) -> None:
    project.write("src/keys.js", "const KEYS = { a: 'default.a' };\nexport default KEYS;\n")
    project.write("src/app.js", "import KEYS from './keys';\nt(KEYS.a);\n")

    assert keys_of(project.scan()) == ["default.a"]


def test_re_exports_are_followed_through_several_modules(project: ScanProject) -> None:
    project.write("src/a.ts", "export const DEEP = 'deep.key';\n")
    project.write("src/b.ts", "export { DEEP as RENAMED } from './a';\n")
    project.write("src/c.ts", "export * from './b';\n")
    project.write("src/index.ts", "export * as all from './c';\n")
    project.write("src/app.ts", "import { all } from './index';\nt(all.RENAMED);\n")

    assert keys_of(project.scan()) == ["deep.key"]


def test_re_export_cycle_ends_as_a_dynamic_site(project: ScanProject) -> None:
    project.write("src/a.ts", "export * from './b';\nexport { X } from './b';\n")
    project.write("src/b.ts", "export * from './a';\nexport { X } from './a';\n")
    project.write("src/app.ts", "import { X, Y } from './a';\nt(X); t(Y);\n")

    result = project.scan()

    assert result.observations == []
    assert [(d.kind, d.prefix) for d in result.dynamic] == [
        ("non_literal", None),
        ("non_literal", None),
    ]


def test_import_of_missing_file_or_package_stays_dynamic(project: ScanProject) -> None:
    project.write(
        "src/app.ts",
        "import { A } from './missing';\nimport { B } from 'some-package';\nt(`${A}.x`); t(B);\n",
    )

    result = project.scan()

    assert result.observations == []
    assert sorted((d.kind, d.prefix) for d in result.dynamic) == [
        ("non_literal", None),
        ("template_interpolation", None),
    ]


def test_constant_only_file_is_parsed_only_when_imported(project: ScanProject) -> None:
    project.write("src/keys.ts", "export const NS = 'lazy';\n")
    project.write("src/unused.ts", "export const OTHER = 'never.needed';\n")
    project.write("src/app.ts", "import { NS } from './keys';\nt(NS + '.key');\n")

    result = project.scan()

    assert keys_of(result) == ["lazy.key"]
    assert result.parsed == 2  # app.ts and, on demand, keys.ts; never unused.ts


def test_key_prefix_and_context_from_imported_constants(project: ScanProject) -> None:
    project.write("src/consts.ts", "export const PREFIX = 'home';\nexport const MALE = 'male';\n")
    project.write(
        "src/app.tsx",
        "import { PREFIX, MALE } from './consts';\n"
        "const { t } = useTranslation('ns', { keyPrefix: PREFIX });\n"
        "t('friend', { context: MALE });\n",
    )

    [observation] = project.scan().observations
    assert (observation.key, observation.context) == ("home.friend", "male")


def test_imported_enum_member(project: ScanProject) -> None:
    project.write("src/keys.ts", "export enum Keys { Title = 'enum.title' }\n")
    project.write("src/app.ts", "import { Keys } from './keys';\nt(Keys.Title);\n")

    assert keys_of(project.scan()) == ["enum.title"]


def test_local_export_list_of_constants(project: ScanProject) -> None:
    project.write(
        "src/keys.ts", "const A = 'listed.a';\nconst B = A + '.b';\nexport { A, B as BB };\n"
    )
    project.write("src/app.ts", "import { A, BB } from './keys';\nt(A); t(BB);\n")

    assert keys_of(project.scan()) == ["listed.a", "listed.a.b"]


def test_vue_component_imports_constants(project: ScanProject) -> None:
    project.write("src/keys.ts", "export const NS = 'vue';\n")
    project.write(
        "src/App.vue",
        "<template><p>{{ $t(NS + '.title') }}</p></template>\n"
        "<script setup lang=\"ts\">\nimport { NS } from './keys';\n</script>\n",
    )

    assert keys_of(project.scan()) == ["vue.title"]


def test_import_from_unscannable_file_is_reported_once(project: ScanProject) -> None:
    project.write("src/keys.ts", b"export const NS = 'x';" + b"\0" * 32)
    project.write("src/app.ts", "import { NS } from './keys';\nt(NS + '.y');\n")

    result = project.scan()

    assert [(issue.code, issue.path) for issue in result.issues] == [
        ("i18nprune.scan.binary_file", "src/keys.ts")
    ]
    assert [(d.kind, d.prefix) for d in result.dynamic] == [("concatenation", None)]


def test_a_function_is_read_by_its_only_return_of_an_object(project: ScanProject) -> None:
    # Only a function whose last statement is its one `return` of an object literal is read;
    # a `return` of a function nested in it is that function's, and comments are no statements.
    project.write(
        "src/labels.tsx",
        "export function labels() {\n  const pick = (x) => { return x; };\n"
        "  return { title: 'page.title' };\n  // the end\n}\n"
        "export function twice(flag) {\n  if (flag) return { title: 'page.other' };\n"
        "  return { title: 'page.title2' };\n}\n"
        "export function jsx() {\n  return <p/>;\n}\n",
    )
    project.write(
        "src/app.ts",
        "import { labels, twice, jsx } from './labels';\n"
        "t(labels().title); t(twice(true).title); t(jsx().title);\n",
    )

    result = project.scan()

    assert keys_of(result) == ["page.title"]
    assert len(result.dynamic) == 2


def test_a_wrapper_passing_its_key_on_past_a_comment_is_followed(project: ScanProject) -> None:
    project.write(
        "src/app.tsx",
        "import { useTranslation } from 'react-i18next';\nexport function App() {\n"
        "  const { t } = useTranslation();\n"
        "  const tr = (key: string) => t(/* passed on */ key);\n"
        "  return [tr('home.title'), tr('home.text')];\n}\n",
    )

    assert keys_of(project.scan()) == ["home.text", "home.title"]
