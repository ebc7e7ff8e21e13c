"""The incremental cache: warm scans equal cold ones, and stale or broken caches are harmless."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import msgspec

from i18nprune.envelope import Code
from i18nprune.scan.cache import CACHE_FILE_NAME, decode_file
from tests.scan.conftest import ScanProject, keys_of


def make_app(project: ScanProject) -> None:
    project.write("src/keys.ts", "export const NS = 'home';\n")
    project.write(
        "src/app.tsx",
        "import { NS } from './keys';\n"
        "const { t } = useTranslation();\n"
        "t(`${NS}.title`); t('cart.items', { count }); t(`errors.${code}`);\n"
        "// t('old.key')\n",
    )
    project.write("src/page.vue", "<template><p>{{ $t('vue.key') }}</p></template>\n")
    project.write("src/plain.ts", "export function add(a: number, b: number) { return a + b; }\n")


def age_files(project: ScanProject) -> None:
    """Make every file look written long ago, so its stat can vouch for its content."""
    for directory, _, names in os.walk(project.root / "src"):
        for name in names:
            os.utime(os.path.join(directory, name), (1_000_000, 1_000_000))


def test_warm_scan_equals_cold_scan_and_parses_nothing(project: ScanProject) -> None:
    make_app(project)
    age_files(project)
    cold = project.scan(cached=True)

    warm = project.scan(cached=True)

    assert (warm.observations, warm.dynamic, warm.issues) == (
        cold.observations,
        cold.dynamic,
        cold.issues,
    )
    assert cold.parsed == 3 and cold.cache_hits == 0
    assert warm.parsed == 0
    assert warm.cache_hits == 4  # the three discovered sources that hold sites, plus plain.ts


def cached_records(project: ScanProject) -> dict[str, Any]:
    """The cache file's records, decoded without knowing their types (to inspect or damage)."""
    document = msgspec.msgpack.decode((project.cache_dir / CACHE_FILE_NAME).read_bytes())
    records: dict[str, Any] = document["files"]
    return records


def write_records(project: ScanProject, records: dict[str, Any]) -> None:
    path: Path = project.cache_dir / CACHE_FILE_NAME
    document = msgspec.msgpack.decode(path.read_bytes())
    path.write_bytes(msgspec.msgpack.encode({**document, "files": records}))


def test_file_without_key_sites_is_cached_without_site_records(project: ScanProject) -> None:
    make_app(project)

    project.scan(cached=True)

    records = cached_records(project)
    plain = decode_file(msgspec.msgpack.encode(records["src/plain.ts"]))
    app = decode_file(msgspec.msgpack.encode(records["src/app.tsx"]))
    assert plain is not None and plain.facts is None and not plain.triggered
    assert app is not None and app.facts is not None and len(app.facts.sites) == 4


def test_damaged_facts_in_a_cached_record_are_extracted_again(project: ScanProject) -> None:
    make_app(project)
    age_files(project)
    cold = project.scan(cached=True)
    records = cached_records(project)
    records["src/app.tsx"][-1] = "not facts"
    write_records(project, records)

    warm = project.scan(cached=True)

    assert (warm.observations, warm.dynamic, warm.issues) == (
        cold.observations,
        cold.dynamic,
        cold.issues,
    )
    assert warm.parsed == 1


def test_damaged_quoted_texts_in_a_cached_record_are_indexed_again(project: ScanProject) -> None:
    make_app(project)
    age_files(project)
    texts = frozenset({"home", "cart.items"})
    cold = project.scan(cached=True, literal_texts=texts)
    records = cached_records(project)
    records["src/keys.ts"][6] = ["not", "literals"]
    write_records(project, records)

    warm = project.scan(cached=True, literal_texts=texts)

    assert warm.literals == cold.literals
    assert [(site.text, site.file) for site in warm.literals] == [("home", "src/keys.ts")]
    assert (warm.observations, warm.issues) == (cold.observations, cold.issues)


def test_cache_is_one_file_in_the_cache_dir(project: ScanProject) -> None:
    make_app(project)

    project.scan(cached=True)

    assert [path.name for path in project.cache_dir.iterdir()] == [CACHE_FILE_NAME]


def test_edited_file_is_extracted_again(project: ScanProject) -> None:
    make_app(project)
    age_files(project)
    project.scan(cached=True)

    project.write("src/page.vue", "<template><p>{{ $t('vue.changed') }}</p></template>\n")
    warm = project.scan(cached=True)

    assert "vue.changed" in keys_of(warm)
    assert "vue.key" not in keys_of(warm)
    assert warm.parsed == 1


def test_touched_file_with_same_content_is_not_parsed_again(project: ScanProject) -> None:
    make_app(project)
    age_files(project)
    project.scan(cached=True)

    os.utime(project.root / "src/app.tsx", (2_000_000, 2_000_000))
    warm = project.scan(cached=True)

    assert warm.parsed == 0
    assert "home.title" in keys_of(warm)


def test_changed_imported_constant_changes_importer_keys(project: ScanProject) -> None:
    make_app(project)
    age_files(project)
    project.scan(cached=True)

    project.write("src/keys.ts", "export const NS = 'landing';\n")
    warm = project.scan(cached=True)

    assert "landing.title" in keys_of(warm)
    assert "home.title" not in keys_of(warm)


def test_a_hooks_returned_object_is_cached_and_its_edit_relinks_the_callers(
    project: ScanProject,
) -> None:
    project.write("src/hooks.ts", "export function useLabels() { return { save: 'form.save' }; }\n")
    project.write(
        "src/app.ts",
        "import { useLabels } from './hooks';\nconst labels = useLabels();\nt(labels.save);\n",
    )
    age_files(project)
    cold = project.scan(cached=True)
    warm = project.scan(cached=True)

    project.write("src/hooks.ts", "export const useLabels = () => ({ save: 'form.submit' });\n")
    edited = project.scan(cached=True)

    assert keys_of(cold) == keys_of(warm) == ["form.save"]
    assert warm.parsed == 0
    assert keys_of(edited) == ["form.submit"]


def test_deleted_file_is_forgotten(project: ScanProject) -> None:
    make_app(project)
    project.scan(cached=True)

    (project.root / "src/page.vue").unlink()
    warm = project.scan(cached=True)

    assert "vue.key" not in keys_of(warm)
    assert warm.files == 3


def test_corrupt_cache_is_ignored_reported_and_rebuilt(project: ScanProject) -> None:
    make_app(project)
    cold = project.scan()
    project.cache_dir.mkdir()
    (project.cache_dir / CACHE_FILE_NAME).write_bytes(b"\x93not msgpack at all")

    broken = project.scan(cached=True)
    rebuilt = project.scan(cached=True)

    assert broken.observations == cold.observations
    assert [issue.code for issue in broken.issues] == [Code.SCAN_CACHE_ERROR]
    assert broken.issues[0].severity == "info"
    assert rebuilt.issues == []


def test_read_only_scan_writes_nothing(project: ScanProject) -> None:
    make_app(project)

    result = project.scan(cached=True, writable=False)

    assert keys_of(result)
    assert not project.cache_dir.exists()


def test_read_only_scan_reads_an_existing_cache(project: ScanProject) -> None:
    make_app(project)
    age_files(project)
    project.scan(cached=True)
    before = (project.cache_dir / CACHE_FILE_NAME).read_bytes()

    project.write("src/other.ts", "t('new.key');\n")
    result = project.scan(cached=True, writable=False)

    assert result.parsed == 1
    assert "new.key" in keys_of(result)
    assert (project.cache_dir / CACHE_FILE_NAME).read_bytes() == before


def test_read_only_scans_remember_in_memory_and_revalidate(project: ScanProject) -> None:
    make_app(project)
    age_files(project)
    first = project.scan(cached=True, writable=False)
    second = project.scan(cached=True, writable=False)
    project.write("src/other.ts", "t('new.key');\n")
    third = project.scan(cached=True, writable=False)

    assert first.parsed == 3
    assert (second.parsed, second.cache_hits) == (0, second.files)
    assert third.parsed == 1 and "new.key" in keys_of(third)
    assert not project.cache_dir.exists()


def test_no_cache_dir_means_no_cache(project: ScanProject) -> None:
    make_app(project)

    first = project.scan()
    second = project.scan()

    assert second.parsed == first.parsed == 3
    assert not project.cache_dir.exists()


def test_changing_functions_recomputes_facts(project: ScanProject) -> None:
    project.write("src/app.ts", "t('with.t'); translate('with.translate');\n")
    age_files(project)
    project.scan(cached=True)

    other = project.scan(cached=True, functions=("translate",))

    assert keys_of(other) == ["with.translate"]
    assert other.parsed == 1


def test_unwritable_cache_dir_is_an_info_issue(project: ScanProject) -> None:
    make_app(project)
    project.cache_dir.write_text("a file where the cache directory should be")

    result = project.scan(cached=True)

    assert keys_of(result)
    assert [(issue.code, issue.severity) for issue in result.issues] == [
        (Code.SCAN_CACHE_ERROR, "info")
    ]
