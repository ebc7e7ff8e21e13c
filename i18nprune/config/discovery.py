"""Discovery: the fields no layer set, filled from how the project's own i18n set-up and files
say it is configured (the detector, `config.detect`): the locale folder and its layout, the
source locale, namespaces and separators, and the source folders.

Each value comes with a `Finding`: where it was read, or what it was inferred from. Without a
config file the load reports them in one line (and `config` lists them); with one, each
discovered field is a warning that names the file to set it in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache, partial
from pathlib import Path
from typing import Any

from i18nprune.config.detect.findings import Finding
from i18nprune.config.detect.locales import (
    BUNDLE_PLACES,
    FEATURE_BUNDLE,
    FLAT_FILE,
    LOCALE_PER_DIR,
    Layout,
    choose_source,
    find_locale_folders,
    infer_layout,
    key_shapes,
    locale_files,
    message_counts,
    read_locale_object,
    unlocalised_source_code,
    walkable,
)
from i18nprune.config.detect.manifest import Libraries, libraries
from i18nprune.config.detect.packages import repository_root
from i18nprune.config.detect.setup import AppSetup, read_app_setup
from i18nprune.config.detect.sources import folders_with_calls
from i18nprune.config.i18n_setup import discovered_setups, source_app_folders
from i18nprune.config.layers import deep_merge, nested
from i18nprune.config.presets import preset_functions
from i18nprune.config.schema import Config
from i18nprune.envelope import Code, Issue, warning
from i18nprune.locale_codes import normalize_code
from i18nprune.locales.formats import format_of
from i18nprune.locales.jsonfile import LocaleFileError
from i18nprune.locales.keyroot import keys_object, parse_key_root

__all__ = ["FEATURE_BUNDLE", "FLAT_FILE", "LOCALE_PER_DIR", "Discovery", "discover", "infer_layout"]


@dataclass(frozen=True)
class Discovery:
    """What discovery filled in: a camelCase layer, each field's finding, and the warnings."""

    layer: dict[str, Any]
    findings: dict[str, Finding] = field(default_factory=dict)
    """Dotted camelCase field → its value and where it came from."""
    issues: list[Issue] = field(default_factory=list)


class _Recorder:
    """Collects the discovered fields of one load."""

    def __init__(self, sources: Mapping[str, str]) -> None:
        self._sources = sources
        self.layer: dict[str, Any] = {}
        self.findings: dict[str, Finding] = {}

    def open(self, dotted: str) -> bool:
        """Whether neither a layer nor discovery set `dotted` yet (discovery may fill it)."""
        return self._sources.get(dotted) == "default" and dotted not in self.findings

    def record(self, dotted: str, finding: Finding) -> None:
        self.layer = deep_merge(self.layer, nested(dotted, finding.value))
        self.findings[dotted] = finding


def discover(
    root: Path,
    config: Config,
    sources: Mapping[str, str],
    config_name: str,
    *,
    config_file: bool = True,
) -> Discovery:
    """Fill the fields of `config` whose source is still "default" from the project at `root`.

    `config_name` is the file the warnings tell the user to set a value in; `config_file` says
    whether that file exists. With one, discovery only fills what its absence would break (the
    locale folder and source folder when the defaults do not exist, the layout, each app's
    i18next namespaces), each reported as a warning; without one, it also reads the source
    locale, namespaces, separators and every source folder from the app, reported once by the
    loader. A config file's meaning so changes only where its defaults point at nothing.
    """
    found = _Recorder(sources)
    # The set-up is read only when a field needs it: a configured project whose folders exist
    # reads none of it.
    app_setup = cache(partial(read_app_setup, root, "."))
    directory, layout = _locale_folder(root, config, app_setup, found)
    namespaced = config.locales.namespaces == "file"
    if layout is not None and not config_file:
        setup = app_setup()
        libs = libraries(root, config.src_dirs())
        repository = repository_root(root)
        if not libs.found and repository != root:  # a package whose locales siblings use
            libs = libraries(repository, [])
        if setup.library is not None and setup.library not in libs.found:
            where = setup.origins[0] if setup.origins else "package.json"
            libs = Libraries({**libs.found, setup.library: where})
        scoped = _transloco_scopes(root, config, directory, layout, libs, found)
        if scoped:
            layout = FEATURE_BUNDLE
        files = locale_files(root / directory, layout)
        source = _source_locale(config, directory, files, setup, found)
        namespaced = scoped or _namespaces(config, directory, layout, libs, setup, found)
        _separators(config, directory, files, source, libs, namespaced, setup, found)
        if setup.locale_format is not None and found.open("locales.format"):
            found.record("locales.format", setup.locale_format)
        _extractor_names(root, config, setup, found)
    src_dirs = _source_folders(root, config, directory, found, every=not config_file)
    if layout is not None and not config_file:
        _key_root(root, directory, src_dirs, app_setup, found)
    if layout is not None and namespaced:
        _discover_setups(root, src_dirs, app_setup(), found)
        if not config_file:
            _default_namespace(root, config, directory, source, libs, found)
    issues = []
    if config_file:
        issues = [
            warning(
                Code.DISCOVERY_WARNING,
                f"{dotted}: using `{_spell(finding.value)}` ({finding.origin}); set it in "
                f"{config_name} to silence this",
                str(root),
            )
            for dotted, finding in found.findings.items()
        ]
    return Discovery(found.layer, found.findings, issues)


def summary(findings: Mapping[str, Finding]) -> str:
    """The discovered values in a clause, for the one line a run without a config file shows
    (``directory `public/locales`, structure `locale_per_dir`, src `app, lib` ``); the mode
    (implied by the structure) and scopes (listed by `config`) are left out."""
    shown = []
    for dotted, finding in findings.items():
        if dotted in ("locales.mode", "locales.scopes"):
            continue
        name = dotted.removeprefix("locales.")
        shown.append(f"{name} `{_spell(finding.value)}`")
    return ", ".join(shown)


def _spell(value: Any) -> str:
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return ", ".join(value)
    if value is False:
        return "false"
    return str(value)


def _locale_folder(
    root: Path, config: Config, setup: Callable[[], AppSetup], found: _Recorder
) -> tuple[str, Layout | None]:
    """The locale folder (discovered when none was set and the default holds no locale files:
    where the app's set-up loads them from, else searched) and its layout (inferred when
    neither mode nor structure was set)."""
    directory = config.locales.directory
    source = config.locales.source
    if found.open("locales.directory") and infer_layout(root / directory, source) is None:
        chosen = next(
            (
                path
                for path in setup().locale_paths
                if infer_layout(root / path.value, source) is not None
            ),
            None,
        ) or _search_locale_folder(root, source)
        if chosen is not None:
            directory = chosen.value
            found.record("locales.directory", chosen)
    layout = infer_layout(root / directory, source)
    if layout is None:
        return directory, None
    if found.open("locales.mode") and found.open("locales.structure"):
        why = f"inferred from the files in `{directory}`"
        mode, structure = layout
        if mode != config.locales.mode:
            found.record("locales.mode", Finding(mode, why, read=False))
        if structure != config.locales.structure:
            found.record("locales.structure", Finding(structure, why, read=False))
        return directory, layout
    return directory, (config.locales.mode, config.locales.structure)


def _search_locale_folder(root: Path, source: str) -> Finding | None:
    for place in BUNDLE_PLACES:
        if _is_bundle(root / place, source):
            return Finding(place, "feature folders of locale files there", read=False)
    folders = find_locale_folders(root)
    if not folders:
        return None
    best, others = folders[0], [folder.path for folder in folders[1:4] if not folder.aside]
    why = f"{len(best.locales)} locale(s) there"
    if others:
        why += f"; also found: {', '.join(others)}"
    return Finding(best.path, why, read=False)


def _is_bundle(folder: Path, source: str) -> bool:
    if infer_layout(folder, source) != FEATURE_BUNDLE:
        return False
    features = [entry for entry in folder.iterdir() if entry.is_dir()]
    return sum(1 for feature in features if any(feature.rglob("*.json"))) >= 2


def _source_locale(
    config: Config,
    directory: str,
    files: dict[str, list[Path]],
    setup: AppSetup,
    found: _Recorder,
) -> str:
    """The source locale: the set-up's (`fallbackLng`, `defaultLocale`) when a locale of the
    folder (`files`: `locale_files` of it) has its code and at least half the messages of the
    fullest one (a set-up may name a locale whose file is a stub), else `choose_source`'s."""
    source = config.locales.source
    if not found.open("locales.source"):
        return source
    if setup.source_locale is not None:
        wanted = normalize_code(str(setup.source_locale.value))
        sizes = message_counts(files)
        named = next((code for code in files if normalize_code(code) == wanted), None)
        if named is not None and sizes[named] * 2 >= max(sizes.values()):
            if named != source:
                found.record("locales.source", setup.source_locale._replace(value=named))
            return named
    declared = unlocalised_source_code(files)
    if declared is not None:
        if declared != source:
            why = f"the source language of the XLIFF file without a locale in `{directory}`"
            found.record("locales.source", Finding(declared, why, read=False))
        return declared
    chosen = choose_source(files, source)
    if chosen is None:
        return source
    code, why = chosen
    found.record("locales.source", Finding(code, f"{why} in `{directory}`", read=False))
    return code


def _namespaces(
    config: Config,
    directory: str,
    layout: Layout,
    libs: Libraries,
    setup: AppSetup,
    found: _Recorder,
) -> bool:
    """Whether the locale files are i18next namespaces (discovered for a directory per locale
    in an app that uses i18next: each file there is one namespace)."""
    if not found.open("locales.namespaces"):
        return config.locales.namespaces == "file"
    if layout != LOCALE_PER_DIR or libs.i18next is None:
        return False
    if setup.ns_separator is not None and setup.ns_separator.value is False:
        return False
    found.record(
        "locales.namespaces",
        Finding(
            "file",
            f"a folder per locale in `{directory}` and {libs.i18next}: each file is a namespace",
            read=True,
        ),
    )
    return True


def _transloco_scopes(
    root: Path,
    config: Config,
    directory: str,
    layout: Layout,
    libs: Libraries,
    found: _Recorder,
) -> bool:
    """Whether the locale folder of a Transloco app has scope folders (`i18n/en.json` beside
    `i18n/admin/en.json`): each scope's keys are spelled with its name in front
    (`admin.title`), so its files are namespaces read through `.` (`nsSeparator`), beside
    the root files' default namespace. Recorded as a layout of feature bundles."""
    if layout != FLAT_FILE or libs.transloco is None:
        return False
    opened = ("locales.mode", "locales.structure", "locales.namespaces", "locales.nsSeparator")
    if not all(found.open(dotted) for dotted in opened):
        return False
    folder = root / directory
    scopes = sorted(
        entry.name
        for entry in folder.iterdir()
        if entry.is_dir()
        and walkable(entry.name)
        and infer_layout(entry, config.locales.source) == FLAT_FILE
    )
    root_file = read_locale_object(folder / f"{config.locales.source}.json") or {}
    if not scopes or any(scope in root_file for scope in scopes):
        # A root key named like a scope merges with it in Transloco, and a namespace read
        # through `.` would take the key away from the root file: read the root files alone
        # (the scopes' keys are then never offered, and reported missing).
        return False
    why = f"{libs.transloco}: scope folders in `{directory}` ({', '.join(scopes[:3])})"
    found.record("locales.mode", Finding("locale_directory", why, read=False))
    found.record("locales.structure", Finding("feature_bundle", why, read=False))
    found.record("locales.namespaces", Finding("file", why, read=False))
    found.record("locales.nsSeparator", Finding(".", why, read=False))
    return True


def _default_namespace(
    root: Path, config: Config, directory: str, source: str, libs: Libraries, found: _Recorder
) -> None:
    """The default namespace when the app's set-up names none: next-i18next's own default
    (`common`), else the only namespace, else `common` when the default has no file."""
    if not found.open("locales.defaultNamespace"):
        return
    names = _namespace_names(root / directory, source)
    default = config.locales.default_namespace
    if libs.next_i18next and "common" in names:
        finding = Finding("common", "next-i18next's default namespace", read=True)
    elif default in names:
        return
    elif len(names) == 1:
        finding = Finding(names[0], f"the only namespace of `{source}`", read=False)
    elif "common" in names:
        finding = Finding("common", f"`{source}` has no `{default}` namespace", read=False)
    else:
        return
    found.record("locales.defaultNamespace", finding)


def _namespace_names(directory: Path, source: str) -> list[str]:
    folder = next(
        (
            entry
            for entry in sorted(directory.iterdir())
            if entry.is_dir() and normalize_code(entry.name) == normalize_code(source)
        ),
        None,
    )
    if folder is None:
        return []
    return sorted(
        file.relative_to(folder).with_suffix("").as_posix() for file in folder.rglob("*.json")
    )


def _separators(
    config: Config,
    directory: str,
    files: dict[str, list[Path]],
    source: str,
    libs: Libraries,
    namespaced: bool,
    setup: AppSetup,
    found: _Recorder,
) -> None:
    """Separators the app's set-up sets, else those the library's rules or the source
    locale's keys decide: a library without namespaces has no namespace separator; flat files
    whose keys contain `.` cannot be nested paths; keys containing `:` cannot be split at a
    namespace separator."""
    for dotted, read in (
        ("locales.keySeparator", setup.key_separator),
        ("locales.nsSeparator", setup.ns_separator),
        ("locales.contextSeparator", setup.context_separator),
        ("locales.pluralSeparator", setup.plural_separator),
        ("locales.returnObjects", setup.return_objects),
    ):
        if read is not None and found.open(dotted):
            found.record(dotted, read)
    source_files = next(
        (paths for code, paths in files.items() if normalize_code(code) == normalize_code(source)),
        [],
    )
    shapes = key_shapes(source_files)
    where = f"`{directory}` ({source})"
    gettext = next((file.name for file in source_files if format_of(file.name) == "po"), None)
    if gettext is not None:
        for dotted in ("locales.keySeparator", "locales.nsSeparator"):
            if found.open(dotted):
                found.record(
                    dotted,
                    Finding(False, f"gettext msgids ({gettext}) are flat strings", read=True),
                )
    if found.open("locales.keySeparator") and config.locales.key_separator is not False:
        if libs.flat_ids is not None:
            found.record(
                "locales.keySeparator",
                Finding(False, f"{libs.flat_ids} message ids are flat strings", read=True),
            )
        elif shapes.flat and shapes.dotted:
            example = ", ".join(f"`{key}`" for key in shapes.dotted)
            found.record(
                "locales.keySeparator",
                Finding(False, f"flat keys containing `.` in {where}: {example}", read=False),
            )
    if found.open("locales.nsSeparator") and config.locales.ns_separator is not False:
        if libs.without_namespaces is not None and libs.i18next is None:
            found.record(
                "locales.nsSeparator",
                Finding(False, f"{libs.without_namespaces} has no namespaces", read=True),
            )
        elif shapes.colon and not namespaced:
            example = ", ".join(f"`{key}`" for key in shapes.colon)
            found.record(
                "locales.nsSeparator",
                Finding(False, f"keys containing `:` in {where}: {example}", read=False),
            )


def _extractor_names(root: Path, config: Config, setup: AppSetup, found: _Recorder) -> None:
    """The names an i18next extractor's config reads (`i18next.config.*`,
    `i18next-parser.config.*`): functions added to the defaults and the libraries' presets,
    hooks and `<Trans>` components."""
    if setup.functions is not None and found.open("functions"):
        presets = preset_functions(root, config.src_dirs())
        names = [*config.functions, *presets, *setup.functions.value]
        found.record("functions", setup.functions._replace(value=list(dict.fromkeys(names))))
    for dotted, read in (("hooks", setup.hooks), ("transComponents", setup.trans_components)):
        if read is not None and found.open(dotted):
            found.record(dotted, read)


def _source_folders(
    root: Path, config: Config, directory: str, found: _Recorder, *, every: bool
) -> list[str]:
    """The source folders: every top-level folder whose code calls the i18n library (`every`:
    even when the default `src` exists; else only in its absence)."""
    src_dirs = config.src_dirs()
    if not found.open("src") or (not every and (root / src_dirs[0]).is_dir()):
        return src_dirs
    functions = list(
        dict.fromkeys([*config.functions, *preset_functions(root, src_dirs), "t", "$t"])
    )
    folders = folders_with_calls(root, functions, directory)
    if folders:
        names = [folder.folder for folder in folders]
        if names != src_dirs:
            evidence = ", ".join(f"{folder.folder}: {folder.evidence}" for folder in folders[:4])
            more = f" (+{len(folders) - 4})" if len(folders) > 4 else ""
            value: str | list[str] = names[0] if len(names) == 1 else names
            found.record("src", Finding(value, f"code that uses i18n: {evidence}{more}", True))
        return names
    if (root / src_dirs[0]).is_dir():
        return src_dirs
    found.record(
        "src",
        Finding(".", "no folder with translation calls was found; the whole project", False),
    )
    return ["."]


def _key_root(
    root: Path,
    directory: str,
    src_dirs: list[str],
    own: Callable[[], AppSetup],
    found: _Recorder,
) -> None:
    """Where keys start in the locale files (`locales.root`), as the set-up of the scanned
    code's app gives i18next its resources: `translation: en_US.ui` of an imported
    `en_US.yaml` of the locale folder says keys start at `ui` (a file shared with a server's
    `backend:` texts). Recorded only when every such resource of the folder's files names the
    same object and each of those files holds it; anything else says nothing."""
    if not found.open("locales.root"):
        return
    folders = source_app_folders(root, src_dirs)
    setups = [own(), *(read_app_setup(root, folder) for folder in folders if folder != ".")]
    resources = [
        resource
        for setup in setups
        for resource in setup.resource_roots
        if directory == "." or Path(resource.file).is_relative_to(directory)
    ]
    roots = {resource.root for resource in resources}
    if len(roots) != 1 or "" in roots:
        return
    text = roots.pop()
    for resource in resources:
        document = read_locale_object(root / resource.file)
        try:
            held = keys_object(document, parse_key_root(text), resource.file) if document else None
        except LocaleFileError:
            return
        if not held:
            return
    first = resources[0]
    why = f"{first.origin} (the `{text}` object of {first.file})"
    found.record("locales.root", Finding(text, why, read=True))


def _discover_setups(root: Path, src_dirs: list[str], own: AppSetup, found: _Recorder) -> None:
    """The default and fallback namespaces of the root's app, and the scopes of the other app
    folders, from each app's own static i18next set-up (`locales.defaultNamespace`,
    `locales.fallbackNamespaces`, `locales.scopes`), where no layer set them."""
    for dotted, read in (
        ("locales.defaultNamespace", own.default_namespace),
        ("locales.fallbackNamespaces", own.fallback_namespaces),
    ):
        if read is not None and read.value and found.open(dotted):
            found.record(dotted, read)
    # `discovered_setups` gives each set-up file once, to the folder that owns it.
    scopes = [setup for setup in discovered_setups(root, src_dirs) if setup.folder != "."]
    if scopes and found.open("locales.scopes"):
        value = [
            {
                "src": setup.folder,
                "defaultNamespace": setup.default_namespace,
                "fallbackNamespaces": setup.fallback_namespaces,
            }
            for setup in scopes
        ]
        origins = ", ".join(f"`{setup.folder}` from {setup.origin}" for setup in scopes)
        found.record(
            "locales.scopes", Finding(value, f"each app's i18next set-up: {origins}", read=True)
        )
