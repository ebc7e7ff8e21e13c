"""Angular's translation functions in TypeScript: the names a file gives an injected service
whose methods take keys (`constructor(private translate: TranslateService)`, `translate:
TranslateService`, `inject(TranslateService)`), and the key markers and functions it imports
from the Angular i18n libraries (`marker('k')`, `_('k')`, Transloco's `translate('k')`)."""

from __future__ import annotations

import functools

import tree_sitter

from i18nprune.scan.callees import CalleeNames
from i18nprune.scan.scopes import named_imports
from i18nprune.syntax_tree import node_text

# Module → the exported functions that take a key (Transloco's `translate`, the extractors'
# markers, which return the key as it is).
KEY_FUNCTIONS: dict[str, tuple[str, ...]] = {
    "@jsverse/transloco": ("translate", "translateSignal"),
    "@ngneat/transloco": ("translate",),
    "@jsverse/transloco-keys-manager/marker": ("marker",),
    "@ngneat/transloco-keys-manager/marker": ("marker",),
    "@biesbjerg/ngx-translate-extract-marker": ("marker", "_"),
    "@colsen1991/ngx-translate-extract-marker": ("marker", "_"),
    "@vendure/ngx-translate-extract-marker": ("marker", "_"),
    "@ngx-translate/core": ("_",),
}
_HOLDERS = frozenset(
    {"required_parameter", "optional_parameter", "public_field_definition", "variable_declarator"}
)


def file_names(names: CalleeNames, root: tree_sitter.Node, document: bytes) -> CalleeNames:
    """`names` with what this file adds: `name.method` for each name it gives a configured
    service (`services`), and the key functions it imports from the Angular libraries."""
    if not names.services and b"marker" not in document and b"transloco" not in document:
        return names
    added: list[str] = []
    if names.services:
        added += _service_paths(names, root, document)
    for imported in named_imports(root):
        if imported.module is not None and imported.imported in KEY_FUNCTIONS.get(
            imported.module, ()
        ):
            added.append(imported.local)
    if not added:
        return names
    return _extended(names, tuple(sorted(set(added))))


@functools.cache
def _extended(names: CalleeNames, added: tuple[str, ...]) -> CalleeNames:
    return CalleeNames([*names.configured, *added])


def _service_paths(names: CalleeNames, root: tree_sitter.Node, document: bytes) -> list[str]:
    """`holder.method` for each name the file holds a configured service in."""
    methods: dict[str, list[str]] = {}
    for service, method in names.services:
        methods.setdefault(service, []).append(method)
    paths: list[str] = []
    for service, listed in methods.items():
        needle = service.encode()
        position = document.find(needle)
        while position >= 0:
            node = root.descendant_for_byte_range(position, position + len(needle))
            holder = _holder_name(node) if node is not None else None
            if holder is not None:
                paths += [f"{holder}.{method}" for method in listed]
            position = document.find(needle, position + len(needle))
    return paths


def _holder_name(node: tree_sitter.Node) -> str | None:
    """The parameter, field or variable `node` (a service's type name) types or initialises
    (`translate: TranslateService`, `translate = inject(TranslateService)`)."""
    if node.type not in ("type_identifier", "identifier"):
        return None
    current: tree_sitter.Node | None = node
    for _ in range(6):  # the type or `inject(…)` call sits a few levels below its holder
        current = current.parent if current is not None else None
        if current is None:
            return None
        if current.type in _HOLDERS:
            break
        if current.type == "call_expression":
            callee = current.child_by_field_name("function")
            if callee is None or node_text(callee) != "inject":
                return None
    else:
        return None
    name = current.child_by_field_name("pattern") or current.child_by_field_name("name")
    if name is None:
        return None
    text = node_text(name)
    return text if text.replace("$", "_").replace("#", "").isidentifier() else None
