"""A server's translate workers run below its CPU priority: its event loop, which answers the
client, gets the CPU first when both want it (workers starting while a scan runs)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from i18nprune.serve.shared_pool import WORKER_NICENESS
from i18nprune.testing import FakeProvider
from tests.serve.conftest import ServeFactory, start_generate, translating_project
from tests.zygote import FRESH_WORKERS_VARIABLE


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc lists a process's children")
def test_a_servers_workers_run_below_the_servers_priority(
    serve: ServeFactory, hanging: FakeProvider, tmp_path: Path
) -> None:
    root = translating_project(tmp_path / "app", hanging)
    # The real worker command, not the suite's launcher: the priority asked of is the worker's.
    server = serve("--project", str(root), "--allow-writes", env={FRESH_WORKERS_VARIABLE: "1"})
    pid = server.process.pid
    ours = os.getpriority(os.PRIO_PROCESS, pid)
    if ours + WORKER_NICENESS > 19:
        pytest.skip("the server already runs near the lowest priority")
    start_generate(server, hanging)  # a worker holds the hanging request now
    workers = [
        int(child)
        for task in os.listdir(f"/proc/{pid}/task")
        for child in Path(f"/proc/{pid}/task/{task}/children").read_text().split()
    ]
    assert workers
    assert all(
        Path(f"/proc/{worker}/cmdline").read_bytes().endswith(b"i18nprune_workers\0")
        for worker in workers
    )
    assert {os.getpriority(os.PRIO_PROCESS, worker) for worker in workers} == {
        ours + WORKER_NICENESS
    }
