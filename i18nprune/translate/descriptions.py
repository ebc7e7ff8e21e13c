"""Key descriptions — what each text is for: from `<segment>.meta.json` beside the source
segments, else from an `i18n:` comment above a call site.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from i18nprune.envelope import Issue
from i18nprune.locales.meta import read_descriptions
from i18nprune.locales.view import LocaleView
from i18nprune.reference import Evidence

Descriptions = dict[tuple[str | None, str], str]
"""(namespace, key path) → description; namespace None: the default, or any namespace."""

# i18next plural suffixes: `cart.items_one` is described where the code uses `cart.items`.
_PLURAL_SUFFIX = re.compile(r"_(?:ordinal_)?(?:zero|one|two|few|many|other)$")


def key_descriptions(
    sources: Mapping[str | None, LocaleView], evidence: Evidence
) -> tuple[Descriptions, list[Issue]]:
    """Every described key of the source locale (`sources`: its view of each namespace; the
    comments from the key sites of `evidence`) and the meta files' problems (warnings).

    A meta file's description wins over a comment's (it is the one translators maintain);
    of several comments on one key, the first site (by file, then line) counts.
    """
    described: Descriptions = {}
    issues: list[Issue] = []
    for namespace, view in sources.items():
        found, problems = read_descriptions(view.segments)
        issues.extend(problems)
        for path, text in found.items():
            described.setdefault((namespace, path), text)
    sites = sorted(
        (site for site in evidence.scan.observations if site.description),
        key=lambda site: (site.file, site.line, site.column),
    )
    namespaced = evidence.syntax.uses_namespaces
    for site in sites:
        assert site.description is not None
        namespace = site.namespace if namespaced else None
        described.setdefault((namespace, site.key), site.description)
    return described, issues


def describe(descriptions: Descriptions, namespace: str | None, path: str) -> str | None:
    """The description of `path` in `namespace`: its own, else one given without a namespace,
    else that of the key a plural form belongs to (`cart.items` for `cart.items_one`)."""
    base = _PLURAL_SUFFIX.sub("", path)
    for candidate in dict.fromkeys((path, base)):
        for space in dict.fromkeys((namespace, None)):
            found = descriptions.get((space, candidate))
            if found is not None:
                return found
    return None
