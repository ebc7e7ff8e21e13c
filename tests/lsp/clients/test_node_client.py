"""`i18nprune lsp` driven by Microsoft's Node client (`vscode-languageserver-protocol`, the
library VS Code's own client is built on) over stdio: one session on a real project opens the
code and the locale files, and asks for everything an editor asks for. Inlay hints are tested
here: Debian's Neovim (0.7) has none."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.lsp.clients.conftest import (
    APP_TS,
    CLIENT_SECONDS,
    CLIENTS,
    SERVER,
    edited_files,
    has_node_client,
    leaf,
    line_of,
    path_of,
    require_tool,
    server_environment,
    write_project,
)

DRIVER = CLIENTS / "node" / "driver.js"
MISSING = "i18nprune.validate.missing_literal_keys"
ERROR, WARNING, INFORMATION, HINT = 1, 2, 3, 4
UNNECESSARY = 1


@dataclass
class Session:
    """What the driver printed: the initialize result, each named step, every notification."""

    root: Path
    records: list[dict[str, Any]]

    @property
    def initialize(self) -> dict[str, Any]:
        return next(r["initialize"] for r in self.records if "initialize" in r)

    def step(self, name: str) -> dict[str, Any]:
        return next(r for r in self.records if r.get("name") == name)

    def result(self, name: str) -> Any:
        record = self.step(name)
        assert "error" not in record, f"{name}: the server answered an error: {record['error']}"
        return record["result"]

    @property
    def exit(self) -> dict[str, Any]:
        return next(r for r in self.records if "exit" in r)


def require_node_client() -> None:
    require_tool(
        has_node_client(),
        "the Node client (node, and tests/lsp/clients/node/node_modules)",
        "run `npm ci` in tests/lsp/clients/node",
    )


def run_node(root: Path, home: Path, steps: list[dict[str, Any]], **extra: Any) -> Session:
    """Run the Node driver's scenario against `i18nprune lsp` in `root`."""
    scenario = {
        "server": {"command": SERVER[0], "args": SERVER[1:], "env": server_environment(home)},
        "root": str(root),
        "timeoutMs": CLIENT_SECONDS * 1000 // 2,
        "steps": steps,
        **extra,
    }
    path = root.parent / "scenario.json"
    path.write_text(json.dumps(scenario))
    done = subprocess.run(
        [shutil.which("node") or "node", str(DRIVER), str(path)],
        capture_output=True,
        text=True,
        timeout=CLIENT_SECONDS,
        stdin=subprocess.DEVNULL,
    )
    records = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    failed = [r for r in records if "failed" in r]
    if done.returncode != 0 or failed:
        pytest.fail(
            f"the Node client failed ({done.returncode}): {done.stderr}\n"
            + "\n".join(json.dumps(r) for r in records)
        )
    return Session(root, records)


SESSION_STEPS: list[dict[str, Any]] = [
    {"op": "open", "path": "src/app.ts", "languageId": "typescript"},
    {
        "name": "diagnostics",
        "op": "diagnostics",
        "path": "src/app.ts",
        "has": [{"severity": ERROR}, {"severity": WARNING}, {"severity": HINT}],
    },
    {
        "name": "hover title",
        "op": "request",
        "method": "textDocument/hover",
        "path": "src/app.ts",
        "at": "home.title",
        "offset": 2,
    },
    {
        "name": "hover greeting",
        "op": "request",
        "method": "textDocument/hover",
        "path": "src/app.ts",
        "at": "home.greeting",
        "offset": 2,
    },
    {
        "name": "completion",
        "op": "request",
        "method": "textDocument/completion",
        "path": "src/app.ts",
        "at": "home.title",
        "params": {"context": {"triggerKind": 2, "triggerCharacter": "'"}},
    },
    {
        "name": "resolve title",
        "op": "resolveCompletion",
        "from": "completion",
        "label": "home.title",
    },
    {
        "name": "definition title",
        "op": "request",
        "method": "textDocument/definition",
        "path": "src/app.ts",
        "at": "home.title",
        "offset": 2,
    },
    {
        "name": "definition greeting",
        "op": "request",
        "method": "textDocument/definition",
        "path": "src/app.ts",
        "at": "home.greeting",
        "offset": 2,
    },
    {
        "name": "inlay hints",
        "op": "request",
        "method": "textDocument/inlayHint",
        "path": "src/app.ts",
        "range": "document",
    },
    {
        "name": "code action",
        "op": "request",
        "method": "textDocument/codeAction",
        "path": "src/app.ts",
        "at": "checkout.pay",
        "offset": 2,
        "withDiagnostics": True,
        "params": {"context": {"only": ["quickfix"]}},
    },
    {
        "name": "prepare rename",
        "op": "request",
        "method": "textDocument/prepareRename",
        "path": "src/app.ts",
        "at": "home.title",
        "offset": 2,
    },
    {
        "name": "prepare rename protected",
        "op": "request",
        "method": "textDocument/prepareRename",
        "path": "src/app.ts",
        "at": "nav.about",
        "offset": 2,
    },
    {
        "name": "rename",
        "op": "request",
        "method": "textDocument/rename",
        "path": "src/app.ts",
        "at": "home.title",
        "offset": 2,
        "params": {"newName": "home.heading"},
    },
    {
        "name": "type the missing key away",
        "op": "change",
        "path": "src/app.ts",
        "at": "checkout.pay",
        "delete": len("checkout.pay"),
        "insert": "home.title",
    },
    {
        "name": "diagnostics after change",
        "op": "diagnostics",
        "path": "src/app.ts",
        "lacks": [{"severity": ERROR}],
    },
    {"op": "open", "path": "locales/en.json", "languageId": "json"},
    {
        "name": "source locale diagnostics",
        "op": "diagnostics",
        "path": "locales/en.json",
        "has": [{"severity": HINT}],
    },
]


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Session:
    """One session of the Node client on a fresh project (the server is started once)."""
    require_node_client()
    base = tmp_path_factory.mktemp("node-client")
    return run_node(write_project(base / "project"), base / "home", SESSION_STEPS)


def _markdown(contents: Any) -> str:
    """The text of hover or documentation contents as a reader sees it (markdown's backslash
    escapes of punctuation removed)."""
    if isinstance(contents, dict):
        return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", str(contents["value"]))
    if isinstance(contents, list):
        return "\n".join(_markdown(part) for part in contents)
    return str(contents)


def _diagnostics(session: Session, name: str) -> list[dict[str, Any]]:
    diagnostics: list[dict[str, Any]] = session.result(name)["diagnostics"]
    return diagnostics


@pytest.mark.slow
def test_server_negotiates_utf16_and_offers_the_editor_features(session: Session) -> None:
    capabilities = session.initialize["capabilities"]
    assert capabilities["positionEncoding"] == "utf-16"
    assert capabilities["textDocumentSync"]["change"] == 2
    for provider in (
        "hoverProvider",
        "completionProvider",
        "definitionProvider",
        "inlayHintProvider",
        "codeActionProvider",
        "renameProvider",
    ):
        assert capabilities.get(provider), provider
    assert capabilities["renameProvider"]["prepareProvider"] is True


def test_key_missing_from_the_source_is_an_error_on_its_call(session: Session) -> None:
    line = line_of(APP_TS, "checkout.pay")
    errors = [d for d in _diagnostics(session, "diagnostics") if d["severity"] == ERROR]
    assert len(errors) == 1
    (error,) = errors
    assert error["source"] == "i18nprune"
    assert error["code"] == MISSING
    assert error["range"]["start"]["line"] == line
    column = APP_TS.split("\n")[line].index("checkout.pay")
    assert error["range"]["start"]["character"] <= column
    assert error["range"]["end"]["character"] >= column + len("checkout.pay")
    assert "checkout.pay" in error["message"]


def test_key_missing_from_a_target_is_a_warning_naming_it(session: Session) -> None:
    warnings = [d for d in _diagnostics(session, "diagnostics") if d["severity"] == WARNING]
    greeting = [d for d in warnings if d["range"]["start"]["line"] == line_of(APP_TS, "greeting")]
    assert len(greeting) == 1
    assert "fr" in greeting[0]["message"]
    assert greeting[0]["source"] == "i18nprune"
    # home.title is in both locales: nothing on its line
    title_line = line_of(APP_TS, "home.title")
    assert not [
        d for d in _diagnostics(session, "diagnostics") if d["range"]["start"]["line"] == title_line
    ]


def test_dynamic_site_is_a_hint(session: Session) -> None:
    hints = [d for d in _diagnostics(session, "diagnostics") if d["severity"] == HINT]
    assert [d["range"]["start"]["line"] for d in hints] == [line_of(APP_TS, "nav.${")]


def test_hover_shows_the_value_in_every_locale(session: Session) -> None:
    text = _markdown(session.result("hover title")["contents"])
    assert "home.title" in text
    assert "Welcome" in text
    assert "Bienvenue" in text


def test_hover_marks_the_locale_a_key_is_missing_from(session: Session) -> None:
    text = _markdown(session.result("hover greeting")["contents"])
    assert "Hello, {{name}}!" in text
    fr_lines = [line for line in text.splitlines() if "fr" in line]
    assert fr_lines and any("missing" in line.lower() for line in fr_lines), text


def test_completion_lists_the_source_keys_with_their_values(session: Session) -> None:
    answer = session.result("completion")
    items = answer["items"] if isinstance(answer, dict) else answer
    by_label = {item["label"]: item for item in items}
    assert {"home.title", "home.greeting", "nav.about", "legacy.banner"} <= set(by_label)
    assert "checkout.pay" not in by_label  # not in the source locale
    assert "Welcome" in by_label["home.title"]["detail"]  # what the list shows


def test_completion_item_resolves_to_the_value_in_every_locale(session: Session) -> None:
    resolved = session.result("resolve title")
    assert resolved["label"] == "home.title"
    documentation = _markdown(resolved["documentation"])
    assert "Welcome" in documentation
    assert "Bienvenue" in documentation


def test_definition_goes_to_the_leaf_in_each_locale(session: Session) -> None:
    locations = session.result("definition title")
    targets = {path_of(loc["uri"]).name: loc["range"]["start"]["line"] for loc in locations}
    assert set(targets) == {"en.json", "fr.json"}
    for name, line in targets.items():
        text = (session.root / "locales" / name).read_text(encoding="utf-8")
        assert line == line_of(text, '"title"'), name


def test_definition_of_a_key_missing_from_a_target_goes_to_the_source_only(
    session: Session,
) -> None:
    locations = session.result("definition greeting")
    assert [path_of(loc["uri"]).name for loc in locations] == ["en.json"]


def test_inlay_hints_show_the_source_value_after_each_site(session: Session) -> None:
    hints = session.result("inlay hints")

    def label(hint: dict[str, Any]) -> str:
        if isinstance(hint["label"], str):
            return hint["label"]
        return "".join(part["value"] for part in hint["label"])

    by_line = {hint["position"]["line"]: label(hint) for hint in hints}
    assert "Welcome" in by_line[line_of(APP_TS, "home.title")]
    assert "Hello, {{name}}!" in by_line[line_of(APP_TS, "home.greeting")]
    assert "About" in by_line[line_of(APP_TS, "nav.about")]
    # a site past its key's string: the hint follows the site
    title = APP_TS.split("\n")[line_of(APP_TS, "home.title")]
    hint = next(h for h in hints if h["position"]["line"] == line_of(APP_TS, "home.title"))
    assert hint["position"]["character"] >= title.index("home.title") + len("home.title")


def test_code_action_adds_the_missing_key_to_the_source_locale(session: Session) -> None:
    actions = session.result("code action")
    adds = [a for a in actions if "checkout.pay" in a["title"] and "en.json" in a["title"]]
    assert len(adds) == 1, [a["title"] for a in actions]
    edited = edited_files(adds[0]["edit"])
    assert set(edited) == {session.root / "locales" / "en.json"}
    document = json.loads(edited[session.root / "locales" / "en.json"])
    assert leaf(document, "checkout.pay") is not None
    assert leaf(document, "home.title") == "Welcome"  # the rest is kept


def test_prepare_rename_of_a_plain_key_is_allowed(session: Session) -> None:
    answer = session.result("prepare rename")
    assert answer is not None
    line = line_of(APP_TS, "home.title")
    rng = answer.get("range", answer)
    assert rng["start"]["line"] == line


def test_prepare_rename_of_a_key_a_dynamic_site_may_use_is_refused(session: Session) -> None:
    record = session.step("prepare rename protected")
    assert "error" in record or record["result"] is None, record
    if "error" in record:
        assert "nav" in record["error"]["message"], record["error"]


def test_rename_changes_every_code_site_and_locale_file(session: Session) -> None:
    edited = edited_files(session.result("rename"))
    root = session.root
    assert set(edited) == {root / "src/app.ts", root / "locales/en.json", root / "locales/fr.json"}
    assert "t('home.heading')" in edited[root / "src/app.ts"]
    assert "home.title" not in edited[root / "src/app.ts"]
    for name, value in (("en.json", "Welcome"), ("fr.json", "Bienvenue")):
        document = json.loads(edited[root / "locales" / name])
        assert leaf(document, "home.heading") == value, name
        assert leaf(document, "home.title") is None, name


def test_rename_keeps_the_leaf_where_it_was(session: Session) -> None:
    edited = edited_files(session.result("rename"))
    for name in ("en.json", "fr.json"):
        before = json.loads((session.root / "locales" / name).read_text(encoding="utf-8"))
        after = json.loads(edited[session.root / "locales" / name])
        assert list(after) == list(before), name
        assert [k.replace("title", "heading") for k in before["home"]] == list(after["home"]), name


def test_typing_the_missing_key_away_clears_its_error(session: Session) -> None:
    diagnostics = _diagnostics(session, "diagnostics after change")
    assert not [d for d in diagnostics if d["severity"] == ERROR]
    assert [d for d in diagnostics if d["severity"] == WARNING]  # the fr warning stays


def test_unused_key_in_the_source_locale_is_an_unnecessary_hint(session: Session) -> None:
    text = (session.root / "locales/en.json").read_text(encoding="utf-8")
    hints = [d for d in _diagnostics(session, "source locale diagnostics") if d["severity"] == HINT]
    assert [d["range"]["start"]["line"] for d in hints] == [line_of(text, '"banner"')]
    assert hints[0]["tags"] == [UNNECESSARY]


BREAK_FR: list[dict[str, Any]] = [
    {"op": "open", "path": "locales/fr.json", "languageId": "json"},
    {"name": "opened", "op": "diagnostics", "path": "locales/fr.json"},
    {
        "name": "break fr.json",
        "op": "change",
        "path": "locales/fr.json",
        "at": '"nav"',
        "delete": 1,
        "insert": "",
    },
]


def _invalid_json_error_line(session: Session, name: str) -> int:
    errors = [d for d in _diagnostics(session, name) if d["severity"] == ERROR]
    assert len(errors) == 1, _diagnostics(session, name)
    line: int = errors[0]["range"]["start"]["line"]
    return line


@pytest.mark.slow
def test_invalid_json_typed_in_a_locale_buffer_is_an_error_at_its_line(tmp_path: Path) -> None:
    require_node_client()
    steps = [*BREAK_FR, {"name": "broken", "op": "diagnostics", "path": "locales/fr.json"}]
    session = run_node(write_project(tmp_path / "project"), tmp_path / "home", steps)
    change = session.step("break fr.json")["change"]
    assert _invalid_json_error_line(session, "broken") == change["range"]["start"]["line"]


@pytest.mark.slow
def test_invalid_json_saved_in_a_locale_file_is_an_error_at_its_line(tmp_path: Path) -> None:
    require_node_client()
    steps = [
        *BREAK_FR,
        {"op": "save", "path": "locales/fr.json"},
        {
            "name": "saved",
            "op": "diagnostics",
            "path": "locales/fr.json",
            "has": [{"severity": ERROR}],
        },
    ]
    session = run_node(write_project(tmp_path / "project"), tmp_path / "home", steps)
    assert not _diagnostics(session, "opened")  # fr.json was valid, and has no unused key
    change = session.step("break fr.json")["change"]
    assert _invalid_json_error_line(session, "saved") == change["range"]["start"]["line"]


def test_server_exits_cleanly_after_shutdown(session: Session) -> None:
    assert session.exit["exit"] == 0, session.exit["stderr"]


UNICODE_LINE = "  const globe = \"🌍 ü\"; const pay = t('checkout.pay');\n"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("offered", "encoding", "column"),
    [
        (None, "utf-16", len('  const globe = "🌍 ü"; const pay = t(\''.encode("utf-16-le")) // 2),
        (["utf-8", "utf-16"], "utf-8", len('  const globe = "🌍 ü"; const pay = t(\''.encode())),
    ],
    ids=["utf-16 by default", "utf-8 when offered"],
)
def test_positions_count_in_the_negotiated_encoding(
    tmp_path: Path, offered: list[str] | None, encoding: str, column: int
) -> None:
    require_node_client()
    root = write_project(tmp_path / "project")
    app = root / "src/app.ts"
    app.write_text(UNICODE_LINE.join(APP_TS.split("  const pay = t('checkout.pay');\n")))
    steps: list[dict[str, Any]] = [
        {"op": "open", "path": "src/app.ts", "languageId": "typescript"},
        {
            "name": "diagnostics",
            "op": "diagnostics",
            "path": "src/app.ts",
            "has": [{"severity": ERROR}],
        },
        {
            "name": "hover",
            "op": "request",
            "method": "textDocument/hover",
            "path": "src/app.ts",
            "at": "home.title",
            "offset": 2,
        },
    ]
    extra = {"positionEncodings": offered} if offered else {}
    session = run_node(root, tmp_path / "home", steps, **extra)
    assert session.initialize["capabilities"]["positionEncoding"] == encoding
    (error,) = [d for d in _diagnostics(session, "diagnostics") if d["severity"] == ERROR]
    assert error["range"]["start"]["line"] == line_of(app.read_text(), "checkout.pay")
    # the range covers the key, counted in the negotiated unit
    assert error["range"]["start"]["character"] <= column
    assert error["range"]["end"]["character"] >= column + len("checkout.pay")
    assert "Welcome" in _markdown(session.result("hover")["contents"])
