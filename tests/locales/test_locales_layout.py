"""Discovering locale segments for each layout, and what discovery skips or reports."""

from pathlib import Path

from i18nprune.config.schema import LocalesConfig
from i18nprune.envelope import Code
from i18nprune.locales.layout import discover_locales, segment_namespace

FLAT = LocalesConfig(directory="locales")
PER_DIR = LocalesConfig(directory="messages", mode="locale_directory", structure="locale_per_dir")
BUNDLE = LocalesConfig(directory="messages", mode="locale_directory", structure="feature_bundle")


def _touch(root: Path, *rels: str) -> None:
    for rel in rels:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}", encoding="utf-8")


def _rels(root: Path, locales: LocalesConfig) -> dict[str, list[str]]:
    inventory, _ = discover_locales(root, locales)
    return {code: [s.rel for s in segments] for code, segments in inventory.segments.items()}


def test_flat_file_finds_one_file_per_locale(tmp_path: Path) -> None:
    _touch(tmp_path, "locales/en.json", "locales/fr.json")
    assert _rels(tmp_path, FLAT) == {"en": ["locales/en.json"], "fr": ["locales/fr.json"]}


def test_flat_file_ignores_nested_directories(tmp_path: Path) -> None:
    _touch(tmp_path, "locales/en.json", "locales/old/de.json")
    assert _rels(tmp_path, FLAT) == {"en": ["locales/en.json"]}


def test_locale_codes_are_normalised_and_keep_their_spelling(tmp_path: Path) -> None:
    _touch(tmp_path, "locales/pt_BR.json")
    inventory, _ = discover_locales(tmp_path, FLAT)
    segment = inventory.segments["pt-br"][0]
    assert (segment.locale, segment.name) == ("pt-br", "pt_BR")


def test_segment_path_is_absolute(tmp_path: Path) -> None:
    _touch(tmp_path, "locales/en.json")
    inventory, _ = discover_locales(tmp_path, FLAT)
    assert inventory.segments["en"][0].path == (tmp_path / "locales/en.json").absolute()


def test_meta_schema_and_non_locale_files_are_ignored(tmp_path: Path) -> None:
    _touch(
        tmp_path,
        "locales/en.json",
        "locales/en.meta.json",
        "locales/en.schema.json",
        "locales/settings.json",
        "locales/notes.txt",
    )
    assert _rels(tmp_path, FLAT) == {"en": ["locales/en.json"]}


def test_locale_per_dir_unions_every_file_below_the_code_directory(tmp_path: Path) -> None:
    _touch(
        tmp_path,
        "messages/en/common.json",
        "messages/en/auth/login.json",
        "messages/en/common.meta.json",
        "messages/fr/common.json",
    )
    assert _rels(tmp_path, PER_DIR) == {
        "en": ["messages/en/auth/login.json", "messages/en/common.json"],
        "fr": ["messages/fr/common.json"],
    }


def test_locale_per_dir_ignores_directories_that_are_not_codes(tmp_path: Path) -> None:
    _touch(tmp_path, "messages/en/common.json", "messages/shared/common.json")
    assert _rels(tmp_path, PER_DIR) == {"en": ["messages/en/common.json"]}


def test_feature_bundle_finds_code_files_at_any_depth(tmp_path: Path) -> None:
    _touch(
        tmp_path,
        "messages/en.json",
        "messages/auth/en.json",
        "messages/shop/cart/en.json",
        "messages/shop/cart/de.json",
    )
    assert _rels(tmp_path, BUNDLE) == {
        "de": ["messages/shop/cart/de.json"],
        "en": ["messages/auth/en.json", "messages/en.json", "messages/shop/cart/en.json"],
    }


def test_inventory_lists_its_locales_sorted(tmp_path: Path) -> None:
    _touch(tmp_path, "locales/fr.json", "locales/de.json", "locales/en.json")
    inventory, _ = discover_locales(tmp_path, FLAT)
    assert inventory.locales() == ["de", "en", "fr"]


def test_a_link_leaving_the_root_is_skipped_with_a_warning(tmp_path: Path) -> None:
    root = tmp_path / "project"
    _touch(root, "locales/en.json")
    _touch(tmp_path, "elsewhere/de.json")
    (root / "locales/de.json").symlink_to(tmp_path / "elsewhere/de.json")
    inventory, issues = discover_locales(root, FLAT)
    assert inventory.locales() == ["en"]
    assert [(i.code, i.severity, i.path) for i in issues] == [
        (Code.PATH_OUTSIDE_ROOT, "warning", "locales/de.json")
    ]


def test_a_link_inside_the_root_is_followed(tmp_path: Path) -> None:
    _touch(tmp_path, "locales/en.json")
    (tmp_path / "locales/en-US.json").symlink_to(tmp_path / "locales/en.json")
    assert _rels(tmp_path, FLAT) == {"en": ["locales/en.json"], "en-us": ["locales/en-US.json"]}


def test_a_link_cycle_ends_the_descent(tmp_path: Path) -> None:
    _touch(tmp_path, "messages/auth/en.json")
    (tmp_path / "messages/auth/again").symlink_to(tmp_path / "messages")
    (tmp_path / "messages/self").symlink_to(tmp_path / "messages/self")
    assert _rels(tmp_path, BUNDLE) == {"en": ["messages/auth/en.json"]}


def test_a_file_reached_twice_through_a_link_is_one_segment(tmp_path: Path) -> None:
    _touch(tmp_path, "messages/en/auth/login.json")
    (tmp_path / "messages/en/again").symlink_to(tmp_path / "messages/en/auth")
    assert _rels(tmp_path, PER_DIR) == {"en": ["messages/en/again/login.json"]}


def test_a_link_to_a_file_of_the_same_locale_is_one_segment(tmp_path: Path) -> None:
    _touch(tmp_path, "messages/en/common.json")
    (tmp_path / "messages/en/shared.json").symlink_to(tmp_path / "messages/en/common.json")
    assert _rels(tmp_path, PER_DIR) == {"en": ["messages/en/common.json"]}


def test_a_root_reached_through_a_link_names_segments_from_the_root(tmp_path: Path) -> None:
    _touch(tmp_path, "real/messages/en/common.json", "real/messages/en/auth/login.json")
    (tmp_path / "linked").symlink_to(tmp_path / "real")
    inventory, issues = discover_locales(tmp_path / "linked", PER_DIR)
    assert issues == []
    assert [(s.rel, s.path) for s in inventory.segments["en"]] == [
        ("messages/en/auth/login.json", tmp_path / "linked/messages/en/auth/login.json"),
        ("messages/en/common.json", tmp_path / "linked/messages/en/common.json"),
    ]


def test_a_locales_directory_outside_the_root_names_segments_with_dots(tmp_path: Path) -> None:
    _touch(tmp_path, "shared/en.json")
    (tmp_path / "app").mkdir()
    assert _rels(tmp_path / "app", LocalesConfig(directory="../shared")) == {
        "en": ["../shared/en.json"]
    }


def test_a_namespace_is_the_path_below_the_locale_without_the_last_suffix(
    tmp_path: Path,
) -> None:
    _touch(tmp_path, "messages/en/common.json", "messages/en/auth/sign.in.JSON")
    locales = LocalesConfig(
        directory="messages", mode="locale_directory", structure="locale_per_dir"
    )
    inventory, _ = discover_locales(tmp_path, locales)
    names = [segment_namespace(inventory, s, locales) for s in inventory.segments["en"]]
    assert names == ["auth/sign.in", "common"]


def test_a_bundle_namespace_is_the_folder_of_the_file(tmp_path: Path) -> None:
    _touch(tmp_path, "messages/en.json", "messages/auth/login/en.json")
    inventory, _ = discover_locales(tmp_path, BUNDLE)
    names = [segment_namespace(inventory, s, BUNDLE) for s in inventory.segments["en"]]
    assert names == ["auth/login", BUNDLE.default_namespace]


def test_a_missing_directory_gives_an_empty_inventory_and_an_error(tmp_path: Path) -> None:
    inventory, issues = discover_locales(tmp_path, FLAT)
    assert inventory.segments == {}
    assert [(i.code, i.severity) for i in issues] == [(Code.LOCALES_DIR_MISSING, "error")]
    assert "locales directory 'locales' does not exist" in issues[0].message


def test_flat_file_with_locale_per_dir_is_an_invalid_layout(tmp_path: Path) -> None:
    _touch(tmp_path, "locales/en.json")
    config = LocalesConfig(mode="flat_file", structure="locale_per_dir")
    inventory, issues = discover_locales(tmp_path, config)
    assert inventory.segments == {}
    assert [i.code for i in issues] == [Code.STRUCTURE_REQUIRED]


def test_locale_directory_with_locale_file_is_an_invalid_layout(tmp_path: Path) -> None:
    _touch(tmp_path, "locales/en/common.json")
    config = LocalesConfig(mode="locale_directory", structure="locale_file")
    _, issues = discover_locales(tmp_path, config)
    assert [(i.code, i.severity) for i in issues] == [(Code.STRUCTURE_REQUIRED, "error")]
