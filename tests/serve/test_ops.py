"""`op.*` requests against a real server: every listed op answers with the CLI's envelope, options
are checked strictly (the error names the key), ops never prompt, and problems of the project come
back as `ok:false` envelopes rather than JSON-RPC errors (docs/serve.md#9-results)."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from i18nprune.testing import ServeClient
from tests.conftest import EXAMPLES, QUICK_START_OUTPUT, CliResult
from tests.serve.conftest import ServeFactory, module_server

pytestmark = pytest.mark.slow

RunCli = Callable[..., CliResult]
ENVELOPE_KEYS = {"ok", "kind", "data", "issues", "meta"}

# Options that make each op run to completion without changing anything on disk.
HARMLESS_OPTIONS: dict[str, dict[str, Any]] = {
    "config": {},
    "doctor": {},
    "validate": {},
    "languages": {"filter": "fr"},
    "providers": {},
    "locales.list": {},
    "locales.dynamic": {},
    "missing": {"dry_run": True},
    "sync": {"dry_run": True},
    "generate": {"target": "fr", "provider": "pseudo", "dry_run": True},
    "cleanup": {"dry_run": True},
    "locales.delete": {"target": "fr", "dry_run": True},
    "workspace": {},
    "quality": {},
    "review": {"dry_run": True},
    "report": {},
    "keys": {"prefix": "home"},
    "file": {"path": "src/App.tsx"},
    "key": {"key": "nav.home"},
    # the text the leaf already has: nothing changes on disk
    "key.set": {"key": "nav.home", "locale": "fr", "value": "Accueil"},
}


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="module")
def refusing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeClient]:
    """A read-only server on a private copy of the example app, for the tests whose requests it
    refuses before any op runs (see `module_server`)."""
    folder = tmp_path_factory.mktemp("refusing")
    shutil.copytree(EXAMPLES, folder / "app", ignore=shutil.ignore_patterns(*QUICK_START_OUTPUT))
    yield from module_server(folder, "--project", str(folder / "app"))


@pytest.fixture(scope="module")
def refusing_writer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeClient]:
    """As `refusing`, with `--allow-writes`."""
    folder = tmp_path_factory.mktemp("refusing-writer")
    shutil.copytree(EXAMPLES, folder / "app", ignore=shutil.ignore_patterns(*QUICK_START_OUTPUT))
    yield from module_server(folder, "--project", str(folder / "app"), "--allow-writes")


def invalid_params(server: ServeClient, method: str, params: dict[str, Any]) -> dict[str, Any]:
    """Send a request that must fail with invalid params; its `error` as a dict."""
    response = server.request(method, params)
    assert response.error is not None, response.raw
    assert response.error.code == -32602
    assert response.error.data["code"] == "SERVE_INVALID_PARAMS"
    return {"message": response.error.message, "data": response.error.data}


def test_every_listed_op_answers_with_an_envelope_of_its_kind(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project), "--allow-writes", init=False)
    listed = server.initialize()["capabilities"]["ops"]
    before = tree_bytes(example_project)
    assert sorted(listed) == sorted(HARMLESS_OPTIONS)
    for name in listed:
        envelope = server.request(f"op.{name}", {"options": HARMLESS_OPTIONS[name]}).unwrap()
        assert set(envelope) == ENVELOPE_KEYS, name
        assert envelope["kind"] == name
        assert isinstance(envelope["ok"], bool) and isinstance(envelope["issues"], list)
        assert envelope["meta"]["apiVersion"] == "1"
    assert tree_bytes(example_project) == before


@pytest.mark.parametrize(
    ("op", "command"),
    [("validate", ["validate"]), ("locales.list", ["locales", "list"])],
)
def test_op_envelope_matches_the_cli_json_output(
    serve: ServeFactory, example_project: Path, run_cli: RunCli, op: str, command: list[str]
) -> None:
    server = serve("--project", str(example_project))
    served = server.request(f"op.{op}", {"options": {}}).unwrap()
    printed = run_cli(*command, "--json", cwd=example_project).envelope
    assert set(served) == set(printed) == ENVELOPE_KEYS
    assert served["kind"] == printed["kind"] == op
    assert served["ok"] == printed["ok"]
    assert sorted(served["data"]) == sorted(printed["data"])
    assert served["data"] == printed["data"]
    assert served["issues"] == printed["issues"]
    assert set(served["meta"]) == set(printed["meta"])


def test_unknown_option_is_invalid_params_naming_the_key(refusing: ServeClient) -> None:
    server = refusing
    error = invalid_params(server, "op.doctor", {"options": {"stirct": True}})
    assert error["data"]["key"] == "stirct"
    assert "`stirct`" in error["message"]


def test_option_of_an_op_without_options_is_invalid_params(refusing: ServeClient) -> None:
    server = refusing
    error = invalid_params(server, "op.validate", {"options": {"dry_run": True}})
    assert error["data"]["key"] == "dry_run"
    assert "`dry_run`" in error["message"]


@pytest.mark.parametrize(
    ("op", "options", "key"),
    [
        ("doctor", {"strict": "yes"}, "strict"),
        ("doctor", {"strict": 1}, "strict"),
        ("doctor", {"strict": None}, "strict"),
        ("doctor", {"only": ["runtime", 1]}, "only"),
        ("doctor", {"only": 3}, "only"),
        ("languages", {"filter": ["fr"]}, "filter"),
        ("generate", {"target": "fr", "workers": "2"}, "workers"),
        ("generate", {"target": "fr", "workers": 2.0}, "workers"),
    ],
    ids=lambda value: repr(value) if isinstance(value, dict) else None,
)
def test_option_of_the_wrong_type_is_invalid_params_naming_the_key(
    refusing_writer: ServeClient, op: str, options: dict[str, Any], key: str
) -> None:
    server = refusing_writer
    error = invalid_params(server, f"op.{op}", {"options": options})
    assert error["data"]["key"] == key
    assert f"`{key}`" in error["message"]


def test_list_option_accepts_a_comma_string_and_an_array(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project))
    spelled = [
        "runtime,config",
        " runtime , config ",
        ["runtime", "config"],
        ["runtime,config"],
    ]
    areas = []
    for only in spelled:
        envelope = server.request("op.doctor", {"options": {"only": only}}).unwrap()
        areas.append(
            sorted({finding["id"].split(".")[0] for finding in envelope["data"]["findings"]})
        )
    assert areas == [["config", "runtime"]] * len(spelled)


@pytest.mark.parametrize(
    "params",
    [{"options": {}, "extra": 1}, {"projectroot": "/"}, {"option": {}}, {"root": "/"}],
    ids=["extra", "projectroot", "option", "root"],
)
def test_params_key_other_than_project_root_and_options_is_invalid_params(
    refusing: ServeClient, params: dict[str, Any]
) -> None:
    server = refusing
    [unknown] = set(params) - {"projectRoot", "options"}
    error = invalid_params(server, "op.validate", params)
    assert error["data"]["key"] == unknown
    assert f"`{unknown}`" in error["message"]


@pytest.mark.parametrize(
    ("params", "key"),
    [
        ({"options": ["fr"]}, "options"),
        ({"options": "x"}, "options"),
        ({"projectRoot": 1}, "projectRoot"),
    ],
    ids=["options-array", "options-string", "root-number"],
)
def test_params_member_of_the_wrong_type_is_invalid_params(
    refusing: ServeClient, params: dict[str, Any], key: str
) -> None:
    server = refusing
    error = invalid_params(server, "op.validate", params)
    assert error["data"]["key"] == key


@pytest.mark.parametrize(
    ("op", "options"),
    [
        ("missing", {}),
        ("cleanup", {}),
        ("cleanup", {"ask": True}),
        ("locales.delete", {"target": "fr"}),
    ],
    ids=["missing", "cleanup", "cleanup-ask", "locales.delete"],
)
def test_write_op_needing_confirmation_answers_ok_false_naming_yes_and_writes_nothing(
    serve: ServeFactory, example_project: Path, op: str, options: dict[str, Any]
) -> None:
    server = serve("--project", str(example_project), "--allow-writes")
    before = tree_bytes(example_project)
    envelope = server.request(f"op.{op}", {"options": options}).unwrap()
    assert envelope["ok"] is False
    [issue] = [i for i in envelope["issues"] if i["code"] == "i18nprune.cli.confirmation_required"]
    assert "yes" in issue["message"]
    assert tree_bytes(example_project) == before


@pytest.mark.parametrize(
    ("op", "options"),
    [
        ("sync", {}),
        ("cleanup", {"yes": True}),
        ("missing", {"yes": True}),
        ("generate", {"target": "de", "provider": "pseudo"}),
        ("locales.delete", {"target": "fr", "yes": True}),
    ],
    ids=["sync", "cleanup", "missing", "generate", "locales.delete"],
)
def test_write_op_on_a_source_locale_that_does_not_parse_writes_nothing(
    serve: ServeFactory, example_project: Path, op: str, options: dict[str, Any]
) -> None:
    source = example_project / "locales/en.json"
    source.write_text(source.read_text().replace("{", "{,", 1))  # invalid JSON at 1:2
    server = serve("--project", str(example_project), "--allow-writes")
    before = tree_bytes(example_project)
    envelope = server.request(f"op.{op}", {"options": options}).unwrap()
    assert envelope["ok"] is False
    codes = [issue["code"] for issue in envelope["issues"]]
    assert "i18nprune.locale.source_unreadable" in codes
    assert tree_bytes(example_project) == before


def test_cleanup_over_a_file_that_does_not_parse_refuses_until_forced(
    serve: ServeFactory, example_project: Path
) -> None:
    (example_project / "src/Broken.tsx").write_text("t('legacy.banner');\nconst = ;\n")
    server = serve("--project", str(example_project), "--allow-writes")
    before = tree_bytes(example_project)
    refused = server.request("op.cleanup", {"options": {"yes": True}}).unwrap()
    assert refused["ok"] is False
    assert "i18nprune.scan.incomplete_evidence" in [i["code"] for i in refused["issues"]]
    assert tree_bytes(example_project) == before
    forced = server.request("op.cleanup", {"options": {"yes": True, "force": True}}).unwrap()
    assert forced["ok"] is True and forced["data"]["removed"] > 0


def test_generate_without_target_answers_ok_false_naming_the_option(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project), "--allow-writes")
    envelope = server.request("op.generate", {"options": {"provider": "pseudo"}}).unwrap()
    assert envelope["ok"] is False
    [issue] = envelope["issues"]
    assert issue["code"] == "i18nprune.locale.target_required"
    assert "target" in issue["message"]


@pytest.mark.parametrize("method", ["op.nope", "op.", "op.locales", "op.Validate", "op.validate "])
def test_unknown_op_is_method_not_found(refusing: ServeClient, method: str) -> None:
    server = refusing
    response = server.request(method, {"options": {}})
    assert response.error is not None
    assert response.error.code == -32601
    assert response.error.data["code"] == "SERVE_METHOD_NOT_FOUND"


def test_meta_cwd_is_the_project_root_not_the_server_working_directory(
    serve: ServeFactory, example_project: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    server = serve("--project", str(example_project), cwd=elsewhere)
    envelope = server.request("op.locales.list").unwrap()
    assert envelope["meta"]["cwd"] == str(example_project.resolve())


def test_meta_cwd_of_a_rootless_hub_op_is_the_server_working_directory(
    serve: ServeFactory, tmp_path: Path
) -> None:
    server = serve(cwd=tmp_path)
    envelope = server.request("op.languages", {"options": {"filter": "fr"}}).unwrap()
    assert envelope["meta"]["cwd"] == str(tmp_path)


def test_config_error_is_an_ok_false_envelope_not_an_rpc_error(
    serve: ServeFactory, example_project: Path
) -> None:
    (example_project / "i18nprune.config.json").write_text("{ not json")
    server = serve("--project", str(example_project))
    response = server.request("op.validate", {"options": {}})
    assert response.ok, response.raw
    envelope = response.result
    assert envelope["ok"] is False and envelope["kind"] == "validate"
    assert [issue["code"] for issue in envelope["issues"]] == ["i18nprune.config.parse_error"]
