"""Which callees are translation functions: the configured names plus Vue's `$t`, and the
configured hooks, `Trans` components, FormatJS message components and functions to ignore."""

from __future__ import annotations

from collections.abc import Iterable

ALWAYS_TRANSLATORS = ("$t",)
LOCALIZE = "$localize"
"""Angular's tag for messages in code; named among the functions, it makes templates read."""
# How `callee_names` marks the names that are not translation functions in the one list of
# names a scan carries (its cache identity, its parse workers' requests): no function name
# holds a `:`.
_HOOK = "hook:"
_TRANS = "trans:"
_IGNORED = "ignore:"
_SERVICE = "service:"


def callee_names(
    functions: Iterable[str],
    hooks: Iterable[str] = (),
    trans_components: Iterable[str] = (),
    ignored: Iterable[str] = (),
) -> list[str]:
    """The names a scan matches as one list of strings (what `CalleeNames` reads): the
    translation functions as they are, the hooks, `Trans` components and functions to ignore
    marked."""
    return [
        *functions,
        *(_HOOK + name for name in hooks),
        *(_TRANS + name for name in trans_components),
        *(_IGNORED + name for name in ignored),
    ]


class _Paths:
    """Names matched against callee paths: a name without a dot matches a bare call and the
    last member of a path, a dotted one that path or a path ending with it."""

    def __init__(self, names: Iterable[str], always: Iterable[str] = ()) -> None:
        names = sorted(set(names))
        self.bare: frozenset[str] = frozenset([n for n in names if "." not in n] + list(always))
        self.dotted: tuple[str, ...] = tuple(name for name in names if "." in name)

    def matches(self, path: str) -> bool:
        if path.rsplit(".", 1)[-1] in self.bare:
            return True
        return any(path == name or path.endswith("." + name) for name in self.dotted)


class CalleeNames:
    """The configured names, prepared for matching callee paths.

    A function name without a dot matches a bare call and the last member of a path (`t`
    matches `t(…)`, `i18n.t(…)`, `props.t(…)`); a dotted name matches that path or a path
    ending with it (`i18n.t` matches `i18n.t(…)` and `this.i18n.t(…)`). `$t` always matches.
    `hooks` return a translation function, or an object holding `t`, as `useTranslation`
    does; `trans_elements` are the components read as `<Trans>`; a call matching one of the
    `ignored` names (matched as functions are) is never a key site. A name written `<Name>` is
    a FormatJS message component instead (`<F id="…" />`, read like `<FormattedMessage>`).
    Angular's names: `|translate` is a pipe whose input is a key, `[translate]` a directive
    whose value (or, without one, the element's text) is a key and which, written
    `*transloco="let t; read: 'p'"`, gives `t` a key prefix; `service:TranslateService.instant`
    a method of an injected service that takes a key (`this.translate.instant('k')`). A
    project with pipes or directives has its `.html` templates scanned (`scan.angular`).
    """

    def __init__(self, functions: Iterable[str]) -> None:
        named = {name.strip() for name in functions if name.strip()}
        self.configured: tuple[str, ...] = tuple(sorted(named))
        self.components: tuple[str, ...] = tuple(
            sorted(name[1:-1].strip() for name in named if _is_component(name))
        )
        plain = [
            name
            for name in named
            if ":" not in name and not _is_component(name) and not _is_template_name(name)
        ]
        self.hooks: frozenset[str] = frozenset(_marked(named, _HOOK))
        self.trans_elements: tuple[str, ...] = tuple(
            sorted({*TRANS_ELEMENTS, *_marked(named, _TRANS)})
        )
        self._ignored = _Paths(_marked(named, _IGNORED))
        self.ignores: bool = bool(self._ignored.bare or self._ignored.dotted)
        """Whether any function is to be ignored (`is_ignored` can be true)."""
        self.pipes: frozenset[str] = frozenset(
            name[1:].strip() for name in named if name.startswith("|") and len(name) > 1
        )
        self.directives: frozenset[str] = frozenset(
            name[1:-1].strip() for name in named if name.startswith("[") and name.endswith("]")
        )
        self.services: tuple[tuple[str, str], ...] = tuple(
            sorted(
                (service, method)
                for service, _, method in (name.partition(".") for name in _marked(named, _SERVICE))
                if service and method
            )
        )
        self._functions = _Paths(plain, ALWAYS_TRANSLATORS)
        self.bare = self._functions.bare
        self.dotted = self._functions.dotted
        self.last_segments: tuple[str, ...] = tuple(
            sorted(self.bare | {name.rsplit(".", 1)[1] for name in self.dotted})
        )

    @property
    def reads_templates(self) -> bool:
        """Whether Angular templates (`.html`) hold key sites: a pipe or directive is named,
        or `$localize` (Angular's own i18n, whose templates mark messages `i18n`)."""
        return bool(self.pipes or self.directives or LOCALIZE in self.bare)

    def matches_path(self, path: str) -> bool:
        """Whether a dotted callee path (`t`, `i18n.t`, `this.$t`) is a translation function."""
        return self._functions.matches(path)

    def is_ignored(self, path: str) -> bool:
        """Whether a callee path (`t`, `moment.t`) is one of the functions to ignore."""
        return self._ignored.matches(path)


def reads_templates(functions: Iterable[str]) -> bool:
    """Whether names (as `callee_names` lists them) make a scan read Angular templates: a
    pipe, a directive or `$localize` is among them (see `CalleeNames.reads_templates`)."""
    return any(_is_template_name(name.strip()) or name.strip() == LOCALIZE for name in functions)


def _is_template_name(name: str) -> bool:
    """An Angular pipe (`|translate`) or directive (`[translate]`): a name of templates."""
    return name.startswith("|") or (name.startswith("[") and name.endswith("]"))


def _is_component(name: str) -> bool:
    return name.startswith("<") and name.endswith(">") and len(name) > 2


def _marked(names: Iterable[str], mark: str) -> list[str]:
    return [name[len(mark) :] for name in names if name.startswith(mark) and len(name) > len(mark)]


# Calls whose result is destructured for `t` (`const { t } = useTranslation()`, `[t]` too),
# with the translation functions each returns.
HOOK_TRANSLATOR_NAMES = {
    "useTranslation": frozenset({"t"}),
    "useI18n": frozenset({"t", "tc", "te", "tm"}),
}
HOOKS_RETURNING_OBJECT = tuple(HOOK_TRANSLATOR_NAMES)
# Calls that return a translation function (`const t = useTranslations('ns')`).
FACTORIES_RETURNING_TRANSLATOR = (
    "useTranslations",
    "getTranslations",
    "getFixedT",
    "createTranslator",
    "useExtracted",
    "getExtracted",
    "__ngRead",
)
# The factory `scan.angular` writes for a template's `*transloco="let t; read: 'p'"`: its `t`
# reads `p.` + the key, namespace and all (Transloco's scopes are spelled in the key).
READ_FACTORY = "__ngRead"
# next-intl's factories whose translation function takes a message's text, not its key.
EXTRACTING_FACTORIES = frozenset({"useExtracted", "getExtracted"})
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
FORMATJS_MODULES = ("react-intl", "vue-intl", "@formatjs/*")
FORMATJS_NAMES = frozenset(
    {"defineMessages", "defineMessage", "FormattedMessage", "useIntl", "injectIntl"}
)
# `$formatMessage` is vue-intl's name, one of `formatjs extract`'s defaults (its `$t` alias is
# a translation function everywhere, and a descriptor argument names its id there too).
FORMATJS_CALLEES = ("defineMessage", "defineMessages", "formatMessage", "$formatMessage")
FORMATJS_ELEMENTS = ("FormattedMessage", "FormattedHTMLMessage")
