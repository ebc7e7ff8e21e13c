"""Next steps a run can point at (`data.suggestions[]`, `[tip]` lines in human output)."""

from __future__ import annotations

import msgspec

from i18nprune.locales.view import LocaleView, translatable_paths
from i18nprune.project import Project
from i18nprune.reference import KeyReference, unused_paths


class Suggestion(msgspec.Struct, frozen=True):
    id: str
    message: str
    command: str


def suggest(
    project: Project, reference: KeyReference, source: LocaleView, missing: list[str]
) -> list[Suggestion]:
    """Suggestions for a project whose source locale is `source` and whose code misses `missing`."""
    suggestions = []
    if missing:
        suggestions.append(
            Suggestion(
                "suggest.missing.literal_keys",
                f"add the {len(missing)} missing key(s) to the source locale as placeholders",
                "i18nprune missing",
            )
        )
    unused = unused_paths(translatable_paths(source), reference, project.config.policies.preserve)
    if unused:
        suggestions.append(
            Suggestion(
                "suggest.cleanup.source_unused",
                f"{len(unused)} source key(s) are not used by the code",
                "i18nprune cleanup --dry-run",
            )
        )
    inventory, _ = project.inventory()
    extra_targets = [
        locale
        for locale in inventory.locales()
        if locale != source.locale and set(project.load(locale).leaves) - set(source.leaves)
    ]
    if extra_targets:
        suggestions.append(
            Suggestion(
                "suggest.cleanup.target_extra",
                f"target locale(s) {', '.join(extra_targets)} have keys the source does not",
                f"i18nprune sync --target {','.join(extra_targets)} --dry-run",
            )
        )
    return suggestions
