"""`config`: the resolved configuration, where each value came from, secrets redacted."""

from __future__ import annotations

import time
from typing import Any

import msgspec

from i18nprune.config import redacted_config
from i18nprune.envelope import Envelope, make_envelope
from i18nprune.ops.events import EventSink
from i18nprune.project import ProjectHandle
from i18nprune.scan.message_ids import MessageIdScope

KIND = "config"


class ConfigOptions(msgspec.Struct, frozen=True, kw_only=True):
    """`config` has no options of its own."""


class ResolvedPaths(msgspec.Struct, frozen=True, rename="camel"):
    root: str
    locales_dir: str
    src: str
    """The first source directory (`srcDirs` lists every one)."""
    src_dirs: list[str]
    home: str
    cache_dir: str | None


class ConfigData(msgspec.Struct, frozen=True, rename="camel"):
    config_path: str | None
    config_file_loaded: bool
    config: dict[str, Any]
    resolved_paths: ResolvedPaths
    field_sources: dict[str, str]
    function_sources: dict[str, str]
    env: dict[str, str]
    message_ids: list[MessageIdScope]
    """Where babel-plugin-react-intl-auto gives FormatJS messages their ids: the source folder,
    the Babel config its options were read from, and the options (`null` with the `problem`
    that kept them from being read)."""


async def run(handle: ProjectHandle, options: ConfigOptions, emit: EventSink) -> Envelope:
    """Snapshot the configuration this project runs with."""
    started = time.perf_counter()
    project = handle.open()
    loaded = project.loaded
    cache_dir = project.cache_dir()
    data = ConfigData(
        config_path=str(loaded.config_path) if loaded.config_path else None,
        config_file_loaded=loaded.config_path is not None,
        config=redacted_config(loaded.config),
        resolved_paths=ResolvedPaths(
            root=str(project.root),
            locales_dir=str(project.locales_dir),
            src=str(project.src_dirs[0]),
            src_dirs=[str(path) for path in project.src_dirs],
            home=str(project.home),
            cache_dir=str(cache_dir) if cache_dir else None,
        ),
        field_sources=loaded.field_sources,
        function_sources=loaded.function_sources,
        env=loaded.env,
        message_ids=project.message_id_scopes(),
    )
    return make_envelope(KIND, data, list(loaded.issues), started=started)
