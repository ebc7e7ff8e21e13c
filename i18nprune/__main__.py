"""The command line's entry point, for `python -m i18nprune` and the `i18nprune` script.

It runs before any other module of the package is imported, so a read-only `serve` turns
bytecode writing off before Python compiles anything of ours (docs/serve.md#6-read-only-by-default:
no disk writes).
"""

import atexit
import gc
import os
import sys

SERVE_COMMAND = "serve"
ALLOW_WRITES_FLAG = "--allow-writes"


def serves_read_only(args: list[str]) -> bool:
    """Whether these arguments may start a `serve` without `--allow-writes`.

    Errs towards yes: any argument `serve` counts, so a value spelled `serve` (`-C serve
    validate`) only costs that run its bytecode cache, never a write in a read-only session.
    """
    return SERVE_COMMAND in args and ALLOW_WRITES_FLAG not in args


# A command is short-lived and allocates a lot (parse trees, leaf tables, masked texts) that
# holds few reference cycles: collecting the young generation every 700 allocations walked
# those live objects over and over (a fifth of a 20k-leaf `generate`'s CPU). `serve` is
# long-lived and keeps Python's default.
_COMMAND_GC_THRESHOLD = (50_000, 20, 100)


def main() -> None:
    """Run the command line (exits with its code); a read-only `serve` writes no bytecode, and
    neither do the processes it starts. Large freed blocks go back to the system at once, in
    this process and those it starts (`system.memory`).

    Every command, `serve` included, ends without tearing the interpreter down (exit
    handlers run and its output is flushed first): freeing every object one by one at exit
    cost tens of milliseconds, and 0.3 s for a `serve` that built the language catalog, and
    frees nothing the exit does not. A `serve` has stopped its workers and closed its streams
    by the time its command returns.
    """
    args = sys.argv[1:]
    serving = SERVE_COMMAND in args
    if serves_read_only(args):
        sys.dont_write_bytecode = True
        os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
    from i18nprune.system.memory import return_freed_memory

    return_freed_memory()
    if not serving:  # from the start: the imports too build much and hold few cycles
        gc.set_threshold(*_COMMAND_GC_THRESHOLD)
        from i18nprune.system.descriptors import whole_writes

        sys.stdout, sys.stderr = whole_writes(sys.stdout), whole_writes(sys.stderr)
    from i18nprune.cli.app import main as run_command_line

    if not serving:
        # What the imports built lives as long as the process: no collection need look at it.
        gc.freeze()
    try:
        run_command_line()
    except SystemExit as ending:
        _exit_now(ending.code)
    _exit_now(0)


def _exit_now(code: object) -> None:
    """Exit with `code` as `sys.exit` would (None: 0, an int: itself, else printed and 1),
    after running exit handlers and flushing stdout and stderr, without the teardown."""
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:
        print(code, file=sys.stderr)
        status = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # closed, or a reader that went away
            status = status or 1
    os._exit(status)


if __name__ == "__main__":
    main()
