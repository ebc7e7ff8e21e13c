"""`op.file` on a Lingui app with hash-keyed JSON catalogs, through a real `serve`: a message
the catalog lacks is reported by the id it would have there, with its text."""

from __future__ import annotations

from pathlib import Path

from i18nprune.envelope import Code
from tests.cli.test_lingui_json_app import json_app
from tests.serve.conftest import ServeFactory


def test_op_file_reports_a_missing_message_by_its_generated_id(
    serve: ServeFactory, tmp_path: Path
) -> None:
    root = json_app(tmp_path / "app")
    server = serve("--project", str(root))

    data = server.file("src/Wallet.tsx")["data"]

    found = {
        site["range"]["line"]: (site["key"], site["status"], site.get("message"))
        for site in data["sites"]
    }
    assert found == {
        3: ("Connect wallet", "ok", None),  # a site is shown by its message when it is there
        6: ("custom context\x04my message", "ok", None),
        7: ("Disconnect", "ok", None),
        8: ("wallet.title", "ok", None),
        9: ("2e2I/O", "missing", "Rocket"),
    }
    [missing] = [d for d in data["diagnostics"] if d["severity"] == "error"]
    assert missing["code"] == Code.VALIDATE_MISSING
    assert missing["message"] == "`2e2I/O` ('Rocket') is missing from the source locale `en`"
