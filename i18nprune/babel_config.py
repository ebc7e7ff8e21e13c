"""Where babel-plugin-react-intl-auto runs and with which options, read from the project's Babel
config without running it (else where `formatjs extract` gives ids, `formatjs_scripts`):
`.babelrc`, `.babelrc.json`, `babel.config.json`, the `babel` key of `package.json`, and
`babel.config.js` / `.babelrc.js` whose export is an object literal (or a function
`(api) => { api.cache(…); return {…} }` that returns one).

A config that names the plugin where its options cannot be read makes a scope whose options
are unknown: the ids of its messages are then unknown, and nothing may be removed on them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from i18nprune.formatjs_scripts import extractor_scope
from i18nprune.scan.message_ids import (
    DEFAULT_MODULE,
    PLUGIN,
    JsRegex,
    MessageIdScope,
    PluginOptions,
    check_options,
)

if TYPE_CHECKING:
    from i18nprune.babel_reader import Found

_FILE_RELATIVE = (".babelrc", ".babelrc.json", ".babelrc.js", ".babelrc.cjs", ".babelrc.mjs")
_PROJECT_WIDE = (
    "babel.config.json",
    "babel.config.js",
    "babel.config.cjs",
    "babel.config.mjs",
    "babel.config.cts",
)


def message_id_scopes(root: Path, src_dirs: list[Path]) -> list[MessageIdScope]:
    """Where the plugin gives FormatJS messages their ids: one scope per source directory whose
    Babel config names it (or whose `package.json` depends on it)."""
    scopes: list[MessageIdScope] = []
    for src in src_dirs:
        scope = _scope_of(root, src)
        if scope is not None and scope not in scopes:
            scopes.append(scope)
    return scopes


def _scope_of(root: Path, src: Path) -> MessageIdScope | None:
    """The scope of one source directory, from the configs Babel would apply to its files:
    the nearest file-relative config up to its package's folder (the one with `package.json`),
    over the nearest project-wide `babel.config.*`, inside the project root."""
    folders = list(_upwards(src, root))
    package = next((f for f in folders if (f / "package.json").is_file()), root)
    relative_config: Path | None = None
    for folder in folders:
        relative_config = _file_relative_config(folder)
        if relative_config is not None or folder == package:
            break
    project_config = next(
        (
            folder / name
            for folder in folders
            for name in _PROJECT_WIDE
            if (folder / name).is_file()
        ),
        None,
    )
    cwd = project_config.parent if project_config is not None else package
    scoped = src.relative_to(root).as_posix() if src != root else ""
    for config in (relative_config, project_config):
        found = _read(config) if config is not None else None
        if config is not None and found is not None:
            return _scope(root, scoped, config, cwd, found)
    manifests = list(dict.fromkeys((package / "package.json", root / "package.json")))
    for manifest in manifests:
        if _depends_on_plugin(manifest):
            problem = "it is a dependency, but no Babel config i18nprune reads names it"
            return MessageIdScope(
                folder=scoped, config=_relative(root, manifest), options=None, problem=problem
            )
    return extractor_scope(root, scoped, [path for path in manifests if path.is_file()])


def _upwards(start: Path, root: Path) -> Iterator[Path]:
    """`start` and its parents, up to `root` (both included)."""
    folder = start
    while True:
        yield folder
        if folder == root or folder.parent == folder:
            return
        folder = folder.parent


def _file_relative_config(folder: Path) -> Path | None:
    for name in _FILE_RELATIVE:
        if (folder / name).is_file():
            return folder / name
    manifest = folder / "package.json"
    if manifest.is_file() and _manifest_babel(manifest) is not None:
        return manifest
    return None


def _scope(root: Path, folder: str, config: Path, cwd: Path, found: Found) -> MessageIdScope:
    where = _relative(root, config)
    if found.options is None:
        return MessageIdScope(folder=folder, config=where, options=None, problem=found.problem)
    try:
        options = _plugin_options(found.options, cwd)
    except ValueError as problem:
        return MessageIdScope(folder=folder, config=where, options=None, problem=str(problem))
    unreadable = check_options(options)
    if unreadable is not None:
        return MessageIdScope(folder=folder, config=where, options=None, problem=unreadable)
    return MessageIdScope(folder=folder, config=where, options=options)


def _relative(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


def _read(path: Path) -> Found | None:
    """What `path` says of the plugin; `None` when it does not name it."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None  # Babel could not read it either
    if "react-intl-auto" not in text:
        return None  # most configs: no parser is loaded
    from i18nprune.babel_reader import read_plugin

    return read_plugin(path, text)


# -- options ----------------------------------------------------------------------------------


def _plugin_options(raw: dict[str, Any], cwd: Path) -> PluginOptions:
    """The plugin's options as it reads them (JavaScript truthiness; defaults for what is not
    set). Raises ValueError for a value the plugin cannot work with."""
    remove_prefix = raw.get("removePrefix")
    if remove_prefix is not None and not isinstance(remove_prefix, bool | str | JsRegex):
        raise ValueError(f"removePrefix {remove_prefix!r} is not a string, boolean or RegExp")
    if "removePrefix" in raw and remove_prefix is None:
        raise ValueError("removePrefix null stops the plugin")
    separator = raw.get("separator")
    if separator is not None and not isinstance(separator, str):
        raise ValueError(f"separator {separator!r} is not a string")
    module = raw.get("moduleSourceName", DEFAULT_MODULE)
    if not isinstance(module, str):
        raise ValueError(f"moduleSourceName {module!r} is not a string")
    include = raw.get("includeExportName")
    relative_to = raw.get("relativeTo")
    base = str(cwd)
    if _truthy(relative_to):
        if not isinstance(relative_to, str):
            raise ValueError(f"relativeTo {relative_to!r} is not a string")
        base = os.path.normpath(os.path.join(base, relative_to))
    return PluginOptions(
        remove_prefix=remove_prefix,
        filebase=_truthy(raw.get("filebase")),
        include_export_name="all" if include == "all" else _truthy(include),
        use_key=_truthy(raw.get("useKey")),
        separator=separator,
        module_source_name=module,
        relative_to=base,
    )


def _truthy(value: Any) -> bool:
    """JavaScript's truthiness of a literal value."""
    return value not in (None, False, 0, "") and value == value  # NaN is falsy


def _manifest_babel(manifest: Path) -> object | None:
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return data.get("babel") if isinstance(data, dict) else None


def _depends_on_plugin(manifest: Path) -> bool:
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    if not isinstance(data, dict):
        return False
    return any(
        isinstance(section := data.get(field), dict) and PLUGIN in section
        for field in ("dependencies", "devDependencies")
    )


__all__ = ["message_id_scopes"]
