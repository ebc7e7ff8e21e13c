"""What extraction learns from one file, as a pure function of its content: the cacheable unit.

Key sites keep the static values of what they were called with (the key, the translator's
prefix and namespace, the options); what those mean as locale paths depends on the project's
key syntax and on other files' exports, so it is worked out when the scan links its files.
"""

from __future__ import annotations

import msgspec

from i18nprune.scan.expressions import Expr


class Translator(msgspec.Struct, frozen=True, array_like=True):
    """What a translation function adds to the keys it is called with: a key prefix (i18next
    `keyPrefix`, a next-intl namespace path) and the i18next namespace it is bound to.

    `fixed`: it is known to be i18next's fixed `t` (`useTranslation`, `getFixedT`,
    `withTranslation`'s), whose calls' `keyPrefix` option replaces its own prefix; i18next's
    plain `t` ignores that option."""

    prefix: Expr | None = None
    namespace: Expr | None = None
    fixed: bool = False
    prefix_prop: str | None = None
    """The component prop the `keyPrefix` is (`useTranslation(ns, { keyPrefix: i18nKeyPrefix
    })` in a component given `i18nKeyPrefix`): the values the project passes to that prop
    (`FileFacts.prefix_props`) are prefixes its keys may have."""
    scope: list[Expr] = []
    """Every namespace the translator was made for (`useTranslation(['a', 'b'])`), when it
    lists several: `namespace` is the first, the one a key is read from; a selector's path
    may name the others (`t($ => $.b.key)`, see `scan.selectors`)."""


class SiteFact(msgspec.Struct, frozen=True, array_like=True):
    """One key site: its position (1-based) and source preview, and the static values of its
    call.

    `kind` is `key` (a call or element that names a key), `empty_call` or `commented` (a call
    inside a comment: reported, proves nothing). `namespace` is an explicit `{ ns }` option or
    `<Trans ns>`; `default` the default text (`t(k, 'Default')`, `defaultValue`, FormatJS
    `defaultMessage`, `<Trans>` children); `subtree` is set when the call returns the whole
    object under the key (`returnObjects: true`, vue-i18n `tm`).
    `end_line`/`end_column` are where the call ends (exclusive).
    """

    line: int
    column: int
    end_line: int
    end_column: int
    preview: str
    kind: str
    key: Expr
    translator: Translator
    namespace: Expr | None = None
    context: Expr | None = None
    default: Expr | None = None
    plural: bool = False
    subtree: bool = False
    spellings: bool = False
    """The key's alternatives are spellings of one key (a `<Trans>`'s children): any one of
    them present is enough."""
    description: str | None = None
    """What the text is for, from an `i18n:` comment on the line above (see `descriptions`)."""
    key_prefix: Expr | None = None
    """The call's own `keyPrefix` option (`t('title', { keyPrefix: 'page' })`), if any."""
    also_namespace: Expr | None = None
    """A namespace the key may be read from besides the site's own: `<Trans tOptions={{ ns
    }}>`, which react-i18next passes over and extractors write the key to."""


class FileFacts(msgspec.Struct, frozen=True, array_like=True):
    """The key sites of a file, the constants it exports, and its first syntax error, if any.

    `star_exports` lists the relative modules of `export * from '…'`; `syntax_error` is the
    (line, column) of the first place tree-sitter could not parse. `prefix_props` are the
    attributes named like a key prefix (`…Prefix`, `…prefix`) the file gives a literal text
    (`<QueryGroup i18nKeyPrefix="question" />`), as (name, text).
    """

    sites: list[SiteFact]
    exports: dict[str, Expr]
    star_exports: list[str]
    syntax_error: tuple[int, int] | None
    prefix_props: list[tuple[str, str]] = []
