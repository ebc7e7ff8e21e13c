"""The configuration schema: typed Structs whose defaults are the product's defaults
(docs/config.md).

Field names are snake_case in Python and camelCase on disk (`rename="camel"`).
"""

from __future__ import annotations

from typing import Literal

import msgspec

UncertainKeyPolicy = Literal["protect", "allow", "warn_only"]


class _Section(
    msgspec.Struct, frozen=True, kw_only=True, rename="camel", forbid_unknown_fields=True
):
    pass


class NamespaceScope(_Section, frozen=True):
    src: str
    """A folder, relative to the project root: every source file under it is in the scope."""
    default_namespace: str
    """The namespace its keys that name none go to (that app's i18next `defaultNS`)."""
    fallback_namespaces: list[str] = []
    """Where i18next looks next for such a key (that app's `fallbackNS`)."""


class LocalesConfig(_Section, frozen=True):
    source: str = "en"
    directory: str = "locales"
    mode: Literal["flat_file", "locale_directory"] = "flat_file"
    structure: Literal["locale_file", "locale_per_dir", "feature_bundle"] = "locale_file"
    namespaces: Literal["off", "file"] = "off"
    """`file`: each segment is an i18next namespace named by its path below the locale."""
    default_namespace: str = "translation"
    fallback_namespaces: list[str] = []
    """Where i18next looks next for a key its default namespace lacks (`fallbackNS`): a key
    naming no namespace is used in each of them, and missing only when none has it."""
    scopes: list[NamespaceScope] = []
    """Folders whose code has another default namespace than the project's: one locale tree
    serving several apps (`[{"src": "apps/mobile", "defaultNamespace": "mobile"}]`). Discovery
    fills it (and `defaultNamespace`, `fallbackNamespaces`) from each app's own static i18next
    set-up when the config sets none; `config` shows where each came from. The innermost
    scope holding a file applies."""
    ns_separator: str | bool = ":"
    """Between namespace and key in code (`t('auth:title')`); `false`: keys have none."""
    key_separator: str | bool = "."
    """Between nested keys; any non-empty string in code (`"-"`: `t('home-title')` reads the
    nested `home` → `title`; reports still name paths with `.`); `false`: keys are flat strings
    that may contain dots."""
    context_separator: str = "_"
    """Between a key and its i18next context (`friend_male`): any non-empty string."""
    plural_separator: str = "_"
    """Between a key and its i18next plural suffix (`item_one`, `place_ordinal_few`): any
    non-empty string (i18next's `pluralSeparator`)."""
    return_objects: bool = False
    """i18next's `returnObjects` for every call (set in the app's `init`): a key naming an
    object (`t('menu')`) returns it whole, so every key below it is used. Off, only calls that
    pass `{ returnObjects: true }` (and vue-i18n's `tm`) read a subtree. Discovery reads it from
    the app's set-up."""
    format: Literal["json", "yaml", "arb", "po", "xliff"] | None = None
    """The one format whose files are locale files (`null`: every format's). Discovery reads
    it from a Lingui config's `format` (`formatter` of `@lingui/format-json` → `json`, of
    `@lingui/format-po` → `po`), so a catalog of another format left beside (an older `.po`)
    is no locale file."""
    root: str = ""
    """The key path inside every locale file where keys start (`"mappings"` for files shaped
    `{"version": 3, "mappings": {…keys}}`, dotted for a deeper object: `"data.messages"`);
    empty: the file's top level. Every command reads and writes keys only below it and leaves
    the rest of the file as it is; a file without that object holds no keys yet (a write
    creates it)."""


class ExcludeConfig(_Section, frozen=True):
    preset: Literal["production", "none"] = "production"
    dirs: list[str] = []
    files: list[str] = []
    extensions: list[str] = []
    patterns: list[str] = []
    use_default_skip: bool = True


class PreservePolicy(_Section, frozen=True):
    copy_keys: list[str] = []
    copy_prefixes: list[str] = []


class ParityPolicy(_Section, frozen=True):
    exclude_keys: list[str] = []
    exclude_prefixes: list[str] = []
    exclude_values: list[str] = []


class Policies(_Section, frozen=True):
    preserve: PreservePolicy = PreservePolicy()
    parity: ParityPolicy = ParityPolicy()


class ReferenceDefaults(_Section, frozen=True):
    uncertain_key_policy: UncertainKeyPolicy = "protect"


class CommandReference(_Section, frozen=True):
    uncertain_key_policy: UncertainKeyPolicy | None = None


class ReferenceCommands(_Section, frozen=True):
    cleanup: CommandReference = CommandReference()
    sync: CommandReference = CommandReference()
    generate: CommandReference = CommandReference()


class RepositoryEvidence(_Section, frozen=True):
    enabled: bool = True
    """Read every text file of the repository that holds the project (the nearest folder above
    it with `.git`, else the project root), in any language, for quoted strings that name a
    key (`I18nData("chat.title")`, `{{ L.T "public.subTitle" }}`): such keys are kept as data,
    never removed. Dependencies, vendored and build folders, lock files, minified bundles,
    binaries and locale files are not read. `false`: only the scanned `src` files count."""
    folders: list[str] = msgspec.field(default_factory=lambda: ["."])
    """The folders to read, relative to the repository root (`["server", "packages/app"]`);
    the default is all of it."""
    exclude: list[str] = []
    """Path globs relative to the repository root that are never read (`docs/**`,
    `**/*.snap`); `*` stays within a folder name, `**` spans folders."""


class ReferenceConfig(_Section, frozen=True):
    defaults: ReferenceDefaults = ReferenceDefaults()
    commands: ReferenceCommands = ReferenceCommands()
    repository: RepositoryEvidence = RepositoryEvidence()
    """Repository-wide literal evidence (keys named in files the scanner does not parse)."""
    max_unused_share: float = 0.5
    """`cleanup` and `sync`'s pruning refuse (`i18nprune.reference.thin_evidence`, `--force`
    overrides) when more than this share of the keys look unused while key sites could reach
    keys without naming them (dynamic with no static part, or in files the scanner does not
    parse) or the configuration is a guess (no config file, or values found by discovery).
    `1` turns the check off."""

    def policy_for(self, command: Literal["cleanup", "sync", "generate"]) -> UncertainKeyPolicy:
        """The uncertain-key policy in force for `command` (its own setting, else the default)."""
        own: CommandReference = getattr(self.commands, command)
        return own.uncertain_key_policy or self.defaults.uncertain_key_policy


class LocaleLeavesConfig(_Section, frozen=True):
    mode: Literal["legacy_string", "structured"] = "legacy_string"


class MissingConfig(_Section, frozen=True):
    placeholder: str = "__I18NPRUNE_MISSING__"


class CacheConfig(_Section, frozen=True):
    enabled: bool = True
    dir: str | None = None
    url: str | None = None
    """A translation memory shared by a fleet of runs: `redis://HOST:PORT/DB`, `rediss://`
    (TLS) or `unix:///PATH/TO/SOCKET` (`generate --cache-url` for one run).
    Unset: the embedded SQLite cache only. See docs/fleet.md."""
    claim_seconds: float = 30.0
    """With `url`: how long a fleet member's claim on a text it is sending, and its slot of the
    fleet's rate limit, last unless renewed (members renew theirs every third of it while the
    request is out). A member that dies holds its texts and slots from the others this long at
    most."""


class RateLimit(_Section, frozen=True):
    max_concurrency: int | None = None
    rps: float | None = None
    rpm: float | None = None
    chars_per_minute: int | None = None


FORMALITY_VALUES = ("default", "more", "less", "prefer_more", "prefer_less")
"""DeepL's formality settings (`prefer_*`: where the target language has formality, else its
default)."""


class ProviderRow(_Section, frozen=True):
    id: str
    enabled: bool = True
    api_key: str | None = None
    base_url: str | None = None
    model: str | None = None
    region: str | None = None
    batch_size: int | None = None
    timeout_seconds: float | None = None
    rate_limit: RateLimit | None = None
    formality: str | dict[str, str] | None = None
    """DeepL: `default`, `more`, `less`, `prefer_more` or `prefer_less`, for every target, or an
    object by target (`{"de": "less", "*": "prefer_more"}`: the target's code, else its
    language, else `*`). `more`/`less` reach targets without formality (`en`, `zh`, …) as
    `prefer_*`, so they never fail there. Changing it translates again (cached apart)."""
    context: str | None = None
    """DeepL: a few sentences about the app, sent with every request to guide the translation
    (not translated itself). Changing it translates again (cached apart)."""
    instructions: str | dict[str, str] | None = None
    """LLM: added to the system prompt (tone, formality, terminology), for every target or an
    object by target as for `formality`. Changing it translates again (cached apart)."""


class TranslatePolicy(_Section, frozen=True):
    routing: Literal["single", "auto"] = "single"
    on_rate_limit: Literal["backoff", "fallback", "abort"] = "backoff"
    on_transient_failure: Literal["retry", "fallback", "abort"] = "retry"
    on_quota_exceeded: Literal["fallback", "abort"] = "fallback"
    on_auth_failure: Literal["abort", "fallback"] = "abort"
    max_attempts: int = 3
    give_up_after_seconds: float = 120.0
    """A provider whose every request has failed for this long (none succeeded) is given up:
    its pending texts fail, or move on along the chain. Also how long a batch waits out rate
    limits (`onRateLimit: backoff`), from its first 429, before it moves on."""


def _default_providers() -> list[ProviderRow]:
    return [ProviderRow(id="google", rate_limit=RateLimit(max_concurrency=8, rps=20))]


class GlossaryEntry(_Section, frozen=True):
    """A term that providers never see: kept verbatim, or replaced by its translation."""

    term: str
    """The term as the source text spells it; matched as a whole word in message text, never
    inside placeholders, tags or ICU syntax; the longest term wins where terms overlap."""
    translations: dict[str, str] = {}
    """Locale code → the term in that language (a region falls back to its language); a
    target without one keeps the term as the source text spells it."""
    case_sensitive: bool = True
    """`false`: match in any case (kept in the source's spelling when not translated)."""


class TranslateConfig(_Section, frozen=True):
    primary: str = "google"
    workers: int = 4
    providers: list[ProviderRow] = msgspec.field(default_factory=_default_providers)
    policy: TranslatePolicy = TranslatePolicy()
    glossary: list[GlossaryEntry] = []
    """Terms no provider may change (brand and product names): masked before translation,
    then written as their translation for the target, else verbatim."""
    glossary_file: str | None = None
    """More terms: a `.csv` (`term,caseSensitive,<locale>,…`) or `.json` (a list shaped like
    `glossary`) file, relative to the project root; `glossary` wins for the same term."""


class Config(_Section, frozen=True):
    """The whole resolved configuration of a project."""

    locales: LocalesConfig = LocalesConfig()
    src: str | list[str] = "src"
    """The source directory, or several (a monorepo's packages)."""
    functions: list[str] = msgspec.field(default_factory=lambda: ["t"])
    hooks: list[str] = []
    """Functions that return a translation function, or an object holding `t`, as
    `useTranslation` does (i18next-cli's `useTranslationNames`): `const { t } =
    useAppTranslation('ns', { keyPrefix })` and `const t = useAppTranslation()` bind `t`. The
    first argument names the namespace when it is given; without one the keys count in every
    namespace (the hook may fix its own)."""
    trans_components: list[str] = []
    """Components read as react-i18next's `<Trans>` besides `Trans` (i18next-cli's
    `transComponents`, i18next-parser's `componentFunctions`): their `i18nKey` or children are
    a key."""
    ignore_functions: list[str] = []
    """Calls that are never key sites though their name matches `functions` (matched as
    `functions` are: `moment.t`, `schema.t`); their quoted strings still keep keys as data."""
    exclude: ExcludeConfig = ExcludeConfig()
    policies: Policies = Policies()
    reference: ReferenceConfig = ReferenceConfig()
    locale_leaves: LocaleLeavesConfig = LocaleLeavesConfig()
    missing: MissingConfig = MissingConfig()
    cache: CacheConfig = CacheConfig()
    translate: TranslateConfig = TranslateConfig()

    def src_dirs(self) -> list[str]:
        """The source directories, in the order given (one when `src` is a string)."""
        return [self.src] if isinstance(self.src, str) else list(self.src)
