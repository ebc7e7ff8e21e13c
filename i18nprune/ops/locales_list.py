"""`locales list`: every locale of the project with its files and key counts."""

from __future__ import annotations

import time

import msgspec

from i18nprune.envelope import Code, Envelope, Issue, make_envelope
from i18nprune.ops.engine.events import EventSink
from i18nprune.ops.shared.nothing_read import locales_not_read
from i18nprune.ops.shared.unreadable_locales import unreadable_locale_files
from i18nprune.project import ProjectHandle
from i18nprune.translate.plurals import gettext_forms

KIND = "locales.list"


class LocalesListOptions(msgspec.Struct, frozen=True, kw_only=True):
    """`locales list` has no options of its own."""


class LocaleRow(msgspec.Struct, frozen=True, rename="camel"):
    code: str
    name: str
    is_source: bool
    files: list[str]
    keys: int
    placeholders: int
    missing_from_source: int
    extra: int
    unreadable: list[str] = []
    """Its files that do not parse (their keys are not counted; the issues say where)."""


class LocalesListData(msgspec.Struct, frozen=True, rename="camel"):
    locales_dir: str
    source: str
    locales: list[LocaleRow]


async def run(handle: ProjectHandle, options: LocalesListOptions, emit: EventSink) -> Envelope:
    """Inventory the locale files; counts are relative to the source locale."""
    started = time.perf_counter()
    project = handle.open()
    inventory, issues = project.inventory()
    not_read = locales_not_read(project)
    if not_read is not None:  # said first, in place of the bare missing-folder error
        issues = [not_read.issue, *(i for i in issues if i.code != Code.LOCALES_DIR_MISSING)]
    issues = list(issues)
    source_code = project.source_locale()
    sources = project.load_namespaces(source_code) if source_code in inventory.segments else {}
    rows = []
    broken = unreadable_locale_files(project, inventory.locales())
    issues.extend(broken)
    for code in inventory.locales():
        keys = placeholders = missing = extra = 0
        for namespace, view in project.load_namespaces(code).items():
            issues.extend(view.issues)
            paths = set(view.leaves)
            source = sources.get(namespace)
            source_paths = set(source.leaves) if source is not None else set()
            keys += len(paths)
            gettext = gettext_forms(source, view) if source is not None else None
            if gettext is not None:  # a plural entry's forms are the language's: one key
                paths, source_paths = gettext.keyed(paths), gettext.keyed(source_paths)
            placeholders += sum(1 for leaf in view.leaves.values() if leaf.kind == "placeholder")
            missing += len(source_paths - paths)
            extra += len(paths - source_paths) if sources else 0
        rows.append(
            LocaleRow(
                code=code,
                name=inventory.segments[code][0].name,
                is_source=code == source_code,
                files=[segment.rel for segment in inventory.segments[code]],
                keys=keys,
                placeholders=placeholders,
                missing_from_source=missing,
                extra=extra,
                unreadable=sorted(
                    {
                        issue.path
                        for issue in broken
                        if issue.path in {segment.rel for segment in inventory.segments[code]}
                    }
                ),
            )
        )
    unique: list[Issue] = list(dict.fromkeys(issues))
    data = LocalesListData(
        locales_dir=project.relative(inventory.directory), source=source_code, locales=rows
    )
    return make_envelope(KIND, data, unique, started=started)
