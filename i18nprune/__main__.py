"""The command line's entry point, for `python -m i18nprune` and the `i18nprune` script.

It runs before any other module of the package is imported, so a read-only `serve` turns
bytecode writing off before Python compiles anything of ours (PROTOCOL §6: no disk writes).
"""

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


def main() -> None:
    """Run the command line (exits with its code); a read-only `serve` writes no bytecode, and
    neither do the processes it starts."""
    if serves_read_only(sys.argv[1:]):
        sys.dont_write_bytecode = True
        os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
    from i18nprune.cli.app import main as run_command_line

    run_command_line()


if __name__ == "__main__":
    main()
