"""A host that never reads the server's stderr: diagnostics wait in a bounded queue, collapse and
are dropped rather than block the protocol, and the drop is reported once stderr is read
(docs/serve.md#standard-streams)."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from i18nprune.testing import ServeClient
from tests.serve.conftest import ServeEnv

pytestmark = pytest.mark.slow

# Each ignored cancel writes a line of ~150 bytes; this many are several times a pipe's 64 KiB.
CANCELS = 3000
LONG_ID = "x" * 60


@contextmanager
def server_with_unread_stderr(env: dict[str, str]) -> Iterator[tuple[ServeClient, int]]:
    """A real server whose stderr is a pipe that nobody reads until the test says so; yields
    the client and the read end of that pipe."""
    read_end, write_end = os.pipe()
    process = subprocess.Popen(
        [sys.executable, "-m", "i18nprune", "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=write_end,
        env=env,
        start_new_session=True,
    )
    os.close(write_end)
    # The client drains the `stderr` it is given; an empty stream stands in for the real one.
    process.stderr = open(os.devnull, "rb")  # noqa: SIM115 - closed with the client
    try:
        with ServeClient(process) as client:
            yield client, read_end
    finally:
        process.stderr.close()
        os.close(read_end)


def pipe_capacity(fd: int) -> int:
    """How many bytes the pipe holds (Linux says; 4 KiB is the least POSIX allows)."""
    size = getattr(fcntl, "F_GETPIPE_SZ", None)
    return fcntl.fcntl(fd, size) if size is not None else 4096


def read_available(fd: int) -> bytes:
    """Everything the pipe holds now, without waiting for more."""
    os.set_blocking(fd, False)
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            return b"".join(chunks)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def notices(text: str) -> tuple[int, int, int]:
    """(lines written one by one, repeats folded into them, lines reported dropped) among the
    notices of ignored cancels and notifications."""
    shown = folded = dropped = 0
    for line in text.splitlines():
        if "ignored: no such request in flight" in line or "not run: only exit" in line:
            shown += 1
            if line.endswith("more like it)"):
                folded += int(line.rsplit("(and ", 1)[1].split()[0])
        elif "diagnostic line(s) dropped" in line:
            dropped += int(line.split("serve: ", 1)[1].split()[0])
    return shown, folded, dropped


@pytest.mark.skipif(os.name != "posix", reason="pipes and process groups as on POSIX")
def test_a_stderr_nobody_reads_never_blocks_the_server(serve_env: ServeEnv) -> None:
    with server_with_unread_stderr(serve_env(None)) as (server, stderr):
        server.initialize()
        for index in range(CANCELS):
            server.cancel(f"{LONG_ID}{index}")
            server.notify("op.validate")  # another kind of notice: no two in a row collapse
        # Before the change the server blocked writing its ~400th notice and never answered.
        assert server.ping(timeout=60) == {}
        held = read_available(stderr)
        # The pipe filled (a blocked write leaves a part of a page free).
        assert len(held) > pipe_capacity(stderr) // 2
        server.shutdown(timeout=60)
        server.exit()
        os.set_blocking(stderr, True)
        rest = b"".join(iter(lambda: os.read(stderr, 1 << 16), b""))
        assert server.wait_exit(timeout=30) == 0
    shown, folded, dropped = notices((held + rest).decode())
    assert dropped > 0 and shown < 2 * CANCELS
    assert shown + folded + dropped == 2 * CANCELS  # every notice is accounted for


@pytest.mark.skipif(os.name != "posix", reason="pipes and process groups as on POSIX")
def test_repeated_notices_collapse_while_stderr_is_not_read(serve_env: ServeEnv) -> None:
    with server_with_unread_stderr(serve_env(None)) as (server, stderr):
        server.initialize()
        for index in range(CANCELS):
            server.cancel(f"{LONG_ID}{index}")
        assert server.ping(timeout=60) == {}
        server.exit()
        rest = b"".join(iter(lambda: os.read(stderr, 1 << 16), b""))
        assert server.wait_exit(timeout=30) == 0
    shown, folded, dropped = notices(rest.decode())
    assert (dropped, shown + folded) == (0, CANCELS)
    assert folded > 0
