"""Op options as hosts send them: wire names, comma lists, and errors that name the key."""

from __future__ import annotations

import pytest

from i18nprune.ops.engine.options import OptionsError, decode_options
from i18nprune.ops.file import FileOptions
from i18nprune.ops.generate import GenerateOptions
from i18nprune.ops.sync import SyncOptions


def test_list_options_accept_a_comma_string_or_a_list():
    assert decode_options(SyncOptions, {"target": "fr, de"}).target == ["fr", "de"]
    assert decode_options(SyncOptions, {"target": ["fr", "de,it"]}).target == ["fr", "de", "it"]


@pytest.mark.parametrize(
    ("raw", "key"),
    [
        ({"target": ["fr", 1]}, "target"),
        ({"dry_run": "yes"}, "dry_run"),
        ({"workers": "4"}, "workers"),
        ({"dryrun": True}, "dryrun"),
    ],
)
def test_a_bad_option_is_an_error_naming_its_key(raw, key):
    options_type = GenerateOptions if "workers" in raw else SyncOptions
    with pytest.raises(OptionsError) as caught:
        decode_options(options_type, raw)
    assert caught.value.key == key
    assert key in str(caught.value)


def test_a_missing_required_option_is_named():
    with pytest.raises(OptionsError) as caught:
        decode_options(FileOptions, {"text": "t('a')"})
    assert caught.value.key == "path"
    assert str(caught.value) == "option `path` is required"
