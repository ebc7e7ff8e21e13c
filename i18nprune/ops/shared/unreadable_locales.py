"""Locale files that do not parse, named at their position, for the read ops that otherwise
count only what they could read (`validate`, `locales list`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial

from i18nprune.envelope import Issue
from i18nprune.locales.derived import digest_of
from i18nprune.locales.keyroot import KeyRoot
from i18nprune.locales.layout import Segment
from i18nprune.locales.view import read_segments
from i18nprune.project import Project


def unreadable_locale_files(project: Project, locales: Iterable[str]) -> list[Issue]:
    """The error of each file of `locales` (normalised codes) that does not parse
    (`locales/fr.json:1:11: …`): every file of each locale, whatever namespace it holds. Whether
    a locale has one is kept between runs (`Project.derived_counts`): a run reads again only
    the locales whose files changed since."""
    inventory, _ = project.inventory()
    placeholder = project.config.missing.placeholder
    counts = project.derived_counts()
    against = digest_of([placeholder, list(inventory.key_root)])
    found: list[Issue] = []
    for code in locales:
        segments = inventory.segments.get(code, [])
        files = [segment.path for segment in segments]
        errors = partial(_errors, segments, placeholder, inventory.key_root)
        if counts.count(f"unreadable/{code}", against, files, partial(_count, errors)):
            found.extend(errors())
    return found


def _count(errors: Callable[[], list[Issue]]) -> int:
    return len(errors())


def _errors(segments: list[Segment], placeholder: str, key_root: KeyRoot) -> list[Issue]:
    return [
        issue
        for segment in segments
        for issue in read_segments(segment.locale, [segment], placeholder, None, key_root).issues
        if issue.severity == "error"
    ]
