"""`validate`: the keys the code uses against the source locale."""

from __future__ import annotations

import time

import msgspec

from i18nprune.envelope import Code, Envelope, Issue, error, make_envelope, warning
from i18nprune.ops.events import EventSink, ProgressEvent
from i18nprune.ops.scanning import scan_code
from i18nprune.ops.suggestions import Suggestion, suggest
from i18nprune.project import ProjectHandle
from i18nprune.reference import KeyReference
from i18nprune.scan import ScanResult

KIND = "validate"


class ValidateOptions(msgspec.Struct, frozen=True, kw_only=True):
    """`validate` has no options of its own; the global flags shape the project."""


class Count(msgspec.Struct, frozen=True):
    count: int


class DynamicCounts(msgspec.Struct, frozen=True):
    count: int
    active: int
    commented: int


class ValidateData(msgspec.Struct, frozen=True, rename="camel"):
    source_locale: str
    files_scanned: int
    missing: list[str]
    count: int
    key_observations: Count
    dynamic: DynamicCounts
    suggestions: list[Suggestion]


def missing_keys(scan: ScanResult, reference: KeyReference, paths: set[str]) -> list[str]:
    """Literal code keys that no path of the locale satisfies (plural and context forms count)."""
    missing = set()
    for observation in scan.observations:
        if reference.is_present(observation.key, paths):
            continue
        context = observation.context
        if (
            context
            and context != "*"
            and reference.is_present(f"{observation.key}_{context}", paths)
        ):
            continue
        missing.add(observation.key)
    return sorted(missing)


def dynamic_counts(scan: ScanResult) -> DynamicCounts:
    commented = sum(1 for site in scan.dynamic if site.kind == "commented")
    return DynamicCounts(
        count=len(scan.dynamic), active=len(scan.dynamic) - commented, commented=commented
    )


async def run(handle: ProjectHandle, options: ValidateOptions, emit: EventSink) -> Envelope:
    """Compare code keys with the source locale; `ok` is false when keys are missing."""
    started = time.perf_counter()
    project = handle.open()
    issues: list[Issue] = project.readiness()
    scan, reference = await scan_code(project, KIND, emit)
    issues.extend(scan.issues)
    emit(ProgressEvent(type=f"run.progress.{KIND}", phase="compare"))
    source = project.load(project.source_locale())
    issues.extend(source.issues)
    paths = set(source.leaves)
    missing = missing_keys(scan, reference, paths)
    counts = dynamic_counts(scan)
    if missing:
        shown = ", ".join(missing[:5]) + (", …" if len(missing) > 5 else "")
        issues.append(
            error(
                Code.VALIDATE_MISSING,
                f"{len(missing)} key(s) used in code are missing from the source locale "
                f"`{source.locale}`: {shown}",
            )
        )
    if counts.active:
        issues.append(
            warning(
                Code.VALIDATE_DYNAMIC,
                f"{counts.active} dynamic key site(s) cannot be checked statically; their "
                "prefixes are protected (see `i18nprune locales dynamic`)",
            )
        )
    emit(ProgressEvent(type=f"run.progress.{KIND}", phase="done"))
    data = ValidateData(
        source_locale=source.locale,
        files_scanned=scan.files,
        missing=missing,
        count=len(missing),
        key_observations=Count(len(scan.observations)),
        dynamic=counts,
        suggestions=suggest(project, reference, source, missing),
    )
    return make_envelope(KIND, data, issues, started=started)
