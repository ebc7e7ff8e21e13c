"""`i18nprune init` through the real CLI: it writes what discovery found, says where each value
came from, never overwrites a file, asks on a terminal, and at a monorepo root writes the
workspace file and a config per project."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from i18nprune.config.lookup import CONFIG_FILE_NAMES
from tests.cli.init_shapes import (
    NEXT_APP,
    NPM_MONOREPO,
    NPM_MONOREPO_PROJECTS,
    PNPM_MONOREPO,
    PNPM_MONOREPO_PROJECTS,
    THIN_DEFAULTS,
    THIN_GUESSED,
)
from tests.conftest import write_tree
from tests.terminal import run_on_tty

CONFIG = "i18nprune.config.json"
WORKSPACE = "i18nprune.workspace.json"


def read(path: Path) -> dict:
    return json.loads(path.read_text())


def files_below(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


@pytest.mark.slow
def test_init_pins_every_value_that_decides_what_the_app_means(tmp_path, run_cli):
    root = write_tree(tmp_path / "web", NEXT_APP)
    resolved = run_cli("config", "--json", cwd=root).envelope["data"]["config"]

    result = run_cli("init", "--yes", cwd=root)

    assert result.code == 0, result.stderr
    text = (root / CONFIG).read_text()
    written = json.loads(text)
    pinned = [
        "source",
        "directory",
        "mode",
        "structure",
        "namespaces",
        "defaultNamespace",
        "nsSeparator",
        "keySeparator",
        "contextSeparator",
    ]
    assert written == {  # what the zero-config run resolved, in the reference's order
        "locales": {name: resolved["locales"][name] for name in pinned},
        "src": resolved["src"],
        "functions": resolved["functions"],
    }
    assert list(written) == ["locales", "src", "functions"]
    assert list(written["locales"]) == pinned
    locales = written["locales"]
    assert (locales["directory"], locales["structure"]) == ("public/locales", "locale_per_dir")
    assert text.startswith('{\n  "locales": {\n    "source": "en",\n')  # 2-space indent
    assert text.endswith("}\n")
    assert "wrote i18nprune.config.json" in result.stdout
    assert "public/locales" in result.stdout
    assert result.stdout.rstrip().endswith("next: i18nprune validate")


@pytest.mark.slow
def test_the_written_config_is_what_validate_then_runs_with(tmp_path, run_cli):
    root = write_tree(tmp_path / "web", NEXT_APP)
    run_cli("init", "--yes", cwd=root)

    result = run_cli("config", "--json", cwd=root)

    data = result.envelope["data"]
    assert data["configFileLoaded"] is True
    assert data["fieldSources"]["locales.directory"] == "file"
    codes = {issue["code"] for issue in result.envelope["issues"]}
    assert "i18nprune.context.discovery_warning" not in codes
    assert run_cli("validate", cwd=root).code == 0


def test_json_answers_with_the_envelope_and_where_each_value_came_from(tmp_path, run_cli):
    root = write_tree(tmp_path / "web", NEXT_APP)

    result = run_cli("init", "--json", cwd=root)

    assert result.code == 0
    envelope = result.envelope
    assert envelope["ok"] is True and envelope["kind"] == "init"
    data = envelope["data"]
    assert data["written"] == [CONFIG]
    assert data["config"] == read(root / CONFIG)
    assert data["origins"]["locales.source"] == "default"
    assert data["origins"]["locales.directory"] != "default"  # discovery found it
    assert set(data["origins"]) >= {"locales.directory", "src", "functions"}
    assert data["next"] == "i18nprune validate"
    assert [project["root"] for project in data["projects"]] == ["."]


@pytest.mark.parametrize("name", CONFIG_FILE_NAMES)
def test_init_never_overwrites_an_existing_config(name, tmp_path, run_cli):
    root = write_tree(tmp_path / "web", NEXT_APP)
    existing = "export default {};\n" if not name.endswith(".json") else '{"src": "src"}\n'
    (root / name).write_text(existing)
    before = files_below(root)

    result = run_cli("init", "--yes", "--json", cwd=root)

    assert result.code == 0
    assert files_below(root) == before
    data = result.envelope["data"]
    assert data["written"] == [] and data["kept"] == [name]
    messages = [issue["message"] for issue in result.envelope["issues"]]
    assert any(name in message and "never overwrites" in message for message in messages)


def test_init_from_elsewhere_names_the_project_in_the_next_command(tmp_path, run_cli):
    write_tree(tmp_path / "apps/web", NEXT_APP)

    result = run_cli("-C", "apps/web", "init", "--json", cwd=tmp_path)

    assert result.code == 0
    assert result.envelope["data"]["next"] == "i18nprune -C apps/web validate"
    assert (tmp_path / "apps/web" / CONFIG).is_file()


def test_without_a_terminal_init_writes_what_it_found_without_asking(tmp_path, run_cli):
    root = write_tree(tmp_path / "web", NEXT_APP)

    result = run_cli("init", cwd=root)  # stdin is not a terminal, no --yes

    assert result.code == 0, result.stderr
    assert read(root / CONFIG)["locales"]["directory"] == "public/locales"


@pytest.mark.slow
def test_with_no_locale_files_and_no_terminal_init_writes_nothing_without_yes(tmp_path, run_cli):
    root = write_tree(tmp_path / "bare", {"src/index.ts": "console.log('hi');\n"})

    result = run_cli("init", cwd=root)

    assert result.code == 1
    assert not (root / CONFIG).exists()
    assert "no locale files were found" in result.stderr
    assert "--yes" in result.stderr


def test_with_no_locale_files_yes_writes_the_guesses_and_names_them(tmp_path, run_cli):
    root = write_tree(tmp_path / "bare", {"src/index.ts": "console.log('hi');\n"})

    result = run_cli("init", "--yes", "--json", cwd=root)

    assert result.code == 0
    assert read(root / CONFIG)["locales"]["directory"] == "locales"
    project = result.envelope["data"]["projects"][0]
    assert project["foundLocales"] is False
    assert {"locales.source", "locales.directory"} <= set(project["guessed"])
    warnings = [i for i in result.envelope["issues"] if i["code"] == "i18nprune.init.guessed"]
    assert warnings and warnings[0]["severity"] == "warning"
    assert "locales.directory" in warnings[0]["message"]


def test_flags_given_to_init_are_pinned_as_given(tmp_path, run_cli):
    root = write_tree(tmp_path / "web", NEXT_APP)

    result = run_cli("init", "--json", "--source", "de", "--src", "src,lib", cwd=root)

    data = result.envelope["data"]
    assert data["config"]["locales"]["source"] == "de"
    assert data["config"]["src"] == ["src", "lib"]
    assert data["origins"]["locales.source"] == "given"


@pytest.mark.slow
def test_init_at_an_npm_workspaces_root_writes_the_workspace_and_a_config_per_project(
    tmp_path, run_cli
):
    root = write_tree(tmp_path / "mono", NPM_MONOREPO)

    result = run_cli("init", "--json", cwd=root)

    assert result.code == 0, result.stdout
    assert read(root / WORKSPACE) == {"projects": NPM_MONOREPO_PROJECTS}
    data = result.envelope["data"]
    assert data["written"] == [WORKSPACE] + [f"{rel}/{CONFIG}" for rel in NPM_MONOREPO_PROJECTS]
    assert data["config"] is None
    assert read(root / "apps/web" / CONFIG)["locales"]["directory"] == "src/locales"
    admin = read(root / "apps/admin" / CONFIG)["locales"]
    assert (admin["directory"], admin["structure"]) == ("public/locales", "locale_per_dir")
    assert not (root / "packages/ui" / CONFIG).exists()  # a package without locale files
    assert not (root / CONFIG).exists()
    assert data["next"] == "i18nprune validate"
    assert run_cli("validate", "--json", cwd=root).envelope["ok"] is True


@pytest.mark.slow
def test_init_at_a_monorepo_root_keeps_the_files_already_there(tmp_path, run_cli):
    root = write_tree(tmp_path / "mono", NPM_MONOREPO)
    (root / "apps/web" / CONFIG).write_text('{"locales": {"directory": "src/locales"}}\n')
    before = (root / "apps/web" / CONFIG).read_bytes()

    result = run_cli("init", "--json", cwd=root)

    assert result.code == 0
    data = result.envelope["data"]
    assert data["kept"] == [f"apps/web/{CONFIG}"]
    assert data["written"] == [WORKSPACE, f"apps/admin/{CONFIG}"]
    assert (root / "apps/web" / CONFIG).read_bytes() == before
    again = run_cli("init", "--json", cwd=root)
    assert again.code == 0 and again.envelope["data"]["written"] == []


@pytest.mark.slow
def test_init_at_a_pnpm_root_takes_the_packages_of_pnpm_workspace_yaml(tmp_path, run_cli):
    root = write_tree(tmp_path / "mono", PNPM_MONOREPO)

    result = run_cli("init", "--json", cwd=root)

    assert result.code == 0, result.stdout
    assert read(root / WORKSPACE) == {"projects": PNPM_MONOREPO_PROJECTS}
    assert read(root / "libs/i18n/core" / CONFIG)["locales"]["directory"] == "lang"
    assert not (root / "libs/legacy" / CONFIG).exists()  # excluded by `!libs/legacy`
    assert not (root / "tools/scripts" / CONFIG).exists()  # not a workspace package


def test_validate_workspace_at_a_monorepo_root_with_no_config_runs_every_project(tmp_path, run_cli):
    root = write_tree(tmp_path / "mono", NPM_MONOREPO)

    result = run_cli("validate", "--workspace", "--json", cwd=root)

    assert result.code == 0, result.stdout
    projects = result.envelope["data"]["projects"]
    assert [project["root"] for project in projects] == NPM_MONOREPO_PROJECTS
    assert all(project["ok"] for project in projects)
    codes = [issue["code"] for issue in result.envelope["issues"]]
    assert "i18nprune.workspace.discovered" in codes
    assert files_below(root) == files_below(write_tree(tmp_path / "again", NPM_MONOREPO))


def test_workspace_list_says_the_projects_were_discovered(tmp_path, run_cli):
    root = write_tree(tmp_path / "mono", PNPM_MONOREPO)

    result = run_cli("workspace", "list", "--json", cwd=root)

    data = result.envelope["data"]
    assert data["discovered"] is True and data["workspaceFile"] is None
    assert [row["root"] for row in data["projects"]] == PNPM_MONOREPO_PROJECTS
    assert "pnpm-workspace.yaml" in data["projects"][0]["reason"]


@pytest.mark.slow
@pytest.mark.parametrize("git", [True, False], ids=["repository", "unpacked-archive"])
def test_a_sibling_package_naming_a_key_keeps_it_from_cleanup(git, tmp_path, run_cli):
    root = write_tree(tmp_path / "mono", NPM_MONOREPO)
    if git:  # what repository-wide evidence reads: the repository, else the workspace root
        (root / ".git").mkdir()

    result = run_cli("-C", "apps/web", "cleanup", "--dry-run", "--json", cwd=root)

    assert result.code == 0, result.stdout
    assert result.envelope["data"]["keys"] == ["app.unused"]
    referenced = json.dumps(result.envelope["data"]["referenced"])
    assert "app.links.cli" in referenced and "packages/ui/src/Footer.tsx" in referenced


@pytest.mark.slow
def test_on_a_terminal_init_shows_each_value_and_takes_an_answer(tmp_path, home):
    root = write_tree(tmp_path / "web", {**NEXT_APP, "lib/util.ts": "t('home.old');\n"})

    # source: keep; locales directory: keep; src: answer; then confirm the write
    code, output = run_on_tty(["init"], root, home, ["", "", "src, lib", "y"])

    assert code == 0, output
    assert "locales.directory" in output and "public/locales" in output
    assert "Source locale [en]:" in output
    config = read(root / CONFIG)
    assert config["src"] == ["src", "lib"]
    assert config["locales"]["directory"] == "public/locales"
    assert "next: i18nprune validate" in output


def test_on_a_terminal_declining_writes_nothing(tmp_path, home):
    root = write_tree(tmp_path / "web", NEXT_APP)

    code, output = run_on_tty(["init"], root, home, ["", "", "", "n"])

    assert code == 0, output
    assert "Nothing was written." in output
    assert not (root / CONFIG).exists()


def test_on_a_terminal_with_no_locale_files_init_asks_before_writing_guesses(tmp_path, home):
    root = write_tree(tmp_path / "bare", {"src/index.ts": "console.log('hi');\n"})

    code, output = run_on_tty(["init"], root, home, ["", "", "", ""])  # Enter: the default, no

    assert code == 0, output
    assert "every value above is a guess" in output
    assert not (root / CONFIG).exists()


X_TS = "t('site.name');\n"


@pytest.mark.slow
def test_a_monorepo_root_with_its_own_locale_files_is_a_project_too(tmp_path, run_cli):
    root = write_tree(
        tmp_path / "mono",
        {**NPM_MONOREPO, "locales/en.json": {"site": {"name": "Acme"}}, "src/x.ts": X_TS},
    )

    result = run_cli("init", "--json", cwd=root)

    assert result.code == 0, result.stdout
    assert read(root / WORKSPACE) == {"projects": [".", *NPM_MONOREPO_PROJECTS]}
    assert read(root / CONFIG)["locales"]["directory"] == "locales"
    projects = run_cli("workspace", "list", "--json", cwd=root).envelope["data"]["projects"]
    assert [project["root"] for project in projects] == [".", *NPM_MONOREPO_PROJECTS]


@pytest.mark.slow
def test_on_a_terminal_at_a_monorepo_root_init_lists_the_projects_and_asks_once(tmp_path, home):
    root = write_tree(tmp_path / "mono", NPM_MONOREPO)

    code, output = run_on_tty(["init"], root, home, ["y"])

    assert code == 0, output
    assert "is a monorepo root" in output
    assert f"Write {WORKSPACE}, apps/admin/{CONFIG}, apps/web/{CONFIG}?" in output
    assert read(root / WORKSPACE) == {"projects": NPM_MONOREPO_PROJECTS}


@pytest.mark.slow
def test_init_does_not_end_the_protection_of_a_guessed_configuration(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", THIN_GUESSED)
    before = run_cli("cleanup", "--dry-run", "--json", cwd=root).envelope
    assert before["ok"] is False  # the guess: cleanup refuses

    result = run_cli("init", "--yes", "--json", cwd=root)

    assert result.code == 1, result.stdout
    project = result.envelope["data"]["projects"][0]
    assert project["held"] is True and project["written"] is False
    assert "locales.directory" in project["guessed"]
    assert not (root / CONFIG).exists()
    after = run_cli("cleanup", "--dry-run", "--json", cwd=root).envelope
    assert after["ok"] is False
    codes = {issue["code"] for issue in after["issues"]}
    assert "i18nprune.reference.thin_evidence" in codes


def test_init_holds_a_thin_project_with_nothing_to_leave_to_discovery(tmp_path, run_cli):
    root = write_tree(tmp_path / "app", THIN_DEFAULTS)

    result = run_cli("init", "--yes", "--json", cwd=root)

    assert result.code == 1
    assert not (root / CONFIG).exists()
    project = result.envelope["data"]["projects"][0]
    assert project["held"] is True and project["written"] is False
    codes = {i["code"]: i for i in result.envelope["issues"]}
    issue = codes["i18nprune.init.thin_evidence"]
    assert issue["severity"] == "error" and "look unused" in issue["message"]


def test_on_a_terminal_a_held_project_is_written_only_on_a_yes(tmp_path, home):
    root = write_tree(tmp_path / "app", THIN_DEFAULTS)

    code, output = run_on_tty(["init"], root, home, ["", "", "", ""])  # Enter: the default, no
    assert code == 0, output
    assert "would let `cleanup` act on them" in output
    assert not (root / CONFIG).exists()

    code, output = run_on_tty(["init"], root, home, ["", "", "", "y"])
    assert code == 0, output
    assert read(root / CONFIG)["locales"]["directory"] == "locales"
