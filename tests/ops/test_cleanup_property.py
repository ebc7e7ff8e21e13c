"""A property of `cleanup`: it never removes a key whose exact text appears as a string literal
anywhere in the scanned code, however the code holds it; keys no literal names still go."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
import trio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from i18nprune.ops.cleanup import CleanupOptions
from i18nprune.ops.engine.events import discard
from i18nprune.ops.engine.registry import OPS, execute
from i18nprune.project import ProjectHandle, ProjectRequest

# Key texts: dotted paths and natural-language strings, with quotes, colons and accents.
_SEGMENT = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABC0123456789_-", min_size=1, max_size=8)
_DOTTED = st.lists(_SEGMENT, min_size=1, max_size=4).map(".".join)
_PROSE = st.text(alphabet="abcdefghij ABC,?!'\":éü0123456789", min_size=1, max_size=24).filter(
    lambda text: text.strip() == text and "." not in text
)
_KEYS = st.lists(st.one_of(_DOTTED, _PROSE), min_size=2, max_size=12, unique=True)

# How code holds a key as data: `{0}` is the key as a JavaScript literal.
_HOLDERS = [
    "export const item = {{ label: {0} }};",
    "export const items = [{0}, 'unrelated'];",
    "export const el = <Button label={{{0}}} />;",
    "register({0}, () => 1);",
    "const key = {0}; export default key;",
    "export const map = {{ [{0}]: true }};",
    "// see {0}",
    "export const K = {{ a: {{ b: {0} }} }} as const;",
]


def _literal(text: str, quote: str) -> str:
    if quote == "`":
        return "`" + text.replace("\\", "\\\\").replace("`", "\\`").replace("${", "\\${") + "`"
    escaped = text.replace("\\", "\\\\").replace(quote, "\\" + quote)
    return quote + escaped + quote


@st.composite
def _projects(draw: st.DrawFn) -> tuple[list[str], dict[str, str], set[str]]:
    keys = draw(_KEYS)
    mentioned = set(draw(st.lists(st.sampled_from(keys), max_size=len(keys), unique=True)))
    lines = ["export const used = t('always.used');"]
    for key in sorted(mentioned):
        holder = draw(st.sampled_from(_HOLDERS))
        quote = draw(st.sampled_from(["'", '"', "`"]))
        lines.append(holder.format(_literal(key, quote)))
    files = {"src/data.tsx": "\n".join(lines) + "\n"}
    return keys, files, mentioned


def _cleanup_candidates(keys: list[str], files: dict[str, str]) -> tuple[set[str], dict]:
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        (root / "locales").mkdir()
        (root / "src").mkdir()
        locale = {"always": {"used": "Used"}, **{key: f"text of {key}" for key in keys}}
        (root / "locales/en.json").write_text(json.dumps(locale, ensure_ascii=False))
        (root / "i18nprune.config.json").write_text("{}")
        for name, text in files.items():
            (root / name).write_text(text)
        handle = ProjectHandle(ProjectRequest(cwd=root, no_cache=True), env={})
        options = CleanupOptions(dry_run=True)
        envelope = trio.run(execute, OPS["cleanup"], handle, options, discard)
        return set(envelope.data.keys), json.loads((root / "locales/en.json").read_text())


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_projects())
def test_cleanup_never_offers_a_key_a_literal_names(
    project: tuple[list[str], dict[str, str], set[str]],
) -> None:
    keys, files, mentioned = project

    candidates, _ = _cleanup_candidates(keys, files)

    assert not candidates & mentioned
    # Keys no literal mentions stay removable: the evidence is not just "keep everything".
    assert candidates == set(keys) - mentioned - {"always.used"}
