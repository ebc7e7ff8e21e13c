"""Each app's i18n set-up, read statically: the library and framework its `package.json` names,
and what its own set-up files tell the library (source locale, where locale files load from,
namespaces, separators) — parsed with tree-sitter, never run.

Only literal values count: `defaultNS: 'app'` is read, `defaultNS: name` gives nothing.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from tree_sitter import Node

from i18nprune.config.detect.findings import Finding
from i18nprune.config.detect.manifest import dependencies
from i18nprune.config.detect.type_options import declared_namespaces
from i18nprune.config.js_literal import LiteralReader, NotStatic, line_of
from i18nprune.config.static_reader import module_exports_value, top_level_names
from i18nprune.locale_codes import looks_like_locale_code
from i18nprune.locales.formats import format_of, locale_stem
from i18nprune.scan.aliases import ImportAliases, is_relative_module
from i18nprune.scan.discovery import DEFAULT_SKIP_DIRS
from i18nprune.syntax_tree import GrammarName, node_text, parse

MAX_DEPTH = 5
"""How many folders below an app's folder its set-up files are looked for."""
MAX_BYTES = 256 << 10
"""Larger files are not set-up files."""

_SUFFIXES = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts")
# Config files read at an app folder's root, in the order their values win.
_ROOT_CONFIGS = (
    "next-i18next.config",
    "i18next.config",
    "i18next-parser.config",
    "i18n.config",
    "nuxt.config",
    "lingui.config",
    "next.config",
)
# The catalog format a Lingui config's `format` names: Lingui 3's names, and the packages of
# Lingui 4's `formatter`s.
_LINGUI_FORMAT_NAMES = {"minimal": "json", "lingui": "json", "po": "po", "po-gettext": "po"}
_LINGUI_FORMATTERS = {
    "@lingui/format-json": "json",
    "@lingui/format-po": "po",
    "@lingui/format-po-gettext": "po",
}
# A file whose name holds one of these words may be a set-up file (`i18n.ts`, `locale.js`).
_NAME_WORDS = ("i18n", "intl", "locale", "lang")
# Any file in a folder whose name holds one of these may be (`i18n/config.ts`).
_SETUP_FOLDER_WORDS = ("i18n", "intl")
# In a `locales`/`lang` folder (which may hold many message modules) only these names are read.
_SETUP_STEMS = frozenset(
    {"index", "config", "setup", "init", "request", "routing", "instance", "client", "server"}
)
_NOT_APP_CODE = re.compile(r"\.(test|spec|stories|story|d)\.[cm]?[jt]sx?$")
# Folders no set-up lives in: tests, and the served assets (often thousands of locale files).
_NOT_SETUP_FOLDERS = frozenset(
    {"__tests__", "__mocks__", "test", "tests", "e2e", "cypress", "public", "static"}
)
# Cheap byte check before parsing: a set-up file calls one of these (or is a root config).
_SETUP_MARKERS = re.compile(
    rb"\b(?:init|createInstance|createI18n|register|addMessages|defineRouting|createMiddleware"
    rb"|getRequestConfig|defineI18nConfig|VueI18n)\s*\("
)

# Library → the dependency that names it, in the order one wins over another.
LIBRARIES = (
    "next-i18next",
    "@nuxtjs/i18n",
    "next-intl",
    "svelte-i18n",
    "vue-i18n",
    "react-intl",
    "react-i18next",
    "i18next",
)
# Framework → the dependency that shows it, in the order one wins over another.
_FRAMEWORKS = (
    ("nuxt", "nuxt"),
    ("next", "next"),
    ("sveltekit", "@sveltejs/kit"),
    ("expo", "expo"),
    ("react-native", "react-native"),
    ("angular", "@angular/core"),
    ("vue", "vue"),
    ("svelte", "svelte"),
    ("react", "react"),
)
# Folders an absolute (`/locales/…`) load path is served from.
_STATIC_FOLDERS = ("public", "static")
_NEXT_I18NEXT_NAMESPACE = "common"
"""next-i18next's own `defaultNS` when the config sets none."""
_NEXT_I18NEXT_LOCALE_PATH = "./public/locales"
"""next-i18next's own `localePath` when the config sets none."""


class ResourceRoot(NamedTuple):
    """A resource an i18next set-up gives a namespace from a locale file it imports: the object
    at `root` of `file` (`translation: en_US.ui` with `import en_US from '@i18n/en_US.yaml'`)."""

    file: str
    """The imported locale file, relative to the project root, POSIX."""
    root: str
    """The key path inside it, dotted as `locales.root` spells it (`""`: the whole file)."""
    origin: str
    """`file:line: resources.<lng>.<ns>` of the set-up that names it."""


@dataclass(frozen=True)
class AppSetup:
    """What one app folder's own i18n set-up says, each value with where it was read."""

    folder: str
    """The app folder, relative to the project root, POSIX (`.` for the root)."""
    library: str | None
    """The i18n library (one of `LIBRARIES`), from `package.json` or else the set-up file."""
    framework: str | None
    """`next`, `nuxt`, `sveltekit`, `vue`, `react`, `svelte`, `angular`, `react-native` or
    `expo`, from `package.json`."""
    source_locale: Finding | None
    locale_paths: list[Finding]
    """Folders (relative to the project root, POSIX, existing) the set-up loads locale files
    from."""
    default_namespace: Finding | None
    fallback_namespaces: Finding | None
    """A list of namespace names."""
    namespaces: Finding | None
    """The `ns` list."""
    key_separator: Finding | None
    """A string, or False."""
    ns_separator: Finding | None
    """A string, or False."""
    context_separator: Finding | None
    """A string."""
    plural_separator: Finding | None
    """A string."""
    functions: Finding | None
    """Translation function names an extractor's config adds to `t` (a list)."""
    hooks: Finding | None
    """Hook names an extractor's config lists besides react-i18next's (a list)."""
    trans_components: Finding | None
    """`<Trans>`-like component names an extractor's config lists besides `Trans`."""
    return_objects: Finding | None
    origins: list[str]
    """Every file (relative to the root) that contributed a value."""
    locale_format: Finding | None = None
    """The format of the app's catalogs, when its set-up names one (a Lingui config's
    `format`): `json` or `po`."""
    resource_roots: list[ResourceRoot] = field(default_factory=list)
    """The locale files (and the object in each) the set-up's i18next `resources` read."""


def read_setups(root: Path, folders: list[str]) -> list[AppSetup]:
    """The set-up of each of `folders` that has a `package.json` or a set-up file."""
    setups = []
    for folder in folders:
        if not (root / folder).is_dir():
            continue
        setup = read_app_setup(root, folder)
        if setup.origins or (root / folder / "package.json").is_file():
            setups.append(setup)
    return setups


def read_app_setup(root: Path, folder: str) -> AppSetup:
    """What the app in `folder` (relative to `root`) sets up, read from its `package.json`
    (the nearest at or above it that names a library, inside `root`) and its set-up files
    (config files at its root, and files named for i18n up to `MAX_DEPTH` folders below it).

    Never raises for unreadable or unparsable files: they add nothing.
    """
    root = root.resolve()
    base = (root / folder).resolve()
    found = _Collected()
    for file in setup_files(base):
        _read_file(file, root, base, found)
    _read_lingui_json(root, base, found)
    # What the app declares to TypeScript fills what its runtime set-up did not say.
    for name, finding in declared_namespaces(root, base).items():
        if name not in found.fields:
            found.fields[name] = finding
            found.origins[finding.origin.split(":", 1)[0]] = None
    library = _manifest_value(root, base, _library) or next(
        (library for library in LIBRARIES if library in found.libraries), None
    )
    return AppSetup(
        folder=base.relative_to(root).as_posix(),
        library=library,
        framework=_manifest_value(root, base, _framework),
        source_locale=found.fields.get("source_locale"),
        locale_paths=list(found.locale_paths.values()),
        default_namespace=found.fields.get("default_namespace"),
        fallback_namespaces=found.fields.get("fallback_namespaces"),
        namespaces=found.fields.get("namespaces"),
        key_separator=found.fields.get("key_separator"),
        ns_separator=found.fields.get("ns_separator"),
        context_separator=found.fields.get("context_separator"),
        plural_separator=found.fields.get("plural_separator"),
        functions=found.fields.get("functions"),
        hooks=found.fields.get("hooks"),
        trans_components=found.fields.get("trans_components"),
        return_objects=found.fields.get("return_objects"),
        origins=list(found.origins),
        locale_format=found.fields.get("locale_format"),
        resource_roots=found.resource_roots,
    )


# --- which files -------------------------------------------------------------------------------


def setup_files(base: Path) -> list[Path]:
    """The files of the app in `base` that may hold its set-up, in the order their values win:
    the config files at its root, then files named for i18n, shallowest first. Folders with a
    `package.json` of their own (other apps) are not entered."""
    configs = [
        base / f"{stem}{suffix}"
        for stem in _ROOT_CONFIGS
        for suffix in _SUFFIXES
        if (base / f"{stem}{suffix}").is_file()
    ]
    named = sorted(_named_files(base), key=lambda path: (len(path.parts), path.as_posix()))
    return [*configs, *(path for path in named if path not in configs)]


def _named_files(base: Path) -> Iterator[Path]:
    pending: list[tuple[str, int]] = [(str(base), 0)]
    while pending:
        folder, depth = pending.pop()
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError:
            continue
        names = [entry.name for entry in entries]
        if depth and "package.json" in names:
            continue  # another app's folder
        folder_name = os.path.basename(folder).lower()
        any_file = depth > 0 and any(word in folder_name for word in _SETUP_FOLDER_WORDS)
        stem_files = depth > 0 and any(word in folder_name for word in _NAME_WORDS)
        for entry, name in zip(entries, names, strict=True):
            if name.endswith(_SUFFIXES):
                lower = name.lower()
                if (
                    (
                        any_file
                        or any(word in lower for word in _NAME_WORDS)
                        or (stem_files and lower.split(".", 1)[0] in _SETUP_STEMS)
                    )
                    and _NOT_APP_CODE.search(name) is None
                    and entry.is_file()
                ):
                    yield Path(entry.path)
            elif depth < MAX_DEPTH and _walkable(name) and entry.is_dir(follow_symlinks=False):
                pending.append((entry.path, depth + 1))


def _walkable(name: str) -> bool:
    return not (name.startswith(".") or name in DEFAULT_SKIP_DIRS or name in _NOT_SETUP_FOLDERS)


# --- package.json ------------------------------------------------------------------------------


def _manifest_value(root: Path, base: Path, pick: Callable[[set[str]], str | None]) -> str | None:
    """`pick(dependencies)` of the nearest `package.json` at or above `base` (inside `root`)
    for which it gives a value."""
    folder = base
    while folder.is_relative_to(root):
        value = pick(dependencies(folder / "package.json"))
        if value is not None:
            return value
        if folder == root:
            break
        folder = folder.parent
    return None


def _library(dependencies: set[str]) -> str | None:
    return next((library for library in LIBRARIES if library in dependencies), None)


def _framework(dependencies: set[str]) -> str | None:
    return next((name for name, package in _FRAMEWORKS if package in dependencies), None)


# --- reading one file --------------------------------------------------------------------------


@dataclass
class _Collected:
    """What the files read so far found: the first value of each field wins."""

    fields: dict[str, Finding] = field(default_factory=dict)
    locale_paths: dict[str, Finding] = field(default_factory=dict)
    libraries: set[str] = field(default_factory=set)
    origins: dict[str, None] = field(default_factory=dict)
    resource_roots: list[ResourceRoot] = field(default_factory=list)


def _read_file(file: Path, root: Path, base: Path, found: _Collected) -> None:
    try:
        if file.stat().st_size > MAX_BYTES:
            return
        content = file.read_bytes()
    except OSError:
        return
    stem = file.name.split(".", 1)[0] + ".config" if ".config." in file.name else None
    is_root_config = file.parent == base and stem in _ROOT_CONFIGS
    if not is_root_config and _SETUP_MARKERS.search(content) is None:
        return
    grammar: GrammarName = (
        "tsx" if file.suffix == ".tsx" else "typescript" if "ts" in file.suffix else "javascript"
    )
    program = parse(content, grammar).root_node
    reading = _FileReading(file, root, base, program, found)
    if is_root_config and stem is not None:
        reading.read_root_config(stem)
    reading.read_calls()
    if reading.is_setup:
        reading.read_json_imports()
        found.libraries.update(reading.libraries)


def _read_lingui_json(root: Path, base: Path, found: _Collected) -> None:
    """Lingui's config as JSON, where `lingui.config.*` does not hold it: `.linguirc`, else the
    `lingui` object of `package.json` (Lingui's own order); its source locale, catalog folders
    and format (Lingui 3's names: `po`, `minimal`, …)."""
    if any((base / f"lingui.config{suffix}").is_file() for suffix in _SUFFIXES):
        return  # Lingui reads that one alone
    for name, member in ((".linguirc", None), ("package.json", "lingui")):
        file = base / name
        try:
            if not file.is_file() or file.stat().st_size > MAX_BYTES:
                continue
            text = file.read_text("utf-8")
            config = json.loads(text)
        except (OSError, UnicodeDecodeError, ValueError):
            continue
        if member is not None:
            config = config.get(member) if isinstance(config, dict) else None
        if not isinstance(config, dict):
            continue
        relative = file.relative_to(root).as_posix()

        def origin(option: str, text: str = text, relative: str = relative) -> str:
            at = text.find(f'"{option}"')
            return f"{relative}:{text.count(chr(10), 0, at) + 1 if at >= 0 else 1}: {option}"

        source = _first_locale(config.get("sourceLocale"))
        if source is not None and "source_locale" not in found.fields:
            found.fields["source_locale"] = Finding(source, origin("sourceLocale"), True)
        catalogs = config.get("format")
        format_name = _LINGUI_FORMAT_NAMES.get(catalogs) if isinstance(catalogs, str) else None
        if format_name is not None and "locale_format" not in found.fields:
            found.fields["locale_format"] = Finding(format_name, origin("format"), True)
        listed = config.get("catalogs")
        for catalog in listed if isinstance(listed, list) else ():
            path = catalog.get("path") if isinstance(catalog, dict) else None
            if not isinstance(path, str):
                continue
            folder = _template_folder(base, path.removeprefix("<rootDir>").lstrip("/"))
            folder = Path(os.path.normpath(folder))
            if folder.is_relative_to(root) and folder.is_dir():
                where = folder.relative_to(root).as_posix() if folder != root else "."
                if where not in found.locale_paths:
                    found.locale_paths[where] = Finding(where, origin("catalogs"), True)
        found.origins[relative] = None
        return


class _FileReading:
    """Reads one parsed file's set-up calls and config into `found`."""

    def __init__(self, file: Path, root: Path, base: Path, program: Node, found: _Collected):
        self.file = file
        self.root = root
        self.base = base
        self.program = program
        self.found = found
        self.relative = file.relative_to(root).as_posix()
        self.bindings, self.imports = top_level_names(program)
        self.default_imports = _default_imports(program)
        self._aliases: ImportAliases | None = None
        self.is_setup = False
        self.libraries: set[str] = set()
        """The libraries this file imports or sets up (counted when it is a set-up file)."""
        for module in self.imports.values():
            self.note_library(module)

    def note_library(self, module: str) -> None:
        """Remember the library an imported or required `module` belongs to."""
        self.libraries.update(
            library
            for library in LIBRARIES
            if module == library or module.startswith(library + "/")
        )

    # values

    def literal(self, node: Node | None) -> Any:
        """The literal value of `node`, or `_UNREAD` when it has none. A member of a default
        import from a file of the app (`shared.contextSeparator`, with `import shared from
        './shared.mjs'`) is read from that file's exported object."""
        if node is None:
            return _UNREAD
        if node.type == "member_expression":
            return self._imported_member(node)
        try:
            return LiteralReader(self.bindings, self.imports).value(node)
        except (NotStatic, ValueError, OverflowError):
            return _UNREAD

    def _imported_member(self, node: Node) -> Any:
        target = node.child_by_field_name("object")
        member = node.child_by_field_name("property")
        if target is None or member is None or target.type != "identifier":
            return _UNREAD
        module = self.imports.get(node_text(target), "")
        if not module.startswith("."):
            return _UNREAD
        stem = (self.file.parent / module).resolve()
        for file in (stem, *(stem.with_name(stem.name + suffix) for suffix in _SUFFIXES)):
            if file.suffix in _SUFFIXES and file.is_file() and file.is_relative_to(self.root):
                return _exported_member(file, node_text(member))
        return _UNREAD

    def members(self, node: Node | None) -> dict[str, tuple[Node, Node]] | None:
        """An object expression's members (key → (key node, value node)), through local names,
        `as`/`satisfies`, wrapper calls (`defineConfig({…})`) and spreads of local objects;
        members whose key is not literal are left out. None when `node` is no object."""
        node = self._object_node(node, 0)
        if node is None:
            return None
        result: dict[str, tuple[Node, Node]] = {}
        for member in node.named_children:
            if member.type == "pair":
                key = member.child_by_field_name("key")
                value = member.child_by_field_name("value")
                name = _key_text(key)
                if name is not None and key is not None and value is not None:
                    result[name] = (key, value)
            elif member.type == "shorthand_property_identifier":
                result[node_text(member)] = (member, member)
            elif member.type == "spread_element" and member.named_children:
                result.update(self.members(member.named_children[0]) or {})
        return result

    def _object_node(self, node: Node | None, depth: int) -> Node | None:
        while node is not None and node.type in _TRANSPARENT and node.named_children:
            # `<Options>{…}` keeps its expression last; the others first
            node = node.named_children[-1 if node.type == "type_assertion" else 0]
        if node is None or depth > 8:
            return None
        if node.type == "object":
            return node
        if node.type == "identifier":
            return self._object_node(self.bindings.get(node_text(node)), depth + 1)
        if node.type in ("call_expression", "new_expression"):
            arguments = node.child_by_field_name("arguments")
            for argument in arguments.named_children if arguments is not None else ():
                found = self._object_node(argument, depth + 1)
                if found is not None:
                    return found
            return None
        if node.type in ("arrow_function", "function_expression", "function"):
            return self._object_node(_returned(node), depth + 1)
        return None

    # recording

    def record(self, name: str, value: Any, at: Node, what: str) -> None:
        if name not in self.found.fields:
            self.found.fields[name] = Finding(value, f"{self.relative}:{line_of(at)}: {what}", True)
            self.found.origins[self.relative] = None

    def record_path(self, folder: Path | None, at: Node, what: str) -> None:
        if folder is None:
            return
        folder = Path(os.path.normpath(folder))
        if not folder.is_relative_to(self.root) or not folder.is_dir():
            return
        relative = folder.relative_to(self.root).as_posix() if folder != self.root else "."
        if relative not in self.found.locale_paths:
            origin = f"{self.relative}:{line_of(at)}: {what}"
            self.found.locale_paths[relative] = Finding(relative, origin, True)
            self.found.origins[self.relative] = None

    # shapes

    def read_root_config(self, stem: str) -> None:
        exported = _exported(self.program)
        if stem == "nuxt.config":
            self.is_setup = self._read_nuxt(exported)
            return
        options = self.members(exported)
        if options is None:
            return
        self.is_setup = True
        if stem == "next.config":
            self._read_next_i18n_block(options)
        elif stem == "lingui.config":
            self._read_lingui(options)
        elif "extract" in options:
            self._read_i18next_cli(options)
        elif stem == "i18next-parser.config":
            self._read_i18next_parser(options)
        elif stem == "next-i18next.config":
            self.libraries.add("next-i18next")
            self._read_next_i18n_block(options)
            self._read_i18next(options, "")
            self._next_i18next_defaults(options, exported or self.program)
        else:
            self._read_i18next(options, "")

    def read_calls(self) -> None:
        for call in _calls(self.program):
            callee = call.child_by_field_name("function") or call.child_by_field_name("constructor")
            name = _callee_name(callee)
            arguments = call.child_by_field_name("arguments")
            first = arguments.named_children[0] if arguments and arguments.named_children else None
            if name == "require" and first is not None and first.type == "string":
                self.note_library(node_text(first)[1:-1])
            elif name in ("init", "createInstance"):
                options = self.members(first)
                if options is not None:
                    self.is_setup = True
                    self._read_i18next(options, "")
                    self._read_locale_option(options, "fallbackLocale")
            elif name in ("createI18n", "VueI18n", "defineI18nConfig"):
                options = self.members(first)
                if options is not None:
                    self.is_setup = True
                    self.libraries.add("@nuxtjs/i18n" if name == "defineI18nConfig" else "vue-i18n")
                    self._read_locale_option(options, "fallbackLocale", "locale")
            elif name in ("defineRouting", "createMiddleware"):
                options = self.members(first)
                if options is not None and "defaultLocale" in options:
                    self.is_setup = True
                    self._read_locale_option(options, "defaultLocale")
            elif name == "getRequestConfig" or (
                name in ("register", "addMessages") and first is not None and first.type == "string"
            ):
                self.is_setup = True

    def read_json_imports(self) -> None:
        """Locale folders from the JSON files the set-up imports or requires, statically or
        dynamically (`import(`../messages/${locale}.json`)`, vite's
        `import.meta.glob('./lang/*.json')`)."""
        for node in _walk(self.program):
            source: Node | None = None
            if node.type == "import_statement":
                source = node.child_by_field_name("source")
            elif node.type == "call_expression":
                callee = node.child_by_field_name("function")
                arguments = node.child_by_field_name("arguments")
                if (
                    callee is not None
                    and (callee.type == "import" or node_text(callee) in _LOADERS)
                    and arguments is not None
                    and arguments.named_children
                ):
                    source = arguments.named_children[0]
            if source is None or source.type not in ("string", "template_string"):
                continue
            folder = _locale_folder_of_import(source)
            if folder is not None:
                what = f"import {node_text(source)}"
                self.record_path(self.file.parent / folder, source, what)

    def _read_i18next(self, options: dict[str, tuple[Node, Node]], prefix: str) -> None:
        self._read_locale_option(options, "fallbackLng", "lng", prefix=prefix)
        for option, name, read in (
            ("defaultNS", "default_namespace", _first_name),
            ("fallbackNS", "fallback_namespaces", _names),
            ("ns", "namespaces", _names),
            ("keySeparator", "key_separator", _separator),
            ("nsSeparator", "ns_separator", _separator),
            ("contextSeparator", "context_separator", _context_separator),
            ("pluralSeparator", "plural_separator", _context_separator),
            ("returnObjects", "return_objects", _boolean),
        ):
            if option in options:
                key, value_node = options[option]
                value = read(self.literal(value_node))
                if value is not None:
                    self.record(name, value, key, prefix + option)
        backend = self.members(options["backend"][1]) if "backend" in options else None
        if backend is not None and "loadPath" in backend:
            key, value_node = backend["loadPath"]
            self.record_path(self._load_folder(value_node), key, prefix + "backend.loadPath")
        if "resources" in options:
            self._read_resources(options["resources"][1], prefix + "resources")

    def _read_resources(self, resources: Node, what: str) -> None:
        """The locale files i18next's `resources` (language → namespace → object) read, and the
        object of each: a default import of the file (`import en from './en.yaml'`, or
        `require(…)`), or a member of one (`en.ui`, `en['ui']`). Resources built any other way
        give nothing."""
        for language, (_, bundle) in (self.members(resources) or {}).items():
            for namespace, (key, value) in (self.members(bundle) or {}).items():
                read = self._imported_object(value)
                if read is None:
                    continue
                module, path = read
                file = self._module_file(module)
                if file is not None:
                    origin = f"{self.relative}:{line_of(key)}: {what}.{language}.{namespace}"
                    relative = file.relative_to(self.root).as_posix()
                    self.found.resource_roots.append(ResourceRoot(relative, ".".join(path), origin))
                    self.found.origins[self.relative] = None

    def _imported_object(self, node: Node) -> tuple[str, list[str]] | None:
        """The module an expression reads a default export of, and the keys it reads in it:
        `en_US.ui` → (`'@i18n/en_US.yaml'`, [`ui`]), through top-level `const`s."""
        path: list[str] = []
        for _ in range(16):
            while node.type in _TRANSPARENT and node.named_children:
                node = node.named_children[-1 if node.type == "type_assertion" else 0]
            if node.type in ("member_expression", "subscript_expression"):
                target = node.child_by_field_name("object")
                step = self._member_name(node)
                if target is None or step is None:
                    return None
                path.insert(0, step)
                node = target
            elif node.type == "identifier":
                name = node_text(node)
                if name in self.default_imports:
                    return self.default_imports[name], path
                bound = self.bindings.get(name)
                if bound is None:
                    return None
                node = bound
            elif node.type == "call_expression":
                module = _required_module(node)
                return (module, path) if module is not None else None
            else:
                return None
        return None

    def _member_name(self, node: Node) -> str | None:
        """The key a member access reads: `x.ui`'s `ui`, `x['ui']`'s; None when computed."""
        if node.type == "member_expression":
            member = node.child_by_field_name("property")
            if member is None or member.type != "property_identifier":
                return None
            return node_text(member)
        index = node.child_by_field_name("index")
        value = self.literal(index) if index is not None and index.type == "string" else None
        return value if isinstance(value, str) and value else None

    def _module_file(self, module: str) -> Path | None:
        """The locale file inside the project an import specifier names: relative to this
        file, or through the app's `tsconfig.json`/`jsconfig.json` paths (`@i18n/en.yaml`)."""
        if is_relative_module(module):
            candidates = [self.file.parent / module]
        else:
            if self._aliases is None:
                self._aliases = ImportAliases(str(self.base))
            candidates = [self.base / target for target in self._aliases.expand(module)]
        for candidate in candidates:
            file = Path(os.path.normpath(candidate))
            if format_of(file.name) and file.is_relative_to(self.root) and file.is_file():
                return file
        return None

    def _read_locale_option(
        self, options: dict[str, tuple[Node, Node]], *names: str, prefix: str = ""
    ) -> None:
        for option in names:
            if option in options:
                key, value_node = options[option]
                value = _first_locale(self.literal(value_node))
                if value is not None:
                    self.record("source_locale", value, key, prefix + option)
                return  # a later option counts only when this one is absent

    def _next_i18next_defaults(self, options: dict[str, tuple[Node, Node]], at: Node) -> None:
        if "defaultNS" not in options:
            what = "next-i18next's default defaultNS"
            self.record("default_namespace", _NEXT_I18NEXT_NAMESPACE, at, what)
        if "localePath" in options:
            key, value_node = options["localePath"]
            self.record_path(self._path(value_node), key, "localePath")
        else:
            where = self.base / _NEXT_I18NEXT_LOCALE_PATH
            self.record_path(where, at, "next-i18next's default localePath")

    def _read_next_i18n_block(self, options: dict[str, tuple[Node, Node]]) -> None:
        block = self.members(options["i18n"][1]) if "i18n" in options else None
        if block is not None:
            self._read_locale_option(block, "defaultLocale", prefix="i18n.")

    def _read_i18next_cli(self, options: dict[str, tuple[Node, Node]]) -> None:
        extract = self.members(options["extract"][1]) or {}
        self._read_i18next(extract, "extract.")
        if "primaryLanguage" in extract:
            self._read_locale_option(extract, "primaryLanguage", prefix="extract.")
        else:
            self._read_locale_option(options, "locales")
        if "output" in extract:
            key, value_node = extract["output"]
            output = self.literal(value_node)
            if isinstance(output, str):
                self.record_path(_template_folder(self.base, output), key, "extract.output")
        for option, name, read in (
            ("functions", "functions", _function_names),
            ("useTranslationNames", "hooks", _hook_names),
            ("transComponents", "trans_components", _trans_names),
        ):
            if option in extract:
                key, value_node = extract[option]
                value = read(self.literal(value_node))
                if value:
                    self.record(name, value, key, f"extract.{option}")

    def _read_i18next_parser(self, options: dict[str, tuple[Node, Node]]) -> None:
        """i18next-parser's config: its separators, default namespace, locale folder
        (`output`) and the names its lexers read."""
        self.libraries.add("i18next")
        for option, name, read in (
            ("defaultNamespace", "default_namespace", _first_name),
            ("keySeparator", "key_separator", _separator),
            ("namespaceSeparator", "ns_separator", _separator),
            ("contextSeparator", "context_separator", _context_separator),
            ("pluralSeparator", "plural_separator", _context_separator),
        ):
            if option in options:
                key, value_node = options[option]
                value = read(self.literal(value_node))
                if value is not None:
                    self.record(name, value, key, option)
        if "output" in options:
            key, value_node = options["output"]
            output = self.literal(value_node)
            if isinstance(output, str):
                folder = output.replace("$LOCALE", "{{lng}}").replace("$NAMESPACE", "{{ns}}")
                self.record_path(_template_folder(self.base, folder), key, "output")
        lexers = self.literal(options["lexers"][1]) if "lexers" in options else None
        functions: list[str] = []
        components: list[str] = []
        for configs in lexers.values() if isinstance(lexers, dict) else ():
            for lexer in configs if isinstance(configs, list) else ():
                if isinstance(lexer, dict):
                    functions += _function_names(lexer.get("functions")) or []
                    components += _trans_names(lexer.get("componentFunctions")) or []
        if functions and "lexers" in options:
            self.record("functions", list(dict.fromkeys(functions)), options["lexers"][0], "lexers")
        if components and "lexers" in options:
            key = options["lexers"][0]
            self.record("trans_components", list(dict.fromkeys(components)), key, "lexers")

    def _read_lingui(self, options: dict[str, tuple[Node, Node]]) -> None:
        self._read_locale_option(options, "sourceLocale")
        if "format" in options:
            key, value = options["format"]
            catalogs = self._lingui_format(value)
            if catalogs is not None:
                self.record("locale_format", catalogs, key, "format")
        catalogs = self.literal(options["catalogs"][1]) if "catalogs" in options else None
        for catalog in catalogs if isinstance(catalogs, list) else ():
            path = catalog.get("path") if isinstance(catalog, dict) else None
            if isinstance(path, str):
                path = path.removeprefix("<rootDir>").lstrip("/")
                key = options["catalogs"][0]
                self.record_path(_template_folder(self.base, path), key, "catalogs.path")

    def _lingui_format(self, value: Node) -> str | None:
        """The format of a Lingui config's catalogs: `formatter(…)` imported from
        `@lingui/format-json` (`json`) or `@lingui/format-po` / `format-po-gettext` (`po`), or
        Lingui 3's names (`'minimal'`, `'lingui'`: JSON; `'po'`, `'po-gettext'`); None for any
        other (CSV, a formatter of the project's own)."""
        if value.type == "string":
            return _LINGUI_FORMAT_NAMES.get(node_text(value)[1:-1])
        if value.type != "call_expression":
            return None
        function = value.child_by_field_name("function")
        if function is None or function.type != "identifier":
            return None
        return _LINGUI_FORMATTERS.get(self.imports.get(node_text(function), ""))

    def _read_nuxt(self, exported: Node | None) -> bool:
        config = self.members(exported)
        if config is None:
            return False
        block = self.members(config["i18n"][1]) if "i18n" in config else None
        if block is None and "modules" in config:
            block = self._nuxt_module_options(config["modules"][1])
        if block is None:
            return False
        self.libraries.add("@nuxtjs/i18n")
        self._read_locale_option(block, "defaultLocale", prefix="i18n.")
        lang_dir = self.literal(block["langDir"][1]) if "langDir" in block else _UNREAD
        at = block["langDir"][0] if "langDir" in block else exported or self.program
        if isinstance(lang_dir, str):
            names = [lang_dir]
        elif "locales" in block:
            names = ["locales"]  # the module's own langDir when locales name files
        else:
            names = []
        for name in names:
            relative = name.removeprefix("~/").removeprefix("./")
            # v9 and later resolve langDir under `i18n/`; v8 under the source folder
            for parent in ("i18n", "", "app", "src"):
                candidate = Path(os.path.normpath(self.base / parent / relative))
                if candidate.is_dir():
                    self.record_path(candidate, at, "i18n.langDir")
                    break
        return True

    def _nuxt_module_options(self, modules: Node) -> dict[str, tuple[Node, Node]] | None:
        if modules.type != "array":
            return None
        for entry in modules.named_children:
            named = entry.named_children
            if (
                entry.type == "array"
                and len(named) >= 2
                and self.literal(named[0]) == "@nuxtjs/i18n"
            ):
                return self.members(named[1])
        return None

    def _load_folder(self, node: Node) -> Path | None:
        """The folder an i18next backend `loadPath` loads from (the part before `{{lng}}`);
        a path starting with `/` is served from the app's public (or static) folder."""
        text = self.literal(node)
        if isinstance(text, list) and text:
            text = text[0]
        if isinstance(text, str):
            if text.startswith("/"):
                return self._static_folder(text)
            return _template_folder(self.base, text)
        return self._path(node, template=True)

    def _static_folder(self, served: str) -> Path | None:
        """The folder a path the app serves (`/locales/{{lng}}/…`) comes from: under its
        public (or static) folder."""
        for static in _STATIC_FOLDERS:
            folder = _template_folder(self.base / static, served.lstrip("/"))
            if folder is not None and folder.is_dir():
                return folder
        return None

    def _path(self, node: Node, template: bool = False) -> Path | None:
        """The literal path `node` spells: a string, or `path.join`/`path.resolve` of strings,
        `__dirname` (this file's folder) and `process.cwd()` (the app's folder)."""
        text = self.literal(node)
        if isinstance(text, str):
            if text.startswith("/"):
                return self._static_folder(text)
            return _template_folder(self.base, text) if template else self.base / text
        if node.type == "ternary_expression":  # `typeof window === 'undefined' ? a : b`
            for branch in ("consequence", "alternative"):
                found = self._path(node.child_by_field_name(branch) or node, template)
                if found is not None and found.is_dir():
                    return found
            return None
        if node.type != "call_expression":
            return None
        callee = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if _callee_name(callee) not in ("join", "resolve") or arguments is None:
            return None
        folder = self.base
        parts: list[str] = []
        for argument in arguments.named_children:
            text = node_text(argument)
            if text == "__dirname":
                folder = self.file.parent
            elif text == "process.cwd()":
                folder = self.base
            else:
                value = self.literal(argument)
                if not isinstance(value, str):
                    return None
                parts.append(value)
        joined = posixpath.join(*parts) if parts else ""
        return _template_folder(folder, joined) if template else folder / joined


_LOADERS = frozenset({"require", "import.meta.glob"})


class _Unread:
    """The value of an expression that is not a literal."""


_UNREAD: Any = _Unread()
_TRANSPARENT = frozenset(
    {
        "parenthesized_expression",
        "as_expression",
        "satisfies_expression",
        "type_assertion",
        "non_null_expression",
        "await_expression",
    }
)


def _walk(node: Node) -> Iterator[Node]:
    pending = [node]
    while pending:
        current = pending.pop()
        yield current
        pending.extend(reversed(current.named_children))


def _calls(program: Node) -> Iterator[Node]:
    return (node for node in _walk(program) if node.type in ("call_expression", "new_expression"))


def _callee_name(callee: Node | None) -> str | None:
    if callee is None:
        return None
    if callee.type == "identifier":
        return node_text(callee)
    if callee.type == "member_expression":
        member = callee.child_by_field_name("property")
        return node_text(member) if member is not None else None
    return None


def _key_text(key: Node | None) -> str | None:
    if key is None:
        return None
    if key.type in ("property_identifier", "identifier"):
        return node_text(key)
    if key.type == "string":
        return node_text(key)[1:-1]
    return None


def _returned(function: Node) -> Node | None:
    """The expression an arrow or function returns: its expression body, or the value of the
    first `return` directly in its block."""
    body = function.child_by_field_name("body")
    if body is None or body.type != "statement_block":
        return body
    for statement in body.named_children:
        if statement.type == "return_statement" and statement.named_children:
            return statement.named_children[0]
    return None


def _exported_member(file: Path, name: str) -> Any:
    """The literal value of member `name` of the object `file` exports (`_UNREAD` without)."""
    try:
        if file.stat().st_size > MAX_BYTES:
            return _UNREAD
        content = file.read_bytes()
    except OSError:
        return _UNREAD
    grammar: GrammarName = "typescript" if "ts" in file.suffix else "javascript"
    program = parse(content, grammar).root_node
    exported = _exported(program)
    if exported is None:
        return _UNREAD
    try:
        value = LiteralReader(*top_level_names(program)).value(exported)
    except (NotStatic, ValueError, OverflowError):
        return _UNREAD
    return value.get(name, _UNREAD) if isinstance(value, dict) else _UNREAD


def _exported(program: Node) -> Node | None:
    """The value a config module exports: `export default …` or `module.exports = …`."""
    exported: Node | None = None
    for statement in program.named_children:
        if statement.type == "export_statement" and any(
            child.type == "default" for child in statement.children
        ):
            exported = statement.child_by_field_name("value") or exported
        elif statement.type == "expression_statement":
            exported = module_exports_value(statement) or exported
    return exported


def _default_imports(program: Node) -> dict[str, str]:
    """The names a module's top-level imports bind to another module's default export
    (`import en from './en.json'` → `en`), with the module."""
    found: dict[str, str] = {}
    for statement in program.named_children:
        source = statement.child_by_field_name("source")
        if statement.type != "import_statement" or source is None:
            continue
        for clause in statement.named_children:
            if clause.type == "import_clause":
                for child in clause.named_children:
                    if child.type == "identifier":
                        found[node_text(child)] = node_text(source)[1:-1]
    return found


def _required_module(call: Node) -> str | None:
    """The module `require('…')` names."""
    callee = call.child_by_field_name("function")
    arguments = call.child_by_field_name("arguments")
    if callee is None or node_text(callee) != "require" or arguments is None:
        return None
    named = arguments.named_children
    return node_text(named[0])[1:-1] if len(named) == 1 and named[0].type == "string" else None


def _first_locale(value: Any) -> str | None:
    """A locale option's source locale: a string, the first of a list, or the `default` entry
    of i18next's per-language object form."""
    if isinstance(value, dict):
        value = value.get("default")
    if isinstance(value, list):
        value = value[0] if value else None
    return value if isinstance(value, str) and value else None


def _first_name(value: Any) -> str | None:
    names = _names(value)
    return names[0] if names else None


def _names(value: Any) -> list[str] | None:
    if isinstance(value, str) and value:
        return [value]
    if isinstance(value, list) and value and all(isinstance(item, str) for item in value):
        return list(value)
    return None


def _function_names(value: Any) -> list[str] | None:
    """An extractor's translation function names beyond `t`, as `functions` spells them:
    `*.t` (any object's `t`) is the bare `t`, which matches `x.t` already."""
    if not isinstance(value, list):
        return None
    names = [item.removeprefix("*.") for item in value if isinstance(item, str)]
    return [name for name in dict.fromkeys(names) if name and name != "t" and "*" not in name]


_DEFAULT_HOOKS = frozenset({"useTranslation", "getT", "useT", "withTranslation"})


def _hook_names(value: Any) -> list[str] | None:
    """i18next-cli's `useTranslationNames` beyond its defaults: names, and objects whose
    namespace and key prefix are where `useTranslation` takes them (`nsArg: 0`,
    `keyPrefixArg: 1`); others would be misread, so they are left out."""
    if not isinstance(value, list):
        return None
    names = []
    for item in value:
        if (
            isinstance(item, dict)
            and item.get("nsArg", 0) == 0
            and item.get("keyPrefixArg", 1) == 1
        ):
            item = item.get("name")
        if isinstance(item, str) and item not in _DEFAULT_HOOKS:
            names.append(item)
    return list(dict.fromkeys(names))


def _trans_names(value: Any) -> list[str] | None:
    if not isinstance(value, list):
        return None
    return [item for item in dict.fromkeys(value) if isinstance(item, str) and item != "Trans"]


def _separator(value: Any) -> str | bool | None:
    return value if isinstance(value, str) or value is False else None


def _context_separator(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _boolean(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None


def _template_folder(base: Path, template: str) -> Path:
    """The folder of a path template (`locales/{{lng}}/{{ns}}.json`, `messages/{locale}`):
    its literal folders before the first placeholder, under `base`."""
    literal = re.split(r"\{\{|\{|\$\{", template, maxsplit=1)[0]
    if not literal or literal.endswith("/"):
        return base / literal
    folder = posixpath.dirname(literal)
    return base / folder if folder else base


def _locale_folder_of_import(source: Node) -> str | None:
    """The locale folder (relative to the importing file) a locale file's import path names (any
    locale format: `.json`, `.yaml`, …): the folder
    before a `${…}` hole or glob `*`, or the folder of a file or folder named like a locale code
    (`./locales/en.json`, `./locales/en/common.json`)."""
    text = "".join(
        "\0" if child.type == "template_substitution" else node_text(child)
        for child in source.named_children
        if child.type in ("string_fragment", "template_substitution")
    )
    text = text.split("?", 1)[0].replace("*", "\0")  # a glob's `*` is a hole too
    if not text.startswith(".") or format_of(text) is None:
        return None
    parts = text.split("/")
    if "\0" in text:
        first_hole = next(index for index, part in enumerate(parts) if "\0" in part)
        folder = parts[:first_hole]
    elif looks_like_locale_code(locale_stem(parts[-1]) or ""):
        folder = parts[:-1]
    elif len(parts) > 2 and looks_like_locale_code(parts[-2]):
        folder = parts[:-2]
    else:
        return None
    if folder and looks_like_locale_code(folder[-1]):
        folder = folder[:-1]  # `./locales/en/${ns}.json`
    return "/".join(folder) or "."
