"""Which callees are translation functions: the configured names plus Vue's `$t`."""

from __future__ import annotations

from collections.abc import Iterable

ALWAYS_TRANSLATORS = ("$t",)


class CalleeNames:
    """The configured function names, prepared for matching callee paths.

    A name without a dot matches a bare call and the last member of a path (`t` matches `t(…)`,
    `i18n.t(…)`, `props.t(…)`); a dotted name matches that path or a path ending with it
    (`i18n.t` matches `i18n.t(…)` and `this.i18n.t(…)`). `$t` always matches.
    """

    def __init__(self, functions: Iterable[str]) -> None:
        configured = sorted({name.strip() for name in functions if name.strip()})
        self.configured: tuple[str, ...] = tuple(configured)
        self.bare: frozenset[str] = frozenset(
            [name for name in configured if "." not in name] + list(ALWAYS_TRANSLATORS)
        )
        self.dotted: tuple[str, ...] = tuple(name for name in configured if "." in name)
        self.last_segments: tuple[str, ...] = tuple(
            sorted(self.bare | {name.rsplit(".", 1)[1] for name in self.dotted})
        )

    def matches_path(self, path: str) -> bool:
        """Whether a dotted callee path (`t`, `i18n.t`, `this.$t`) is a translation function."""
        last = path.rsplit(".", 1)[-1]
        if last in self.bare:
            return True
        return any(path == name or path.endswith("." + name) for name in self.dotted)


# Calls whose result is destructured for `t` (`const { t } = useTranslation()`, `[t]` too).
HOOKS_RETURNING_OBJECT = ("useTranslation", "useI18n")
# Calls that return a translation function (`const t = useTranslations('ns')`).
FACTORIES_RETURNING_TRANSLATOR = ("useTranslations", "getTranslations", "getFixedT")
# Markup attributes that name a key (`<Trans i18nKey>`, vue-i18n `<i18n-t keypath>`, `v-t`).
KEY_ATTRIBUTES = ("i18nKey", "keypath", "v-t")
