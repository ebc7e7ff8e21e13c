"""A bare parse of a project's sources: what parsing alone costs on this machine, so that a cold
`validate` of the same files can be stated as a ratio to it, measured in the same run.

    python benchmarks/bare_parse.py ROOT [--jobs N]

Reads every source file under ROOT (the suffixes the scan parses: .js/.jsx/.mjs/.cjs, .ts/.mts/
.cts, .tsx, .vue, .svelte; `node_modules` and dot folders skipped) and parses it with the
tree-sitter grammar the scan uses for it (a Vue or Svelte file as the script document the scan
builds from it), and does nothing else: no prefilter, no extraction, no hashing, no cache. The
files are shared by size over `--jobs` processes, this one and `--jobs − 1` children started
like the scan's parse workers (default: the CPUs this process may use, the count `validate`
uses); the children get their files on stdin. Prints one JSON line: files, bytes, jobs, syntax
trees with errors, and this process's parse seconds.

Unlike this, `validate` parses only the files whose bytes name a configured function (35 % of
the benchmark's tree), so its ratio to a bare parse can be below 1: the ratio is what makes the
figure comparable across machines, not a share of work.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from i18nprune.scan.grammars import SOURCE_SUFFIXES
from i18nprune.scan.markup import source_document
from i18nprune.syntax_tree import parse
from i18nprune.system.children import usable_cpus


def source_files(root: Path) -> list[tuple[str, int]]:
    """(path, size) of every source file under `root`, sorted by path."""
    found = []
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [n for n in subfolders if n != "node_modules" and not n.startswith(".")]
        for name in names:
            if os.path.splitext(name)[1] in SOURCE_SUFFIXES:
                path = os.path.join(folder, name)
                found.append((path, os.path.getsize(path)))
    return sorted(found)


def shares(files: list[tuple[str, int]], jobs: int) -> list[list[str]]:
    """`files` split into `jobs` lists of about equal bytes (largest first, each to the
    lightest list)."""
    out: list[list[str]] = [[] for _ in range(jobs)]
    weights = [0] * jobs
    for path, size in sorted(files, key=lambda file: -file[1]):
        lightest = weights.index(min(weights))
        out[lightest].append(path)
        weights[lightest] += size
    return out


def parse_files(paths: list[str]) -> tuple[int, int]:
    """Parse each file as the scan would; (bytes read, trees with a syntax error)."""
    read = errors = 0
    for path in paths:
        with open(path, "rb") as handle:
            content = handle.read()
        read += len(content)
        document, grammar = source_document(content, os.path.splitext(path)[1])
        errors += parse(document, grammar).root_node.has_error
    return read, errors


def parse_shared(root: Path, jobs: int) -> dict[str, float]:
    """Parse every source file under `root` over `jobs` processes; the figures."""
    files = source_files(root)
    mine, *theirs = shares(files, max(1, jobs))
    children = [
        subprocess.Popen(
            [sys.executable, __file__, "--child"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for share in theirs
        if share
    ]
    for child, share in zip(children, theirs, strict=False):
        assert child.stdin is not None
        child.stdin.write("\n".join(share))
        child.stdin.close()
    started = time.perf_counter()
    read, errors = parse_files(mine)
    seconds = time.perf_counter() - started
    for child in children:
        assert child.stdout is not None
        child_read, child_errors = json.loads(child.stdout.read())
        read, errors = read + child_read, errors + child_errors
        if child.wait() != 0:
            raise RuntimeError("a bare-parse child failed")
    return {
        "files": len(files),
        "bytes": read,
        "jobs": 1 + len(children),
        "syntax_errors": errors,
        "front_parse_s": round(seconds, 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", nargs="?", type=Path)
    parser.add_argument("--jobs", type=int, default=usable_cpus())
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        paths = [line for line in sys.stdin.read().split("\n") if line]
        sys.stdout.write(json.dumps(parse_files(paths)))
        return
    if args.root is None:
        parser.error("ROOT is required")
    sys.stdout.write(json.dumps(parse_shared(args.root, args.jobs)) + "\n")


if __name__ == "__main__":
    main()
