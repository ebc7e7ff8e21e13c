"""Running a measured command: wall time, CPU summed over its process tree (rusage of the reaped
child, which includes every descendant it waited for), and memory summed over the tree, sampled
from /proc every ~50 ms."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

PAGE = os.sysconf("SC_PAGE_SIZE")
SAMPLE_EVERY_S = 0.05


class CommandFailed(RuntimeError):
    """A measured command exited non-zero (when `check`) or ran past its timeout."""


@dataclass
class TreeSample:
    """One look at the process tree: seconds since start, RSS of the root and of its
    descendants (bytes), and how many processes the tree had."""

    at: float
    root_rss: int
    children_rss: int
    processes: int


@dataclass
class Measured:
    """What one command cost. `cpu_s` is user + system time from `wait4` (the root and every
    descendant it reaped); `cpu_sampled_s` adds up the last /proc reading of every process seen
    in the tree (a cross-check that also counts descendants nobody reaped).
    `peak_rss_sum` is the largest sum of RSS over the tree at one sample (bytes)."""

    argv: list[str]
    returncode: int
    wall_s: float
    cpu_s: float
    cpu_sampled_s: float
    peak_rss_sum: int
    peak_root_rss: int
    peak_processes: int
    stdout: str
    stderr: str
    samples: list[TreeSample] = field(default_factory=list)

    @property
    def peak_rss_mb(self) -> float:
        """`peak_rss_sum` in MB (10^6 bytes)."""
        return self.peak_rss_sum / 1e6


def _stat(pid: int) -> tuple[int, int, int] | None:
    """(parent pid, utime + stime in clock ticks, resident pages) of `pid`, None when gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            raw = handle.read()
    except OSError:
        return None
    fields = raw[raw.rindex(b")") + 2 :].split()
    # fields[0] is the state (stat field 3); ppid is field 4, utime/stime 14/15, rss 24
    return int(fields[1]), int(fields[11]) + int(fields[12]), int(fields[21])


def resident_bytes(pid: int) -> int:
    """The resident memory of one process now (0 when it is gone)."""
    stat = _stat(pid)
    return stat[2] * PAGE if stat is not None else 0


class _TreeSampler(threading.Thread):
    """Samples the tree under `root` until `stop` is set."""

    def __init__(self, root: int) -> None:
        super().__init__(daemon=True, name=f"sampler-{root}")
        self.root = root
        self.started = time.perf_counter()
        self.stop = threading.Event()
        self.samples: list[TreeSample] = []
        self.cpu_ticks: dict[int, int] = {}

    def run(self) -> None:
        while not self.stop.is_set():
            self._sample()
            self.stop.wait(SAMPLE_EVERY_S)

    def _sample(self) -> None:
        stats: dict[int, tuple[int, int, int]] = {}
        for name in os.listdir("/proc"):
            if name.isdigit() and (stat := _stat(int(name))) is not None:
                stats[int(name)] = stat
        if self.root not in stats:
            return
        children: dict[int, list[int]] = {}
        for pid, (parent, _, _) in stats.items():
            children.setdefault(parent, []).append(pid)
        tree, todo = [], [self.root]
        while todo:
            pid = todo.pop()
            tree.append(pid)
            todo.extend(children.get(pid, ()))
        rss = {pid: stats[pid][2] * PAGE for pid in tree}
        for pid in tree:
            self.cpu_ticks[pid] = stats[pid][1]
        root_rss = rss.pop(self.root)
        at = time.perf_counter() - self.started
        self.samples.append(TreeSample(at, root_rss, sum(rss.values()), len(tree)))


def run_measured(
    argv: Sequence[str],
    *,
    env: Mapping[str, str],
    timeout: float,
    cwd: Path | None = None,
    check: bool = True,
    shell: bool = False,
    sample_tree: bool = True,
) -> Measured:
    """Run `argv` (a shell line when `shell`) in its own process group and measure it.

    Kills the whole group and raises CommandFailed after `timeout` seconds, or when it exits
    non-zero and `check` is set. stdout and stderr go to temp files (no pipe can fill up).
    `sample_tree=False` reads no /proc samples (no memory figures, `cpu_sampled_s` 0): for many
    commands at once, whose samplers would each read every process's stat 20 times a second.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(
            list(argv) if not shell else argv[0],
            env=dict(env),
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,
            shell=shell,
        )
        sampler = _TreeSampler(process.pid)
        if sample_tree:
            sampler.start()
        timed_out = threading.Event()
        timer = threading.Timer(timeout, _expire, (process.pid, timed_out))
        timer.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            timer.cancel()
            sampler.stop.set()
            if sample_tree:
                sampler.join()
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        _kill_group(process.pid)  # descendants the command left behind
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    measured = _measured(list(argv), process.returncode, wall, usage, sampler, stdout, stderr)
    if timed_out.is_set():
        raise CommandFailed(f"timed out after {timeout:.0f} s: {' '.join(argv)}")
    if check and process.returncode != 0:
        tail = stderr[-2000:]
        raise CommandFailed(f"exit {process.returncode}: {' '.join(argv)}\n{tail}")
    return measured


def _measured(
    argv: list[str],
    returncode: int,
    wall: float,
    usage: resource.struct_rusage,
    sampler: _TreeSampler,
    stdout: str,
    stderr: str,
) -> Measured:
    samples = sampler.samples
    ticks = os.sysconf("SC_CLK_TCK")
    return Measured(
        argv=argv,
        returncode=returncode,
        wall_s=wall,
        cpu_s=usage.ru_utime + usage.ru_stime,
        cpu_sampled_s=sum(sampler.cpu_ticks.values()) / ticks,
        peak_rss_sum=max((s.root_rss + s.children_rss for s in samples), default=0),
        peak_root_rss=max((s.root_rss for s in samples), default=0),
        peak_processes=max((s.processes for s in samples), default=0),
        stdout=stdout,
        stderr=stderr,
        samples=samples,
    )


def _expire(pid: int, timed_out: threading.Event) -> None:
    timed_out.set()
    _kill_group(pid)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


class TreeWatch:
    """Samples the process tree of a process this benchmark did not start through
    `run_measured` (a `serve` subprocess) while inside `with`; `peak_rss_sum` after."""

    def __init__(self, pid: int) -> None:
        self._sampler = _TreeSampler(pid)

    def __enter__(self) -> TreeWatch:
        self._sampler.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._sampler.stop.set()
        self._sampler.join()

    @property
    def samples(self) -> list[TreeSample]:
        """Every sample so far."""
        return list(self._sampler.samples)

    @property
    def peak_rss_sum(self) -> int:
        """The largest RSS sum over the tree at one sample (bytes)."""
        return max((s.root_rss + s.children_rss for s in self._sampler.samples), default=0)
