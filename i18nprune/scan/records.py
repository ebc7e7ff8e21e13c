"""What a scan is asked to do and what it reports: the public records of `i18nprune.scan`."""

from __future__ import annotations

from pathlib import Path

import msgspec

from i18nprune.config.schema import ExcludeConfig
from i18nprune.envelope import Issue
from i18nprune.keys import DEFAULT_SYNTAX, KeySyntax
from i18nprune.scan.message_ids import MessageIdScope

DERIVED_ID = "derived_id"
"""The kind of a dynamic site that is a FormatJS message whose id babel-plugin-react-intl-auto
derives, with options that could not be read: its id is unknown."""
MISSING_ID = "missing_id"
"""The kind of a dynamic site that is a FormatJS message written without an id that no Babel
plugin i18nprune knows of gives one: it names no key."""


class RepositoryScope(msgspec.Struct, frozen=True, kw_only=True):
    """Where repository-wide literal evidence is read (see `scan.repository`).

    `root` is the repository's real path (the project root or an ancestor of it); `folders`
    are the folders to read, relative to it (`["."]`: all of it); `exclude` are path globs
    relative to it (`docs/**`, `**/*.snap`) that are never read; `skip` are the real paths of
    files never read besides (the project's locale files). `cache_dir` holds the per-file
    cache (`None`: no cache).
    """

    root: Path
    folders: list[str] = msgspec.field(default_factory=lambda: ["."])
    exclude: list[str] = []
    skip: frozenset[str] = frozenset()
    cache_dir: Path | None = None


class ScopeRule(msgspec.Struct, frozen=True, array_like=True):
    """The namespaces that keys naming none go to in the source files under `folder` (relative
    to the root, POSIX; `""`: every file): `default` (i18next's `defaultNS`), then
    `fallbacks` (`fallbackNS`), where a key is looked up when the ones before lack it."""

    folder: str
    default: str
    fallbacks: list[str] = []


class ScanOptions(msgspec.Struct, frozen=True, kw_only=True):
    """Inputs of one scan.

    `root` is the absolute, realpath'ed project root (nothing outside it is ever read);
    `src_dirs` are the directories to scan, inside `root`. `syntax` says how keys name locale
    paths. `literal_texts` are the texts whose quoted occurrences the result lists (the locale
    paths a caller may remove; `None`: none), keyed by their `scan.literals.text_hash`.
    `cache_dir=None` disables the incremental cache; `cache_writable=False` reads it but writes
    nothing to disk (the scan is then remembered in this process's memory only). `jobs` bounds
    the parse processes of a cold scan (`None`: one per CPU this process may use). With
    `examine_here`, the scanning thread examines files too and counts as one of the `jobs` (one
    worker process fewer; it holds the GIL while it parses, so a host whose event loop must stay
    responsive, such as `serve`, leaves it off). `overlay` maps files (relative to the root) to
    content to scan instead of what is on disk (an editor's unsaved buffer); a scan with an
    overlay neither reads nor writes the cache for those files and writes no cache at all.
    `repository` (with `literal_texts`) also reads the quoted texts of every other text file
    of the repository holding the project — the one place a scan reads outside `root`, and
    only to read.
    `message_ids` says where babel-plugin-react-intl-auto gives FormatJS messages their ids.
    """

    root: Path
    src_dirs: list[Path]
    functions: list[str]
    exclude: ExcludeConfig
    syntax: KeySyntax = DEFAULT_SYNTAX
    literal_texts: dict[int, str] | None = None
    cache_dir: Path | None = None
    cache_writable: bool = True
    jobs: int | None = None
    examine_here: bool = False
    overlay: dict[str, bytes] | None = None
    repository: RepositoryScope | None = None
    scopes: list[ScopeRule] = []
    """Default and fallback namespaces by folder (with namespaces on); the innermost applies,
    and without one `syntax.default_namespace`."""
    message_ids: list[MessageIdScope] = []


class KeyObservation(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """A literal key the code uses, with the position of the call (1-based line and column).

    `namespace` is the i18next namespace (`None`: namespaces are off, or the namespace is not
    known statically and any may hold the key). `plural` is set when the call passes a `count`
    option (i18next plural suffixes apply); `context` is the literal `context` option, or `"*"`
    when that option is not literal; `subtree` when the call returns every key under this one
    (`returnObjects: true`); `default` is the default text the code gives the key. `spelling`
    ranks the site's keys when they are spellings of one key (`<Trans>` children as several
    react-i18next versions and extractors write them; 0 first): one present is enough.
    """

    key: str
    file: str
    line: int
    column: int
    plural: bool = False
    context: str | None = None
    namespace: str | None = None
    subtree: bool = False
    default: str | None = None
    spelling: int | None = None
    end_line: int = 0
    end_column: int = 0
    """Where the call ends (exclusive; 0: not known)."""
    description: str | None = None
    """What the text is for, from an `i18n:` comment on the line above the call."""
    answered: tuple[str, ...] = ()
    """The locales whose messages in the component itself hold the key (vue-i18n's local
    scope): it is missing from none of them."""
    generated: bool = False
    """The key is the id Lingui generated of the message (`default`), a spelling that a
    catalog keyed by generated ids (JSON) holds instead of the message itself; or a legacy id
    of an Angular message, which a catalog extracted with legacy ids holds instead of its
    modern one."""


class DynamicSite(msgspec.Struct, frozen=True, gc=False):
    """A key site whose key is not statically known, or a key call found inside a comment.

    `kind` is one of `template_interpolation`, `concatenation`, `non_literal`, `empty_call`,
    `commented`, or for a FormatJS message `derived_id` / `missing_id` (see those
    constants). `prefix` is the static head the key's path starts with, character by character
    (`` `account.view_other_${x}` `` → `account.view_other_`, `` `errors.${code}` `` →
    `errors.`); `""` for the whole of `namespace`; `None` when the path has no static head, and
    always for `commented` sites, which are inactive. `suffix` is the static tail the path
    ends with when it has no head (`x + "Response"` → `Response`; `""`: none). `namespace` is
    where the key may be (`None`: any). A site whose branches reach different places
    (`` c ? `a.${x}` : `b.${y}` ``) is one record per place, at the same position.
    """

    file: str
    line: int
    column: int
    kind: str
    preview: str
    prefix: str | None
    namespace: str | None = None
    end_line: int = 0
    end_column: int = 0
    """Where the call ends (exclusive; 0: not known)."""
    suffix: str = ""
    prefix_prop: str = ""
    """The component prop the site's `keyPrefix` comes from (`i18nKeyPrefix`), when it does:
    the scan adds a site for each text the project passes to that prop (`"question"` → keys
    starting with `question.`)."""


class LiteralSite(msgspec.Struct, frozen=True, gc=False, order=True):
    """Where a quoted text that names a locale key first occurs in one file (ordered by text,
    then place)."""

    text: str
    file: str
    line: int
    column: int


class ForeignSite(msgspec.Struct, frozen=True, gc=False):
    """A translation call in a file the scanner does not parse (an Angular template, Dart,
    server code in another language) whose key is not a quoted text, so no evidence can say
    which keys it reaches. `file` is relative to the project root (`../server/i18n.go` when
    outside it)."""

    file: str
    line: int
    column: int
    preview: str


class ExcludedFolder(msgspec.Struct, frozen=True):
    """A folder under a source directory that an exclude rule kept out of the scan, with the
    number of source files inside it (`rule` says which setting matched)."""

    path: str
    rule: str
    files: int


class LinguiReading(msgspec.Struct, frozen=True):
    """How completely the project's Lingui use was read: `files` import Lingui (its macros,
    `i18n`, `useLingui`); `unread` are the places (`file:line:col`) where a message's id could
    not be derived, or a file importing Lingui that did not parse. Only with none unread are
    the project's Lingui messages all known (see `reference.unread_code_format`)."""

    files: int
    unread: list[str] = []


class AngularReading(msgspec.Struct, frozen=True):
    """How completely the project's Angular i18n was read: `files` hold Angular i18n messages
    (`i18n` attributes in templates, `$localize` in code); `unread` are the places
    (`file:line:col`) of messages whose id could not be derived, or of a code file holding
    them that did not parse. Only with none unread are the project's Angular messages all
    known (see `reference.unread_code_format`)."""

    files: int
    unread: list[str] = []


class ScanResult(msgspec.Struct, frozen=True):
    """Everything a scan found; a warm (cached) scan's result equals a cold scan's."""

    files: int
    parsed: int
    cache_hits: int
    observations: list[KeyObservation]
    dynamic: list[DynamicSite]
    issues: list[Issue]
    literals: list[LiteralSite] = []
    excluded: list[ExcludedFolder] = []
    foreign: list[ForeignSite] = []
    """Translation calls in files the scanner does not parse (read with `repository`) whose key
    is not a quoted text."""
    shared_messages: list[tuple[str, str]] = []
    """(locale, path) of the messages of vue-i18n `<i18n global>` blocks: in that locale, those
    keys are not missing."""
    lingui: LinguiReading | None = None
    """The project's Lingui use, when a scanned file imports Lingui."""
    angular: AngularReading | None = None
    """The project's Angular i18n, when a scanned file holds an Angular i18n message."""
