"""`cleanup --json` says where each candidate is defined: `data.keyLocations`, per locale file,
1-based line and column of the key."""

from __future__ import annotations

import pytest

CONFIG = {
    "locales": {
        "source": "en",
        "directory": "messages",
        "mode": "locale_directory",
        "structure": "locale_per_dir",
    },
    "src": "src",
}

EN_HOME = '{\n  "home": {\n    "title": "Hi",\n    "old": "Gone"\n  }\n}\n'
FR_HOME = '{\n\t"home": {\n\t\t"old": "Parti",\n\t\t"title": "Salut"\n\t}\n}\n'


def test_cleanup_locates_every_candidate_in_every_file_it_cleans(make_project, run_cli):
    root = make_project(
        {
            "i18nprune.config.json": CONFIG,
            "src/App.tsx": "export const App = () => t('home.title');\n",
            "messages/en/home.json": EN_HOME,
            "messages/en/extra.json": '{"legacy": {"banner": "x"}}\n',
            "messages/fr/home.json": FR_HOME,
        }
    )
    result = run_cli("cleanup", "--target", "all", "--dry-run", "--json", cwd=root)
    assert result.code == 0, result.stdout
    data = result.envelope["data"]
    assert data["keys"] == ["home.old"]
    assert data["keyLocations"] == {
        "home.old": [{"locale": "fr", "file": "messages/fr/home.json", "line": 3, "column": 3}],
    }
    source = run_cli("cleanup", "--dry-run", "--json", cwd=root).envelope["data"]
    assert source["keyLocations"] == {
        "home.old": [{"locale": "en", "file": "messages/en/home.json", "line": 4, "column": 5}],
        "legacy.banner": [
            {"locale": "en", "file": "messages/en/extra.json", "line": 1, "column": 13}
        ],
    }


@pytest.mark.slow
def test_a_written_cleanup_reports_where_the_removed_keys_were(make_project, run_cli):
    root = make_project(
        {
            "i18nprune.config.json": {"locales": {"source": "en"}, "src": "src"},
            "src/App.tsx": "export const App = () => t('a');\n",
            "locales/en.json": '{\n  "a": "A",\n  "b": "B"\n}\n',
        }
    )
    result = run_cli("cleanup", "--yes", "--json", cwd=root)
    assert result.code == 0, result.stdout
    assert result.envelope["data"]["removed"] == 1
    assert result.envelope["data"]["keyLocations"] == {
        "b": [{"locale": "en", "file": "locales/en.json", "line": 3, "column": 3}]
    }
    assert '"b"' not in (root / "locales/en.json").read_text()
