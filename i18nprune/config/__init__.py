"""Configuration: the schema, and loading it from file, environment, discovery and flags."""

from i18nprune.config.environment import ProviderEnv, provider_env
from i18nprune.config.loading import ConfigOverrides, LoadedConfig, load_config
from i18nprune.config.lookup import CONFIG_FILE_NAMES, resolve_root
from i18nprune.config.schema import (
    CacheConfig,
    CommandReference,
    Config,
    ExcludeConfig,
    LocaleLeavesConfig,
    LocalesConfig,
    MissingConfig,
    ParityPolicy,
    Policies,
    PreservePolicy,
    ProviderRow,
    RateLimit,
    ReferenceCommands,
    ReferenceConfig,
    ReferenceDefaults,
    TranslateConfig,
    TranslatePolicy,
    UncertainKeyPolicy,
)
from i18nprune.config.secrets import REDACTED, redacted_config

__all__ = [
    "CONFIG_FILE_NAMES",
    "REDACTED",
    "CacheConfig",
    "CommandReference",
    "Config",
    "ConfigOverrides",
    "ExcludeConfig",
    "LoadedConfig",
    "LocaleLeavesConfig",
    "LocalesConfig",
    "MissingConfig",
    "ParityPolicy",
    "Policies",
    "PreservePolicy",
    "ProviderEnv",
    "ProviderRow",
    "RateLimit",
    "ReferenceCommands",
    "ReferenceConfig",
    "ReferenceDefaults",
    "TranslateConfig",
    "TranslatePolicy",
    "UncertainKeyPolicy",
    "load_config",
    "provider_env",
    "redacted_config",
    "resolve_root",
]
