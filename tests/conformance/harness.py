"""The conformance harness: one case is a piece of code written from a library's documentation,
the keys it uses and the keys it does not, checked the way a user meets them.

A case passes when, on a project holding exactly the case's code and `package.json`:

- with every key in the source locale, `cleanup --dry-run` offers exactly the unused keys (so
  no used key is a candidate, and each unused key is one), and does not refuse;
- with every key in the source locale, `validate` reports none missing;
- with only the unused keys in the source locale, `validate` reports exactly the used keys
  missing (`missing`, when a key is reported under another name than the one the locale
  holds: an i18next plural is missing as its base, `item`, while the locale holds `item_one`).

A case is a few lines, so most of its keys may be unused: the harness sets
`reference.maxUnusedShare: 1`, as the thin-evidence gate judges whole projects
(`tests/cli/test_thin_evidence.py` covers it).

The ops run in this process through `ops.engine.registry.execute`, the engine every transport uses,
on real files in a temporary directory: no part of i18nprune is replaced.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import trio

from i18nprune.ops.cleanup import CleanupOptions
from i18nprune.ops.engine.events import discard
from i18nprune.ops.engine.registry import OPS, execute
from i18nprune.ops.validate import ValidateOptions
from i18nprune.project import ProjectHandle, ProjectRequest


@dataclass(frozen=True)
class Case:
    """One expectation: `code` (paths relative to the project root, usually `src/…`) uses
    `used` and not `unused`. Keys are `ns:path` when `namespaces` is set, else paths, split
    into the locale's nesting at `.` (`flat` keeps each key as one flat string). A key in
    `values` holds that value in the locale instead of a text (an array, a linked message).

    `doc` names the documentation section the case comes from. `gap` marks a shape we do not
    read yet, with the reason: the case is then expected to fail (a strict xfail), so a change
    that starts reading it must move it out of the gaps.
    """

    id: str
    code: Mapping[str, str]
    used: frozenset[str] | set[str]
    unused: frozenset[str] | set[str] = frozenset()
    dependencies: tuple[str, ...] = ()
    doc: str = ""
    missing: frozenset[str] | set[str] | None = None
    namespaces: tuple[str, ...] = ()
    default_namespace: str = "translation"
    config: Mapping[str, Any] = field(default_factory=dict)
    flat: bool = False
    files: Mapping[str, str] = field(default_factory=dict)
    gap: str | None = None
    values: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome:
    candidates: frozenset[str]
    cleanup_refused: bool
    missing: frozenset[str]
    issues: tuple[str, ...]


def params(cases: Iterable[Case]) -> list[Any]:
    """`cases` as pytest parameters: ids from the cases, gaps as strict xfails."""
    marked = []
    for case in cases:
        marks = [pytest.mark.xfail(reason=case.gap, strict=True)] if case.gap else []
        marked.append(pytest.param(case, id=case.id, marks=marks))
    return marked


def check(case: Case, root: Path) -> None:
    """Assert that `case` passes (see the module docstring), on projects made under `root`."""
    full = run(case, root / "full", case.used | case.unused)
    assert not full.cleanup_refused, f"cleanup refused: {full.issues}"
    assert not full.missing, f"reported missing though in the locale: {sorted(full.missing)}"
    assert full.candidates == frozenset(case.unused), (
        f"used keys offered: {sorted(full.candidates - case.unused)}; "
        f"unused keys not offered: {sorted(frozenset(case.unused) - full.candidates)}"
    )
    absent = run(case, root / "absent", frozenset(case.unused))
    expected = frozenset(case.used if case.missing is None else case.missing)
    assert absent.missing == expected, (
        f"used keys not reported missing: {sorted(expected - absent.missing)}; "
        f"reported missing though not used: {sorted(absent.missing - expected)}"
    )


def run(case: Case, root: Path, keys: Iterable[str]) -> Outcome:
    """Write the case's project under `root` with `keys` in the source locale, then run
    `cleanup --dry-run` and `validate` on it."""
    write_project(case, root, keys)
    cleanup = _execute("cleanup", root, CleanupOptions(dry_run=True))
    validate = _execute("validate", root, ValidateOptions())
    issues = tuple(
        f"{issue.code}: {issue.message}" for issue in (*cleanup.issues, *validate.issues)
    )
    return Outcome(
        candidates=frozenset(cleanup.data.keys) if cleanup.ok else frozenset(),
        cleanup_refused=not cleanup.ok,
        missing=frozenset(validate.data.missing),
        issues=issues,
    )


def write_project(case: Case, root: Path, keys: Iterable[str]) -> None:
    root.mkdir(parents=True)
    manifest = {"name": "conformance", "dependencies": dict.fromkeys(case.dependencies, "*")}
    _write(root / "package.json", json.dumps(manifest, indent=2))
    for name, text in {**case.code, **case.files}.items():
        _write(root / name, text)
    config: dict[str, Any] = {"src": "src", "reference": {"maxUnusedShare": 1}}
    if case.namespaces:
        config["locales"] = {
            "mode": "locale_directory",
            "structure": "locale_per_dir",
            "namespaces": "file",
            "defaultNamespace": case.default_namespace,
        }
        if case.flat:
            config["locales"]["keySeparator"] = False
    elif case.flat:
        config["locales"] = {"keySeparator": False}
    config = _merged(config, case.config)
    _write(root / "i18nprune.config.json", json.dumps(config, indent=2))
    for path, content in _locale_files(case, keys).items():
        _write(root / path, json.dumps(content, indent=2, ensure_ascii=False))


def _locale_files(case: Case, keys: Iterable[str]) -> dict[str, dict[str, Any]]:
    directory = str(case.config.get("locales", {}).get("directory", "locales"))
    files: dict[str, dict[str, Any]] = {}
    if case.namespaces:
        for namespace in case.namespaces:
            files[f"{directory}/en/{namespace}.json"] = {}
    else:
        files[f"{directory}/en.json"] = {}
    for key in sorted(keys):
        if case.namespaces:
            namespace, _, path = key.partition(":")
            assert namespace in case.namespaces, f"{key}: name a namespace of the case"
            target = files[f"{directory}/en/{namespace}.json"]
        else:
            path, target = key, files[f"{directory}/en.json"]
        text = case.values.get(key, f"Text of {key}")
        _put(target, [path] if case.flat else path.split("."), text)
    return files


def _put(tree: dict[str, Any], parts: list[str], text: Any) -> None:
    for part in parts[:-1]:
        child = tree.setdefault(part, {})
        assert isinstance(child, dict), f"{'.'.join(parts)} nests under a text"
        tree = child
    tree[parts[-1]] = text


def _merged(base: dict[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for name, value in extra.items():
        if isinstance(value, Mapping) and isinstance(merged.get(name), dict):
            merged[name] = _merged(merged[name], value)
        else:
            merged[name] = value
    return merged


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _execute(kind: str, root: Path, options: Any) -> Any:
    handle = ProjectHandle(ProjectRequest(cwd=root, no_cache=True), env={})
    return trio.run(execute, OPS[kind], handle, options, discard)


def check_app(run_cli: Any, root: Path, unused: set[str], missing: list[str]) -> list[str]:
    """The real CLI (`run_cli`, as subprocesses) on the app-shaped project at `root`:
    `cleanup --dry-run --json` offers exactly `unused`, `validate --json` reports exactly
    `missing`, and no file failed to parse. Returns the issue codes of both runs."""
    cleanup = run_cli("cleanup", "--dry-run", "--json", cwd=root)
    validate = run_cli("validate", "--json", cwd=root)
    assert cleanup.code == 0, cleanup.stdout
    assert set(cleanup.envelope["data"]["keys"]) == unused
    assert validate.envelope["data"]["missing"] == missing
    codes = [issue["code"] for issue in (*cleanup.envelope["issues"], *validate.envelope["issues"])]
    assert "i18nprune.scan.parse_error" not in codes
    return codes
