"""Where a run's project is: its root directory and the config file in it."""

from __future__ import annotations

import os
from pathlib import Path

from i18nprune.envelope import Code, ProblemError, error

CONFIG_FILE_NAMES = (
    "i18nprune.config.json",
    "i18nprune.config.ts",
    "i18nprune.config.mts",
    "i18nprune.config.cts",
    "i18nprune.config.js",
    "i18nprune.config.mjs",
    "i18nprune.config.cjs",
)


def resolve_root(cwd: Path, project: Path | None, config_file: Path | None) -> Path:
    """The project root as an absolute real path.

    `project` (`--project`) wins; else the directory of an explicit `config_file`; else `cwd`.
    Relative paths resolve against `cwd`. Raises ProblemError: PROJECT_NOT_FOUND when the
    chosen directory does not exist or is not a directory, CONFIG_NOT_FOUND when an explicit
    config file (deciding the root) does not exist.
    """
    if project is not None:
        chosen = cwd / project
    elif config_file is not None:
        chosen = explicit_config_file(cwd / config_file).parent
    else:
        chosen = cwd
    root = Path(os.path.realpath(chosen))
    if not root.is_dir():
        what = "does not exist" if not root.exists() else "is not a directory"
        raise ProblemError(
            error(
                Code.PROJECT_NOT_FOUND,
                f"project root {root} {what}; pass an existing directory with -C/--project",
                str(root),
            )
        )
    return root


def explicit_config_file(path: Path) -> Path:
    """`path` as an absolute real path, when it is an existing file.

    Raises ProblemError (CONFIG_NOT_FOUND) otherwise.
    """
    real = Path(os.path.realpath(path))
    if not real.is_file():
        what = "does not exist" if not real.exists() else "is not a file"
        raise ProblemError(
            error(
                Code.CONFIG_NOT_FOUND,
                f"config file {path} {what}; check the path given to -c/--config",
                str(path),
            )
        )
    return real


def find_config_file(root: Path) -> Path | None:
    """The config file in `root`, or None when there is none.

    Raises ProblemError (CONFIG_AMBIGUOUS) when several candidates exist.
    """
    present = [root / name for name in CONFIG_FILE_NAMES if (root / name).is_file()]
    if len(present) > 1:
        names = ", ".join(path.name for path in present)
        raise ProblemError(
            error(
                Code.CONFIG_AMBIGUOUS,
                f"several config files in {root}: {names}; keep one, or choose one with "
                f"-c/--config <path>",
                str(root),
            )
        )
    return present[0] if present else None


def confine(root: Path, relative: str, what: str) -> Path:
    """Resolve `relative` against `root`; raise ProblemError when it lands outside the root or
    cannot be resolved (a symbolic link that loops)."""
    try:
        candidate = (root / relative).resolve()
    except (OSError, RuntimeError) as exc:  # Python 3.11 raises RuntimeError for a link loop
        raise ProblemError(
            error(
                Code.PATH_UNRESOLVABLE,
                f"{what} `{relative}` cannot be resolved ({exc}); it is a symbolic link that "
                "loops — point it at a real directory inside the project",
                relative,
            )
        ) from exc
    if candidate != root and root not in candidate.parents:
        raise ProblemError(
            error(
                Code.PATH_OUTSIDE_ROOT,
                f"{what} `{relative}` resolves to {candidate}, outside the project root {root}; "
                "point it at a directory inside the project",
            )
        )
    return candidate
