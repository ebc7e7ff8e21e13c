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


# Calls whose result is destructured for `t` (`const { t } = useTranslation()`, `[t]` too),
# with the translation functions each returns.
HOOK_TRANSLATOR_NAMES = {
    "useTranslation": frozenset({"t"}),
    "useI18n": frozenset({"t", "tc", "te", "tm"}),
}
HOOKS_RETURNING_OBJECT = tuple(HOOK_TRANSLATOR_NAMES)
# Calls that return a translation function (`const t = useTranslations('ns')`).
FACTORIES_RETURNING_TRANSLATOR = ("useTranslations", "getTranslations", "getFixedT")
# next-i18next's app-router hooks (`next-i18next/client`, `next-i18next/server`), which return
# what `useTranslation` does: `const { t } = useT('ns', { keyPrefix })`, `await getT('ns')`.
NEXT_I18NEXT_HOOKS = ("useT", "getT")
# react-i18next's render prop, whose function gets `useTranslation(ns, { keyPrefix })`'s `t`.
RENDER_PROP_ELEMENTS = ("Translation",)
# i18next's `getResource(lng, ns, key)`: reads one key of a namespace.
RESOURCE_GETTERS = ("getResource",)
# Markup attributes that name a key (`<Trans i18nKey>`, vue-i18n `<i18n-t keypath>`, `v-t`).
KEY_ATTRIBUTES = ("i18nKey", "keypath", "v-t")
# i18next's component whose children (or `i18nKey`) are a key.
TRANS_ELEMENTS = ("Trans",)
# `withTranslation('ns')(Component)`: the component's `t` is bound to a namespace.
NAMESPACE_HOCS = ("withTranslation",)
# Translation functions that return the whole object under a key (vue-i18n, svelte-i18n).
SUBTREE_CALLEES = frozenset({"tm", "$tm", "$json"})
# FormatJS (react-intl): recognised in files that import one of these modules, or one of
# these names from any module (an app's wrapper around them).
FORMATJS_MODULES = ("react-intl", "@formatjs/*")
FORMATJS_NAMES = frozenset(
    {"defineMessages", "defineMessage", "FormattedMessage", "useIntl", "injectIntl"}
)
FORMATJS_CALLEES = ("defineMessage", "defineMessages", "formatMessage")
FORMATJS_ELEMENTS = ("FormattedMessage", "FormattedHTMLMessage")
