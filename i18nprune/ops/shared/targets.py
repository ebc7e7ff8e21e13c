"""Choosing target locales from `--target` (codes, a comma list, or `all`)."""

from __future__ import annotations

import msgspec

from i18nprune.envelope import Code, Issue, error
from i18nprune.locale_codes import normalize_code
from i18nprune.locales.catalog import is_known_language
from i18nprune.project import Project


class Target(msgspec.Struct, frozen=True):
    """A target locale: its normalised code, the name its files use, whether it exists yet."""

    code: str
    name: str
    exists: bool


def select_targets(
    project: Project, requested: list[str] | None, *, allow_new: bool = False
) -> tuple[list[Target], list[Issue]]:
    """Targets named by `requested` (None or `all`: every existing non-source locale).

    The source locale is never a target. A code without files is an error unless `allow_new`
    (then it must be in the language catalog).
    """
    inventory, _ = project.inventory()
    source = project.source_locale()
    existing = {code: segments[0].name for code, segments in inventory.segments.items()}
    if not requested or any(normalize_code(code) == "all" for code in requested):
        names = sorted(code for code in existing if code != source)
        return [Target(code, existing[code], True) for code in names], []
    targets: list[Target] = []
    issues: list[Issue] = []
    for raw in dict.fromkeys(requested):
        code = normalize_code(raw)
        if code == source:
            issues.append(
                error(Code.TARGET_IS_SOURCE, f"`{raw}` is the source locale; it cannot be a target")
            )
        elif code in existing:
            targets.append(Target(code, existing[code], True))
        elif allow_new and is_known_language(code):
            targets.append(Target(code, raw.strip(), False))
        elif allow_new:
            issues.append(
                error(
                    Code.UNSUPPORTED_LANGUAGE,
                    f"`{raw}` is not a language code i18nprune knows; see `i18nprune languages`",
                )
            )
        else:
            known = ", ".join(existing[c] for c in sorted(existing) if c != source) or "none"
            issues.append(
                error(
                    Code.TARGET_NOT_FOUND,
                    f"target locale `{raw}` has no files in `{project.config.locales.directory}` "
                    f"(targets: {known})",
                )
            )
    return targets, issues


def source_or_targets(
    project: Project, requested: list[str] | None
) -> tuple[list[str], list[Issue]]:
    """The source locale when no `--target` is given, else the named existing targets."""
    if requested is None:
        return [project.source_locale()], []
    targets, issues = select_targets(project, requested)
    return [target.code for target in targets], issues
