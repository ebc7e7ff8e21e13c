"""The session as a client meets it: workspace folders routed to their projects, positions in
the negotiated encoding, cancellation, the translate command, and the exit codes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from i18nprune.testing import FakeProvider, Fault
from i18nprune.testing.lsp import LspClient, LspFailure
from tests.conftest import CliResult
from tests.lsp.test_lsp_basics import by_code
from tests.serve.conftest import Gate, translating_project


def project(root: Path, keys: dict[str, str], code: str, extra: dict | None = None) -> Path:
    (root / "locales").mkdir(parents=True)
    (root / "src").mkdir()
    (root / "locales/en.json").write_text(json.dumps(keys, ensure_ascii=False, indent=2))
    (root / "src/app.ts").write_text(code)
    config = {"locales": {"source": "en", "directory": "locales"}, "src": "src", **(extra or {})}
    (root / "i18nprune.config.json").write_text(json.dumps(config))
    return root


@pytest.mark.slow
def test_a_monorepo_folder_routes_each_file_to_its_own_project(
    lsp: Callable[..., LspClient], tmp_path: Path
) -> None:
    web = project(
        tmp_path / "apps/web", {"web": {"title": "Web"}}, "t('web.title'); t('admin.title');\n"
    )
    admin = project(tmp_path / "apps/admin", {"admin": {"title": "Admin"}}, "t('admin.title');\n")
    client = lsp()
    client.initialize(tmp_path)

    web_uri = client.open(web / "src/app.ts")
    admin_uri = client.open(admin / "src/app.ts")

    web_found = by_code(client.diagnostics(web_uri))
    [missing] = web_found["i18nprune.validate.missing_literal_keys"]
    assert "`admin.title`" in missing["message"]  # the web project has no admin keys
    assert client.diagnostics(admin_uri) == []


@pytest.mark.slow
def test_positions_count_utf16_code_units_unless_utf8_is_negotiated(
    lsp: Callable[..., LspClient], tmp_path: Path
) -> None:
    code = "const s = '😀é'; t('gone.key');\n"
    root = project(tmp_path / "p", {"here": "Here"}, code)
    for encodings, expected in (([], 17), (["utf-8", "utf-16"], 20)):
        client = lsp()
        result = client.initialize(root, capabilities={"general": {"positionEncodings": encodings}})
        uri = client.open(root / "src/app.ts")
        [diagnostic] = client.diagnostics(uri)
        assert result["capabilities"]["positionEncoding"] == ("utf-8" if encodings else "utf-16")
        # `t(` starts after 16 characters: 😀 is 2 UTF-16 units and 4 UTF-8 bytes, é 1 and 2.
        assert diagnostic["range"]["start"]["character"] == expected
        client.close()


@pytest.mark.slow
def test_requests_before_initialize_are_refused_and_exit_codes_follow_the_spec(
    lsp: Callable[..., LspClient], tmp_path: Path
) -> None:
    client = lsp()
    with pytest.raises(LspFailure) as refused:
        client.request("textDocument/hover", client.at("file:///x.ts", 0, 0))
    assert refused.value.code == -32002
    client.initialize(tmp_path)
    with pytest.raises(LspFailure) as unknown:
        client.request("textDocument/nothing", {})
    assert unknown.value.code == -32601
    assert client.close() == 0  # shutdown, then exit

    abrupt = lsp()
    abrupt.initialize(tmp_path)
    abrupt.notify("exit", None)
    assert abrupt.process.wait(60) == 1  # exit without shutdown


@pytest.mark.slow
def test_translate_needs_allow_writes_and_then_fills_the_missing_locales(
    lsp: Callable[..., LspClient], tmp_path: Path
) -> None:
    root = project(
        tmp_path / "p",
        {"greet": "Hello"},
        "t('greet');\n",
        {"translate": {"primary": "pseudo", "providers": [{"id": "pseudo"}]}},
    )
    (root / "locales/fr.json").write_text("{}\n")
    arguments = [{"projectRoot": str(root.resolve()), "key": "greet"}]

    reader = lsp()
    reader.initialize(root)
    reader.diagnostics(reader.open(root / "src/app.ts"))
    with pytest.raises(LspFailure) as refused:
        reader.request(
            "workspace/executeCommand",
            {"command": "i18nprune.translateKey", "arguments": arguments},
        )
    assert "--allow-writes" in refused.value.message
    assert json.loads((root / "locales/fr.json").read_text()) == {}

    writer = lsp("--allow-writes")
    writer.initialize(root)
    uri = writer.open(root / "src/app.ts")
    [warning] = writer.diagnostics(uri)
    assert warning["code"] == "i18nprune.lsp.missing_in_targets"
    actions = writer.request(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": uri},
            "range": warning["range"],
            "context": {"diagnostics": [warning]},
        },
    )
    [translate] = [a for a in actions if "command" in a]
    result = writer.request("workspace/executeCommand", translate["command"])

    assert result["translated"] == ["fr"]
    assert json.loads((root / "locales/fr.json").read_text())["greet"] != "Hello"
    progress = [m for m in writer.messages if m.get("method") == "$/progress"]
    assert [p["params"]["value"]["kind"] for p in progress] == ["begin", "end"]
    cleared = writer.wait_for(
        lambda m: (
            m.get("method") == "textDocument/publishDiagnostics"
            and m["params"]["uri"] == uri
            and m["params"]["diagnostics"] == []
        ),
        "the warning cleared once fr holds the key",
    )
    assert cleared["params"]["version"] == 1


@pytest.mark.slow
def test_a_cancelled_request_answers_request_cancelled(
    lsp: Callable[..., LspClient], tmp_path: Path
) -> None:
    root = project(tmp_path / "p", {"here": "Here"}, "t('here');\n")
    gate = Gate(tmp_path)
    client = lsp(env=gate.env((root / "locales/en.json").resolve()))
    client.initialize(root)
    uri = client.open(root / "src/app.ts")
    client.wait_stderr("test gate: holding")  # the project is being read: requests wait

    client.send({"id": 99, "method": "textDocument/hover", "params": client.at(uri, 0, 3)})
    client.send({"method": "$/cancelRequest", "params": {"id": 99}})
    answer = client.wait_for(lambda m: m.get("id") == 99, "the cancelled hover's answer")
    gate.release()

    assert answer["error"]["code"] == -32800
    assert client.diagnostics(uri) == []  # the session goes on


@pytest.mark.slow
def test_a_translation_in_progress_is_cancelled_from_its_progress_and_writes_nothing(
    lsp: Callable[..., LspClient], tmp_path: Path
) -> None:
    with FakeProvider("libre", faults=[Fault(kind="hang", times=-1)]) as fake:
        root = translating_project(tmp_path / "p", fake)
        (root / "locales/fr.json").write_text("{}\n")
        client = lsp("--allow-writes")
        client.initialize(root)
        client.diagnostics(client.open(root / "src/app.ts"))
        arguments = [{"projectRoot": str(root.resolve()), "key": "greeting"}]
        client.send(
            {
                "id": 7,
                "method": "workspace/executeCommand",
                "params": {"command": "i18nprune.translateKey", "arguments": arguments},
            }
        )
        assert fake.wait_for_requests(1, timeout=30), client.stderr.decode()
        begin = client.wait_for(lambda m: m.get("method") == "$/progress", "progress begin")
        assert begin["params"]["value"]["cancellable"] is True
        client.notify("window/workDoneProgress/cancel", {"token": begin["params"]["token"]})

        answer = client.wait_for(lambda m: m.get("id") == 7, "the cancelled command's answer")

    assert answer["error"]["code"] == -32800
    assert json.loads((root / "locales/fr.json").read_text()) == {}


@pytest.mark.slow
def test_bad_frames_and_bodies_get_clear_answers_and_the_session_goes_on(
    lsp: Callable[..., LspClient], tmp_path: Path
) -> None:
    client = lsp()
    stdin = client.process.stdin
    assert stdin is not None
    stdin.write(b"Content-Type: application/json\r\n\r\n")  # no length: skipped
    stdin.write(b"Content-Length: 9\r\n\r\n{not json")
    stdin.flush()
    parse_error = client.wait_for(lambda m: "error" in m, "the parse error")
    assert parse_error["error"]["code"] == -32700 and parse_error["id"] is None
    client.wait_stderr("without a valid Content-Length")

    result = client.initialize(tmp_path)

    assert result["serverInfo"]["name"] == "i18nprune"


def test_project_flags_are_a_usage_error_on_stderr_with_nothing_on_stdout(
    run_cli: Callable[..., CliResult], tmp_path: Path
) -> None:
    done = run_cli("--src", "app", "lsp", cwd=tmp_path)

    assert done.code == 2
    assert done.stdout == ""
    assert "--src cannot be used with lsp" in done.stderr


@pytest.mark.slow
def test_a_source_file_in_no_project_is_said_once_not_silently_skipped(
    lsp: Callable[..., LspClient], tmp_path: Path
) -> None:
    project(tmp_path / "packages/i18n", {"a": "A"}, "t('a');\n")
    (tmp_path / "apps/web/src").mkdir(parents=True)
    (tmp_path / "apps/web/src/page.ts").write_text("t('a');\n")
    (tmp_path / "apps/web/src/other.ts").write_text("t('b');\n")
    client = lsp()
    client.initialize(tmp_path)

    client.open(tmp_path / "apps/web/src/page.ts")
    said = client.wait_for(lambda m: m.get("method") == "window/showMessage", "the message")
    client.open(tmp_path / "apps/web/src/other.ts")
    client.request(
        "textDocument/hover", client.at((tmp_path / "apps/web/src/other.ts").as_uri(), 0, 3)
    )

    assert "apps/web/src/page.ts is in none of the i18nprune projects" in said["params"]["message"]
    assert "packages/i18n" in said["params"]["message"]
    assert len([m for m in client.messages if m.get("method") == "window/showMessage"]) == 1
