"""Project roots in `serve`: the sandbox pin, hub requests naming their root, confinement of
config values and symlinks to the root, and fresh reads on every request
(docs/serve.md#5-root-modes)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from i18nprune.testing import ServeClient
from tests.conftest import write_tree
from tests.serve.conftest import ServeFactory, module_server

MakeProject = Callable[[dict[str, Any]], Path]
EN = {"a": "A", "b": "B"}
OUTSIDE_EN = {"a": "A", "b": "B", "y": "Y"}
OUTSIDE_FR = {"a": "FA", "z": "Z"}
"""With code using a, b and c, every write op has something to write in these: c is missing,
y unused, and fr lacks b and has the extra z."""
NEEDS_ROOT = ["config", "doctor", "validate", "providers", "locales.list", "locales.dynamic"]
WRITE_OPS = ["missing", "sync", "generate", "cleanup", "locales.delete"]


def error_code(response: Any) -> tuple[int, str]:
    assert response.error is not None, response.raw
    return response.error.code, response.error.data["code"]


def validate(server: ServeClient, params: dict[str, Any] | None = None) -> dict[str, Any]:
    envelope: dict[str, Any] = server.request("op.validate", params or {}).unwrap()
    assert envelope["kind"] == "validate"
    return envelope


def small_project(root: Path, **config: Any) -> Path:
    """`src` uses a, b and c; `en` has a and b; `fr` has a."""
    return write_tree(
        root,
        {
            "i18nprune.config.json": {"locales": {"source": "en"}, **config},
            "src/app.ts": "t('a'); t('b'); t('c');\n",
            "locales/en.json": EN,
            "locales/fr.json": {"a": "FA"},
        },
    )


# --- sandbox --------------------------------------------------------------------------------


def test_sandbox_request_without_project_root_runs_in_the_pinned_root(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project))
    envelope = validate(server)
    assert envelope["data"]["missing"] == ["footer.copyright", "settings.search"]


@pytest.mark.slow
@pytest.mark.parametrize(
    "spelling",
    ["exact", "trailing-slash", "dot-dot", "dot", "symlink", "symlinked-parent"],
)
def test_sandbox_accepts_any_spelling_that_resolves_to_its_root(
    serve: ServeFactory, example_project: Path, tmp_path: Path, spelling: str
) -> None:
    (tmp_path / "link").symlink_to(example_project)
    (tmp_path / "parent-link").symlink_to(tmp_path)
    named = {
        "exact": str(example_project),
        "trailing-slash": f"{example_project}/",
        "dot-dot": f"{example_project}/src/../",
        "dot": f"{example_project}/./.",
        "symlink": str(tmp_path / "link"),
        "symlinked-parent": str(tmp_path / "parent-link" / example_project.name),
    }[spelling]
    server = serve("--project", str(example_project))
    assert validate(server, {"projectRoot": named})["data"] == validate(server)["data"]


@pytest.mark.slow
def test_sandbox_started_through_a_symlink_reports_and_accepts_the_real_root(
    serve: ServeFactory, example_project: Path, tmp_path: Path
) -> None:
    (tmp_path / "link").symlink_to(example_project)
    server = serve("--project", str(tmp_path / "link"), init=False)
    assert server.initialize()["projectRoot"] == str(example_project.resolve())
    validate(server, {"projectRoot": str(example_project)})
    validate(server, {"projectRoot": str(tmp_path / "link")})


@pytest.mark.slow
@pytest.mark.parametrize("other", ["sibling", "subdirectory", "parent", "missing"])
def test_sandbox_refuses_another_directory_with_root_mismatch(
    serve: ServeFactory, example_project: Path, tmp_path: Path, other: str
) -> None:
    sibling = small_project(tmp_path / "other")
    named = {
        "sibling": sibling,
        "subdirectory": example_project / "src",
        "parent": example_project.parent,
        "missing": tmp_path / "nowhere",
    }[other]
    server = serve("--project", str(example_project))
    response = server.request("op.validate", {"projectRoot": str(named)})
    assert error_code(response) == (-32602, "SERVE_ROOT_MISMATCH")
    assert response.error is not None and response.error.data["key"] == "projectRoot"


@pytest.mark.slow
def test_sandbox_refuses_a_relative_project_root_as_invalid(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve("--project", str(example_project))
    response = server.request("op.validate", {"projectRoot": "."})
    assert error_code(response) == (-32602, "SERVE_ROOT_INVALID")


# --- hub ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeClient]:
    """A read-only hub server shared by the tests whose requests it refuses (`module_server`)."""
    yield from module_server(tmp_path_factory.mktemp("hub"))


@pytest.fixture(scope="module")
def writing_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeClient]:
    """As `hub`, with `--allow-writes`."""
    yield from module_server(tmp_path_factory.mktemp("writing-hub"), "--allow-writes")


@pytest.mark.slow
def test_hub_initialize_reports_no_project_root(serve: ServeFactory) -> None:
    server = serve(init=False)
    info = server.initialize()
    assert info["rootMode"] == "hub"
    assert info["projectRoot"] is None


@pytest.mark.slow
@pytest.mark.parametrize("op", NEEDS_ROOT + WRITE_OPS)
def test_hub_op_without_project_root_is_root_required(writing_hub: ServeClient, op: str) -> None:
    server = writing_hub
    response = server.request(f"op.{op}", {"options": {}})
    assert error_code(response) == (-32602, "SERVE_ROOT_REQUIRED")


@pytest.mark.slow
def test_hub_languages_runs_without_project_root(serve: ServeFactory) -> None:
    server = serve()
    envelope = server.request("op.languages", {"options": {"filter": "fr"}}).unwrap()
    assert envelope["kind"] == "languages" and envelope["ok"] is True


@pytest.mark.slow
def test_hub_providers_without_project_root_is_root_required(hub: ServeClient) -> None:
    # docs/serve.md#5-root-modes exempts only `op.languages`; the providers list depends on the
    # project config.
    server = hub
    response = server.request("op.providers")
    assert error_code(response) == (-32602, "SERVE_ROOT_REQUIRED")


@pytest.mark.slow
def test_hub_providers_runs_in_the_named_root(serve: ServeFactory, example_project: Path) -> None:
    server = serve()
    envelope = server.request("op.providers", {"projectRoot": str(example_project)}).unwrap()
    assert envelope["kind"] == "providers" and envelope["ok"] is True


@pytest.mark.slow
def test_hub_runs_an_op_in_the_named_root(serve: ServeFactory, example_project: Path) -> None:
    server = serve()
    envelope = validate(server, {"projectRoot": str(example_project)})
    assert envelope["data"]["missing"] == ["footer.copyright", "settings.search"]


@pytest.mark.slow
def test_hub_serves_two_projects_side_by_side(
    serve: ServeFactory, example_project: Path, tmp_path: Path
) -> None:
    other = small_project(tmp_path / "other")
    server = serve()
    first = validate(server, {"projectRoot": str(example_project)})
    second = validate(server, {"projectRoot": str(other)})
    assert first["data"]["missing"] == ["footer.copyright", "settings.search"]
    assert second["data"]["missing"] == ["c"]


@pytest.mark.slow
def test_hub_resolves_dot_dot_segments_of_the_named_root(
    serve: ServeFactory, example_project: Path
) -> None:
    server = serve()
    named = f"{example_project}/src/../"
    assert validate(server, {"projectRoot": named})["data"]["missing"] == [
        "footer.copyright",
        "settings.search",
    ]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["relative", "dot-relative", "missing", "file", "empty"])
def test_hub_refuses_an_unusable_project_root_as_invalid(
    hub: ServeClient, example_project: Path, tmp_path: Path, kind: str
) -> None:
    named = {
        "relative": "app",
        "dot-relative": "./app",
        "missing": str(tmp_path / "nowhere"),
        "file": str(example_project / "i18nprune.config.json"),
        "empty": "",
    }[kind]
    server = hub
    response = server.request("op.validate", {"projectRoot": named})
    assert error_code(response) == (-32602, "SERVE_ROOT_INVALID")
    assert response.error is not None and response.error.data["key"] == "projectRoot"


def test_hub_checks_writes_before_the_root(hub: ServeClient) -> None:
    server = hub
    response = server.request("op.sync", {"projectRoot": "relative"})
    assert error_code(response) == (-32001, "SERVE_WRITES_DISABLED")


# --- confinement ----------------------------------------------------------------------------


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the project holding locale files that must never change."""
    return write_tree(tmp_path / "outside", {"en.json": OUTSIDE_EN, "fr.json": OUTSIDE_FR})


def snapshot(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("op", "options"),
    [
        ("sync", {}),
        ("missing", {"yes": True}),
        ("cleanup", {"yes": True}),
        ("locales.delete", {"target": "fr", "yes": True}),
        ("generate", {"target": "fr", "provider": "pseudo"}),
    ],
    ids=["sync", "missing", "cleanup", "locales.delete", "generate"],
)
def test_write_op_refuses_a_locales_directory_outside_the_root(
    serve: ServeFactory, make_project: MakeProject, outside: Path, op: str, options: dict[str, Any]
) -> None:
    root = make_project(
        {
            "i18nprune.config.json": {"locales": {"source": "en", "directory": "../outside"}},
            "src/app.ts": "t('a'); t('b'); t('c');\n",
        }
    )
    before = snapshot(outside)
    server = serve("--project", str(root), "--allow-writes")
    envelope = server.request(f"op.{op}", {"options": options}).unwrap()
    assert envelope["ok"] is False
    assert "i18nprune.project.path_outside_root" in [issue["code"] for issue in envelope["issues"]]
    assert snapshot(outside) == before
    assert sorted(path.name for path in root.iterdir()) == ["i18nprune.config.json", "src"]


@pytest.mark.slow
def test_read_op_refuses_a_locales_directory_outside_the_root(
    serve: ServeFactory, make_project: MakeProject, outside: Path
) -> None:
    root = make_project(
        {
            "i18nprune.config.json": {"locales": {"source": "en", "directory": "../outside"}},
            "src/app.ts": "t('a');\n",
        }
    )
    server = serve("--project", str(root))
    envelope = validate(server)
    assert "i18nprune.project.path_outside_root" in [issue["code"] for issue in envelope["issues"]]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("op", "options"),
    [
        ("sync", {}),
        ("missing", {"target": "fr", "yes": True}),
        ("generate", {"target": "fr", "provider": "pseudo"}),
    ],
    ids=["sync", "missing", "generate"],
)
def test_write_op_never_writes_through_a_locale_symlink_leaving_the_root(
    serve: ServeFactory, tmp_path: Path, outside: Path, op: str, options: dict[str, Any]
) -> None:
    root = small_project(tmp_path / "project")
    (root / "locales/fr.json").unlink()
    (root / "locales/fr.json").symlink_to(outside / "fr.json")
    before = snapshot(outside)
    server = serve("--project", str(root), "--allow-writes")
    envelope = server.request(f"op.{op}", {"options": options}).unwrap()
    assert "i18nprune.project.path_outside_root" in [issue["code"] for issue in envelope["issues"]]
    assert snapshot(outside) == before
    link = root / "locales/fr.json"
    assert link.is_symlink() and link.resolve() == outside / "fr.json"


@pytest.mark.slow
def test_locales_delete_never_deletes_through_a_locale_symlink_leaving_the_root(
    serve: ServeFactory, tmp_path: Path, outside: Path
) -> None:
    root = small_project(tmp_path / "project")
    (root / "locales/fr.json").unlink()
    (root / "locales/fr.json").symlink_to(outside / "fr.json")
    before = snapshot(outside)
    server = serve("--project", str(root), "--allow-writes")
    options = {"target": "fr", "yes": True}
    envelope = server.request("op.locales.delete", {"options": options}).unwrap()
    # The link is skipped when locales are discovered, so `fr` is reported as not found.
    assert envelope["ok"] is False
    assert envelope["data"]["deleted"] == []
    assert snapshot(outside) == before
    assert (root / "locales/fr.json").is_symlink()


# --- fresh reads ----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("writes", [False, True], ids=["read-only", "allow-writes"])
def test_each_request_sees_a_locale_file_edited_since_the_last(
    serve: ServeFactory, tmp_path: Path, writes: bool
) -> None:
    root = small_project(tmp_path / "project")
    server = serve("--project", str(root), *(["--allow-writes"] if writes else []))
    assert validate(server)["data"]["missing"] == ["c"]
    (root / "locales/en.json").write_text(json.dumps({**EN, "c": "C"}))
    assert validate(server)["data"]["missing"] == []


@pytest.mark.slow
@pytest.mark.parametrize("writes", [False, True], ids=["read-only", "allow-writes"])
def test_each_request_sees_a_source_file_edited_since_the_last(
    serve: ServeFactory, tmp_path: Path, writes: bool
) -> None:
    root = small_project(tmp_path / "project")
    server = serve("--project", str(root), *(["--allow-writes"] if writes else []))
    assert validate(server)["data"]["missing"] == ["c"]
    source = root / "src/app.ts"
    stat = source.stat()
    source.write_text("t('a'); t('b'); t('d'); t('e');\n")
    # Keep the old mtime: a cache must not trust mtime alone when the size changed.
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert validate(server)["data"]["missing"] == ["d", "e"]


@pytest.mark.slow
def test_each_request_sees_a_locale_file_added_since_the_last(
    serve: ServeFactory, tmp_path: Path
) -> None:
    root = small_project(tmp_path / "project")
    server = serve("--project", str(root))
    before = server.request("op.locales.list").unwrap()["data"]["locales"]
    (root / "locales/de.json").write_text(json.dumps({"a": "DA"}))
    after = server.request("op.locales.list").unwrap()["data"]["locales"]
    assert [locale["code"] for locale in before] == ["en", "fr"]
    assert [locale["code"] for locale in after] == ["de", "en", "fr"]


@pytest.mark.slow
def test_write_op_result_is_visible_to_the_next_read(serve: ServeFactory, tmp_path: Path) -> None:
    root = small_project(tmp_path / "project")
    server = serve("--project", str(root), "--allow-writes")
    assert validate(server)["data"]["missing"] == ["c"]
    added = server.request("op.missing", {"options": {"yes": True}}).unwrap()
    assert added["ok"] is True
    assert validate(server)["data"]["missing"] == []


@pytest.mark.slow
def test_deleted_locale_is_gone_for_the_next_read(serve: ServeFactory, tmp_path: Path) -> None:
    root = small_project(tmp_path / "project")
    server = serve("--project", str(root), "--allow-writes")
    deleted = server.request("op.locales.delete", {"options": {"target": "fr", "yes": True}})
    assert deleted.unwrap()["ok"] is True
    listed = server.request("op.locales.list").unwrap()["data"]["locales"]
    assert [locale["code"] for locale in listed] == ["en"]
