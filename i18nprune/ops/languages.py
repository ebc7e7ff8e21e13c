"""`languages`: the language catalog (CLDR via Babel); needs no project."""

from __future__ import annotations

import time
from typing import Annotated

import msgspec

from i18nprune.envelope import Envelope, make_envelope
from i18nprune.locales.catalog import all_languages, filter_languages
from i18nprune.ops.engine.events import EventSink
from i18nprune.ops.engine.offload import run_blocking
from i18nprune.project import ProjectHandle

KIND = "languages"


class LanguagesOptions(msgspec.Struct, frozen=True, kw_only=True):
    filter: Annotated[
        str | None, msgspec.Meta(description="only rows whose code or name contains this text")
    ] = None


async def run(handle: ProjectHandle, options: LanguagesOptions, emit: EventSink) -> Envelope:
    """List catalog rows, optionally filtered; `data` is the array of rows."""
    started = time.perf_counter()
    # Off the loop: with another Babel than the generated names', the catalog is built from
    # Babel's data on first use (two seconds).
    rows = await run_blocking(
        lambda: filter_languages(options.filter) if options.filter else all_languages()
    )
    return make_envelope(KIND, rows, [], started=started)
