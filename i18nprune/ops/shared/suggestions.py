"""Next steps a run can point at (`data.suggestions[]`, `[tip]` lines in human output)."""

from __future__ import annotations

import msgspec

from i18nprune.locales.derived import digest_of
from i18nprune.locales.view import LocaleView, translatable_paths
from i18nprune.ops.shared.near_twins import NearTwinPair
from i18nprune.project import Project
from i18nprune.reference import Evidence, ThinEvidence, unresolved_sites


class Suggestion(msgspec.Struct, frozen=True):
    id: str
    message: str
    command: str


def source_evidence(
    project: Project,
    evidence: Evidence,
    sources: dict[str | None, LocaleView],
    unused: dict[str | None, list[str]],
    missing: int,
) -> ThinEvidence:
    """How many of the source keys look unused (`unused`, each namespace's, as
    `reference.unused_keys` finds them), and what could explain it other than their being
    unused (what `cleanup` of the source weighs before removing anything); `missing`: how many
    keys the code uses that the source lacks."""
    return ThinEvidence(
        candidates=sum(map(len, unused.values())),
        keys=sum(len(translatable_paths(view)) for view in sources.values()),
        unresolved=unresolved_sites(evidence.scan, sources),
        guessed=project.guessed_configuration(),
        limit=project.config.reference.max_unused_share,
        missing=missing,
    )


def suggest(
    project: Project,
    sources: dict[str | None, LocaleView],
    missing: int,
    unused: ThinEvidence,
    twins: list[NearTwinPair],
) -> list[Suggestion]:
    """Suggestions for a project whose source locale's namespaces are `sources`, whose code
    uses `missing` keys the source lacks, `twins` of them with a near twin in the source, and
    whose source keys look unused as `unused` says (`source_evidence`): a cleanup only when the
    evidence would allow one, else a look at the configuration. No tip adds a key that has an
    unused twin or removes that twin: renaming it keeps its translations. Locales are named as
    the project spells them (`--target` takes either spelling). Without a locale folder the
    only tip is to name it: every other would act on files that are not there."""
    if not project.locales_dir.is_dir():
        return [
            Suggestion(
                "suggest.config.locales_missing",
                f"there is no locale folder at `{project.config.locales.directory}`: set "
                "`locales.directory` to the folder that holds the locale files (`init` asks "
                "for it and writes the config)",
                project.command("init"),
            )
        ]
    suggestions = []
    renamed = [pair for pair in twins if pair.twin_unused]
    kept = sum(len(pair.twin_paths) for pair in renamed)  # what cleanup does not offer
    if renamed:
        first = renamed[0]
        others = f" ({len(renamed) - 1} more in `validate`)" if len(renamed) > 1 else ""
        suggestions.append(
            Suggestion(
                "suggest.rename.near_twin",
                f"the code uses `{first.key}`, the source has the unused near twin "
                f"`{first.twin}` with its translations{others}: rename the key in every locale "
                "file or change the code, rather than adding one key and removing the other",
                project.command("validate"),
            )
        )
    if missing > len(renamed) and not (unused.guessed and unused.misread):
        suggestions.append(
            Suggestion(
                "suggest.missing.literal_keys",
                f"add the {missing - len(renamed)} missing key(s) to the source locale as "
                "placeholders",
                project.command("missing"),
            )
        )
    if unused.too_thin:
        suggestions.append(
            Suggestion(
                "suggest.config.thin_evidence",
                f"{unused.candidates} of {unused.keys} source keys look unused: check that "
                "`src` and `functions` cover the code that uses them before any cleanup",
                project.command("config"),
            )
        )
    elif unused.candidates > kept:
        suggestions.append(
            Suggestion(
                "suggest.cleanup.source_unused",
                f"{unused.candidates - kept} source key(s) are not used by the code",
                project.command("cleanup --dry-run"),
            )
        )
    extra_targets = [
        project.locale_name(code) for code in targets_with_extra_keys(project, sources)
    ]
    if extra_targets:
        suggestions.append(
            Suggestion(
                "suggest.cleanup.target_extra",
                f"target locale(s) {', '.join(extra_targets)} have keys the source does not",
                project.command(f"sync --target {','.join(extra_targets)} --dry-run"),
            )
        )
    return suggestions


def targets_with_extra_keys(project: Project, sources: dict[str | None, LocaleView]) -> list[str]:
    """The target locales with a path the source's namespace `sources` lacks, sorted. Each
    target namespace is counted once and kept (`Project.derived_counts`): a run reads again
    only the target files that changed since, or whose source namespace did."""
    inventory, _ = project.inventory()
    counts = project.derived_counts()
    source_locale = project.source_locale()
    against = {namespace: digest_of(list(view.leaves)) for namespace, view in sources.items()}

    def extra(locale: str, namespace: str | None, source: LocaleView) -> bool:
        def count() -> int:
            target = project.load(locale, namespace)
            return int(any(path not in source.leaves for path in target.leaves))

        files = [segment.path for segment in project.segments(locale, namespace)]
        key = "extra/" + (locale if namespace is None else f"{locale}/{namespace}")
        return bool(counts.count(key, against[namespace], files, count))

    return [
        locale
        for locale in inventory.locales()
        if locale != source_locale
        and any(extra(locale, namespace, view) for namespace, view in sources.items())
    ]
