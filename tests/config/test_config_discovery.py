"""Discovery: defaults filled from the project tree, each reported as a warning."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from i18nprune.config import ConfigOverrides, LoadedConfig
from i18nprune.config.discovery import (
    FEATURE_BUNDLE,
    FLAT_FILE,
    LOCALE_PER_DIR,
    infer_layout,
)
from i18nprune.envelope import Code

Load = Callable[..., LoadedConfig]
Write = Callable[[str, str], Path]


@pytest.fixture(autouse=True)
def source_directory(tmp_path: Path) -> None:
    """Every project here has `src/`, so only the locales fields are discovered."""
    (tmp_path / "src").mkdir()


def _discovery_messages(loaded: LoadedConfig) -> list[str]:
    return [issue.message for issue in loaded.issues if issue.code == Code.DISCOVERY_WARNING]


def test_flat_locale_files_in_a_candidate_directory_are_found(load: Load, write: Write) -> None:
    write("public/locales/en.json", "{}")
    loaded = load()
    assert loaded.config.locales.directory == "public/locales"
    assert loaded.field_sources["locales.directory"] == "discovery"
    assert _discovery_messages(loaded) == [
        "locales.directory: using `public/locales` (found locale files there); "
        "set it in i18nprune.config.json to silence this"
    ]


def test_flat_layout_found_keeps_default_mode_without_warning(load: Load, write: Write) -> None:
    write("messages/en.json", "{}")
    loaded = load()
    assert (loaded.config.locales.mode, loaded.config.locales.structure) == FLAT_FILE
    assert loaded.field_sources["locales.mode"] == "default"


def test_candidates_are_tried_in_order(load: Load, write: Write) -> None:
    write("src/locales/en.json", "{}")
    write("public/locales/en.json", "{}")
    assert load().config.locales.directory == "src/locales"


def test_candidate_without_locale_files_is_skipped(load: Load, write: Write) -> None:
    write("src/locales/readme.txt", "")
    write("lang/de.json", "{}")
    assert load().config.locales.directory == "lang"


def test_directory_per_locale_layout_is_inferred(load: Load, write: Write) -> None:
    write("locales/en/common.json", "{}")
    write("locales/fr/auth/login.json", "{}")
    loaded = load()
    assert (loaded.config.locales.mode, loaded.config.locales.structure) == LOCALE_PER_DIR
    assert loaded.field_sources["locales.structure"] == "discovery"
    assert (
        "locales.structure: using `locale_per_dir` (inferred from the files in `locales`); "
        "set it in i18nprune.config.json to silence this"
    ) in _discovery_messages(loaded)


def test_feature_bundle_layout_is_inferred(load: Load, write: Write) -> None:
    write("messages/auth/en.json", "{}")
    write("messages/checkout/cart/en.json", "{}")
    locales = load().config.locales
    assert (locales.directory, locales.mode, locales.structure) == ("messages", *FEATURE_BUNDLE)


def test_feature_named_like_a_code_still_reads_as_bundle(tmp_path: Path, write: Write) -> None:
    write("messages/app/en.json", "{}")
    write("messages/auth/en.json", "{}")
    assert infer_layout(tmp_path / "messages", "en") == FEATURE_BUNDLE


def test_files_named_like_codes_in_locale_dirs_read_as_per_dir(
    tmp_path: Path, write: Write
) -> None:
    write("messages/en/ui.json", "{}")
    write("messages/fr/ui.json", "{}")
    assert infer_layout(tmp_path / "messages", "en") == LOCALE_PER_DIR


def test_directory_without_locale_files_has_no_layout(tmp_path: Path, write: Write) -> None:
    write("messages/config.json", "{}")
    assert infer_layout(tmp_path / "messages", "en") is None


def test_existing_default_directory_is_not_replaced(load: Load, write: Write) -> None:
    write("locales/en.json", "{}")
    write("public/locales/en.json", "{}")
    loaded = load()
    assert loaded.config.locales.directory == "locales"
    assert _discovery_messages(loaded) == []


def test_directory_set_in_the_file_is_never_replaced(load: Load, write: Write) -> None:
    write("i18nprune.config.json", '{"locales": {"directory": "missing"}}')
    write("public/locales/en.json", "{}")
    assert load().config.locales.directory == "missing"


def test_layout_set_in_the_file_is_not_inferred(load: Load, write: Write) -> None:
    write("i18nprune.config.json", '{"locales": {"mode": "flat_file"}}')
    write("locales/en/common.json", "{}")
    assert load().config.locales.structure == "locale_file"


def test_layout_is_inferred_from_a_directory_given_by_flag(load: Load, write: Write) -> None:
    write("translations-v2/en/common.json", "{}")
    loaded = load(overrides=ConfigOverrides(locales_dir="translations-v2"))
    assert loaded.config.locales.directory == "translations-v2"
    assert loaded.field_sources["locales.directory"] == "flag"
    assert loaded.config.locales.structure == "locale_per_dir"


def test_discovery_is_off_with_no_discovery_variable(load: Load, write: Write) -> None:
    write("public/locales/en.json", "{}")
    loaded = load(env={"I18NPRUNE_NO_DISCOVERY": "yes"})
    assert loaded.config.locales.directory == "locales"
    assert _discovery_messages(loaded) == []


def test_warning_names_the_config_file_in_use(load: Load, write: Write) -> None:
    write("i18nprune.config.ts", "export default {};\n")
    write("public/locales/en.json", "{}")
    [message] = _discovery_messages(load())
    assert message.endswith("set it in i18nprune.config.ts to silence this")


@pytest.mark.parametrize("present", ["app", "lib"])
def test_src_falls_back_to_app_then_lib(load: Load, tmp_path: Path, present: str) -> None:
    (tmp_path / "src").rmdir()
    (tmp_path / present).mkdir()
    (tmp_path / "locales").mkdir()
    loaded = load()
    assert loaded.config.src == present
    assert loaded.field_sources["src"] == "discovery"
    assert _discovery_messages(loaded) == [
        f"src: using `{present}` (there is no `src` directory); "
        "set it in i18nprune.config.json to silence this"
    ]


def test_src_falls_back_to_the_root(load: Load, tmp_path: Path) -> None:
    (tmp_path / "src").rmdir()
    loaded = load()
    assert loaded.config.src == "."
    assert "none of `src`, `app`, `lib` exists" in _discovery_messages(loaded)[0]
