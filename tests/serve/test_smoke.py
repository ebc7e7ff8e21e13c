"""The real server end to end: initialize, ping, op.validate, shutdown, exit."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

from tests.serve.conftest import ServeEnv


def send(stdin: IO[bytes], message: dict[str, Any]) -> None:
    stdin.write(json.dumps(message).encode() + b"\n")
    stdin.flush()


def read_until_response(stdout: IO[bytes], request_id: int) -> list[dict[str, Any]]:
    """Messages read up to and including the response to `request_id`."""
    messages = []
    while True:
        line = stdout.readline()
        assert line, "the server closed stdout before answering"
        messages.append(json.loads(line))
        if messages[-1].get("id") == request_id:
            return messages


def test_session_answers_and_exits_cleanly(example_project: Path, serve_env: ServeEnv) -> None:
    environ = serve_env(None)
    command = [sys.executable, "-m", "i18nprune", "serve", "--project", str(example_project)]
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environ
    ) as server:
        assert server.stdin is not None and server.stdout is not None
        try:
            send(
                server.stdin,
                {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "initialize",
                    "params": {"protocolVersion": "1"},
                },
            )
            [initialized] = read_until_response(server.stdout, 1)
            send(server.stdin, {"jsonrpc": "2.0", "id": 2, "method": "ping"})
            [pong] = read_until_response(server.stdout, 2)
            send(
                server.stdin,
                {"jsonrpc": "2.0", "id": 3, "method": "op.validate", "params": {"options": {}}},
            )
            *progress, validated = read_until_response(server.stdout, 3)
            send(server.stdin, {"jsonrpc": "2.0", "id": 4, "method": "shutdown"})
            [shut] = read_until_response(server.stdout, 4)
            send(server.stdin, {"jsonrpc": "2.0", "method": "exit"})
            rest, errors = server.communicate(timeout=30)
        finally:
            server.kill()
    assert server.returncode == 0
    assert rest == b""
    assert initialized["result"]["rootMode"] == "sandbox"
    assert initialized["result"]["projectRoot"] == str(example_project.resolve())
    assert pong == {"jsonrpc": "2.0", "id": 2, "result": {}}
    assert progress and all(message["method"] == "$/progress" for message in progress)
    assert validated["result"]["kind"] == "validate"
    assert shut == {"jsonrpc": "2.0", "id": 4, "result": {}}
    assert b"serve: ready" in errors
