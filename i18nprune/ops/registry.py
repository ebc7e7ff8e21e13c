"""The table of operations every host dispatches from, and the one way to execute an op."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from i18nprune.envelope import Envelope, ProblemError, make_envelope
from i18nprune.ops import (
    cleanup,
    config,
    doctor,
    file,
    generate,
    key,
    key_set,
    keys,
    languages,
    locales_delete,
    locales_dynamic,
    locales_list,
    missing,
    providers,
    quality,
    review,
    sync,
    validate,
    workspace,
)
from i18nprune.ops.events import EventSink
from i18nprune.project import ProjectHandle

OpRun = Callable[[ProjectHandle, Any, EventSink], Awaitable[Envelope]]


@dataclass(frozen=True)
class OpSpec:
    """An operation: its name (`locales.delete`), options, entry point and what it may do."""

    name: str
    options: type[msgspec.Struct]
    run: OpRun
    summary: str
    needs_project: bool = True
    writes: bool = False
    progress: bool = False
    cancellable: bool = False
    """Stops cleanly when cancelled while running (and writes nothing then); other ops, once
    started, finish."""
    command_line: bool = True
    """Whether the CLI has a command for it; editor ops (PROTOCOL §12) are served only."""


OPS: dict[str, OpSpec] = {
    spec.name: spec
    for spec in (
        OpSpec("config", config.ConfigOptions, config.run, "Show the resolved configuration."),
        OpSpec("doctor", doctor.DoctorOptions, doctor.run, "Check environment and configuration."),
        OpSpec(
            "validate",
            validate.ValidateOptions,
            validate.run,
            "Check the keys used in code against the source locale.",
            progress=True,
        ),
        OpSpec(
            "languages",
            languages.LanguagesOptions,
            languages.run,
            "List the language catalog.",
            needs_project=False,
        ),
        OpSpec(
            "providers",
            providers.ProvidersOptions,
            providers.run,
            "List translation providers, their settings and environment variables.",
            needs_project=False,
        ),
        OpSpec(
            "locales.list",
            locales_list.LocalesListOptions,
            locales_list.run,
            "List locales, their files and key counts.",
        ),
        OpSpec(
            "locales.dynamic",
            locales_dynamic.LocalesDynamicOptions,
            locales_dynamic.run,
            "List dynamic key sites and the prefixes they protect.",
        ),
        OpSpec(
            "missing",
            missing.MissingOptions,
            missing.run,
            "Add keys the code uses but a locale lacks, as placeholders.",
            writes=True,
        ),
        OpSpec(
            "sync",
            sync.SyncOptions,
            sync.run,
            "Align target locales with the source: add missing keys, prune extra ones.",
            writes=True,
            progress=True,
        ),
        OpSpec(
            "generate",
            generate.GenerateOptions,
            generate.run,
            "Machine-translate what target locales lack.",
            writes=True,
            progress=True,
            cancellable=True,
        ),
        OpSpec(
            "cleanup",
            cleanup.CleanupOptions,
            cleanup.run,
            "Remove keys the code does not use.",
            writes=True,
        ),
        OpSpec(
            "locales.delete",
            locales_delete.LocalesDeleteOptions,
            locales_delete.run,
            "Delete a target locale's files (never the source).",
            writes=True,
        ),
        OpSpec(
            "quality",
            quality.QualityOptions,
            quality.run,
            "Find problems in existing translations (placeholders, plurals, untranslated text).",
        ),
        OpSpec(
            "review",
            review.ReviewOptions,
            review.run,
            "List translations marked needsReview; --accept clears the mark.",
            writes=True,
        ),
        OpSpec(
            "workspace",
            workspace.WorkspaceOptions,
            workspace.run,
            "List the projects of the workspace at the root.",
        ),
        OpSpec(
            "file",
            file.FileOptions,
            file.run,
            "Diagnostics and key sites of one source file (of an unsaved buffer when given).",
            command_line=False,
        ),
        OpSpec(
            "key",
            key.KeyOptions,
            key.run,
            "One key: its text in every locale, its definitions and its usages.",
            command_line=False,
        ),
        OpSpec(
            "keys",
            keys.KeysOptions,
            keys.run,
            "Source-locale keys that start with a prefix (completion).",
            command_line=False,
        ),
        OpSpec(
            "key.set",
            key_set.KeySetOptions,
            key_set.run,
            "Set one leaf of one locale (an editor's quick fix).",
            writes=True,
            command_line=False,
        ),
    )
}


async def execute(
    spec: OpSpec, handle: ProjectHandle, options: msgspec.Struct, emit: EventSink
) -> Envelope:
    """Run an op; a user's mistake that stops it early becomes an `ok:false` envelope."""
    started = time.perf_counter()
    try:
        return await spec.run(handle, options, emit)
    except ProblemError as exc:
        return make_envelope(spec.name, None, exc.issues, started=started)
