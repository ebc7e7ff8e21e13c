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
from typing import Any, Literal

from i18nprune.translate.lock import LOCK_FILE, entry_for, lock_key, render_lock

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
    root: Path,
    *,
    workers: int = WORKERS,
    batch: int = BATCH,
    rate_limit: dict[str, float] | None = None,
    extra: dict[str, object] | None = None,
) -> None:
    """The project's config: source `en`, the libre provider with the issue's batch size and
    concurrency (its base URL comes from `I18NPRUNE_TRANSLATE_LIBRE_URL`, see `provider_env`),
    or the `batch` and `rate_limit` (a `rateLimit` object) given."""
    row = {
        "id": "libre",
        "batchSize": batch,
        "rateLimit": rate_limit or {"maxConcurrency": CONCURRENCY},
    }
    config: dict[str, object] = {
        "locales": {"source": SOURCE},
        "translate": {"primary": "libre", "workers": workers, "providers": [row]},
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


NAMESPACE_WORDS = (
    "calendar",
    "weather",
    "media",
    "docker",
    "dns",
    "torrent",
    "rss",
    "usenet",
    "search",
    "users",
    "invites",
    "boards",
    "apps",
    "health",
    "notes",
    "iframe",
)
TARGET_LOCALES = (
    *("ar", "cn", "cr", "cs", "da", "de", "el", "es", "et", "fr", "gl", "he", "hr", "hu"),
    *("it", "ja", "ko", "lt", "lv", "nl", "no", "pl", "pt", "ro", "ru", "sk", "sl", "sv"),
    *("tr", "tw", "uk", "vi", "zh"),
)
"""Homarr's 33 target locales; a shape with fewer takes the first ones."""


@dataclass(frozen=True)
class NamespacedShape:
    """A next-i18next app shaped like homarr: `public/locales/<locale>/<namespace>.json`, one
    file per namespace (`common`, `modules/calendar`, `layout/header/actions/…`), nested
    objects inside, and TSX components that call `useTranslation('<namespace>')`.

    `targets`: target locales beside the source `en` (0: the same app with only the source).
    `namespaces`: namespace files per locale (homarr: 65–83, 1,100 source leaves in 69 KB).
    Each target translates every source leaf except a few (every 7th locale misses ~5 % of
    them), every 4th keeps three namespaces the source no longer has, and the last two carry
    one key the source lacks (so `validate` suggests a `sync`). `files`: components, each
    calling four keys of one namespace. `lock`: an `i18nprune.lock.json` tracking every
    target leaf, as a project that translates with `generate` has (homarr, on Crowdin, has
    none); one leaf in 50 is stale.
    """

    targets: int = len(TARGET_LOCALES)
    namespaces: int = 78
    files: int = 350
    lock: bool = False

    def key(self) -> str:
        """A short stable name of this shape, for folder names."""
        digest = hashlib.sha1(json.dumps(asdict(self), sort_keys=True).encode()).hexdigest()
        return f"namespaced-{self.targets}t-{self.namespaces}n-{digest[:8]}"


@dataclass(frozen=True)
class NamespacedWritten:
    """A namespaced fixture on disk: its root, its counts, and what its locales weigh."""

    root: Path
    shape: NamespacedShape
    source_leaves: int
    locale_files: int
    locale_bytes: int
    files: int
    call_sites: int


def namespace_names(count: int) -> list[str]:
    """`count` namespace names, sorted: `common` and `zod` at the top, then one to three
    folders deep (`modules/calendar`, `layout/header/docker`)."""
    rng = random.Random(SEED + 3)
    names = ["common", "zod", "password-requirements"][:count]
    while len(names) < count:
        depth = rng.choice((1, 1, 2, 2, 2))
        folders = rng.sample(("modules", "layout", "manage", "settings", "widgets", "tools"), 1)
        folders += [rng.choice(NAMESPACE_WORDS) for _ in range(depth - 1)]
        name = "/".join([*folders, f"{rng.choice(NAMESPACE_WORDS)}-{len(names)}"])
        names.append(name)
    return sorted(names)


def _namespace_leaves(rng: random.Random, namespace: str) -> dict[str, str]:
    """One namespace's source leaves by dotted path: mostly small files (median ~13 leaves),
    now and then a large one, nested two to four levels."""
    count = min(80, max(2, int(rng.paretovariate(1.6) * 7)))
    leaves: dict[str, str] = {}
    for index in range(count):
        depth = rng.choice((1, 2, 2, 3, 3, 4))
        segments = [rng.choice(WORDS) for _ in range(depth - 1)] + [f"k{index}"]
        text = _text(rng, index)
        if index % 6 == 1:
            text += " {{count}}"
        leaves[".".join(segments)] = f"{text} ({namespace.rsplit('/', 1)[-1]})"
    return leaves


def _nested(leaves: dict[str, str]) -> dict[str, object]:
    document: dict[str, object] = {}
    for path, text in leaves.items():
        *heads, last = path.split(".")
        node = document
        for head in heads:
            child = node.setdefault(head, {})
            assert isinstance(child, dict)
            node = child
        node[last] = text
    return document


def _write_json(path: Path, document: object) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    path.write_text(text, encoding="utf-8")
    return len(text.encode())


def _translated(code: str, text: str) -> str:
    return f"[{code}] {text}"


def _component(index: int, namespace: str, keys: list[str]) -> str:
    lines = [
        "import { useTranslation } from 'next-i18next';",
        "",
        f"export const Widget{index} = ({{ count }}: {{ count: number }}) => {{",
        f"  const {{ t }} = useTranslation('{namespace}');",
        "  return (",
        f'    <section className="widget{index}">',
    ]
    lines += [f"      <p>{{t('{key}', {{ count }})}}</p>" for key in keys]
    lines += ["    </section>", "  );", "};"]
    return "\n".join(lines) + "\n"


def write_namespaced(root: Path, shape: NamespacedShape) -> NamespacedWritten:
    """Write the app of `shape` into the empty or missing folder `root`."""
    rng = random.Random(SEED + 4)
    names = namespace_names(shape.namespaces)
    sources = {name: _namespace_leaves(rng, name) for name in names}
    locales = root / "public" / "locales"
    written = 0
    files = 0
    for name, leaves in sources.items():
        written += _write_json(locales / SOURCE / f"{name}.json", _nested(leaves))
        files += 1
    lock: dict[str, dict[str, Any]] = {}
    for number, code in enumerate(TARGET_LOCALES[: shape.targets]):
        for name, leaves in sources.items():
            kept = {
                path: _translated(code, text)
                for index, (path, text) in enumerate(leaves.items())
                if number % 7 != 3 or index % 20 != 5
            }
            if number >= shape.targets - 2 and name == names[-3]:
                kept["removed.fromSource"] = _translated(code, "Kept after the source dropped it")
            written += _write_json(locales / code / f"{name}.json", _nested(kept))
            files += 1
            if shape.lock:
                lock[lock_key(code, name)] = {
                    path: entry_for(
                        path, path, leaves.get(path, "") + ("!" if index % 50 == 9 else ""), text
                    )
                    for index, (path, text) in enumerate(kept.items())
                }
        if number % 4 == 0:
            for old in range(3):
                legacy = {"title": _translated(code, f"Legacy page {old}")}
                written += _write_json(locales / code / "legacy" / f"page-{old}.json", legacy)
                files += 1
    if lock:
        (root / LOCK_FILE).write_bytes(render_lock(lock))
    config = {
        "src": "src",
        "locales": {
            "source": SOURCE,
            "directory": "public/locales",
            "mode": "locale_directory",
            "structure": "locale_per_dir",
            "namespaces": "file",
            "defaultNamespace": "common",
        },
    }
    (root / "i18nprune.config.json").write_text(json.dumps(config, indent=2) + "\n")
    sites = 0
    for index in range(shape.files):
        name = names[index % len(names)]
        paths = list(sources[name])
        keys = [paths[(index // len(names) * 4 + offset) % len(paths)] for offset in range(4)]
        folder = root / "src" / "components" / name.split("/")[0]
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"Widget{index}.tsx").write_text(_component(index, name, keys))
        sites += len(keys)
    return NamespacedWritten(
        root,
        shape,
        sum(len(leaves) for leaves in sources.values()),
        files,
        written,
        shape.files,
        sites,
    )


@dataclass(frozen=True)
class WithFindings:
    """A copy of a fixture with something on every line of `report`: `unused` source leaves no
    code calls, target locales translating a share of the leaves each (`targets`), one
    translation in 40 with its placeholders lost and one in 50 marked `needsReview`, and
    `missing` keys one new file calls that the source lacks."""

    root: Path
    written: Written
    unused: int
    targets: dict[str, float]
    missing: int


def with_findings(
    written: Written,
    root: Path,
    *,
    unused: int = 5_000,
    targets: dict[str, float] | None = None,
    missing: int = 200,
) -> WithFindings:
    """Copy the fixture `written` to the empty or missing folder `root` and add findings (see
    `WithFindings`); deterministic, as every fixture is."""
    shares = targets if targets is not None else {"fr": 0.9, "de": 0.6}
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(written.root, root)
    source_path = root / "locales" / f"{SOURCE}.json"
    source = json.loads(source_path.read_text())
    source["retired"] = {f"k{index}": f"Retired text {index}" for index in range(unused)}
    source_path.write_text(json.dumps(source, indent=2, ensure_ascii=False) + "\n")
    texts = [(head, tail, text) for head, leaves in source.items() for tail, text in leaves.items()]
    rng = random.Random(SEED + 3)
    for code, share in shares.items():
        document: dict[str, dict[str, object]] = {}
        for index, (head, tail, text) in enumerate(texts):
            if rng.random() >= share:
                continue
            value = f"[{code}] {text}"
            if index % 40 == 1:  # placeholders lost: a quality error where the source has one
                value = value.replace("{{name}}", "").replace("{{count}}", "")
            leaf: object = {"value": value, "needsReview": True} if index % 50 == 3 else value
            document.setdefault(head, {})[tail] = leaf
        text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
        (root / "locales" / f"{code}.json").write_text(text)
    calls = "".join(f"    t('absent.k{index}'),\n" for index in range(missing))
    (root / "src" / "missing").mkdir()
    (root / "src" / "missing" / "Missing.tsx").write_text(
        "import { useTranslation } from 'react-i18next';\n\n"
        "export function Missing() {\n  const { t } = useTranslation();\n"
        f"  return [\n{calls}  ];\n}}\n"
    )
    return WithFindings(root, written, unused, dict(shares), missing)


class FixtureStore:
    """Fixtures written once per session under `folder` and reused by every benchmark that asks
    for the same shape (benchmarks that write into a fixture call `Written.reset_targets`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._written: dict[Shape, Written] = {}
        self._namespaced: dict[NamespacedShape, NamespacedWritten] = {}
        self._findings: dict[Shape, WithFindings] = {}

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

    def findings(self, shape: Shape) -> WithFindings:
        """The fixture of `shape` with findings added (`with_findings`: half as many unused
        keys as it has leaves, a missing key for every 50 files), copied on first use
        (benchmarks only read it)."""
        if shape not in self._findings:
            root = self.folder / f"{shape.key()}-findings"
            self._findings[shape] = with_findings(
                self.get(shape), root, unused=shape.leaves // 2, missing=max(1, shape.files // 50)
            )
        return self._findings[shape]

    def namespaced(self, shape: NamespacedShape) -> NamespacedWritten:
        """The namespaced app of `shape`, written on first use (benchmarks only read it)."""
        if shape not in self._namespaced:
            root = self.folder / shape.key()
            if root.exists():
                shutil.rmtree(root)
            self._namespaced[shape] = write_namespaced(root, shape)
        return self._namespaced[shape]
