"""Scan test helpers: a temporary project whose files are written from text, then scanned."""

from __future__ import annotations

from pathlib import Path

import pytest

from i18nprune.config.schema import ExcludeConfig
from i18nprune.keys import KeySyntax
from i18nprune.scan import ScanOptions, ScanResult, scan_project
from i18nprune.scan.literals import keyed_by_hash
from i18nprune.scan.message_ids import MessageIdScope


class ScanProject:
    """A project root in a temporary directory, with `src/` as the scanned directory."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.cache_dir = root / ".cache"

    def write(self, relpath: str, content: str | bytes) -> Path:
        path = self.root / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    def options(
        self,
        *,
        functions: tuple[str, ...] = ("t",),
        exclude: ExcludeConfig | None = None,
        cached: bool = False,
        writable: bool = True,
        jobs: int = 1,
        src: str | list[str] = "src",
        syntax: KeySyntax | None = None,
        literal_texts: frozenset[str] | None = None,
        message_ids: list[MessageIdScope] | None = None,
    ) -> ScanOptions:
        return ScanOptions(
            root=self.root,
            src_dirs=[self.root / path for path in ([src] if isinstance(src, str) else src)],
            functions=list(functions),
            exclude=exclude or ExcludeConfig(),
            syntax=syntax or KeySyntax(),
            literal_texts=None if literal_texts is None else keyed_by_hash(literal_texts),
            cache_dir=self.cache_dir if cached else None,
            cache_writable=writable,
            jobs=jobs,
            message_ids=message_ids or [],
        )

    def scan(
        self,
        *,
        functions: tuple[str, ...] = ("t",),
        exclude: ExcludeConfig | None = None,
        cached: bool = False,
        writable: bool = True,
        jobs: int = 1,
        src: str | list[str] = "src",
        syntax: KeySyntax | None = None,
        literal_texts: frozenset[str] | None = None,
        message_ids: list[MessageIdScope] | None = None,
    ) -> ScanResult:
        return scan_project(
            self.options(
                functions=functions,
                exclude=exclude,
                cached=cached,
                writable=writable,
                jobs=jobs,
                src=src,
                syntax=syntax,
                literal_texts=literal_texts,
                message_ids=message_ids,
            )
        )


@pytest.fixture
def project(tmp_path: Path) -> ScanProject:
    root = (tmp_path / "project").resolve()
    (root / "src").mkdir(parents=True)
    return ScanProject(root)


def keys_of(result: ScanResult) -> list[str]:
    return sorted(observation.key for observation in result.observations)


def issue_codes(result: ScanResult) -> list[str]:
    return sorted(issue.code for issue in result.issues)
