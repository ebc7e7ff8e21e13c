"""A detected value and where it came from."""

from __future__ import annotations

from typing import Any, NamedTuple


class Finding(NamedTuple):
    """One value the detector found for a config field."""

    value: Any
    """The value, as the config file would spell it (camelCase keys in objects)."""
    origin: str
    """Where it came from, for a person: `next-i18next.config.js:5: defaultNS`, or what it was
    inferred from (`the files in public/locales`)."""
    read: bool
    """True when read from the app's own i18n set-up (what the app itself runs with); False
    when inferred from the tree's shape, a guess the thin-evidence gate treats as thin."""
