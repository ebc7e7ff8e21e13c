"""Configuration: the schema, and loading it from file, environment, discovery and flags.

The names below load their modules on first use: `config.secrets` or `config.schema` alone
(what a translate worker needs) does not import the loader.
"""

from typing import TYPE_CHECKING

from i18nprune.system.lazy import lazy_exports

if TYPE_CHECKING:
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

__getattr__ = lazy_exports(
    __name__,
    {
        "ProviderEnv": "environment",
        "provider_env": "environment",
        "ConfigOverrides": "loading",
        "LoadedConfig": "loading",
        "load_config": "loading",
        "CONFIG_FILE_NAMES": "lookup",
        "resolve_root": "lookup",
        "CacheConfig": "schema",
        "CommandReference": "schema",
        "Config": "schema",
        "ExcludeConfig": "schema",
        "LocaleLeavesConfig": "schema",
        "LocalesConfig": "schema",
        "MissingConfig": "schema",
        "ParityPolicy": "schema",
        "Policies": "schema",
        "PreservePolicy": "schema",
        "ProviderRow": "schema",
        "RateLimit": "schema",
        "ReferenceCommands": "schema",
        "ReferenceConfig": "schema",
        "ReferenceDefaults": "schema",
        "TranslateConfig": "schema",
        "TranslatePolicy": "schema",
        "UncertainKeyPolicy": "schema",
        "REDACTED": "secrets",
        "redacted_config": "secrets",
    },
)
