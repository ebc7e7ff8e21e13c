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
from typing import TYPE_CHECKING, Any, cast

import msgspec

from i18nprune.envelope import Envelope, ProblemError, make_envelope

if TYPE_CHECKING:
    from i18nprune.ops.events import EventSink
    from i18nprune.project import ProjectHandle

    OpRun = Callable[[ProjectHandle, Any, EventSink], Awaitable[Envelope]]


@dataclass(frozen=True)
class OpSpec:
    """An operation: its name (`locales.delete`), where it is defined, and what it may do."""

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

    @property
    def options(self) -> type[msgspec.Struct]:
        """The op's options Struct (imports the op's module on first use)."""
        return cast("type[msgspec.Struct]", getattr(self.load(), self.options_name))

    @property
    def run(self) -> OpRun:
        """The op's entry point (imports the op's module on first use)."""
        return cast("OpRun", self.load().run)

    def load(self) -> ModuleType:
        """The op's module, imported now if it was not yet."""
        return importlib.import_module(f"i18nprune.ops.{self.module}")


OPS: dict[str, OpSpec] = {
    spec.name: spec
    for spec in (
        OpSpec("config", "config", "ConfigOptions", "Show the resolved configuration."),
        OpSpec("doctor", "doctor", "DoctorOptions", "Check environment and configuration."),
        OpSpec(
            "validate",
            "validate",
            "ValidateOptions",
            "Check the keys used in code against the source locale.",
            progress=True,
            inline=True,
        ),
        OpSpec(
            "languages",
            "languages",
            "LanguagesOptions",
            "List the language catalog.",
            needs_project=False,
        ),
        OpSpec(
            "providers",
            "providers",
            "ProvidersOptions",
            "List translation providers, their settings and environment variables.",
            needs_project=False,
        ),
        OpSpec(
            "locales.list",
            "locales_list",
            "LocalesListOptions",
            "List locales, their files and key counts.",
        ),
        OpSpec(
            "locales.dynamic",
            "locales_dynamic",
            "LocalesDynamicOptions",
            "List dynamic key sites and the prefixes they protect.",
        ),
        OpSpec(
            "missing",
            "missing",
            "MissingOptions",
            "Add keys the code uses but a locale lacks, as placeholders.",
            writes=True,
        ),
        OpSpec(
            "sync",
            "sync",
            "SyncOptions",
            "Align target locales with the source: add missing keys, prune extra ones.",
            writes=True,
            progress=True,
        ),
        OpSpec(
            "generate",
            "generate",
            "GenerateOptions",
            "Machine-translate what target locales lack.",
            writes=True,
            progress=True,
            cancellable=True,
        ),
        OpSpec(
            "cleanup",
            "cleanup",
            "CleanupOptions",
            "Remove keys the code does not use.",
            writes=True,
        ),
        OpSpec(
            "locales.delete",
            "locales_delete",
            "LocalesDeleteOptions",
            "Delete a target locale's files (never the source).",
            writes=True,
        ),
        OpSpec(
            "quality",
            "quality",
            "QualityOptions",
            "Find problems in existing translations (placeholders, plurals, untranslated text).",
        ),
        OpSpec(
            "review",
            "review",
            "ReviewOptions",
            "List translations marked needsReview; --accept clears the mark.",
            writes=True,
        ),
        OpSpec(
            "workspace",
            "workspace",
            "WorkspaceOptions",
            "List the projects of the workspace at the root.",
        ),
        OpSpec(
            "file",
            "file",
            "FileOptions",
            "Diagnostics and key sites of one source file (of an unsaved buffer when given).",
            command_line=False,
        ),
        OpSpec(
            "key",
            "key",
            "KeyOptions",
            "One key: its text in every locale, its definitions and its usages.",
            command_line=False,
        ),
        OpSpec(
            "keys",
            "keys",
            "KeysOptions",
            "Source-locale keys that start with a prefix (completion).",
            command_line=False,
        ),
        OpSpec(
            "key.set",
            "key_set",
            "KeySetOptions",
            "Set one leaf of one locale (an editor's quick fix).",
            writes=True,
            command_line=False,
        ),
    )
}


def load_every_op() -> None:
    """Import every op's module now. A long-lived host (`serve`) does it before it answers
    anyone: an import on the event loop would hold up every request queued behind it."""
    for spec in OPS.values():
        spec.load()


async def execute(
    spec: OpSpec, handle: ProjectHandle, options: msgspec.Struct, emit: EventSink
) -> Envelope:
    """Run an op; a user's mistake that stops it early becomes an `ok:false` envelope."""
    started = time.perf_counter()
    try:
        return await spec.run(handle, options, emit)
    except ProblemError as exc:
        return make_envelope(spec.name, None, exc.issues, started=started)
