"""`demo DIR`: write the bundled example app (React/TS and Vue, English and French locales) to a
directory, so an install from a wheel can try every command on it."""

from __future__ import annotations

from pathlib import Path

# What the README's quick start writes into the example: never part of the demo.
_RUN_OUTPUT = ("de.json",)


class DemoError(Exception):
    """The demo cannot be written there (the message says why and what to do)."""


def write_demo(destination: Path) -> list[Path]:
    """Copy the example app into `destination` (created; it must not exist or be empty);
    returns the files written, relative to it.

    Raises `DemoError` when `destination` is a file or a directory with something in it, or
    cannot be written.
    """
    if destination.exists() and (not destination.is_dir() or any(destination.iterdir())):
        raise DemoError(
            f"{destination} already exists and is not an empty directory; name a new one"
        )
    import shutil  # here: every command imports this module, few write the demo
    from importlib.resources import as_file, files

    with as_file(files("i18nprune") / "demo") as example:
        try:
            shutil.copytree(
                example,
                destination,
                dirs_exist_ok=True,
                ignore=shutil.ignore_patterns(*_RUN_OUTPUT, "__pycache__"),
            )
        except OSError as exc:
            raise DemoError(f"{destination} cannot be written ({exc.strerror or exc})") from exc
    return sorted(
        path.relative_to(destination) for path in destination.rglob("*") if path.is_file()
    )
