"""The sync template: the source leaves every target locale needs
(docs/locale-files.md#the-sync-template)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from i18nprune.config.schema import Config, ParityPolicy, PreservePolicy, UncertainKeyPolicy
from i18nprune.keys import KeySyntax
from i18nprune.locales.paths import array_items, array_key, is_under
from i18nprune.locales.view import LocaleView, translatable_paths
from i18nprune.reference import (
    Evidence,
    KeyReference,
    follow_messages,
    is_preserved,
    unread_code_format,
)


def is_parity_excluded(path: str, value: object, parity: ParityPolicy) -> bool:
    """`policies.parity` says targets need not mirror this source leaf."""
    return (
        path in parity.exclude_keys
        or any(is_under(path, prefix) for prefix in parity.exclude_prefixes)
        or (isinstance(value, str) and value in parity.exclude_values)
    )


@dataclass(frozen=True)
class SyncTemplate:
    """Template paths in source order, and what protects target paths outside it."""

    paths: tuple[str, ...]
    reference: KeyReference
    policy: UncertainKeyPolicy
    config: Config
    twins: frozenset[str] = field(default_factory=frozenset)
    """Source paths of near twins of keys the code uses that the source lacks: their
    translations are kept for a rename, though the code does not use them."""

    def keeps_extra(self, path: str) -> bool:
        """A target path outside the template that must still not be removed: preserved,
        parity-excluded, named by a quoted string in the code, reached by a dynamic site (its
        protected prefix or suffix), or the near twin of a missing key."""
        return (
            path in self.twins
            or is_preserved(
                path, self.config.policies.preserve, self.reference.syntax, self.reference.namespace
            )
            or is_parity_excluded(path, None, self.config.policies.parity)
            or bool(self.reference.literal_sites(path))
            or (self.policy != "allow" and self.reference.is_uncertain(path))
        )


def build_templates(
    sources: Mapping[str | None, LocaleView],
    evidence: Evidence,
    policy: UncertainKeyPolicy,
    config: Config,
    twins: Mapping[str | None, frozenset[str]] | None = None,
) -> dict[str | None, SyncTemplate]:
    """Each namespace's template: the source leaves proven by the code, named by a quoted
    string in it, reached by a dynamic site (a protected prefix or suffix), or preserved, and
    the leaves the messages of those name (i18next nesting, vue-i18n links; transitively,
    across namespaces).

    When the scan proves nothing, or the source's files are in a format whose code i18nprune
    does not read (`reference.unread_code_format`: ARB, PO unless the project's Lingui
    messages were all read), every source text leaf is in the
    template. Parity-excluded
    leaves and data leaves (numbers, booleans, null) are never in it, except a data leaf that
    is an item of an array (`list[1]`): an array's items are positional, so a target cannot
    have the text after it without it. An array is one value: all its items are in the template,
    or none. `twins` (near twins of missing keys) are not in it: targets keep them but do not
    get them.
    """
    kept = {
        namespace: (
            set(view.leaves)
            if unread_code_format(view, evidence.scan.lingui, evidence.scan.angular) is not None
            else {
                path
                for path in view.leaves
                if _kept(path, evidence.reference(namespace), policy, config.policies.preserve)
            }
        )
        for namespace, view in sources.items()
    }
    for namespace, path in follow_messages(kept, [sources], evidence.syntax).named:
        kept.setdefault(namespace, set()).add(path)
    for namespace, view in sources.items():
        _keep_whole_arrays(kept.setdefault(namespace, set()), view)
    eligible = {namespace: _eligible(view, config) for namespace, view in sources.items()}
    return {
        namespace: SyncTemplate(
            paths=tuple(path for path in paths if path in kept[namespace]),
            reference=evidence.reference(namespace),
            policy=policy,
            config=config,
            twins=(twins or {}).get(namespace, frozenset()),
        )
        for namespace, paths in eligible.items()
    }


def _keep_whole_arrays(kept: set[str], source: LocaleView) -> None:
    """Add to `kept` every item of each array one of whose items it holds: an array is one
    value, kept or left out whole."""
    arrays = {array_key(path) for path in kept if "[" in path}
    arrays.discard(None)
    if arrays:
        kept.update(
            item
            for key, items in array_items(source.leaves).items()
            if key in arrays
            for item in items
        )


def _eligible(source: LocaleView, config: Config) -> list[str]:
    """The source paths a template may hold, in source order."""
    parity = config.policies.parity
    # Nothing excluded is the common case: no path need be checked then.
    excluding = bool(parity.exclude_keys or parity.exclude_prefixes or parity.exclude_values)
    return [
        path
        for path, leaf in source.leaves.items()
        if not (leaf.kind == "other" and not path.endswith("]"))
        and not (excluding and is_parity_excluded(path, leaf.value, parity))
    ]


def _kept(
    path: str, reference: KeyReference, policy: UncertainKeyPolicy, preserve: PreservePolicy
) -> bool:
    return (
        reference.proves_nothing
        or reference.is_proven(path)
        or bool(reference.literal_sites(path))
        or is_preserved(path, preserve, reference.syntax, reference.namespace)
        or (policy != "allow" and reference.is_uncertain(path))
    )


def target_extras(
    templates: Mapping[str | None, SyncTemplate],
    target: Mapping[str | None, LocaleView],
    sources: Mapping[str | None, LocaleView],
    syntax: KeySyntax,
) -> dict[str | None, set[str]]:
    """Each namespace's paths of one target outside its template that stay: those
    `keeps_extra` keeps, and those the messages of the target's kept keys name (its own
    messages and the source's: a target may word a message with a key the source's does not
    name)."""
    wanted = {namespace: set(template.paths) for namespace, template in templates.items()}
    extras = {
        namespace: {
            path
            for path in translatable_paths(view)
            if path not in wanted[namespace] and templates[namespace].keeps_extra(path)
        }
        for namespace, view in target.items()
        if namespace in templates
    }
    kept = {namespace: paths | extras.get(namespace, set()) for namespace, paths in wanted.items()}
    for namespace, path in follow_messages(kept, [target, sources], syntax).named:
        extras.setdefault(namespace, set()).add(path)
    return extras


class TargetValues:
    """The keys whose values a target keeps (`kept`: the template's and the extras', and the
    keys of the template's arrays), whatever shape the target gives them: a key the code uses
    reads its value whole, so what lies in it stays, and nothing is added into it."""

    def __init__(
        self, view: LocaleView, syntax: KeySyntax, kept: Collection[str] = frozenset()
    ) -> None:
        self.view = view
        self.syntax = syntax
        self.keys = {*kept, *(key for key in map(array_key, kept) if key is not None)}
        self._holders: set[str] | None = None
        self._arrays: dict[str, list[str]] | None = None

    def holds(self, path: str) -> bool:
        """Whether the target path `path` stays: it is a kept key or lies in one's value."""
        if path in self.keys:
            return True
        return any(container in self.keys for container in self.syntax.containers(path))

    def shaped_otherwise(self, path: str) -> bool:
        """Whether the template path `path`, which the target lacks, is left out because the
        target gives its key another shape: an array or object where the source has a text,
        or something else where the source has an array."""
        if self._holders is None:
            leaves = self.view.leaves
            self._holders = {
                container for found in leaves for container in self.syntax.containers(found)
            }
            self._arrays = array_items(leaves)
        if path in self._holders:
            return True
        key = array_key(path)
        return (
            key is not None
            and key not in (self._arrays or {})
            and (key in self.view.leaves or key in self._holders)
        )
