"""The lock file's own rules: what `assess` says of a leaf in each state, and that reading gives
back exactly what rendering wrote."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from i18nprune.envelope import Code
from i18nprune.translate.lock import (
    LockEntry,
    LockFileError,
    assess,
    lock_key,
    parse_lock,
    render_lock,
    split_lock_key,
    text_hash,
)
from tests.properties import examples

GENERATED = LockEntry(text_hash("Hello"), text_hash("Bonjour"))


def never() -> bool:
    raise AssertionError("asked whether a leaf that generate never marked lost its mark")


def yes() -> bool:
    return True


def no() -> bool:
    return False


@pytest.mark.parametrize(
    ("entry", "source", "value", "verdict"),
    [
        (None, "Hello", "Bonjour", "untracked"),
        (GENERATED, "Hello", "Bonjour", "fresh"),
        (GENERATED, "Hello", "Salut", "edited"),
        (GENERATED, "Hello there", "Bonjour", "retranslate"),
        (GENERATED, "Hello there", "Salut", "stale"),
        (LockEntry(GENERATED.source, GENERATED.value, edited=True), "Hi", "Bonjour", "stale"),
        # reported stale with "Salut", then changed by a person: settled
        (
            LockEntry(GENERATED.source, GENERATED.value, stale=text_hash("Salut")),
            "Hi",
            "Coucou",
            "resolved",
        ),
        (
            LockEntry(GENERATED.source, GENERATED.value, stale=text_hash("Salut")),
            "Hi",
            "Salut",
            "stale",
        ),
    ],
)
def test_assess_names_the_state_of_a_leaf(
    entry: LockEntry | None, source: str, value: str, verdict: str
) -> None:
    assert assess(entry, source, value, accepted=never) == verdict


def test_removing_the_mark_generate_set_settles_a_stale_leaf() -> None:
    marked = LockEntry(
        GENERATED.source, GENERATED.value, edited=True, stale=text_hash("Salut"), marked=True
    )
    assert assess(marked, "Hi", "Salut", accepted=yes) == "resolved"
    assert assess(marked, "Hi", "Salut", accepted=no) == "stale"


def test_a_lock_reads_back_as_rendered_and_renders_the_same_bytes() -> None:
    lock = {
        "fr/common": {
            'say "hi"\\now': LockEntry(text_hash("a"), text_hash("b"), edited=True),
            "items_many": LockEntry(text_hash("c"), text_hash("d"), origin="items_other"),
        },
        "de": {
            "é.ü": LockEntry(
                text_hash("e"), text_hash("f"), edited=True, stale=text_hash("g"), marked=True
            )
        },
        "it": {},
    }
    raw = render_lock(lock)
    assert parse_lock(raw) == {key: entries for key, entries in lock.items() if entries}
    assert render_lock(parse_lock(raw)) == raw
    assert raw.decode().splitlines()[3] == '    "de": {'  # sorted, empty targets left out


def test_lock_keys_keep_namespaces_apart() -> None:
    assert lock_key("fr", None) == "fr" and lock_key("fr", "auth/login") == "fr/auth/login"
    assert split_lock_key("fr/auth/login") == ("fr", "auth/login")
    assert split_lock_key("fr") == ("fr", None)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b'{"version": 1, "targets": {},}', "i18nprune.lock.json:1:29: trailing comma"),
        (b'{"version": 2, "targets": {}}', "version 2 was written by a newer i18nprune"),
        (b'{"version": 1}', "`targets` must be an object"),
        (
            b'{"version": 1, "targets": {"fr": {"a": {"source": "x", "value": "y"}}}}',
            "i18nprune.lock.json:1:41: `source` must be a hash of 12 digits",
        ),
        (
            b'{"version": 1,\n "targets": {"fr": {"a": {"source": "aaaaaaaaaaaa", "value": '
            b'"aaaaaaaaaaaa", "colour": 1}}}}',
            "i18nprune.lock.json:2:",
        ),
        (b"[]", "the top level is an array"),
    ],
)
def test_a_malformed_lock_is_refused_with_where_and_why(raw: bytes, message: str) -> None:
    with pytest.raises(LockFileError) as caught:
        parse_lock(raw)
    assert caught.value.issue.code == Code.LOCK_INVALID
    assert message in caught.value.issue.message
    assert "delete it" in caught.value.issue.message or "upgrade" in caught.value.issue.message


_LOCK_TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=6) | st.sampled_from(
    ['a"b', "a\\b", "tab\there", "\x00\x1f", "ünï", "a.b[0]"]
)
_HASHES = st.sampled_from([text_hash("x"), text_hash("y")]) | st.text(
    st.characters(exclude_categories=["Cs"]), min_size=12, max_size=12
)
_ENTRIES = st.builds(
    LockEntry,
    source=_HASHES,
    value=_HASHES,
    origin=st.none() | _LOCK_TEXT,
    edited=st.booleans(),
    stale=st.none() | _HASHES,
    marked=st.booleans(),
)


def _rendered_by_hand(lock: dict[str, dict[str, LockEntry]]) -> bytes:
    """The lock file's layout spelled out with `json.dumps` for every string."""

    def entry_text(entry: LockEntry) -> str:
        fields = [f'"source": {json.dumps(entry.source, ensure_ascii=False)}']
        fields.append(f'"value": {json.dumps(entry.value, ensure_ascii=False)}')
        if entry.origin is not None:
            fields.append(f'"from": {json.dumps(entry.origin, ensure_ascii=False)}')
        if entry.edited:
            fields.append('"edited": true')
        if entry.stale is not None:
            fields.append(f'"stale": {json.dumps(entry.stale, ensure_ascii=False)}')
        if entry.marked:
            fields.append('"marked": true')
        return "{" + ", ".join(fields) + "}"

    targets = [
        f"    {json.dumps(key, ensure_ascii=False)}: {{\n"
        + ",\n".join(
            f"      {json.dumps(path, ensure_ascii=False)}: {entry_text(entry)}"
            for path, entry in sorted(entries.items())
        )
        + "\n    }"
        for key, entries in sorted(lock.items())
        if entries
    ]
    body = ",\n".join(targets)
    return (
        '{\n  "version": 1,\n  "targets": {\n' + body + ("\n" if body else "") + "  }\n}\n"
    ).encode()


@pytest.mark.slow
@settings(max_examples=examples(200))
@given(st.dictionaries(_LOCK_TEXT, st.dictionaries(_LOCK_TEXT, _ENTRIES, max_size=5), max_size=3))
def test_a_lock_renders_one_entry_a_line_escaping_what_json_escapes(
    lock: dict[str, dict[str, LockEntry]],
) -> None:
    rendered = render_lock(lock)

    assert rendered == _rendered_by_hand(lock)
    assert parse_lock(rendered) == {key: entries for key, entries in lock.items() if entries}
