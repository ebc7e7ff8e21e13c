"""Scan speed: cold and warm `validate` over a synthetic monorepo, with peak memory.

    python benchmarks/scan.py [--files 10000] [--out benchmarks/results/scan.json]

Generates ~40 MB of TS/TSX/JS in a temp directory (deterministic), runs the real CLI
(`i18nprune validate --json`) once cold (empty I18NPRUNE_HOME) and several times warm, and
prints one JSON document with the timings, the limits, and measured ÷ limit ratios.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness import cli_environment, write_report

LIMITS = {"cold_s": 5.0, "warm_s": 0.4, "peak_rss_mb": 300.0}
SHARE_WITH_CALLS = 0.35
WORDS = ("alpha", "beta", "gamma", "delta", "omega", "panel", "button", "title", "summary")


def _component(rng: random.Random, index: int, keys: list[str]) -> str:
    name = f"Widget{index}"
    uses = rng.random() < SHARE_WITH_CALLS
    lines = ["import React, { useMemo, useState } from 'react';"]
    if uses:
        lines.append("import { useTranslation } from 'react-i18next';")
    lines.append(f"import {{ format{index % 50} }} from '../lib/format{index % 50}';")
    lines.append("")
    lines.append(f"export interface {name}Props {{ id: string; count: number; label?: string }}")
    lines.append("")
    lines.append(f"export function {name}({{ id, count, label }}: {name}Props) {{")
    if uses:
        lines.append("  const { t } = useTranslation();")
    lines.append("  const [open, setOpen] = useState(false);")
    # bulk: realistic non-i18n logic so files average ~4 KB
    for block in range(rng.randint(13, 19)):
        word = rng.choice(WORDS)
        lines.append(f"  const {word}{block} = useMemo(() => {{")
        values = ", ".join(str(rng.randint(0, 999)) for _ in range(8))
        lines.append(f"    const values = [{values}];")
        lines.append(f"    return values.filter((v) => v % {rng.randint(2, 9)} === 0)")
        lines.append(f"      .map((v) => ({{ key: `{word}-${{v}}`, value: v * count }}));")
        lines.append("  }, [count]);")
    lines.append("  return (")
    lines.append(f'    <section className="{name.lower()}" data-id={{id}}>')
    if uses:
        for _ in range(rng.randint(2, 6)):
            lines.append(f"      <p>{{t('{rng.choice(keys)}')}}</p>")
        if rng.random() < 0.1:
            lines.append("      <span>{t(`status.${label}`)}</span>")
    lines.append("      <button onClick={() => setOpen(!open)}>{label ?? id}</button>")
    lines.append("    </section>")
    lines.append("  );")
    lines.append("}")
    return "\n".join(lines) + "\n"


def generate(root: Path, files: int) -> int:
    """Write the synthetic project; returns the number of source bytes."""
    rng = random.Random(20261129)
    keys = [f"{rng.choice(WORDS)}.{rng.choice(WORDS)}{i}" for i in range(3000)]
    total = 0
    for index in range(files):
        package = root / "src" / f"pkg{index % 40}" / f"feature{index % 7}"
        package.mkdir(parents=True, exist_ok=True)
        text = _component(rng, index, keys)
        (package / f"Widget{index}.tsx").write_text(text)
        total += len(text)
    locale: dict[str, dict[str, str]] = {}
    for key in keys:
        head, tail = key.split(".")
        locale.setdefault(head, {})[tail] = key.replace(".", " ")
    (root / "locales").mkdir()
    (root / "locales" / "en.json").write_text(json.dumps(locale, indent=2))
    (root / "i18nprune.config.json").write_text('{"locales": {"source": "en"}}')
    return total


def warm_interpreter(home: Path) -> None:
    """Compile the package's bytecode once, without touching the scan cache."""
    command = [sys.executable, "-m", "i18nprune", "--version"]
    subprocess.run(command, env=cli_environment(home), capture_output=True, check=True)


def timed_validate(root: Path, home: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one `validate --json` in a fresh child process."""
    probe = (
        "import resource, subprocess, sys, time;"
        "t = time.perf_counter();"
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL);"
        "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    env = cli_environment(home)
    command = [sys.executable, "-m", "i18nprune", "-C", str(root), "validate", "--json"]
    out = subprocess.run(
        [sys.executable, "-c", probe, *command], env=env, capture_output=True, text=True, check=True
    )
    seconds, rss_kb = out.stdout.split()
    return float(seconds), int(rss_kb) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--warm-runs", type=int, default=5)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/scan.json"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="i18nprune-bench-") as tmp:
        root, home = Path(tmp) / "repo", Path(tmp) / "home"
        root.mkdir()
        home.mkdir()
        started = time.perf_counter()
        size = generate(root, args.files)
        generated_s = time.perf_counter() - started
        warm_interpreter(home)
        cold_s, cold_rss = timed_validate(root, home)
        warm = [timed_validate(root, home) for _ in range(args.warm_runs)]
    warm_s = sorted(seconds for seconds, _ in warm)[len(warm) // 2]
    peak = max([cold_rss, *(rss for _, rss in warm)])
    measured = {
        "cold_s": round(cold_s, 3),
        "warm_s": round(warm_s, 3),
        "peak_rss_mb": round(peak, 1),
    }
    details = {
        "files": args.files,
        "source_mb": round(size / 1e6, 1),
        "generate_s": round(generated_s, 2),
    }
    write_report("scan", details, measured, LIMITS, args.out)


if __name__ == "__main__":
    main()
