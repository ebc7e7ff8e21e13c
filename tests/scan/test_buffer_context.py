"""Reading one file's unsaved content against a finished scan (`BufferContext`, kept by the
scan index for an editor): its sites equal those of a whole scan with that content, and the
scan it was read against is left as it was."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from i18nprune.project import ProjectRequest, open_project
from i18nprune.scan import ScanOptions, scan_project
from i18nprune.scan.project_scan import BufferContext, discovery_context
from i18nprune.serve.index import ScanIndex

FILES = {
    "src/keys.ts": "export const KEYS = { title: 'page.title', more: 'page.more' } as const;\n",
    "src/hooks.ts": (
        "import { useTranslation } from 'react-i18next';\n"
        "export const usePage = () => useTranslation('translation', { keyPrefix: 'page' });\n"
    ),
    "src/app.tsx": (
        "import { useTranslation } from 'react-i18next';\n"
        "import { KEYS } from './keys';\n"
        "export function App({ x }: { x: string }) {\n"
        "  const { t } = useTranslation();\n"
        "  return [t(KEYS.title), t('page.body'), t(`nav.${x}`)];\n"
        "}\n"
    ),
}
EDITED = (
    "import { useTranslation } from 'react-i18next';\n"
    "import { KEYS } from './keys';\n"
    "export function App({ x }: { x: string }) {\n"
    "  const { t } = useTranslation('translation', { keyPrefix: 'page' });\n"
    "  return [t('footer'), t(KEYS.more), t(`menu.${x}`)];\n"
    "  const broken = (;\n"
    "}\n"
)


@pytest.fixture
def options(tmp_path: Path) -> ScanOptions:
    (tmp_path / "locales").mkdir()
    (tmp_path / "locales/en.json").write_text('{"page": {"title": "T"}}')
    for relpath, text in FILES.items():
        (tmp_path / relpath).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relpath).write_text(text)
    project = open_project(ProjectRequest(cwd=tmp_path, read_only=True))
    return msgspec.structs.replace(project.scan_options(), cache_dir=None)


def test_a_buffer_reads_as_a_whole_scan_of_that_content_would(options: ScanOptions) -> None:
    kept: list[BufferContext] = []
    before = scan_project(options, keep=kept.append)

    sites = kept[0].read("src/app.tsx", EDITED.encode())
    whole = scan_project(msgspec.structs.replace(options, overlay={"src/app.tsx": EDITED.encode()}))

    assert sites.observations == [o for o in whole.observations if o.file == "src/app.tsx"]
    assert sites.dynamic == [d for d in whole.dynamic if d.file == "src/app.tsx"]
    assert [i.message for i in sites.issues] == [
        i.message for i in whole.issues if i.path == "src/app.tsx"
    ]
    assert {o.key for o in sites.observations} == {
        "page.footer",
        "page.page.more",
    }  # the prefix applies to a constant too
    assert sites.issues  # the syntax error is said
    # The scan it was read against is unchanged: reading the disk content gives its sites.
    again = kept[0].read("src/app.tsx", FILES["src/app.tsx"].encode())
    assert again.observations == [o for o in before.observations if o.file == "src/app.tsx"]


def test_a_path_that_is_not_a_source_file_has_no_sites_and_says_so(options: ScanOptions) -> None:
    kept: list[BufferContext] = []
    scan_project(options, keep=kept.append)

    sites = kept[0].read("notes/readme.ts", b"t('x')")

    assert (
        sites.observations == []
        and "not one of the project's source files" in sites.issues[0].message
    )


def test_the_index_reads_buffers_against_its_kept_scan_and_follows_changes(
    options: ScanOptions, tmp_path: Path
) -> None:
    index = ScanIndex()
    try:
        first = index.read_buffer(options, "src/app.tsx", EDITED.encode())
        assert {o.key for o in first.observations} == {
            "page.footer",
            "page.page.more",
        }  # the prefix applies to a constant too
        (tmp_path / "src/keys.ts").write_text(
            "export const KEYS = { title: 'page.title', more: 'page.other' } as const;\n"
        )
        second = index.read_buffer(options, "src/app.tsx", EDITED.encode())
        assert {o.key for o in second.observations} == {"page.footer", "page.page.other"}
    finally:
        index.close()


def test_a_files_only_context_reads_the_buffer_as_a_whole_scan_would(
    options: ScanOptions,
) -> None:
    whole = scan_project(msgspec.structs.replace(options, overlay={"src/app.tsx": EDITED.encode()}))

    sites = discovery_context(options).read("src/app.tsx", EDITED.encode())

    assert sites.observations == [o for o in whole.observations if o.file == "src/app.tsx"]
    assert sites.dynamic == [d for d in whole.dynamic if d.file == "src/app.tsx"]
