"""`locales dynamic`: the key sites the scan could not resolve, with the prefixes and suffixes
they protect."""

from __future__ import annotations

import time

import msgspec

from i18nprune.envelope import Code, Envelope, info, make_envelope
from i18nprune.ops.engine.events import EventSink
from i18nprune.ops.engine.scanning import scan_code
from i18nprune.ops.validate import dynamic_counts
from i18nprune.project import ProjectHandle
from i18nprune.reference import protects, unprotected_dynamic_sites
from i18nprune.scan import DynamicSite

KIND = "locales.dynamic"


class LocalesDynamicOptions(msgspec.Struct, frozen=True, kw_only=True):
    """`locales dynamic` has no options of its own."""


class LocalesDynamicData(msgspec.Struct, frozen=True):
    count: int
    active: int
    commented: int
    prefixes: list[str]
    suffixes: list[str]
    """Static tails of sites with no static head: keys ending with them are protected."""
    sites: list[DynamicSite]


async def run(handle: ProjectHandle, options: LocalesDynamicOptions, emit: EventSink) -> Envelope:
    """List every dynamic site; active ones protect their prefix or suffix from cleanup."""
    started = time.perf_counter()
    project = handle.open()
    evidence = await scan_code(project, KIND, emit)
    scan = evidence.scan
    issues = list(scan.issues)
    counts = dynamic_counts(scan)
    prefixes = sorted(
        {
            evidence.syntax.display(site.namespace, site.prefix)
            for site in scan.dynamic
            if protects(site) and site.prefix is not None
        }
    )
    suffixes = sorted(
        {
            evidence.syntax.display(site.namespace, site.suffix)
            for site in scan.dynamic
            if protects(site) and site.suffix
        }
    )
    unprotected = len(unprotected_dynamic_sites(scan))
    if counts.active:
        issues.append(
            info(
                Code.SCAN_DYNAMIC_SITES,
                f"{counts.active} dynamic key site(s); {len(prefixes)} prefix(es) protected"
                + (f", {len(suffixes)} suffix(es)" if suffixes else "")
                + (
                    f"; {unprotected} site(s) with no static part protect nothing"
                    if unprotected
                    else ""
                ),
            )
        )
    data = LocalesDynamicData(
        count=counts.count,
        active=counts.active,
        commented=counts.commented,
        prefixes=prefixes,
        suffixes=suffixes,
        sites=scan.dynamic,
    )
    return make_envelope(KIND, data, issues, started=started)
