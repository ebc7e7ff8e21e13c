"""A pre-imported fork server for the suite's CLI runs: `run_cli` asks it for `python -m
i18nprune ARGS` instead of starting a fresh interpreter (and importing the CLI) each time.

One server per pytest(-xdist) worker, started on first use from a fresh interpreter with the
worker's environment for CLI runs (`cli_environment` without a home). It imports `PRELOADED`
(and the worker's entry, and `system.memory`'s constants) and nothing else of ours, stays
single-threaded, and for each request forks a child that
becomes the command: stdin from /dev/null, stdout and stderr on the two pipes the test sent
with the request (`socket.send_fds`), every other descriptor closed, the request's cwd, its
complete environment (`os.environ` cleared and refilled in place, so the C environment the
command's own processes inherit is the request's), `sys.argv`, `sys.orig_argv`, `sys.path[0]`
and a blank `__main__` as `python -m` makes them; then `runpy` runs `i18nprune` as `__main__`
exactly as `python -m` does, so `i18nprune.__main__.main()` tunes the collector, wraps the
streams in `whole_writes` and ends with `_exit_now`. An exception that escapes is printed by
`sys.excepthook` from the same frame down as the interpreter prints it (`<frozen runpy>`
first), and the child ends as the interpreter would (threads joined, exit handlers run,
streams flushed, status 1; SIGINT for a KeyboardInterrupt). The server waits for the child on
SIGCHLD and sends its exit status back, as `subprocess` reports it (`-N` for signal N); it
signals a child for the test (the timeout's kill, `ServeClient`'s) only while it has not reaped
it, so a signal never reaches another process that took the pid.

What the pre-imported modules read when imported is the server's, not the test's. The audit
(every module a command loads, its module-level statements and default arguments):

- Ours read the environment, the cwd, `sys.argv` and whether a stream is a terminal only
  when called (`cli.output`, `cli.globals`, `cli.run`, `config.loading`, `project`,
  `system.memory`, `__main__`); the one default argument that names the environment,
  `cli.formats.annotation_root(environ=os.environ)`, holds the `os.environ` object, which the
  child refills in place. Nothing of ours registers an exit handler, a signal handler, an
  at-fork hook or a thread at import (`atexit._ncallbacks()` and `threading.active_count()`
  are checked before every fork, against their count once everything is imported).
- Third parties that read at import: `typer.core` (`TYPER_USE_RICH`), `rich` (the cwd, used
  only by `rich.traceback`, which neither the server nor our code imports), and the interpreter
  itself (the `PYTHON*` variables, the locale that picks the streams' encoding, glibc's
  `MALLOC_*` and `GLIBC_TUNABLES`, the loader's `LD_*`, and `TMPDIR` once `tempfile` has
  chosen). Not pre-imported, so a child imports them with its own environment: `babel.dates`
  and `babel.numbers` (their default locale from `LANGUAGE`, `LC_*` and `LANG`),
  `babel.localtime` (`TZ`), and `typer.rich_utils` (`TERMINAL_WIDTH`, `FORCE_COLOR` and
  others). A request whose environment differs from the server's in any of these
  (`starts_differently`) runs in a fresh interpreter all the same.
- `serve.session`'s imports bring `logging`, whose exit handler (`logging.shutdown`) then runs
  at every child's exit; with no handler configured, as in a CLI run, it does nothing.
- The streams: the server's own stdin is /dev/null and its stdout and stderr pipes, so the
  `sys.std*` objects the child inherits (encoding, errors, buffering, buffer size) are the ones
  a fresh interpreter makes for a CLI run; the child moves its descriptors 0–2 under them.
- Signal dispositions are the interpreter's defaults (SIGINT raises, SIGPIPE ignored), as in
  a fresh one. `random` reseeds itself in the child; the string hash seed is the server's for
  every child (a fresh interpreter draws one per run), and a module already imported cannot be
  shadowed by a file of the same name in the cwd.

Translate workers: the server also listens on a Unix socket, and the pools of its children
start `tests/worker_launcher.py` in place of `python -m i18nprune_workers` (the server sets
`i18nprune.pool.handle.WORKER_COMMAND` before it forks anything). A launcher passes its stdin,
stdout and stderr with a request; the server forks a child that becomes `python -m
i18nprune_workers` on them as it becomes a command above (the worker's entry, imported first
so httpx leaves its command-line client out, as the worker's own entry arranges), answers the
worker's pid, and later its exit status, which the launcher ends with. A launcher's connection
that closes first gets its worker killed. The worker's modules read nothing at import (`trust`
reads `SSL_*` when its context is made); the malloc thresholds a command sets for the
processes it starts (`system.memory`), which glibc reads at start-up, the forked worker sets
itself. A worker whose environment differs otherwise, or that asks with
`I18NPRUNE_TEST_FRESH_WORKERS=1`, is told to start fresh, and its launcher `exec`s the real
command. `tests/pool`, which opens pools in the test's own process, starts the real command.

Not forked: a run whose environment differs as above (the suite's start-up hooks come in
through `PYTHONPATH`, so the tests that kill a run from one run fresh), a `serve` or `lsp`
through `run_cli`, and what the tests about the process itself start on their own (what a fresh
interpreter imports, bytecode, signals to a real `python -m i18nprune`, the console script).
`I18NPRUNE_TEST_FRESH=1` runs every CLI run and server of the suite in a fresh interpreter.
"""

from __future__ import annotations

import atexit
import builtins
import contextlib
import importlib
import io
import json
import os
import queue
import select
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import types
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, BinaryIO, NoReturn

from i18nprune.system.memory import THRESHOLD_BYTES
from i18nprune.system.memory import VARIABLES as MALLOC_VARIABLES

FRESH_VARIABLE = "I18NPRUNE_TEST_FRESH"
"""Set to 1 to run every CLI run of the suite in a fresh interpreter."""
FRESH_WORKERS_VARIABLE = "I18NPRUNE_TEST_FRESH_WORKERS"
"""Set to 1 (in the suite's environment, or in one run's) to start every translate worker as
`python -m i18nprune_workers`, not forked (`tests/worker_launcher.py` reads it too)."""

PRELOADED = (
    "i18nprune.cli.app",
    "i18nprune.cli.run",
    "i18nprune.cli.output",
    "i18nprune.cli.progress",
    "i18nprune.cli.report",
    "i18nprune.project",
    "i18nprune.ops.engine.offload",
    "i18nprune.scan.extract",
    "i18nprune.scan.parallel",
    "i18nprune.scan.repository",
    "i18nprune.babel_config",
    "i18nprune.formatjs_scripts",
    "i18nprune.syntax_tree",
    "i18nprune.serve.session",
    "rich.console",
    "rich.table",
    "trio",
)
"""What the server imports: the CLI, and what a typical command imports once it runs (the
project, the scan and its tree-sitter grammars, the consoles, trio), and `serve`'s session;
every op and renderer module is added from the table (`_op_modules`)."""

_STARTUP_PREFIXES = ("PYTHON", "LC_", "MALLOC_", "LD_", "TYPER_", "_TYPER_")
_STARTUP_NAMES = frozenset({"LANG", "LANGUAGE", "TZ", "GLIBC_TUNABLES", "TMPDIR"})
_REQUEST_LIMIT = 1 << 20
_START_TIMEOUT = 120.0
# Run with the repository as its cwd.
_SERVER = "import sys; from tests.zygote import serve; serve(int(sys.argv[1]), sys.argv[2])"
LAUNCHER = Path(__file__).with_name("worker_launcher.py")
"""What the pools of the server's children run in place of `python -m i18nprune_workers`."""


def launcher_command(socket_path: str) -> tuple[str, ...]:
    """The command that starts a translate worker through the server listening at
    `socket_path` (isolated, without site: the launcher needs the standard library alone)."""
    return (sys.executable, "-I", "-S", str(LAUNCHER), socket_path)


def starts_differently(environ: Mapping[str, str], server: Mapping[str, str]) -> bool:
    """Whether a run in `environ` could differ from a child of a server started in `server`:
    they disagree on a variable read at start-up or import (see the module's docstring)."""
    for name in environ.keys() | server.keys():
        if (name in _STARTUP_NAMES or name.startswith(_STARTUP_PREFIXES)) and environ.get(
            name
        ) != server.get(name):
            return True
    return False


def run_fresh(
    args: Sequence[str],
    cwd: Path,
    environ: Mapping[str, str],
    timeout: float,
    module: str = "i18nprune",
) -> tuple[int, str, str]:
    """`python -m MODULE ARGS` in a fresh interpreter: (exit status, stdout, stderr)."""
    done = subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=cwd,
        env=dict(environ),
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
    return done.returncode, done.stdout, done.stderr


class ZygoteError(RuntimeError):
    """The fork server failed (it printed why on its stderr, quoted here)."""


class Zygote:
    """The client's end of one fork server: started on the first run, stopped by `close`.

    Thread-safe: several children may run at once (a test's servers beside its CLI runs); a
    reader thread takes the server's answers and the exit statuses it reports.
    """

    def __init__(
        self,
        environ: Mapping[str, str],
        repository: Path,
        module: str = "i18nprune",
        *,
        fork_workers: bool = True,
    ) -> None:
        self.environ = dict(environ)
        self.module = module
        """What the children run as `python -m MODULE` (another only in the server's tests)."""
        self.fork_workers = fork_workers
        """Whether the pools of the children start their translate workers through the server
        (`tests/worker_launcher.py`) rather than as `python -m i18nprune_workers`."""
        self._repository = repository
        self._process: subprocess.Popen[bytes] | None = None
        self._control: socket.socket | None = None
        self._sending = threading.Lock()
        self._replies: queue.SimpleQueue[dict[str, Any]] = queue.SimpleQueue()
        self._changed = threading.Condition()
        self._exits: dict[int, int] = {}
        self._failure: str | None = None
        self._closing = False
        self._socket_folder: str | None = None
        self._workers_socket = ""

    def serves(self, args: Sequence[str], cwd: Path, environ: Mapping[str, str]) -> bool:
        """Whether a child of the server is this CLI run exactly: not a server's start-up
        (`serve`, `lsp`, which `spawn` forks on purpose), a cwd that exists, the same start-up
        environment."""
        return not {"serve", "lsp"} & set(args) and self.serves_server(cwd, environ)

    def serves_server(self, cwd: Path, environ: Mapping[str, str]) -> bool:
        """Whether `spawn` may fork a server to run in `cwd` with `environ`."""
        return Path(cwd).is_dir() and not starts_differently(environ, self.environ)

    def run(
        self, args: Sequence[str], cwd: Path, environ: Mapping[str, str], timeout: float
    ) -> tuple[int, str, str]:
        """Run `python -m MODULE ARGS` as a child of the server, stdin from /dev/null: (exit
        status, stdout, stderr), decoded as `subprocess.run(text=True)` decodes them.

        Raises `subprocess.TimeoutExpired` (the child killed) after `timeout` seconds, as
        `subprocess.run` does, and `ZygoteError` if the server fails.
        """
        out_read, out_write = os.pipe()
        err_read, err_write = os.pipe()
        try:
            pid = self._fork(args, cwd, environ, [out_write, err_write], new_session=False)
        except BaseException:
            os.close(out_read)
            os.close(err_read)
            raise
        finally:
            os.close(out_write)
            os.close(err_write)
        try:
            output, timed_out = _read_until_closed(out_read, err_read, timeout)
            if timed_out:
                self.signal(pid, signal.SIGKILL)
            code = self.wait(pid, None)
            assert code is not None
        finally:
            os.close(out_read)
            os.close(err_read)
        stdout, stderr = (_as_text(data) for data in output)
        if timed_out:
            command = [sys.executable, "-m", self.module, *args]
            raise subprocess.TimeoutExpired(command, timeout, output=stdout, stderr=stderr)
        return code, stdout, stderr

    def spawn(self, args: Sequence[str], cwd: Path | None, environ: Mapping[str, str]) -> Forked:
        """Start `python -m MODULE ARGS` as a child of the server, as `subprocess.Popen` with
        stdin, stdout and stderr pipes and `start_new_session=True` starts it (its own process
        group, which `ServeClient` kills with its workers)."""
        in_read, in_write = os.pipe()
        out_read, out_write = os.pipe()
        err_read, err_write = os.pipe()
        ours = (in_write, out_read, err_read)
        try:
            where = Path.cwd() if cwd is None else cwd
            pid = self._fork(args, where, environ, [in_read, out_write, err_write], True)
        except BaseException:
            for fd in ours:
                os.close(fd)
            raise
        finally:
            for fd in (in_read, out_write, err_write):
                os.close(fd)
        command = [sys.executable, "-m", self.module, *args]
        streams = (os.fdopen(in_write, "wb"), os.fdopen(out_read, "rb"), os.fdopen(err_read, "rb"))
        return Forked(self, pid, command, *streams)

    def worker_command(self) -> list[str]:
        """The command the pools of the server's children start a translate worker with (the
        server started if it was not): `tests/worker_launcher.py` and the server's socket."""
        assert self.fork_workers, "this server forks no workers"
        with self._sending:
            self._started()
        return list(launcher_command(self._workers_socket))

    @property
    def pid(self) -> int | None:
        """The server's process id once it started."""
        return None if self._process is None else self._process.pid

    def wait(self, pid: int, timeout: float | None) -> int | None:
        """The exit status of child `pid` once it ended (as `subprocess` reports it), None if it
        still runs after `timeout` seconds."""
        with self._changed:
            self._changed.wait_for(lambda: pid in self._exits or self._failure is not None, timeout)
            if pid in self._exits:
                return self._exits[pid]
            if self._failure is not None:
                raise ZygoteError(self._failure)
            return None

    def signal(self, pid: int, signum: int) -> None:
        """Send `signum` to child `pid` unless it ended already (the server reaps, so the pid
        cannot be another process's)."""
        with self._sending:
            if self._control is not None:
                self._control.send(json.dumps({"signal": signum, "pid": pid}).encode())

    def close(self) -> None:
        """Stop the server (it kills any child still running and exits when its end of the
        socket closes)."""
        with self._sending:
            self._closing = True
            if self._control is not None:
                self._control.shutdown(socket.SHUT_WR)
        if self._process is not None:
            self._process.wait(timeout=60)
            for stream in (self._process.stdout, self._process.stderr):
                if stream is not None:
                    stream.close()
        if self._socket_folder is not None:
            shutil.rmtree(self._socket_folder, ignore_errors=True)

    def _workers_path(self) -> str:
        """Where the server listens for translate workers (a new folder of its own: a Unix
        socket's path must be short, so not below the tests' temp folders); "" when it forks
        none."""
        if not self.fork_workers:
            return ""
        self._socket_folder = tempfile.mkdtemp(prefix="i18nprune-zygote-")
        self._workers_socket = os.path.join(self._socket_folder, "workers")
        return self._workers_socket

    def _fork(
        self,
        args: Sequence[str],
        cwd: Path,
        environ: Mapping[str, str],
        fds: list[int],
        new_session: bool,
    ) -> int:
        request = {
            "module": self.module,
            "args": list(args),
            "cwd": os.path.abspath(cwd),
            "env": dict(environ),
            "session": new_session,
        }
        with self._sending:
            control = self._started()
            socket.send_fds(control, [json.dumps(request).encode()], fds)
            pid: int = self._reply()["pid"]
        return pid

    def _started(self) -> socket.socket:
        if self._control is not None:
            return self._control
        if self._failure is not None:
            raise ZygoteError(self._failure)
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        with theirs:
            self._process = subprocess.Popen(
                [sys.executable, "-c", _SERVER, str(theirs.fileno()), self._workers_path()],
                cwd=self._repository,
                env=self.environ,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=[theirs.fileno()],
            )
        self._control = ours
        threading.Thread(target=self._read, args=(ours,), daemon=True).start()
        self._reply()  # ready: everything imported
        return ours

    def _reply(self) -> dict[str, Any]:
        try:
            reply = self._replies.get(timeout=_START_TIMEOUT)
        except queue.Empty:
            raise ZygoteError(f"the fork server did not answer in {_START_TIMEOUT} s") from None
        if "error" in reply:
            raise ZygoteError(str(reply["error"]))
        return reply

    def _read(self, control: socket.socket) -> None:
        """The reader thread: answers to the queue, exit statuses to `_exits`."""
        while True:
            try:
                message = control.recv(_REQUEST_LIMIT)
            except OSError:
                message = b""
            if not message:
                self._ended()
                return
            answer = json.loads(message)
            with self._changed:
                if "exited" in answer:
                    self._exits[answer["exited"]] = answer["code"]
                    self._changed.notify_all()
                    continue
                if "pid" in answer:  # a pid used again: the status kept is another's
                    self._exits.pop(answer["pid"], None)
            self._replies.put(answer)

    def _ended(self) -> None:
        assert self._process is not None and self._process.stderr is not None
        stderr = b"" if self._closing else self._process.stderr.read()
        failure = f"the CLI's fork server ended:\n{stderr.decode(errors='replace')}"
        with self._changed:
            self._failure = failure
            self._changed.notify_all()
        self._replies.put({"error": failure})
        with self._sending:
            if self._control is not None:
                self._control.close()
                self._control = None


class Forked:
    """A child of the fork server with what `ServeClient` uses of a `subprocess.Popen`."""

    def __init__(
        self,
        zygote: Zygote,
        pid: int,
        args: list[str],
        stdin: BinaryIO,
        stdout: BinaryIO,
        stderr: BinaryIO,
    ) -> None:
        self.args = args
        self.pid = pid
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self.returncode: int | None = None
        self._zygote = zygote

    def poll(self) -> int | None:
        """The exit status, None while it runs."""
        if self.returncode is None:
            self.returncode = self._zygote.wait(self.pid, 0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait for the exit status; raises `subprocess.TimeoutExpired` after `timeout` s."""
        code = self._zygote.wait(self.pid, timeout)
        if code is None:
            raise subprocess.TimeoutExpired(self.args, timeout or 0)
        self.returncode = code
        return code

    def send_signal(self, signum: int) -> None:
        """Signal the process unless it ended."""
        if self.poll() is None:
            self._zygote.signal(self.pid, signum)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def _read_until_closed(out: int, err: int, timeout: float) -> tuple[list[bytes], bool]:
    """Everything written on the two pipes until every writer closed them, or until
    `timeout` seconds: ([stdout, stderr], whether it timed out)."""
    chunks: dict[int, list[bytes]] = {out: [], err: []}
    with selectors.DefaultSelector() as selector:
        for fd in chunks:
            selector.register(fd, selectors.EVENT_READ)
        deadline = _now() + timeout
        while selector.get_map():
            left = deadline - _now()
            if left <= 0:
                return [b"".join(chunks[out]), b"".join(chunks[err])], True
            for key, _ in selector.select(left):
                data = os.read(key.fd, 1 << 16)
                if data:
                    chunks[key.fd].append(data)
                else:
                    selector.unregister(key.fd)
    return [b"".join(chunks[out]), b"".join(chunks[err])], False


def _now() -> float:
    import time

    return time.monotonic()


def _as_text(data: bytes) -> str:
    """As `subprocess.run(text=True)` decodes a pipe: the locale's encoding, strict, universal
    newlines."""
    encoding = io.TextIOWrapper(io.BytesIO()).encoding
    return data.decode(encoding).replace("\r\n", "\n").replace("\r", "\n")


# The server's side, run in its own interpreter by `_SERVER`.


def serve(control_fd: int, workers_path: str) -> None:
    """Import what a command imports, say ready, then fork a child per request and report
    each child's exit, until the client closes its end of `control_fd` (children still
    running are then killed).

    Translate workers are asked for on a socket at `workers_path` by `tests/worker_launcher.py`,
    which the pools of the commands forked here start in place of `python -m i18nprune_workers`:
    each launcher's connection gets its worker's pid, then its exit status; a connection that
    closes first (its launcher was killed) gets its worker killed."""
    # The worker's entry first: it keeps httpx from importing its command-line client.
    workers = ["i18nprune_workers.__main__"] if workers_path else []
    for name in (*workers, *PRELOADED, *_op_modules()):
        importlib.import_module(name)
    from i18nprune.pool import handle

    startup = dict(os.environ)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listening = [listener.fileno()] if workers_path else []
    if workers_path:
        handle.WORKER_COMMAND = launcher_command(workers_path)
        listener.bind(workers_path)
        listener.listen(64)
    launchers: dict[int, socket.socket] = {}  # by descriptor: connections of live launchers
    worker_of: dict[int, int] = {}  # a launcher's descriptor: the pid of its worker
    launcher_of: dict[int, socket.socket] = {}  # a worker's pid: its launcher's connection
    control = socket.socket(fileno=control_fd)
    exit_handlers = atexit._ncallbacks()
    children: set[int] = set()  # forked and not yet reaped: a pid here is still that child's
    woken, wake = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    signal.set_wakeup_fd(wake, warn_on_full_buffer=False)
    signal.signal(signal.SIGCHLD, _note_exit)
    control.send(b'{"ready": true}')
    while True:
        watched = [control.fileno(), woken, *listening, *launchers]
        ready, _, _ = select.select(watched, [], [])
        if woken in ready:
            _drain(woken)
        for pid, code in _reaped(children):
            connection = launcher_of.pop(pid, None)
            if connection is None:
                control.send(json.dumps({"exited": pid, "code": code}).encode())
                continue
            _tell(connection, {"exited": pid, "code": code})
        if listener.fileno() in ready:
            connection, _ = listener.accept()
            launchers[connection.fileno()] = connection
        for fd in set(ready) & set(launchers):
            connection = launchers[fd]
            try:
                message, fds, _, _ = socket.recv_fds(connection, _REQUEST_LIMIT, 3)
            except OSError:  # reset: the launcher is gone
                message, fds = b"", []
            worker = worker_of.get(fd)
            if not message:  # the launcher ended: its worker goes with it
                if worker in children:
                    os.kill(worker, signal.SIGKILL)
                del launchers[fd]
                worker_of.pop(fd, None)
                connection.close()
                continue
            request = json.loads(message)
            if "signal" in request:
                if worker in children:
                    os.kill(worker, request["signal"])
                continue
            problem = _not_forkable(exit_handlers)
            tune_malloc = _tunes_malloc(request["env"], startup)
            environ = {
                name: value
                for name, value in request["env"].items()
                if not (tune_malloc and name in MALLOC_VARIABLES)
            }
            if starts_differently(environ, startup):
                problem = "its start-up environment differs from the server's"
            if problem:
                for passed in fds:
                    os.close(passed)
                _tell(connection, {"fresh": problem})
                continue
            command = {"module": handle.WORKER_PACKAGE, "args": [], "session": False}
            pid = _fork_child({**request, **command, "tune_malloc": tune_malloc}, fds, control)
            children.add(pid)
            worker_of[fd] = pid
            launcher_of[pid] = connection
            _tell(connection, {"pid": pid})  # a launcher gone meanwhile: its EOF kills it
        if control.fileno() not in ready:
            continue
        message, fds, _, _ = socket.recv_fds(control, _REQUEST_LIMIT, 3)
        if not message:
            for pid in children:
                os.kill(pid, signal.SIGKILL)
            return
        request = json.loads(message)
        if "signal" in request:
            if request["pid"] in children:
                os.kill(request["pid"], request["signal"])
            continue
        problem = _not_forkable(exit_handlers)
        if problem:
            for fd in fds:
                os.close(fd)
            control.send(json.dumps({"error": problem}).encode())
            continue
        pid = _fork_child(request, fds, control)
        children.add(pid)
        control.send(json.dumps({"pid": pid}).encode())


def _tell(launcher: socket.socket, message: dict[str, Any]) -> None:
    """Send `message` to a launcher, unless it is gone (killed: its end is closed)."""
    with contextlib.suppress(OSError):
        launcher.send(json.dumps(message).encode())


def _tunes_malloc(environ: Mapping[str, str], startup: Mapping[str, str]) -> bool:
    """Whether `environ` names the malloc thresholds a command sets for the processes it starts
    (`system.memory.return_freed_memory`) and the server's start-up did not: a child forked to
    run in it then sets them itself, as glibc would have at its start."""
    return not any(name in startup for name in MALLOC_VARIABLES) and all(
        environ.get(name) == str(THRESHOLD_BYTES) for name in MALLOC_VARIABLES
    )


def _fork_child(request: dict[str, Any], fds: list[int], control: socket.socket) -> int:
    """Fork a child that becomes the command `request` describes; close the passed `fds` here:
    the child's pid."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        _become_command(request, fds, control)
    for fd in fds:
        os.close(fd)
    return pid


def _note_exit(signum: int, frame: object) -> None:
    """SIGCHLD's handler: nothing; the wakeup descriptor wakes the server's `select`."""


def _drain(fd: int) -> None:
    with contextlib.suppress(BlockingIOError):
        while os.read(fd, 512):
            pass


def _reaped(children: set[int]) -> list[tuple[int, int]]:
    """The children that ended since the last call, reaped: (pid, status as `subprocess`
    reports it)."""
    ended = []
    while children:
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            break
        children.discard(pid)
        ended.append((pid, os.waitstatus_to_exitcode(status)))
    return ended


def _op_modules() -> list[str]:
    from i18nprune.ops.engine.registry import OPS

    renderers = Path(importlib.import_module("i18nprune.cli.renderers").__path__[0])
    ops = sorted({f"i18nprune.ops.{spec.module}" for spec in OPS.values()})
    return [*ops, *(f"i18nprune.cli.renderers.{p.stem}" for p in sorted(renderers.glob("*.py")))]


def _not_forkable(exit_handlers: int) -> str | None:
    """Why the server may not fork now (None: it may): a thread or a new exit handler."""
    if threading.active_count() != 1:
        return f"the fork server runs {threading.active_count()} threads"
    if atexit._ncallbacks() != exit_handlers:
        return "the fork server registered an exit handler after start-up"
    return None


def _become_command(request: dict[str, object], fds: list[int], control: socket.socket) -> NoReturn:
    """In the forked child: become `python -m i18nprune ARGS` as the request describes it,
    run it, and exit with its status."""
    try:
        module = str(request["module"])
        args = [str(arg) for arg in request["args"]]  # type: ignore[attr-defined]
        environ: dict[str, str] = request["env"]  # type: ignore[assignment]
        control.detach()  # its descriptor is closed below, with every other one
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        if request["session"]:
            os.setsid()
        if request.get("tune_malloc"):
            from i18nprune.system.memory import return_freed_memory

            os.environ.clear()  # it sets the thresholds only where the environment names none
            return_freed_memory()
        stdin = fds[0] if len(fds) == 3 else os.open(os.devnull, os.O_RDONLY)
        for source, target in ((stdin, 0), (fds[-2], 1), (fds[-1], 2)):
            os.dup2(source, target)
        os.closerange(3, os.sysconf("SC_OPEN_MAX"))
        os.chdir(str(request["cwd"]))
        os.environ.clear()
        os.environ.update(environ)
        sys.argv = ["-m", *args]
        sys.orig_argv = [sys.executable, "-m", module, *args]
        sys.path[0] = os.getcwd()
        main = types.ModuleType("__main__")
        main.__builtins__ = builtins  # type: ignore[attr-defined]
        main.__annotations__ = {}
        sys.modules["__main__"] = main
    except BaseException:  # the set-up failed: say why on the test's stderr
        import traceback

        traceback.print_exc()
        sys.stderr.flush()
        os._exit(255)
    os._exit(_run_as_main(module))


def _run_as_main(module: str) -> int:
    """Run `module` as `python -m` runs it, and end as the interpreter ends when it
    returns or raises: the status to exit with."""
    import runpy

    interrupted = False
    try:
        runpy._run_module_as_main(module)  # type: ignore[attr-defined]
    except SystemExit as ending:
        status = _exit_status(ending.code)
    except BaseException as error:
        # From the frame down that the interpreter's own print starts at, `<frozen runpy>`.
        traceback = error.__traceback__
        error.__traceback__ = traceback.tb_next if traceback else None
        sys.excepthook(type(error), error, error.__traceback__)
        status = 1
        interrupted = isinstance(error, KeyboardInterrupt)
    else:
        status = 0
    threading._shutdown()  # type: ignore[attr-defined]
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            status = 120
    if interrupted:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    return status


def _exit_status(code: object) -> int:
    """The status `SystemExit(code)` ends an interpreter with (a code neither None nor an int
    is printed on stderr first)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1
