"""Golden files: a locale file, the edits made to it, and the exact bytes that must be written.

Each folder of `golden/` holds `before.json`, `operations.json` (a list of
`{"set": path, "value": …, "order": [...]?}` and `{"delete": path}`) and `after.json`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from i18nprune.locales.jsondoc import LocaleDocument

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(case.name for case in GOLDEN.iterdir() if case.is_dir())


def _apply(document: LocaleDocument, operation: dict[str, Any]) -> None:
    if "delete" in operation:
        document.delete(operation["delete"])
    else:
        document.set(operation["set"], operation["value"], order=operation.get("order"))


def test_every_golden_case_is_complete() -> None:
    assert len(CASES) >= 14
    for case in CASES:
        names = {path.name for path in (GOLDEN / case).iterdir()}
        assert {"before.json", "operations.json", "after.json"} <= names, case


@pytest.mark.parametrize("case", CASES)
def test_edits_write_the_golden_bytes(case: str, tmp_path: Path) -> None:
    folder = GOLDEN / case
    target = tmp_path / "fr.json"
    target.write_bytes((folder / "before.json").read_bytes())
    document = LocaleDocument.load(target, "fr.json")
    for operation in json.loads((folder / "operations.json").read_text("utf-8")):
        _apply(document, operation)

    assert document.save(root=tmp_path)
    assert target.read_bytes() == (folder / "after.json").read_bytes()


@pytest.mark.parametrize("case", CASES)
def test_golden_result_reloads_to_the_same_bytes(case: str, tmp_path: Path) -> None:
    target = tmp_path / "fr.json"
    target.write_bytes((GOLDEN / case / "after.json").read_bytes())
    document = LocaleDocument.load(target, "fr.json")
    # Adding a key and removing it again makes the document lay the whole tree out anew.
    document.set("zz_probe", "x")
    document.delete("zz_probe")

    assert document.render() == target.read_bytes()
