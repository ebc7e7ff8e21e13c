"""`locales delete`: remove a target locale's files; the source locale can never be deleted."""

from __future__ import annotations

import time
from typing import Annotated

import msgspec

from i18nprune.envelope import Code, Envelope, Issue, error, has_errors, make_envelope
from i18nprune.locales.jsondoc import delete_locale_file
from i18nprune.ops.engine.events import EventSink
from i18nprune.ops.shared.targets import select_targets
from i18nprune.project import ProjectHandle
from i18nprune.reference import source_gate

KIND = "locales.delete"


class LocalesDeleteOptions(msgspec.Struct, frozen=True, kw_only=True):
    target: Annotated[
        list[str] | None, msgspec.Meta(description="the target locale(s) to delete")
    ] = None
    dry_run: Annotated[bool, msgspec.Meta(description="list the files, delete nothing")] = False
    yes: Annotated[bool, msgspec.Meta(description="confirm the deletion")] = False


class LocalesDeleteData(msgspec.Struct, frozen=True, rename="camel"):
    targets: list[str]
    files: list[str]
    deleted: list[str]
    dry_run: bool
    locale_names: dict[str, str] = {}
    """Each of `targets` (normalised: `pt-br`) → how the project spells it (`pt_BR`)."""


async def run(handle: ProjectHandle, options: LocalesDeleteOptions, emit: EventSink) -> Envelope:
    """Delete every segment of the named target locales (never the source)."""
    started = time.perf_counter()
    project = handle.open()
    issues: list[Issue] = []
    if not options.target or any(t.strip().lower() == "all" for t in options.target):
        issues.append(
            error(
                Code.TARGET_REQUIRED,
                "name the locale(s) to delete with --target (e.g. --target fr); `all` is not "
                "accepted here",
            )
        )
        return make_envelope(
            KIND, LocalesDeleteData([], [], [], options.dry_run), issues, started=started
        )
    targets, target_issues = select_targets(project, options.target)
    issues.extend(target_issues)
    for source in project.load_namespaces(project.source_locale()).values():
        issues.extend(source.issues)
        refusal = source_gate(KIND, source)
        if refusal is not None:
            issues.append(refusal)
    inventory, _ = project.inventory()
    segments = [segment for t in targets for segment in inventory.segments.get(t.code, [])]
    files = [segment.rel for segment in segments]
    if not options.dry_run and not options.yes and segments:
        issues.append(
            error(
                Code.CONFIRMATION_REQUIRED,
                f"deleting {len(files)} file(s) needs confirmation: pass --yes (or --dry-run)",
            )
        )
    deleted = []
    if not options.dry_run and not has_errors(issues):
        for segment in segments:
            delete_locale_file(segment.path, root=project.root, locales_dir=inventory.directory)
            deleted.append(segment.rel)
    names = {t.code: t.name for t in targets}
    data = LocalesDeleteData([t.code for t in targets], files, deleted, options.dry_run, names)
    return make_envelope(KIND, data, issues, started=started)
