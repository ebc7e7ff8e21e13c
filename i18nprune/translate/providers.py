"""The provider registry: what each translation backend is, its defaults, and the settings a
worker needs to call it (`ProviderSettings`, a wire type of the pool), resolved from a config
row, the environment and those defaults.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Literal

import msgspec

from i18nprune.config.environment import provider_env, provider_variable_prefix
from i18nprune.config.schema import FORMALITY_VALUES, ProviderRow, TranslateConfig
from i18nprune.envelope import Code, Issue, ProblemError, error
from i18nprune.locale_codes import ANY_LOCALE, normalize_code
from i18nprune.pool.messages import DEFAULT_LLM_MODEL, ProviderSettings

ProviderKind = Literal["offline", "public", "api_key", "self_hosted", "llm"]

DEEPL_FREE_URL = "https://api-free.deepl.com"


class ProviderOption(msgspec.Struct, frozen=True, kw_only=True):
    """A setting of a provider row that shapes its translations (shown by `providers`)."""

    key: str
    accepts: str
    per_target: bool
    """Also accepted as an object by target: a locale code, its language, or `*` for the
    rest (`{"de": "…", "*": "…"}`)."""
    description: str
    example: object


_FORMALITY = ProviderOption(
    key="formality",
    accepts=" | ".join(FORMALITY_VALUES),
    per_target=True,
    description=(
        "DeepL's `formality`: `more`/`less` formal, `default` (the parameter is not sent). "
        "`more` and `less` are sent as `prefer_more`/`prefer_less` to targets DeepL has no "
        "formality for (such as `en`, `zh`), so a project-wide setting never fails them; "
        "`prefer_*` are sent as written."
    ),
    example={"de": "less", "*": "prefer_more"},
)
_CONTEXT = ProviderOption(
    key="context",
    accepts="string",
    per_target=False,
    description=(
        "DeepL's `context`: a few sentences about the app, sent with every request; it "
        "guides the translation and is not translated itself. Key descriptions are not sent "
        "to DeepL (its context is one per request, not per text)."
    ),
    example="Buttons and labels of a cloud hosting dashboard for developers.",
)
_INSTRUCTIONS = ProviderOption(
    key="instructions",
    accepts="string",
    per_target=True,
    description=(
        "Added to the system prompt for that target: tone, formality, terminology. Each text "
        "also carries its key paths and its description (from `<segment>.meta.json` or an "
        "`// i18n: …` comment above the call) when it has one."
    ),
    example={"de": "Address the user informally (du).", "*": "Keep a friendly, plain tone."},
)


class ProviderInfo(msgspec.Struct, frozen=True, kw_only=True):
    """One translation backend as the registry describes it (shown by `providers`)."""

    id: str
    label: str
    kind: ProviderKind
    default_base_url: str
    needs_api_key: bool
    batch_limit: int
    default_batch_size: int
    default_timeout_seconds: float
    default_max_concurrency: int
    default_rps: float | None
    env_vars: list[str]
    config_keys: list[str]
    options: list[ProviderOption] = []
    """The settings of `config_keys` that shape translations (cached apart per value)."""
    reads_notes: bool = False
    """The adapter sends each text's key paths and description."""


def _env_vars(provider_id: str, *, api_key: bool, model: bool = False) -> list[str]:
    # exactly what config.provider_env reads for this id (and resolve_settings uses)
    prefix = provider_variable_prefix(provider_id)
    names = [prefix + "API_KEY"] if api_key else []
    names += [prefix + "URL", prefix + "BASE_URL"]
    if model:
        names.append(prefix + "MODEL")
    return names


_HTTP_KEYS = ["enabled", "baseUrl", "batchSize", "timeoutSeconds", "rateLimit"]

PROVIDERS: dict[str, ProviderInfo] = {
    info.id: info
    for info in [
        ProviderInfo(
            id="pseudo",
            label="Pseudo-localisation (offline)",
            kind="offline",
            default_base_url="",
            needs_api_key=False,
            batch_limit=1000,
            default_batch_size=200,
            default_timeout_seconds=5.0,
            default_max_concurrency=4,
            default_rps=None,
            env_vars=[],
            config_keys=["enabled", "batchSize"],
        ),
        ProviderInfo(
            id="google",
            label="Google Translate (public endpoint)",
            kind="public",
            default_base_url="https://translate.googleapis.com",
            needs_api_key=False,
            batch_limit=100,
            default_batch_size=25,
            default_timeout_seconds=15.0,
            default_max_concurrency=8,
            default_rps=20.0,
            env_vars=_env_vars("google", api_key=False),
            config_keys=_HTTP_KEYS,
        ),
        ProviderInfo(
            id="google-cloud",
            label="Google Cloud Translation API v2",
            kind="api_key",
            default_base_url="https://translation.googleapis.com",
            needs_api_key=True,
            batch_limit=128,
            default_batch_size=128,
            default_timeout_seconds=30.0,
            default_max_concurrency=8,
            default_rps=10.0,
            env_vars=_env_vars("google-cloud", api_key=True),
            config_keys=["apiKey", *_HTTP_KEYS],
        ),
        ProviderInfo(
            id="deepl",
            label="DeepL API v2",
            kind="api_key",
            default_base_url="https://api.deepl.com",
            needs_api_key=True,
            batch_limit=50,
            default_batch_size=50,
            default_timeout_seconds=30.0,
            default_max_concurrency=4,
            default_rps=5.0,
            env_vars=_env_vars("deepl", api_key=True),
            config_keys=["apiKey", *_HTTP_KEYS, "formality", "context"],
            options=[_FORMALITY, _CONTEXT],
        ),
        ProviderInfo(
            id="libre",
            label="LibreTranslate",
            kind="self_hosted",
            default_base_url="https://libretranslate.com",
            needs_api_key=False,
            batch_limit=500,
            default_batch_size=100,
            default_timeout_seconds=60.0,
            default_max_concurrency=8,
            default_rps=None,
            env_vars=_env_vars("libre", api_key=True),
            config_keys=["apiKey", *_HTTP_KEYS],
        ),
        ProviderInfo(
            id="azure",
            label="Azure AI Translator v3",
            kind="api_key",
            default_base_url="https://api.cognitive.microsofttranslator.com",
            needs_api_key=True,
            batch_limit=1000,
            default_batch_size=100,
            default_timeout_seconds=30.0,
            default_max_concurrency=4,
            default_rps=10.0,
            env_vars=_env_vars("azure", api_key=True),
            config_keys=["apiKey", "region", *_HTTP_KEYS],
        ),
        ProviderInfo(
            id="llm",
            label="LLM (OpenAI-compatible chat completions)",
            kind="llm",
            default_base_url="https://api.openai.com/v1",
            needs_api_key=True,
            batch_limit=100,
            default_batch_size=20,
            default_timeout_seconds=120.0,
            default_max_concurrency=4,
            default_rps=None,
            env_vars=_env_vars("llm", api_key=True, model=True),
            config_keys=["apiKey", "model", *_HTTP_KEYS, "instructions"],
            options=[_INSTRUCTIONS],
            reads_notes=True,
        ),
        ProviderInfo(
            id="mymemory",
            label="MyMemory",
            kind="public",
            default_base_url="https://api.mymemory.translated.net",
            needs_api_key=False,
            batch_limit=1,
            default_batch_size=1,
            default_timeout_seconds=15.0,
            default_max_concurrency=2,
            default_rps=2.0,
            env_vars=_env_vars("mymemory", api_key=True),
            config_keys=["apiKey", *_HTTP_KEYS],
        ),
    ]
}


def provider_info(provider_id: str) -> ProviderInfo:
    """The registry entry of `provider_id`.

    Raises ProblemError (UNKNOWN_PROVIDER, with a "did you mean" when one is close).
    """
    info = PROVIDERS.get(provider_id)
    if info is not None:
        return info
    message = f"unknown translation provider `{provider_id}`"
    close = difflib.get_close_matches(provider_id.lower(), list(PROVIDERS), n=1, cutoff=0.6)
    if close:
        message += f"; did you mean `{close[0]}`?"
    message += " (known: " + ", ".join(PROVIDERS) + ")"
    raise ProblemError(error(Code.UNKNOWN_PROVIDER, message))


def resolve_settings(
    provider_id: str, config: TranslateConfig, env: Mapping[str, str]
) -> ProviderSettings:
    """The settings of `provider_id`: its config row (if any) over the environment over the
    registry defaults.

    The base URL is the row's `baseUrl`, else I18NPRUNE_TRANSLATE_<ID>_URL, else the default
    (DeepL keys ending in `:fx` default to the free host). The API key is the row's `apiKey`,
    else I18NPRUNE_TRANSLATE_<ID>_API_KEY. An `llm` pointed at a base URL of its own (a local
    model server) needs no key. Raises ProblemError: UNKNOWN_PROVIDER for an unknown id,
    MISSING_CREDENTIALS when the provider needs a key and none is set. `formality`, `context`
    and `instructions` come from the row only, and only for the providers that use them.
    """
    info = provider_info(provider_id)
    row = _row(config, provider_id) or ProviderRow(id=provider_id)
    from_env = provider_env(env, provider_id)
    # only the settings a provider uses are read (the ones `config_keys` and `env_vars` show)
    api_key = (row.api_key or from_env.api_key) if "apiKey" in info.config_keys else None
    base_url = (row.base_url or from_env.base_url) if "baseUrl" in info.config_keys else None
    if base_url is None:
        base_url = _default_base_url(info, api_key)
    base_url = base_url.rstrip("/")
    own_llm_server = info.kind == "llm" and base_url != info.default_base_url
    if info.needs_api_key and api_key is None and not own_llm_server:
        raise ProblemError(_missing_credentials(info))
    model = None
    if "model" in info.config_keys:
        model = row.model or from_env.model or DEFAULT_LLM_MODEL
    limits = row.rate_limit
    return ProviderSettings(
        id=info.id,
        base_url=base_url,
        api_key=api_key,
        model=model,
        region=row.region if "region" in info.config_keys else None,
        batch_size=max(1, min(row.batch_size or info.default_batch_size, info.batch_limit)),
        timeout_seconds=row.timeout_seconds or info.default_timeout_seconds,
        max_concurrency=(limits and limits.max_concurrency) or info.default_max_concurrency,
        rps=limits.rps if limits and limits.rps is not None else info.default_rps,
        rpm=limits.rpm if limits else None,
        chars_per_minute=limits.chars_per_minute if limits else None,
        formality=_per_target(row.formality) if "formality" in info.config_keys else {},
        context=(row.context or None) if "context" in info.config_keys else None,
        instructions=_per_target(row.instructions) if "instructions" in info.config_keys else {},
        reads_notes=info.reads_notes,
    )


def _per_target(setting: str | dict[str, str] | None) -> dict[str, str]:
    """A row's value-or-object-by-target as an object by normalised code (`*`: the rest)."""
    if setting is None:
        return {}
    if isinstance(setting, str):
        return {ANY_LOCALE: setting}
    return {
        code if code == ANY_LOCALE else normalize_code(code): value
        for code, value in setting.items()
    }


def provider_chain(
    primary: str, config: TranslateConfig, env: Mapping[str, str]
) -> list[ProviderSettings]:
    """The providers a job may use, primary first.

    Routing `single`: just the primary. Routing `auto`: the primary, then every other enabled
    row of `translate.providers` in config order; a fallback row without the credentials it
    needs is left out (not an error). Raises ProblemError as `resolve_settings` does for the
    primary, and UNKNOWN_PROVIDER for a row with an unknown id.
    """
    chain = [resolve_settings(primary, config, env)]
    if config.policy.routing == "single":
        return chain
    for row in config.providers:
        if not row.enabled or any(settings.id == row.id for settings in chain):
            continue
        try:
            chain.append(resolve_settings(row.id, config, env))
        except ProblemError as problem:
            if problem.issue.code != Code.MISSING_CREDENTIALS:
                raise
    return chain


def _row(config: TranslateConfig, provider_id: str) -> ProviderRow | None:
    return next((row for row in config.providers if row.id == provider_id), None)


def _default_base_url(info: ProviderInfo, api_key: str | None) -> str:
    if info.id == "deepl" and api_key is not None and api_key.endswith(":fx"):
        return DEEPL_FREE_URL
    return info.default_base_url


def _missing_credentials(info: ProviderInfo) -> Issue:
    variable = info.env_vars[0]
    return error(
        Code.MISSING_CREDENTIALS,
        f"translation provider `{info.id}` needs an API key: set {variable} or `apiKey` in "
        f'its `translate.providers` row ({{"id": "{info.id}", "apiKey": "…"}})',
        "translate.providers",
    )
