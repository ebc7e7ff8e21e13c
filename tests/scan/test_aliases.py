"""Import aliases from the project's tsconfig/jsconfig `paths`, as the compiler reads them."""

from __future__ import annotations

import json

import pytest

from i18nprune.scan.aliases import ImportAliases, strip_jsonc
from tests.conftest import write_tree


def test_strip_jsonc_drops_comments_and_trailing_commas_outside_strings():
    text = (
        '{\n  // a comment\n  "a": "http://x/*not a comment*/", /* block\n comment */\n'
        '  "b": [1, 2,],\n  "c": {"d": "e, }",},\n}\n'
    )

    stripped = strip_jsonc(text)

    assert json.loads(stripped) == {
        "a": "http://x/*not a comment*/",
        "b": [1, 2],
        "c": {"d": "e, }"},
    }
    assert stripped.count("\n") == text.count("\n")


CONFIG = {
    "compilerOptions": {
        "baseUrl": ".",
        "paths": {
            "@/*": ["./src/*"],
            "@/components/*": ["./src/ui/*", "./legacy/components/*"],
            "#config": ["./config/index.ts"],
            "~*": ["./app/*"],
        },
    }
}


@pytest.mark.parametrize(
    ("specifier", "expected"),
    [
        ("@/i18n/keys", ["src/i18n/keys"]),
        ("@/components/Button", ["src/ui/Button", "legacy/components/Button"]),  # longest prefix
        ("#config", ["config/index.ts"]),
        ("#config/other", []),  # a pattern without `*` matches only itself
        ("~/lib/x", ["app//lib/x"]),
        ("react", []),
    ],
)
def test_specifiers_expand_as_the_compiler_tries_them(tmp_path, specifier, expected):
    write_tree(tmp_path, {"tsconfig.json": CONFIG})

    assert ImportAliases(str(tmp_path)).expand(specifier) == expected


def test_paths_come_through_extends_relative_to_the_file_that_set_them(tmp_path):
    write_tree(
        tmp_path,
        {
            "tsconfig.base.json": {
                "compilerOptions": {"baseUrl": "packages/web", "paths": {"@/*": ["src/*"]}}
            },
            "tsconfig.json": '{"extends": "./tsconfig.base", "compilerOptions": {"strict": true}}',
        },
    )

    assert ImportAliases(str(tmp_path)).expand("@/keys") == ["packages/web/src/keys"]


def test_jsconfig_is_read_without_a_tsconfig_and_a_broken_one_maps_nothing(tmp_path):
    write_tree(tmp_path, {"jsconfig.json": {"compilerOptions": {"paths": {"@/*": ["src/*"]}}}})
    assert ImportAliases(str(tmp_path)).expand("@/a") == ["src/a"]

    write_tree(tmp_path, {"tsconfig.json": "{ not json"})
    assert ImportAliases(str(tmp_path)).expand("@/a") == []
