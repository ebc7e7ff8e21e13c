"""`op.keys`: the source locale's keys that start with a prefix, with their texts — what an
editor offers while a key is typed (docs/serve.md#editor-ops)."""

from __future__ import annotations

import time
from typing import Annotated

import msgspec
import trio

from i18nprune.envelope import Envelope, Issue, make_envelope
from i18nprune.locales.leaves import Leaf
from i18nprune.ops.engine.events import EventSink
from i18nprune.project import Project, ProjectHandle

KIND = "keys"


class KeysOptions(msgspec.Struct, frozen=True, kw_only=True):
    prefix: Annotated[str, msgspec.Meta(description="keys that start with this text")] = ""
    limit: Annotated[
        int, msgspec.Meta(ge=1, le=10_000, description="at most this many keys (sorted)")
    ] = 100


class KeyEntry(msgspec.Struct, frozen=True):
    key: str
    """As code writes it (`ns:path` with namespaces on)."""
    value: str | None
    """The source text; None for a placeholder (no text yet) and a leaf that is not text."""


class KeysData(msgspec.Struct, frozen=True):
    keys: list[KeyEntry]
    complete: bool
    """False when `limit` cut the list short."""


async def run(handle: ProjectHandle, options: KeysOptions, emit: EventSink) -> Envelope:
    """The source keys starting with `prefix`, sorted, at most `limit` (read off the loop)."""
    started = time.perf_counter()
    data, issues = await trio.to_thread.run_sync(_complete, handle, options, abandon_on_cancel=True)
    return make_envelope(KIND, data, issues, started=started)


def _complete(handle: ProjectHandle, options: KeysOptions) -> tuple[KeysData, list[Issue]]:
    project = handle.open()
    issues = project.readiness()
    matches = sorted(
        (key, leaf) for key, leaf in source_keys(project, issues) if key.startswith(options.prefix)
    )
    shown = matches[: options.limit]
    entries = [KeyEntry(key, text_of(leaf)) for key, leaf in shown]
    return KeysData(entries, complete=len(shown) == len(matches)), issues


def source_keys(project: Project, issues: list[Issue]) -> list[tuple[str, Leaf]]:
    """Every leaf of the source locale with its key as code writes it; the views' issues are
    added to `issues`."""
    syntax = project.key_syntax()
    found: list[tuple[str, Leaf]] = []
    for namespace, view in project.load_namespaces(project.source_locale()).items():
        issues.extend(view.issues)
        found.extend((syntax.display(namespace, path), leaf) for path, leaf in view.leaves.items())
    return found


def text_of(leaf: Leaf) -> str | None:
    """A leaf's text (a structured leaf's `value`); None for a placeholder (the sentinel is no
    text) and for a number, boolean or null."""
    if leaf.kind == "placeholder" or not isinstance(leaf.value, str):
        return None
    return leaf.value
