"""The VS Code extension in `editors/vscode/` packs into a `.vsix` VS Code would install: the test
runs the packaging step of `editors/vscode/build.sh` (`vsce package`, from the `node_modules`
that `.ci/run` installs through build.sh) into a temp dir, unzips the `.vsix` and checks its
manifest and that the client library it loads is inside."""

from __future__ import annotations

import json
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO
from tests.lsp.clients.conftest import CLIENT_SECONDS, require_tool

pytestmark = pytest.mark.slow  # every test reads the packed extension (a build)

EXTENSION = REPO / "editors" / "vscode"
LANGUAGES = {
    "javascript",
    "javascriptreact",
    "typescript",
    "typescriptreact",
    "vue",
    "svelte",
    "json",
}


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The extension's `.vsix`, built from the sources, unzipped."""
    require_tool(
        shutil.which("node") is not None and (EXTENSION / "node_modules" / "@vscode").is_dir(),
        "node and editors/vscode/node_modules",
        "run editors/vscode/build.sh",
    )
    base = tmp_path_factory.mktemp("vscode")
    vsix = base / "i18nprune.vsix"
    done = subprocess.run(
        [
            "npx",
            "--no-install",
            "vsce",
            "package",
            "--allow-missing-repository",
            "--out",
            str(vsix),
        ],
        cwd=EXTENSION,
        capture_output=True,
        text=True,
        timeout=CLIENT_SECONDS,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    with zipfile.ZipFile(vsix) as archive:
        archive.extractall(base / "vsix")
    return base / "vsix"


def _manifest(unpacked: Path) -> dict[str, Any]:
    manifest: dict[str, Any] = json.loads((unpacked / "extension/package.json").read_text())
    return manifest


def test_vsix_targets_vscode_and_starts_on_every_served_language(unpacked: Path) -> None:
    manifest = _manifest(unpacked)
    assert manifest["engines"]["vscode"].startswith("^1.")
    assert set(manifest["activationEvents"]) == {f"onLanguage:{lang}" for lang in LANGUAGES}
    assert (unpacked / "extension" / manifest["main"]).is_file()
    vsixmanifest = (unpacked / "extension.vsixmanifest").read_text()
    assert "Microsoft.VisualStudio.Code.Engine" in vsixmanifest


def test_vsix_settings_are_the_executable_and_allow_writes(unpacked: Path) -> None:
    properties = _manifest(unpacked)["contributes"]["configuration"]["properties"]
    assert properties["i18nprune.path"]["default"] == "i18nprune"
    assert properties["i18nprune.allowWrites"]["default"] is False


def test_vsix_carries_the_language_client_it_loads(unpacked: Path) -> None:
    extension = unpacked / "extension"
    done = subprocess.run(
        ["node", "-e", "console.log(require.resolve('vscode-languageclient/node'))"],
        cwd=extension,
        capture_output=True,
        text=True,
        timeout=CLIENT_SECONDS,
    )
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()).is_relative_to(extension)
    assert not (extension / "node_modules" / "@vscode" / "vsce").exists()  # a build tool only
