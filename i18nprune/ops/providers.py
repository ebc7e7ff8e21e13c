"""`providers`: every translation backend with its defaults, settings, the options that shape its
translations, and environment variables."""

from __future__ import annotations

import time

import msgspec

from i18nprune.envelope import Envelope, make_envelope
from i18nprune.ops.engine.events import EventSink
from i18nprune.project import ProjectHandle
from i18nprune.translate.providers import (
    DEFAULT_LLM_MODEL,
    PROVIDERS,
    ProviderInfo,
    ProviderOption,
)

KIND = "providers"

MERGE_PRECEDENCE = [
    "provider: --provider, then I18NPRUNE_TRANSLATE_PROVIDER, then translate.primary",
    "settings: the provider's translate.providers row, then I18NPRUNE_TRANSLATE_<ID>_* "
    "variables, then the defaults listed here",
    "fallback (translate.policy.routing = auto): the other enabled rows, in config order",
    "per-target options (formality, instructions): the target's code (pt-BR), then its "
    'language (pt), then "*"',
    "options that shape translations are part of the translation cache's key: changing one "
    "translates again instead of reusing what other options made",
]


class ProvidersOptions(msgspec.Struct, frozen=True, kw_only=True):
    pass


class ProviderDefaults(msgspec.Struct, frozen=True, rename="camel"):
    base_url: str | None
    batch_size: int
    timeout_seconds: float
    max_concurrency: int
    rps: float | None


class ProviderOptionInfo(msgspec.Struct, frozen=True, rename="camel"):
    """A row setting that shapes translations: what it accepts, whether it may be given per
    target, what it does, and an example value."""

    key: str
    accepts: str
    per_target: bool
    description: str
    example: object


class ProviderRowInfo(msgspec.Struct, frozen=True, rename="camel"):
    id: str
    label: str
    kind: str
    needs_api_key: bool
    env_vars: list[str]
    config_keys: list[str]
    batch_limit: int
    defaults: ProviderDefaults
    options: list[ProviderOptionInfo]
    reads_descriptions: bool
    """Each text is sent with its key paths and description."""


class ProvidersData(msgspec.Struct, frozen=True, rename="camel"):
    providers: list[ProviderRowInfo]
    merge_precedence: list[str]
    config_snippets: dict[str, str]


def _row(info: ProviderInfo) -> ProviderRowInfo:
    return ProviderRowInfo(
        id=info.id,
        label=info.label,
        kind=info.kind,
        needs_api_key=info.needs_api_key,
        env_vars=info.env_vars,
        config_keys=info.config_keys,
        batch_limit=info.batch_limit,
        defaults=ProviderDefaults(
            base_url=info.default_base_url or None,
            batch_size=info.default_batch_size,
            timeout_seconds=info.default_timeout_seconds,
            max_concurrency=info.default_max_concurrency,
            rps=info.default_rps,
        ),
        options=[_option(option) for option in info.options],
        reads_descriptions=info.reads_notes,
    )


def _option(option: ProviderOption) -> ProviderOptionInfo:
    return ProviderOptionInfo(
        key=option.key,
        accepts=option.accepts,
        per_target=option.per_target,
        description=option.description,
        example=option.example,
    )


def config_snippet(info: ProviderInfo) -> str:
    """A `translate` block that selects this provider; keys come from the environment."""
    row: dict[str, object] = {"id": info.id}
    if "baseUrl" in info.config_keys and info.kind == "self_hosted":
        row["baseUrl"] = info.default_base_url
    if info.kind == "llm":
        row["model"] = DEFAULT_LLM_MODEL
    if "region" in info.config_keys:
        row["region"] = "westeurope"
    row["rateLimit"] = {"maxConcurrency": info.default_max_concurrency}
    block = {"translate": {"primary": info.id, "providers": [row]}}
    return msgspec.json.format(msgspec.json.encode(block), indent=2).decode()


async def run(handle: ProjectHandle, options: ProvidersOptions, emit: EventSink) -> Envelope:
    """List the provider registry; needs no project."""
    started = time.perf_counter()
    data = ProvidersData(
        providers=[_row(info) for info in PROVIDERS.values()],
        merge_precedence=MERGE_PRECEDENCE,
        config_snippets={info.id: config_snippet(info) for info in PROVIDERS.values()},
    )
    return make_envelope(KIND, data, [], started=started)
