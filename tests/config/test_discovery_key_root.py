"""Discovery of `locales.root` from the app's own i18next set-up: a locale file shared between a
server and the UI (apache/answer's `backend:` and `ui:`) whose UI loads only its `ui` object."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from i18nprune.config import LoadedConfig
from tests.conftest import write_tree

Load = Callable[..., LoadedConfig]

SOURCE = "backend:\n  base:\n    success: Success.\nui:\n  how_to_format:\n    title: Format\n"


def init(resources: str, imports: str = "import en_US from '@i18n/en_US.yaml';\n") -> str:
    return (
        "import i18next from 'i18next';\n"
        f"{imports}"
        f"const initResources = {resources};\n"
        "i18next.init({ resources: initResources, fallbackLng: 'en_US' });\n"
    )


def answer_shaped(root: Path, **files: Any) -> None:
    """Locale files shared with a server, and a UI app that reads them through an alias."""
    write_tree(
        root,
        {
            "i18n/en_US.yaml": SOURCE,
            "i18n/de_DE.yaml": "backend:\n  base:\n    success: Erfolg.\nui:\n  how_to_format:\n"
            "    title: Formatieren\n",
            "ui/package.json": {"dependencies": {"i18next": "23", "react-i18next": "14"}},
            "ui/tsconfig.json": {
                "compilerOptions": {"baseUrl": "./", "paths": {"@i18n/*": ["../i18n/*"]}}
            },
            "ui/src/pages/Format.tsx": "export const F = () => t('how_to_format.title');\n",
            "ui/src/i18n/init.ts": init("{ en_US: { translation: en_US.ui } }"),
            **files,
        },
    )


def test_the_object_the_ui_loads_is_where_keys_start(tmp_path: Path, load: Load) -> None:
    answer_shaped(tmp_path)

    loaded = load()

    assert loaded.config.locales.root == "ui"
    finding = loaded.findings["locales.root"]
    assert finding.read
    assert finding.origin == (
        "ui/src/i18n/init.ts:3: resources.en_US.translation (the `ui` object of i18n/en_US.yaml)"
    )


def test_a_set_up_that_loads_the_whole_file_leaves_the_top_level(
    tmp_path: Path, load: Load
) -> None:
    answer_shaped(tmp_path, **{"ui/src/i18n/init.ts": init("{ en_US: { translation: en_US } }")})

    loaded = load()

    assert loaded.config.locales.root == ""
    assert "locales.root" not in loaded.findings


def test_a_set_up_that_builds_its_resources_at_run_time_says_nothing(
    tmp_path: Path, load: Load
) -> None:
    setup = init("{ en_US: { translation: pick(en_US) } }")
    answer_shaped(tmp_path, **{"ui/src/i18n/init.ts": setup})

    assert "locales.root" not in load().findings


def test_resources_that_name_different_objects_say_nothing(tmp_path: Path, load: Load) -> None:
    setup = init(
        "{ en_US: { translation: en_US.ui }, de_DE: { translation: de_DE.web } }",
        "import en_US from '@i18n/en_US.yaml';\nimport de_DE from '@i18n/de_DE.yaml';\n",
    )
    answer_shaped(tmp_path, **{"ui/src/i18n/init.ts": setup})

    assert "locales.root" not in load().findings


def test_a_file_without_the_object_the_set_up_names_says_nothing(
    tmp_path: Path, load: Load
) -> None:
    setup = init("{ en_US: { translation: en_US.web } }")
    answer_shaped(tmp_path, **{"ui/src/i18n/init.ts": setup})

    assert "locales.root" not in load().findings


def test_a_plugin_reading_its_own_files_does_not_count(tmp_path: Path, load: Load) -> None:
    plugin = (
        "import en from './en.json';\ni18next.init({ resources: { en: { plugin: en.plugin } } });\n"
    )
    answer_shaped(
        tmp_path,
        **{
            "ui/src/plugins/search/i18n/index.ts": plugin,
            "ui/src/plugins/search/i18n/en.json": '{"plugin": {"title": "Search"}}\n',
        },
    )

    assert load().config.locales.root == "ui"


def test_with_a_config_file_the_root_is_not_discovered(tmp_path: Path, load: Load) -> None:
    answer_shaped(
        tmp_path,
        **{"i18nprune.config.json": {"locales": {"directory": "i18n", "source": "en_US"}}},
    )

    loaded = load()

    assert loaded.config.locales.root == ""
    assert "locales.root" not in loaded.findings
