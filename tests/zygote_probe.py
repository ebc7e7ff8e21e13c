"""A command for the fork server's own tests (tests/test_zygote.py), run as `python -m
tests.zygote_probe WHAT …` both from the server and in a fresh interpreter."""

from __future__ import annotations

import os
import signal
import sys
import threading


def main(args: list[str]) -> None:
    """Do what `args` names: exit CODE, crash, interrupt, write BYTES, env NAME…, where,
    threads, signals, echo, hang."""
    what, rest = args[0], args[1:]
    if what == "exit":
        sys.exit(int(rest[0]) if rest[0].lstrip("-").isdigit() else rest[0])
    if what == "crash":
        raise RuntimeError("the probe crashed")
    if what == "interrupt":
        raise KeyboardInterrupt
    if what == "write":  # both pipes filled at once, more than either holds
        size = int(rest[0])
        for start in range(0, size, 4096):
            sys.stdout.write("o" * min(4096, size - start))
            sys.stderr.write("e" * min(4096, size - start))
        return
    if what == "env":  # each name's value; then one more set, for a later run to look for
        for name in rest:
            print(os.environ.get(name, "<unset>"))
        os.environ["ZYGOTE_PROBE_LEFT_BEHIND"] = "by an earlier run"
        return
    if what == "where":
        print(os.getcwd())
        print(sys.path[0])
        print(sys.argv[1:])
        return
    if what == "threads":
        print(threading.active_count())
        return
    if what == "signals":  # dispositions, the wakeup descriptor, the open descriptors
        names = ("SIGINT", "SIGCHLD", "SIGPIPE", "SIGTERM", "SIGHUP", "SIGXFSZ")
        print([str(signal.getsignal(getattr(signal, name))) for name in names])
        print(signal.set_wakeup_fd(-1))
        print(sorted(int(fd) for fd in os.listdir("/proc/self/fd")))
        return
    if what == "echo":  # stdin to stdout, then whether this process leads its own session
        sys.stdout.write(sys.stdin.read())
        print(os.getsid(0) == os.getpid())
        return
    if what == "hang":
        signal.pause()
    raise SystemExit(f"unknown probe {what!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
