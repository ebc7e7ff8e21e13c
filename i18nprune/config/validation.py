"""Checking a config document against the schema: an unknown key gets a "did you mean", a wrong
value a sentence naming the key, what it accepts and what it got (never a secret's value).
"""

from __future__ import annotations

import difflib
import re
from typing import Any

import msgspec
import msgspec.inspect as schema_info

from i18nprune.config.document import ConfigDocument, KeyPath, format_key_path
from i18nprune.config.schema import FORMALITY_VALUES, Config
from i18nprune.config.secrets import is_secret_name
from i18nprune.envelope import Code, Issue, ProblemError, error

_SCHEMA = schema_info.type_info(Config)
assert isinstance(_SCHEMA, schema_info.StructType)
_ERROR_PATH = re.compile(r"^(?P<what>.*) - at `\$(?P<path>[^`]*)`$", re.DOTALL)
_PATH_PART = re.compile(r"\.([^.\[]+)|\[(\d+)\]")
_MISSING_FIELD = re.compile(r"^Object missing required field `(?P<field>[^`]+)`$")


def validate_document(document: ConfigDocument) -> None:
    """Raise ProblemError unless `document.data` is a valid (partial) configuration.

    CONFIG_UNKNOWN_KEY for every unknown key (in file order, all in one ProblemError),
    CONFIG_INVALID for a value of the wrong type or outside its allowed values. Messages start
    with `file:line`.
    """
    unknown: list[Issue] = []
    _check_keys(document, document.data, _SCHEMA, (), unknown)
    if unknown:
        raise ProblemError(*unknown)
    try:
        config = msgspec.convert(document.data, Config)
    except msgspec.ValidationError as problem:
        raise ProblemError(_invalid_value_issue(document, str(problem))) from None
    _check_values(document, config)


def _check_values(document: ConfigDocument, config: Config) -> None:
    """Values the types allow but the product does not (a separator `true`, an empty `src`)."""
    locales = config.locales
    problems: list[tuple[KeyPath, str]] = []
    if locales.key_separator is True or locales.key_separator == "":
        problems.append((("locales", "keySeparator"), 'a non-empty string (`"."`) or `false`'))
    if locales.ns_separator is True or locales.ns_separator == "":
        problems.append((("locales", "nsSeparator"), 'a non-empty string (`":"`) or `false`'))
    if not config.src_dirs() or any(not src.strip() for src in config.src_dirs()):
        problems.append((("src",), "a directory, or a non-empty list of directories"))
    if not locales.context_separator:
        problems.append((("locales", "contextSeparator"), 'a non-empty string (`"_"`)'))
    if not locales.plural_separator:
        problems.append((("locales", "pluralSeparator"), 'a non-empty string (`"_"`)'))
    if not locales.default_namespace.strip():
        problems.append((("locales", "defaultNamespace"), "a namespace name"))
    for index, scope in enumerate(locales.scopes):
        if not scope.src.strip() or not scope.default_namespace.strip():
            accepted = (
                'a folder and a namespace (`{"src": "apps/mobile", "defaultNamespace": "m"}`)'
            )
            problems.append((("locales", "scopes", index), accepted))
    if locales.root and not _is_key_root(locales.root):
        problems.append((("locales", "root"), _KEY_ROOT_ACCEPTED))
    if not 0 <= config.reference.max_unused_share <= 1:
        problems.append((("reference", "maxUnusedShare"), "a share from 0 to 1 (`0.5`)"))
    if any(not folder.strip() for folder in config.reference.repository.folders):
        problems.append((("reference", "repository", "folders"), "a list of folders"))
    problems.extend(_formality_problems(config))
    for path, accepted in problems:
        where = document.location(path)
        got = _describe_value(_value_at(document.data, path), secret=False)
        message = f"{where}: `{format_key_path(path)}` must be {accepted}, got {got}"
        raise ProblemError(error(Code.CONFIG_INVALID, message, where))
    _check_glossary(document, config)


_KEY_ROOT_ACCEPTED = (
    'a dotted path of object keys (`"mappings"`, `"data.messages"`), or `""` for the top level'
)
# A key ending in `[n]` reads as an array index in a leaf path; keys start in an object.
_ARRAY_INDEX = re.compile(r"\[\d+\]$")


def _is_key_root(root: str) -> bool:
    """Whether `root` names an object by keys alone: no empty key, none with spaces around it
    (a typo far more often than a key), no array index."""
    return all(
        key and key == key.strip() and not _ARRAY_INDEX.search(key) for key in root.split(".")
    )


def _check_glossary(document: ConfigDocument, config: Config) -> None:
    """Glossary entries with an unusable term or translation, or a term given twice."""
    if not config.translate.glossary:
        return
    from i18nprune.config.terms import term_problems  # placeholders' parser: only when needed

    seen: dict[str, int] = {}
    for index, entry in enumerate(config.translate.glossary):
        entry_path: KeyPath = ("translate", "glossary", index)
        problems = term_problems(entry.term, entry.translations)
        if problems:
            suffix, problem = problems[0]
            path: KeyPath = (*entry_path, *suffix)
            where = document.location(path)
            message = f"{where}: `{format_key_path(path)}` {problem}"
            raise ProblemError(error(Code.CONFIG_INVALID, message, where))
        first = seen.setdefault(entry.term.casefold(), index)
        if first != index:
            where = document.location((*entry_path, "term"))
            message = (
                f"{where}: `translate.glossary[{index}].term` repeats the term of "
                f"`translate.glossary[{first}]` (`{entry.term}`); keep one of them"
            )
            raise ProblemError(error(Code.CONFIG_INVALID, message, where))


def _formality_problems(config: Config) -> list[tuple[KeyPath, str]]:
    """Provider rows whose `formality` (a value, or a value per target) is not DeepL's."""
    accepted = "one of " + ", ".join(f"`{value}`" for value in FORMALITY_VALUES)
    problems: list[tuple[KeyPath, str]] = []
    for index, row in enumerate(config.translate.providers):
        path: KeyPath = ("translate", "providers", index, "formality")
        if isinstance(row.formality, str) and row.formality not in FORMALITY_VALUES:
            problems.append((path, accepted))
        elif isinstance(row.formality, dict):
            problems.extend(
                ((*path, target), accepted)
                for target, value in row.formality.items()
                if value not in FORMALITY_VALUES
            )
    return problems


def _check_keys(
    document: ConfigDocument,
    value: Any,
    expected: schema_info.Type,
    path: KeyPath,
    unknown: list[Issue],
) -> None:
    """Append an issue to `unknown` for every key the schema does not have, in file order."""
    struct = _struct_of(expected)
    if struct is not None and isinstance(value, dict):
        fields = {field.encode_name: field for field in struct.fields}
        for key, child in value.items():
            field = fields.get(key)
            if field is None:
                unknown.append(_unknown_key_issue(document, (*path, key), list(fields)))
                continue
            _check_keys(document, child, field.type, (*path, key), unknown)
    item_type = _list_item_of(expected)
    if item_type is not None and isinstance(value, list):
        for index, item in enumerate(value):
            _check_keys(document, item, item_type, (*path, index), unknown)


def _unknown_key_issue(document: ConfigDocument, path: KeyPath, siblings: list[str]) -> Issue:
    where = document.location(path)
    key = str(path[-1])
    message = f"{where}: unknown key `{format_key_path(path)}`"
    suggestion = _suggest(key, path[:-1], siblings)
    if suggestion is not None:
        message += f"; did you mean `{suggestion}`?"
    else:
        message += f"; the keys allowed here are {', '.join(f'`{name}`' for name in siblings)}"
    return error(Code.CONFIG_UNKNOWN_KEY, message, where)


def _suggest(key: str, parent: KeyPath, siblings: list[str]) -> str | None:
    """The dotted path the user most likely meant: a near sibling (`sorce`, `use_default_skip`,
    `Source`), else the same name elsewhere in the schema (`source` → `locales.source`)."""
    by_folded = {_fold(name): name for name in siblings}
    close = difflib.get_close_matches(_fold(key), list(by_folded), n=1, cutoff=0.7)
    if close:
        return format_key_path((*parent, by_folded[close[0]]))
    elsewhere = [
        dotted for dotted in _SCHEMA_PATHS if _fold(dotted.rsplit(".", 1)[-1]) == _fold(key)
    ]
    return elsewhere[0] if len(elsewhere) == 1 else None


def _fold(name: str) -> str:
    return name.lower().replace("_", "").replace("-", "")


def _schema_paths(struct: schema_info.StructType, prefix: str = "") -> list[str]:
    paths: list[str] = []
    for field in struct.fields:
        dotted = f"{prefix}.{field.encode_name}" if prefix else field.encode_name
        paths.append(dotted)
        if isinstance(field.type, schema_info.StructType):
            paths.extend(_schema_paths(field.type, dotted))
    return paths


_SCHEMA_PATHS = _schema_paths(_SCHEMA)


def _invalid_value_issue(document: ConfigDocument, message: str) -> Issue:
    located = _ERROR_PATH.match(message)
    if located is None:
        where = document.location()
        return error(Code.CONFIG_INVALID, f"{where}: {message}", where)
    path = _parse_error_path(located["path"])
    where = document.location(path)
    dotted = format_key_path(path)
    missing = _MISSING_FIELD.match(located["what"])
    expected = _type_at(path)
    if missing is not None:
        text = f"`{dotted}` is missing the required field `{missing['field']}`"
    elif expected is not None:
        secret = any(isinstance(part, str) and is_secret_name(part) for part in path)
        got = _describe_value(_value_at(document.data, path), secret=secret)
        text = f"`{dotted}` must be {_describe_type(expected)}, got {got}"
    else:
        text = f"`{dotted}`: {located['what']}"
    return error(Code.CONFIG_INVALID, f"{where}: {text}", where)


def _parse_error_path(text: str) -> KeyPath:
    return tuple(int(index) if index else name for name, index in _PATH_PART.findall(text))


def _type_at(path: KeyPath) -> schema_info.Type | None:
    current: schema_info.Type | None = _SCHEMA
    for part in path:
        if current is None:
            return None
        if isinstance(part, int):
            current = _list_item_of(current)
            continue
        struct = _struct_of(current)
        fields = {field.encode_name: field for field in struct.fields} if struct else {}
        current = fields[part].type if part in fields else None
    return current


def _value_at(data: Any, path: KeyPath) -> Any:
    for part in path:
        data = data[part]
    return data


def _struct_of(expected: schema_info.Type) -> schema_info.StructType | None:
    if isinstance(expected, schema_info.StructType):
        return expected
    if isinstance(expected, schema_info.UnionType):
        for member in expected.types:
            if isinstance(member, schema_info.StructType):
                return member
    return None


def _list_item_of(expected: schema_info.Type) -> schema_info.Type | None:
    if isinstance(expected, schema_info.ListType):
        return expected.item_type
    if isinstance(expected, schema_info.UnionType):
        for member in expected.types:
            if isinstance(member, schema_info.ListType):
                return member.item_type
    return None


_SINGULAR: dict[type, str] = {
    schema_info.StrType: "a string",
    schema_info.IntType: "a whole number",
    schema_info.FloatType: "a number",
    schema_info.BoolType: "`true` or `false`",
    schema_info.NoneType: "`null`",
    schema_info.StructType: "an object",
    schema_info.DictType: "an object",
}


def _describe_type(expected: schema_info.Type) -> str:
    """How a person would say what a field accepts: "a string", "one of `a`, `b`", …"""
    if isinstance(expected, schema_info.UnionType):
        return " or ".join(_describe_type(member) for member in expected.types)
    if isinstance(expected, schema_info.LiteralType):
        return "one of " + ", ".join(f"`{value}`" for value in expected.values)
    if isinstance(expected, schema_info.ListType):
        return f"a list of {_plural(expected.item_type)}"
    return _SINGULAR.get(type(expected), "a value of another type")


def _plural(item: schema_info.Type) -> str:
    if isinstance(item, schema_info.StrType):
        return "strings"
    if isinstance(item, schema_info.StructType):
        return "objects"
    return "values"


def _describe_value(value: Any, *, secret: bool) -> str:
    if value is None:
        return "`null`"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return "a boolean" if secret else f"`{str(value).lower()}`"
    if isinstance(value, int | float):
        return "a number" if secret else f"the number `{value}`"
    if secret:
        return "a string"
    shown = value if len(value) <= 40 else value[:39] + "…"
    return f'the string `"{shown}"`'
