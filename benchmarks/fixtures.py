"""The deterministic projects every benchmark runs on: a source locale whose leaves carry
placeholders and plurals, and TSX/Vue/Svelte source files whose `t('ns.key')` calls reference them.

The same `Shape` always writes the same bytes (a seeded `random.Random`), so two sessions, or
ours and a peer CLI in one session, measure the same project.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

SEED = 20261129
SOURCE = "en"
NAMESPACE_SIZE = 200
WORDS = (
    "save",
    "cancel",
    "profile",
    "settings",
    "welcome",
    "back",
    "next",
    "items",
    "account",
    "billing",
    "invoice",
    "team",
    "member",
    "report",
    "export",
    "search",
    "filter",
    "upload",
)
CODE_WORDS = ("alpha", "beta", "gamma", "delta", "omega", "panel", "button", "title", "summary")
Framework = Literal["tsx", "vue", "svelte"]
Sites = Literal["spread", "one_file", "none"]

# The provider settings of the issue's table: batch 100 × concurrency 8 ÷ 20 ms = 40,000 texts/s.
BATCH, CONCURRENCY, WORKERS, LATENCY_S = 100, 8, 4, 0.02


def provider_limit(latency_s: float = LATENCY_S) -> float:
    """Texts per second the provider settings allow: every slot busy with a full batch."""
    return BATCH * CONCURRENCY / latency_s


@dataclass(frozen=True)
class Shape:
    """What a fixture project holds.

    `leaves`: source-locale leaves (an i18next plural pair counts as its two leaves).
    `files`: source files. `sites`: where the `t()` calls are: `spread` over the files (each
    file with calls references its own slice of the leaves, so every leaf has one call site),
    `one_file` (every call in one large `src/all.tsx`; `files` is ignored), or `none` (one file
    without calls: the scan proves nothing and every leaf is in the template).
    `share_with_sites`: the share of files that call `t` (the others are plain components).
    `blocks`: filler code blocks per file (~220 bytes each) so that files weigh what real
    components weigh. `vue` / `svelte`: the share of files in those formats (the rest is TSX).
    """

    leaves: int
    files: int
    sites: Sites = "spread"
    share_with_sites: float = 1.0
    blocks: int = 2
    vue: float = 0.1
    svelte: float = 0.1

    def key(self) -> str:
        """A short stable name of this shape, for folder names."""
        digest = hashlib.sha1(json.dumps(asdict(self), sort_keys=True).encode()).hexdigest()
        return f"{self.sites}-{self.leaves}l-{self.files}f-{digest[:8]}"


@dataclass(frozen=True)
class Leaf:
    """One source leaf (or i18next plural pair) and how code calls it."""

    key: str  # the key code uses: `s3.k612` (a plural pair's base key, without `_one`/`_other`)
    texts: dict[str, str]  # locale path → source text
    plural: bool  # called with `{ count }`


@dataclass(frozen=True)
class Written:
    """A fixture on disk: its root, its counts, and what it weighs."""

    root: Path
    shape: Shape
    leaves: int
    files: int
    call_sites: int
    source_bytes: int

    def reset_targets(self) -> None:
        """Delete every locale file but the source's, so that the next `generate` is cold."""
        for path in (self.root / "locales").glob("*.json"):
            if path.stem != SOURCE:
                path.unlink()


def _text(rng: random.Random, index: int) -> str:
    words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 6)))
    return f"{words.capitalize()} {index}"


def leaves(count: int) -> list[Leaf]:
    """`count` source leaves with distinct texts (so no batch is shrunk by de-duplication):
    every 13th an i18next `_one`/`_other` pair, every 29th an ICU plural, every 5th with
    `{{name}}`, every 11th wrapped in `<b>` tags."""
    rng = random.Random(SEED)
    out: list[Leaf] = []
    made = index = 0
    while made < count:
        key = f"s{index // NAMESPACE_SIZE}.k{index}"
        text = _text(rng, index)
        if index % 13 == 7 and count - made >= 2:
            one = f"One {text.lower()}"
            other = f"{{{{count}}}} {text.lower()}"
            out.append(Leaf(key, {f"{key}_one": one, f"{key}_other": other}, plural=True))
            made += 2
        else:
            if index % 29 == 3:
                text = f"{{count, plural, one {{# {text}}} other {{# {text}s}}}}"
            elif index % 5 == 0:
                text += ", {{name}}"
            if index % 11 == 0:
                text = f"<b>{text}</b>"
            out.append(Leaf(key, {key: text}, plural=index % 29 == 3))
            made += 1
        index += 1
    return out


def _locale(items: list[Leaf]) -> dict[str, dict[str, str]]:
    document: dict[str, dict[str, str]] = {}
    for leaf in items:
        for path, text in leaf.texts.items():
            head, tail = path.split(".", 1)
            document.setdefault(head, {})[tail] = text
    return document


def _call(leaf: Leaf, callee: str) -> str:
    return f"{callee}('{leaf.key}', {{ count: n }})" if leaf.plural else f"{callee}('{leaf.key}')"


def _filler(rng: random.Random, blocks: int) -> list[str]:
    """Ordinary component logic with no translation calls (~220 bytes a block)."""
    lines = []
    for block in range(blocks):
        word = rng.choice(CODE_WORDS)
        values = ", ".join(str(rng.randint(0, 999)) for _ in range(8))
        lines += [
            f"  const {word}{block} = useMemo(() => {{",
            f"    const values = [{values}];",
            f"    return values.filter((v) => v % {rng.randint(2, 9)} === 0)",
            f"      .map((v) => ({{ key: `{word}-${{v}}`, value: v * count }}));",
            "  }, [count]);",
        ]
    return lines


def _tsx(rng: random.Random, index: int, calls: list[Leaf], blocks: int) -> str:
    name = f"Widget{index}"
    lines = ["import React, { useMemo, useState } from 'react';"]
    if calls:
        lines.append("import { useTranslation } from 'react-i18next';")
    lines += [
        f"import {{ format{index % 50} }} from '../lib/format{index % 50}';",
        "",
        f"export interface {name}Props {{ id: string; count: number; n: number; label?: string }}",
        "",
        f"export function {name}({{ id, count, n, label }}: {name}Props) {{",
    ]
    if calls:
        lines.append("  const { t } = useTranslation();")
    lines.append("  const [open, setOpen] = useState(false);")
    lines += _filler(rng, blocks)
    lines += ["  return (", f'    <section className="{name.lower()}" data-id={{id}}>']
    lines += [f"      <p>{{{_call(leaf, 't')}}}</p>" for leaf in calls]
    lines += [
        "      <button onClick={() => setOpen(!open)}>{label ?? id}</button>",
        "    </section>",
        "  );",
        "}",
    ]
    return "\n".join(lines) + "\n"


def _vue(rng: random.Random, index: int, calls: list[Leaf], blocks: int) -> str:
    half = len(calls) // 2
    lines = ["<template>", f'  <section class="widget{index}">']
    lines += [f"    <p>{{{{ {_call(leaf, '$t')} }}}}</p>" for leaf in calls[:half]]
    lines += [
        '    <button @click="open = !open">{{ label }}</button>',
        "  </section>",
        "</template>",
        "",
        '<script setup lang="ts">',
        "import { ref, useMemo } from './vue-shim';",
    ]
    if calls:
        lines += ["import { useI18n } from 'vue-i18n';", "const { t } = useI18n();"]
    lines += ["const open = ref(false);", "const count = 3;", "const n = 2;", "const label = 'x';"]
    lines += _filler(rng, blocks)
    lines += [f"export const text{i} = {_call(leaf, 't')};" for i, leaf in enumerate(calls[half:])]
    lines.append("</script>")
    return "\n".join(lines) + "\n"


def _svelte(rng: random.Random, index: int, calls: list[Leaf], blocks: int) -> str:
    lines = ['<script lang="ts">']
    if calls:
        lines.append("  import { t } from 'svelte-i18n';")
    lines += ["  import { useMemo } from './svelte-shim';", "  export let count = 3;"]
    lines += ["  export let n = 2;", "  let open = false;"]
    lines += _filler(rng, blocks)
    lines += ["</script>", "", f'<section class="widget{index}">']
    lines += [f"  <p>{{{_call(leaf, '$t')}}}</p>" for leaf in calls]
    lines += ["  <button on:click={() => (open = !open)}>toggle</button>", "</section>"]
    return "\n".join(lines) + "\n"


WRITERS = {"tsx": _tsx, "vue": _vue, "svelte": _svelte}


def _framework(rng: random.Random, shape: Shape) -> Framework:
    draw = rng.random()
    if draw < shape.vue:
        return "vue"
    if draw < shape.vue + shape.svelte:
        return "svelte"
    return "tsx"


def _spread(items: list[Leaf], shape: Shape) -> list[list[Leaf]]:
    """Each file's calls: the leaves dealt in order over the files that call `t`."""
    rng = random.Random(SEED + 1)
    calling = [rng.random() < shape.share_with_sites for _ in range(shape.files)]
    callers = [index for index, calls in enumerate(calling) if calls] or [0]
    per_file: list[list[Leaf]] = [[] for _ in range(shape.files)]
    for position, leaf in enumerate(items):
        per_file[callers[position * len(callers) // max(len(items), 1)]].append(leaf)
    return per_file


def _one_file(items: list[Leaf]) -> str:
    lines = [
        "import { useTranslation } from 'react-i18next';",
        "",
        "export function useAllTexts(n: number): string[] {",
        "  const { t } = useTranslation();",
        "  return [",
    ]
    lines += [f"    {_call(leaf, 't')}, // {index:07d}" for index, leaf in enumerate(items)]
    lines += ["  ];", "}"]
    return "\n".join(lines) + "\n"


def write_config(
    root: Path, *, workers: int = WORKERS, extra: dict[str, object] | None = None
) -> None:
    """The project's config: source `en`, the libre provider with the issue's batch size and
    concurrency (its base URL comes from `I18NPRUNE_TRANSLATE_LIBRE_URL`, see `provider_env`)."""
    config: dict[str, object] = {
        "locales": {"source": SOURCE},
        "translate": {
            "primary": "libre",
            "workers": workers,
            "providers": [
                {"id": "libre", "batchSize": BATCH, "rateLimit": {"maxConcurrency": CONCURRENCY}}
            ],
        },
        **(extra or {}),
    }
    (root / "i18nprune.config.json").write_text(json.dumps(config, indent=2) + "\n")


def provider_env(base_url: str) -> dict[str, str]:
    """The environment that points the project's libre provider at a loopback fake."""
    return {"I18NPRUNE_TRANSLATE_LIBRE_URL": base_url}


def write(root: Path, shape: Shape) -> Written:
    """Write the project of `shape` into the empty or missing folder `root`."""
    items = leaves(shape.leaves)
    (root / "locales").mkdir(parents=True)
    source = json.dumps(_locale(items), indent=2, ensure_ascii=False) + "\n"
    (root / "locales" / f"{SOURCE}.json").write_text(source)
    write_config(root)
    src = root / "src"
    src.mkdir()
    total = 0
    files = sites = 0
    if shape.sites == "one_file":
        text = _one_file(items)
        (src / "all.tsx").write_text(text)
        return Written(root, shape, shape.leaves, 1, len(items), len(text.encode()))
    if shape.sites == "none":
        text = "export const App = () => null;\n"
        (src / "App.tsx").write_text(text)
        return Written(root, shape, shape.leaves, 1, 0, len(text))
    rng = random.Random(SEED + 2)
    for index, calls in enumerate(_spread(items, shape)):
        framework = _framework(rng, shape)
        text = WRITERS[framework](rng, index, calls, shape.blocks)
        folder = src / f"pkg{index % 40}" / f"feature{index % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        suffix = {"tsx": "Widget", "vue": "View", "svelte": "Panel"}[framework]
        (folder / f"{suffix}{index}.{framework}").write_text(text)
        total += len(text.encode())
        files += 1
        sites += len(calls)
    return Written(root, shape, shape.leaves, files, sites, total)


class FixtureStore:
    """Fixtures written once per session under `folder` and reused by every benchmark that asks
    for the same shape (benchmarks that write into a fixture call `Written.reset_targets`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._written: dict[Shape, Written] = {}

    def get(self, shape: Shape) -> Written:
        """The fixture of `shape`, written on first use."""
        if shape not in self._written:
            root = self.folder / shape.key()
            if root.exists():
                shutil.rmtree(root)
            self._written[shape] = write(root, shape)
        written = self._written[shape]
        written.reset_targets()
        write_config(written.root)
        return written
