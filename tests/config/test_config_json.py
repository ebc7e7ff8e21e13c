"""Loading i18nprune.config.json: lookup, strict parsing, deep merge over the defaults."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from i18nprune.config import Config, LoadedConfig, ProviderRow, load_config
from i18nprune.envelope import Code, ProblemError

Load = Callable[..., LoadedConfig]
Write = Callable[[str, str], Path]


def test_json_values_are_loaded(load: Load, write: Write) -> None:
    write("i18nprune.config.json", '{"locales": {"source": "de"}, "src": "web"}')
    loaded = load()
    assert loaded.config.locales.source == "de"
    assert loaded.config.src == "web"


def test_loaded_config_path_is_the_file(load: Load, write: Write, tmp_path: Path) -> None:
    write("i18nprune.config.json", "{}")
    assert load().config_path == tmp_path / "i18nprune.config.json"


def test_nested_objects_merge_with_defaults(load: Load, write: Write) -> None:
    write("i18nprune.config.json", '{"translate": {"policy": {"maxAttempts": 5}}}')
    policy = load().config.translate.policy
    assert policy.max_attempts == 5
    assert policy.on_rate_limit == "backoff"


def test_arrays_replace_the_default(load: Load, write: Write) -> None:
    write("i18nprune.config.json", '{"functions": ["$t"]}')
    assert load().config.functions == ["$t"]


def test_translate_providers_replace_the_default_rows(load: Load, write: Write) -> None:
    write("i18nprune.config.json", '{"translate": {"providers": [{"id": "pseudo"}]}}')
    assert load().config.translate.providers == [ProviderRow(id="pseudo")]


def test_no_config_file_runs_on_defaults_with_a_warning(load: Load, tmp_path: Path) -> None:
    loaded = load(env={"I18NPRUNE_NO_DISCOVERY": "1"})
    assert loaded.config == Config()
    assert loaded.config_path is None
    [issue] = loaded.issues
    assert issue.code == Code.CONFIG_FILE_MISSING
    assert issue.severity == "warning"
    assert str(tmp_path) in issue.message


def test_several_config_files_are_an_error_listing_them(load: Load, write: Write) -> None:
    write("i18nprune.config.json", "{}")
    write("i18nprune.config.ts", "export default {}")
    with pytest.raises(ProblemError) as raised:
        load()
    assert raised.value.issue.code == Code.CONFIG_AMBIGUOUS
    assert "i18nprune.config.json, i18nprune.config.ts" in raised.value.issue.message
    assert "-c/--config" in raised.value.issue.message


def test_explicit_config_file_is_loaded_from_anywhere(load: Load, write: Write) -> None:
    other = write("configs/custom.json", '{"src": "client"}')
    write("i18nprune.config.json", '{"src": "ignored"}')
    loaded = load(config_file=other)
    assert loaded.config.src == "client"
    assert loaded.config_path == other


def test_missing_explicit_config_file_is_config_not_found(load: Load, tmp_path: Path) -> None:
    with pytest.raises(ProblemError) as raised:
        load(config_file=tmp_path / "nope.json")
    assert raised.value.issue.code == Code.CONFIG_NOT_FOUND
    assert "nope.json" in raised.value.issue.message


def test_malformed_json_reports_path_line_and_column(load: Load, write: Write) -> None:
    path = write("i18nprune.config.json", '{\n  "src": "a",\n  "functions" ["t"]\n}\n')
    with pytest.raises(ProblemError) as raised:
        load()
    issue = raised.value.issue
    assert issue.code == Code.CONFIG_PARSE_ERROR
    assert issue.message.startswith(f"{path}:3:15: invalid JSON: Expecting ':' delimiter")


def test_json_config_must_be_strict_json(load: Load, write: Write) -> None:
    path = write("i18nprune.config.json", '{"translate": {"workers": NaN}}')
    with pytest.raises(ProblemError) as raised:
        load()
    assert raised.value.issue.code == Code.CONFIG_PARSE_ERROR
    assert raised.value.issue.message.startswith(f"{path}:1:")


def test_json_top_level_must_be_an_object(load: Load, write: Write) -> None:
    write("i18nprune.config.json", '["en"]')
    with pytest.raises(ProblemError) as raised:
        load()
    assert raised.value.issue.code == Code.CONFIG_INVALID
    assert "must be a JSON object" in raised.value.issue.message
    assert "an array" in raised.value.issue.message


def test_utf8_byte_order_mark_is_accepted(load: Load, tmp_path: Path) -> None:
    (tmp_path / "i18nprune.config.json").write_bytes(b'\xef\xbb\xbf{"src": "web"}')
    assert load().config.src == "web"


def test_config_that_is_not_utf8_is_a_parse_error(load: Load, tmp_path: Path) -> None:
    (tmp_path / "i18nprune.config.json").write_bytes(b'{"src": "\xff"}')
    with pytest.raises(ProblemError) as raised:
        load()
    assert raised.value.issue.code == Code.CONFIG_PARSE_ERROR
    assert "not UTF-8" in raised.value.issue.message


def test_root_is_the_real_path(tmp_path: Path, write: Write) -> None:
    write("real/i18nprune.config.json", "{}")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    loaded = load_config(tmp_path / "link", env={})
    assert loaded.root == (tmp_path / "real").resolve()


def test_a_trailing_comma_in_the_config_is_pointed_at_itself(load: Load, write: Write) -> None:
    write("i18nprune.config.json", '{\n  "locales": {"source": "en",},\n  "src": "web"\n}\n')
    with pytest.raises(ProblemError) as raised:
        load()
    issue = raised.value.issue
    assert issue.code == Code.CONFIG_PARSE_ERROR
    assert ":2:29: invalid JSON: trailing comma before `}`" in issue.message
