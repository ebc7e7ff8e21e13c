"""docs/config.md is the generator's output, and names every schema key and variable.

CI runs the test suite, so a schema change without `python tools/config_reference.py
--write` fails here.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import msgspec.inspect as schema_info
import pytest

from i18nprune.config import environment
from i18nprune.config.schema import Config
from i18nprune.project import user_home
from i18nprune.translate.providers import PROVIDERS
from tests.conftest import REPO

DOCS = REPO / "docs" / "config.md"


def _load_generator() -> ModuleType:
    """`tools/config_reference.py`, a developer tool outside the installed package."""
    spec = importlib.util.spec_from_file_location(
        "config_reference", REPO / "tools/config_reference.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


doc = _load_generator()


def _schema_paths(struct: schema_info.StructType, prefix: str = "") -> Iterator[str]:
    """Every key of the schema as a dotted camelCase path, `[]` for list items — walked here
    independently of the generator."""
    for field in struct.fields:
        path = f"{prefix}.{field.encode_name}" if prefix else field.encode_name
        yield path
        kinds = [field.type]
        suffix = ""
        while kinds:
            kind = kinds.pop()
            if isinstance(kind, schema_info.UnionType):
                kinds.extend(kind.types)
            elif isinstance(kind, schema_info.ListType):
                kinds.append(kind.item_type)
                suffix = "[]"
            elif isinstance(kind, schema_info.StructType):
                yield from _schema_paths(kind, path + suffix)


def _schema() -> schema_info.StructType:
    info = schema_info.type_info(Config)
    assert isinstance(info, schema_info.StructType)
    return info


def test_docs_config_md_is_the_generated_reference() -> None:
    assert DOCS.read_text(encoding="utf-8") == doc.render(), (
        "docs/config.md is not current: run `python tools/config_reference.py --write`"
    )


def test_every_schema_key_has_a_row() -> None:
    text = DOCS.read_text(encoding="utf-8")
    paths = list(_schema_paths(_schema()))
    assert len(paths) > 50
    assert [path for path in paths if f"| `{path}` |" not in text] == []
    assert [entry.path for entry in doc.entries()] == paths


def test_every_environment_variable_is_documented() -> None:
    text = DOCS.read_text(encoding="utf-8")
    names = [
        *environment._STRING_FIELDS,
        environment.FUNCTIONS_VARIABLE,
        environment.WORKERS_VARIABLE,
        environment.NO_DISCOVERY_VARIABLE,
        doc.HOME_VARIABLE,
        "I18NPRUNE_TRANSLATE_<ID>_API_KEY",
        "I18NPRUNE_TRANSLATE_<ID>_URL",
        "I18NPRUNE_TRANSLATE_<ID>_BASE_URL",
        "I18NPRUNE_TRANSLATE_<ID>_MODEL",
        *(name for info in PROVIDERS.values() for name in info.env_vars),
    ]
    assert [name for name in names if f"`{name}`" not in text] == []
    # the home variable the reference names is the one the tool reads
    assert user_home({doc.HOME_VARIABLE: "/somewhere"}) == Path("/somewhere")


def test_defaults_and_types_come_from_the_schema() -> None:
    rows = {entry.path: entry for entry in doc.entries()}
    assert rows["locales.source"].default == '`"en"`'
    assert rows["translate.workers"] == doc.Entry(
        "translate.workers", "integer", "`4`", rows["translate.workers"].description
    )
    assert rows["functions"].default == '`["t"]`'
    assert rows["translate.providers[].id"].default == "required"
    assert rows["translate.providers"].default == (
        '`[{"id": "google", "rateLimit": {"maxConcurrency": 8, "rps": 20}}]`'
    )
    # Literal values in the order the schema declares them, the default first
    assert rows["locales.structure"].type == (
        'one of `"locale_file"`, `"locale_per_dir"`, `"feature_bundle"`'
    )
    assert rows["cache.dir"].type == "string or `null`"
    # a docstring in schema.py is the description; a variable that sets the key is named
    assert rows["locales.keySeparator"].description.startswith("Between nested keys;")
    assert rows["src"].description.endswith("Also set by `I18NPRUNE_SRC`.")


def test_the_description_table_has_no_stale_or_duplicate_entries() -> None:
    fields = {(owner.__name__, field.name) for _path, owner, field in doc._walk(_schema(), "")}
    assert sorted(set(doc.DESCRIPTIONS) - fields) == []
    assert sorted(set(doc.DESCRIPTIONS) & set(doc.field_docstrings())) == []


def test_an_undocumented_field_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(doc.DESCRIPTIONS, ("TranslatePolicy", "max_attempts"))
    with pytest.raises(ValueError, match=r"translate\.policy\.maxAttempts"):
        doc.entries()


def test_check_and_write_modes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "docs" / "config.md"
    assert doc.main(["--check", str(target)]) == 1
    assert "is not current" in capsys.readouterr().err
    assert doc.main(["--write", str(target)]) == 0
    assert doc.main(["--check", str(target)]) == 0
    target.write_text(target.read_text(encoding="utf-8") + "edited by hand\n", encoding="utf-8")
    assert doc.main(["--check", str(target)]) == 1
    assert doc.main([]) == 0
    assert capsys.readouterr().out == doc.render()
