"""`benchmarks/bare_parse.py`, the yardstick cold `validate` is read against: it parses every
source file the scan would, over the processes it is given, and nothing else."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BARE_PARSE = Path(__file__).resolve().parents[2] / "benchmarks" / "bare_parse.py"


def _tree(root: Path) -> None:
    files = {
        "src/app.tsx": "export const App = () => <p>{t('home.title')}</p>;\n",
        "src/util.ts": "export function add(a: number, b: number): number { return a + b; }\n",
        "src/old.js": "module.exports = { x: 1 };\n",
        "src/Card.vue": "<template><p>{{ $t('card') }}</p></template>\n<script setup lang=\"ts\">\n"
        "const n: number = 1;\n</script>\n",
        "src/Nav.svelte": "<script>\nlet open = false;\n</script>\n<p>{$t('nav')}</p>\n",
        "src/broken.ts": "export const = ;\n",
        "src/notes.md": "not a source file\n",
        "node_modules/lib/index.js": "module.exports = 1;\n",
        ".cache/skip.ts": "export const y = 2;\n",
    }
    for relpath, text in files.items():
        path = root / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_parses_every_source_file_once_over_the_processes_it_is_given(
    tmp_path: Path, jobs: int
) -> None:
    _tree(tmp_path)
    done = subprocess.run(
        [sys.executable, str(BARE_PARSE), str(tmp_path), "--jobs", str(jobs)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    figures = json.loads(done.stdout)
    sources = ("app.tsx", "util.ts", "old.js", "Card.vue", "Nav.svelte", "broken.ts")
    assert figures["files"] == len(sources)
    assert figures["bytes"] == sum((tmp_path / "src" / name).stat().st_size for name in sources)
    assert figures["jobs"] == jobs
    assert figures["syntax_errors"] == 1
