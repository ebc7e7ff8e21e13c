"""Which files a scan reads: excludes, presets, symlinks and files that cannot be scanned."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from i18nprune.config.schema import ExcludeConfig
from i18nprune.envelope import Code
from i18nprune.scan.discovery import Discovery, discover_sources, rediscover
from i18nprune.scan.examine import MAX_SOURCE_BYTES
from tests.scan.conftest import ScanProject, issue_codes, keys_of

SITE = "t('k');\n"


def discovered(project: ScanProject, exclude: ExcludeConfig | None = None) -> list[str]:
    discovery = discover_sources(project.root, [project.root / "src"], exclude or ExcludeConfig())
    return [file.relpath for file in discovery.files]


def test_every_source_extension_is_discovered_and_others_are_not(project: ScanProject) -> None:
    for name in ["a.js", "b.jsx", "c.mjs", "d.cjs", "e.ts", "f.tsx", "g.mts", "h.cts"]:
        project.write(f"src/{name}", SITE)
    project.write("src/i.vue", "<template></template>")
    project.write("src/j.svelte", "<p></p>")
    for name in ["k.json", "l.css", "Makefile", ".ts"]:
        project.write(f"src/{name}", SITE)
    for name in ["m.md", "n.mdx", "o.svx"]:  # prose pages: read for quoted texts only
        project.write(f"src/{name}", SITE)

    assert discovered(project) == [
        f"src/{name}"
        for name in [
            "a.js",
            "b.jsx",
            "c.mjs",
            "d.cjs",
            "e.ts",
            "f.tsx",
            "g.mts",
            "h.cts",
            "i.vue",
            "j.svelte",
            "m.md",
            "n.mdx",
            "o.svx",
        ]
    ]


def test_files_are_sorted_by_path(project: ScanProject) -> None:
    for relpath in ["src/z.ts", "src/b/y.ts", "src/a.ts", "src/b/a.ts"]:
        project.write(relpath, SITE)

    assert discovered(project) == ["src/a.ts", "src/b/a.ts", "src/b/y.ts", "src/z.ts"]


def test_default_skip_directories_are_skipped(project: ScanProject) -> None:
    for directory in ["node_modules", "dist", "coverage", ".next", ".nuxt", ".svelte-kit", "out"]:
        project.write(f"src/{directory}/x.ts", SITE)
    project.write("src/app.ts", SITE)

    assert discovered(project, ExcludeConfig(preset="none")) == ["src/app.ts"]


def test_default_skip_can_be_turned_off(project: ScanProject) -> None:
    project.write("src/out/x.ts", SITE)

    exclude = ExcludeConfig(preset="none", use_default_skip=False)
    assert discovered(project, exclude) == ["src/out/x.ts"]


def test_production_preset_skips_tests_and_build_output(project: ScanProject) -> None:
    for relpath in [
        "src/tests/a.ts",
        "src/bench/b.ts",
        "src/compiled/c.ts",
        "src/build/d.ts",
        "src/e.test.ts",
        "src/f.spec.tsx",
    ]:
        project.write(relpath, SITE)
    project.write("src/app.ts", SITE)

    exclude = ExcludeConfig(preset="production", use_default_skip=False)
    assert discovered(project, exclude) == ["src/app.ts"]


def test_no_preset_keeps_test_files(project: ScanProject) -> None:
    project.write("src/e.test.ts", SITE)
    project.write("src/tests/a.ts", SITE)

    assert discovered(project, ExcludeConfig(preset="none")) == ["src/e.test.ts", "src/tests/a.ts"]


def test_excluded_dirs_match_exact_names_and_globs(project: ScanProject) -> None:
    for relpath in ["src/legacy/a.ts", "src/gen-1/b.ts", "src/generic/c.ts", "src/keep/d.ts"]:
        project.write(relpath, SITE)

    exclude = ExcludeConfig(dirs=["legacy", "gen-*"])
    assert discovered(project, exclude) == ["src/generic/c.ts", "src/keep/d.ts"]


def test_excluded_files_match_exact_names_and_globs(project: ScanProject) -> None:
    for relpath in ["src/setup.ts", "src/a.stories.tsx", "src/app.ts"]:
        project.write(relpath, SITE)

    exclude = ExcludeConfig(files=["setup.ts", "*.stories.*"])
    assert discovered(project, exclude) == ["src/app.ts"]


def test_excluded_extensions_work_with_or_without_dot(project: ScanProject) -> None:
    for relpath in ["src/a.d.ts", "src/b.vue", "src/c.ts"]:
        project.write(relpath, SITE)

    exclude = ExcludeConfig(extensions=["d.ts", ".vue"])
    assert discovered(project, exclude) == ["src/c.ts"]


def test_exclude_patterns_search_the_path_relative_to_src(project: ScanProject) -> None:
    for relpath in ["src/features/old/a.ts", "src/features/new/b.ts", "src/old.ts"]:
        project.write(relpath, SITE)

    exclude = ExcludeConfig(patterns=[r"^features/old/", r"\.generated\."])
    assert discovered(project, exclude) == ["src/features/new/b.ts", "src/old.ts"]


def test_invalid_exclude_pattern_is_an_error_naming_it(project: ScanProject) -> None:
    project.write("src/a.ts", SITE)

    result = project.scan(exclude=ExcludeConfig(patterns=["(unclosed"]))

    [issue] = result.issues
    assert issue.code == Code.CONFIG_INVALID
    assert issue.severity == "error"
    assert "exclude.patterns[0]" in issue.message and "(unclosed" in issue.message
    assert keys_of(result) == ["k"]


def test_missing_src_directory_is_an_error(project: ScanProject) -> None:
    result = project.scan(src="nowhere")

    assert issue_codes(result) == [Code.SRC_MISSING]
    assert result.files == 0


def test_src_outside_root_is_an_error(project: ScanProject, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    discovery = discover_sources(project.root, [outside], ExcludeConfig())

    assert [issue.code for issue in discovery.issues] == [Code.PATH_OUTSIDE_ROOT]
    assert discovery.files == []


def test_symlink_loop_terminates(project: ScanProject) -> None:
    project.write("src/a/x.ts", SITE)
    os.symlink("..", project.root / "src/a/loop")
    os.symlink(".", project.root / "src/self")

    assert discovered(project) == ["src/a/x.ts"]


def test_symlinked_directory_inside_root_is_followed_once(project: ScanProject) -> None:
    project.write("shared/keys.ts", SITE)
    project.write("src/app.ts", SITE)
    os.symlink("../shared", project.root / "src/shared")
    os.symlink("../shared", project.root / "src/again")

    assert discovered(project) == ["shared/keys.ts", "src/app.ts"]


def test_symlinked_file_is_reported_by_its_real_path(project: ScanProject) -> None:
    project.write("lib/real.ts", SITE)
    os.symlink("../lib/real.ts", project.root / "src/link.ts")

    assert discovered(project) == ["lib/real.ts"]


def test_symlink_leaving_the_root_is_skipped_with_a_warning(
    project: ScanProject, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.ts").write_text(SITE)
    os.symlink(outside, project.root / "src/external")
    project.write("src/app.ts", SITE)

    result = project.scan()

    assert result.files == 1
    [issue] = result.issues
    assert issue.code == Code.SCAN_SYMLINK_SKIPPED
    assert issue.severity == "warning"
    assert issue.path == "src/external"
    assert "outside the project root" in issue.message


def test_broken_symlink_is_reported_not_fatal(project: ScanProject) -> None:
    os.symlink("missing.ts", project.root / "src/broken.ts")
    project.write("src/app.ts", SITE)

    result = project.scan()

    assert keys_of(result) == ["k"]
    [issue] = result.issues
    assert issue.code == Code.SCAN_UNREADABLE
    assert issue.path == "src/broken.ts"
    assert "broken symlink" in issue.message


def test_fifo_with_source_extension_is_skipped_without_blocking(project: ScanProject) -> None:
    os.mkfifo(project.root / "src/pipe.ts")
    project.write("src/app.ts", SITE)

    result = project.scan()

    assert keys_of(result) == ["k"]
    [issue] = result.issues
    assert issue.code == Code.SCAN_UNREADABLE
    assert issue.path == "src/pipe.ts"
    assert "not a regular file" in issue.message


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read files without read permission")
def test_unreadable_file_is_reported_not_fatal(project: ScanProject) -> None:
    path = project.write("src/locked.ts", SITE)
    path.chmod(0)
    project.write("src/app.ts", SITE)

    result = project.scan()

    assert keys_of(result) == ["k"]
    assert [issue.path for issue in result.issues] == ["src/locked.ts"]
    assert result.issues[0].code == Code.SCAN_UNREADABLE


def test_binary_file_is_reported_and_skipped(project: ScanProject) -> None:
    project.write("src/blob.js", b"t('hidden')" + b"\0\x01\x02" * 16)
    project.write("src/app.ts", SITE)

    result = project.scan()

    assert keys_of(result) == ["k"]
    [issue] = result.issues
    assert (issue.code, issue.path) == (Code.SCAN_BINARY, "src/blob.js")
    assert "NUL" in issue.message


def test_a_raw_nul_in_a_string_literal_is_still_source(project: ScanProject) -> None:
    project.write("src/status.tsx", b"const marker = '\0loading';\nt('status.loading');\n")

    result = project.scan()

    assert keys_of(result) == ["status.loading"]
    assert result.issues == []


def test_invalid_utf8_is_reported_with_its_line(project: ScanProject) -> None:
    project.write("src/latin1.js", b"// ok\nt('caf\xe9');\n")

    result = project.scan()

    assert result.observations == []
    [issue] = result.issues
    assert issue.code == Code.SCAN_BINARY
    assert issue.message.startswith("src/latin1.js:2: not valid UTF-8")


@pytest.mark.slow
def test_large_file_is_scanned(project: ScanProject) -> None:
    project.write("src/bundle.js", "t('big');\n" + "x" * (6 * 1024 * 1024) + "\nt('end');\n")
    project.write("src/app.ts", SITE)

    result = project.scan()

    assert keys_of(result) == ["big", "end", "k"]
    assert result.issues == []


def test_file_over_the_size_limit_is_reported_not_scanned(project: ScanProject) -> None:
    with open(project.write("src/huge.js", "t('huge');\n"), "r+b") as stream:
        stream.truncate(MAX_SOURCE_BYTES + 1)  # sparse: no disk is spent on it
    project.write("src/app.ts", SITE)

    result = project.scan()

    assert keys_of(result) == ["k"]
    [issue] = result.issues
    assert (issue.code, issue.path) == (Code.SCAN_TOO_LARGE, "src/huge.js")


def test_syntax_error_is_a_warning_with_its_position(project: ScanProject) -> None:
    project.write("src/broken.ts", "t('before');\nconst = ;\nt('after');\n")

    result = project.scan()

    assert keys_of(result) == ["after", "before"]
    [issue] = result.issues
    assert issue.code == Code.SCAN_PARSE_ERROR
    assert issue.severity == "warning"
    assert issue.message.startswith("src/broken.ts:2:")


# -- rediscover: a walk's result brought up to date with the paths that changed ---------------


def walk(project: ScanProject, exclude: ExcludeConfig | None = None) -> Discovery:
    return discover_sources(project.root, [project.root / "src"], exclude or ExcludeConfig())


def rediscovered(
    project: ScanProject, before: Discovery, changed: set[str], exclude: ExcludeConfig | None = None
) -> Discovery | None:
    """What `rediscover` makes of the walk `before` once `changed` happened."""
    settings = exclude or ExcludeConfig()
    return rediscover(before, project.root, [project.root / "src"], settings, changed)


@pytest.fixture
def walked(project: ScanProject) -> ScanProject:
    project.write("src/a.ts", SITE)
    project.write("src/deep/b.tsx", SITE)
    project.write("src/deep/c.vue", "<template></template>")
    return project


def test_rediscover_sees_an_edit_a_new_file_and_a_deleted_one(walked: ScanProject) -> None:
    before = walk(walked)
    walked.write("src/a.ts", SITE * 3)
    walked.write("src/deep/new/d.ts", SITE)
    (walked.root / "src/deep/c.vue").unlink()

    kept = rediscovered(walked, before, {"src/a.ts", "src/deep/new/d.ts", "src/deep/c.vue"})

    assert kept == walk(walked)
    assert [file.relpath for file in walk(walked).files] == [
        "src/a.ts",
        "src/deep/b.tsx",
        "src/deep/new/d.ts",
    ]


def test_rediscover_ignores_paths_no_walk_reaches(walked: ScanProject) -> None:
    before = walk(walked)
    walked.write("src/node_modules/x/index.ts", SITE)
    walked.write("src/notes.txt", "t('k');")
    walked.write("outside.ts", SITE)

    changed = {"src/node_modules/x/index.ts", "src/notes.txt", "outside.ts"}
    assert rediscovered(walked, before, changed) == walk(walked) == before


def test_rediscover_applies_file_excludes_and_patterns(walked: ScanProject) -> None:
    exclude = ExcludeConfig(files=["*.stories.tsx"], patterns=["^deep/gen/"])
    before = walk(walked, exclude)
    walked.write("src/deep/x.stories.tsx", SITE)
    walked.write("src/deep/gen/y.ts", SITE)
    walked.write("src/gen/z.ts", SITE)

    changed = {"src/deep/x.stories.tsx", "src/deep/gen/y.ts", "src/gen/z.ts"}
    kept = rediscovered(walked, before, changed, exclude)

    assert kept == walk(walked, exclude)
    assert kept is not None and "src/gen/z.ts" in [file.relpath for file in kept.files]


@pytest.mark.parametrize(
    "change",
    ["link", "excluded folder", "config", "gitignore", "src gone", "not a regular file"],
)
def test_rediscover_gives_up_where_only_a_walk_can_tell(walked: ScanProject, change: str) -> None:
    exclude = ExcludeConfig(dirs=["generated"])
    before = walk(walked, exclude)
    named = {
        "link": "src/linked",
        "excluded folder": "src/generated/e.ts",
        "config": "i18nprune.config.json",
        "gitignore": "src/.gitignore",
        "src gone": "src/a.ts",
        "not a regular file": "src/pipe.ts",
    }[change]
    if change == "link":
        (walked.root / named).symlink_to(walked.root / "src/deep")
    elif change == "excluded folder":
        walked.write(named, SITE)
    elif change == "src gone":
        shutil.rmtree(walked.root / "src")
    elif change == "not a regular file":
        os.mkfifo(walked.root / named)
    else:
        walked.write(named, "{}")

    assert rediscovered(walked, before, {named}, exclude) is None


def test_rediscover_gives_up_on_a_change_where_a_followed_link_leads(walked: ScanProject) -> None:
    walked.write("shared/s.ts", SITE)
    (walked.root / "src/linked").symlink_to(walked.root / "shared")
    before = walk(walked)
    walked.write("shared/s.ts", SITE * 2)

    assert before.link_targets == {"shared"}
    assert rediscovered(walked, before, {"shared/s.ts"}) is None


def test_rediscover_applies_a_change_away_from_a_followed_link(walked: ScanProject) -> None:
    walked.write("shared/s.ts", SITE)
    (walked.root / "src/linked").symlink_to(walked.root / "shared")
    before = walk(walked)
    walked.write("src/a.ts", SITE * 2)

    assert rediscovered(walked, before, {"src/a.ts"}) == walk(walked)


def test_rediscover_leaves_a_change_of_many_paths_to_a_walk(walked: ScanProject) -> None:
    before = walk(walked)
    many = {f"src/gen/{number}.ts" for number in range(1_001)}

    assert rediscovered(walked, before, many) is None
