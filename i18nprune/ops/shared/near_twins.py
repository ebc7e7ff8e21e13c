"""Near twins in reports: a key the code uses that the source lacks, next to the source key a small
edit away that the code most likely means — one finding naming both keys and both fixes, the
same in `validate`, `cleanup`, `missing` and `sync`."""

from __future__ import annotations

import msgspec

from i18nprune.envelope import Code, Issue, error, info, warning
from i18nprune.keys import KeySyntax
from i18nprune.locales.view import LocaleView, translatable_paths
from i18nprune.project import Project
from i18nprune.reference import Evidence, NearTwin
from i18nprune.scan import KeyObservation

_NAMED = 3


class SourceRange(msgspec.Struct, frozen=True, rename="camel"):
    """A call site: 1-based lines and columns (characters), the end exclusive."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    @classmethod
    def of(cls, observation: KeyObservation) -> SourceRange:
        return cls(
            observation.file,
            observation.line,
            observation.column,
            observation.end_line,
            observation.end_column,
        )


class NearTwinPair(msgspec.Struct, frozen=True, rename="camel"):
    """`data.nearTwins[]`: a missing key, its near twin in the source, and where the code uses
    the missing key."""

    key: str
    """The key the code uses, which the source lacks."""
    twin: str
    """The source key a small edit away from it."""
    twin_unused: bool
    """The code uses the twin nowhere: it holds translations nobody reads, and renaming it to
    `key` keeps them. Otherwise the twin is used (or may be) elsewhere: only the code fix is
    offered."""
    twin_paths: list[str]
    """The twin's source paths (itself, or its plural forms), as reports name keys."""
    sites: list[SourceRange]


def source_twins(
    project: Project,
    evidence: Evidence,
    sources: dict[str | None, LocaleView],
    lacking: list[KeyObservation] | None = None,
) -> list[NearTwin]:
    """The near twins of the keys the source locale (whose namespaces are `sources`) lacks;
    `lacking` is what `evidence.missing_sites` returned for them, when the caller has it."""
    if lacking is None:
        lacking = evidence.missing_sites(
            {namespace: view.leaves for namespace, view in sources.items()}
        )
    if not lacking:
        return []
    paths = {namespace: translatable_paths(view) for namespace, view in sources.items()}
    return evidence.near_twins(paths, project.config.policies.preserve, lacking)


def pairs(twins: list[NearTwin], syntax: KeySyntax) -> list[NearTwinPair]:
    """The records `data.nearTwins` lists."""
    return [
        NearTwinPair(
            key=syntax.display(twin.namespace, twin.key),
            twin=syntax.display(twin.namespace, twin.twin),
            twin_unused=twin.unused,
            twin_paths=[syntax.display(twin.namespace, path) for path in twin.paths],
            sites=[SourceRange.of(site) for site in twin.sites],
        )
        for twin in twins
    ]


def _where(pair: NearTwinPair) -> str:
    first = pair.sites[0]
    more = len(pair.sites) - 1
    return f"{first.file}:{first.line}:{first.column}: " + (
        f"(and {more} more site(s)) " if more else ""
    )


def fixes(pair: NearTwinPair) -> str:
    """Both fixes of an unused twin (the code's, and renaming the key in every locale); for a
    twin used elsewhere, the code's or adding the key."""
    if not pair.twin_unused:
        return (
            f"change the code to `{pair.twin}` if that is the key it means, or add `{pair.key}` "
            f"(`{pair.twin}` is used elsewhere, so renaming it is no fix)"
        )
    return (
        f"change the code to `{pair.twin}`, or rename `{pair.twin}` to `{pair.key}` in every "
        "locale file, keeping its translations"
    )


def finding(pair: NearTwinPair, source_locale: str) -> Issue:
    """`validate`'s finding: the site, both keys, both fixes (an error: the key is missing)."""
    state = "unused and translated" if pair.twin_unused else "a key the code uses elsewhere"
    return error(
        Code.VALIDATE_NEAR_TWIN,
        f"{_where(pair)}`{pair.key}` is missing from the source locale `{source_locale}`, "
        f"and the source has its near twin `{pair.twin}` ({state}): {fixes(pair)}",
        path=pair.sites[0].file,
    )


def kept_note(kind: str, kept: list[NearTwinPair]) -> Issue | None:
    """Info naming the twins `cleanup` did not offer or `sync` kept in the targets, which the
    code does not use: renaming them keeps their translations, removing them would lose
    them."""
    if not kept:
        return None
    named = ", ".join(f"{pair.twin} (the code uses `{pair.key}`)" for pair in kept[:_NAMED])
    more = f" and {len(kept) - _NAMED} more" if len(kept) > _NAMED else ""
    verb = "not offered" if kind == "cleanup" else "kept in the targets"
    return info(
        Code.NEAR_TWIN_KEPT,
        f"{len(kept)} unused key(s) {verb}: each is the near twin of a key the code uses "
        f"that the source lacks, and most likely the key it means: {named}{more}. Rename the "
        "twin to the code's key in every locale file (keeping its translations), or change "
        "the code; see `data.nearTwins`",
    )


def skipped_issue(twins: list[NearTwinPair], locales: list[str], *, check: bool) -> Issue | None:
    """`missing`'s finding on the keys it did not add because each has an unused near twin
    holding its translations (an empty key beside it would leave the twin to `cleanup`): a
    warning, or under `--check` an error (the code still uses a key the locale lacks)."""
    skipped = [pair for pair in twins if pair.twin_unused]
    if not skipped or not locales:
        return None
    named = ", ".join(
        f"`{pair.key}` (twin `{pair.twin}`, {pair.sites[0].file}:{pair.sites[0].line})"
        for pair in skipped[:_NAMED]
    )
    more = f" and {len(skipped) - _NAMED} more" if len(skipped) > _NAMED else ""
    report = error if check else warning
    return report(
        Code.MISSING_NEAR_TWIN,
        f"{len(skipped)} key(s) not added to {', '.join(locales)}, each with an unused near "
        f"twin in the source that holds its translations: {named}{more}. Rename each twin to "
        "its key in every locale file (keeping the translations), or change the code to the "
        "twin; if a key is new and its twin another key, keep the twin with "
        "`policies.preserve` (or remove it: `cleanup --keys <twin>`) and run again. See "
        "`data.nearTwins`",
        path=skipped[0].sites[0].file,
    )


def used_twin_note(twins: list[NearTwinPair]) -> Issue | None:
    """`missing`'s note on the keys it adds although a key the code uses elsewhere is a small
    edit away from each: the code may mean that key."""
    used = [pair for pair in twins if not pair.twin_unused]
    if not used:
        return None
    named = ", ".join(
        f"`{pair.key}` (twin `{pair.twin}`, {pair.sites[0].file}:{pair.sites[0].line})"
        for pair in used[:_NAMED]
    )
    more = f" and {len(used) - _NAMED} more" if len(used) > _NAMED else ""
    return info(
        Code.MISSING_NEAR_TWIN,
        f"{len(used)} key(s) to add have a near twin the code uses elsewhere, which the code "
        f"may mean: {named}{more}; if it does, change the code to the twin rather than "
        "translating the new key",
        path=used[0].sites[0].file,
    )
