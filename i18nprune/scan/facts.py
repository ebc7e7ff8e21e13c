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
    hook: Expr | None = None
    """What the app's own hook that made it returned (`const t = useAppT()` with `useAppT`
    imported): when linking finds that the hook returns a translation function
    (`HOOK_NAMESPACE`, `HOOK_PREFIX`), its namespace and key prefix are this one's."""

    extracted: bool = False
    """It is next-intl's `useExtracted()`/`getExtracted()`: it is called with a message's text,
    whose key is the text's hash (`content_ids.next_intl_key`), or with `{ id, message }`."""

    scope: list[Expr] = []
    """Every namespace the translator was made for (`useTranslation(['a', 'b'])`), when it
    lists several: `namespace` is the first, the one a key is read from; a selector's path
    may name the others (`t($ => $.b.key)`, see `scan.selectors`)."""

    joined: bool = False
    """Its prefix is written before the key's text, which is then read whole, namespace and
    all (Transloco's `read`: `read: 'admin'`, then `t('title')` is `admin.title`, the scope
    `admin`'s `title`), rather than nesting the key under the namespace's path."""

    typed: bool = False
    """Its namespace is the one a type spells (`t: TFunction<'ns'>`), not a call's: trusted
    only where the source locale has that namespace (apps write i18next's default type,
    `TFunction<"translation">`, whatever their `defaultNS`)."""


HOOK = "\0hook"
HOOK_NAMESPACE = "\0ns"
HOOK_PREFIX = "\0keyPrefix"
"""The fields of the record a hook that returns a translation function exports as its return
value (`Returns(Record(…))`): `HOOK` marks it, the others are there when the translator has a
namespace or key prefix. No JavaScript property has these names."""


class SiteFact(msgspec.Struct, frozen=True, array_like=True):
    """One key site: its position (1-based) and source preview, and the static values of its
    call.

    `kind` is `key` (a call or element that names a key), `empty_call`, `commented` (a call
    inside a comment: reported, proves nothing) or `messages_import` (a member chain on an
    imported name: a key only if linking finds a messages value, `scan.messages`).
    `namespace` is an explicit `{ ns }` option or `<Trans ns>`; `default` the default text
    (`t(k, 'Default')`, `defaultValue`, FormatJS `defaultMessage`, `<Trans>` children);
    `subtree` is set when the call returns the whole object under the key (`returnObjects:
    true`, vue-i18n `tm`).
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
    answered: list[str] = []
    """The locales whose messages in the component itself hold the key (vue-i18n's local
    scope: an SFC `<i18n>` block, `useI18n({ messages })`): there it is not missing."""

    also_namespace: Expr | None = None
    """A namespace the key may be read from besides the site's own: `<Trans tOptions={{ ns
    }}>`, which react-i18next passes over and extractors write the key to."""
    generated: list[str] = []
    """The ids Lingui generates of the message (`scan.lingui.generated_id`), when it has no
    explicit id, or an Angular message's legacy ids (`scan.angular_ids.legacy_ids`): spellings
    of the key that a catalog keyed by such ids holds instead."""


class ComponentMessages(msgspec.Struct, frozen=True, array_like=True):
    """Messages a component brings itself (an SFC `<i18n>` block, `useI18n({ messages })`,
    the `i18n: { messages }` option), for one locale: every path they hold (containers and
    array items `list.0` included). `shared`: a `<i18n global>` block, merged into the
    global scope, so it answers every component's keys."""

    locale: str
    paths: list[str]
    shared: bool = False


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
    shared_messages: list[ComponentMessages] = []
    """The messages of the file's `<i18n global>` blocks, which answer every file's keys."""
    lingui: list[tuple[int, int]] | None = None
    """`None` when the file imports nothing from Lingui; else the (line, column) of each of its
    Lingui sites whose message id could not be derived (`scan.lingui`)."""
    angular: list[tuple[int, int]] | None = None
    """`None` when the file has no Angular i18n message (`i18n` attributes, `$localize`);
    else the (line, column) of each of its messages whose id could not be derived
    (`scan.angular_i18n`)."""
