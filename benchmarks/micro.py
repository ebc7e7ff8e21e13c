"""In-process timings of the hot paths the tests only check for correctness.

    python benchmarks/micro.py [--runs 5] [--out benchmarks/results/micro.json]

Each figure is the minimum over `--runs` runs (the median is reported beside it); limits are
ceilings in seconds. Tests assert behaviour; how fast it is lives here.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from harness import write_report

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from i18nprune.config.schema import LocalesConfig
from i18nprune.locales.layout import discover_locales
from i18nprune.locales.view import load_locale
from i18nprune.scan.markup import svelte_document, vue_document
from i18nprune.translate.cache import TranslationCache
from workers.providers.pseudo import pseudo_localize

LIMITS = {
    "locale_view_10k_keys_s": 0.05,
    "cache_lookup_20k_keys_s": 0.1,
    "markup_20k_lines_s": 5.0,
    "pseudo_20k_strings_s": 1.0,
}


def _timed(runs: int, work: Callable[[], object]) -> tuple[float, float]:
    timings = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        timings.append(time.perf_counter() - started)
    return min(timings), statistics.median(timings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/micro.json"))
    args = parser.parse_args()
    measured: dict[str, float] = {}
    medians: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="i18nprune-micro-") as tmp:
        root = Path(tmp)
        (root / "locales").mkdir()
        doc = {f"section{s}": {f"key{k}": f"Text {s}.{k}" for k in range(100)} for s in range(100)}
        (root / "locales/en.json").write_text(json.dumps(doc))
        inventory, _ = discover_locales(root, LocalesConfig())
        timings = _timed(args.runs, lambda: load_locale(inventory, "en", "__MISSING__"))
        measured["locale_view_10k_keys_s"], medians["locale_view_10k_keys_s"] = timings

        keys = [f'Message number {n} with <x id="0"/> and some words' for n in range(20_000)]
        path = root / "translations.sqlite3"
        with TranslationCache.open(path, writable=True) as cache:
            cache.put_many("deepl", "en", "fr", [(key, key.upper()) for key in keys])
            timings = _timed(args.runs, lambda: cache.get_many("deepl", "en", "fr", keys))
        measured["cache_lookup_20k_keys_s"], medians["cache_lookup_20k_keys_s"] = timings

    content = ("<div class='a'><span>text</span></div>\n" * 20000).encode()
    timings = _timed(
        args.runs,
        lambda: (vue_document(b"<template>" + content + b"</template>"), svelte_document(content)),
    )
    measured["markup_20k_lines_s"], medians["markup_20k_lines_s"] = timings

    texts = [f"Hello {{{{name}}}}, item {n}" for n in range(20_000)]
    timings = _timed(args.runs, lambda: [pseudo_localize(text) for text in texts])
    measured["pseudo_20k_strings_s"], medians["pseudo_20k_strings_s"] = timings

    details = {
        "runs": args.runs,
        "median": {key: round(value, 4) for key, value in medians.items()},
    }
    write_report("micro", details, {k: round(v, 4) for k, v in measured.items()}, LIMITS, args.out)


if __name__ == "__main__":
    main()
