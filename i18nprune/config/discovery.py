"""Discovery: settings still at their defaults filled in from what the project tree shows —
the locales directory, its layout, and the source directory — each reported as a warning.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from i18nprune.config.i18n_setup import discovered_setups
from i18nprune.config.layers import deep_merge, nested
from i18nprune.config.schema import Config
from i18nprune.envelope import Code, Issue, warning
from i18nprune.locale_codes import looks_like_locale_code, normalize_code

LOCALES_CANDIDATES = (
    "src/locales",
    "public/locales",
    "src/i18n/locales",
    "i18n/locales",
    "messages",
    "src/messages",
    "i18n",
    "src/i18n",
    "lang",
    "src/lang",
    "translations",
    "static/locales",
)
SRC_CANDIDATES = ("app", "lib")

Mode = Literal["flat_file", "locale_directory"]
Structure = Literal["locale_file", "locale_per_dir", "feature_bundle"]
Layout = tuple[Mode, Structure]

FLAT_FILE: Layout = ("flat_file", "locale_file")
LOCALE_PER_DIR: Layout = ("locale_directory", "locale_per_dir")
FEATURE_BUNDLE: Layout = ("locale_directory", "feature_bundle")

_NEVER_WALKED = frozenset({"node_modules"})


@dataclass(frozen=True)
class Discovery:
    """What discovery filled in: a camelCase layer, and one warning per discovered field."""

    layer: dict[str, Any]
    issues: list[Issue]


def infer_layout(directory: Path, source: str) -> Layout | None:
    """The locale layout `directory` holds, or None when it holds no locale JSON files.

    `<code>.json` directly inside → flat files; `<code>/…/*.json` → a directory per locale;
    `<feature>/…/<code>.json` → feature bundles. When both directory shapes fit (`en/ui.json`
    has a code-shaped name too), the source locale decides: an `en/` directory or `en.json`
    files.
    """
    try:
        entries = list(directory.iterdir())
    except OSError:
        return None
    if any(entry.is_file() and _is_locale_file_name(entry.name) for entry in entries):
        return FLAT_FILE
    per_locale: set[str] = set()
    bundled: set[str] = set()
    for entry in entries:
        if not entry.is_dir() or not _walkable(entry.name):
            continue
        json_names = _json_file_names(entry)
        if json_names and looks_like_locale_code(entry.name):
            per_locale.add(normalize_code(entry.name))
        bundled.update(
            normalize_code(name.removesuffix(".json"))
            for name in json_names
            if _is_locale_file_name(name)
        )
    source_code = normalize_code(source)
    if per_locale and (source_code in per_locale or source_code not in bundled):
        return LOCALE_PER_DIR
    if bundled:
        return FEATURE_BUNDLE
    return None


def _is_locale_file_name(name: str) -> bool:
    return name.endswith(".json") and looks_like_locale_code(name.removesuffix(".json"))


def _walkable(directory_name: str) -> bool:
    return not directory_name.startswith(".") and directory_name not in _NEVER_WALKED


def _json_file_names(directory: Path) -> list[str]:
    names: list[str] = []
    for _parent, subdirectories, files in os.walk(directory):
        subdirectories[:] = [name for name in subdirectories if _walkable(name)]
        names.extend(name for name in files if name.endswith(".json"))
    return names


def discover(root: Path, config: Config, sources: Mapping[str, str], config_name: str) -> Discovery:
    """Fill the fields of `config` whose source is still "default" from the tree under `root`.

    `config_name` is the file the warnings tell the user to set the value in.
    """
    layer: dict[str, Any] = {}
    issues: list[Issue] = []

    def record(dotted: str, value: Any, reason: str, where: Path) -> None:
        nonlocal layer
        layer = deep_merge(layer, nested(dotted, value))
        issues.append(
            warning(
                Code.DISCOVERY_WARNING,
                f"{dotted}: using `{value}` ({reason}); set it in {config_name} to silence this",
                str(where),
            )
        )

    directory = config.locales.directory
    if sources["locales.directory"] == "default" and not (root / directory).is_dir():
        for candidate in LOCALES_CANDIDATES:
            if infer_layout(root / candidate, config.locales.source) is not None:
                directory = candidate
                record("locales.directory", candidate, "found locale files there", root / candidate)
                break
    if sources["locales.mode"] == "default" and sources["locales.structure"] == "default":
        layout = infer_layout(root / directory, config.locales.source)
        if layout is not None:
            reason = f"inferred from the files in `{directory}`"
            mode, structure = layout
            if mode != config.locales.mode:
                record("locales.mode", mode, reason, root / directory)
            if structure != config.locales.structure:
                record("locales.structure", structure, reason, root / directory)
    src = config.src_dirs()[0]
    if sources["src"] == "default" and not (root / src).is_dir():
        chosen = next((name for name in SRC_CANDIDATES if (root / name).is_dir()), ".")
        tried = ", ".join(f"`{name}`" for name in (src, *SRC_CANDIDATES))
        reason = f"there is no `{src}` directory" if chosen != "." else f"none of {tried} exists"
        record("src", chosen, reason, root / chosen)
    if config.locales.namespaces == "file":
        src_dirs = layer.get("src", config.src)
        _discover_setups(
            root, [src_dirs] if isinstance(src_dirs, str) else src_dirs, sources, record
        )
    return Discovery(layer=layer, issues=issues)


def _discover_setups(
    root: Path,
    src_dirs: list[str],
    sources: Mapping[str, str],
    record: Callable[[str, Any, str, Path], None],
) -> None:
    """The default and fallback namespaces of the root's app, and the scopes of the other app
    folders, from each app's own static i18next set-up (`locales.defaultNamespace`,
    `locales.fallbackNamespaces`, `locales.scopes`), where no layer set them."""
    setups = discovered_setups(root, src_dirs)
    seen: set[str] = set()
    unique = []
    for setup in setups:  # an app's file found from two folders is the first one's
        file = setup.origin.rsplit(":", 1)[0]
        if file not in seen:
            seen.add(file)
            unique.append(setup)
    own = next((setup for setup in unique if setup.folder == "."), None)
    if own is not None:
        reason = f"read from {own.origin}"
        if sources["locales.defaultNamespace"] == "default":
            record("locales.defaultNamespace", own.default_namespace, reason, root / own.origin)
        if own.fallback_namespaces and sources["locales.fallbackNamespaces"] == "default":
            record("locales.fallbackNamespaces", own.fallback_namespaces, reason, root)
    scopes = [setup for setup in unique if setup.folder != "."]
    if scopes and sources["locales.scopes"] == "default":
        value = [
            {
                "src": setup.folder,
                "defaultNamespace": setup.default_namespace,
                "fallbackNamespaces": setup.fallback_namespaces,
            }
            for setup in scopes
        ]
        origins = ", ".join(f"`{setup.folder}` from {setup.origin}" for setup in scopes)
        record("locales.scopes", value, f"each app's i18next set-up: {origins}", root)
