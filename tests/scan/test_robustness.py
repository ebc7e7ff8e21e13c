"""Any text at all, however broken, is extracted without an exception and in linear time."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from i18nprune.scan.callees import CalleeNames
from i18nprune.scan.expressions import Text
from i18nprune.scan.extract import extract_facts
from i18nprune.scan.markup import svelte_document, vue_document
from tests.properties import examples
from tests.scan.conftest import ScanProject

NAMES = CalleeNames(["t"])
FRAGMENTS = st.sampled_from(
    [
        "<template>",
        "</template>",
        "<script>",
        '<script lang="ts">',
        "</script>",
        "<style>",
        "</style>",
        "<!--",
        "-->",
        "{{",
        "}}",
        "{",
        "}",
        "{#if ",
        "{/if}",
        "{@html ",
        "{:else}",
        "<p ",
        '<i18n-t keypath="k"',
        "<i18n-t keypath=",
        ':title="',
        '@click="',
        'v-for="x in ',
        'v-t="',
        '"',
        "'",
        "`",
        "${",
        "(",
        ")",
        "t(",
        "$t(",
        "i18n.t(",
        "'a.b'",
        "useTranslation(",
        "const { t } = ",
        "export ",
        "import { t as tr } from './x';",
        "/*",
        "*/",
        "//",
        "\n",
        " ",
        "x",
        "é",
        ">",
        "/>",
    ]
)
SOURCES = st.lists(FRAGMENTS, max_size=60).map("".join)


@pytest.mark.slow
@settings(max_examples=examples(200), deadline=None, database=None)
@given(source=SOURCES, suffix=st.sampled_from([".vue", ".svelte", ".ts", ".tsx", ".js"]))
def test_any_source_is_extracted_without_error(source: str, suffix: str) -> None:
    facts = extract_facts(source.encode(), suffix, NAMES)

    for site in facts.sites:
        assert site.line >= 1 and site.column >= 1


@settings(max_examples=examples(200), deadline=None, database=None)
@given(source=SOURCES)
def test_markup_documents_keep_every_byte_offset(source: str) -> None:
    content = source.encode()

    for document, _ in (vue_document(content), svelte_document(content)):
        assert len(document) == len(content)


def test_huge_markup_without_expressions_is_all_blanked() -> None:
    # How fast: benchmarks/micro.py (`markup_20k_lines_s`); linear, so this finishes at once.
    content = ("<div class='a'><span>text</span></div>\n" * 20000).encode()

    vue, _ = vue_document(b"<template>" + content + b"</template>")
    svelte, _ = svelte_document(content)

    assert vue.strip() == b"" and svelte.strip() == b""
    assert vue.count(b"\n") == svelte.count(b"\n") == 20000


def test_long_concatenation_chain_is_resolved() -> None:
    source = "t(" + " + ".join(["'a'"] * 5000) + ");"

    [site] = extract_facts(source.encode(), ".js", NAMES).sites

    assert site.key == Text("a" * 5000)


def test_absurdly_nested_expression_is_an_issue_not_a_crash(project: ScanProject) -> None:
    project.write("src/deep.js", "t(" + "(" * 5000 + "'a'" + ")" * 5000 + ");")
    project.write("src/ok.js", "t('ok');")

    result = project.scan()

    assert [o.key for o in result.observations] == ["ok"]
    assert [(issue.code, issue.path) for issue in result.issues] == [
        ("i18nprune.scan.parse_error", "src/deep.js")
    ]
