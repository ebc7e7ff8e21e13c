"""Big answers on a server's stdout pipe: one for a client that reads slowly arrives whole, with
the answers after it, and the pipe the client gave the server is left blocking; a reader that
leaves in the middle of one ends the writer (docs/serve.md#2-framing, #4-lifecycle)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from i18nprune.serve.transport import LineWriter
from tests.conftest import write_tree
from tests.serve.conftest import ServeEnv

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX pipes")


@pytest.mark.slow
@posix_only
def test_a_big_answer_to_a_slow_reader_arrives_whole_and_the_pipe_stays_blocking(
    serve_env: ServeEnv, tmp_path: Path
) -> None:
    keys = {f"key{number:05}": "value " * 40 + str(number) for number in range(3000)}
    root = write_tree(tmp_path / "app", {"locales/en.json": keys})
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        [sys.executable, "-m", "i18nprune", "serve", "--project", str(root)],
        stdin=subprocess.PIPE,
        stdout=write_end,
        stderr=subprocess.DEVNULL,
        env=serve_env(None),
    )
    try:
        assert server.stdin is not None
        requests = [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "1"}},
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "op.keys",
                "params": {"options": {"limit": 3000}},
            },
            {"jsonrpc": "2.0", "id": 3, "method": "ping"},
        ]
        server.stdin.write(b"".join(json.dumps(r).encode() + b"\n" for r in requests))
        server.stdin.flush()
        received = bytearray()
        while received.count(b"\n") < 3:
            received += os.read(read_end, 997)  # small reads: the server meets a full pipe

        assert os.get_blocking(write_end)  # our end of the pipe is as we made it
        answers = {answer["id"]: answer for answer in map(json.loads, received.splitlines())}
        listed = answers[2]["result"]["data"]["keys"]
        assert {entry["key"]: entry["value"] for entry in listed} == keys
        assert answers[3]["result"] == {}
    finally:
        server.kill()
        server.wait()
        os.close(read_end)
        os.close(write_end)
        if server.stdin is not None:
            server.stdin.close()


@posix_only
def test_a_reader_that_leaves_mid_answer_breaks_the_writer() -> None:
    read_end, write_end = os.pipe()

    async def main() -> bool:
        writer = LineWriter(write_end)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(writer.run)
            writer.send(b"x" * (4 << 20) + b"\n")
            await trio.to_thread.run_sync(os.read, read_end, 1000)
            os.close(read_end)
            await writer.finished.wait()
        return writer.broken.is_set()

    try:
        assert trio.run(main)
    finally:
        os.close(write_end)
