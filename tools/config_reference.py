"""The configuration reference (`docs/config.md`), generated from the schema so it cannot drift.

    python tools/config_reference.py            # print it
    python tools/config_reference.py --write    # (re)write docs/config.md
    python tools/config_reference.py --check    # exit 1 when docs/config.md differs

(from the repository root; another path may follow `--write` or `--check`).

Each key's path, type and default come from `msgspec.inspect` on `Config`; its description from
the attribute docstring under the field in `schema.py` (read with `ast`), else from
`DESCRIPTIONS` below. A field with neither is an error, so a new key cannot land undocumented.
The environment variables come from `environment.py` (which field each one sets is found by
asking `environment_layer` itself), the provider table from the provider registry.
`tests/config/test_config_reference.py` fails when `docs/config.md` is not this module's output.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import json
import sys
import typing
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import msgspec
import msgspec.inspect as schema_info

from i18nprune.config import schema
from i18nprune.config.environment import (
    _STRING_FIELDS,
    FUNCTIONS_VARIABLE,
    NO_DISCOVERY_VARIABLE,
    WORKERS_VARIABLE,
    environment_layer,
    provider_variable_prefix,
)
from i18nprune.config.layers import leaf_paths
from i18nprune.config.lookup import CONFIG_FILE_NAMES
from i18nprune.scan.discovery import DEFAULT_SKIP_DIRS, PRODUCTION_SKIP_DIRS, PRODUCTION_SKIP_FILES
from i18nprune.translate.providers import PROVIDERS

DEFAULT_PATH = Path("docs/config.md")
HOME_VARIABLE = "I18NPRUNE_HOME"
"""Read by `i18nprune.project.user_home` (it has no constant of its own)."""
CI_VARIABLE = "CI"
"""Read by the CLI: `1` or `true` means nobody can answer a prompt."""


def _names(names: Sequence[str]) -> str:
    return ", ".join(f"`{name}`" for name in names)


# (class name, Python field name) → description, for fields without a docstring in schema.py.
# Describe what the key does for the user; the type and default are shown beside it.
DESCRIPTIONS: dict[tuple[str, str], str] = {
    ("Config", "locales"): "Where the locale files are and how they are laid out.",
    ("LocalesConfig", "source"): (
        "Code of the source locale: the one the code's keys are checked against and the "
        "language `generate` translates from. Flag `--source`."
    ),
    ("LocalesConfig", "directory"): (
        "Folder of the locale files, relative to the project root. Flag `--locales-dir`."
    ),
    ("LocalesConfig", "mode"): (
        "`flat_file`: one file per locale directly in the folder (`locales/en.json`); "
        "`locale_directory`: files in subfolders, as `structure` says."
    ),
    ("LocalesConfig", "structure"): (
        "`locale_file` goes with `flat_file`; with `locale_directory`, `locale_per_dir` is a "
        "folder per locale (`messages/en/common.json`) and `feature_bundle` a folder per "
        "feature holding one file per locale (`messages/auth/en.json`). Other pairs are an error."
    ),
    ("LocalesConfig", "default_namespace"): (
        "With `namespaces: file`, the namespace of keys that name none (i18next's `defaultNS`)."
    ),
    ("Config", "functions"): (
        "Names of the translation functions whose first argument is a key (`t`, `i18n.t`, `$t`) "
        "or a FormatJS message descriptor; a dotted name also matches as a suffix (`i18n.t` "
        "matches `app.i18n.t`); a name written `<Name>` is a FormatJS message component "
        "(`<F id='…' />`, as `formatjs extract --additional-component-names F` reads it). When "
        "no layer sets it, the i18n libraries in `package.json` add theirs (vue-i18n: `$t $tc "
        "$te $tm tm this.$t global.t global.tc global.te global.tm`, svelte-i18n: `$_ $t "
        "$format $json`, vue-intl: `$formatMessage`, i18next, react-i18next and next-i18next: "
        "`i18n.t i18next.t i18n.exists i18next.exists`; with `@angular/core`, ngx-translate: "
        "`|translate [translate] [ngx-translate] service:TranslateService.instant "
        "service:TranslateService.get service:TranslateService.stream`, Transloco: `|transloco "
        "[transloco] service:TranslocoService.translate service:TranslocoService.selectTranslate`"
        "), and a script's `formatjs extract` its `--additional-function-names` and "
        "`--additional-component-names`. Angular's names: `|name` is a template pipe whose input "
        "is a key, `[name]` a directive whose value (or, with none, the element's text) is a key "
        "and which, written `*name=\"let t; read: 'p'\"`, makes `t` read `p.` + its key; "
        "`service:Type.method` a method of an injected service (`this.translate.instant('k')`). "
        "With a pipe or directive named, the `.html` templates under `src` are scanned. "
        "Flag `--functions a,b`."
    ),
    ("Config", "exclude"): (
        "Source files the scan leaves out. Flag `--exclude a,b` appends to `dirs` and `files`."
    ),
    ("ExcludeConfig", "dirs"): (
        "Folder base names (exact, or glob such as `__mocks__*`) not scanned, at any depth."
    ),
    (
        "ExcludeConfig",
        "files",
    ): "File base names (exact, or glob such as `*.stories.tsx`) not scanned.",
    ("ExcludeConfig", "extensions"): (
        "File endings not scanned (`d.ts` or `.d.ts`; the leading dot is optional)."
    ),
    ("ExcludeConfig", "patterns"): (
        "Regular expressions (Python syntax) searched in each file's path relative to its `src` "
        "folder; a match leaves the file out."
    ),
    ("Config", "policies"): "Keys that commands treat specially.",
    ("Policies", "preserve"): (
        "Keys every command keeps: `cleanup` never removes them, `sync` never prunes them, and "
        "`sync`/`generate` copy them into targets as the source text, untranslated."
    ),
    ("PreservePolicy", "copy_keys"): "Exact key paths to preserve (`app.name`).",
    ("PreservePolicy", "copy_prefixes"): "Preserve every key under these prefixes (`brand`).",
    ("Policies", "parity"): (
        "Source keys that targets need not mirror: `sync` neither adds nor removes them in "
        "targets, and `generate` leaves targets' values of them as they are."
    ),
    ("ParityPolicy", "exclude_keys"): "Exact key paths exempt from parity.",
    ("ParityPolicy", "exclude_prefixes"): "Every key under these prefixes is exempt from parity.",
    ("ParityPolicy", "exclude_values"): (
        "Source leaves whose text is one of these strings are exempt from parity."
    ),
    ("Config", "reference"): (
        "How commands treat locale keys under the static prefix of a dynamic key site "
        "(`` t(`errors.${code}`) `` makes every `errors.*` key uncertain)."
    ),
    ("ReferenceConfig", "defaults"): "The policy for every command that sets none of its own.",
    ("ReferenceDefaults", "uncertain_key_policy"): (
        "`protect`: uncertain keys are kept (an info issue says so); `warn_only`: kept, with a "
        "warning; `allow`: treated like any other unused key (`cleanup` removes them, `sync` "
        "prunes them from targets)."
    ),
    ("ReferenceConfig", "commands"): "Per-command overrides of `reference.defaults`.",
    ("ReferenceCommands", "cleanup"): "The policy of `cleanup`.",
    ("ReferenceCommands", "sync"): "The policy of `sync`.",
    ("ReferenceCommands", "generate"): "The policy of `generate` (which template keys it fills).",
    ("CommandReference", "uncertain_key_policy"): (
        "This command's policy; `null`: `reference.defaults.uncertainKeyPolicy`."
    ),
    ("Config", "locale_leaves"): "The shape of the leaves commands write.",
    ("LocaleLeavesConfig", "mode"): (
        '`legacy_string`: plain strings; `structured`: objects such as `{"value": "…"}` — '
        '`generate` then writes `{"value", "status": "machine", "needsReview": true}` (as '
        "`generate --metadata` always does) and `missing` writes default texts as "
        '`{"value": …}`.'
    ),
    ("Config", "missing"): "What `missing` writes for keys a locale lacks.",
    ("MissingConfig", "placeholder"): (
        "The text of a placeholder leaf: `missing` writes it as the value of each key it adds "
        "(except source keys whose default text the code gives), and `generate` translates "
        "such leaves."
    ),
    ("Config", "cache"): (
        "The per-project scan cache (with the counts `validate` derives from target locale "
        "files) and the translation cache (`$I18NPRUNE_HOME`). Flag `--no-cache` turns both off "
        "for one run."
    ),
    ("CacheConfig", "enabled"): "`false`: no cache is read or written, like `--no-cache`.",
    ("CacheConfig", "dir"): (
        "Folder that replaces `$I18NPRUNE_HOME/cache` for the scan cache and the derived "
        "counts (one subfolder per project). The translation cache stays at "
        "`$I18NPRUNE_HOME/translations.sqlite3`."
    ),
    ("Config", "translate"): "Machine translation (`generate`).",
    ("TranslateConfig", "primary"): (
        "The provider `generate` uses when neither `--provider` nor "
        "`I18NPRUNE_TRANSLATE_PROVIDER` names one (`i18nprune providers` lists them)."
    ),
    ("TranslateConfig", "workers"): (
        "Worker processes that send requests: at most one per CPU the front leaves free "
        "(at least one), fewer when fewer batches are needed. Flag `--workers` (kept as given, "
        "up to the batches)."
    ),
    ("TranslateConfig", "providers"): (
        "One row per provider: its settings and, with `policy.routing: auto`, the fallback "
        "order. A list in the file replaces the default one. A provider chosen without a row "
        "takes its settings from the environment and its defaults."
    ),
    ("ProviderRow", "id"): "The provider (`pseudo`, `google`, `deepl`, …); required in a row.",
    ("ProviderRow", "enabled"): (
        "`false`: never used as a fallback (a provider named by `primary`, `--provider` or "
        "`I18NPRUNE_TRANSLATE_PROVIDER` is still used)."
    ),
    ("ProviderRow", "api_key"): (
        "The provider's key; wins over `I18NPRUNE_TRANSLATE_<ID>_API_KEY`. Prefer the variable: "
        "it keeps the secret out of the file. Never printed (`config` shows `***`)."
    ),
    ("ProviderRow", "base_url"): (
        "Endpoint override (self-hosted servers, gateways, test fakes); wins over "
        "`I18NPRUNE_TRANSLATE_<ID>_URL`. `null`: the provider's default."
    ),
    ("ProviderRow", "model"): (
        "`llm` only: the chat model; wins over `I18NPRUNE_TRANSLATE_LLM_MODEL`. `null`: "
        "`gpt-4o-mini`."
    ),
    ("ProviderRow", "region"): "`azure` only: the resource's region.",
    ("ProviderRow", "batch_size"): (
        "Texts per request, capped at the provider's limit. `null`: the provider's default."
    ),
    ("ProviderRow", "timeout_seconds"): "Timeout of one request. `null`: the provider's default.",
    ("ProviderRow", "rate_limit"): (
        "Limits shared by every worker and every target of a run. `null`: the provider's defaults."
    ),
    ("RateLimit", "max_concurrency"): (
        "Requests in flight at once. `null`: the provider's default."
    ),
    ("RateLimit", "rps"): "Request starts per second. `null`: the provider's default.",
    ("RateLimit", "rpm"): "Request starts per minute. `null`: no limit per minute.",
    ("RateLimit", "chars_per_minute"): (
        "Characters of text sent per minute (each batch's texts as sent), paced evenly: a "
        "request starts once the characters of the one before it are paid for at this rate, "
        "so a batch larger than a minute's worth still goes, alone. `null`: no limit."
    ),
    ("TranslateConfig", "policy"): (
        "What happens when a request fails. Retries back off with jitter; a 429's "
        "`Retry-After` pauses the provider for every worker."
    ),
    ("TranslatePolicy", "routing"): (
        "`single`: only the chosen provider; `auto`: a batch it cannot translate moves on to "
        "the other enabled rows of `providers`, in order (rows lacking credentials are skipped)."
    ),
    ("TranslatePolicy", "on_rate_limit"): (
        "On 429: `backoff` waits (its `Retry-After`, else a backoff) and retries for up to "
        "`giveUpAfterSeconds` from the batch's first 429, however many 429s that takes, then "
        "falls back; "
        "`fallback` moves on at once; `abort` stops the job."
    ),
    ("TranslatePolicy", "on_transient_failure"): (
        "On a timeout, connection error or 5xx: `retry` (up to `maxAttempts`, then fall back), "
        "`fallback` or `abort`."
    ),
    ("TranslatePolicy", "on_quota_exceeded"): (
        "On an exhausted quota: `fallback` skips the provider for the rest of the job; `abort` "
        "stops it."
    ),
    ("TranslatePolicy", "on_auth_failure"): (
        "On a rejected key: `abort` stops the job; `fallback` skips the provider."
    ),
    ("TranslatePolicy", "max_attempts"): (
        "Attempts per batch on one provider after a timeout, connection error, 5xx or bad "
        "answer before it falls back (or its texts fail). Rate limits are not counted: "
        "`giveUpAfterSeconds` bounds them."
    ),
}

# Descriptions built from the constants they name, so they follow the code.
DESCRIPTIONS[("ExcludeConfig", "preset")] = (
    "`production` also leaves out the folders "
    + _names(sorted(PRODUCTION_SKIP_DIRS))
    + " and the files "
    + _names(PRODUCTION_SKIP_FILES)
    + "; `none` adds nothing."
)
DESCRIPTIONS[("ExcludeConfig", "use_default_skip")] = (
    "Leave out the folders " + _names(sorted(DEFAULT_SKIP_DIRS)) + " wherever they are."
)

_VARIABLE_NOTES = {
    "I18NPRUNE_SRC": "; several as a comma list",
    FUNCTIONS_VARIABLE: " (a comma list)",
    WORKERS_VARIABLE: " (a positive integer)",
}


class Entry(NamedTuple):
    """One row of the reference: a key, what it accepts, its default and what it does."""

    path: str
    type: str
    default: str
    description: str


def field_docstrings() -> dict[tuple[str, str], str]:
    """(class name, field name) → the string literal right below that field in `schema.py`."""
    tree = ast.parse(inspect.getsource(schema))
    found: dict[tuple[str, str], str] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        for statement, following in zip(node.body, node.body[1:], strict=False):
            if (
                isinstance(statement, ast.AnnAssign)
                and isinstance(statement.target, ast.Name)
                and isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)
            ):
                found[(node.name, statement.target.id)] = " ".join(following.value.value.split())
    return found


def entries() -> list[Entry]:
    """Every key of the schema, depth first in schema order; raises ValueError naming the
    fields that have no description."""
    docstrings = field_docstrings()
    rows: list[Entry] = []
    undocumented: list[str] = []
    for path, owner, field in _walk(_root(), ""):
        key = (owner.__name__, field.name)
        description = docstrings.get(key) or DESCRIPTIONS.get(key)
        if description is None:
            undocumented.append(f"{path} ({owner.__name__}.{field.name})")
            continue
        variables = [name for name, paths in _variable_fields().items() if path in paths]
        if variables:
            description += " Also set by " + _names(variables) + "."
        rows.append(
            Entry(path, _type_text(field.type, owner, field.name), _default(field), description)
        )
    if undocumented:
        raise ValueError(
            "schema fields without a description (add a docstring under the field in "
            "i18nprune/config/schema.py, or an entry in config_reference.DESCRIPTIONS): "
            + ", ".join(undocumented)
        )
    return rows


def _root() -> schema_info.StructType:
    root = schema_info.type_info(schema.Config)
    assert isinstance(root, schema_info.StructType)
    return root


def _walk(
    struct: schema_info.StructType, prefix: str
) -> Iterator[tuple[str, type, schema_info.Field]]:
    for field in struct.fields:
        path = f"{prefix}.{field.encode_name}" if prefix else field.encode_name
        yield path, struct.cls, field
        nested, suffix = _nested_struct(field.type)
        if nested is not None:
            yield from _walk(nested, path + suffix)


def _nested_struct(kind: schema_info.Type) -> tuple[schema_info.StructType | None, str]:
    """The object type whose keys sit below a field (`[]` when they belong to list items)."""
    if isinstance(kind, schema_info.StructType):
        return kind, ""
    if isinstance(kind, schema_info.ListType):
        inner, _ = _nested_struct(kind.item_type)
        return inner, "[]"
    if isinstance(kind, schema_info.UnionType):
        for member in kind.types:
            inner, suffix = _nested_struct(member)
            if inner is not None:
                return inner, suffix
    return None, ""


_SIMPLE_TYPES: dict[type, str] = {
    schema_info.StrType: "string",
    schema_info.BoolType: "boolean",
    schema_info.IntType: "integer",
    schema_info.FloatType: "number",
    schema_info.NoneType: "`null`",
    schema_info.StructType: "object",
    schema_info.DictType: "object",
}


def _type_text(kind: schema_info.Type, owner: type, field_name: str) -> str:
    if isinstance(kind, schema_info.UnionType):
        return " or ".join(_type_text(member, owner, field_name) for member in kind.types)
    if isinstance(kind, schema_info.LiteralType):
        values = _declared_literals(owner, field_name) or list(kind.values)
        return "one of " + ", ".join(f"`{json.dumps(value)}`" for value in values)
    if isinstance(kind, schema_info.ListType):
        item = _type_text(kind.item_type, owner, field_name)
        return "list of " + ("objects" if item == "object" else item + "s")
    return _SIMPLE_TYPES.get(type(kind), "value")


def _declared_literals(owner: type, field_name: str) -> list[object]:
    """A field's Literal values in the order the schema declares them (msgspec sorts them)."""
    hints = typing.get_type_hints(owner)
    values: list[object] = []

    def collect(hint: Any) -> None:
        if typing.get_origin(hint) is typing.Literal:
            values.extend(typing.get_args(hint))
        else:
            for argument in typing.get_args(hint):
                collect(argument)

    collect(hints.get(field_name))
    return values


def _default(field: schema_info.Field) -> str:
    if field.required:
        return "required"
    value = field.default_factory() if field.default is msgspec.NODEFAULT else field.default
    if isinstance(value, msgspec.Struct):
        return ""  # an object: its keys' defaults are on their own rows
    return f"`{json.dumps(_without_defaults(value), ensure_ascii=False, separators=(', ', ': '))}`"


def _without_defaults(value: Any) -> Any:
    """`value` as JSON builtins, leaving out the fields of objects that equal their defaults."""
    if isinstance(value, msgspec.Struct):
        info = schema_info.type_info(type(value))
        assert isinstance(info, schema_info.StructType)
        shown: dict[str, Any] = {}
        for field in info.fields:
            own = getattr(value, field.name)
            if field.required or own != _plain_default(field):
                shown[field.encode_name] = _without_defaults(own)
        return shown
    if isinstance(value, list):
        return [_without_defaults(item) for item in value]
    return value


def _plain_default(field: schema_info.Field) -> Any:
    return field.default_factory() if field.default is msgspec.NODEFAULT else field.default


def _variable_fields() -> dict[str, list[str]]:
    """Environment variable → the config fields it sets, as `environment_layer` applies it."""
    return {
        name: list(leaf_paths(environment_layer({name: "1"})))
        for name in [*_STRING_FIELDS, FUNCTIONS_VARIABLE, WORKERS_VARIABLE]
    }


def _variables() -> list[tuple[str, str]]:
    rows = [
        (name, "Sets " + _names(paths) + _VARIABLE_NOTES.get(name, "") + ".")
        for name, paths in _variable_fields().items()
    ]
    rows += [
        (
            NO_DISCOVERY_VARIABLE,
            "`1`, `true` or `yes`: no discovery (nothing is guessed from the project's folders "
            "for keys that no layer set).",
        ),
        (
            HOME_VARIABLE,
            "The data home: the translation cache `translations.sqlite3` and the scan caches "
            "(`cache/`). Default `~/.i18nprune`; `/cache` in the Docker image. Share it "
            "between CI jobs to reuse translations.",
        ),
    ]
    prefix = provider_variable_prefix("<id>")
    rows += [
        (
            prefix + "API_KEY",
            "A provider's API key (`<ID>`: its id upper-cased, `-` as `_`: "
            "`I18NPRUNE_TRANSLATE_GOOGLE_CLOUD_API_KEY`). A config row's `apiKey` wins.",
        ),
        (
            prefix + "URL",
            f"A provider's endpoint (also read as `{prefix}BASE_URL`). A config row's "
            "`baseUrl` wins.",
        ),
        (prefix + "MODEL", "The `llm` provider's model. A config row's `model` wins."),
        (
            CI_VARIABLE,
            "`1` or `true`: nothing prompts (as under `--json` or without a terminal); "
            "`cleanup`, `missing` and `locales delete` then need `--yes` to write.",
        ),
    ]
    return rows


def _provider_rows() -> list[str]:
    lines = [
        "| Provider | Config keys of its row | Environment variables | Batch (limit) "
        "| Concurrency | Requests/s | Timeout |",
        "|---|---|---|---|---|---|---|",
    ]
    for info in PROVIDERS.values():
        rps = "—" if info.default_rps is None else f"{info.default_rps:g}"
        lines.append(
            f"| `{info.id}` — {info.label} | {_names(info.config_keys)} "
            f"| {_names(info.env_vars) or '—'} | {info.default_batch_size} ({info.batch_limit}) "
            f"| {info.default_max_concurrency} | {rps} | {info.default_timeout_seconds:g} s |"
        )
    return lines


def render() -> str:
    """The whole of `docs/config.md`."""
    rows = entries()
    lines = [
        "# Configuration reference",
        "",
        "<!-- Generated from i18nprune/config/schema.py by "
        "`python tools/config_reference.py --write`; do not edit by hand. "
        "tests/config/test_config_reference.py fails when this file is not current. -->",
        "",
        "i18nprune reads the first of "
        + _names(CONFIG_FILE_NAMES)
        + " in the project root (`-c/--config FILE` names another; TS/JS files are read "
        "statically, never executed). Every key is optional (a provider row needs its `id`). "
        "The file is merged deeply over the defaults below: objects key by key, while lists "
        "and other values replace the default. An unknown key is an error that suggests the "
        "key you probably meant.",
        "",
        "Layers, lowest first: the defaults, the file, the "
        "[environment variables](#environment-variables), [discovery](#discovery) (it only "
        "fills keys no layer set, reading the app's own i18n set-up and files), then "
        "command-line flags. "
        "`i18nprune config` prints the result and where each value came from, secrets "
        "redacted.",
        "",
        "`i18nprune init` writes the file for a project that has none: every value that "
        "decides what the project means (`locales.source`, `directory`, `mode`, `structure`, "
        "`namespaces`, `defaultNamespace`, `fallbackNamespaces` and `scopes` when set, "
        "`nsSeparator`, `keySeparator`, `contextSeparator`, `pluralSeparator` when not `_`, "
        "`returnObjects` and `root` when set, "
        "`src`, "
        "`functions`) as discovery and the defaults resolve it, in this reference's order, "
        "so that a later release's "
        "discovery cannot change it; it shows where each value came from and marks guesses. "
        "At a monorepo root it writes `i18nprune.workspace.json` and one file per project. It "
        "never replaces an existing file. No `$schema` is written: the package ships no JSON "
        "schema for the file.",
        "",
        "Keys are dotted paths of the camelCase names in the file; `[]` stands for any item "
        "of a list.",
        "",
        "## Keys",
    ]
    for section, group in _sections(rows):
        lines += ["", f"### `{section}`", "", "| Key | Type | Default | Description |"]
        lines.append("|---|---|---|---|")
        lines += [
            f"| `{row.path}` | {row.type} | {row.default} | {_cell(row.description)} |"
            for row in group
        ]
    lines += ["", "## Environment variables", "", "| Variable | Effect |", "|---|---|"]
    lines += [f"| `{name}` | {_cell(text)} |" for name, text in _variables()]
    lines += [
        "",
        "## Translation providers",
        "",
        "What `i18nprune providers` shows: the keys each provider reads from its row of "
        "`translate.providers`, the variables it reads, and the defaults that apply when "
        "neither sets a value. Rate limits are per provider and base URL, shared by all "
        "workers.",
        "",
        *_provider_rows(),
        "",
        *_DISCOVERY,
        "",
        *_DISCOVERY_READS,
    ]
    return "\n".join(lines) + "\n"


_DISCOVERY = (
    "## Discovery",
    "",
    "Without a config file, the detector (`i18nprune/config/detect/`) reads the project as "
    "its own i18n set-up does and fills every key no layer set:",
    "",
    "| Key | How it is found |",
    "|---|---|",
    "| `locales.directory` | where the app's set-up loads locale files from (`loadPath`, "
    "`localePath`, `langDir`, JSON imports: [below](#what-discovery-reads)); else feature "
    "bundles in a usual place (`messages/<feature>/en.json`); else the folder with the most "
    "locales under the root, 6 levels deep: `<code>.json` files or one folder per locale, "
    "codes that name a CLDR language, not in dependencies, build output, hidden or test "
    "folders, with documentation, examples and generated or compiled output ranked last |",
    "| `locales.mode`, `locales.structure` | the files in that folder |",
    "| `locales.source` | the set-up's (`fallbackLng`, `defaultLocale`, …) when a locale of "
    "the folder has that code and at least half the messages of the fullest (a set-up may "
    "name a stub); else `en` when there is one; else the only English locale (`en-US`, "
    "`en_GB`); else the locale with the most messages. Never a pseudo-locale (`en-XA`, "
    "`qps-ploc`) |",
    "| `locales.namespaces` | `file` for a folder per locale in an app that uses an "
    "i18next-family library (`package.json` or the set-up), unless its set-up turns "
    "`nsSeparator` off |",
    "| `locales.defaultNamespace`, `locales.fallbackNamespaces`, `locales.scopes` | each "
    "app's `defaultNS`/`fallbackNS` (next-i18next's own default is `common`); else the only "
    "namespace, else `common` when there is no `translation` (a guess) |",
    "| `locales.keySeparator`, `locales.nsSeparator`, `locales.contextSeparator`, "
    "`locales.pluralSeparator`, `locales.returnObjects` | the set-up's; else the library's "
    "rules (FormatJS and Lingui ids are flat strings: no key "
    "separator; vue-i18n, svelte-i18n, next-intl and FormatJS have no namespaces: no "
    "namespace separator); else the source locale's keys: flat files whose keys contain `.` "
    "→ `keySeparator: false`, keys containing `:` with namespaces off → `nsSeparator: false` "
    "(guesses) |",
    "| `locales.root` | the object of the locale files the set-up of the scanned code's app "
    "gives i18next: `resources: { en_US: { translation: en_US.ui } }` with `import en_US from "
    "'@i18n/en_US.yaml'` (apache/answer, whose files hold the Go server's `backend:` texts "
    "beside the UI's `ui:`) is `ui`. Only when every resource of such a set-up that reads a "
    "file of the locale folder names the same object and each of those files holds one there; "
    "else (a resource built at run time, resources that disagree) none: the file's top level |",
    "| `locales.format` | the set-up's catalog format (a Lingui config's `format`, "
    "[below](#what-discovery-reads)); else none: every format's files are locale files |",
    "| `src` | every top-level folder whose code imports an i18n library, calls one of its "
    "hooks (`useTranslation(`, `<Trans`, `<FormattedMessage`), calls a translation function "
    "with a literal key, or reads locale files (a quoted `en.json`, an import through the "
    "locale folder's name); tests, `public`, `static`, `assets`, `scripts`, `docs` and build "
    "output are not searched. None: the whole project (a guess) |",
    "| `functions` | the call shapes of the libraries in `package.json`, and the names an "
    "i18next-cli or i18next-parser config adds |",
    "| `hooks`, `transComponents` | an i18next-cli config's `useTranslationNames` and "
    "`transComponents`, an i18next-parser config's `componentFunctions` |",
    "",
    "A run without a config file says so in one line that lists what was discovered; "
    "`i18nprune config` shows each discovered value with its origin (`file:line: option`, "
    "the code that shows it, or what it was inferred from) and marks guesses, and "
    "`i18nprune init` writes every value to `i18nprune.config.json`. Removals treat a run "
    "without a config file as a guess: `cleanup` and `sync`'s pruning refuse "
    "(`i18nprune.reference.thin_evidence`) past `reference.maxUnusedShare`, and also when the "
    "code uses more than 20 keys the source lacks and more than a tenth of the keys it proves "
    "used — what a misread namespace or separator looks like (`validate` then gives no "
    "missing-key tip).",
    "",
    "With a config file, discovery fills only what the file's defaults would leave pointing "
    "at nothing — the locale folder and `src` when the default folders do not exist, the "
    "layout, each app's i18next namespaces — each reported as a warning that names the file. "
    "The source locale, namespaces, separators and the full `src` list are not discovered "
    "then, so a config file means the same in every release.",
)


_DISCOVERY_READS = (
    "## What discovery reads",
    "",
    "For keys no layer set, discovery reads each app's own i18n set-up (`config.detect.setup`): "
    "parsed with tree-sitter, never run, and only literal values count (`defaultNS: 'app'` is "
    "read, `defaultNS: name` gives nothing; a spread of an imported object is skipped, one of a "
    "local `const` object is read). An app folder is the root, each `src` folder and the "
    "nearest folder above it with a `package.json`, and every folder with a `package.json` one "
    "to three levels down (`apps/web`, `packages/ui`, `shared-module/packages/common`), outside "
    "`node_modules`, `bower_components`, `vendor`, `dist`, `build`, `out`, `coverage` and hidden "
    "folders. "
    "For each it reads:",
    "",
    "- **`package.json`**: the nearest at or above the folder (inside the root) that names one "
    "gives the library (`next-i18next`, `@nuxtjs/i18n`, `next-intl`, `svelte-i18n`, "
    "`vue-i18n`, `react-intl`, `react-i18next`, `i18next`: the first listed wins) and the "
    "framework (`nuxt`, `next`, `sveltekit`, `expo`, `react-native`, `angular`, `vue`, "
    "`svelte`, `react`). With none, the library the set-up file imports.",
    "- **Config files at the folder's root**, in this order: `next-i18next.config.*`, "
    "`i18next.config.*`, `i18next-parser.config.*`, `i18n.config.*`, `nuxt.config.*`, "
    "`lingui.config.*`, `next.config.*`.",
    "- **Files named for i18n** (`.ts .tsx .js .jsx .mjs .cjs .mts .cts`, up to 256 KiB, up "
    "to 5 folders below): a name holding `i18n`, `intl`, `locale` or `lang` (`src/i18n.ts`, "
    "`lib/i18next.ts`, `src/locale.js`), any file in a folder named with `i18n` or `intl` "
    "(`src/i18n/config.ts`, `src/i18n/request.ts`), and `index`, `config`, `setup`, `init`, "
    "`request`, `routing`, `instance`, `client`, `server` in a `locales` or `lang` folder. "
    "Not entered: `node_modules`, build output, hidden folders, `public`, `static`, test "
    "folders, and folders with a `package.json` of their own (other apps); test, spec and "
    "story files are skipped. A file is parsed only when its bytes contain one of the calls "
    "below.",
    "",
    "Root config files first, then files by depth: the first value found for each option "
    "wins. A path is reported only when the folder exists.",
    "",
    "| Set-up | Read |",
    "|---|---|",
    "| `i18next.init({…})`, `i18n.use(x).init({…})`, `createInstance({…})`, "
    "`createInstance().init({…})` (options inline or in a top-level `const`) | source locale "
    "from `fallbackLng` (a string, the first of a list, the `default` of the per-language "
    "object), else `lng`; `defaultNS` (the first of a list), `fallbackNS`, `ns`, "
    "`keySeparator`, `nsSeparator`, `contextSeparator`, `pluralSeparator`, `returnObjects`; "
    "`backend.loadPath` (the folder before "
    "`{{lng}}`: a leading `/` is the app's `public/` or `static/` folder, "
    "`path.join(__dirname, …)` is read); `resources` whose namespaces are a locale file's "
    "default import or a member of one (`en`, `en.ui`, `en['ui']`, `require('./en.json').ui`, "
    "through top-level `const`s; the import relative, or through the app's "
    "`tsconfig.json`/`jsconfig.json` `paths`: `@i18n/en_US.yaml`) → `locales.root` |",
    "| `next-i18next.config.*` | `i18n.defaultLocale` (else `fallbackLng`), the i18next options "
    "above, `localePath` (a string, `path.resolve('./…')`, either branch of `typeof window "
    "=== … ? … : …`); without `defaultNS`: `common`, without `localePath`: `./public/locales` "
    "(next-i18next's own defaults) |",
    "| `i18next.config.*` of i18next-cli | `extract.primaryLanguage` (else the first of "
    "`locales`), `extract.defaultNS`, the separators (`extract.keySeparator`, "
    "`extract.nsSeparator`, `extract.contextSeparator`, `extract.pluralSeparator`), "
    "`extract.functions` (added to `t` and the presets; `*.t` is `t`), "
    "`extract.useTranslationNames` beyond its defaults (a name, or an object whose `nsArg` is 0 "
    "and `keyPrefixArg` 1, as `useTranslation` takes them: others are left out) → `hooks`, "
    "`extract.transComponents` beyond `Trans`, "
    "`extract.output` |",
    "| `i18next-parser.config.*` | `defaultNamespace`, `keySeparator`, `namespaceSeparator`, "
    "`contextSeparator`, `pluralSeparator`, `output` (the folder before `$LOCALE`), and the "
    "`functions` (→ `functions`) and `componentFunctions` (→ `transComponents`) of its `lexers` |",
    "| `createI18n({…})`, `new VueI18n({…})`, nuxt's `defineI18nConfig(() => ({…}))` | "
    "source locale from `fallbackLocale`, else `locale` |",
    "| `nuxt.config.*`: `i18n: {…}` or `modules: [['@nuxtjs/i18n', {…}]]` | `defaultLocale`; "
    "`langDir` (under `i18n/` as @nuxtjs/i18n v9 and later resolve it, else the app folder, "
    "`app/`, `src/`; `locales` when `locales` name files and `langDir` is unset) |",
    "| svelte-i18n `init({…})` | `fallbackLocale` |",
    "| next-intl `defineRouting({…})`, `createMiddleware({…})` | `defaultLocale` |",
    "| `lingui.config.*`; else `.linguirc`, else `package.json`'s `lingui` object (JSON) | "
    "`sourceLocale`, `catalogs[].path` (the folder before `{locale}`), `format` → "
    "`locales.format`: `formatter(…)` imported from `@lingui/format-json` is `json`, from "
    "`@lingui/format-po` or `@lingui/format-po-gettext` `po`; Lingui 3's names `minimal`, "
    "`lingui` (JSON), `po`, `po-gettext`; any other formatter names none |",
    "| `next.config.*`: `i18n: {…}` | `defaultLocale` |",
    "| JSON imports in any of these files: `import en from './locales/en.json'`, "
    "`require('./lang/en.json')`, ``import(`../messages/${locale}.json`)`` (next-intl's "
    "`getRequestConfig`, svelte-i18n's `register`), `import.meta.glob('./lang/*.json')` | the "
    "folder holding the locale files (or the per-locale folders) |",
    "",
    "`locales.root` is read from the root's app and the apps of the discovered `src` "
    "folders (for apache/answer, `ui`: `ui/src/i18n/init.ts`), not from other packages of a "
    "monorepo; a resource whose file lies outside the locale folder (a plugin's own `en.json`) "
    "does not count.",
    "",
    "Discovery fills `locales.defaultNamespace` and `locales.fallbackNamespaces` from the "
    "root app's `defaultNS`/`fallbackNS`, and `locales.scopes` from the other apps' (a set-up "
    "file inside a listed folder two or more levels down is that folder's, not the root's). "
    "`i18nprune config` shows each value's origin as `file:line: option`.",
)


def _sections(rows: list[Entry]) -> Iterator[tuple[str, list[Entry]]]:
    groups: dict[str, list[Entry]] = {}
    for row in rows:
        groups.setdefault(row.path.split(".", 1)[0].removesuffix("[]"), []).append(row)
    yield from groups.items()


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def main(argv: Sequence[str] | None = None) -> int:
    """Print the reference, or write it (`--write`), or compare it with the file (`--check`)."""
    parser = argparse.ArgumentParser(
        prog="python tools/config_reference.py",
        description="The configuration reference (docs/config.md), generated from the schema.",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="write PATH instead of printing")
    mode.add_argument("--check", action="store_true", help="exit 1 when PATH is not current")
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT_PATH, help="%(default)s")
    options = parser.parse_args(argv)
    text = render()
    if options.write:
        options.path.parent.mkdir(parents=True, exist_ok=True)
        options.path.write_text(text, encoding="utf-8")
        return 0
    if options.check:
        try:
            current = options.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            current = None
        if current != text:
            print(
                f"{options.path} is not current: run "
                f"`python tools/config_reference.py --write {options.path}`",
                file=sys.stderr,
            )
            return 1
        return 0
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
