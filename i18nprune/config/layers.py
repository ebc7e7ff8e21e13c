"""Config layers as camelCase dicts: the deep merge, and the dotted paths of the leaves a layer
sets (so each field can say which layer it came from).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Literal

FieldSource = Literal["default", "file", "env", "discovery", "flag", "preset"]


def deep_merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """`over` on top of `base`: objects merge recursively, arrays and scalars replace.

    Neither input is modified.
    """
    merged = dict(base)
    for key, value in over.items():
        below = merged.get(key)
        if isinstance(value, Mapping) and isinstance(below, Mapping):
            merged[key] = deep_merge(below, value)
        else:
            merged[key] = value
    return merged


def leaf_paths(layer: Mapping[str, Any], prefix: str = "") -> Iterator[str]:
    """Dotted camelCase paths of every non-object value in `layer` (arrays are leaves)."""
    for key, value in layer.items():
        path = f"{prefix}.{key}" if prefix else key
        if isinstance(value, Mapping):
            yield from leaf_paths(value, path)
        else:
            yield path


def nested(dotted: str, value: Any) -> dict[str, Any]:
    """A one-leaf layer: `nested("locales.source", "fr")` → `{"locales": {"source": "fr"}}`."""
    *parents, leaf = dotted.split(".")
    layer: dict[str, Any] = {leaf: value}
    for key in reversed(parents):
        layer = {key: layer}
    return layer
