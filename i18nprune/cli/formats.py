"""A run's findings as CI annotations: GitHub workflow commands and one SARIF 2.1.0 log
(`--format github|sarif`).

A finding is an issue of the envelope, located where its message or its data says (`file:line:col:`
messages, `validate`'s `missingSites`), with paths relative to the repository root (the git top
level, or `GITHUB_WORKSPACE`): the pull request's files are named so, whichever folder the command
ran on. In a workspace run, a project's findings without a file are placed at its config file.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import msgspec

from i18nprune import __version__
from i18nprune.config.detect.packages import repository_root
from i18nprune.envelope import Code, Envelope, Severity, message_location

_SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVEL: dict[str, str] = {"error": "error", "warning": "warning", "info": "note"}
_GITHUB_COMMAND: dict[str, str] = {"error": "error", "warning": "warning", "info": "notice"}


@dataclass(frozen=True)
class Finding:
    """One annotation: a code, how bad, a sentence, and where (all of `file`… optional)."""

    code: str
    severity: Severity
    message: str
    file: str | None = None
    """Relative to the repository root, `/`-separated; absolute when outside it."""
    line: int | None = None
    column: int | None = None
    end_line: int | None = None
    end_column: int | None = None


@dataclass(frozen=True)
class ReportPlace:
    """Where a run's findings are: the folder its envelope's relative paths start from (the
    project's or the workspace's root), the repository root annotations are relative to, and
    the files, relative to `root`, that findings without a file are placed at."""

    root: Path
    repository: Path
    anchor: str | None = None
    """The config file (or workspace file), for the run's own findings without a file."""
    project_anchors: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """A workspace's projects (by folder relative to `root`): the file for theirs."""

    @property
    def prefix(self) -> str:
        """`root` relative to the repository (`""` when it is the repository)."""
        relative = self.root.relative_to(self.repository).as_posix()
        return "" if relative == "." else relative

    @property
    def anchor_file(self) -> str | None:
        """`anchor` relative to the repository."""
        return _join(self.prefix, self.anchor) if self.anchor else None


def annotation_root(root: Path, environ: Mapping[str, str] = os.environ) -> Path:
    """The repository root that CI annotations of a run at `root` are relative to:
    `GITHUB_WORKSPACE` when set and holding `root`, else the nearest folder with a `.git` (see
    `repository_root`), else `root`. Found without running git."""
    root = Path(os.path.realpath(root))
    workspace = environ.get("GITHUB_WORKSPACE")
    if workspace:
        checkout = Path(os.path.realpath(workspace))
        if root.is_relative_to(checkout):
            return checkout
    return repository_root(root)


def findings(envelope: Envelope, place: ReportPlace) -> list[Finding]:
    """Every finding of `envelope` (a project's or a workspace's run, at `place`), in the
    envelope's order."""
    document = msgspec.to_builtins(envelope)
    return _project_findings(document, place.repository, place.prefix)


def _project_findings(document: dict[str, Any], repository: Path, prefix: str) -> list[Finding]:
    """The findings of one run's `document` at `prefix` (relative to `repository`)."""
    data = document.get("data")
    data = data if isinstance(data, dict) else {}
    sites = data.get("missingSites") or {}
    twinned = {pair["key"] for pair in data.get("nearTwins") or []}  # their own finding
    located = [
        _missing_site(key, site, _source_name(data), prefix)
        for key, key_sites in sites.items()
        if key not in twinned
        for site in key_sites
    ]
    by_code = _quality_findings(document, prefix) if document.get("kind") == "quality" else {}
    found = []
    for issue in document.get("issues", []):
        if located and issue["code"] == Code.VALIDATE_MISSING:
            found.extend(located)  # one annotation a call site instead of the summary
            located = []
            continue
        if issue["code"] in by_code:
            found.extend(by_code.pop(issue["code"]))  # one a leaf instead of the summary
            continue
        found.append(_issue_finding(issue, repository, prefix))
    found.extend(located)
    return found


def _quality_findings(document: dict[str, Any], prefix: str) -> dict[str, list[Finding]]:
    """`quality`'s findings that name their locale file, by issue code: one annotation a leaf,
    at the line of its key, instead of the summary of its kind."""
    from i18nprune.ops.quality import finding_code  # a quality run imported it already

    data = document.get("data")
    if not isinstance(data, dict):
        return {}
    names = data.get("localeNames") or {}
    by_code: dict[str, list[Finding]] = {}
    for leaf in data.get("findings") or []:
        if leaf.get("file") is None:
            continue
        target = names.get(leaf["target"], leaf["target"])
        by_code.setdefault(finding_code(leaf["kind"]), []).append(
            Finding(
                finding_code(leaf["kind"]),
                leaf["severity"],
                f"{target}: `{leaf['path']}`: {leaf['message']}",
                _join(prefix, leaf["file"]),
                leaf.get("line"),
                leaf.get("column"),
            )
        )
    return by_code


def _anchored(found: list[Finding], anchor: str | None) -> list[Finding]:
    """`found`, those without a file placed at line 1 of `anchor` (when there is one)."""
    if anchor is None:
        return found
    return [
        dataclasses.replace(finding, file=anchor, line=1) if finding.file is None else finding
        for finding in found
    ]


def workspace_findings(envelope: Envelope, place: ReportPlace) -> list[Finding]:
    """Every finding of a workspace run: the workspace's own (a failed project's at that
    project's anchor), then each project's, those without a file at the project's anchor (its
    config file, else its folder), so that code scanning keeps them and says which project."""
    document = msgspec.to_builtins(envelope)
    projects = document["data"]["projects"]
    anchors = {
        project["root"]: _join(
            place.prefix, _join(project["root"], place.project_anchors.get(project["root"], "."))
        )
        for project in projects
    }
    own = {**document, "data": None}
    found: list[Finding] = []
    for finding in _project_findings(own, place.repository, place.prefix):
        if finding.code == Code.WORKSPACE_PROJECT_FAILED and finding.file is None:
            failed = [project["root"] for project in projects if not project["ok"]]
            found.extend(
                dataclasses.replace(
                    finding,
                    message=f"`{root}` failed ({finding.message})",
                    file=anchors[root],
                    line=1,
                )
                for root in failed
            )
        else:
            found.append(finding)
    found = _anchored(found, place.anchor_file)
    for project in projects:
        folder = _join(place.prefix, project["root"])
        own_findings = _project_findings(project, place.repository, folder)
        found.extend(_anchored(own_findings, anchors[project["root"]]))
    return found


def _issue_finding(issue: dict[str, Any], repository: Path, prefix: str) -> Finding:
    """An issue, located at `path:line:col:` when its message starts so."""
    message: str = issue["message"]
    path: str | None = issue.get("path")
    line = column = None
    located = message_location(path, message)
    if located is not None:
        line, column, message = located
    if path:
        path = _relative(path, repository, prefix)
    return Finding(issue["code"], issue["severity"], message, path, line, column)


def _source_name(data: dict[str, Any]) -> object:
    """The source locale of a validate's `data`, as the project spells it."""
    code = data.get("sourceLocale")
    names = data.get("localeNames")
    return names.get(code, code) if isinstance(names, dict) and isinstance(code, str) else code


def _missing_site(key: str, site: dict[str, Any], locale: object, prefix: str) -> Finding:
    where = f" `{locale}`" if isinstance(locale, str) else ""
    return Finding(
        Code.VALIDATE_MISSING,
        "error",
        f"`{key}` is missing from the source locale{where}",
        _join(prefix, site["file"]),
        site["line"],
        site["column"],
        site.get("endLine"),
        site.get("endColumn"),
    )


def _relative(path: str, repository: Path, prefix: str) -> str:
    """An issue's path (relative to the run's folder `prefix`, or absolute) relative to the
    repository; absolute when outside it."""
    candidate = Path(path)
    if not candidate.is_absolute():
        return _join(prefix, path)
    try:
        return candidate.relative_to(repository).as_posix()
    except ValueError:
        return candidate.as_posix()


def _join(prefix: str, path: str) -> str:
    if not prefix or path == ".":
        return prefix or path
    return str(PurePosixPath(prefix, path))


# -- GitHub workflow commands ---------------------------------------------------------------


def github_commands(found: list[Finding]) -> list[str]:
    """One `::error file=…,line=…,col=…,title=…::message` line a finding (`::warning`,
    `::notice` for the others), escaped as the runner expects."""
    return [_github_command(finding) for finding in found]


def _github_command(finding: Finding) -> str:
    properties = {
        "file": finding.file,
        "line": finding.line,
        "col": finding.column,
        "endLine": finding.end_line,
        "endColumn": finding.end_column,
        "title": finding.code,
    }
    listed = ",".join(
        f"{name}={_escape_property(str(value))}"
        for name, value in properties.items()
        if value is not None
    )
    command = _GITHUB_COMMAND[finding.severity]
    return f"::{command} {listed}::{_escape_data(finding.message)}"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


# -- SARIF ----------------------------------------------------------------------------------


def sarif_log(found: list[Finding], place: ReportPlace) -> dict[str, Any]:
    """One SARIF 2.1.0 log: a rule per issue code, a result per finding; relative paths resolve
    against the repository root through the `%SRCROOT%` base id. A finding without a file is
    placed at line 1 of the place's anchor (the config file) when there is one: code scanning
    drops results without a location."""
    rules: dict[str, int] = {}
    results = []
    for finding in _anchored(found, place.anchor_file):
        index = rules.setdefault(finding.code, len(rules))
        results.append(_sarif_result(finding, index))
    return {
        "$schema": _SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "i18nprune",
                        "version": __version__,
                        "rules": [_sarif_rule(code) for code in rules],
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"uri": place.repository.as_uri() + "/"}},
                "results": results,
            }
        ],
    }


def _sarif_rule(code: str) -> dict[str, Any]:
    # Codes read `i18nprune.<area>.<what>`: the last part, spaced, is the rule's short name.
    name = code.rsplit(".", 1)[-1]
    return {
        "id": code,
        "name": "".join(part.capitalize() for part in name.split("_")),
        "shortDescription": {"text": name.replace("_", " ")},
    }


def _sarif_result(finding: Finding, rule_index: int) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": finding.code,
        "ruleIndex": rule_index,
        "level": _SARIF_LEVEL[finding.severity],
        "message": {"text": finding.message},
    }
    if finding.file is not None:
        artifact: dict[str, Any] = {"uri": finding.file}
        if not PurePosixPath(finding.file).is_absolute():
            artifact["uriBaseId"] = "%SRCROOT%"
        else:
            artifact["uri"] = Path(finding.file).as_uri()
        physical: dict[str, Any] = {"artifactLocation": artifact}
        if finding.line is not None:
            physical["region"] = _region(finding)
        result["locations"] = [{"physicalLocation": physical}]
    return result


def _region(finding: Finding) -> dict[str, int]:
    region = {"startLine": finding.line or 1}
    if finding.column is not None:
        region["startColumn"] = finding.column
    if finding.end_line is not None:
        region["endLine"] = finding.end_line
    if finding.end_column is not None:
        region["endColumn"] = finding.end_column
    return region
