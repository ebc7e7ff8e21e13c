"""The sync template: the source leaves every target locale needs (PRODUCT §5)."""

from __future__ import annotations

from dataclasses import dataclass, field

from i18nprune.config.schema import Config, ParityPolicy, UncertainKeyPolicy
from i18nprune.locales.paths import is_under
from i18nprune.locales.view import LocaleView
from i18nprune.reference import KeyReference, is_preserved


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
        parity-excluded, named by a quoted string in the code, under a protected prefix, or
        the near twin of a missing key."""
        return (
            path in self.twins
            or is_preserved(
                path, self.config.policies.preserve, self.reference.syntax, self.reference.namespace
            )
            or is_parity_excluded(path, None, self.config.policies.parity)
            or bool(self.reference.literal_sites(path))
            or (self.policy != "allow" and self.reference.uncertain_prefix(path) is not None)
        )


def build_template(
    source: LocaleView,
    reference: KeyReference,
    policy: UncertainKeyPolicy,
    config: Config,
    twins: frozenset[str] = frozenset(),
) -> SyncTemplate:
    """Source leaves proven by the code, named by a quoted string in it, under a protected
    dynamic prefix, or preserved.

    When the scan proves nothing, every source text leaf is in the template. Parity-excluded
    leaves and data leaves (numbers, booleans, null) are never in it, except a data leaf that
    is an item of an array (`list[1]`): an array's items are positional, so a target cannot
    have the text after it without it. `twins` (near twins of missing keys) are not in it:
    targets keep them but do not get them.
    """
    parity = config.policies.parity
    # Nothing excluded is the common case: no path need be checked then.
    excluding = bool(parity.exclude_keys or parity.exclude_prefixes or parity.exclude_values)
    paths = []
    for path, leaf in source.leaves.items():
        if (leaf.kind == "other" and not path.endswith("]")) or (
            excluding and is_parity_excluded(path, leaf.value, parity)
        ):
            continue
        if (
            reference.proves_nothing
            or reference.is_proven(path)
            or reference.literal_sites(path)
            or is_preserved(path, config.policies.preserve, reference.syntax, reference.namespace)
            or (policy != "allow" and reference.uncertain_prefix(path) is not None)
        ):
            paths.append(path)
    return SyncTemplate(
        paths=tuple(paths), reference=reference, policy=policy, config=config, twins=twins
    )
