"""`locales list`: every locale of the project with its files and key counts."""

from __future__ import annotations

import time

import msgspec

from i18nprune.envelope import Envelope, Issue, make_envelope
from i18nprune.ops.events import EventSink
from i18nprune.project import ProjectHandle

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


class LocalesListData(msgspec.Struct, frozen=True, rename="camel"):
    locales_dir: str
    source: str
    locales: list[LocaleRow]


async def run(handle: ProjectHandle, options: LocalesListOptions, emit: EventSink) -> Envelope:
    """Inventory the locale files; counts are relative to the source locale."""
    started = time.perf_counter()
    project = handle.open()
    inventory, issues = project.inventory()
    issues = list(issues)
    source_code = project.source_locale()
    source_paths = (
        set(project.load(source_code).leaves) if source_code in inventory.segments else set()
    )
    rows = []
    for code in inventory.locales():
        view = project.load(code)
        issues.extend(view.issues)
        paths = set(view.leaves)
        rows.append(
            LocaleRow(
                code=code,
                name=inventory.segments[code][0].name,
                is_source=code == source_code,
                files=[segment.rel for segment in view.segments],
                keys=len(paths),
                placeholders=sum(1 for leaf in view.leaves.values() if leaf.kind == "placeholder"),
                missing_from_source=len(source_paths - paths),
                extra=len(paths - source_paths) if source_paths else 0,
            )
        )
    unique: list[Issue] = list(dict.fromkeys(issues))
    data = LocalesListData(
        locales_dir=project.relative(inventory.directory), source=source_code, locales=rows
    )
    return make_envelope(KIND, data, unique, started=started)
