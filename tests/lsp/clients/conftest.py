"""Real editor clients against `i18nprune lsp`: a project in a temp dir, the tools they need, and
the WorkspaceEdits they get applied the way an editor applies them.

A client tool that is missing skips its tests with the reason locally, and fails them in CI
(`CI` set), where `.ci/run` installs every one: a CI run never passes by skipping them.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from tests.conftest import cli_environment, write_tree
from tests.conftest import require_tool as require_installed

CLIENTS = Path(__file__).resolve().parent
SERVER = [sys.executable, "-m", "i18nprune", "lsp"]
CLIENT_SECONDS = 120
"""How long a client run may take before the test gives up (only a hang waits that long)."""

APP_TS = """\
import { useTranslation } from "react-i18next";

export function App(name: string, section: string) {
  const { t } = useTranslation();
  const title = t('home.title');
  const greeting = t('home.greeting', { name });
  const pay = t('checkout.pay');
  const about = t('nav.about');
  const current = t(`nav.${section}`);
  return [title, greeting, pay, about, current].join(" ");
}
"""
EN = {
    "home": {"title": "Welcome", "greeting": "Hello, {{name}}!"},
    "nav": {"about": "About"},
    "legacy": {"banner": "Old banner"},
}
FR = {
    "home": {"title": "Bienvenue"},
    "nav": {"about": "À propos"},
    "legacy": {"banner": "Ancienne bannière"},
}
CONFIG = {
    "locales": {"source": "en", "directory": "locales"},
    "src": "src",
    "functions": ["t"],
}
"""The project: `checkout.pay` is missing from every locale, `home.greeting` from fr only,
`legacy.banner` is used by no code, and `nav.${section}` is a dynamic site (it protects nav.*)."""


def require_tool(found: bool, what: str, how: str) -> None:
    """Skip (locally) or fail (in CI) when a client tool is not installed."""
    require_installed(found, what, how, "the editor clients")


def line_of(text: str, needle: str) -> int:
    """The 0-based line of the first `needle` in `text`."""
    return text[: text.index(needle)].count("\n")


def write_project(root: Path) -> Path:
    """A real project under `root`: the en/fr locale pair, a config, and `src/app.ts` using
    its keys."""
    return write_tree(
        root,
        {
            "i18nprune.config.json": CONFIG,
            "locales/en.json": EN,
            "locales/fr.json": FR,
            "src/app.ts": APP_TS,
        },
    )


def server_environment(home: Path) -> dict[str, str]:
    """The server's environment: the isolated data home `home` (created), no `CI`."""
    home.mkdir(parents=True, exist_ok=True)
    return cli_environment(home)


def path_of(uri: str) -> Path:
    return Path(unquote(urlparse(uri).path))


def leaf(document: dict[str, Any], key: str) -> Any:
    """The value of `key` in a locale document, nested by `.` or flat; None when absent."""
    if key in document:
        return document[key]
    node: Any = document
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def _offset(text: str, position: dict[str, int]) -> int:
    """The index in `text` of an LSP position counted in UTF-16 code units."""
    lines = text.split("\n")
    start = sum(len(line) + 1 for line in lines[: position["line"]])
    line = lines[position["line"]] if position["line"] < len(lines) else ""
    units = line.encode("utf-16-le")[: 2 * position["character"]]
    return start + len(units.decode("utf-16-le"))


def apply_text_edits(text: str, edits: list[dict[str, Any]]) -> str:
    """`text` with LSP TextEdits (UTF-16 positions, all against the original text) applied."""
    spans = sorted(
        ((_offset(text, e["range"]["start"]), _offset(text, e["range"]["end"]), e["newText"]))
        for e in edits
    )
    for start, end, new in reversed(spans):
        text = text[:start] + new + text[end:]
    return text


def edited_files(edit: dict[str, Any]) -> dict[Path, str]:
    """What a WorkspaceEdit's text edits make of the files on disk, as an editor would apply
    them (the files are not written)."""
    per_file: dict[Path, list[dict[str, Any]]] = {}
    for uri, edits in (edit.get("changes") or {}).items():
        per_file.setdefault(path_of(uri), []).extend(edits)
    for change in edit.get("documentChanges") or []:
        assert "kind" not in change, f"a file operation in a key edit: {change}"
        per_file.setdefault(path_of(change["textDocument"]["uri"]), []).extend(change["edits"])
    return {
        path: apply_text_edits(path.read_text(encoding="utf-8"), edits)
        for path, edits in per_file.items()
    }


def has_node_client() -> bool:
    return (
        shutil.which("node") is not None
        and (CLIENTS / "node" / "node_modules" / "vscode-languageserver-protocol").is_dir()
    )


def read_json(path: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded
