"""Crash safety: a writer killed at any moment leaves each locale file whole (old or new bytes)
and no temp file that could pass for a locale file."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from i18nprune.locales.jsondoc import LocaleDocument

REPO = Path(__file__).resolve().parents[2]
KILLS = 30
SECTIONS, KEYS = 40, 100  # 4000 leaves, about 300 KB per file

# Rewrites the whole target, forever, alternating the marker leaves between "new" and "old",
# and reports each write.
_WRITER = """
import sys
from pathlib import Path
from i18nprune.locales.jsondoc import LocaleDocument

root, target = Path(sys.argv[1]), Path(sys.argv[2])
markers = sys.argv[3:]
document = LocaleDocument.load(target, "fr.json")
print("ready", flush=True)
while True:
    for value in ("new", "old"):
        for marker in markers:
            document.set(marker, value)
        if document.save(root=root):
            print("saved", flush=True)
"""
# The first and last leaves differ between the two versions; a torn or truncated file equals
# neither version.
MARKERS = ("section0.key0", f"section{SECTIONS - 1}.key{KEYS - 1}")

_TEMP_NAME = re.compile(r"^\.fr\.json\.[0-9a-f]{16}\.tmp$")


def _version(marker: str) -> bytes:
    content = {
        f"section{section}": {
            f"key{key}": f"{section}.{key} — texte accentué, 日本語" for key in range(KEYS)
        }
        for section in range(SECTIONS)
    }
    content["section0"]["key0"] = content[f"section{SECTIONS - 1}"][f"key{KEYS - 1}"] = marker
    return (json.dumps(content, indent=2, ensure_ascii=False) + "\n").encode()


def _kill_one_writer(root: Path, target: Path, delay: float) -> int:
    """Start a writer, SIGKILL it `delay` seconds after it is ready; the number of its writes."""
    writer = subprocess.Popen(
        [sys.executable, "-c", _WRITER, str(root), str(target), *MARKERS],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert writer.stdout is not None
    ready = writer.stdout.readline()
    if ready != "ready\n":
        writer.kill()
        raise AssertionError(f"the writer did not start: {writer.communicate()[1]}")
    time.sleep(delay)
    os.kill(writer.pid, signal.SIGKILL)
    output, _ = writer.communicate()
    assert writer.returncode == -signal.SIGKILL
    return output.count("saved")


@pytest.mark.slow
def test_killed_writers_leave_old_or_new_bytes_and_no_locale_like_temp_files(
    tmp_path: Path,
) -> None:
    root = tmp_path / "project"
    locales = root / "locales"
    locales.mkdir(parents=True)
    old, new = _version("old"), _version("new")
    target = locales / "fr.json"
    target.write_bytes(old)
    delays = random.Random(20240917)

    writes = 0
    for _ in range(KILLS):
        writes += _kill_one_writer(root, target, delays.uniform(0, 0.1))
        assert target.read_bytes() in (old, new)
        assert LocaleDocument.load(target, "fr.json").paths()[0] == "section0.key0"
        others = [name for name in os.listdir(locales) if name != "fr.json"]
        assert all(_TEMP_NAME.match(name) for name in others), others

    assert writes > 0, "no kill came after a completed write; the test proved nothing"
