"""Locale trees on disk for the locale-view tests."""

from pathlib import Path

from i18nprune.config.schema import LocalesConfig
from i18nprune.locales.layout import LocaleInventory, discover_locales

PLACEHOLDER = "__I18NPRUNE_MISSING__"
PER_DIR = LocalesConfig(directory="messages", mode="locale_directory", structure="locale_per_dir")


def locale_tree(
    root: Path, files: dict[str, str], locales: LocalesConfig = PER_DIR
) -> LocaleInventory:
    """Write `files` (rel → text) under `root` and discover its locales with `locales`."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    inventory, _ = discover_locales(root, locales)
    return inventory
