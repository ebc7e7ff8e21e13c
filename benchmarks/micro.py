"""In-process timings of the hot paths the tests only check for correctness.

    python benchmarks/micro.py [--runs 5] [--out DIR]

Each figure reports min / median over `--runs` runs; limits are ceilings in seconds. Tests
assert behaviour; how fast it is lives here. Saves `micro.json` in `--out`.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fixtures import leaves as fixture_leaves
from harness import RESULTS, Limit, Report, Spec, measure_runs

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from i18nprune.__main__ import _COMMAND_GC_THRESHOLD as COMMAND_GC_THRESHOLD
from i18nprune.config.schema import LocalesConfig
from i18nprune.locales.jsondoc import LocaleDocument
from i18nprune.locales.layout import discover_locales
from i18nprune.locales.view import load_locale
from i18nprune.placeholders import protect_placeholders
from i18nprune.scan.markup import svelte_document, vue_document
from i18nprune.serve.nesting import cut_too_deep
from i18nprune.translate.cache import TranslationCache
from i18nprune.translate.lock import entry_for, parse_lock, render_lock
from workers.providers.pseudo import pseudo_localize

SPECS = {
    "locale_view_10k_keys": Spec(
        "micro_locale_view_10k_keys",
        "load a 10k-key locale view",
        "s",
        "lower",
        Limit(0.05, "standing limit"),
    ),
    "cache_lookup_20k_keys": Spec(
        "micro_cache_lookup_20k_keys",
        "translation cache: 20k lookups",
        "s",
        "lower",
        Limit(0.1, "standing limit"),
    ),
    "markup_20k_lines": Spec(
        "micro_markup_20k_lines",
        "Vue + Svelte markup of 20k lines",
        "s",
        "lower",
        Limit(5.0, "standing limit"),
    ),
    "pseudo_20k_strings": Spec(
        "micro_pseudo_20k_strings",
        "pseudo-localise 20k strings",
        "s",
        "lower",
        Limit(1.0, "standing limit"),
    ),
    # The front process's work per leaf in `generate` (its goal: a few µs a leaf in all).
    "mask_20k_texts": Spec(
        "micro_mask_20k_texts",
        "mask the placeholders of 20k fixture texts (plain, {{name}}, <b>, ICU plurals)",
        "s",
        "lower",
        Limit(0.1, "≤ 5 µs a text"),
    ),
    "settle_20k_texts": Spec(
        "micro_settle_20k_texts",
        "restore and verify 20k masked fixture texts",
        "s",
        "lower",
        Limit(0.1, "≤ 5 µs a text"),
    ),
    "write_20k_new_file": Spec(
        "micro_write_20k_new_file",
        "set 20k leaves into a new locale document in source order, and render it",
        "s",
        "lower",
        Limit(0.08, "≤ 4 µs a leaf"),
    ),
    "write_10k_into_10k_file": Spec(
        "micro_write_10k_into_10k_file",
        "load a locale file holding every other of 20k leaves, set the missing 10k, render",
        "s",
        "lower",
        Limit(0.1, "≤ 10 µs a leaf written, the load included"),
    ),
    "lock_20k_entries": Spec(
        "micro_lock_20k_entries",
        "lock: 20k entries (two hashes each), render, parse back",
        "s",
        "lower",
        Limit(0.1, "≤ 5 µs a leaf, its two hashes included"),
    ),
    "nesting_past_limit": Spec(
        "micro_nesting_past_limit",
        "serve: find where a 2 MB request line nests past the limit, worst of eight shapes "
        "(runs of a million levels, brackets turning every few bytes, brackets in strings)",
        "s/MB",
        "lower",
        Limit(0.1, "issue 27 goal: ≤ 0.1 s per MB, linear"),
    ),
}

# Request lines whose `params` nest past serve's limit: the body repeats one unit.
_NESTING_HEAD = b'{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":'
_NESTING_UNITS = {
    "run of openers": b"[",
    "height 1": b"[]",
    "height 3": b"[[[]]]",
    "height 3, items": b"[[[1]]],",
    "height 4": b"[[[[]]]]",
    "height 6": b"[[[[[[]]]]]]",
    "height 16": b"[" * 16 + b"]" * 16,
    "strings with brackets": b'[[["]\\"", "\\\\"]]],',
}


def _nesting_lines(megabytes: int = 2) -> dict[str, bytes]:
    lines = {}
    for name, unit in _NESTING_UNITS.items():
        count = megabytes * 1_000_000 // len(unit)
        if name == "run of openers":
            body = b"[" * (count // 2) + b"]" * (count // 2)
        else:
            body = b"[" * 70 + unit * count + b"]" * 70
        lines[name] = _NESTING_HEAD + body + b"}}"
    return lines


def _nesting(report: Report, runs: int) -> None:
    lines = _nesting_lines()

    def once(_: int) -> tuple[float, dict[str, Any]]:
        per_mb = {}
        for name, line in lines.items():
            started = time.perf_counter()
            cut_too_deep(line, 64)
            per_mb[name] = (time.perf_counter() - started) / (len(line) / 1e6)
        worst = max(per_mb, key=per_mb.__getitem__)
        return per_mb[worst], {"worst": worst, "s_per_mb": per_mb}

    report.add(SPECS["nesting_past_limit"], measure_runs(runs, once))


def _timed(report: Report, key: str, runs: int, work: Callable[[], object]) -> None:
    def once(_: int) -> tuple[float, dict[str, Any]]:
        started = time.perf_counter()
        work()
        return time.perf_counter() - started, {}

    report.add(SPECS[key], measure_runs(runs, once))


def run(args: argparse.Namespace) -> Report:
    """Time each hot path `args.runs` times in this process."""
    report = Report("micro", {"runs": args.runs})
    with tempfile.TemporaryDirectory(prefix="i18nprune-micro-") as tmp:
        root = Path(tmp)
        (root / "locales").mkdir()
        doc = {f"section{s}": {f"key{k}": f"Text {s}.{k}" for k in range(100)} for s in range(100)}
        (root / "locales/en.json").write_text(json.dumps(doc))
        inventory, _ = discover_locales(root, LocalesConfig())
        _timed(
            report,
            "locale_view_10k_keys",
            args.runs,
            lambda: load_locale(inventory, "en", "__MISSING__"),
        )

        keys = [f'Message number {n} with <x id="0"/> and some words' for n in range(20_000)]
        path = root / "translations.sqlite3"
        with TranslationCache.open(path, writable=True) as cache:
            cache.put_many("deepl", "en", "fr", [(key, key.upper()) for key in keys])
            _timed(
                report,
                "cache_lookup_20k_keys",
                args.runs,
                lambda: cache.get_many("deepl", "en", "fr", keys),
            )

    content = ("<div class='a'><span>text</span></div>\n" * 20000).encode()
    _timed(
        report,
        "markup_20k_lines",
        args.runs,
        lambda: (vue_document(b"<template>" + content + b"</template>"), svelte_document(content)),
    )

    texts = [f"Hello {{{{name}}}}, item {n}" for n in range(20_000)]
    _timed(
        report, "pseudo_20k_strings", args.runs, lambda: [pseudo_localize(text) for text in texts]
    )
    _nesting(report, args.runs)
    _front_per_leaf(report, args.runs)
    return report


def _front_per_leaf(report: Report, runs: int) -> None:
    """What `generate`'s front process does per leaf, on the translate fixture's leaves, with
    the collector as a command has it: its thresholds, and what was built before frozen (else
    each figure would pay for collecting what earlier benchmarks left)."""
    thresholds = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COMMAND_GC_THRESHOLD)
    try:
        _time_front(report, runs)
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


def _time_front(report: Report, runs: int) -> None:
    pairs = [pair for leaf in fixture_leaves(20_000) for pair in leaf.texts.items()]
    paths = [path for path, _ in pairs]
    texts = [text for _, text in pairs]
    _timed(report, "mask_20k_texts", runs, lambda: [protect_placeholders(text) for text in texts])
    protected = [protect_placeholders(text) for text in texts]

    def settle() -> None:
        for masked in protected:
            masked.verify(masked.restore([f"Le {unit.masked}" for unit in masked.units]))

    _timed(report, "settle_20k_texts", runs, settle)

    def write_new() -> bytes:
        document = LocaleDocument.new(Path("fr.json"))
        for path, text in pairs:
            document.set(path, text, order=paths)
        return document.render()

    _timed(report, "write_20k_new_file", runs, write_new)
    half = LocaleDocument.new(Path("fr.json"))
    for path, text in pairs[::2]:
        half.set(path, text, order=paths)
    with tempfile.TemporaryDirectory(prefix="i18nprune-micro-") as tmp:
        target = Path(tmp) / "fr.json"
        target.write_bytes(half.render())

        def write_into() -> bytes:
            document = LocaleDocument.load(target, "fr.json")
            for path, text in pairs[1::2]:
                document.set(path, text, order=paths)
            return document.render()

        _timed(report, "write_10k_into_10k_file", runs, write_into)

    def lock() -> object:
        entries = {path: entry_for(path, path, text, text.upper()) for path, text in pairs}
        return parse_lock(render_lock({"fr": entries}))

    _timed(report, "lock_20k_entries", runs, lock)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="runs per figure")
    parser.add_argument("--out", type=Path, default=RESULTS, help="folder for the JSON")
    args = parser.parse_args()
    print(run(args).save(args.out))


if __name__ == "__main__":
    main()
