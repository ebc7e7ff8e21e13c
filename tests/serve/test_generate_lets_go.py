"""`op.generate` through a real `serve`, translating through the loopback fake: the run closes
its translation cache while it writes the files, and answers only once both are done."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from i18nprune.testing import FakeProvider, fake_translation
from tests.serve.conftest import ServeFactory, translating_project

GENERATE = {"options": {"target": "fr"}}


@pytest.mark.slow
def test_generate_answers_once_files_are_written_and_its_cache_is_closed(
    serve: ServeFactory, home: Path, tmp_path: Path
) -> None:
    with FakeProvider("libre") as fake:
        root = translating_project(tmp_path / "app", fake)
        server = serve("--project", str(root), "--allow-writes")
        first = server.wait_response(server.submit("op.generate", GENERATE))
        written = json.loads((root / "locales" / "fr.json").read_text())
        cache = home / "translations.sqlite3"
        # Closing the last connection checkpoints the write-ahead log and removes it.
        log_left = (home / "translations.sqlite3-wal").exists()
        # Forced: the leaf is translated again, and the cache (closed, so complete) has it.
        again = server.wait_response(
            server.submit("op.generate", {"options": {"target": "fr", "force": True}})
        )
        requests = len(fake.requests)

    assert first.ok and again.ok, (first.raw, again.raw)
    assert written == {"greeting": fake_translation("Hello", "fr")}
    assert cache.exists()
    assert not log_left
    assert requests == 1
