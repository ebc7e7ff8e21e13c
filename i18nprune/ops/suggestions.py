"""Next steps a run can point at (`data.suggestions[]`, `[tip]` lines in human output)."""

from __future__ import annotations

import msgspec

from i18nprune.locales.view import LocaleView
from i18nprune.project import Project


class Suggestion(msgspec.Struct, frozen=True):
    id: str
    message: str
    command: str


def suggest(
    project: Project,
    sources: dict[str | None, LocaleView],
    missing: int,
    unused: int,
) -> list[Suggestion]:
    """Suggestions for a project whose source locale's namespaces are `sources`, whose code
    uses `missing` keys the source lacks and leaves `unused` of its keys unused (see
    `reference.unused_keys`)."""
    suggestions = []
    if missing:
        suggestions.append(
            Suggestion(
                "suggest.missing.literal_keys",
                f"add the {missing} missing key(s) to the source locale as placeholders",
                project.command("missing"),
            )
        )
    if unused:
        suggestions.append(
            Suggestion(
                "suggest.cleanup.source_unused",
                f"{unused} source key(s) are not used by the code",
                project.command("cleanup --dry-run"),
            )
        )
    inventory, _ = project.inventory()
    source_locale = project.source_locale()
    extra_targets = [
        locale
        for locale in inventory.locales()
        if locale != source_locale
        and any(
            set(project.load(locale, namespace).leaves) - set(view.leaves)
            for namespace, view in sources.items()
        )
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
