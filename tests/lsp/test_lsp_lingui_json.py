"""`i18nprune lsp` on a Lingui app with hash-keyed JSON catalogs: a message is hovered and
diagnosed by the id its catalogs hold, not by its text."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from i18nprune.testing.lsp import LspClient
from tests.cli.test_lingui_json_app import APP, json_app


@pytest.mark.slow
def test_hover_shows_a_message_s_translations_under_its_generated_id(
    lsp: Callable[..., LspClient], tmp_path: Path
) -> None:
    root = json_app(tmp_path / "app")
    client = lsp()
    client.initialize(root)
    uri = client.open(root / "src/Wallet.tsx", language="typescriptreact")

    [missing] = client.diagnostics(uri)
    assert missing["message"] == "`2e2I/O` ('Rocket') is missing from the source locale `en`"
    assert missing["range"]["start"]["line"] == 8

    line = APP.splitlines()[2]
    hover = client.request("textDocument/hover", client.at(uri, 2, line.index("Connect") + 1))
    text = hover["contents"]["value"]
    assert text.startswith("**VHOVEJ**")
    assert "Wallet verbinden" in text and "`missing`" not in text
