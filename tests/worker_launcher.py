"""Stands in for `python -m i18nprune_workers` in the suite: asks the worker's fork server
(`tests/zygote.py`) for a worker on this process's stdin, stdout and stderr, then lives exactly
as long as that worker and ends as it ended.

Run as `python -I -S tests/worker_launcher.py SOCKET` (no site, no `PYTHON*` variables, only
`os`, `signal`, `socket` and `json` imported): ~25 ms of CPU, and ~35 ms more for the forked
worker, where `python -m i18nprune_workers` costs ~200 ms (it imports trio and httpx). The pool
sees a real child on real pipes:

- the worker reads the pool's frames and writes its replies and stderr on the descriptors this
  process was given (passed with the request; this process then closes its stdin and stdout,
  so the worker alone holds them and sees the pool go away);
- this process ends when the worker ends, with its exit status, or killed by the same signal;
- a signal the pool or a test sends this process that can be caught (SIGTERM, SIGHUP, SIGQUIT,
  SIGUSR1, SIGUSR2) is passed on to the worker; SIGINT is ignored, as the worker ignores it;
  SIGKILL ends this process, and the server then kills the worker (it sees the connection
  close), so the pool sees the kill it made.

When the server does not answer, or its children could start differently from this worker
(`tests.zygote.starts_differently`, another `PYTHON*` variable or a start-up hook on
`PYTHONPATH`), or `I18NPRUNE_TEST_FRESH_WORKERS=1`, this process becomes the real command in a
fresh interpreter (`exec`), so the test gets what a user's pool starts.
"""

import json
import os
import signal
import socket
import sys

FRESH_WORKERS = "I18NPRUNE_TEST_FRESH_WORKERS"
_PASSED_ON = (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2)


def become_fresh_worker() -> None:
    """`exec` the command the pool runs outside the suite (`handle.WORKER_COMMAND`)."""
    command = [sys.executable, "-m", "i18nprune_workers"]
    # As the pool starts its child; the worker then ignores SIGINT itself.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.execv(sys.executable, command)


def main(path: str) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if os.environ.get(FRESH_WORKERS) == "1":
        become_fresh_worker()
    server = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        server.connect(path)
        request = {"cwd": os.getcwd(), "env": dict(os.environ)}
        socket.send_fds(server, [json.dumps(request).encode()], [0, 1, 2])
        answer = json.loads(server.recv(1 << 16) or b'{"fresh": "no answer"}')
    except OSError:
        answer = {"fresh": "no server"}
    if "pid" not in answer:
        server.close()
        become_fresh_worker()
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)  # stderr stays: the pool reads it until the worker and this both end
    os.close(null)

    def pass_on(signum: int, frame: object) -> None:
        server.send(json.dumps({"signal": signum}).encode())

    for signum in _PASSED_ON:
        signal.signal(signum, pass_on)
    while True:
        try:
            message = server.recv(1 << 16)
        except InterruptedError:
            continue
        if not message:  # the server ended: so did the worker, killed with it
            code = -signal.SIGKILL
            break
        ended = json.loads(message)
        if "exited" in ended:
            code = ended["code"]
            break
    if code >= 0:
        os._exit(code)
    import resource  # only here: the worker's dump, if any, was made; this one would be noise

    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if -code not in (signal.SIGKILL, signal.SIGSTOP):  # those two have no handler to reset
        signal.signal(-code, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [-code])
    os.kill(os.getpid(), -code)
    os._exit(128 - code)  # not reached: the signal ends the process


if __name__ == "__main__":
    main(sys.argv[1])
