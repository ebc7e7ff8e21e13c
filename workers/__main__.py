"""Entry point of a translate worker: `python -m i18nprune_workers` (started by the pool)."""

from __future__ import annotations

import gc
import os
import signal
import sys

# httpx imports its command-line client (click, rich, pygments) whenever those are installed,
# as they are beside i18nprune: a tenth of a second of every worker's start-up, for a tool the
# worker never runs. Without it, httpx defines a stub `main` instead.
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]

import trio  # noqa: E402

from .runtime import protect_stdio, serve  # noqa: E402


def main() -> None:
    """Serve the pool on stdin/stdout until it says Shutdown or goes away."""
    input_fd, output_fd = protect_stdio()
    # Ctrl+C reaches the whole process group; the pool decides when its workers stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # What the imports built lives as long as the worker: no collection need look at it (as
    # the command line's own `__main__` does).
    gc.freeze()
    trio.run(serve, input_fd, output_fd)
    # Tearing the interpreter down costs tens of milliseconds and frees nothing that the exit
    # does not; only buffered stray output is worth keeping.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
