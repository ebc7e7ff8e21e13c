"""The resolved project: root, configuration, confined paths, caches and readiness checks."""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from i18nprune.config import ConfigOverrides, LoadedConfig, load_config, resolve_root
from i18nprune.config.detect.packages import repository_root
from i18nprune.config.lookup import confine
from i18nprune.config.presets import TRANSLOCO_NAMES
from i18nprune.config.schema import Config
from i18nprune.envelope import Code, Issue, error, warning
from i18nprune.keys import KeySyntax
from i18nprune.locale_codes import normalize_code
from i18nprune.locales.derived import DerivedCounts
from i18nprune.locales.editor import LocaleEditor
from i18nprune.locales.layout import (
    LocaleInventory,
    Segment,
    discover_locales,
    namespace_segment_path,
    segment_namespace,
)
from i18nprune.locales.view import LocaleView, load_locale, read_segments
from i18nprune.scan import RepositoryScope, ScanOptions
from i18nprune.scan.callees import callee_names
from i18nprune.scan.message_ids import MessageIdScope
from i18nprune.scan.records import ScopeRule
from i18nprune.system.digests import sha256


class ProjectRequest(msgspec.Struct, frozen=True, kw_only=True):
    """What a host knows when it asks for a project: where, which config, which overrides."""

    cwd: Path
    project: Path | None = None
    config_file: Path | None = None
    overrides: ConfigOverrides = ConfigOverrides()
    no_cache: bool = False
    read_only: bool = False
    workspace_folder: str | None = None
    """The project's folder relative to the workspace root, POSIX-style, when the host opened it
    as one project of a workspace (`--workspace`, a server at a workspace root): its name there
    (`report` matches a saved workspace report's projects by it)."""


def user_home(env: Mapping[str, str]) -> Path:
    """The user data/cache home: `I18NPRUNE_HOME`, else `~/.i18nprune`."""
    configured = env.get("I18NPRUNE_HOME")
    return Path(configured).expanduser() if configured else Path.home() / ".i18nprune"


def command_line(
    root: Path, cwd: Path | None, arguments: str, config_file: Path | None = None
) -> str:
    """An `i18nprune` command line for the project at `root`, as it works from `cwd` (None: the
    root itself): with `-C` when `cwd` is not the root, and `-c` when a config file is named."""
    words = ["i18nprune"]
    here = Path(os.path.realpath(cwd)) if cwd is not None else root
    if here != root:
        words += ["-C", shlex.quote(os.path.relpath(root, here))]
    if config_file is not None:
        words += ["-c", shlex.quote(os.path.relpath(config_file, here))]
    return " ".join([*words, arguments])


@dataclass
class Project:
    """A project as one run sees it; locale inventory is read lazily and kept for the run."""

    loaded: LoadedConfig
    home: Path
    cache_enabled: bool
    read_only: bool
    env: Mapping[str, str]
    cwd: Path | None = None
    """Where the host runs from: commands that a run suggests name the project from there."""
    config_file: Path | None = None
    """The config file the host named explicitly (`-c`), if it did."""
    _inventory: tuple[LocaleInventory, list[Issue]] | None = field(default=None, repr=False)
    _message_ids: list[MessageIdScope] | None = field(default=None, repr=False)
    _by_namespace: dict[str, dict[str, list[Segment]]] = field(default_factory=dict, repr=False)
    _derived: DerivedCounts | None = field(default=None, repr=False)

    @property
    def root(self) -> Path:
        return self.loaded.root

    @property
    def config(self) -> Config:
        return self.loaded.config

    @property
    def locales_dir(self) -> Path:
        return confine(self.root, self.config.locales.directory, "locales.directory")

    @property
    def src_dirs(self) -> list[Path]:
        """The source directories, each confined to the root."""
        return [confine(self.root, src, "src") for src in self.config.src_dirs()]

    def command(self, arguments: str) -> str:
        """An `i18nprune` command line to suggest, as it works from where the host runs: with
        `-C` when that is not the project root, and `-c` when the config was named."""
        return command_line(self.root, self.cwd, arguments, self.config_file)

    def relative(self, path: Path) -> str:
        """`path` relative to the root, with forward slashes (how every issue names a file)."""
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return str(path)

    def derived_counts(self) -> DerivedCounts:
        """The counts this run derives from locale files, kept between runs (see
        `DerivedCounts`); the op that counts saves them."""
        if self._derived is None:
            self._derived = DerivedCounts(self.cache_dir(), writable=not self.read_only)
        return self._derived

    def cache_dir(self) -> Path | None:
        """Where this project's caches live, or None when caching is off."""
        if not self.cache_enabled:
            return None
        if self.config.cache.dir:
            return Path(self.config.cache.dir).expanduser().joinpath(_root_digest(self.root))
        return self.home / "cache" / _root_digest(self.root)

    def repository_scope(self) -> RepositoryScope | None:
        """Where repository-wide literal evidence is read (`reference.repository`), or None
        when it is off: the repository holding the project, minus the project's locale files
        and config file."""
        settings = self.config.reference.repository
        if not settings.enabled:
            return None
        root = repository_root(self.root)
        inventory, _ = self.inventory()
        skip = {
            os.path.realpath(segment.path)
            for segments in inventory.segments.values()
            for segment in segments
        }
        if self.loaded.config_path is not None:
            skip.add(os.path.realpath(self.loaded.config_path))
        return RepositoryScope(
            root=root,
            folders=list(settings.folders),
            exclude=list(settings.exclude),
            skip=frozenset(skip),
            cache_dir=self.cache_dir(),
        )

    def scan_options(self, literal_texts: dict[int, str] | None = None) -> ScanOptions:
        """How to scan this project; `literal_texts` are the texts whose quoted occurrences the
        scan should list (see `ScanOptions`)."""
        return ScanOptions(
            root=self.root,
            src_dirs=self.src_dirs,
            functions=callee_names(
                self.config.functions,
                self.config.hooks,
                self.config.trans_components,
                self.config.ignore_functions,
            ),
            exclude=self.config.exclude,
            syntax=self.key_syntax(),
            literal_texts=literal_texts,
            cache_dir=self.cache_dir(),
            cache_writable=not self.read_only,
            repository=self.repository_scope() if literal_texts else None,
            scopes=self.scope_rules(),
            message_ids=self.message_id_scopes(),
        )

    def message_id_scopes(self) -> list[MessageIdScope]:
        """Where babel-plugin-react-intl-auto gives FormatJS messages their ids, read from the
        project's Babel config once per run."""
        if self._message_ids is None:
            from i18nprune.babel_config import message_id_scopes

            self._message_ids = message_id_scopes(self.root, self.src_dirs)
        return self._message_ids

    def scope_rules(self) -> list[ScopeRule]:
        """Where keys that name no namespace go, by folder (`locales.defaultNamespace`,
        `fallbackNamespaces` and `scopes`); none with namespaces off, or when every folder has
        the project's default alone."""
        locales = self.config.locales
        if locales.namespaces != "file" or not (locales.scopes or locales.fallback_namespaces):
            return []
        rules = [ScopeRule("", locales.default_namespace, list(locales.fallback_namespaces))]
        for scope in locales.scopes:
            folder = confine(self.root, scope.src, "locales.scopes[].src")
            rules.append(
                ScopeRule(
                    self.relative(folder) if folder != self.root else "",
                    scope.default_namespace,
                    list(scope.fallback_namespaces),
                )
            )
        return rules

    def key_syntax(self) -> KeySyntax:
        """How code keys name this project's locale paths (separators, namespaces)."""
        names = [name for name in self.namespaces() if name is not None]
        syntax = KeySyntax.of(self.config.locales, frozenset(names))
        if any(name in TRANSLOCO_NAMES for name in self.config.functions):
            syntax = msgspec.structs.replace(syntax, key_references=True)
        return syntax

    def editor(self, view: LocaleView) -> LocaleEditor:
        """The writer for edits to `view`, with this project's key syntax."""
        return LocaleEditor(self.root, view, literal_keys=self.key_syntax().key_separator is None)

    def namespaces(self) -> list[str | None]:
        """The namespaces keys live in: the source locale's, when `locales.namespaces` is
        `file`; else `[None]`, the one unnamed namespace."""
        if self.config.locales.namespaces != "file":
            return [None]
        inventory, _ = self.inventory()
        segments = inventory.segments.get(self.source_locale(), [])
        found: list[str | None] = [*sorted({self.namespace_of(segment) for segment in segments})]
        return found or [self.config.locales.default_namespace]

    def namespace_of(self, segment: Segment) -> str:
        inventory, _ = self.inventory()
        return segment_namespace(inventory, segment, self.config.locales)

    def namespace_file(self, locale_name: str, namespace: str) -> Path:
        """Where `locale_name`'s file of `namespace` is created when it has none."""
        inventory, _ = self.inventory()
        return namespace_segment_path(inventory, locale_name, namespace, self.config.locales)

    def inventory(self) -> tuple[LocaleInventory, list[Issue]]:
        """Every locale segment, read once per run. Raises ProblemError when
        `locales.directory` resolves outside the root: nothing is read from there either."""
        if self._inventory is None:
            confine(self.root, self.config.locales.directory, "locales.directory")
            self._inventory = discover_locales(self.root, self.config.locales)
        return self._inventory

    def source_locale(self) -> str:
        return normalize_code(self.config.locales.source)

    def locale_name(self, locale: str) -> str:
        """`locale` (a code in any spelling) as the project spells it, for messages and human
        output (codes are compared normalised: `pt_BR` is `pt-br`): the name of its files or
        folder (`pt_BR`), else, for the source, `locales.source` as written (`en_US`), else
        `locale` as given (a new target as the user typed it)."""
        code = normalize_code(locale)
        inventory, _ = self.inventory()
        segments = inventory.segments.get(code)
        if segments:
            return segments[0].name
        if code == self.source_locale():
            return self.config.locales.source.strip()
        return locale.strip()

    def locale_names(self, locales: Iterable[str]) -> dict[str, str]:
        """Each of `locales` (normalised codes) → `locale_name` (`data.localeNames`)."""
        return {code: self.locale_name(code) for code in locales}

    def load_namespaces(self, locale: str) -> dict[str | None, LocaleView]:
        """One locale's view of each namespace of the source (one view, `None`, with
        namespaces off)."""
        return {namespace: self.load(locale, namespace) for namespace in self.namespaces()}

    def load(self, locale: str, namespace: str | None = None) -> LocaleView:
        """One locale's leaves: all of them, or with `namespace`, those of that namespace.

        With namespaces on, the leaves of different namespaces are different keys: callers
        that compare paths load each namespace (`load_namespaces`).
        """
        placeholder = self.config.missing.placeholder
        code = normalize_code(locale)
        source = code == self.source_locale()
        inventory, _ = self.inventory()
        if namespace is None:
            return load_locale(inventory, code, placeholder, source=source)
        return read_segments(
            code,
            self.segments(code, namespace),
            placeholder,
            namespace,
            inventory.key_root,
            source=source,
        )

    def segments(self, locale: str, namespace: str | None = None) -> list[Segment]:
        """The files `load(locale, namespace)` reads, in `rel` order."""
        if namespace is None:
            inventory, _ = self.inventory()
            return inventory.segments.get(normalize_code(locale), [])
        return self.segments_by_namespace(locale).get(namespace, [])

    def segments_by_namespace(self, locale: str) -> dict[str, list[Segment]]:
        """`locale`'s segments by the namespace each holds (`namespace_of`), in `rel` order;
        grouped once per run (a locale of 80 namespace files is loaded 80 times)."""
        code = normalize_code(locale)
        grouped = self._by_namespace.get(code)
        if grouped is None:
            inventory, _ = self.inventory()
            grouped = {}
            for segment in inventory.segments.get(code, []):
                grouped.setdefault(self.namespace_of(segment), []).append(segment)
            self._by_namespace[code] = grouped
        return grouped

    def _scope_namespace_warnings(self) -> list[Issue]:
        """A scope whose default namespace has no file in the source locale (its keys would
        all look missing)."""
        locales = self.config.locales
        inventory, _ = self.inventory()
        if locales.namespaces != "file" or self.source_locale() not in inventory.segments:
            return []
        known = set(self.namespaces())
        return [
            warning(
                Code.DEFAULT_NAMESPACE_MISSING,
                f"locales.scopes: `{scope.src}` sends keys to namespace "
                f"`{scope.default_namespace}`, which has no file in the source locale "
                f"(namespaces: {', '.join(sorted(str(n) for n in known))}); check that app's "
                "`defaultNS`",
                scope.src,
            )
            for scope in locales.scopes
            if scope.default_namespace not in known
        ]

    def guessed_configuration(self) -> str | None:
        """Why this run's configuration is a guess rather than what someone wrote: no config
        file, or values discovery found; None when a config file set everything used."""
        if self.loaded.config_path is None:
            return "no config file"
        guessed = [
            key
            for key, source in self.loaded.field_sources.items()
            if source == "discovery" and key not in _READ_FROM_THE_APP
        ]
        if guessed:
            return f"{', '.join(sorted(guessed))} found by discovery"
        return None

    def readiness(self) -> list[Issue]:
        """Problems that make the project unfit to run on, plus the loader's notes."""
        issues = list(self.loaded.issues)
        for src, directory in zip(self.config.src_dirs(), self.src_dirs, strict=True):
            if not directory.is_dir():
                issues.append(
                    warning(
                        Code.SRC_MISSING,
                        f"source directory `{src}` does not exist; set `src` in the config or "
                        "pass --src",
                        src,
                    )
                )
        inventory, inventory_issues = self.inventory()
        issues.extend(inventory_issues)
        issues.extend(self._scope_namespace_warnings())
        default = self.config.locales.default_namespace
        if (
            self.config.locales.namespaces == "file"
            and self.source_locale() in inventory.segments
            and default not in self.namespaces()
        ):
            issues.append(
                warning(
                    Code.DEFAULT_NAMESPACE_MISSING,
                    f"locales.defaultNamespace `{default}` has no file in the source locale "
                    f"(namespaces: {', '.join(str(n) for n in self.namespaces())}); keys that "
                    "name no namespace are looked up there — set it to the namespace your "
                    "i18n setup uses by default",
                )
            )
        if inventory.segments and self.source_locale() not in inventory.segments:
            issues.append(
                error(
                    Code.SOURCE_NOT_IN_BUNDLE,
                    f"source locale `{self.config.locales.source}` has no file in "
                    f"`{self.config.locales.directory}` (found: "
                    f"{', '.join(map(self.locale_name, inventory.locales()))}); set "
                    "`locales.source` or pass --source",
                    self.config.locales.directory,
                )
            )
        return issues


_READ_FROM_THE_APP = frozenset(
    {"locales.defaultNamespace", "locales.fallbackNamespaces", "locales.scopes"}
)
"""What discovery reads from the app's own i18next set-up rather than guesses."""


def _root_digest(root: Path) -> str:
    return sha256(str(root).encode()).hexdigest()[:16]


def open_project(request: ProjectRequest, env: Mapping[str, str] | None = None) -> Project:
    """Resolve root and configuration for one run. Raises ProblemError for a user's mistake."""
    environ = os.environ if env is None else env
    root = resolve_root(request.cwd, request.project, request.config_file)
    loaded = load_config(
        root, config_file=request.config_file, env=environ, overrides=request.overrides
    )
    return Project(
        loaded=loaded,
        home=user_home(environ),
        cache_enabled=loaded.config.cache.enabled and not request.no_cache,
        read_only=request.read_only,
        env=environ,
        cwd=request.cwd,
        config_file=request.config_file,
    )


class ProjectHandle:
    """A project not yet opened: ops that need it call `open()`, which resolves it once.

    Lets an op that works without a project (`languages`) or reports on a broken one
    (`doctor`) run under the same signature as every other op.
    """

    def __init__(
        self,
        request: ProjectRequest,
        env: Mapping[str, str] | None = None,
        *,
        long_lived: bool = False,
    ) -> None:
        """`long_lived`: the host outlives the op (`serve`), so what an op built must be freed
        before it returns, not left to the process's exit."""
        self.request = request
        self.env: Mapping[str, str] = os.environ if env is None else env
        self.long_lived = long_lived
        self._project: Project | None = None

    def open(self) -> Project:
        """The resolved project. Raises ProblemError when root or configuration is unusable."""
        if self._project is None:
            self._project = open_project(self.request, self.env)
        return self._project
