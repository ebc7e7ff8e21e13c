"""svelte-i18n's formatter stores under the names a file gives them: `import { _ as intl }`
then `$intl('key')`, `unwrapFunctionStore(format)` and `get(_)` outside components, and
`getMessageFormatter('key', locale)`."""

from __future__ import annotations

import re
from typing import NamedTuple

import tree_sitter

from i18nprune.scan.scopes import named_imports

MODULE = "svelte-i18n"
_FORMATTERS = frozenset({"_", "t", "format"})
_SUBTREE = frozenset({"json"})
_UNWRAP = "unwrapFunctionStore"
_MESSAGE_FORMATTER = "getMessageFormatter"
# `const x = unwrapFunctionStore(store)` / `get(store)`, and `get(store)(…)` called at once.
_UNWRAPPED = re.compile(
    rb"(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*([A-Za-z_$][\w$]*)\(\s*([A-Za-z_$][\w$]*)\s*\)"
)
_GOT_AND_CALLED = re.compile(rb"(?<![\w$.])([A-Za-z_$][\w$]*)\(\s*([A-Za-z_$][\w$]*)\s*\)\s*\(")


class StoreNames(NamedTuple):
    """The names a file calls svelte-i18n's formatters by: `translators` take a key,
    `subtrees` return the object under one (`$json`); `called` are the offsets of
    `get(_)(…)` calls (the outer call starts at the offset)."""

    translators: frozenset[str]
    subtrees: frozenset[str]
    called: tuple[int, ...]


NO_STORES = StoreNames(frozenset(), frozenset(), ())


def store_names(root: tree_sitter.Node, document: bytes) -> StoreNames:
    """The local names of svelte-i18n's formatters in one file (see `StoreNames`); none
    when the file does not import svelte-i18n."""
    if MODULE.encode() not in document:
        return NO_STORES
    stores: dict[str, bool] = {}  # local store name → whether it returns a subtree
    helpers: dict[str, str] = {}  # local name → svelte-i18n's name, for its helpers
    for local, imported in _imports(root):
        if imported in _FORMATTERS or imported in _SUBTREE:
            stores[local] = imported in _SUBTREE
        elif imported in (_UNWRAP, _MESSAGE_FORMATTER):
            helpers[local] = imported
    if not stores and not helpers:
        return NO_STORES
    translators = {"$" + name for name, subtree in stores.items() if not subtree}
    subtrees = {"$" + name for name, subtree in stores.items() if subtree}
    translators.update(name for name, imported in helpers.items() if imported != _UNWRAP)
    unwrappers = {name for name, imported in helpers.items() if imported == _UNWRAP} | {"get"}
    for match in _UNWRAPPED.finditer(document):
        local, helper, store = (group.decode() for group in match.groups())
        if helper in unwrappers and store in stores:
            (subtrees if stores[store] else translators).add(local)
    called = tuple(
        match.start()
        for match in _GOT_AND_CALLED.finditer(document)
        if match.group(1).decode() in unwrappers and match.group(2).decode() in stores
    )
    return StoreNames(frozenset(translators), frozenset(subtrees), called)


def _imports(root: tree_sitter.Node) -> list[tuple[str, str]]:
    """(local, imported) names of the file's named imports from svelte-i18n."""
    return [
        (found.local, found.imported) for found in named_imports(root) if found.module == MODULE
    ]


__all__ = ["MODULE", "NO_STORES", "StoreNames", "store_names"]
