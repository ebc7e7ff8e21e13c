"""Where sites are reported: 1-based lines and columns of the original file, sorted."""

from __future__ import annotations

from tests.scan.conftest import ScanProject


def test_line_and_column_are_one_based_at_the_call(project: ScanProject) -> None:
    project.write("src/a.ts", "\n  const x = t('k');\n")

    [observation] = project.scan().observations

    assert (observation.file, observation.line, observation.column) == ("src/a.ts", 2, 13)


def test_column_counts_characters_not_bytes(project: ScanProject) -> None:
    project.write("src/a.ts", "const s = 'héllo wörld'; t('k');\n")

    [observation] = project.scan().observations

    assert observation.column == 26


def test_vue_template_site_is_located_in_the_vue_file(project: ScanProject) -> None:
    project.write(
        "src/a.vue",
        "<template>\n  <div>\n    <p :title=\"t('a')\">{{ $t('b') }}</p>\n  </div>\n</template>\n",
    )

    observations = project.scan().observations

    assert [(o.key, o.line, o.column) for o in observations] == [("a", 3, 16), ("b", 3, 27)]


def test_svelte_site_after_multiline_script_keeps_its_line(project: ScanProject) -> None:
    project.write(
        "src/a.svelte",
        "<script>\n  let x = 1;\n</script>\n\n<h1>{$t('title')}</h1>\n",
    )

    [observation] = project.scan().observations

    assert (observation.line, observation.column) == (5, 6)


def test_trans_site_is_located_at_its_attribute(project: ScanProject) -> None:
    project.write("src/a.jsx", 'const el = <Trans count={1} i18nKey="k" />;\n')

    [observation] = project.scan().observations

    assert (observation.line, observation.column) == (1, 29)


def test_preview_collapses_whitespace_and_stops_at_80_characters(project: ScanProject) -> None:
    long_name = "x" * 120
    project.write("src/a.ts", f"t(\n   `a.${{{long_name}}}`,\n   {{ count }}\n);\nt(  key  );\n")

    long, short = project.scan().dynamic

    assert short.preview == "t( key )"
    assert len(long.preview) == 80
    assert long.preview.startswith("t( `a.${xxx") and long.preview.endswith("…")


def test_results_are_sorted_by_file_line_and_column(project: ScanProject) -> None:
    project.write("src/b.ts", "t('b2'); t(x);\nt('b1');\n")
    project.write("src/a.ts", "t(y); t('a2', { count }); t('a1');\n")

    result = project.scan()

    assert [(o.file, o.line, o.column, o.key) for o in result.observations] == [
        ("src/a.ts", 1, 7, "a2"),
        ("src/a.ts", 1, 27, "a1"),
        ("src/b.ts", 1, 1, "b2"),
        ("src/b.ts", 2, 1, "b1"),
    ]
    assert [(d.file, d.line, d.column) for d in result.dynamic] == [
        ("src/a.ts", 1, 1),
        ("src/b.ts", 1, 10),
    ]


def test_commented_site_is_inactive(project: ScanProject) -> None:
    project.write("src/a.ts", "/**\n * Example: i18n.t('docs.example')\n */\n")

    [site] = project.scan().dynamic

    assert (site.kind, site.prefix, site.line, site.column) == ("commented", None, 2, 13)
    assert site.preview == "i18n.t('docs.example')"


def test_byte_order_mark_is_not_a_column(project: ScanProject) -> None:
    project.write("src/a.ts", "\ufefft('k');\n".encode())

    result = project.scan()

    assert [(o.key, o.line, o.column) for o in result.observations] == [("k", 1, 1)]
    assert result.issues == []


def test_crlf_line_endings(project: ScanProject) -> None:
    project.write("src/a.ts", b"// one\r\n// two\r\n  t('k');\r\n")

    [observation] = project.scan().observations

    assert (observation.line, observation.column) == (3, 3)
