"""Reused linking against random module graphs: after every random edit, a scan that reuses
linked output — serve's per-file `LinkMemo`, and a command's linking saved with its cache — must
give exactly what a scan with neither gives. A stale reuse could hide a key the code uses, and
`cleanup` would then delete a translation.

The graphs mix what the linker follows: constants, renamed and `export *` re-exports (cycles
included), namespace imports, folder indexes shadowed by a file, files outside the sources,
missing modules and syntax errors.
"""

from __future__ import annotations

import os
import random
import zlib
from pathlib import Path

import msgspec
import pytest

from i18nprune.project import ProjectRequest, open_project
from i18nprune.scan import ScanOptions, ScanResult, scan_project
from i18nprune.scan.link import LinkMemo
from tests.conftest import write_tree

LONG_AGO_NS = 1_600_000_000 * 10**9
MODULES = ["src/a.ts", "src/b.ts", "src/c.ts", "src/d/index.ts", "src/d.ts", "lib/e.ts"]
"""Where exporting modules may live (`src/d.ts` shadows the folder index `src/d/index.ts`;
`lib/` is outside the sources)."""
USERS = ["src/u1.ts", "src/u2.ts", "src/u3.tsx"]
NAMES = ["A", "B", "C"]
KEYS = ["home.a", "home.b", "home.c", "home.d"]


def _specifier(importer: str, module: str) -> str:
    """A relative import of `module` from `importer`, as code writes it (no suffix; a folder
    index by its folder)."""
    target = module.removesuffix(".ts").removesuffix("/index")
    relative = os.path.relpath(target, os.path.dirname(importer))
    return relative if relative.startswith(".") else f"./{relative}"


def _module_text(rng: random.Random, module: str) -> str:
    lines: list[str] = []
    for name in rng.sample(NAMES, rng.randint(0, 2)):
        lines.append(f"export const {name} = '{rng.choice(KEYS)}';")
    for _ in range(rng.randint(0, 2)):
        other = rng.choice([m for m in MODULES if m != module] + ["src/missing.ts"])
        spec = _specifier(module, other)
        kind = rng.random()
        if kind < 0.5:
            lines.append(f"export * from '{spec}';")
        else:
            name, alias = rng.choice(NAMES), rng.choice(NAMES)
            lines.append(f"export {{ {name} as {alias} }} from '{spec}';")
    if rng.random() < 0.08:
        lines.append("export const = ;")  # a syntax error
    return "\n".join(lines) + "\n"


def _user_text(rng: random.Random, user: str) -> str:
    lines: list[str] = []
    calls: list[str] = []
    for index in range(rng.randint(1, 3)):
        module = rng.choice([*MODULES, "src/missing.ts"])
        spec = _specifier(user, module)
        if rng.random() < 0.3:
            lines.append(f"import * as ns{index} from '{spec}';")
            calls.append(f"t(ns{index}.{rng.choice(NAMES)});")
        else:
            name = rng.choice(NAMES)
            lines.append(f"import {{ {name} as v{index} }} from '{spec}';")
            calls.append(f"t(v{index});")
    if rng.random() < 0.3:
        calls.append(f"t('{rng.choice(KEYS)}');")
    return "\n".join(lines + calls) + "\n"


def _age(root: Path) -> None:
    """Date every source long ago, at a time its content decides: an untouched file's stat
    keeps vouching for its cached record, an edited one's changes."""
    for path in root.rglob("*.ts*"):
        when = LONG_AGO_NS + zlib.crc32(path.read_bytes()) * 1000
        os.utime(path, ns=(when, when))


def _edit(rng: random.Random, root: Path) -> None:
    """One random change: a module or a user rewritten, or a module removed."""
    relpath = rng.choice(MODULES + USERS)
    path = root / relpath
    if relpath in MODULES and path.exists() and rng.random() < 0.25:
        path.unlink()
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    text = _module_text(rng, relpath) if relpath in MODULES else _user_text(rng, relpath)
    path.write_text(text)


def _options(root: Path, home: Path) -> ScanOptions:
    request = ProjectRequest(cwd=root, project=root)
    opened = open_project(request, env={**os.environ, "I18NPRUNE_HOME": str(home)})
    return opened.scan_options({})


def _outcome(result: ScanResult) -> tuple[object, ...]:
    issues = [issue for issue in result.issues if "scan cache" not in issue.message]
    return (result.files, result.observations, result.dynamic, issues)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_reused_linking_equals_a_fresh_one_through_random_edits(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    root = tmp_path / "app"
    home = tmp_path / "home"
    write_tree(
        root,
        {
            "i18nprune.config.json": {"locales": {"source": "en"}},
            "locales/en.json": {"home": {"a": "A", "b": "B", "c": "C", "d": "D"}},
        },
    )
    for relpath in MODULES:
        if rng.random() < 0.8:
            write_tree(root, {relpath: _module_text(rng, relpath)})
    for relpath in USERS:
        write_tree(root, {relpath: _user_text(rng, relpath)})
    memo = LinkMemo()
    reused = 0
    for step in range(30):
        _age(root)
        options = _options(root, home)
        fresh = _outcome(scan_project(msgspec.structs.replace(options, cache_dir=None)))
        with_memo = scan_project(msgspec.structs.replace(options, cache_dir=None), link_memo=memo)
        assert _outcome(with_memo) == fresh, f"memo, seed {seed}, step {step}"
        # A command's scan, twice: the second finds every record by its stat and recalls the
        # linking the first saved (when that linking could be saved).
        for run in ("first", "second"):
            assert _outcome(scan_project(options)) == fresh, f"{run} cached, step {step}"
        reused += sum(1 for kept in memo.files.values() if kept.reads)
        _edit(rng, root)
    assert reused > 0  # the memo did keep output that read other files
