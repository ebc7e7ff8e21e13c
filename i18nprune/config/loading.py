"""Loading a project's configuration: defaults → file → environment → discovery → CLI flags,
deep-merged, with the layer every field came from.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from i18nprune.config.detect.findings import Finding
from i18nprune.config.discovery import discover, summary
from i18nprune.config.document import JAVASCRIPT_SUFFIXES, TYPESCRIPT_SUFFIXES, ConfigDocument
from i18nprune.config.environment import discovery_disabled, environment_layer, source_dirs
from i18nprune.config.json_reader import read_json_config
from i18nprune.config.layers import FieldSource, deep_merge, leaf_paths, nested
from i18nprune.config.lookup import CONFIG_FILE_NAMES, explicit_config_file, find_config_file
from i18nprune.config.presets import preset_functions
from i18nprune.config.schema import Config
from i18nprune.config.secrets import redacted_env
from i18nprune.config.validation import validate_document
from i18nprune.envelope import Code, Issue, ProblemError, error, warning

NATIVE_CONFIG_NAME = "i18nprune.config.json"


class ConfigOverrides(msgspec.Struct, frozen=True, kw_only=True):
    """Values from global CLI flags; None = not given."""

    source: str | None = None
    locales_dir: str | None = None
    src: str | None = None
    functions: list[str] | None = None
    exclude: list[str] | None = None
    """Appended to both `exclude.dirs` and `exclude.files` (base names or globs)."""


@dataclass(frozen=True)
class LoadedConfig:
    """A resolved configuration and how it was arrived at."""

    root: Path
    """Absolute real path of the project root."""
    config: Config
    config_path: Path | None
    """The file that was loaded; None when running on defaults."""
    field_sources: dict[str, str]
    """camelCase dotted path of every leaf field → "default", "file", "env", "discovery" or
    "flag" (the last layer that set it); `functions` is "preset" when framework presets added
    names to the default."""
    env: dict[str, str]
    """Every I18NPRUNE_* variable seen, secret values as "***"."""
    issues: list[Issue]
    """Warnings of the load: no config file, values found by discovery."""
    function_sources: dict[str, str]
    """Each translation function name → the layer that set it, or the `package.json` and
    library whose preset added it (when `functions` was not set explicitly)."""
    findings: dict[str, Finding] = field(default_factory=dict)
    """camelCase dotted path of every field discovery filled → its value and where it came
    from (read from the app's set-up or code, or inferred from the tree's shape)."""


def load_config(
    root: Path,
    *,
    config_file: Path | None = None,
    env: Mapping[str, str] | None = None,
    overrides: ConfigOverrides = ConfigOverrides(),
) -> LoadedConfig:
    """Resolve the configuration of the project at `root`.

    Merge order: defaults → file → environment → discovery → CLI flags; objects merge deeply,
    arrays and scalars replace. `config_file` (absolute, or relative to the process's working
    directory) replaces the lookup in `root`; `env` defaults to `os.environ`. Discovery only
    fills fields no layer set and is off when I18NPRUNE_NO_DISCOVERY is set.

    Raises ProblemError for a config the user must fix: a missing explicit file, several
    candidate files, malformed or non-static content, unknown keys, invalid values or an
    invalid environment variable.
    """
    root = Path(os.path.realpath(root))
    environ = os.environ if env is None else env
    issues: list[Issue] = []
    if config_file is not None:
        config_path: Path | None = explicit_config_file(Path(os.path.abspath(config_file)))
    else:
        config_path = find_config_file(root)

    merged: dict[str, Any] = msgspec.to_builtins(Config())
    sources: dict[str, str] = dict.fromkeys(leaf_paths(merged), "default")
    if config_path is not None:
        document = read_config_document(config_path)
        validate_document(document)
        merged = _apply(merged, document.data, "file", sources)
    merged = _apply(merged, environment_layer(environ), "env", sources)

    flags = _flag_layer(overrides, merged)
    findings: dict[str, Finding] = {}
    if not discovery_disabled(environ):
        # discovery must not fill what a flag sets, and sees the directories flags choose
        flagged = {**sources, **dict.fromkeys(leaf_paths(flags), "flag")}
        found = discover(
            root,
            msgspec.convert(deep_merge(merged, flags), Config),
            flagged,
            config_path.name if config_path is not None else NATIVE_CONFIG_NAME,
            config_file=config_path is not None,
        )
        merged = _apply(merged, found.layer, "discovery", sources)
        findings = found.findings
        issues.extend(found.issues)
    if config_path is None:
        issues.insert(0, _no_config_file(root, findings))
    if config_file is None:
        issues[:0] = unread_config_files(root, config_path)
    merged = _apply(merged, flags, "flag", sources)
    function_sources = dict.fromkeys(merged["functions"], sources["functions"])
    if sources["functions"] == "default":
        source_dirs = [merged["src"]] if isinstance(merged["src"], str) else merged["src"]
        presets = preset_functions(root, source_dirs)
        if presets:
            function_sources = {**function_sources, **presets}
            merged = deep_merge(merged, {"functions": list(function_sources)})
            sources["functions"] = "preset"

    return LoadedConfig(
        root=root,
        config=msgspec.convert(merged, Config),
        config_path=config_path,
        field_sources=sources,
        env=redacted_env(environ),
        issues=issues,
        function_sources=function_sources,
        findings=findings,
    )


def unread_config_files(root: Path, read: Path | None) -> list[Issue]:
    """A warning for each `i18nprune.config.*` file in `root` that is not read (YAML, TOML,
    JSON5, …): its settings would otherwise be silently ignored."""
    read_as = f"the settings come from {read.name}" if read is not None else "none is read"
    issues = []
    for path in sorted(root.glob("i18nprune.config.*")):
        if path.name in CONFIG_FILE_NAMES or not path.is_file():
            continue
        issues.append(
            warning(
                Code.CONFIG_NOT_READ,
                f"{path.name} is not read: i18nprune reads i18nprune.config.json or "
                f"i18nprune.config.{{ts,mts,cts,js,mjs,cjs}} ({read_as}); write its settings "
                "there",
                path.name,
            )
        )
    return issues


def _no_config_file(root: Path, findings: Mapping[str, Finding]) -> Issue:
    """The one line a run without a config file shows: what was discovered, and how to pin it."""
    looked = "looked for i18nprune.config.json and i18nprune.config.{ts,mts,cts,js,mjs,cjs}"
    if findings:
        found = f"discovered {summary(findings)}"
    else:
        found = "nothing discovered, running on defaults"
    return warning(
        Code.CONFIG_FILE_MISSING,
        f"no config file in {root} ({looked}): {found} — `i18nprune config` shows where each "
        "value came from; `i18nprune init` writes them to i18nprune.config.json",
        str(root),
    )


def read_config_document(path: Path) -> ConfigDocument:
    """Read a config file: statically for .ts/.mts/.cts/.js/.mjs/.cjs, as strict JSON otherwise.

    Raises ProblemError (CONFIG_PARSE_ERROR) when the file cannot be read or decoded, and the
    readers' errors for its content.
    """
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as problem:
        reason = problem.strerror if isinstance(problem, OSError) else "it is not UTF-8 text"
        raise ProblemError(
            error(Code.CONFIG_PARSE_ERROR, f"cannot read config file {path}: {reason}", str(path))
        ) from None
    if path.suffix in TYPESCRIPT_SUFFIXES + JAVASCRIPT_SUFFIXES:
        from i18nprune.config.static_reader import read_static_config  # loads the JS parser

        return read_static_config(path, text)
    return read_json_config(path, text)


def _apply(
    merged: dict[str, Any], layer: dict[str, Any], source: FieldSource, sources: dict[str, str]
) -> dict[str, Any]:
    for path in leaf_paths(layer):
        sources[path] = source
    return deep_merge(merged, layer)


def _flag_layer(overrides: ConfigOverrides, merged: Mapping[str, Any]) -> dict[str, Any]:
    layer: dict[str, Any] = {}
    for dotted, value in (
        ("locales.source", overrides.source),
        ("locales.directory", overrides.locales_dir),
        ("src", source_dirs(overrides.src) if overrides.src is not None else None),
        ("functions", overrides.functions),
    ):
        if value is not None:
            layer = deep_merge(layer, nested(dotted, value))
    if overrides.exclude is not None:
        excluded = merged["exclude"]
        layer = deep_merge(
            layer,
            {
                "exclude": {
                    "dirs": [*excluded["dirs"], *overrides.exclude],
                    "files": [*excluded["files"], *overrides.exclude],
                }
            },
        )
    return layer
