"""Discovery: defaults filled from the project tree — with a config file each reported as a
warning, without one in the single no-config line (and `LoadedConfig.findings`)."""

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


def _no_config_line(loaded: LoadedConfig) -> str:
    [line] = [issue.message for issue in loaded.issues if issue.code == Code.CONFIG_FILE_MISSING]
    return line


def test_flat_locale_files_in_a_candidate_directory_are_found(load: Load, write: Write) -> None:
    write("public/locales/en.json", "{}")
    loaded = load()
    assert loaded.config.locales.directory == "public/locales"
    assert loaded.field_sources["locales.directory"] == "discovery"
    assert loaded.findings["locales.directory"].origin == "1 locale(s) there"
    assert _discovery_messages(loaded) == []
    assert "discovered directory `public/locales`" in _no_config_line(loaded)
    assert "`i18nprune init` writes them" in _no_config_line(loaded)


def test_with_a_config_file_each_discovered_field_is_a_warning(load: Load, write: Write) -> None:
    write("i18nprune.config.json", "{}")
    write("public/locales/en.json", "{}")
    assert _discovery_messages(load()) == [
        "locales.directory: using `public/locales` (1 locale(s) there); "
        "set it in i18nprune.config.json to silence this"
    ]


def test_flat_layout_found_keeps_default_mode_without_warning(load: Load, write: Write) -> None:
    write("messages/en.json", "{}")
    loaded = load()
    assert (loaded.config.locales.mode, loaded.config.locales.structure) == FLAT_FILE
    assert loaded.field_sources["locales.mode"] == "default"


def test_the_folder_with_the_most_locales_wins(load: Load, write: Write) -> None:
    write("src/locales/en.json", "{}")
    write("public/locales/en.json", "{}")
    write("public/locales/fr.json", "{}")
    loaded = load()
    assert loaded.config.locales.directory == "public/locales"
    assert (
        loaded.findings["locales.directory"].origin == "2 locale(s) there; also found: src/locales"
    )


def test_documentation_and_test_fixtures_are_not_the_app_s_locales(
    load: Load, write: Write
) -> None:
    for code in ("en", "fr", "de"):
        write(f"docs/i18n/{code}.json", "{}")
        write(f"tests/fixtures/locales/{code}.json", "{}")
    write("app/lang/en.json", "{}")
    assert load().config.locales.directory == "app/lang"


def test_any_folder_depth_is_searched(load: Load, write: Write) -> None:
    write("core/src/lang/en.json", "{}")
    write("core/src/lang/fr.json", "{}")
    assert load().config.locales.directory == "core/src/lang"


def test_json_files_not_named_like_a_language_are_not_locales(load: Load, write: Write) -> None:
    write("config/app.json", "{}")
    write("config/db-config.json", "{}")
    assert load().field_sources["locales.directory"] == "default"


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
    assert loaded.findings["locales.structure"].origin == "inferred from the files in `locales`"


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


def test_src_is_every_folder_whose_code_uses_i18n(load: Load, write: Write, tmp_path: Path) -> None:
    (tmp_path / "src").rmdir()
    write("locales/en.json", "{}")
    write("pages/index.tsx", "import { useTranslation } from 'next-i18next';\n")
    write("components/Nav.tsx", "export const Nav = () => <p>{t('nav.home')}</p>;\n")
    write("lib/load.ts", "const messages = await import('../locales/en.json');\n")
    write("utils/math.ts", "export const add = (a, b) => a + b;\n")
    write("tests/page.test.tsx", "t('nav.home');\n")
    write("public/sw.js", "t('nav.home');\n")
    loaded = load()
    assert loaded.config.src == ["components", "lib", "pages"]
    assert loaded.findings["src"].read is True
    assert loaded.findings["src"].origin.startswith(
        "code that uses i18n: components: components/Nav.tsx:1, lib: lib/load.ts:1"
    )


def test_src_is_the_root_when_no_folder_uses_i18n(load: Load, tmp_path: Path) -> None:
    (tmp_path / "src").rmdir()
    (tmp_path / "app").mkdir()
    loaded = load()
    assert loaded.config.src == "."
    assert loaded.findings["src"].read is False


def test_with_a_config_file_an_existing_src_is_kept(load: Load, write: Write) -> None:
    write("i18nprune.config.json", "{}")
    write("src/a.ts", "t('a');\n")
    write("server/b.ts", "t('b');\n")
    assert load().config.src == "src"


def test_with_a_config_file_a_missing_src_is_found_from_calls(
    load: Load, write: Write, tmp_path: Path
) -> None:
    (tmp_path / "src").rmdir()
    write("i18nprune.config.json", "{}")
    write("app/a.ts", "t('a');\n")
    write("lib/b.ts", "export {};\n")
    loaded = load()
    assert loaded.config.src == "app"
    assert _discovery_messages(loaded)[0].startswith("src: using `app` (code that uses i18n:")
