"""In-process timings of the hot paths the tests only check for correctness.

    python benchmarks/micro.py [--runs 5] [--out DIR]

Each figure reports min / median over `--runs` runs; limits are ceilings in seconds. Tests
assert behaviour; how fast it is lives here. Saves `micro.json` in `--out`.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness import RESULTS, Limit, Report, Spec, measure_runs

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from i18nprune.config.schema import LocalesConfig
from i18nprune.locales.layout import discover_locales
from i18nprune.locales.view import load_locale
from i18nprune.scan.markup import svelte_document, vue_document
from i18nprune.translate.cache import TranslationCache
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
}


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
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="runs per figure")
    parser.add_argument("--out", type=Path, default=RESULTS, help="folder for the JSON")
    args = parser.parse_args()
    print(run(args).save(args.out))


if __name__ == "__main__":
    main()
