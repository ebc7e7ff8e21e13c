"""The container image's entry point: run `i18nprune` as the owner of the project.

`docker run -v "$PWD:/project" i18nprune …` starts this as root. It looks up who owns the working
directory (`/project`, where the project is mounted), hands that user and group the translation
cache (`I18NPRUNE_HOME`, `/cache` in the image: every entry there that is not theirs yet is
chowned, as the postgres image does with its data directory), drops root for them and executes
`i18nprune` with the same arguments. Files the tool writes then belong to the project's owner,
exactly as when they run it on the host, and a cache volume used by several owners keeps working.
A working directory owned by root (rootless Docker and Podman map the host user to root) keeps
root, which is that user.

Started as anyone else (`docker run --user "$(id -u):$(id -g)"`, Kubernetes `runAsUser`) it
changes nothing and executes `i18nprune` at once: the image's `/cache` is world-writable with the
sticky bit (like `/tmp`), so a fresh cache volume works for any uid.

The image runs it as `python -I -m i18nprune.container`: `-I` keeps the working directory (the
project's files) off `sys.path` while this runs as root. It imports nothing else of the package,
so it costs little more than an interpreter start before the real command.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple, NoReturn

PROGRAM = "i18nprune"


class Owner(NamedTuple):
    """A user and group id to run as."""

    uid: int
    gid: int


def project_owner(directory: Path) -> Owner | None:
    """Who owns `directory`; None when root does (then there is nobody to switch to)."""
    info = directory.stat()
    return None if info.st_uid == 0 else Owner(info.st_uid, info.st_gid)


def cache_home(env: Mapping[str, str]) -> Path:
    """The tool's data home, as `i18nprune.project.user_home` finds it (not imported: that
    would load the whole package as root before every command)."""
    configured = env.get("I18NPRUNE_HOME")
    return Path(configured).expanduser() if configured else Path.home() / ".i18nprune"


def hand_over(home: Path, owner: Owner) -> list[str]:
    """Make `home` (created when missing) and everything below it belong to `owner`.

    Symbolic links are changed themselves, never followed, and the walk holds each folder open
    (`os.fwalk`), so a link swapped in meanwhile cannot lead it elsewhere. Returns the problems
    met, as sentences; nothing raises: without the cache the tool still runs (and says so).
    """
    try:
        home.mkdir(parents=True, exist_ok=True)
        real = home.resolve(strict=True)
    except OSError as problem:
        return [f"cannot create {home} ({problem.strerror or problem})"]
    if real == Path(real.anchor):
        return [f"I18NPRUNE_HOME is {home}, the file system root: it is not handed over"]
    problems: list[str] = []
    try:
        _give(str(real), None, owner)
        for _folder, folders, files, folder_fd in os.fwalk(real, follow_symlinks=False):
            for name in (*folders, *files):
                _give(name, folder_fd, owner)
    except OSError as problem:
        problems.append(f"cannot give {real} to {owner.uid}:{owner.gid} ({problem})")
    return problems


def _give(name: str, folder_fd: int | None, owner: Owner) -> None:
    info = os.stat(name, dir_fd=folder_fd, follow_symlinks=False)
    if (info.st_uid, info.st_gid) != owner:
        os.chown(name, owner.uid, owner.gid, dir_fd=folder_fd, follow_symlinks=False)


def drop_privileges(owner: Owner) -> None:
    """Become `owner` for good: real, effective and saved ids, no supplementary groups."""
    os.setgroups([])
    os.setgid(owner.gid)
    os.setuid(owner.uid)


def command(args: Sequence[str]) -> list[str]:
    """The `i18nprune` command line to execute: the script installed beside this interpreter,
    else the one on PATH."""
    beside = Path(sys.executable).with_name(PROGRAM)
    if beside.is_file():
        return [str(beside), *args]
    import shutil  # only here: it costs every start a few milliseconds

    return [shutil.which(PROGRAM) or PROGRAM, *args]


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Switch to the project's owner when started as root, then execute `i18nprune argv…`."""
    args = sys.argv[1:] if argv is None else list(argv)
    if os.geteuid() == 0:
        owner = project_owner(Path.cwd())
        if owner is not None:
            for problem in hand_over(cache_home(os.environ), owner):
                _say(problem)
            try:
                drop_privileges(owner)
            except OSError as problem:  # e.g. `--cap-drop ALL`: no CAP_SETUID / CAP_SETGID
                _say(
                    f"cannot switch to the project's owner {owner.uid}:{owner.gid} ({problem}); "
                    'run the container with --user "$(id -u):$(id -g)" instead'
                )
                raise SystemExit(126) from None
    line = command(args)
    try:
        os.execvp(line[0], line)
    except OSError as problem:
        _say(f"cannot run {line[0]} ({problem})")
        raise SystemExit(127) from None


def _say(text: str) -> None:
    print(f"i18nprune (container): {text}", file=sys.stderr)


if __name__ == "__main__":
    main()
