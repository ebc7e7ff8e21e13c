"""Static values of JavaScript expressions, as far as a file alone can know them.

Extraction turns each key argument into one of these; cross-file linking later replaces the
`Imported`, `Member` and `Called` nodes with what the imported module exports (and what its
functions return), and an `AutoId` with the id a Babel plugin gives the message (it depends on
the file's path and the project's Babel config).
"""

from __future__ import annotations

from typing import TypeAlias

import msgspec


class Text(msgspec.Struct, frozen=True, tag="s", array_like=True):
    """A string known exactly."""

    value: str


class Join(msgspec.Struct, frozen=True, tag="j", array_like=True):
    """Parts concatenated in order; `template` tells a template literal from a `+` chain."""

    parts: list[Expr]
    template: bool


class Branches(msgspec.Struct, frozen=True, tag="b", array_like=True):
    """One of several values (`c ? a : b`, `a ?? b`, an array of fallback keys)."""

    options: list[Expr]


class Record(msgspec.Struct, frozen=True, tag="r", array_like=True):
    """An object literal or enum whose statically known fields are kept."""

    fields: dict[str, Expr]


class Imported(msgspec.Struct, frozen=True, tag="i", array_like=True):
    """A binding imported from a relative module; `name` is `default` or `*` for those forms."""

    source: str
    name: str


class Member(msgspec.Struct, frozen=True, tag="m", array_like=True):
    """A property of a value that only linking can resolve (`KEYS.home` with KEYS imported)."""

    target: Expr
    name: str


class Returns(msgspec.Struct, frozen=True, tag="f", array_like=True):
    """A function whose every call returns `value`: its body's one `return` (the last
    statement), or an arrow's body, is an object literal (`return { labels, messages }`)."""

    value: Expr


class Called(msgspec.Struct, frozen=True, tag="l", array_like=True):
    """What calling `function` returns, where only linking can say what the function is
    (`useMessages()` with `useMessages` imported): the value of its `Returns`, else unknown."""

    function: Expr


class Opaque(msgspec.Struct, frozen=True, tag="o", array_like=True):
    """A value that cannot be known statically."""


class Computed(msgspec.Struct, frozen=True, tag="c", array_like=True):
    """A property of `target` (a value from another file) whose name is not known statically
    (`transKeys.modes[mode]`), and whatever is read below it: only linking can say what
    `target` is, and so what the property may be."""

    target: Expr


WHOLE_FILE = "\0"
"""The path of a whole locale file's content (an import of `en.json`), to tell it from the
messages a library returns: keys start at `locales.root` inside a file, which only linking
knows (`KeySyntax.below_root`); below it, paths read `\0.mappings.home`."""


class Messages(msgspec.Struct, frozen=True, tag="g", array_like=True):
    """A locale's messages object, or the part of it at key `path` (`""`: all of it;
    `WHOLE_FILE` and below: a locale file's content): what `useMessages()` or an import of
    `en.json` returns, and what a helper builds from it (`buildPaths(en)`, whose leaves are
    their own paths). Reading `path` through it uses that key (see `scan.messages`)."""

    path: str

    def member(self, name: str) -> Messages:
        """The part at key `name` below this one."""
        return Messages(f"{self.path}.{name}" if self.path else name)


class AutoId(msgspec.Struct, frozen=True, tag="a", array_like=True):
    """The id babel-plugin-react-intl-auto gives a FormatJS message written without one: the
    file's path (as the project's Babel config says) joined with `name`.

    `hashed` is false for a message of `defineMessages` (`name` is its property name, or its
    text when that is a constant) and true for a `<FormattedMessage defaultMessage>` or
    `intl.formatMessage({ defaultMessage })` (`name` is the hash of the text, `key` the `key`
    the plugin's `useKey` takes instead). `export` is the variable a named export declares
    around the call, `default_export` whether it sits in `export default`; `modules` are where
    the file imports the names the plugin looks for (it acts only when one of them contains its
    `moduleSourceName`).

    `text` and `description` are the message's literal `defaultMessage` and `description`,
    which `formatjs extract` hashes into an id instead (`text` is `None` when the message is
    not a literal, `described` true when its description is not).
    """

    name: str
    hashed: bool
    key: str | None = None
    export: str | None = None
    default_export: bool = False
    modules: list[str] = []
    text: str | None = None
    description: str | None = None
    described: bool = False


class Selector(msgspec.Struct, frozen=True, tag="p", array_like=True):
    """i18next's selector function (`$ => $.app['title'].main`): the segments of the path it
    reads, in order. Its key is the segments joined by the key separator, unless the first
    names one of the translator's namespaces (see `scan.selectors`)."""

    path: list[Expr]


Expr: TypeAlias = (
    Text
    | Join
    | Branches
    | Record
    | Imported
    | Member
    | Computed
    | Messages
    | Returns
    | Called
    | Opaque
    | AutoId
    | Selector
)

OPAQUE = Opaque()


def select(value: Expr, name: str) -> Expr:
    """The property `name` of `value`, symbolic when the value comes from another file."""
    if isinstance(value, Record):
        return value.fields.get(name, OPAQUE)
    if isinstance(value, Imported | Member | Called):
        return Member(value, name)
    if isinstance(value, Branches):
        return Branches([select(option, name) for option in value.options])
    if isinstance(value, Messages):
        return value.member(name)
    if isinstance(value, Computed):
        return value  # below an unknown property: still somewhere below its target
    return OPAQUE


def computed_member(value: Expr) -> Expr:
    """A property of `value` whose name is not known: below a part of the messages, a key
    below that part (`messages.SchemaErrors[body]`); of a value from another file, what
    linking finds (`Computed`); else opaque."""
    if isinstance(value, Messages):
        if not value.path:
            return OPAQUE
        return concatenate([Text(value.path + "."), OPAQUE], template=False)
    if isinstance(value, Imported | Member | Called | Computed):
        return Computed(value)
    return OPAQUE


def concatenate(parts: list[Expr], *, template: bool) -> Expr:
    """Parts joined in order, folded to a `Text` when all of them are known."""
    pieces: list[Expr] = []
    for part in parts:
        if not template and isinstance(part, Join) and not part.template:
            pieces.extend(part.parts)
        else:
            pieces.append(part)
    flat: list[Expr] = []
    for piece in pieces:
        previous = flat[-1] if flat else None
        if isinstance(piece, Text) and isinstance(previous, Text):
            flat[-1] = Text(previous.value + piece.value)
        else:
            flat.append(piece)
    if not flat:
        return Text("")
    if len(flat) == 1 and isinstance(flat[0], Text):
        return flat[0]
    return Join(flat, template)


_PLAIN = frozenset({Text, Opaque, Messages})
_REFERENCES = frozenset({Imported, Member, Called, Computed, AutoId})


def needs_linking(value: Expr | None) -> bool:
    """Whether only linking knows `value`: it depends on another file (an `Imported`,
    `Member` or `Called` node) or on the file's path (an `AutoId`)."""
    if value is None:
        return False
    kind = type(value)  # by exact type first: asked of most values of every site
    if kind in _PLAIN:
        return False
    if kind in _REFERENCES or isinstance(value, Imported | Member | Called | Computed | AutoId):
        return True
    if isinstance(value, Returns):
        return needs_linking(value.value)
    if isinstance(value, Join):
        return any(needs_linking(part) for part in value.parts)
    if isinstance(value, Selector):
        return any(needs_linking(part) for part in value.path)
    if isinstance(value, Branches):
        return any(needs_linking(option) for option in value.options)
    if isinstance(value, Record):
        return any(needs_linking(field) for field in value.fields.values())
    return False
