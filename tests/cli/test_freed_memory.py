"""A command gives large freed blocks back to the system at once (`system.memory`): glibc's
mmap threshold stays at 128 KiB in the command and in the processes it starts, unless the user
set the thresholds.

Observed through glibc itself: a block of 200 KiB, allocated after one of that size was freed,
is still its own mapping (glibc's `IS_MMAPPED` bit in the chunk's size word) only when the
threshold is fixed; by default the first free raises the threshold above it.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(
    sys.platform != "linux" or platform.libc_ver()[0] != "glibc", reason="glibc's malloc only"
)

_VARIABLES = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_")

# Prints `mapped` or `heap`: where glibc put a 200 KiB block after freeing one.
_BLOCK_PROBE = """
import ctypes
libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.malloc.argtypes = [ctypes.c_size_t]
libc.free.argtypes = [ctypes.c_void_p]
SIZE = 200 * 1024
libc.free(libc.malloc(SIZE))
block = libc.malloc(SIZE)
size_word = ctypes.c_size_t.from_address(block - ctypes.sizeof(ctypes.c_size_t)).value
libc.free(block)
print("mapped" if size_word & 2 else "heap")
"""


def _environment(**extra: str) -> dict[str, str]:
    environ = {name: value for name, value in os.environ.items() if name not in _VARIABLES}
    environ.update(extra)
    return environ


def _python(code: str, env: dict[str, str]) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_by_default_glibc_serves_a_block_like_one_it_freed_from_the_heap() -> None:
    assert _python(_BLOCK_PROBE, _environment()) == ["heap"]


def test_once_set_large_blocks_stay_mapped_here_and_in_the_processes_started() -> None:
    code = (
        "import subprocess, sys\n"
        "from i18nprune.system.memory import return_freed_memory\n"
        "print(return_freed_memory())\n"
        f"exec({_BLOCK_PROBE!r})\n"
        f"subprocess.run([sys.executable, '-c', {_BLOCK_PROBE!r}], check=True)\n"
    )
    assert _python(code, _environment()) == ["True", "mapped", "mapped"]


def test_the_command_line_sets_them_before_it_runs_a_command() -> None:
    code = (
        "import atexit, os, runpy, sys\n"
        "atexit.register(lambda: print(os.environ.get('MALLOC_MMAP_THRESHOLD_'),"
        " os.environ.get('MALLOC_TRIM_THRESHOLD_'), file=sys.stderr))\n"
        "sys.argv = ['i18nprune', '--version']\n"
        "runpy.run_module('i18nprune', run_name='__main__', alter_sys=True)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=_environment(), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.split() == ["131072", "131072"]


def test_a_threshold_the_user_set_is_left_as_set() -> None:
    code = (
        "import os\n"
        "from i18nprune.system.memory import return_freed_memory\n"
        "print(return_freed_memory(), os.environ['MALLOC_TRIM_THRESHOLD_'],"
        " 'MALLOC_MMAP_THRESHOLD_' in os.environ)\n"
    )
    assert _python(code, _environment(MALLOC_TRIM_THRESHOLD_="1048576")) == [
        "False",
        "1048576",
        "False",
    ]
