"""`i18nprune lsp` against a real project in a temp dir: diagnostics, hover, completion,
definition, references, inlay hints, code actions, rename — each through the real server."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from i18nprune.testing.lsp import LspClient, LspFailure

APP = """import { useTranslation } from 'react-i18next';

export function App({ x }: { x: string }) {
  const { t } = useTranslation();
  return [t('home.title'), t('home.subtitle'), t('home.missing'), t(`nav.${x}`)];
}
"""


def make_project(root: Path) -> Path:
    (root / "locales").mkdir(parents=True)
    (root / "src").mkdir()
    (root / "locales/en.json").write_text(
        json.dumps(
            {"home": {"title": "Welcome", "subtitle": "Hello there"}, "old": {"key": "Old"}},
            indent=2,
        )
        + "\n"
    )
    (root / "locales/fr.json").write_text(
        json.dumps({"home": {"title": "Bienvenue"}, "old": {"key": "Vieux"}}, indent=2) + "\n"
    )
    (root / "i18nprune.config.json").write_text(
        json.dumps({"locales": {"source": "en", "directory": "locales"}, "src": "src"})
    )
    (root / "src/app.tsx").write_text(APP)
    return root


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path / "shop")


def by_code(diagnostics: list[dict]) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {}
    for diagnostic in diagnostics:
        found.setdefault(diagnostic["code"], []).append(diagnostic)
    return found


@pytest.mark.slow
def test_code_diagnostics_name_the_missing_source_and_target_keys_and_the_dynamic_site(
    lsp: Callable[..., LspClient], project: Path
) -> None:
    client = lsp()
    result = client.initialize(project)
    assert result["capabilities"]["positionEncoding"] == "utf-16"
    uri = client.open(project / "src/app.tsx")

    diagnostics = by_code(client.diagnostics(uri))

    [missing] = diagnostics["i18nprune.validate.missing_literal_keys"]
    assert missing["severity"] == 1
    assert "`home.missing` is missing from the source locale `en`" in missing["message"]
    assert missing["range"]["start"]["line"] == 4
    [targets] = diagnostics["i18nprune.lsp.missing_in_targets"]
    assert targets["severity"] == 2
    assert "`home.subtitle`" in targets["message"] and "fr" in targets["message"]
    [dynamic] = diagnostics["i18nprune.validate.dynamic_key_sites"]
    assert dynamic["severity"] == 4 and "`nav.`" in dynamic["message"]


@pytest.mark.slow
def test_an_unsaved_change_is_checked_in_memory_and_a_fix_clears_it(
    lsp: Callable[..., LspClient], project: Path
) -> None:
    client = lsp()
    client.initialize(project)
    path = project / "src/app.tsx"
    uri = client.open(path)
    client.diagnostics(uri)

    version = client.change(path, APP.replace("home.missing", "home.title"))
    after = by_code(client.diagnostics(uri, version))

    assert "i18nprune.validate.missing_literal_keys" not in after
    assert path.read_text() == APP  # nothing written

    version = client.change(path, APP.replace("home.missing", "home.typo"))
    again = by_code(client.diagnostics(uri, version))
    assert "`home.typo`" in again["i18nprune.validate.missing_literal_keys"][0]["message"]


@pytest.mark.slow
def test_hover_shows_every_locale_and_definition_finds_each_locale_file(
    lsp: Callable[..., LspClient], project: Path
) -> None:
    client = lsp()
    client.initialize(project)
    uri = client.open(project / "src/app.tsx")
    client.diagnostics(uri)
    line = APP.splitlines()[4]
    at_subtitle = client.at(uri, 4, line.index("home.subtitle") + 2)

    hover = client.request("textDocument/hover", at_subtitle)
    text = hover["contents"]["value"]
    assert "Hello there" in text and "**fr**: `missing`" in text

    definitions = client.request(
        "textDocument/definition", client.at(uri, 4, line.index("home.title") + 1)
    )
    files = sorted(Path(d["uri"].removeprefix("file://")).name for d in definitions)
    assert files == ["en.json", "fr.json"]
    en = next(d for d in definitions if d["uri"].endswith("en.json"))
    en_lines = (project / "locales/en.json").read_text().splitlines()
    start = en["range"]["start"]
    assert en_lines[start["line"]][start["character"] :].startswith('"title"')


@pytest.mark.slow
def test_completion_offers_source_keys_inside_the_call_string(
    lsp: Callable[..., LspClient], project: Path
) -> None:
    client = lsp()
    client.initialize(project)
    path = project / "src/app.tsx"
    uri = client.open(path)
    client.diagnostics(uri)
    text = APP.replace("t('home.missing')", "t('home.s')")
    version = client.change(path, text)
    client.diagnostics(uri, version)
    line = text.splitlines()[4]
    column = line.index("home.s") + len("home.s")

    result = client.request("textDocument/completion", client.at(uri, 4, column))

    labels = [item["label"] for item in result["items"]]
    assert labels == ["home.subtitle"]
    assert result["items"][0]["textEdit"]["newText"] == "home.subtitle"
    resolved = client.request("completionItem/resolve", result["items"][0])
    assert "Hello there" in resolved["documentation"]["value"]


@pytest.mark.slow
def test_inlay_hints_show_the_source_text_after_each_site(
    lsp: Callable[..., LspClient], project: Path
) -> None:
    client = lsp()
    client.initialize(project)
    uri = client.open(project / "src/app.tsx")
    client.diagnostics(uri)

    hints = client.request(
        "textDocument/inlayHint",
        {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}},
        },
    )

    labels = [hint["label"] for hint in hints]
    assert "“Welcome”" in labels and "“Hello there”" in labels
    assert any("missing" in label for label in labels)


@pytest.mark.slow
def test_the_quick_fix_adds_the_missing_key_to_the_source_locale_as_an_edit(
    lsp: Callable[..., LspClient], project: Path
) -> None:
    client = lsp()
    client.initialize(project)
    uri = client.open(project / "src/app.tsx")
    diagnostics = client.diagnostics(uri)
    missing = [d for d in diagnostics if d["code"] == "i18nprune.validate.missing_literal_keys"]

    actions = client.request(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": uri},
            "range": missing[0]["range"],
            "context": {"diagnostics": missing},
        },
    )

    [action] = [a for a in actions if "en.json" in a["title"]]
    [(target, edits)] = action["edit"]["changes"].items()
    assert target == (project / "locales/en.json").as_uri()
    before = (project / "locales/en.json").read_text()
    after = apply(before, edits)
    assert json.loads(after)["home"]["missing"] == "__I18NPRUNE_MISSING__"  # as `missing` adds it
    assert (project / "locales/en.json").read_text() == before  # the editor applies it


@pytest.mark.slow
def test_references_list_every_code_site_and_rename_edits_code_and_locales(
    lsp: Callable[..., LspClient], project: Path
) -> None:
    client = lsp()
    client.initialize(project)
    uri = client.open(project / "src/app.tsx")
    client.diagnostics(uri)
    line = APP.splitlines()[4]
    at_title = client.at(uri, 4, line.index("home.title") + 1)

    references = client.request(
        "textDocument/references", {**at_title, "context": {"includeDeclaration": False}}
    )
    assert [r["uri"] for r in references] == [uri]

    prepared = client.request("textDocument/prepareRename", at_title)
    assert prepared["placeholder"] == "home.title"
    edit = client.request("textDocument/rename", {**at_title, "newName": "home.heading"})
    changes = edit["changes"]
    code = apply(APP, changes[uri])
    assert "t('home.heading')" in code and "home.title" not in code
    for name, value in (("en.json", "Welcome"), ("fr.json", "Bienvenue")):
        file = project / "locales" / name
        renamed = json.loads(apply(file.read_text(), changes[file.as_uri()]))
        assert renamed["home"]["heading"] == value and "title" not in renamed["home"]


@pytest.mark.slow
def test_rename_is_refused_where_a_dynamic_site_may_build_the_key(
    lsp: Callable[..., LspClient], project: Path
) -> None:
    en = project / "locales/en.json"
    en.write_text(
        json.dumps({"home": {"title": "Welcome", "subtitle": "Hi"}, "nav": {"home": "Home"}})
    )
    client = lsp()
    client.initialize(project)
    uri = client.open(en, language="json")
    client.diagnostics(uri)
    text = en.read_text()
    column = text.index('"home": "Home"') + 2

    with pytest.raises(LspFailure) as refused:
        client.request("textDocument/prepareRename", client.at(uri, 0, column))
    assert "`nav.`" in refused.value.message


@pytest.mark.slow
def test_a_locale_file_marks_unused_keys_and_offers_to_remove_them_everywhere(
    lsp: Callable[..., LspClient], project: Path
) -> None:
    client = lsp()
    client.initialize(project)
    en = project / "locales/en.json"
    uri = client.open(en, language="json")

    def unused_published(message: dict) -> bool:
        params = message.get("params") or {}
        return params.get("uri") == uri and any(
            d["code"] == "i18nprune.cleanup.unused_key" for d in params.get("diagnostics", [])
        )

    published = client.wait_for(unused_published, "unused-key hints")["params"]["diagnostics"]
    [unused] = [d for d in published if d["code"] == "i18nprune.cleanup.unused_key"]
    assert unused["tags"] == [1] and unused["severity"] == 4
    assert "`old.key`" in unused["message"]

    actions = client.request(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": uri},
            "range": unused["range"],
            "context": {"diagnostics": [unused]},
        },
    )
    remove = next(a for a in actions if a["kind"] == "quickfix")
    for file in ("en.json", "fr.json"):
        path = project / "locales" / file
        assert "old" not in json.loads(
            apply(path.read_text(), remove["edit"]["changes"][path.as_uri()])
        )


@pytest.mark.slow
def test_invalid_json_in_a_locale_file_is_an_error_at_its_line(
    lsp: Callable[..., LspClient], project: Path
) -> None:
    fr = project / "locales/fr.json"
    fr.write_text('{\n  "home": {\n    "title": "Bienvenue",\n  }\n}\n')
    client = lsp()
    client.initialize(project)
    uri = client.open(fr, language="json")

    diagnostics = client.diagnostics(uri)

    errors = [d for d in diagnostics if d["severity"] == 1]
    assert errors and errors[0]["range"]["start"]["line"] in (2, 3)


def apply(text: str, edits: list[dict]) -> str:
    """Apply LSP text edits (UTF-16 positions; ASCII here) to `text`."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def offset(position: dict) -> int:
        return starts[position["line"]] + position["character"]

    for edit in sorted(edits, key=lambda e: offset(e["range"]["start"]), reverse=True):
        text = (
            text[: offset(edit["range"]["start"])]
            + edit["newText"]
            + text[offset(edit["range"]["end"]) :]
        )
    return text


@pytest.mark.slow
def test_completion_in_an_empty_call_offers_the_namespace_its_hook_names(
    lsp: Callable[..., LspClient], tmp_path: Path
) -> None:
    root = tmp_path / "ns"
    for namespace, keys in (("common", {"ok": "OK"}), ("shop", {"cart": {"title": "Cart"}})):
        (root / "locales/en").mkdir(parents=True, exist_ok=True)
        (root / f"locales/en/{namespace}.json").write_text(json.dumps(keys))
    (root / "src").mkdir()
    code = (
        "import { useTranslation } from 'react-i18next';\n"
        "export function Cart() {\n"
        "  const { t } = useTranslation('shop');\n"
        "  return t('');\n"
        "}\n"
    )
    (root / "src/cart.tsx").write_text(code)
    (root / "i18nprune.config.json").write_text(
        json.dumps(
            {
                "locales": {"source": "en", "directory": "locales", "namespaces": "file"},
                "src": "src",
            }
        )
    )
    client = lsp()
    client.initialize(root)
    uri = client.open(root / "src/cart.tsx")
    client.diagnostics(uri)
    line = code.splitlines()[3]

    result = client.request("textDocument/completion", client.at(uri, 3, line.index("''") + 1))

    assert [item["label"] for item in result["items"]] == ["cart.title"]


@pytest.mark.slow
def test_a_renamed_key_keeps_its_place_in_each_locale_file(
    lsp: Callable[..., LspClient], project: Path
) -> None:
    client = lsp()
    client.initialize(project)
    uri = client.open(project / "src/app.tsx")
    client.diagnostics(uri)
    line = APP.splitlines()[4]

    edit = client.request(
        "textDocument/rename",
        {**client.at(uri, 4, line.index("home.title") + 1), "newName": "home.heading"},
    )

    en = project / "locales/en.json"
    renamed = json.loads(apply(en.read_text(), edit["changes"][en.as_uri()]))
    assert list(renamed["home"]) == ["heading", "subtitle"]


@pytest.mark.slow
def test_invalid_json_typed_in_an_unsaved_locale_buffer_is_an_error_at_once(
    lsp: Callable[..., LspClient], project: Path
) -> None:
    client = lsp()
    client.initialize(project)
    fr = project / "locales/fr.json"
    uri = client.open(fr, language="json")
    client.diagnostics(uri)

    version = client.change(fr, fr.read_text().replace('"Bienvenue"', '"Bienvenue",'))
    diagnostics = client.diagnostics(uri, version)

    [error] = diagnostics
    assert error["severity"] == 1 and error["range"]["start"]["line"] == 2
    assert json.loads(fr.read_text())["home"]["title"] == "Bienvenue"  # nothing written


@pytest.mark.slow
def test_code_actions_ignore_other_servers_diagnostics(
    lsp: Callable[..., LspClient], project: Path
) -> None:
    client = lsp()
    client.initialize(project)
    uri = client.open(project / "src/app.tsx")
    missing = [
        d for d in client.diagnostics(uri) if d["code"] == "i18nprune.validate.missing_literal_keys"
    ]
    foreign = {"range": missing[0]["range"], "message": "Unexpected any", "source": "eslint"}

    actions = client.request(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": uri},
            "range": missing[0]["range"],
            "context": {"diagnostics": [foreign, {"message": "no source"}, *missing]},
        },
    )

    assert [a["title"] for a in actions] == ["Add `home.missing` to locales/en.json"]


def test_symbols_list_a_locale_files_keys_and_the_workspaces_keys(
    lsp: Callable[..., LspClient], project: Path
) -> None:
    client = lsp()
    client.initialize(project)
    en = project / "locales/en.json"
    uri = client.open(en, language="json")
    client.diagnostics(uri)

    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    found = client.request("workspace/symbol", {"query": "SUBT"})

    names = [symbol["name"] for symbol in symbols]
    assert {"home.title", "home.subtitle", "old.key"} <= set(names)
    lines = en.read_text().splitlines()
    title = next(symbol for symbol in symbols if symbol["name"] == "home.title")
    assert lines[title["location"]["range"]["start"]["line"]].strip().startswith('"title"')
    assert [symbol["name"] for symbol in found] == ["home.subtitle"]
    assert found[0]["location"]["uri"] == en.as_uri()


@pytest.mark.slow
def test_the_source_action_removes_every_unused_key_of_a_locale_file(
    lsp: Callable[..., LspClient], project: Path
) -> None:
    en = project / "locales/en.json"
    en.write_text(
        json.dumps(
            {"home": {"title": "Welcome", "subtitle": "Hi"}, "old": {"key": "Old", "two": "Two"}},
            indent=2,
        )
    )
    client = lsp()
    client.initialize(project)
    uri = client.open(en, language="json")
    client.wait_for(
        lambda m: (
            (m.get("params") or {}).get("uri") == uri
            and any(d["code"] == "i18nprune.cleanup.unused_key" for d in m["params"]["diagnostics"])
        ),
        "the unused-key hints",
    )

    actions = client.request(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": [], "only": ["source.i18nprune.removeUnused"]},
        },
    )

    [action] = actions
    assert action["kind"] == "source.i18nprune.removeUnused"
    for name in ("en.json", "fr.json"):
        path = project / "locales" / name
        assert "old" not in json.loads(
            apply(path.read_text(), action["edit"]["changes"][path.as_uri()])
        )
    assert "two" in json.loads(en.read_text())["old"]  # the editor applies it, not the server


@pytest.mark.slow
def test_rename_is_refused_where_data_quotes_the_key(
    lsp: Callable[..., LspClient], project: Path
) -> None:
    (project / "src/menu.ts").write_text("export const MENU = [{ label: 'home.title' }];\n")
    client = lsp()
    client.initialize(project)
    uri = client.open(project / "src/app.tsx")
    client.diagnostics(uri)
    line = APP.splitlines()[4]

    with pytest.raises(LspFailure) as refused:
        client.request(
            "textDocument/prepareRename", client.at(uri, 4, line.index("home.title") + 1)
        )

    assert "src/menu.ts:1" in refused.value.message


def test_rename_moves_plural_forms_only_never_a_key_that_merely_shares_the_prefix(
    lsp: Callable[..., LspClient], tmp_path: Path
) -> None:
    root = make_project(tmp_path / "p")
    (root / "locales/en.json").write_text(
        json.dumps(
            {
                "cart": {
                    "items_one": "One item",
                    "items_other": "{{count}} items",
                    "items_name": "Items",
                }
            },
            indent=2,
        )
    )
    (root / "locales/fr.json").write_text("{}\n")
    code = "t('cart.items', { count: n }); t('cart.items_name');\n"
    (root / "src/app.tsx").write_text(code)
    client = lsp()
    client.initialize(root)
    uri = client.open(root / "src/app.tsx")
    client.diagnostics(uri)

    edit = client.request(
        "textDocument/rename",
        {**client.at(uri, 0, code.index("cart.items") + 1), "newName": "cart.things"},
    )
    references = client.request(
        "textDocument/references",
        {
            **client.at(uri, 0, code.index("cart.items_name") + 1),
            "context": {"includeDeclaration": False},
        },
    )

    en = root / "locales/en.json"
    renamed = json.loads(apply(en.read_text(), edit["changes"][en.as_uri()]))
    assert renamed["cart"] == {
        "things_one": "One item",
        "things_other": "{{count}} items",
        "items_name": "Items",
    }
    assert len(references) == 1  # its own site, not `cart.items`'s


def test_rename_is_refused_where_a_call_passes_a_context(
    lsp: Callable[..., LspClient], tmp_path: Path
) -> None:
    root = make_project(tmp_path / "p")
    (root / "locales/en.json").write_text(json.dumps({"friend": "A friend", "friend_male": "He"}))
    code = "t('friend', { context: gender });\n"
    (root / "src/app.tsx").write_text(code)
    client = lsp()
    client.initialize(root)
    uri = client.open(root / "src/app.tsx")
    client.diagnostics(uri)

    with pytest.raises(LspFailure) as refused:
        client.request("textDocument/prepareRename", client.at(uri, 0, code.index("friend") + 1))

    assert "passes a `context`" in refused.value.message
