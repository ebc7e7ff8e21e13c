"""`i18nprune lsp` in a real Neovim: Debian's `neovim` (0.7), headless, with its built-in client
(`vim.lsp.start_client`). The Lua scenario opens `src/app.ts` of a real project, waits for the
diagnostics, opens the hover float, lists completion items, applies the code action that adds the
missing key and the rename of a key (Neovim applies each WorkspaceEdit itself; `:wall` writes
the buffers), and reports what Neovim saw; the files on disk are what the user would keep."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.lsp.clients.conftest import (
    APP_TS,
    CLIENT_SECONDS,
    CLIENTS,
    SERVER,
    leaf,
    line_of,
    read_json,
    require_tool,
    server_environment,
    write_project,
)

SCENARIO = CLIENTS / "neovim" / "scenario.lua"
ERROR, WARNING = 1, 2


def neovim_version() -> tuple[int, int] | None:
    """The installed Neovim's (major, minor), None when there is none."""
    nvim = shutil.which("nvim")
    if nvim is None:
        return None
    done = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=30)
    found = re.match(r"NVIM v(\d+)\.(\d+)", done.stdout)
    return (int(found[1]), int(found[2])) if found else None


@pytest.fixture(scope="module")
def neovim(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What Neovim reported after the whole scenario, plus the project it ran on."""
    version = neovim_version()
    require_tool(
        version is not None and version >= (0, 7),
        "Neovim ≥ 0.7 (nvim)",
        "apt-get install neovim",
    )
    base = tmp_path_factory.mktemp("neovim")
    root = write_project(base / "project")
    output = base / "report.json"
    scenario = {
        "cmd": SERVER,
        "root": str(root),
        "file": "src/app.ts",
        "output": str(output),
        "timeout_ms": CLIENT_SECONDS * 1000 // 4,
        "filetypes": ["typescript", "json"],
        "hover": {"find": "home.title", "offset": 2},
        "complete": {"find": "home.title"},
        "code_action": {
            "find": "checkout.pay",
            "offset": 2,
            "title": ["checkout.pay", "en.json"],
            "file": "locales/en.json",
        },
        "rename": {"find": "home.title", "offset": 2, "new_name": "home.heading"},
    }
    (base / "scenario.json").write_text(json.dumps(scenario))
    environment = server_environment(base / "home")
    environment["I18NPRUNE_NVIM_SCENARIO"] = str(base / "scenario.json")
    for name in ("CONFIG", "DATA", "STATE", "CACHE"):  # Neovim's own files, lsp.log among them
        environment[f"XDG_{name}_HOME"] = str(base / "xdg" / name.lower())
    done = subprocess.run(
        ["nvim", "--headless", "--clean", "-u", str(SCENARIO)],
        cwd=root,
        env=environment,
        capture_output=True,
        text=True,
        timeout=CLIENT_SECONDS,
        stdin=subprocess.DEVNULL,
    )
    if not output.exists():
        pytest.fail(f"Neovim wrote no report ({done.returncode}): {done.stdout}{done.stderr}")
    report: dict[str, Any] = json.loads(output.read_text())
    if not report["ok"]:
        log = Path(report["lsp_log"])
        pytest.fail(
            f"the Neovim scenario failed: {report['error']}\nwhat it saw: "
            + json.dumps(report["steps"], indent=1)
            + f"\nlsp.log:\n{log.read_text() if log.exists() else '(none)'}"
        )
    report["root"] = root
    return report


def _steps(neovim: dict[str, Any]) -> dict[str, Any]:
    steps: dict[str, Any] = neovim["steps"]
    return steps


@pytest.mark.slow
def test_neovim_negotiates_utf16(neovim: dict[str, Any]) -> None:
    assert _steps(neovim)["offset_encoding"] == "utf-16"
    assert _steps(neovim)["filetype"] == "typescript"


def test_neovim_shows_the_missing_keys(neovim: dict[str, Any]) -> None:
    diagnostics = _steps(neovim)["diagnostics"]
    errors = [d for d in diagnostics if d["severity"] == ERROR]
    assert [(d["lnum"], d["code"], d["source"]) for d in errors] == [
        (line_of(APP_TS, "checkout.pay"), "i18nprune.validate.missing_literal_keys", "i18nprune")
    ]
    assert "checkout.pay" in errors[0]["message"]
    warnings = [d for d in diagnostics if d["severity"] == WARNING]
    assert [d["lnum"] for d in warnings] == [line_of(APP_TS, "home.greeting")]
    assert "fr" in warnings[0]["message"]


def test_neovim_hover_float_shows_every_locale(neovim: dict[str, Any]) -> None:
    text = "\n".join(_steps(neovim)["hover"])
    assert "home.title" in text
    assert "Welcome" in text
    assert "Bienvenue" in text


def test_neovim_completion_offers_the_source_keys(neovim: dict[str, Any]) -> None:
    items = {item["word"]: item for item in _steps(neovim)["completion"]}
    assert {"home.title", "home.greeting", "nav.about", "legacy.banner"} <= set(items)
    assert "Welcome" in items["home.title"]["menu"]  # the detail column of Neovim's menu


def test_neovim_applies_the_code_action_that_adds_the_missing_key(
    neovim: dict[str, Any],
) -> None:
    action = _steps(neovim)["code_action"]
    assert action["chosen"], action["offered"]
    assert "en.json" in action["chosen"]
    written = read_json(neovim["root"] / "locales/en.json")
    assert leaf(written, "checkout.pay") is not None
    assert leaf(written, "legacy.banner") == "Old banner"


def test_neovim_clears_the_error_once_the_key_is_saved(neovim: dict[str, Any]) -> None:
    assert _steps(neovim)["error_cleared_after_code_action"] is True
    after = _steps(neovim)["diagnostics_after_code_action"]
    assert not [d for d in after if d["severity"] == ERROR]


def test_neovim_rename_rewrites_code_and_every_locale(neovim: dict[str, Any]) -> None:
    root: Path = neovim["root"]
    code = (root / "src/app.ts").read_text()
    assert "t('home.heading')" in code
    assert "home.title" not in code
    for name, value in (("en.json", "Welcome"), ("fr.json", "Bienvenue")):
        document = read_json(root / "locales" / name)
        assert leaf(document, "home.heading") == value, name
        assert leaf(document, "home.title") is None, name
    # the key the code action added survives the rename
    assert leaf(read_json(root / "locales/en.json"), "checkout.pay") is not None


def test_neovim_server_exits_on_shutdown(neovim: dict[str, Any]) -> None:
    assert neovim["server_exit"] == {"code": 0, "signal": 0}
