"""Cross-file linking: imported names in key values become what their modules export,
through any number of re-exports (cycles end as unknown values).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from i18nprune.scan.expressions import (
    OPAQUE,
    Branches,
    Expr,
    Imported,
    Join,
    Member,
    Record,
    concatenate,
)
from i18nprune.scan.facts import FileFacts

_MAX_STEPS = 64

FactsOf = Callable[[str], FileFacts | None]
ResolveModule = Callable[[str, str], str | None]


class _Namespace(NamedTuple):
    """`import * as K from './keys'`: the module itself, whose members are its exports."""

    file: str


class Linker:
    """Resolves symbolic values against the exports of other project files.

    `facts_of(file)` returns a file's facts (parsing it on demand if it must); `resolve_module(
    importer, specifier)` maps a relative import to a project file, or `None`.
    """

    def __init__(self, facts_of: FactsOf, resolve_module: ResolveModule) -> None:
        self._facts_of = facts_of
        self._resolve_module = resolve_module
        self._exports: dict[tuple[str, str], tuple[Expr, str] | None] = {}

    def resolve(self, value: Expr, file: str, steps: int = 0) -> Expr:
        """`value`, as written in `file`, with every resolvable import replaced by its value."""
        if steps > _MAX_STEPS:
            return OPAQUE
        if isinstance(value, Join):
            parts = [self.resolve(part, file, steps + 1) for part in value.parts]
            return concatenate(parts, template=value.template)
        if isinstance(value, Branches):
            return Branches([self.resolve(option, file, steps + 1) for option in value.options])
        if isinstance(value, Imported | Member):
            target, target_file = self._dereference(value, file, steps + 1)
            if isinstance(target, _Namespace):
                return OPAQUE
            return self.resolve(target, target_file, steps + 1)
        return value

    def _dereference(self, value: Expr, file: str, steps: int) -> tuple[Expr | _Namespace, str]:
        """Follow imports and property reads until a value that is not a reference.

        Returns that value with the file its own references are relative to; nested parts are
        left for `resolve`, so large exported objects are only walked where keys read them.
        """
        while steps <= _MAX_STEPS:
            steps += 1
            if isinstance(value, Imported):
                module = self._resolve_module(file, value.source)
                if module is None:
                    return OPAQUE, file
                if value.name == "*":
                    return _Namespace(module), module
                found = self._export(module, value.name, steps)
                if found is None:
                    return OPAQUE, file
                value, file = found
            elif isinstance(value, Member):
                target, target_file = self._dereference(value.target, file, steps)
                if isinstance(target, _Namespace):
                    found = self._export(target.file, value.name, steps)
                    if found is None:
                        return OPAQUE, file
                    value, file = found
                elif isinstance(target, Record):
                    value, file = target.fields.get(value.name, OPAQUE), target_file
                elif isinstance(target, Branches):
                    options: list[Expr] = [Member(option, value.name) for option in target.options]
                    return Branches(options), target_file
                else:
                    return OPAQUE, file
            else:
                return value, file
        return OPAQUE, file

    def _export(self, module: str, name: str, steps: int) -> tuple[Expr, str] | None:
        """What `module` exports as `name` (directly or through `export *`), with its file."""
        key = (module, name)
        if key in self._exports:
            return self._exports[key]
        self._exports[key] = None  # a cycle through `export *` finds nothing
        found = self._find_export(module, name, steps)
        self._exports[key] = found
        return found

    def _find_export(self, module: str, name: str, steps: int) -> tuple[Expr, str] | None:
        facts = self._facts_of(module)
        if facts is None or steps > _MAX_STEPS:
            return None
        if name in facts.exports:
            return facts.exports[name], module
        if name == "default":
            return None
        for source in facts.star_exports:
            target = self._resolve_module(module, source)
            found = self._export(target, name, steps + 1) if target is not None else None
            if found is not None:
                return found
        return None
