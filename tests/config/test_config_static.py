"""TS/JS config files read statically: accepted forms, and every construct that needs running."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from i18nprune.config import LoadedConfig
from i18nprune.config.loading import read_config_document
from i18nprune.envelope import Code, ProblemError

Load = Callable[..., LoadedConfig]
Write = Callable[[str, str], Path]


@pytest.mark.parametrize("suffix", ["ts", "mts", "cts", "js", "mjs"])
def test_export_default_object_is_read_for_every_suffix(
    load: Load, write: Write, suffix: str
) -> None:
    write(f"i18nprune.config.{suffix}", "export default { src: 'web' };\n")
    assert load().config.src == "web"


def test_define_config_wrapper_is_read(load: Load, write: Write) -> None:
    write(
        "i18nprune.config.ts",
        "import { defineConfig } from 'i18nprune';\n"
        "export default defineConfig({ locales: { source: 'fr' } });\n",
    )
    assert load().config.locales.source == "fr"


def test_satisfies_and_import_type_are_accepted(load: Load, write: Write) -> None:
    write(
        "i18nprune.config.ts",
        "import type { Config } from 'i18nprune';\n"
        "export default { src: 'app' } satisfies Config;\n",
    )
    assert load().config.src == "app"


def test_as_type_assertion_is_accepted(load: Load, write: Write) -> None:
    write("i18nprune.config.mts", "export default ({ src: 'app' } as Config);\n")
    assert load().config.src == "app"


def test_as_const_is_accepted(load: Load, write: Write) -> None:
    write("i18nprune.config.ts", "export default { functions: ['t', 'tr'] as const } as const;\n")
    assert load().config.functions == ["t", "tr"]


def test_module_exports_is_read_in_commonjs(load: Load, write: Write) -> None:
    write("i18nprune.config.cjs", "module.exports = {\n  src: 'lib',\n};\n")
    assert load().config.src == "lib"


def test_identifier_bound_to_a_local_const_is_exported(load: Load, write: Write) -> None:
    write(
        "i18nprune.config.ts",
        "const config: Config = { src: 'client' };\nexport default config;\n",
    )
    assert load().config.src == "client"


def test_export_clause_naming_default_is_read(load: Load, write: Write) -> None:
    write(
        "i18nprune.config.js", "const config = { src: 'client' };\nexport { config as default };\n"
    )
    assert load().config.src == "client"


def test_local_const_values_and_spreads_are_resolved(load: Load, write: Write) -> None:
    write(
        "i18nprune.config.ts",
        "const locales = { source: 'de', directory: 'i18n' };\n"
        "const base = { src: 'web' };\n"
        "export default { ...base, locales };\n",
    )
    config = load().config
    assert (config.src, config.locales.source, config.locales.directory) == ("web", "de", "i18n")


def test_comments_and_trailing_commas_are_accepted(load: Load, write: Write) -> None:
    write(
        "i18nprune.config.js",
        "/** @type {import('i18nprune').Config} */\n"
        "export default {\n"
        "  // the app code\n"
        "  src: 'web', /* inline */\n"
        "  functions: ['t', 'i18n.t',],\n"
        "};\n",
    )
    config = load().config
    assert (config.src, config.functions) == ("web", ["t", "i18n.t"])


def test_literal_values_of_every_kind_are_read(write: Write) -> None:
    path = write(
        "i18nprune.config.ts",
        "export default {\n"
        "  'quoted': \"a\\tb\\u00e9\\u{1F600}\",\n"
        "  template: `no holes`,\n"
        "  1: -2.5e3,\n"
        "  hex: 0x1F, big: 1_000, half: .5,\n"
        "  yes: true, no: false, nothing: null,\n"
        "  list: [1, [2], { deep: 'x' }],\n"
        "};\n",
    )
    assert read_config_document(path).data == {
        "quoted": "a\tbé😀",
        "template": "no holes",
        "1": -2500.0,
        "hex": 31,
        "big": 1000,
        "half": 0.5,
        "yes": True,
        "no": False,
        "nothing": None,
        "list": [1, [2], {"deep": "x"}],
    }


@pytest.mark.parametrize(
    ("body", "construct"),
    [
        (
            "import base from './base';\nexport default { ...base };",
            "the spread `...base` of a value imported from `./base`",
        ),
        ("export default { src: getSrc() };", "the function call `getSrc(…)`"),
        ("import { SRC } from './paths';\nexport default { src: SRC };", "`SRC` imported from"),
        ("const k = 'src';\nexport default { [k]: 'web' };", "the computed key `[k]`"),
        ("const v = 'web';\nexport default { src: `${v}/app` };", "the template literal hole"),
        ("export default { src: process.env.SRC };", "the environment lookup `process.env.SRC`"),
        ("export default { src() { return 'x'; } };", "the method"),
        ("let s = 'web';\nexport default { src: s };", "the name `s`"),
        ("export default { src: 'a' + 'b' };", "the expression `'a' + 'b'`"),
        ("export default { functions: ['t', , 'x'] };", "an empty array slot"),
        ("export default function config() { return {}; }", "a function"),
        ("export const config = { src: 'web' };", "without `export default"),
    ],
)
def test_construct_needing_evaluation_is_not_static(
    load: Load, write: Write, body: str, construct: str
) -> None:
    path = write("i18nprune.config.ts", body + "\n")
    with pytest.raises(ProblemError) as raised:
        load()
    issue = raised.value.issue
    assert issue.code == Code.CONFIG_NOT_STATIC
    assert issue.message.startswith(f"{path}:")
    assert construct in issue.message
    assert "i18nprune.config.json" in issue.message


def test_not_static_names_the_line_of_the_construct(load: Load, write: Write) -> None:
    path = write(
        "i18nprune.config.ts",
        "export default {\n  locales: {\n    source: detect(),\n  },\n};\n",
    )
    with pytest.raises(ProblemError) as raised:
        load()
    assert raised.value.issue.message.startswith(f"{path}:3: the function call `detect(…)`")
    assert raised.value.issue.path == f"{path}:3"


def test_syntax_error_is_a_parse_error_with_its_line(load: Load, write: Write) -> None:
    path = write("i18nprune.config.ts", "export default {\n  src: 'a'\n  functions: [],\n};\n")
    with pytest.raises(ProblemError) as raised:
        load()
    issue = raised.value.issue
    assert issue.code == Code.CONFIG_PARSE_ERROR
    assert issue.message.startswith(f"{path}:3:")
    assert "syntax error" in issue.message


def test_default_export_that_is_not_an_object_is_invalid(load: Load, write: Write) -> None:
    write("i18nprune.config.ts", "export default ['en'];\n")
    with pytest.raises(ProblemError) as raised:
        load()
    assert raised.value.issue.code == Code.CONFIG_INVALID
    assert "must be an object literal" in raised.value.issue.message


def test_const_referring_to_itself_is_not_static(load: Load, write: Write) -> None:
    write("i18nprune.config.ts", "const a = { ...a };\nexport default a;\n")
    with pytest.raises(ProblemError) as raised:
        load()
    assert raised.value.issue.code == Code.CONFIG_NOT_STATIC
    assert "refers to itself" in raised.value.issue.message


def test_not_static_secret_value_is_not_quoted(load: Load, write: Write) -> None:
    write(
        "i18nprune.config.ts",
        "const tail = load();\n"
        "export default {\n"
        "  translate: { providers: [{ id: 'deepl', apiKey: 'sk-live-' + tail }] },\n"
        "};\n",
    )
    with pytest.raises(ProblemError) as raised:
        load()
    issue = raised.value.issue
    assert issue.code == Code.CONFIG_NOT_STATIC
    assert "the secret `apiKey`" in issue.message
    assert "sk-live-" not in issue.message


def test_syntax_error_message_does_not_quote_the_code(load: Load, write: Write) -> None:
    write("i18nprune.config.ts", "export default { apiKey: 'sk-live-1' 'x' };\n")
    with pytest.raises(ProblemError) as raised:
        load()
    assert raised.value.issue.code == Code.CONFIG_PARSE_ERROR
    assert "sk-live" not in raised.value.issue.message
