"""What every benchmark shares: the CLI's environment, percentiles, and the JSON report that puts
each measurement beside its limit."""

from __future__ import annotations

import json
import os
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any


def cli_environment(home: Path) -> dict[str, str]:
    """The environment of a measured CLI or server: an isolated home, and bytecode caching as on
    a user's install (pip compiles it; PYTHONDONTWRITEBYTECODE, which this machine sets, would
    make every run recompile every module)."""
    env = {**os.environ, "I18NPRUNE_HOME": str(home)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` (0–1) of `values` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def write_report(
    name: str,
    details: Mapping[str, Any],
    measured: Mapping[str, float],
    limits: Mapping[str, float],
    out: Path,
    *,
    floors: Collection[str] = (),
) -> None:
    """Print and save `{benchmark, …details, measured, limits, ratios, within_limits}`.

    A limit is a ceiling, except for the keys in `floors` (throughputs), where it is a minimum.
    """
    report = {
        "benchmark": name,
        **details,
        "measured": dict(measured),
        "limits": dict(limits),
        "ratios": {key: round(measured[key] / limits[key], 3) for key in limits},
        "within_limits": all(
            measured[key] >= limits[key] if key in floors else measured[key] <= limits[key]
            for key in limits
        ),
        "cpu_count": os.cpu_count(),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))
