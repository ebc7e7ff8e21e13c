"""`doctor`: checks of the runtime, the bundled tools, the configuration and the project paths.

A broken configuration is a finding here, not a failure to run.
"""

from __future__ import annotations

import os
import platform
import sqlite3
import sys
import time
from collections.abc import Callable
from typing import Annotated

import msgspec

from i18nprune.envelope import Code, Envelope, ProblemError, Severity, error, make_envelope
from i18nprune.ops.engine.events import EventSink
from i18nprune.ops.engine.offload import run_blocking
from i18nprune.ops.shared.nothing_read import described, locales_not_read
from i18nprune.project import Project, ProjectHandle, user_home
from i18nprune.translate.glossary import load_glossary
from i18nprune.translate.lock import LOCK_FILE, read_lock

KIND = "doctor"
AREAS = ("runtime", "tools", "config", "paths")


class DoctorOptions(msgspec.Struct, frozen=True, kw_only=True):
    only: Annotated[
        list[str] | None,
        msgspec.Meta(description="only these check areas: runtime, tools, config, paths"),
    ] = None
    strict: Annotated[bool, msgspec.Meta(description="treat warnings as failures")] = False


class Finding(msgspec.Struct, frozen=True):
    id: str
    ok: bool
    severity: Severity
    title: str
    detail: str


class DoctorData(msgspec.Struct, frozen=True):
    findings: list[Finding]
    strict: bool


def _passed(id: str, title: str, detail: str) -> Finding:
    return Finding(id=id, ok=True, severity="info", title=title, detail=detail)


def _failed(id: str, title: str, detail: str, severity: Severity = "error") -> Finding:
    return Finding(id=id, ok=False, severity=severity, title=title, detail=detail)


def _runtime(handle: ProjectHandle) -> list[Finding]:
    version = ".".join(map(str, sys.version_info[:3]))
    return [_passed("runtime.python", "Python", f"Python {version} on {platform.platform()}")]


def _tool(id: str, title: str, probe: Callable[[], str]) -> Finding:
    try:
        return _passed(id, title, probe())
    except Exception as exc:  # a broken install must be reported, whatever it raises
        return _failed(id, title, f"{type(exc).__name__}: {exc}; reinstall i18nprune")


# The probes import lazily so that a broken install becomes a finding instead of a crash.
def _parser_probe() -> str:
    from importlib.metadata import version

    from i18nprune.syntax_tree import parse

    for grammar in ("javascript", "typescript", "tsx"):
        if parse(b"t('k')", grammar).root_node.has_error:
            raise RuntimeError(f"the {grammar} grammar cannot parse a trivial call")
    packages = ("tree-sitter", "tree-sitter-javascript", "tree-sitter-typescript")
    return ", ".join(f"{name} {version(name)}" for name in packages)


def _catalog_probe() -> str:
    from i18nprune.locales.catalog import all_languages

    return f"{len(all_languages())} languages in the CLDR catalog"


def _tools(handle: ProjectHandle) -> list[Finding]:
    return [
        _tool("tools.parser", "Source parser", _parser_probe),
        _tool("tools.catalog", "Language catalog", _catalog_probe),
        _tool(
            "tools.sqlite", "SQLite (translation cache)", lambda: f"SQLite {sqlite3.sqlite_version}"
        ),
    ]


def _open(handle: ProjectHandle) -> Project | Finding:
    try:
        return handle.open()
    except ProblemError as exc:
        return _failed("config.load", "Configuration", exc.issue.message)


def _config(handle: ProjectHandle) -> list[Finding]:
    project = _open(handle)
    if isinstance(project, Finding):
        return [project]
    path = project.loaded.config_path
    findings = [
        _passed("config.load", "Configuration", f"loaded {path}")
        if path
        else _failed("config.load", "Configuration", "no config file; defaults apply", "warning")
    ]
    not_read = locales_not_read(project)
    if not_read is not None:  # first: every other finding follows from it
        findings.append(_failed(not_read.issue.code, "Locale files", described(not_read)))
    for issue in project.readiness():
        if issue.code != Code.CONFIG_FILE_MISSING and (
            not_read is None or issue.code != Code.LOCALES_DIR_MISSING
        ):
            findings.append(_failed(issue.code, "Project readiness", issue.message, issue.severity))
    findings.extend(_translation_inputs(project))
    return findings


def _translation_inputs(project: Project) -> list[Finding]:
    """The files `generate` refuses to run with when they are broken: the glossary file (when
    configured) and the lock file (when there is one)."""
    findings = []
    translate = project.config.translate
    if translate.glossary_file is not None:
        title = "Glossary"
        try:
            terms = len(load_glossary(translate, project.root).terms)
        except ProblemError as exc:
            findings.append(_failed("config.glossary", title, exc.issue.message))
        else:
            findings.append(_passed("config.glossary", title, f"{terms} term(s)"))
    try:
        lock = read_lock(project.root)
    except ProblemError as exc:
        findings.append(_failed("config.lock", "Lock file", exc.issue.message))
    else:
        if lock is not None:
            leaves = sum(len(entries) for entries in lock.values())
            findings.append(_passed("config.lock", "Lock file", f"{LOCK_FILE}: {leaves} leaf(s)"))
    return findings


def _paths(handle: ProjectHandle) -> list[Finding]:
    project = _open(handle)
    if isinstance(project, Finding):
        return []
    findings = []
    sources = project.src_dirs
    for id, title, path in (
        *(
            ("paths.src", "Source directory", path)
            if len(sources) == 1
            else (f"paths.src[{index}]", f"Source directory {index + 1}", path)
            for index, path in enumerate(sources)
        ),
        ("paths.locales", "Locales directory", project.locales_dir),
    ):
        findings.append(
            _passed(id, title, str(path))
            if path.is_dir()
            else _failed(id, title, f"{path} does not exist")
        )
    home = user_home(project.env)
    existing = next((p for p in (home, *home.parents) if p.exists()), home)
    findings.append(
        _passed("paths.home", "Data home", f"{home} is writable")
        if os.access(existing, os.W_OK)
        else _failed(
            "paths.home", "Data home", f"{home} is not writable; set I18NPRUNE_HOME", "warning"
        )
    )
    url = project.config.cache.url
    if url is not None and project.cache_enabled:
        findings.append(_shared_memory(url))
    return findings


def _shared_memory(url: str) -> Finding:
    """Whether the fleet's shared translation memory (`cache.url`) answers (docs/fleet.md)."""
    from i18nprune.fleet.connection import FleetUnavailable, connect, shown

    title = "Shared translation memory"
    try:
        connect(url).close()
    except FleetUnavailable as failure:
        return _failed("paths.shared_memory", title, str(failure))
    return _passed("paths.shared_memory", title, f"{shown(url)} answers")


_CHECKS: dict[str, Callable[[ProjectHandle], list[Finding]]] = {
    "runtime": _runtime,
    "tools": _tools,
    "config": _config,
    "paths": _paths,
}


async def run(handle: ProjectHandle, options: DoctorOptions, emit: EventSink) -> Envelope:
    """Run the checks of the chosen areas; `ok` is false on a failed error (or, strict, warning)."""
    started = time.perf_counter()
    areas = options.only or list(AREAS)
    unknown = [area for area in areas if area not in _CHECKS]
    if unknown:
        issue = error(
            Code.DOCTOR_UNKNOWN_AREA,
            f"unknown check area(s) {', '.join(unknown)}; choose from {', '.join(AREAS)}",
        )
        return make_envelope(KIND, DoctorData([], options.strict), [issue], started=started)
    # Off the loop: some probes take a while (the shared memory's connection timeout; the
    # language catalog, when it is built from Babel's data).
    findings = await run_blocking(
        lambda: [finding for area in areas for finding in _CHECKS[area](handle)]
    )
    failing: set[Severity] = {"error", "warning"} if options.strict else {"error"}
    ok = not any(not f.ok and f.severity in failing for f in findings)
    return make_envelope(KIND, DoctorData(findings, options.strict), [], started=started, ok=ok)
