"""The table of operations every host dispatches from, and the one way to execute an op.

The table names each op's module instead of importing it: a command imports only the op it
runs (start-up is part of every short command); `serve` imports them all once, at start.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

import msgspec

from i18nprune.envelope import Envelope, ProblemError, make_envelope

if TYPE_CHECKING:
    from i18nprune.ops.cleanup import CleanupOptions
    from i18nprune.ops.config import ConfigOptions
    from i18nprune.ops.doctor import DoctorOptions
    from i18nprune.ops.engine.events import EventSink
    from i18nprune.ops.file import FileOptions
    from i18nprune.ops.generate import GenerateOptions
    from i18nprune.ops.key import KeyOptions
    from i18nprune.ops.key_set import KeySetOptions
    from i18nprune.ops.keys import KeysOptions
    from i18nprune.ops.languages import LanguagesOptions
    from i18nprune.ops.locales_delete import LocalesDeleteOptions
    from i18nprune.ops.locales_dynamic import LocalesDynamicOptions
    from i18nprune.ops.locales_list import LocalesListOptions
    from i18nprune.ops.missing import MissingOptions
    from i18nprune.ops.providers import ProvidersOptions
    from i18nprune.ops.quality import QualityOptions
    from i18nprune.ops.report import ReportOptions
    from i18nprune.ops.review import ReviewOptions
    from i18nprune.ops.sync import SyncOptions
    from i18nprune.ops.validate import ValidateOptions
    from i18nprune.ops.workspace import WorkspaceOptions
    from i18nprune.project import ProjectHandle

Opts = TypeVar("Opts", bound=msgspec.Struct)
"""An op's options Struct."""

OpRun = Callable[["ProjectHandle", Opts, "EventSink"], Awaitable[Envelope]]
"""An op's entry point: `run(handle, options, emit)`."""


@dataclass(frozen=True)
class OpSpec(Generic[Opts]):
    """An operation: its name (`locales.delete`), where it is defined, and what it may do;
    generic over its options Struct, so `options` and `run` are typed where the spec is named
    (`OPS` holds every spec, each as `OpSpec[Any]`: its options are known once it is looked
    up)."""

    name: str
    module: str
    """Its module in `i18nprune.ops` (`locales_delete`), which defines `run` and the options."""
    options_name: str
    """The name of its options Struct in that module."""
    summary: str
    needs_project: bool = True
    writes: bool = False
    progress: bool = False
    cancellable: bool = False
    """Stops cleanly when cancelled while running (and writes nothing then); other ops, once
    started, finish."""
    command_line: bool = True
    """Whether the CLI has a command for it; editor ops (docs/serve.md#editor-ops) are served
    only."""
    inline: bool = False
    """Awaits nothing but `offload.run_blocking`, so a command runs it without an event loop
    (`offload.run_inline`) and without importing trio."""
    workspace_changes: bool = False
    """Its module defines `workspace_changes(request, workspace, options)`, which a workspace
    run calls once, off the loop, before any project runs: what changed across the workspace
    (`report --baseline`: the projects new and gone since the baseline) for
    `WorkspaceRun.changes`, and issues; an error among them stops the run there."""

    @property
    def options(self) -> type[Opts]:
        """The op's options Struct (imports the op's module on first use)."""
        return cast("type[Opts]", getattr(self.load(), self.options_name))

    @property
    def run(self) -> OpRun[Opts]:
        """The op's entry point (imports the op's module on first use)."""
        return cast("OpRun[Opts]", self.load().run)

    def load(self) -> ModuleType:
        """The op's module, imported now if it was not yet."""
        return importlib.import_module(f"i18nprune.ops.{self.module}")


CONFIG: OpSpec[ConfigOptions] = OpSpec(
    "config", "config", "ConfigOptions", "Show the resolved configuration."
)
DOCTOR: OpSpec[DoctorOptions] = OpSpec(
    "doctor", "doctor", "DoctorOptions", "Check environment and configuration.", inline=True
)
VALIDATE: OpSpec[ValidateOptions] = OpSpec(
    "validate",
    "validate",
    "ValidateOptions",
    "Check the keys used in code against the source locale.",
    progress=True,
    inline=True,
)
LANGUAGES: OpSpec[LanguagesOptions] = OpSpec(
    "languages",
    "languages",
    "LanguagesOptions",
    "List the language catalog.",
    needs_project=False,
    inline=True,
)
PROVIDERS: OpSpec[ProvidersOptions] = OpSpec(
    "providers",
    "providers",
    "ProvidersOptions",
    "List translation providers, their settings and environment variables.",
    needs_project=False,
)
LOCALES_LIST: OpSpec[LocalesListOptions] = OpSpec(
    "locales.list",
    "locales_list",
    "LocalesListOptions",
    "List locales, their files and key counts.",
)
LOCALES_DYNAMIC: OpSpec[LocalesDynamicOptions] = OpSpec(
    "locales.dynamic",
    "locales_dynamic",
    "LocalesDynamicOptions",
    "List dynamic key sites and the prefixes they protect.",
    inline=True,
)
MISSING: OpSpec[MissingOptions] = OpSpec(
    "missing",
    "missing",
    "MissingOptions",
    "Add keys the code uses but a locale lacks, as placeholders.",
    writes=True,
)
SYNC: OpSpec[SyncOptions] = OpSpec(
    "sync",
    "sync",
    "SyncOptions",
    "Align target locales with the source: add missing keys, prune extra ones.",
    writes=True,
    progress=True,
)
GENERATE: OpSpec[GenerateOptions] = OpSpec(
    "generate",
    "generate",
    "GenerateOptions",
    "Machine-translate what target locales lack.",
    writes=True,
    progress=True,
    cancellable=True,
)
CLEANUP: OpSpec[CleanupOptions] = OpSpec(
    "cleanup",
    "cleanup",
    "CleanupOptions",
    "Remove keys the code does not use.",
    writes=True,
)
LOCALES_DELETE: OpSpec[LocalesDeleteOptions] = OpSpec(
    "locales.delete",
    "locales_delete",
    "LocalesDeleteOptions",
    "Delete a target locale's files (never the source).",
    writes=True,
)
QUALITY: OpSpec[QualityOptions] = OpSpec(
    "quality",
    "quality",
    "QualityOptions",
    "Find problems in existing translations (placeholders, plurals, untranslated text).",
    inline=True,
)
REVIEW: OpSpec[ReviewOptions] = OpSpec(
    "review",
    "review",
    "ReviewOptions",
    "List translations marked needsReview; --accept clears the mark.",
    writes=True,
)
REPORT: OpSpec[ReportOptions] = OpSpec(
    "report",
    "report",
    "ReportOptions",
    "One document of the translations' state: coverage, keys to act on, changes since a "
    "baseline (a page with --out report.html).",
    inline=True,
    workspace_changes=True,
)
WORKSPACE: OpSpec[WorkspaceOptions] = OpSpec(
    "workspace",
    "workspace",
    "WorkspaceOptions",
    "List the projects of the workspace at the root.",
)
FILE: OpSpec[FileOptions] = OpSpec(
    "file",
    "file",
    "FileOptions",
    "Diagnostics and key sites of one source file (of an unsaved buffer when given).",
    command_line=False,
)
KEY: OpSpec[KeyOptions] = OpSpec(
    "key",
    "key",
    "KeyOptions",
    "One key: its text in every locale, its definitions and its usages.",
    command_line=False,
)
KEYS: OpSpec[KeysOptions] = OpSpec(
    "keys",
    "keys",
    "KeysOptions",
    "Source-locale keys that start with a prefix (completion).",
    command_line=False,
)
KEY_SET: OpSpec[KeySetOptions] = OpSpec(
    "key.set",
    "key_set",
    "KeySetOptions",
    "Set one leaf of one locale (an editor's quick fix).",
    writes=True,
    command_line=False,
)

OPS: dict[str, OpSpec[Any]] = {
    spec.name: spec
    for spec in (
        CONFIG,
        DOCTOR,
        VALIDATE,
        LANGUAGES,
        PROVIDERS,
        LOCALES_LIST,
        LOCALES_DYNAMIC,
        MISSING,
        SYNC,
        GENERATE,
        CLEANUP,
        LOCALES_DELETE,
        QUALITY,
        REVIEW,
        REPORT,
        WORKSPACE,
        FILE,
        KEY,
        KEYS,
        KEY_SET,
    )
}


def load_every_op() -> None:
    """Import every op's module now. A long-lived host (`serve`) does it before it answers
    anyone: an import on the event loop would hold up every request queued behind it."""
    for spec in OPS.values():
        spec.load()


async def execute(
    spec: OpSpec[Opts], handle: ProjectHandle, options: Opts, emit: EventSink
) -> Envelope:
    """Run an op; a user's mistake that stops it early becomes an `ok:false` envelope."""
    started = time.perf_counter()
    try:
        return await spec.run(handle, options, emit)
    except ProblemError as exc:
        return make_envelope(spec.name, None, exc.issues, started=started)
