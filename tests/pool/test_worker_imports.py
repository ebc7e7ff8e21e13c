"""What a translate worker imports: its runtime, the wire types and the provider adapters, not
the front's pool or the configuration loader (each worker pays its imports at start-up, while
the front scans)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import modules_after

pytestmark = pytest.mark.slow

FRONT_ONLY = (
    "i18nprune.config.loading",
    "i18nprune.config.validation",
    "i18nprune.pool.pool",
    "i18nprune.pool.job",
    "i18nprune.scan",
    "i18nprune.ops",
)


def test_a_worker_imports_neither_the_front_pool_nor_the_config_loader() -> None:
    loaded = modules_after("import i18nprune_workers.__main__\nimport i18nprune_workers.providers")
    assert "i18nprune.pool.messages" in loaded  # the wire types it does need
    assert [name for name in FRONT_ONLY if name in loaded] == []


def test_the_packages_still_offer_their_names() -> None:
    probe = (
        "from i18nprune.config import LoadedConfig, load_config, redacted_config\n"
        "from i18nprune.pool import WorkerPool, open_pool, TranslateJob\n"
        "from i18nprune.config import environment\n"
        "print(load_config.__module__, WorkerPool.__module__, environment.__name__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.split() == [
        "i18nprune.config.loading",
        "i18nprune.pool.pool",
        "i18nprune.config.environment",
    ]
