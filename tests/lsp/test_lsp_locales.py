"""Locale files in the editor: stale translations (from the lock), placeholder mismatches and
marks for review (from `quality`), each a diagnostic where the file spells the key; hover
carries the same state."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from i18nprune.testing.lsp import LspClient
from tests.conftest import CliResult

APP = "import { t } from 'i18next';\nexport const a = [t('greet'), t('bye'), t('count')];\n"


def make(root: Path) -> Path:
    (root / "locales").mkdir(parents=True)
    (root / "src").mkdir()
    (root / "src/app.ts").write_text(APP)
    (root / "locales/en.json").write_text(
        json.dumps({"greet": "Hello {{name}}", "bye": "Goodbye", "count": "Count"}, indent=2)
    )
    (root / "i18nprune.config.json").write_text(
        json.dumps(
            {
                "locales": {"source": "en", "directory": "locales"},
                "src": "src",
                "translate": {"primary": "pseudo", "providers": [{"id": "pseudo"}]},
            }
        )
    )
    return root


def published_with(client: LspClient, uri: str, code: str) -> list[dict]:
    def wanted(message: dict) -> bool:
        params = message.get("params") or {}
        return params.get("uri") == uri and any(
            d["code"] == code for d in params.get("diagnostics", [])
        )

    return client.wait_for(wanted, f"a {code} diagnostic")["params"]["diagnostics"]  # type: ignore[no-any-return]


@pytest.mark.slow
def test_a_stale_translation_and_a_broken_placeholder_are_marked_in_the_target_file(
    lsp: Callable[..., LspClient], run_cli: Callable[..., CliResult], tmp_path: Path
) -> None:
    root = make(tmp_path / "app")
    done = run_cli("generate", "--target", "fr", cwd=root)
    assert done.code == 0, done.stderr
    en = json.loads((root / "locales/en.json").read_text())
    en["bye"] = "Goodbye for now"  # the French is stale from here on
    (root / "locales/en.json").write_text(json.dumps(en, indent=2))
    fr_path = root / "locales/fr.json"
    fr = json.loads(fr_path.read_text())
    fr["greet"] = "Bonjour"  # the placeholder is gone
    fr_path.write_text(json.dumps(fr, indent=2))

    client = lsp()
    client.initialize(root)
    uri = client.open(fr_path, language="json")
    diagnostics = published_with(client, uri, "i18nprune.quality.placeholders")

    [stale] = [d for d in diagnostics if d["code"] == "i18nprune.lock.stale_translation"]
    assert stale["severity"] == 2 and "`bye`" in stale["message"]
    lines = fr_path.read_text().splitlines()
    assert lines[stale["range"]["start"]["line"]].strip().startswith('"bye"')
    [broken] = [d for d in diagnostics if d["code"] == "i18nprune.quality.placeholders"]
    assert broken["severity"] == 1
    assert lines[broken["range"]["start"]["line"]].strip().startswith('"greet"')

    code_uri = client.open(root / "src/app.ts")
    client.diagnostics(code_uri)
    hover = client.request(
        "textDocument/hover", client.at(code_uri, 1, APP.splitlines()[1].index("bye"))
    )
    assert "_(stale)_" in hover["contents"]["value"]
