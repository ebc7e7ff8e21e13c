"""The namespaces an app declares to TypeScript for i18next: `declare module 'i18next' {
interface CustomTypeOptions { defaultNS: 'cms'; fallbackNS: 'shared-module' } }` in a
declaration file such as `types/i18next.d.ts` (i18next's typed-resources set-up). Apps that
share one locale tree keep one such file each, so it names each app's default namespace when
its runtime set-up builds the value (`defaultNS: ownNamespace`). Read without running
anything; a value that is not a string literal (`typeof defaultNS`) says nothing."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from tree_sitter import Node

from i18nprune.config.detect.findings import Finding
from i18nprune.scan.discovery import DEFAULT_SKIP_DIRS
from i18nprune.scan.scopes import plain_string
from i18nprune.syntax_tree import node_text, parse

_MAX_DEPTH = 3
_MAX_BYTES = 64 << 10
_NAME_WORDS = ("i18n", "intl")


def declared_namespaces(root: Path, base: Path) -> dict[str, Finding]:
    """`default_namespace` and `fallback_namespaces` (a list) as the first declaration file of
    the app in `base` that declares them says, each with its `file:line`; empty when none does.
    Files that cannot be read or parsed add nothing."""
    for file in _declaration_files(base):
        try:
            if file.stat().st_size > _MAX_BYTES:
                continue
            content = file.read_bytes()
        except OSError:
            continue
        if b"CustomTypeOptions" not in content:
            continue
        found = _read(parse(content, "typescript").root_node, file.relative_to(root).as_posix())
        if found:
            return found
    return {}


def _declaration_files(base: Path) -> Iterator[Path]:
    """`.d.ts` files named for i18n in `base` and up to `_MAX_DEPTH` folders below it (not in
    another app's folder), shallowest first."""
    pending = [(str(base), 0)]
    while pending:
        folder, depth = pending.pop(0)
        try:
            with os.scandir(folder) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError:
            continue
        if depth and any(entry.name == "package.json" for entry in entries):
            continue
        for entry in entries:
            lower = entry.name.lower()
            if lower.endswith(".d.ts") and any(word in lower for word in _NAME_WORDS):
                if entry.is_file():
                    yield Path(entry.path)
            elif (
                depth < _MAX_DEPTH
                and not entry.name.startswith(".")
                and entry.name not in DEFAULT_SKIP_DIRS
                and entry.is_dir(follow_symlinks=False)
            ):
                pending.append((entry.path, depth + 1))


def _read(program: Node, relative: str) -> dict[str, Finding]:
    found: dict[str, Finding] = {}
    for interface in _interfaces(program):
        body = interface.child_by_field_name("body")
        for member in body.named_children if body is not None else ():
            if member.type != "property_signature":
                continue
            name = member.child_by_field_name("name")
            annotation = member.child_by_field_name("type")
            declared = node_text(name) if name is not None else ""
            values = _strings(annotation) if annotation is not None else None
            origin = f"{relative}:{member.start_point[0] + 1}: CustomTypeOptions.{declared}"
            if declared == "defaultNS" and values is not None and len(values) == 1:
                found.setdefault("default_namespace", Finding(values[0], origin, True))
            elif declared == "fallbackNS" and values:
                found.setdefault("fallback_namespaces", Finding(values, origin, True))
    return found


def _interfaces(program: Node) -> Iterator[Node]:
    """Every `interface CustomTypeOptions` of the file, at any depth (inside `declare
    module …` blocks)."""
    pending = [program]
    while pending:
        node = pending.pop()
        if node.type == "interface_declaration":
            name = node.child_by_field_name("name")
            if name is not None and node_text(name) == "CustomTypeOptions":
                yield node
            continue
        pending.extend(reversed(node.named_children))


def _strings(annotation: Node) -> list[str] | None:
    """The string literals a type is: `'a'` → `['a']`, `['a', 'b']` (also `readonly`) →
    both; None for any other type."""
    node: Node | None = annotation
    if annotation.type == "type_annotation":
        node = annotation.named_children[0] if annotation.named_children else None
    if node is None:
        return None
    if node.type == "readonly_type" and node.named_children:
        node = node.named_children[0]
    if node.type == "literal_type":
        literal = node.named_children[0] if node.named_children else None
        text = plain_string(literal) if literal is not None else None
        return [text] if text is not None else None
    if node.type == "tuple_type":
        items = [_strings(item) for item in node.named_children]
        if items and all(item is not None and len(item) == 1 for item in items):
            return [item[0] for item in items if item is not None]
    return None
