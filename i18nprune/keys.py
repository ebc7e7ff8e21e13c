"""Key identity: how a key written in code names a locale path, and in which i18next namespace.

A key is `(namespace, path)`. With namespaces off every key is in the one unnamed namespace
(`None`), so code that handles namespaces needs no second path for projects without them.
"""

from __future__ import annotations

import re

import msgspec

from i18nprune.config.schema import LocalesConfig
from i18nprune.locales.paths import array_key
from i18nprune.plural_forms import PluralForms, plural_forms

# i18next's test for a key that reads as natural language rather than an object path: it
# holds one of these (its `looksLikeObjectPath`), so `t('Error: try again')` names no namespace.
_NATURAL_LANGUAGE = re.compile(r"[ ,?!;]")


class KeySyntax(msgspec.Struct, frozen=True, kw_only=True):
    """The project's key separators and namespaces (`locales.*`;
    docs/evidence.md#keys-have-a-namespace).

    `namespaces` lists the source locale's namespaces when namespaces are on (`None`: off);
    a key's leading `ns:` names a namespace only when it is one of them. `key_separator` is
    `"."` or `None` (keys are flat strings that may contain dots), and `key_spelling` the
    separator code writes between nested keys (i18next's `keySeparator`, any string: `home-title`
    with `-` is the path `home.title`); `ns_separator` is `None`
    when keys never name a namespace; `context_separator` joins a key and its i18next context
    (`friend_male`), `plural_separator` a key and its plural suffix (`item_one`).
    """

    namespaces: frozenset[str] | None = None
    default_namespace: str = "translation"
    ns_separator: str | None = ":"
    key_separator: str | None = "."
    key_spelling: str = "."
    context_separator: str = "_"
    plural_separator: str = "_"
    root: str = ""
    """Where keys start inside a locale file (`locales.root`; `""`: its top level)."""
    return_objects: bool = False
    """Every call may return an object (`locales.returnObjects`): a key naming a subtree uses
    all of it."""
    key_references: bool = False
    """A message's `{{ name }}` may name another key (Transloco's key references; a project
    whose `functions` name Transloco's pipe or directive)."""

    @classmethod
    def of(cls, locales: LocalesConfig, namespaces: frozenset[str] = frozenset()) -> KeySyntax:
        """The syntax `locales` configures; `namespaces` are the source's, when they are on."""
        return cls(
            namespaces=namespaces | {locales.default_namespace}
            if locales.namespaces == "file"
            else None,
            default_namespace=locales.default_namespace,
            ns_separator=locales.ns_separator if isinstance(locales.ns_separator, str) else None,
            key_separator="." if isinstance(locales.key_separator, str) else None,
            key_spelling=locales.key_separator if isinstance(locales.key_separator, str) else ".",
            context_separator=locales.context_separator,
            plural_separator=locales.plural_separator,
            root=locales.root,
            return_objects=locales.return_objects,
        )

    def below_root(self, path: str) -> str:
        """A path into a whole locale file (`mappings.home.title`) as a key path: what lies
        below `root` (`home.title`); `""` for the root itself or anything outside it."""
        if not self.root:
            return path
        if path.startswith(self.root + "."):
            return path[len(self.root) + 1 :]
        return ""

    def code_path(self, text: str) -> str:
        """A key as code spells it (`home-title` under `keySeparator: "-"`) as a locale path
        (`home.title`); the text itself with `.` or flat keys."""
        if self.key_separator is None or self.key_spelling == ".":
            return text
        return text.replace(self.key_spelling, ".")

    def code_spelling(self, path: str) -> str:
        """A locale path as code spells it (the reverse of `code_path`)."""
        if self.key_separator is None or self.key_spelling == ".":
            return path
        return path.replace(".", self.key_spelling)

    @property
    def plurals(self) -> PluralForms:
        """The plural forms of keys under this syntax's plural separator."""
        return plural_forms(self.plural_separator)

    @property
    def uses_namespaces(self) -> bool:
        return self.namespaces is not None

    def split_namespace(self, text: str) -> tuple[str | None, str]:
        """`(namespace, rest)` of a key as written; the namespace is `None` when it names none.

        With namespaces on, `auth:title` names `auth` only when `auth` is a namespace of the
        source. With them off the namespace is dropped as i18next reads it (`common:title` is
        `title`), except from keys that read as natural language.
        """
        separator = self.ns_separator
        if separator is None or separator not in text:
            return None, text
        if self.namespaces is not None and separator == self.key_separator:
            # sveltekit-i18n and the like: a file's path is its keys' prefix (`a11y.save.x`
            # for `a11y/save.json`), so the longest namespace that starts the key names it.
            for namespace in sorted(self.namespaces, key=len, reverse=True):
                spelled = self.spell(namespace) + separator
                if text.startswith(spelled):
                    return namespace, text[len(spelled) :]
            return None, text
        head, rest = text.split(separator, 1)
        if self.namespaces is not None:
            return (head, rest) if head in self.namespaces else (None, text)
        if _NATURAL_LANGUAGE.search(text) and not self._object_path_head(text):
            return None, text
        return head, rest

    def _object_path_head(self, text: str) -> bool:
        """i18next: a natural-language-looking key whose part before the first key separator
        is still a plain path (`ns:a.b c`) is read as an object path."""
        if self.key_separator is None or self.key_separator not in text:
            return False
        return not _NATURAL_LANGUAGE.search(text[: text.index(self.key_separator)])

    def spell(self, namespace: str) -> str:
        """A namespace as code names it: with `.` between namespace and key, the folders of a
        nested file's namespace are dotted too (`a11y/save` → `a11y.save`)."""
        return namespace.replace("/", ".") if self.ns_separator == "." else namespace

    def namespaces_under(self, head: str) -> list[str]:
        """The namespaces a key starting with the text `head` may name whole: those whose
        spelled names, with the separator after them, start with `head` (`error.` may go on
        into `error.api.…`, the namespace `error/api`, when `.` separates namespace and key;
        `au` into `auth:…`)."""
        separator = self.ns_separator
        if self.namespaces is None or separator is None or not head:
            return []
        return sorted(
            name for name in self.namespaces if (self.spell(name) + separator).startswith(head)
        )

    def display(self, namespace: str | None, path: str) -> str:
        """How reports name a key: `ns:path` when namespaces are on, else the path."""
        if namespace is None or not self.uses_namespaces:
            return path
        return f"{self.spell(namespace)}{self.ns_separator or ':'}{path}"

    def is_under(self, path: str, prefix: str) -> bool:
        """Whether `path` lies at or below `prefix`: a subtree read whole, a preserved prefix.
        (What a dynamic key reaches is plain text: `KeyReference.uncertain_prefix`.)

        Segment-aligned with nested keys (`home.titles` is not under `home.title`); a plain
        text prefix with flat keys. The empty prefix covers every path.
        """
        if not prefix or path == prefix:
            return True
        if self.key_separator is None:
            return path.startswith(prefix)
        return path.startswith(prefix) and path[len(prefix)] in ".["

    def containers(self, path: str) -> list[str]:
        """The keys whose value holds `path`, nearest first: with nested keys every object and
        array on its way (`a.steps[1]` → `a.steps`, `a`), with flat keys (a `.` is part of a
        key) the array it is an item of. A key the code uses reads its value whole, whatever
        its shape, so what lies in it is used too."""
        if self.key_separator is None:
            key = array_key(path)
            return [] if key is None else [key]
        found: list[str] = []
        end = len(path)
        while True:
            end = max(path.rfind(".", 0, end), path.rfind("[", 0, end))
            if end <= 0:
                return found
            found.append(path[:end])


DEFAULT_SYNTAX = KeySyntax()
