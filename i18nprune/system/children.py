"""How i18nprune starts its own Python child processes (`python -m i18nprune…`)."""

from __future__ import annotations

import os
from collections.abc import Mapping

import i18nprune


def child_python(env: Mapping[str, str] | None = None) -> tuple[dict[str, str], str]:
    """The environment (`env`, default this process's) and the working directory for a
    `python -m` child of ours: the folder this `i18nprune` package was imported from, because
    `python -m` imports from its working directory first — so the child runs this very
    `i18nprune` (and, from an installed wheel, `i18nprune_workers`) whatever the caller's
    directory holds (a checkout of another version, a folder named `i18nprune`)."""
    folder = os.path.dirname(os.path.dirname(os.path.abspath(i18nprune.__file__)))
    return dict(os.environ if env is None else env), folder


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity mask, which containers narrow): what bounds
    how many children working at once are worth starting."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1
