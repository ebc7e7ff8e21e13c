"""A run's findings as CI annotations: GitHub workflow commands and one SARIF 2.1.0 log
(`--format github|sarif`).

A finding is an issue of the envelope, located where its message or its data says (`file:line:col:`
messages, `validate`'s `missingSites`), with paths relative to the project root; in a workspace
run each project's findings carry the project's folder in front of their paths.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import msgspec

from i18nprune import __version__
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
    """Relative to the project (or workspace) root, `/`-separated; absolute when outside it."""
    line: int | None = None
    column: int | None = None
    end_line: int | None = None
    end_column: int | None = None


def findings(envelope: Envelope, root: Path) -> list[Finding]:
    """Every finding of `envelope` (a project's or a workspace's run), in the envelope's order;
    `root` is the folder its relative paths start from."""
    document = msgspec.to_builtins(envelope)
    return _project_findings(document, root, "")


def _project_findings(document: dict[str, Any], root: Path, prefix: str) -> list[Finding]:
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
    found = []
    for issue in document.get("issues", []):
        if located and issue["code"] == Code.VALIDATE_MISSING:
            found.extend(located)  # one annotation a call site instead of the summary
            located = []
            continue
        found.append(_issue_finding(issue, root, prefix))
    found.extend(located)
    for project in data.get("projects") or []:
        folder = _join(prefix, project["root"])
        found.extend(_project_findings(project, root / project["root"], folder))
    return found


def _issue_finding(issue: dict[str, Any], root: Path, prefix: str) -> Finding:
    """An issue, located at `path:line:col:` when its message starts so."""
    message: str = issue["message"]
    path: str | None = issue.get("path")
    line = column = None
    located = message_location(path, message)
    if located is not None:
        line, column, message = located
    if path:
        path = _relative(path, root, prefix)
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


def _relative(path: str, root: Path, prefix: str) -> str:
    candidate = Path(path)
    if not candidate.is_absolute():
        return _join(prefix, path)
    try:
        return _join(prefix, candidate.relative_to(root).as_posix())
    except ValueError:
        return candidate.as_posix()


def _join(prefix: str, path: str) -> str:
    return str(PurePosixPath(prefix, path)) if prefix else path


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


def sarif_log(found: list[Finding], root: Path, anchor: str | None = None) -> dict[str, Any]:
    """One SARIF 2.1.0 log: a rule per issue code, a result per finding; relative paths resolve
    against `root` through the `%SRCROOT%` base id. A finding without a file is placed at line 1
    of `anchor` (the config file) when given: code scanning drops results without a location."""
    rules: dict[str, int] = {}
    results = []
    for finding in found:
        index = rules.setdefault(finding.code, len(rules))
        if finding.file is None and anchor is not None:
            finding = dataclasses.replace(finding, file=anchor, line=1)
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
                "originalUriBaseIds": {"%SRCROOT%": {"uri": root.resolve().as_uri() + "/"}},
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
