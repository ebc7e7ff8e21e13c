"""Angular's own i18n in the editor: a message in a template (`<p i18n>`) is a key use, so a
definition from it jumps to its unit in Angular's `messages.xlf`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from i18nprune.testing.lsp import LspClient
from tests.cli.test_xliff_locale_apps import LOCALE, SOURCE, angular_app


@pytest.mark.slow
def test_a_template_message_jumps_to_its_xliff_unit(
    lsp: Callable[..., LspClient], tmp_path: Path
) -> None:
    root = angular_app(tmp_path / "shop")
    client = lsp()
    client.initialize(root)
    page = root / "src/app/app.component.html"
    uri = client.open(page, language="html")
    client.diagnostics(uri)
    line = page.read_text().splitlines()[1]  # `<p i18n>Hello {{ user.name }}, read …`
    found = client.request("textDocument/definition", client.at(uri, 1, line.index("Hello")))
    unit_line = next(
        index for index, text in enumerate(SOURCE.splitlines()) if "3547957582396154513" in text
    )
    targets = {(Path(item["uri"]).name, item["range"]["start"]["line"]) for item in found}
    assert (Path(LOCALE, "messages.xlf").name, unit_line) in targets, found
