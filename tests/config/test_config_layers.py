"""Merge order and field sources: defaults → file → environment → discovery → CLI flags."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from i18nprune.config import ConfigOverrides, LoadedConfig
from i18nprune.config.layers import deep_merge

Load = Callable[..., LoadedConfig]
Write = Callable[[str, str], Path]

QUIET = {"I18NPRUNE_NO_DISCOVERY": "1"}


def test_deep_merge_merges_objects_and_replaces_arrays() -> None:
    base = {"a": {"x": 1, "y": [1, 2]}, "b": 1}
    assert deep_merge(base, {"a": {"y": [3]}}) == {"a": {"x": 1, "y": [3]}, "b": 1}
    assert base == {"a": {"x": 1, "y": [1, 2]}, "b": 1}


def test_flags_win_over_environment_and_file(load: Load, write: Write) -> None:
    write("i18nprune.config.json", '{"locales": {"source": "en"}, "src": "web"}')
    loaded = load(
        env={**QUIET, "I18NPRUNE_SOURCE": "de"},
        overrides=ConfigOverrides(source="fr", functions=["tr"]),
    )
    assert loaded.config.locales.source == "fr"
    assert loaded.config.functions == ["tr"]
    assert loaded.config.src == "web"


def test_field_sources_name_the_layer_that_set_each_leaf(load: Load, write: Write) -> None:
    write("i18nprune.config.json", '{"src": "web", "translate": {"providers": []}}')
    write("public/locales/en.json", "{}")
    sources = load(
        env={"I18NPRUNE_TRANSLATE_PROVIDER": "pseudo"},
        overrides=ConfigOverrides(functions=["t"]),
    ).field_sources
    assert sources["src"] == "file"
    assert sources["translate.providers"] == "file"
    assert sources["translate.primary"] == "env"
    assert sources["locales.directory"] == "discovery"
    assert sources["functions"] == "flag"
    assert sources["cache.dir"] == "default"


def test_field_sources_cover_every_leaf_in_camel_case(load: Load) -> None:
    sources = load(env=QUIET).field_sources
    assert set(sources.values()) == {"default"}
    assert "exclude.useDefaultSkip" in sources
    assert "reference.commands.cleanup.uncertainKeyPolicy" in sources
    assert "translate.policy.onRateLimit" in sources
    assert "translate" not in sources


def test_exclude_flag_is_appended_to_dirs_and_files(load: Load, write: Write) -> None:
    write("i18nprune.config.json", '{"exclude": {"dirs": ["legacy"], "files": ["*.gen.ts"]}}')
    loaded = load(env=QUIET, overrides=ConfigOverrides(exclude=["vendor", "*.old.*"]))
    assert loaded.config.exclude.dirs == ["legacy", "vendor", "*.old.*"]
    assert loaded.config.exclude.files == ["*.gen.ts", "vendor", "*.old.*"]
    assert loaded.field_sources["exclude.dirs"] == "flag"
    assert loaded.field_sources["exclude.files"] == "flag"


def test_src_flag_prevents_src_discovery(load: Load) -> None:
    loaded = load(overrides=ConfigOverrides(src="client"))
    assert loaded.config.src == "client"
    assert not any("src:" in issue.message for issue in loaded.issues)
