"""YAML locale files in the editor: a stale translation marked at the YAML key's line, an
unsaved buffer that is no YAML reported at its line, and a definition that jumps to the key."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from i18nprune.testing.lsp import LspClient
from tests.conftest import CliResult

APP = "import { t } from 'i18next';\nexport const a = [t('greet'), t('bye')];\n"
EN = "# English\nen:\n  greet: Hello {{name}}\n  bye: Goodbye\n"


def make(root: Path) -> Path:
    (root / "locales").mkdir(parents=True)
    (root / "src").mkdir()
    (root / "src/app.ts").write_text(APP)
    (root / "locales/en.yml").write_text(EN)
    (root / "i18nprune.config.json").write_text(
        '{"locales": {"source": "en", "directory": "locales"}, "src": "src",'
        ' "translate": {"primary": "pseudo", "providers": [{"id": "pseudo"}]}}'
    )
    return root


@pytest.mark.slow
def test_a_stale_yaml_translation_is_marked_at_its_key_and_broken_yaml_at_its_line(
    lsp: Callable[..., LspClient], run_cli: Callable[..., CliResult], tmp_path: Path
) -> None:
    root = make(tmp_path / "app")
    done = run_cli("generate", "--target", "fr", cwd=root)
    assert done.code == 0, done.stderr
    (root / "locales/en.yml").write_text(EN.replace("Goodbye", "Goodbye for now"))
    fr = root / "locales/fr.yml"

    client = lsp()
    client.initialize(root)
    uri = client.open(fr, language="yaml")

    def stale(message: dict) -> bool:
        params = message.get("params") or {}
        return params.get("uri") == uri and any(
            d["code"] == "i18nprune.lock.stale_translation" for d in params.get("diagnostics", [])
        )

    diagnostics = client.wait_for(stale, "a stale diagnostic")["params"]["diagnostics"]
    [mark] = [d for d in diagnostics if d["code"] == "i18nprune.lock.stale_translation"]
    lines = fr.read_text().splitlines()
    assert lines[mark["range"]["start"]["line"]].strip().startswith("bye:")

    saved = fr.read_text()
    version = client.change(fr, saved + "  greet: twice\n")
    [error] = client.diagnostics(uri, version)
    assert error["severity"] == 1 and error["code"] == "i18nprune.locale.invalid_syntax"
    assert error["range"]["start"]["line"] == len(lines)  # the line typed, 0-based
    assert fr.read_text() == saved  # nothing written

    code_uri = client.open(root / "src/app.ts")
    client.diagnostics(code_uri)
    found = client.request(
        "textDocument/definition", client.at(code_uri, 1, APP.splitlines()[1].index("bye"))
    )
    targets = {(Path(item["uri"]).name, item["range"]["start"]["line"]) for item in found}
    assert ("en.yml", 3) in targets
