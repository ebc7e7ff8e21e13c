"""A real `redis-server` on 127.0.0.1 for tests, benchmarks and examples: started on a free
port in a directory of its own, persisting nothing, and stopped (or killed, to play a lost
server) by the caller.

`RedisServer` is a context manager: entering starts the server and waits until it answers;
leaving stops it. `stop()` and `start()` take it down and bring it back on the same port (and
the same data only if it was stopped with SHUTDOWN SAVE, which this never does: a restarted
server is empty, like one that lost its memory).
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

_START_SECONDS = 10.0


class RedisServerMissing(RuntimeError):
    """`redis-server` is not installed (Debian: `apt-get install redis-server`)."""


def redis_server_binary() -> str | None:
    """The path of `redis-server`, None when it is not installed."""
    return shutil.which("redis-server")


class RedisServer:
    """One `redis-server` process on a loopback port (and a Unix socket beside it).

    `maxmemory`: a limit in bytes with the `noeviction` policy (writes past it fail with OOM),
    or None for none; `password`: required by the server when set.
    """

    def __init__(self, *, maxmemory: int | None = None, password: str | None = None) -> None:
        binary = redis_server_binary()
        if binary is None:
            raise RedisServerMissing("redis-server is not installed (apt-get install redis-server)")
        self._binary = binary
        self._maxmemory = maxmemory
        self.password = password
        self._folder = Path(tempfile.mkdtemp(prefix="i18nprune-redis-"))
        self.socket_path = self._folder / "redis.sock"
        self.port = _free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """`redis://` URL of the server (with the password when there is one)."""
        auth = f":{self.password}@" if self.password else ""
        return f"redis://{auth}127.0.0.1:{self.port}/0"

    @property
    def unix_url(self) -> str:
        """`unix://` URL of the server's socket."""
        auth = f"?password={self.password}" if self.password else ""
        return f"unix://{self.socket_path}{auth}"

    def start(self) -> None:
        """Start the server (again) and wait until it answers PING."""
        if self.process is not None and self.process.poll() is None:
            return
        arguments = [
            self._binary,
            "--bind", "127.0.0.1",
            "--port", str(self.port),
            "--unixsocket", str(self.socket_path),
            "--unixsocketperm", "700",
            "--dir", str(self._folder),
            "--save", "",
            "--appendonly", "no",
            "--protected-mode", "no",
            "--loglevel", "warning",
            "--logfile", str(self._folder / "redis.log"),
        ]  # fmt: skip
        if self._maxmemory is not None:
            arguments += ["--maxmemory", str(self._maxmemory), "--maxmemory-policy", "noeviction"]
        if self.password:
            arguments += ["--requirepass", self.password]
        self.process = subprocess.Popen(
            arguments, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        deadline = time.monotonic() + _START_SECONDS
        while not self._answers():
            if self.process.poll() is not None:
                stderr = self.process.stderr.read().decode() if self.process.stderr else ""
                log = self._folder / "redis.log"
                detail = stderr or (log.read_text() if log.exists() else "")
                raise RuntimeError(f"redis-server exited at start: {detail.strip()}")
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"redis-server did not answer within {_START_SECONDS:g} s")
            time.sleep(0.02)

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL) and wait for it; idempotent."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stderr is not None:
            self.process.stderr.close()
        self.process = None

    def kill(self) -> None:
        """Kill the server outright (SIGKILL), as a crashed host would; idempotent."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
        self.stop()

    def command(self, *arguments: str) -> str:
        """Run one command with `redis-cli` against the server; its output (stripped)."""
        cli = shutil.which("redis-cli")
        if cli is None:
            raise RedisServerMissing("redis-cli is not installed (apt-get install redis-tools)")
        auth = ["-a", self.password, "--no-auth-warning"] if self.password else []
        done = subprocess.run(
            [cli, "-h", "127.0.0.1", "-p", str(self.port), *auth, *arguments],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
        return done.stdout.strip()

    def __enter__(self) -> RedisServer:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
        shutil.rmtree(self._folder, ignore_errors=True)

    def _answers(self) -> bool:
        with (
            contextlib.suppress(OSError),
            socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as connection,
        ):
            command = b"PING\r\n"
            if self.password:
                command = f"AUTH {self.password}\r\nPING\r\n".encode()
            connection.sendall(command)
            return b"PONG" in _read_some(connection)
        return False


def _read_some(connection: socket.socket) -> bytes:
    data = b""
    with contextlib.suppress(OSError):
        while b"PONG" not in data and b"-" not in data[:1]:
            chunk = connection.recv(256)
            if not chunk:
                break
            data += chunk
    return data


def _free_port() -> int:
    """A TCP port free on 127.0.0.1 right now (the kernel's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
