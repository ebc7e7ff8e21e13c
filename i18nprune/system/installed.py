"""What an installed package's wheel metadata says, found without importing the package (a
short command must not pay for importing a package just to learn which build it is)."""

from __future__ import annotations

import importlib.util
import os


def dist_info(package: str) -> str | None:
    """The one `<package>-<version>.dist-info` folder beside top-level package `package`, as
    `import` would find the package (its name compared case-insensitively). None when the
    package is not found, or there is no such folder, or several (leftovers of another install:
    which one is live is not certain)."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    prefix = f"{package.lower()}-"
    for folder in spec.submodule_search_locations or ():
        site = os.path.dirname(folder)
        try:
            with os.scandir(site) as entries:
                found = [
                    entry.path
                    for entry in entries
                    if entry.name.lower().startswith(prefix) and entry.name.endswith(".dist-info")
                ]
        except OSError:
            continue
        if found:
            return found[0] if len(found) == 1 else None
    return None


def wheel_record(package: str) -> bytes | None:
    """The `RECORD` of `package`'s `dist_info`, when it lists the package's own files (a wheel
    install's does, with a hash of each; an editable install's lists only a link to the
    source)."""
    info = dist_info(package)
    if info is None:
        return None
    try:
        with open(os.path.join(info, "RECORD"), "rb") as file:
            record = file.read()
    except OSError:
        return None
    listed = f"\n{package}/".encode()
    return record if record.startswith(listed[1:]) or listed in record else None
