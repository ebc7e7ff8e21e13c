"""Framework presets: the translation function names the i18n libraries a project depends on
(its `package.json` files) call keys with, used when `functions` is not set explicitly."""

from __future__ import annotations

import json
import os
from pathlib import Path

_VUE_I18N = ("$t", "$tc", "$te", "$tm", "tm", "rt")
_SVELTE_I18N = ("$_", "$t", "$format", "$json")

# Library → the callee names it adds to the default `t`.
PRESETS: dict[str, tuple[str, ...]] = {
    "vue-i18n": _VUE_I18N,
    "petite-vue-i18n": _VUE_I18N,
    "@nuxtjs/i18n": _VUE_I18N,
    "vue-i18next": ("$t",),
    "i18next-vue": ("$t",),
    "svelte-i18n": _SVELTE_I18N,
}
_DEPENDENCY_FIELDS = ("dependencies", "devDependencies", "peerDependencies")


def preset_functions(root: Path, src_dirs: list[str]) -> dict[str, str]:
    """Callee names the project's libraries add, each with where it came from
    (`package.json: vue-i18n`), in the order found.

    Reads the root's `package.json` and the nearest one above each source directory (inside
    the root); a file that cannot be read or parsed adds nothing.
    """
    found: dict[str, str] = {}
    for manifest in _manifests(root, src_dirs):
        dependencies = _dependencies(manifest)
        relative = manifest.relative_to(root).as_posix()
        for library, names in PRESETS.items():
            if library in dependencies:
                for name in names:
                    found.setdefault(name, f"{relative}: {library}")
    return found


def _manifests(root: Path, src_dirs: list[str]) -> list[Path]:
    manifests = [root / "package.json"]
    for src in src_dirs:
        folder = Path(os.path.abspath(root / src))
        while folder != root and folder.is_relative_to(root):
            if (folder / "package.json").is_file():
                manifests.append(folder / "package.json")
                break
            folder = folder.parent
    return [path for path in dict.fromkeys(manifests) if path.is_file()]


def _dependencies(manifest: Path) -> set[str]:
    try:
        document = json.loads(manifest.read_bytes())
    except (OSError, ValueError):
        return set()
    if not isinstance(document, dict):
        return set()
    names: set[str] = set()
    for field in _DEPENDENCY_FIELDS:
        section = document.get(field)
        if isinstance(section, dict):
            names.update(name for name in section if isinstance(name, str))
    return names
