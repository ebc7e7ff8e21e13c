"""Config content the schema rejects: unknown keys with "did you mean", invalid values."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from i18nprune.config import LoadedConfig
from i18nprune.envelope import Code, Issue, ProblemError

Load = Callable[..., LoadedConfig]
Write = Callable[[str, str], Path]


def _rejection(load: Load) -> Issue:
    with pytest.raises(ProblemError) as raised:
        load()
    return raised.value.issue


def test_unknown_nested_key_names_path_line_and_suggestion(load: Load, write: Write) -> None:
    path = write("i18nprune.config.json", '{\n  "locales": {\n    "sorce": "en"\n  }\n}\n')
    issue = _rejection(load)
    assert issue.code == Code.CONFIG_UNKNOWN_KEY
    assert issue.message == (
        f"{path}:3: unknown key `locales.sorce`; did you mean `locales.source`?"
    )
    assert issue.path == f"{path}:3"


def test_unknown_top_level_key_is_an_error(load: Load, write: Write) -> None:
    write("i18nprune.config.json", '{"fuctions": ["t"]}')
    issue = _rejection(load)
    assert issue.code == Code.CONFIG_UNKNOWN_KEY
    assert "did you mean `functions`?" in issue.message


def test_snake_case_key_suggests_the_camel_case_name(load: Load, write: Write) -> None:
    write("i18nprune.config.json", '{"exclude": {"use_default_skip": false}}')
    assert "did you mean `exclude.useDefaultSkip`?" in _rejection(load).message


def test_key_at_the_wrong_level_suggests_where_it_belongs(load: Load, write: Write) -> None:
    write("i18nprune.config.json", '{"source": "en"}')
    assert "did you mean `locales.source`?" in _rejection(load).message


def test_unknown_key_without_a_close_match_lists_the_allowed_keys(load: Load, write: Write) -> None:
    write("i18nprune.config.json", '{"cache": {"zzz": 1}}')
    message = _rejection(load).message
    assert "unknown key `cache.zzz`" in message
    assert "the keys allowed here are `enabled`, `dir`" in message


def test_unknown_key_inside_a_provider_row_is_found(load: Load, write: Write) -> None:
    path = write(
        "i18nprune.config.json",
        '{"translate": {\n "providers": [\n  {"id": "deepl",\n   "apikey": "x"}]}}',
    )
    issue = _rejection(load)
    assert issue.code == Code.CONFIG_UNKNOWN_KEY
    assert issue.message == (
        f"{path}:4: unknown key `translate.providers[0].apikey`; "
        "did you mean `translate.providers[0].apiKey`?"
    )


def test_wrong_type_names_path_line_expected_and_got(load: Load, write: Write) -> None:
    path = write("i18nprune.config.json", '{\n  "locales": {"source": 5}\n}')
    issue = _rejection(load)
    assert issue.code == Code.CONFIG_INVALID
    assert issue.message == f"{path}:2: `locales.source` must be a string, got the number `5`"


def test_invalid_choice_lists_the_allowed_values(load: Load, write: Write) -> None:
    write("i18nprune.config.json", '{"locales": {"mode": "flat"}}')
    issue = _rejection(load)
    assert issue.code == Code.CONFIG_INVALID
    assert "`locales.mode` must be one of `flat_file`, `locale_directory`" in issue.message
    assert 'got the string `"flat"`' in issue.message


def test_optional_choice_mentions_null(load: Load, write: Write) -> None:
    write(
        "i18nprune.config.json",
        '{"reference": {"commands": {"sync": {"uncertainKeyPolicy": "keep"}}}}',
    )
    message = _rejection(load).message
    assert "`reference.commands.sync.uncertainKeyPolicy` must be one of" in message
    assert "or `null`" in message


def test_list_of_strings_expected(load: Load, write: Write) -> None:
    write("i18nprune.config.json", '{"functions": "t"}')
    assert "`functions` must be a list of strings, got the string" in _rejection(load).message


def test_boolean_is_not_an_integer(load: Load, write: Write) -> None:
    write("i18nprune.config.json", '{"translate": {"workers": true}}')
    message = _rejection(load).message
    assert "`translate.workers` must be a whole number, got `true`" in message


def test_provider_row_without_id_is_invalid(load: Load, write: Write) -> None:
    write("i18nprune.config.json", '{"translate": {"providers": [{"enabled": true}]}}')
    issue = _rejection(load)
    assert issue.code == Code.CONFIG_INVALID
    assert "`translate.providers[0]` is missing the required field `id`" in issue.message


def test_invalid_api_key_message_never_shows_the_value(load: Load, write: Write) -> None:
    write(
        "i18nprune.config.json",
        '{"translate": {"providers": [{"id": "deepl", "apiKey": 987654321}]}}',
    )
    issue = _rejection(load)
    assert issue.code == Code.CONFIG_INVALID
    assert "`translate.providers[0].apiKey` must be a string or `null`, got a number" in (
        issue.message
    )
    assert "987654321" not in issue.message


def test_errors_in_a_ts_config_point_at_its_line(load: Load, write: Write) -> None:
    path = write(
        "i18nprune.config.ts",
        "export default {\n  locales: {\n    directry: 'x',\n  },\n};\n",
    )
    issue = _rejection(load)
    assert issue.code == Code.CONFIG_UNKNOWN_KEY
    assert issue.message.startswith(f"{path}:3: unknown key `locales.directry`")


@pytest.mark.parametrize("root", ["mappings", "data.messages", "translation", ""])
def test_a_locales_root_of_object_keys_is_accepted(load: Load, write: Write, root: str) -> None:
    write("i18nprune.config.json", json.dumps({"locales": {"root": root}}))
    assert load().config.locales.root == root


@pytest.mark.parametrize("root", ["a..b", ".mappings", "mappings.", "list[0]", " mappings"])
def test_a_locales_root_that_names_no_object_is_a_config_error(
    load: Load, write: Write, root: str
) -> None:
    path = write(
        "i18nprune.config.json", '{\n  "locales": {\n    "root": ' + json.dumps(root) + "}}"
    )
    issue = _rejection(load)
    assert issue.code == Code.CONFIG_INVALID
    assert issue.message == (
        f'{path}:3: `locales.root` must be a dotted path of object keys (`"mappings"`, '
        f'`"data.messages"`), or `""` for the top level, got the string `{json.dumps(root)}`'
    )


@pytest.mark.parametrize(
    ("name", "value"),
    [("keySeparator", "-"), ("keySeparator", "::"), ("nsSeparator", "|"), ("pluralSeparator", "-")],
)
def test_separators_of_any_string_are_accepted(
    load: Load, write: Write, name: str, value: str
) -> None:
    write("i18nprune.config.json", json.dumps({"locales": {name: value}}))
    assert _field(load().config.locales, name) == value


@pytest.mark.parametrize("name", ["keySeparator", "pluralSeparator", "contextSeparator"])
def test_an_empty_separator_is_a_config_error(load: Load, write: Write, name: str) -> None:
    path = write("i18nprune.config.json", '{\n  "locales": {\n    "' + name + '": ""}}')
    issue = _rejection(load)
    assert issue.code == Code.CONFIG_INVALID
    assert issue.message.startswith(f"{path}:3: `locales.{name}` must be a non-empty string")


def _field(section: object, name: str) -> object:
    """The value of the camelCase config field `name` of `section`."""
    snake = "".join(f"_{char.lower()}" if char.isupper() else char for char in name)
    return getattr(section, snake)
