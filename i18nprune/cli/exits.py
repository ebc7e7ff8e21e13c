"""The command line's exit codes (docs/ci.md#exit-codes), and the usage error that ends a run
with one."""

from __future__ import annotations

import sys
import time

from i18nprune.cli.output import write_json
from i18nprune.envelope import Code, error, make_envelope

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def report_usage(message: str, as_json: bool, kind: str = "usage") -> int:
    """Say that the command line asked for something impossible (an envelope under `--json`,
    else one line on stderr); returns the usage exit code."""
    if as_json:
        issue = error(Code.USAGE_ERROR, message)
        write_json(make_envelope(kind, None, [issue], started=time.perf_counter()), False)
    else:
        print(f"i18nprune: {message} (see `i18nprune --help`)", file=sys.stderr)
    return EXIT_USAGE
