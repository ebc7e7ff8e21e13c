"""What the code proves about the locale paths of one namespace: proven keys (with i18next plural
and context forms), subtrees read whole, keys named by quoted strings (keys kept as data), and
the uncertain prefixes and suffixes that dynamic key sites protect; the keys the messages of
kept keys name (i18next nesting, vue-i18n links) — and whether that evidence is complete enough
for an op to remove or rewrite anything (never delete on doubt).

This is the one place that decides what may be removed.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from i18nprune.config.schema import PreservePolicy
from i18nprune.envelope import Code, Issue, error, warning
from i18nprune.keys import DEFAULT_SYNTAX, KeySyntax
from i18nprune.locale_codes import normalize_code
from i18nprune.locales.formats import format_of
from i18nprune.locales.named_keys import NamedKey, named_keys, naming_paths
from i18nprune.locales.paths import array_key, dotted_spelling
from i18nprune.locales.view import LocaleView, translatable_paths
from i18nprune.scan import DynamicSite, KeyObservation, LiteralSite, ScanResult
from i18nprune.scan.literals import keyed_by_hash
from i18nprune.scan.records import DERIVED_ID, MISSING_ID, AngularReading, LinguiReading
from i18nprune.twins import nearest


def subtree_heads(path: str, syntax: KeySyntax) -> list[str]:
    """The texts that name a subtree `path` lies in (`a.b.c` → `a.`, `a.b.`), with nested keys
    only: code building keys from them (`'errors.' + code`, `` `errors.${code}` ``)."""
    if syntax.key_separator is None:
        return []
    heads = []
    index = path.find(".", 1)
    while index != -1:
        heads.append(path[: index + 1])
        index = path.find(".", index + 1)
    return heads


def plural_base(path: str, syntax: KeySyntax = DEFAULT_SYNTAX) -> str | None:
    """The key a plural form belongs to (`cart.items_one` → `cart.items`; an ordinal form's
    key: `place_ordinal_one` → `place`), else `None`. `PluralForms.bases` gives every key a
    form may belong to (`place_ordinal` too); this one names a form's family for near twins."""
    bases = syntax.plurals.bases(path)
    return bases[-1] if bases else None


@dataclass(frozen=True)
class KeyReference:
    """The scan's verdict on one namespace (`namespace` `None`: namespaces are off), in the terms
    locale operations ask about."""

    syntax: KeySyntax
    namespace: str | None
    keys: frozenset[str]
    any_context: frozenset[str]
    subtrees: tuple[str, ...]
    prefixes: tuple[str, ...]
    suffixes: tuple[str, ...] = ()
    literals: dict[str, list[LiteralSite]] = field(default_factory=dict)
    scan_proves_nothing: bool = False

    @classmethod
    def from_scan(
        cls, scan: ScanResult, syntax: KeySyntax, namespace: str | None = None
    ) -> KeyReference:
        """The evidence of `scan` for `namespace`: keys of that namespace, and keys and dynamic
        sites whose namespace is not known (they may be in any)."""
        observations = [o for o in scan.observations if o.namespace in (None, namespace)]
        keys = {o.key for o in observations}
        joiner = syntax.context_separator
        keys |= {
            f"{o.key}{joiner}{o.context}" for o in observations if o.context not in (None, "*")
        }
        sites = [
            site for site in scan.dynamic if protects(site) and site.namespace in (None, namespace)
        ]
        prefixes = {site.prefix for site in sites if site.prefix is not None}
        suffixes = {site.suffix for site in sites if site.suffix}
        literals: dict[str, list[LiteralSite]] = {}
        for literal in scan.literals:
            literals.setdefault(literal.text, []).append(literal)
        return cls(
            syntax=syntax,
            namespace=namespace,
            keys=frozenset(keys),
            any_context=frozenset(o.key for o in observations if o.context == "*"),
            subtrees=tuple(
                sorted({o.key for o in observations if o.subtree or syntax.return_objects})
            ),
            prefixes=tuple(sorted(prefixes)),
            suffixes=tuple(sorted(suffixes)),
            literals=literals,
            scan_proves_nothing=not scan.observations and not any(map(protects, scan.dynamic)),
        )

    @property
    def proves_nothing(self) -> bool:
        """True when the whole scan found no key and no prefix: no basis to call anything
        unused (most likely `src` or `functions` is wrong)."""
        return self.scan_proves_nothing

    def is_proven(self, path: str) -> bool:
        """The path is a key the code uses, directly, as one of its plural/context forms, or
        inside a subtree the code reads whole (`returnObjects`), or in the value (an array or
        object) of a key the code uses: that key's value is all of it. An array item is also
        proven by i18next's spelling of it (`steps.2` for `steps[2]`)."""
        if path in self.keys:
            return True
        keys = self.keys
        if "[" in path:
            if dotted_spelling(path) in keys or any(
                container in keys for container in self.syntax.containers(path)
            ):
                return True
        elif self.syntax.key_separator is not None:  # `containers`, inline: most paths
            end = path.rfind(".")
            while end > 0:
                if path[:end] in keys:
                    return True
                end = path.rfind(".", 0, end)
        bases = self.syntax.plurals.bases(path)
        if any(base in keys for base in bases):
            return True
        joiner = self.syntax.context_separator
        if any(
            candidate.startswith(f"{key}{joiner}")
            for candidate in (*bases, path)
            for key in self.any_context
        ):
            return True
        return any(self.syntax.is_under(path, subtree) for subtree in self.subtrees)

    def uncertain_prefix(self, path: str) -> str | None:
        """The dynamic-site prefix `path` starts with, character by character, if any (`""`:
        the whole namespace). An array item is reached by i18next's spelling of it too
        (`` t(`steps.${i}`) `` reaches `steps[2]`)."""
        dotted = dotted_spelling(path) if "[" in path else path
        for prefix in self.prefixes:
            if path.startswith(prefix) or dotted.startswith(prefix):
                return prefix
        return None

    def uncertain_suffix(self, path: str) -> str | None:
        """The dynamic-site suffix `path` ends with, if any: the path, or the key it is a
        plural or context form of (`avgResponse_other`, `avgResponse_male`)."""
        joiner = self.syntax.context_separator
        plural = self.syntax.plural_separator
        for suffix in self.suffixes:
            if suffix in path and (
                path.endswith(suffix) or f"{suffix}{plural}" in path or f"{suffix}{joiner}" in path
            ):
                return suffix
        return None

    def is_uncertain(self, path: str) -> bool:
        """Whether a dynamic site may reach `path` (it has one's prefix or suffix)."""
        return self.uncertain_prefix(path) is not None or self.uncertain_suffix(path) is not None

    def literal_sites(self, path: str) -> list[LiteralSite]:
        """Where quoted strings name `path` (itself, `ns:path`, the key it is a plural form
        of, or with nested keys a subtree it lies in, `'errors.'`): a key that may be used
        through data."""
        return [
            site
            for text in _spellings(path, self.namespace, self.syntax)
            for site in self.literals.get(text, ())
        ]

    def display(self, path: str) -> str:
        """How reports name a path of this namespace."""
        return self.syntax.display(self.namespace, path)


@dataclass(frozen=True)
class MissingKey:
    """A literal key the code uses that its namespace of a locale lacks."""

    namespace: str | None
    key: str
    plural: bool
    default: str | None
    """The default text the code gives it (`t(k, 'Default')`, `<Trans>` children), if any."""
    generated: bool = False
    """`key` is the id Lingui generated of the message `default` (which names it to a
    reader: `VHOVEJ` is "Connect wallet")."""

    def named(self, shown: str) -> str:
        """`shown` (the key as displayed), with the message after a generated id (see
        `named_key`)."""
        if self.generated and self.default:
            return f"{shown} ({self.default!r})"
        return shown


class MissingPlaces:
    """The sites of one file `missing_sites` reported, looked up by a site's first spelling
    (a site of several spellings — `<Trans>` children, a Lingui message and its generated id
    — is reported by the one its locale would hold, not always its first)."""

    def __init__(self, lacking: Iterable[KeyObservation]) -> None:
        self._found: dict[tuple[int, int, str | None], KeyObservation] = {}
        for observation in lacking:
            key = None if observation.spelling is not None else observation.key
            self._found[(observation.line, observation.column, key)] = observation

    def of(self, observation: KeyObservation) -> KeyObservation | None:
        """The missing key reported for the site `observation` spells (itself, or another
        spelling of its site), or None when the site's key is there."""
        key = None if observation.spelling is not None else observation.key
        return self._found.get((observation.line, observation.column, key))


def named_key(observation: KeyObservation, shown: str) -> str:
    """`shown` (the key of `observation` as displayed), with the message after a generated id
    (`VHOVEJ ('Connect wallet')`): users cannot read the id."""
    if observation.generated and observation.default:
        return f"{shown} ({observation.default!r})"
    return shown


@dataclass(frozen=True)
class NearTwin:
    """A key the code uses that the source lacks, and the source key a small edit away from it
    that the code most likely means (`twins.py` says which keys are twins)."""

    namespace: str | None
    key: str
    """The missing key (its path)."""
    twin: str
    """The source key: a path, or the key its plural forms belong to."""
    paths: tuple[str, ...]
    """The twin's source paths (itself, or its plural forms)."""
    unused: bool
    """The code does not use the twin (`cleanup` would offer every path of it): it holds
    translations nobody reads, and renaming it to `key` keeps them."""
    sites: tuple[KeyObservation, ...]
    """Where the code uses `key`, in file order."""


def serves_locale(messages_locale: str, locale: str) -> bool:
    """Whether messages written for `messages_locale` are what `locale` reads: the same code
    in any spelling, or its language (`en` serves `en-US`, as vue-i18n falls back)."""
    given, wanted = normalize_code(messages_locale), normalize_code(locale)
    return given == wanted or wanted.startswith(given + "-")


@dataclass
class Evidence:
    """What one scan says about a project's keys, asked per namespace."""

    scan: ScanResult
    syntax: KeySyntax
    source_locale: str | None = None
    """The source locale's code: vue-i18n messages a component brings for it answer keys."""
    _references: dict[str | None, KeyReference] = field(default_factory=dict, repr=False)
    _shared: frozenset[str] | None = field(default=None, repr=False)

    def answered_in_component(self, observation: KeyObservation) -> bool:
        """Whether vue-i18n messages the code brings itself hold the key in the source
        locale: the component's own (an SFC `<i18n>` block, `useI18n({ messages })`), or an
        `<i18n global>` block's. Such a key is not missing; the locale's copy stays used."""
        source = self.source_locale
        if source is None:
            return False
        if any(serves_locale(locale, source) for locale in observation.answered):
            return True
        if self._shared is None:
            self._shared = frozenset(
                path for locale, path in self.scan.shared_messages if serves_locale(locale, source)
            )
        return observation.key in self._shared

    def reference(self, namespace: str | None = None) -> KeyReference:
        """The verdict on `namespace` (`None` with namespaces off)."""
        if namespace not in self._references:
            self._references[namespace] = KeyReference.from_scan(self.scan, self.syntax, namespace)
        return self._references[namespace]

    def missing(self, paths: Mapping[str | None, Iterable[str]]) -> list[MissingKey]:
        """Literal code keys that no path of their namespace satisfies (plural and context
        forms count; a key read whole needs some path under it; of a key's spellings, one is
        enough and the first is reported). `paths` maps each namespace of a locale to its
        paths; a key of no known namespace may be in any of them."""
        return self.missing_keys(self.missing_sites(paths))

    def missing_keys(self, sites: Iterable[KeyObservation]) -> list[MissingKey]:
        """The keys of `sites` (what `missing_sites` returned), one per key, sorted."""
        found: dict[tuple[str | None, str], MissingKey] = {}
        for observation in sites:
            namespace = observation.namespace if self.syntax.uses_namespaces else None
            slot = (namespace, observation.key)
            known = found.get(slot)
            found[slot] = MissingKey(
                namespace,
                observation.key,
                observation.plural or (known is not None and known.plural),
                known.default if known is not None and known.default else observation.default,
                observation.generated or (known is not None and known.generated),
            )
        return [found[slot] for slot in sorted(found, key=lambda s: (s[0] or "", s[1]))]

    def presence(
        self, paths: Mapping[str | None, Iterable[str]]
    ) -> Callable[[KeyObservation], bool]:
        """Whether a locale whose paths (by namespace) are `paths` holds the key a site asks
        for, as `missing` judges it: a plural or context form, a subtree's head, a key holding
        an array or object, or messages the component brings itself."""
        sets = {namespace: set(found) for namespace, found in paths.items()}
        # One namespace (namespaces off): its set is every path; no copy of it is kept.
        everything = next(iter(sets.values())) if len(sets) == 1 else set().union(*sets.values())
        # The keys holding an array or object, built only when a key is not a path itself.
        held: dict[str | None, set[str]] = {}

        def holders(namespace: str | None) -> set[str]:
            if namespace not in held:
                found = everything if namespace is None else sets.get(namespace, set())
                held[namespace] = {
                    container for path in found for container in self.syntax.containers(path)
                }
                if self.syntax.key_separator is not None:
                    # An array item as vue-i18n and i18next reach it: `list.0` for `list[0]`.
                    for path in found:
                        if "[" in path:
                            spelled = dotted_spelling(path)
                            held[namespace].add(spelled)
                            held[namespace].update(self.syntax.containers(spelled))
            return held[namespace]

        def present(observation: KeyObservation) -> bool:
            namespace = observation.namespace if self.syntax.uses_namespaces else None
            candidates = everything if namespace is None else sets.get(namespace, set())
            return (
                _satisfied(
                    observation.key,
                    observation.context,
                    observation.subtree,
                    candidates,
                    self.syntax,
                )
                or observation.key in holders(namespace)
                or self.answered_in_component(observation)
            )

        return present

    def missing_sites(
        self,
        paths: Mapping[str | None, Iterable[str]],
        file: str | None = None,
        *,
        presence: Callable[[KeyObservation], bool] | None = None,
    ) -> list[KeyObservation]:
        """Every call site of a key `missing` reports (of a site's several spellings, the
        first), by file, line and column; only those in `file` when given. A key holding an
        array or object is there: that is its value. `presence` is `self.presence(paths)`
        when the caller keeps it (it costs the size of `paths` to make)."""
        present = presence if presence is not None else self.presence(paths)
        lacking: list[KeyObservation] = []
        spellings: dict[tuple[str, int, int], list[KeyObservation]] = {}
        for observation in self.scan.observations:
            if file is not None and observation.file != file:
                continue
            if observation.spelling is not None:
                place = (observation.file, observation.line, observation.column)
                spellings.setdefault(place, []).append(observation)
            elif not present(observation):
                lacking.append(observation)
        hashed: bool | None = None
        for group in spellings.values():
            if not any(map(present, group)):
                if hashed is None:
                    hashed = self._keyed_by_generated_ids(present)
                shown = [o for o in group if o.generated == hashed] or group
                lacking.append(min(shown, key=lambda observation: observation.spelling or 0))
        return sorted(lacking, key=lambda o: (o.file, o.line, o.column, o.key))

    def _keyed_by_generated_ids(self, present: Callable[[KeyObservation], bool]) -> bool:
        """Whether the locale `present` judges is keyed by the ids Lingui generates of messages
        (a JSON catalog of Lingui 4 or later) rather than by the messages (a PO catalog), or
        by Angular's legacy ids rather than its modern ones: more of the code's generated ids
        than of its written ones are there. Then a message it lacks is reported by its
        generated id (of Angular's, the SHA-1 one), which is what the catalog would hold."""
        generated = written = 0
        sites = {(o.file, o.line, o.column) for o in self.scan.observations if o.generated}
        for observation in self.scan.observations:
            if (observation.file, observation.line, observation.column) not in sites:
                continue
            if present(observation):
                if observation.generated:
                    generated += 1
                else:
                    written += 1
        return generated > written

    def near_twins(
        self,
        paths: Mapping[str | None, Iterable[str]],
        preserve: PreservePolicy,
        lacking: Iterable[KeyObservation] | None = None,
    ) -> list[NearTwin]:
        """The missing keys of the locale whose namespaces hold `paths` (its translatable
        paths) that have one nearest twin among those paths, sorted by key. `lacking` is what
        `missing_sites(paths)` returned, when the caller has it. A key the code reads whole
        (`returnObjects`) has no twin; a key of no known namespace looks in every one."""
        listed = {namespace: list(found) for namespace, found in paths.items()}
        if lacking is None:
            lacking = self.missing_sites(listed)
        sites: dict[tuple[str | None, str], list[KeyObservation]] = {}
        for observation in lacking:
            namespace = observation.namespace if self.syntax.uses_namespaces else None
            sites.setdefault((namespace, observation.key), []).append(observation)
        paired = {slot for slot, found in sites.items() if not any(o.subtree for o in found)}
        near = {
            namespace: nearest(
                {key for (space, key) in paired if space in (None, namespace)},
                found,
                self.syntax.key_separator,
                functools.partial(plural_base, syntax=self.syntax),
            )
            for namespace, found in listed.items()
        }
        twins = []
        for namespace, key in sorted(paired, key=lambda slot: (slot[0] or "", slot[1])):
            spaces = list(listed) if namespace is None else [namespace]
            chosen = _only_nearest(key, [(space, near[space]) for space in spaces if space in near])
            if chosen is None:
                continue
            space, twin = chosen
            forms = [
                path
                for path in listed[space]
                if path.startswith(twin)
                and (path == twin or twin in self.syntax.plurals.bases(path))
            ]
            unused = set(unused_paths(forms, self.reference(space), preserve))
            found = tuple(sites[(namespace, key)])
            twins.append(NearTwin(space, key, twin, tuple(forms), unused == set(forms), found))
        return twins


def _only_nearest(
    key: str, near: list[tuple[str | None, dict[str, tuple[int, list[str]]]]]
) -> tuple[str | None, str] | None:
    """The one name nearest `key` over the namespaces of `near` (each namespace's `nearest`),
    with its namespace; None when none is near, or several are equally near (which one the
    code means is not clear)."""
    options = [(space, *found[key]) for space, found in near if key in found]
    if not options:
        return None
    best = min(distance for _, distance, _ in options)
    named = [
        (space, name) for space, distance, names in options if distance == best for name in names
    ]
    return named[0] if len(named) == 1 else None


def _satisfied(
    key: str, context: str | None, subtree: bool, paths: set[str], syntax: KeySyntax
) -> bool:
    plurals = syntax.plurals
    if plurals.is_present(key, paths):
        return True
    if (
        context
        and context != "*"
        and plurals.is_present(f"{key}{syntax.context_separator}{context}", paths)
    ):
        return True
    if context == "*":  # a context the code computes: any context form answers, as for cleanup
        head = f"{key}{syntax.context_separator}"
        if any(path.startswith(head) for path in paths):
            return True
    return subtree and any(syntax.is_under(path, key) for path in paths)


GENERATOR_ANCHORS = ("jhipster-needle-",)
"""Key names a code generator keeps in locale files as insertion points (JHipster's
`global.menu.entities.jhipster-needle-menu-add-entry`, valued "do not translate!"): no code
reads them, and removing one breaks the generator's next run. Always preserved."""


def is_generator_anchor(path: str) -> bool:
    """Whether `path` is a code generator's insertion point (`GENERATOR_ANCHORS`)."""
    return any(anchor in path for anchor in GENERATOR_ANCHORS)


def is_preserved(
    path: str,
    preserve: PreservePolicy,
    syntax: KeySyntax | None = None,
    namespace: str | None = None,
) -> bool:
    """`policies.preserve` keeps this path whatever the code says (entries name a path, or
    `ns:path` when namespaces are on); so are code generators' anchors (`GENERATOR_ANCHORS`):
    kept, and copied to targets untranslated."""
    if is_generator_anchor(path):
        return True
    syntax = syntax or KeySyntax()
    spellings = {path, syntax.display(namespace, path)}
    return any(
        spelling in preserve.copy_keys
        or any(syntax.is_under(spelling, prefix) for prefix in preserve.copy_prefixes)
        for spelling in spellings
    )


def unused_paths(
    paths: Iterable[str],
    reference: KeyReference,
    preserve: PreservePolicy,
    *,
    protect_uncertain: bool = True,
) -> list[str]:
    """Paths the code does not prove or name in a quoted string, minus preserved ones and (when
    protecting) those a dynamic site may reach (uncertain prefixes and suffixes). Nothing is
    unused when the scan proves nothing.

    An array is one key: its items (`steps[0]`, `steps[1].label`, …) are answered as the key
    holding it (`steps`), once, and only when the key and every item are unused — removing
    an item alone would move the items after it."""
    if reference.proves_nothing:
        return []

    def unused(path: str) -> bool:
        return (
            not reference.is_proven(path)
            and not reference.literal_sites(path)
            and not is_preserved(path, preserve, reference.syntax, reference.namespace)
            and not (protect_uncertain and reference.is_uncertain(path))
        )

    found = []
    arrays: dict[str, bool] = {}
    for path in paths:
        key = array_key(path) if "[" in path else None
        if key is None:
            if unused(path):
                found.append(path)
        elif arrays.get(key, True):
            arrays[key] = unused(path) and (key in arrays or unused(key))
    found += [key for key, free in arrays.items() if free]
    return sorted(found)


def referenced_paths(paths: Iterable[str], reference: KeyReference) -> dict[str, list[LiteralSite]]:
    """Paths no key site proves but quoted strings in the code name (keys kept as data), with
    where they are named; they are never removed."""
    found = {}
    for path in paths:
        if not reference.is_proven(path):
            sites = reference.literal_sites(path)
            if sites:
                found[path] = sites
    return found


Slot = tuple[str | None, str]
"""A key as `(namespace, path)`."""


class NamingMessage(NamedTuple):
    """A message that names another key: the key it is the message of, and its locale."""

    locale: str
    namespace: str | None
    path: str


@dataclass(frozen=True)
class MessageKeys:
    """What following the messages of kept keys found."""

    named: dict[Slot, list[NamingMessage]]
    """Each key outside the kept ones that a followed message names (directly, or through
    another such key) → the messages that name it."""
    unresolved: dict[Slot, list[NamingMessage]]
    """Each key a followed message names that no path of the locales satisfies, as written
    (`(namespace looked in, key)`) → the messages that name it."""


def follow_messages(
    kept: Mapping[str | None, Collection[str]],
    locales: Sequence[Mapping[str | None, LocaleView]],
    syntax: KeySyntax,
) -> MessageKeys:
    """The keys the messages of the `kept` keys name, transitively (a cycle ends where it
    started): i18next nesting `$t(key)` and vue-i18n links `@:key`.

    `locales` are the locales (each a view per namespace) whose messages are read: a key's
    message in any of them counts, and a named key is looked up in all of them. A named key is
    its path, its plural forms and (with its literal `context` option) its context forms, and
    with nested keys a nesting also names what lies under it (i18next returns an object for a
    nesting that is the whole message). A nesting's `ns:` head or `ns` option names its
    namespace; without one it is the namespace of its message, or, when that has no such key,
    any namespace that has it (i18next looks in the namespaces of the call). A dynamic key
    (`$t(status.{{code}})`) names what lies under its static start; one with none names
    nothing (unless its `ns:` names a whole namespace).
    """
    space = _MessageSpace(locales, syntax)
    named: dict[Slot, list[NamingMessage]] = {}
    unresolved: dict[Slot, list[NamingMessage]] = {}
    naming = {namespace: space.naming(namespace) for namespace in kept}
    if not any(naming.values()):
        return MessageKeys(named, unresolved)
    seeds = {
        namespace: paths if isinstance(paths, set | frozenset) else set(paths)
        for namespace, paths in kept.items()
    }
    pending = sorted(
        (
            (namespace, path)
            for namespace, paths in seeds.items()
            for path in naming[namespace]
            if path in paths
        ),
        key=lambda slot: (slot[0] or "", slot[1]),
        reverse=True,  # popped from the end: in order
    )
    while pending:
        namespace, path = pending.pop()
        for message, text in space.messages(namespace, path):
            for key in named_keys(text, references=space.syntax.key_references):
                found = space.resolve(key, namespace)
                if not found:
                    if not key.dynamic and not key.optional:
                        slot = space.looked_in(key, namespace)
                        _add(unresolved.setdefault(slot, []), message)
                    continue
                for slot in found:
                    if slot[1] in seeds.get(slot[0], ()):
                        continue
                    if slot not in named:
                        named[slot] = []
                        pending.append(slot)
                    _add(named[slot], message)
    return MessageKeys(named, unresolved)


def unused_keys(
    views: Mapping[str | None, LocaleView],
    evidence: Evidence,
    preserve: PreservePolicy,
    *,
    protect_uncertain: bool = True,
) -> dict[str | None, list[str]]:
    """Each namespace's paths of one locale (its `views`) that nothing keeps: `unused_paths`,
    less those the messages of the kept keys name (`spare_named`)."""
    unused = {
        namespace: unused_paths(
            translatable_paths(view),
            evidence.reference(namespace),
            preserve,
            protect_uncertain=protect_uncertain,
        )
        for namespace, view in views.items()
    }
    removable = {namespace: set(paths) for namespace, paths in unused.items()}
    kept = {
        namespace: kept_paths(view.leaves, removable[namespace])
        for namespace, view in views.items()
    }
    spared = spare_named(removable, kept, [views], evidence.syntax)
    if not spared:
        return unused
    return {
        namespace: [path for path in paths if (namespace, path) not in spared]
        for namespace, paths in unused.items()
    }


def unresolved_names(
    views: Mapping[str | None, LocaleView],
    unused: Mapping[str | None, Collection[str]],
    syntax: KeySyntax,
) -> dict[Slot, list[NamingMessage]]:
    """The keys the messages of one locale's used keys (every path but its `unused` ones, see
    `unused_keys`) name, transitively, that no path of the locale satisfies, with the messages
    naming them (see `follow_messages`)."""
    if not any(naming_paths(view, references=syntax.key_references) for view in views.values()):
        return {}
    kept = {
        namespace: kept_paths(view.leaves, set(unused.get(namespace, ())))
        for namespace, view in views.items()
    }
    return follow_messages(kept, [views], syntax).unresolved


def kept_paths(leaves: Mapping[str, object], removed: Collection[str]) -> set[str]:
    """The paths of `leaves` that stay when the keys `removed` go (what `unused_paths`
    answers: a path, or the key holding an array, whose items then go too)."""
    kept = leaves.keys() - removed
    arrays = {key for key in removed if key not in leaves}
    if arrays:
        kept = {path for path in kept if "[" not in path or array_key(path) not in arrays}
    return kept


def spare_named(
    removable: Mapping[str | None, Collection[str]],
    kept: Mapping[str | None, Collection[str]],
    locales: Sequence[Mapping[str | None, LocaleView]],
    syntax: KeySyntax,
) -> dict[Slot, list[NamingMessage]]:
    """The paths of `removable` that the messages of the `kept` keys name (transitively, see
    `follow_messages`): they must stay, with the messages that name them. A key named only by
    removable keys stays removable: removing both together leaves no message naming a
    missing key. A named item of an array spares the array: the key holding it is answered."""
    named = follow_messages(kept, locales, syntax).named
    spared: dict[Slot, list[NamingMessage]] = {}
    for (namespace, path), messages in named.items():
        candidates = removable.get(namespace, ())
        key = path if path in candidates else array_key(path)
        if key is not None and key in candidates:
            for message in messages:
                _add(spared.setdefault((namespace, key), []), message)
    return spared


def _add(messages: list[NamingMessage], message: NamingMessage) -> None:
    if message not in messages:
        messages.append(message)


class _MessageSpace:
    """The paths and messages of the followed locales, for the lookups a named key needs."""

    def __init__(self, locales: Sequence[Mapping[str | None, LocaleView]], syntax: KeySyntax):
        self.locales = locales
        self.syntax = syntax
        self.namespaces = list(dict.fromkeys(name for views in locales for name in views))
        self._sorted: dict[str | None, list[str]] = {}

    def naming(self, namespace: str | None) -> set[str]:
        """The paths of `namespace` whose message may name a key (a cheap text test)."""
        found: set[str] = set()
        for views in self.locales:
            view = views.get(namespace)
            if view is not None:
                found.update(naming_paths(view, references=self.syntax.key_references))
        return found

    def messages(self, namespace: str | None, path: str) -> list[tuple[NamingMessage, str]]:
        """The text of key `path`'s message in each followed locale that has one."""
        found = []
        for views in self.locales:
            view = views.get(namespace)
            leaf = view.leaves.get(path) if view is not None else None
            if (
                view is not None
                and leaf is not None
                and leaf.kind in ("string", "structured")
                and isinstance(leaf.value, str)
            ):
                found.append((NamingMessage(view.locale, namespace, path), leaf.value))
        return found

    def resolve(self, key: NamedKey, referrer: str | None) -> list[Slot]:
        """The existing keys `key`, named in a message of namespace `referrer`, names (of
        every spelling)."""
        found: list[Slot] = []
        for spelling in key.spellings:
            place = self._placed(key, spelling, referrer)
            for namespace in place.namespaces:
                found += [(namespace, path) for path in self._matches(key, place, namespace)]
            if not found and place.fallback:
                for namespace in self.namespaces:
                    if namespace != referrer:
                        found += [
                            (namespace, path) for path in self._matches(key, place, namespace)
                        ]
        return list(dict.fromkeys(found))

    def looked_in(self, key: NamedKey, referrer: str | None) -> Slot:
        """How a key no path satisfies is reported: the first namespace it was looked in,
        and its first spelling."""
        place = self._placed(key, key.spellings[0], referrer)
        return (place.namespaces[0] if place.namespaces else referrer), place.path

    def _placed(self, key: NamedKey, spelling: str, referrer: str | None) -> _Place:
        """Where one spelling of a named key is looked up."""
        syntax = self.syntax
        if key.linked:
            return _Place([referrer], spelling)
        head, path = syntax.split_namespace(spelling)
        if not syntax.uses_namespaces:
            return _Place([referrer], path)
        if head is not None:
            return _Place([head], path, named=True)
        if key.namespace == "*":
            return _Place(list(self.namespaces), path)
        if key.namespace is not None and key.namespace in (syntax.namespaces or ()):
            return _Place([key.namespace], path, named=True)
        return _Place([referrer], path, fallback=True)

    def _matches(self, key: NamedKey, place: _Place, namespace: str | None) -> list[str]:
        syntax = self.syntax
        path = place.path
        if key.dynamic:
            prefix = path if syntax.key_separator is None else _segment_head(path)
            if prefix is None or (not prefix and not place.named):
                return []  # no static start, and no namespace named whole
            return [
                found
                for found in self._starting(namespace, prefix)
                if syntax.is_under(found, prefix)
            ]
        forms = [path]
        if key.context is not None and key.context != "*":
            forms.append(f"{path}{syntax.context_separator}{key.context}")
        found = [
            spelled
            for form in forms
            for spelled in (form, *syntax.plurals.forms(form))
            if self._has(namespace, spelled)
        ]
        if key.context == "*":
            found += self._starting(namespace, f"{path}{syntax.context_separator}")
        if not found and not key.linked and syntax.key_separator is not None:
            # a key that is a leaf has nothing under it: the search is for a nesting of an object
            found += [
                below
                for below in self._starting(namespace, path)
                if len(below) > len(path) and below[len(path)] in ".["
            ]
        return found

    def _has(self, namespace: str | None, path: str) -> bool:
        return any(path in views[namespace].leaves for views in self.locales if namespace in views)

    def _starting(self, namespace: str | None, head: str) -> list[str]:
        """The paths of `namespace` that start with `head`, in sorted order."""
        paths = self._sorted.get(namespace)
        if paths is None:
            union = {
                path
                for views in self.locales
                if namespace in views
                for path in views[namespace].leaves
            }
            paths = self._sorted[namespace] = sorted(union)
        found = []
        for index in range(bisect.bisect_left(paths, head), len(paths)):
            if not paths[index].startswith(head):
                break
            found.append(paths[index])
        return found


class _Place(NamedTuple):
    """Where one spelling of a named key is looked up: `namespaces`, for `path`; `named`: the
    message names the namespace (`ns:key`, an `ns` option); `fallback`: when those namespaces
    lack it, any namespace that has it."""

    namespaces: list[str | None]
    path: str
    named: bool = False
    fallback: bool = False


def _segment_head(text: str) -> str | None:
    """A dynamic key's static start cut back to its last complete segment (`status.` →
    `status`), `""` for no text, None when no segment is complete."""
    if not text:
        return ""
    cut = max(text.rfind("."), text.rfind("["))
    return text[:cut] if cut > 0 else None


def literal_candidates(views: Iterable[LocaleView], syntax: KeySyntax) -> dict[int, str]:
    """The texts a quoted string must equal to name one of these views' paths (the path, the
    key a plural form belongs to, their `ns:path` spellings when namespaces are on, and the
    heads of the subtrees the path lies in), keyed as a scan looks them up (`keyed_by_hash`).
    A scan keeps them to its end: one table, not a set of the texts beside it."""
    texts: set[str] = set()
    for view in views:
        for path in view.leaves:
            texts.update(_spellings(path, view.namespace, syntax))
    return keyed_by_hash(texts)


def _spellings(path: str, namespace: str | None, syntax: KeySyntax) -> list[str]:
    """The texts that name `path` of `namespace` in code: the path, the key a plural form
    belongs to, the heads of the subtrees it lies in, each of those as `ns:text` when
    namespaces are on, and as a path from the top of the file when keys start at
    `locales.root` (a server template's `"ui.question.hot"` for `question.hot` under `ui`)."""
    texts = [path, *syntax.plurals.bases(path)]
    texts += subtree_heads(path, syntax)
    if namespace is not None:
        texts += [syntax.display(namespace, text) for text in list(texts)]
    if syntax.root:
        texts += [f"{syntax.root}.{text}" for text in list(texts)]
    if syntax.key_spelling != ".":
        texts += [syntax.code_spelling(text) for text in list(texts)]
    return texts


def protects(site: DynamicSite) -> bool:
    """Whether a dynamic site protects the paths it may reach: it is active and has a static
    suffix, or a prefix (the empty prefix, a whole namespace, only when it names the
    namespace). Any suffix protects, however short (`s`): a key reached through it is kept."""
    if site.kind == "commented":
        return False
    if site.suffix:
        return True
    if site.prefix is None:
        return False
    return bool(site.prefix) or site.namespace is not None


MESSAGE_KINDS = frozenset({DERIVED_ID, MISSING_ID})
"""Dynamic sites that are FormatJS messages whose id is not known, rather than keys built at
run time (the scan says why)."""


def uncertain_kept(prefixes: list[str], suffixes: list[str]) -> str:
    """How notes name the paths kept because dynamic sites may reach them (`""`: none)."""
    parts = []
    if prefixes:
        parts.append(f"paths under dynamic prefixes ({', '.join(prefixes)})")
    if suffixes:
        parts.append(f"paths ending with dynamic suffixes ({', '.join(suffixes)})")
    return " and ".join(parts)


def unprotected_dynamic_sites(scan: ScanResult) -> list[DynamicSite]:
    """Active dynamic sites that protect nothing: their key has no static part to go by
    (FormatJS messages without a known id are reported apart, see `scan_project`)."""
    return [
        site
        for site in scan.dynamic
        if site.kind != "commented" and site.kind not in MESSAGE_KINDS and not protects(site)
    ]


def nothing_proven_cause(scan: ScanResult) -> str:
    """What to check when a scan proves no key: FormatJS messages whose ids are not known, when
    it found some (the scan's warning says why), else the source folders and function names."""
    messages = sum(1 for site in scan.dynamic if site.kind in MESSAGE_KINDS)
    if messages:
        return (
            f"its {messages} FormatJS message site(s) have no id i18nprune can derive (see the "
            "warning above)"
        )
    return "check `src` and `functions`"


def unknown_message_ids(scan: ScanResult) -> list[DynamicSite]:
    """FormatJS messages whose id babel-plugin-react-intl-auto or `formatjs extract` derives
    with options that could not be read: any key may be one of theirs."""
    return [site for site in scan.dynamic if site.kind == DERIVED_ID]


def dynamic_warning(kind: str, scan: ScanResult) -> Issue | None:
    """The warning that keys reached only through unprotected dynamic sites look unused."""
    sites = unprotected_dynamic_sites(scan)
    if not sites:
        return None
    return warning(
        Code.DYNAMIC_UNPROTECTED,
        f"{len(sites)} key site(s) build their key at run time with no static part "
        f"({named_sites(sites)}); keys used only through them look unused to {kind}. See "
        "`i18nprune locales dynamic`, and keep such keys with `policies.preserve`",
        path=sites[0].file,
    )


# Scan issues that mean a source file's keys are not (all) known: removing keys on such a scan
# could delete a key that only that file uses.
_UNSCANNED = frozenset(
    {
        Code.SCAN_UNREADABLE,
        Code.SCAN_BINARY,
        Code.SCAN_TOO_LARGE,
        Code.SCAN_PARSE_ERROR,
        Code.SCAN_SYMLINK_SKIPPED,
    }
)
_NAMED_FILES = 3


def unscanned_files(scan: ScanResult) -> list[str]:
    """Source files (relative to the root) whose keys the scan could not read in full."""
    return sorted({issue.path or "?" for issue in scan.issues if issue.code in _UNSCANNED})


def removal_gate(kind: str, scan: ScanResult, *, force: bool) -> Issue | None:
    """Why `kind` must not remove keys on this scan (an error), or, when `force` overrides
    that, the warning that says what was risked; None when every source file was scanned and
    every message id is known."""
    files = unscanned_files(scan)
    unknown = unknown_message_ids(scan)
    if not files and not unknown:
        return None
    reasons: list[str] = []
    fixes: list[str] = []
    if files:
        named = ", ".join(files[:_NAMED_FILES]) + (", …" if len(files) > _NAMED_FILES else "")
        reasons.append(f"{len(files)} source file(s) could not be read or fully scanned ({named})")
        fixes.append(
            "Fix them (see the warnings above) or exclude them (`exclude.files`, `exclude.dirs`)"
        )
    if unknown:
        configs = [i.path for i in scan.issues if i.code == Code.SCAN_MESSAGE_IDS_UNKNOWN]
        where = f" ({configs[0]})" if configs and configs[0] else ""
        reasons.append(
            f"the ids at {len(unknown)} FormatJS message site(s) are unknown: "
            f"babel-plugin-react-intl-auto's or `formatjs extract`'s options{where} cannot be read"
        )
        fixes.append("Put the tool's options where i18nprune reads them (see the warning above)")
    reason = "; ".join(reasons)
    path = files[0] if files else unknown[0].file
    if force:
        return warning(
            Code.SCAN_INCOMPLETE,
            f"--force: {reason}; keys used only there may have been removed",
            path=path,
        )
    return error(
        Code.SCAN_INCOMPLETE,
        f"{kind} changed nothing: {reason}, so keys used only there would look unused. "
        f"{'; '.join(fixes)}, or pass --force to remove keys anyway",
        path=path,
    )


class _Site(Protocol):
    @property
    def file(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def preview(self) -> str: ...


_NAMED_SITES = 3


def named_sites(sites: Sequence[_Site]) -> str:
    r"""The first sites as messages name them (`src/App.tsx:3 \`t(key)\``), and how many more."""
    named = ", ".join(f"{site.file}:{site.line} `{site.preview}`" for site in sites[:_NAMED_SITES])
    more = f" and {len(sites) - _NAMED_SITES} more" if len(sites) > _NAMED_SITES else ""
    return named + more


class UnresolvedSite(NamedTuple):
    """A place that may use keys no evidence names: a dynamic key site with no static part, or
    a translation call in a file the scanner does not parse (`ForeignSite`)."""

    file: str
    line: int
    preview: str


def unresolved_sites(scan: ScanResult, namespaces: Iterable[str | None]) -> list[UnresolvedSite]:
    """The places that could reach keys of `namespaces` without naming them: active dynamic
    sites with no static part whose namespace is one of them or unknown, and foreign sites."""
    reachable = set(namespaces)
    found = [
        UnresolvedSite(site.file, site.line, site.preview)
        for site in unprotected_dynamic_sites(scan)
        if site.namespace is None or site.namespace in reachable
    ]
    found += [UnresolvedSite(site.file, site.line, site.preview) for site in scan.foreign]
    return found


ALMOST_ALL = 0.9
"""Past this share of keys looking unused, a removal is refused whatever explains it (unless
`reference.maxUnusedShare` is above it)."""
MISREAD_KEYS = 20
MISREAD_SHARE = 0.1
"""A guessed configuration misreads the app when the code uses more than `MISREAD_KEYS` keys
the source lacks, and more than `MISREAD_SHARE` of the keys it proves used: keys read in the
wrong namespace or split at the wrong separator are both missing and unused."""


class ThinEvidence(NamedTuple):
    """Why the evidence is too thin for a removal: how many of how many keys would go, and
    what leaves them unexplained (unresolved sites, or a configuration nobody wrote)."""

    candidates: int
    keys: int
    unresolved: list[UnresolvedSite]
    guessed: str | None
    """Why the configuration is a guess (`None`: a config file set it)."""
    limit: float
    missing: int = 0
    """How many keys the code uses that the source lacks."""

    @property
    def share(self) -> float:
        return self.candidates / self.keys if self.keys else 0.0

    @property
    def too_thin(self) -> bool:
        """The share of keys that would go is over the limit while something could explain
        it other than their being unused, or the code proves almost none of them (over
        `ALMOST_ALL` look unused: a `src` or `functions` that misses the code)."""
        if self.share > max(self.limit, ALMOST_ALL):
            return True
        if self.guessed and self.misread:
            return True
        return self.share > self.limit and bool(self.unresolved or self.guessed)

    @property
    def misread(self) -> bool:
        """The code uses many keys the source lacks (`MISREAD_KEYS`, `MISREAD_SHARE`)."""
        proven = self.keys - self.candidates
        return self.missing > max(MISREAD_KEYS, MISREAD_SHARE * proven)

    def describe(self) -> str:
        """What makes the evidence thin, in a clause: the share and its explanation."""
        share = f"{self.candidates} of {self.keys} keys ({self.share:.0%}) look unused"
        reasons = []
        if self.unresolved:
            reasons.append(
                f"{len(self.unresolved)} site(s) could reach keys without naming them "
                f"({named_sites(self.unresolved)})"
            )
        if self.guessed:
            reasons.append(f"the configuration is a guess ({self.guessed})")
        if self.guessed and self.misread:
            reasons.append(
                f"the code uses {self.missing} key(s) the source lacks, so the guess may "
                "misread how the app names its keys (namespaces, separators)"
            )
        if not reasons:
            return f"{share}: the code proves almost none of them"
        return f"{share}, while {' and '.join(reasons)}"


def thin_evidence_gate(kind: str, evidence: ThinEvidence, *, force: bool) -> Issue | None:
    """Why `kind` must not remove keys on such thin evidence (an error), or, when `force`
    overrides that, the warning that says what was risked; None when the evidence suffices."""
    if not evidence.too_thin:
        return None
    what = evidence.describe()
    if force:
        return warning(Code.THIN_EVIDENCE, f"--force: {what}; used keys may have been removed")
    return error(
        Code.THIN_EVIDENCE,
        f"{kind} changed nothing: {what}, so most of these may be used. Give those sites a "
        "static prefix or list their keys in `policies.preserve`, check `src` and `functions` "
        "(`i18nprune config`) or write a config file, or pass --force to remove keys anyway "
        f"(`reference.maxUnusedShare`, now {evidence.limit:.0%}, sets the share)",
        path=evidence.unresolved[0].file if evidence.unresolved else None,
    )


def unread_code_gate(
    kind: str,
    source: LocaleView,
    lingui: LinguiReading | None,
    angular: AngularReading | None,
) -> Issue | None:
    """Why `kind` must not remove anything: the source locale is in a format whose messages
    code i18nprune does not read uses (Flutter's ARB files, read by Dart through generated
    getters; PO catalogs, read through gettext calls or Lingui macros not all read; XLIFF
    files, whose unit ids Angular's templates and `$localize` name, not all read), so no key
    can be proven unused; `--force` does not lift it. `lingui` and `angular` are the scan's
    readings of the project's Lingui and Angular i18n."""
    unread = unread_code_format(source, lingui, angular)
    if unread is None:
        return None
    rel, (what, used) = unread
    if what in ("PO", "JSON") and lingui is not None:
        used = (
            f"the project's Lingui code uses, where {len(lingui.unread)} message(s) are not "
            f"read ({_first_places(lingui.unread)}: an id that is not a literal, or a file "
            "that does not parse)"
        )
    elif what == "XLIFF" and angular is not None:
        used = (
            f"the project's Angular templates and `$localize` name, where {len(angular.unread)} "
            f"place(s) are not read ({_first_places(angular.unread)}: a message whose markup "
            "this reader does not follow, a `$localize` that is not a tagged template, a file "
            "that does not parse, or a setting that keeps white space in messages, "
            "`preserveWhitespaces`)"
        )
    return error(
        Code.THIN_EVIDENCE,
        f"{kind} removed nothing: the source locale's messages are in {what} files ({rel}), "
        f"which {used}, and i18nprune does not read that yet, so no key is proven unused; "
        "`validate`, `sync` and `generate` work on these files (`sync` prunes only keys the "
        "source lacks), removing keys is yours to do by hand",
        path=rel,
    )


def _first_places(places: list[str]) -> str:
    return ", ".join(places[:3]) + (", …" if len(places) > 3 else "")


def unread_code_format(
    source: LocaleView, lingui: LinguiReading | None, angular: AngularReading | None
) -> tuple[str, tuple[str, str]] | None:
    """The first segment of `source` in a format whose messages code i18nprune does not read
    uses, with (the format's name, what uses it); None when there is none. Then no source key
    can be proven unused: `cleanup` refuses and `sync`'s template keeps every source key.

    PO catalogs are read code when the project uses Lingui and every Lingui message of it
    was read (`lingui` has no unread place): Lingui's extractor writes exactly the messages
    its macros and `i18n._('id')` name, and so does the scan. JSON catalogs of a project that
    uses Lingui are unread code while some Lingui message of it is not read: they are keyed by
    the ids Lingui generates of messages, which an unread message may be. XLIFF catalogs are
    read code when the project has Angular i18n messages, every one of them read (`angular`
    has no unread place): Angular's extractor writes exactly those messages, under the ids the
    scan derives (`scan.angular_i18n`) — the modern one, a custom `@@id`, or a legacy one
    (`enableI18nLegacyMessageIdFormat`; a message whose legacy ids are not derived is
    unread)."""
    for segment in source.segments:
        name = format_of(segment.rel) or ""
        if name == "po" and lingui is not None and not lingui.unread:
            continue
        if name == "json" and lingui is not None:
            if lingui.unread:
                return segment.rel, _LINGUI_JSON
            if _lingui_style(source, segment.rel):
                return segment.rel, _LINGUI_STYLE
        if name == "xliff" and angular is not None and not angular.unread:
            continue
        why = _UNREAD_CODE.get(name)
        if why is not None:
            return segment.rel, why
    return None


# JSON catalogs of a project whose Lingui messages were not all read: keyed by explicit ids,
# messages or the ids Lingui generates of them, which unread messages may be.
_LINGUI_JSON = (
    "JSON",
    "the project's Lingui code uses by explicit id, message or the id Lingui generates of it",
)

_LINGUI_STYLE = (
    "Lingui's `lingui`-style JSON",
    "hold each message as `{message, translation, origin}` under its id, here with a field "
    "Lingui does not write or beside a key that is no entry (so read as one key per field)",
)


def _lingui_style(source: LocaleView, rel: str) -> bool:
    """Whether the JSON segment `rel` of `source` looks like a catalog of
    `@lingui/format-json`'s `lingui` style (`{"id": {"translation": …, "message": …}}`) that
    was not read as one (`leaves.is_lingui_catalog`: an entry has a field Lingui does not
    write, or a top-level value is no entry), so its leaves are fields: no such leaf may ever
    be offered as unused. A catalog read as one has a leaf per entry and never gets here."""
    return any(
        segment == rel and path.endswith(".translation")
        for path, segment in source.leaf_segment.items()
    )


# Locale formats whose messages are used by code i18nprune does not read: (what they are,
# what uses them).
_UNREAD_CODE = {
    "arb": (
        "ARB",
        "Dart code uses through generated getters (`AppLocalizations.of(context)!.key`)",
    ),
    "po": (
        "PO",
        "code uses by message text or through macros (Lingui's `t`, `<Trans>`, gettext's `_()`)",
    ),
    "xliff": (
        "XLIFF",
        "Angular's templates (`i18n` attributes) and `$localize` name by message fingerprint or "
        "`@@id`",
    ),
}


def source_gate(kind: str, source: LocaleView) -> Issue | None:
    """Why `kind` must not write anything: a segment of the source locale that could not be
    read (its keys are unknown, so every comparison with the source would be wrong)."""
    broken = [issue.path for issue in source.issues if issue.severity == "error" and issue.path]
    if not broken:
        return None
    return error(
        Code.SOURCE_LOCALE_UNREADABLE,
        f"{kind} changed nothing: the source locale `{source.name}` could not be read in "
        f"full ({', '.join(broken)}); fix that file (see the error above) and run again",
        path=broken[0],
    )
