"""`config`: the resolved configuration, where each value came from, secrets redacted."""

from __future__ import annotations

import time
from typing import Any

import msgspec

from i18nprune.config import redacted_config
from i18nprune.config.i18n_setup import discovered_setups
from i18nprune.envelope import Envelope, make_envelope
from i18nprune.ops.engine.events import EventSink
from i18nprune.project import Project, ProjectHandle
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


class NamespaceScopeShown(msgspec.Struct, frozen=True, rename="camel"):
    """The namespaces keys naming none go to in one folder, and where that was set."""

    src: str
    """The folder, relative to the root (`.`: the whole project, unless a scope below says
    otherwise)."""
    default_namespace: str
    fallback_namespaces: list[str]
    origin: str
    """`default`, `config`, `env`, `flag`, or the set-up file discovery read it from
    (`apps/mobile/src/i18n.ts:12`)."""


class DiscoveredValue(msgspec.Struct, frozen=True, rename="camel"):
    """A value discovery filled (no layer set it), and where it came from."""

    value: Any
    origin: str
    """The set-up file and option it was read from (`next-i18next.config.js:5: defaultNS`),
    the code that shows it, or what it was inferred from."""
    guess: bool
    """Inferred from the tree's shape rather than read from the app's set-up or code."""


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
    namespace_scopes: list[NamespaceScopeShown]
    """With namespaces on: the project's default (and fallback) namespaces (`src` `.`) and each
    `locales.scopes` folder's, with where each came from; empty with namespaces off."""
    discovered: dict[str, DiscoveredValue] = {}
    """Each field discovery filled (camelCase dotted path) → its value and origin."""


def _namespace_scopes(project: Project) -> list[NamespaceScopeShown]:
    """The default namespace of the project and of each scope, with where each came from."""
    locales = project.config.locales
    if locales.namespaces != "file":
        return []
    sources = project.loaded.field_sources
    discovered = {
        setup.folder: setup.origin
        for setup in discovered_setups(project.root, project.config.src_dirs())
        if "discovery" in (sources["locales.defaultNamespace"], sources["locales.scopes"])
    }

    def origin(field: str, folder: str) -> str:
        source = sources[field]
        if source == "discovery":
            finding = project.loaded.findings.get(field) if folder == "." else None
            return discovered.get(folder) or (finding.origin if finding else "discovery")
        return "config" if source == "file" else source

    shown = [
        NamespaceScopeShown(
            ".",
            locales.default_namespace,
            list(locales.fallback_namespaces),
            origin("locales.defaultNamespace", "."),
        )
    ]
    shown += [
        NamespaceScopeShown(
            scope.src,
            scope.default_namespace,
            list(scope.fallback_namespaces),
            origin("locales.scopes", scope.src),
        )
        for scope in locales.scopes
    ]
    return shown


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
        namespace_scopes=_namespace_scopes(project),
        discovered={
            dotted: DiscoveredValue(finding.value, finding.origin, guess=not finding.read)
            for dotted, finding in loaded.findings.items()
        },
    )
    return make_envelope(KIND, data, list(loaded.issues), started=started)
