"""The result every op returns: the JSON envelope, its issues, and the stable issue codes.

One shape for the CLI's `--json` output and for `serve` results (docs/ci.md#json-envelopes,
docs/serve.md#9-results).
"""

from __future__ import annotations

import os
import re
import time
from enum import StrEnum
from typing import Any, Literal

import msgspec

from i18nprune import __version__

API_VERSION = "1"

Severity = Literal["error", "warning", "info"]


class Code(StrEnum):
    """Stable issue codes (`i18nprune.<area>.<name>`); they are public API, never rename one.
    A `StrEnum`: each member is its code string, and mypy checks every issue names one."""

    # project and configuration
    CONFIG_FILE_MISSING = "i18nprune.project.config_file_missing"
    CONFIG_INVALID = "i18nprune.config.invalid"
    CONFIG_PARSE_ERROR = "i18nprune.config.parse_error"
    CONFIG_UNKNOWN_KEY = "i18nprune.config.unknown_key"
    CONFIG_NOT_STATIC = "i18nprune.config.not_static"
    CONFIG_AMBIGUOUS = "i18nprune.config.multiple_config_files"
    CONFIG_NOT_FOUND = "i18nprune.config.file_not_found"
    CONFIG_NOT_READ = "i18nprune.config.file_not_read"
    DISCOVERY_WARNING = "i18nprune.context.discovery_warning"
    PROJECT_NOT_FOUND = "i18nprune.project.root_not_found"
    LOCALES_DIR_MISSING = "i18nprune.project.locales_directory_missing"
    SOURCE_NOT_IN_BUNDLE = "i18nprune.project.locales_source_not_in_bundle"
    STRUCTURE_REQUIRED = "i18nprune.project.locales_structure_required"
    SRC_MISSING = "i18nprune.project.src_directory_missing"
    PATH_OUTSIDE_ROOT = "i18nprune.project.path_outside_root"
    PATH_UNRESOLVABLE = "i18nprune.project.path_unresolvable"
    DEFAULT_NAMESPACE_MISSING = "i18nprune.project.default_namespace_missing"

    # locale files
    LOCALE_INVALID_JSON = "i18nprune.locale.invalid_json"
    LOCALES_NONE_READ = "i18nprune.locale.none_read"
    LOCALE_UNREADABLE = "i18nprune.locale.unreadable"
    LOCALE_NOT_OBJECT = "i18nprune.locale.not_an_object"
    LOCALE_DUPLICATE_PATH = "i18nprune.locale.duplicate_path"
    LOCALE_EMPTY_KEY = "i18nprune.locale.empty_key"
    LOCALE_ROOT_MISSING = "i18nprune.locale.root_missing"
    LOCALE_ARRAY_GAP = "i18nprune.locale.array_gap"
    LOCALE_META_INVALID = "i18nprune.locale.meta_invalid"
    LOCALE_WRITE_FAILED = "i18nprune.locale.write_failed"
    LOCALE_INVALID_SYNTAX = "i18nprune.locale.invalid_syntax"
    LOCALE_NOT_EDITABLE = "i18nprune.locale.not_editable"
    TARGET_NOT_FOUND = "i18nprune.locale.target_not_found"
    TARGET_IS_SOURCE = "i18nprune.locale.target_is_source"
    TARGET_REQUIRED = "i18nprune.locale.target_required"

    # scanning
    SCAN_DYNAMIC_SITES = "i18nprune.scan.dynamic_key_sites"
    SCAN_UNREADABLE = "i18nprune.scan.unreadable_file"
    SCAN_BINARY = "i18nprune.scan.binary_file"
    SCAN_NOT_A_SOURCE_FILE = "i18nprune.scan.not_a_source_file"
    SCAN_PARSE_ERROR = "i18nprune.scan.parse_error"
    SCAN_NOTHING_SCANNED = "i18nprune.scan.nothing_scanned"
    SCAN_SYMLINK_SKIPPED = "i18nprune.scan.symlink_skipped"
    SCAN_TOO_LARGE = "i18nprune.scan.file_too_large"
    SCAN_CACHE_ERROR = "i18nprune.scan.cache_unavailable"
    SCAN_INCOMPLETE = "i18nprune.scan.incomplete_evidence"
    REPOSITORY_FILE_SKIPPED = "i18nprune.scan.repository_file_skipped"
    SCAN_MESSAGE_IDS_UNKNOWN = "i18nprune.scan.message_ids_unknown"
    SCAN_MESSAGES_WITHOUT_ID = "i18nprune.scan.messages_without_id"

    # validate
    VALIDATE_MISSING = "i18nprune.validate.missing_literal_keys"
    VALIDATE_DYNAMIC = "i18nprune.validate.dynamic_key_sites"
    VALIDATE_THIN_EVIDENCE = "i18nprune.validate.thin_evidence"
    VALIDATE_MISSING_NESTED = "i18nprune.validate.missing_nested"
    VALIDATE_NEAR_TWIN = "i18nprune.validate.near_twin"
    MISSING_NEAR_TWIN = "i18nprune.missing.near_twin"

    # cleanup, sync, generate
    CLEANUP_UNCERTAIN = "i18nprune.cleanup.uncertain_paths_excluded"
    CLEANUP_NOTHING_PROVEN = "i18nprune.cleanup.nothing_proven"
    NEAR_TWIN_KEPT = "i18nprune.cleanup.near_twin_kept"
    DYNAMIC_UNPROTECTED = "i18nprune.reference.unprotected_dynamic_keys"
    REFERENCED_KEYS = "i18nprune.reference.referenced_as_data"
    THIN_EVIDENCE = "i18nprune.reference.thin_evidence"
    NAMED_IN_MESSAGES = "i18nprune.reference.named_in_messages"
    EXCLUDED_FOLDERS = "i18nprune.scan.excluded_folders"
    SYNC_NOTHING_PROVEN = "i18nprune.sync.nothing_proven"
    SOURCE_LOCALE_UNREADABLE = "i18nprune.locale.source_unreadable"

    # translation
    MISSING_CREDENTIALS = "i18nprune.translate.missing_credentials"
    UNKNOWN_PROVIDER = "i18nprune.translate.unknown_translation_provider"
    TRANSLATION_CACHE_UNAVAILABLE = "i18nprune.translate.cache_unavailable"
    SHARED_MEMORY_UNAVAILABLE = "i18nprune.translate.shared_memory_unavailable"
    SHARD_INVALID = "i18nprune.generate.shard_invalid"
    GLOSSARY_INVALID = "i18nprune.translate.glossary_invalid"
    GENERATE_PARTIAL = "i18nprune.generate.partial_failure"
    GENERATE_STALE = "i18nprune.generate.stale_translations"
    LOCK_INVALID = "i18nprune.generate.lock_invalid"
    LOCK_UNWRITABLE = "i18nprune.generate.lock_unwritable"

    # quality and review
    QUALITY_PLACEHOLDERS = "i18nprune.quality.placeholder_mismatch"
    QUALITY_PLURAL_FORMS = "i18nprune.quality.missing_plural_forms"
    QUALITY_IDENTICAL = "i18nprune.quality.identical_to_source"
    QUALITY_LENGTH = "i18nprune.quality.length_outlier"
    QUALITY_WHITESPACE = "i18nprune.quality.whitespace_mismatch"
    QUALITY_GLOSSARY = "i18nprune.quality.glossary_term_missing"
    REVIEW_PENDING = "i18nprune.review.needs_review"
    REVIEW_NOT_MARKED = "i18nprune.review.not_marked"

    # editor ops
    KEY_NOT_FOUND = "i18nprune.key.not_found"
    KEY_NO_PLACE = "i18nprune.key.no_place"
    KEY_NO_FILE = "i18nprune.key.no_file"

    # languages
    UNSUPPORTED_LANGUAGE = "i18nprune.languages.unsupported_language_code"

    # doctor
    DOCTOR_UNKNOWN_AREA = "i18nprune.doctor.unknown_area"

    # report
    BASELINE_INVALID = "i18nprune.report.baseline_invalid"
    BASELINE_MISMATCH = "i18nprune.report.baseline_mismatch"

    # --check (CI gates)
    CHECK_WOULD_CHANGE = "i18nprune.check.would_change"

    # workspaces
    WORKSPACE_INVALID = "i18nprune.workspace.invalid"
    WORKSPACE_EMPTY = "i18nprune.workspace.no_projects"
    WORKSPACE_PATTERN_UNMATCHED = "i18nprune.workspace.pattern_unmatched"
    WORKSPACE_PROJECT_FAILED = "i18nprune.workspace.project_failed"
    WORKSPACE_DISCOVERED = "i18nprune.workspace.discovered"
    WORKSPACE_OUTSIDE_PROJECTS = "i18nprune.workspace.outside_projects"
    WORKSPACE_PROJECT_REQUIRED = "i18nprune.workspace.project_required"

    # init
    INIT_CONFIG_EXISTS = "i18nprune.init.config_exists"
    INIT_GUESSED = "i18nprune.init.guessed"
    INIT_NOTHING_FOUND = "i18nprune.init.nothing_found"
    INIT_THIN_EVIDENCE = "i18nprune.init.thin_evidence"
    INIT_WRITE_FAILED = "i18nprune.init.write_failed"

    # hosts
    USAGE_ERROR = "i18nprune.cli.usage_error"
    CONFIRMATION_REQUIRED = "i18nprune.cli.confirmation_required"
    INTERRUPTED = "i18nprune.run.interrupted"
    INTERNAL_ERROR = "i18nprune.run.internal_error"


class Issue(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, rename="camel"):
    """One finding of a run: a stable code, how bad it is, and a sentence for a person."""

    code: Code
    severity: Severity
    message: str
    path: str | None = None
    doc_href: str | None = None


class Meta(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    api_version: str
    cwd: str
    version: str
    duration_ms: int


class Envelope(msgspec.Struct, kw_only=True):
    """`{ok, kind, data, issues, meta}`: what `--json` prints and what `serve` answers."""

    ok: bool
    kind: str
    data: Any
    issues: list[Issue]
    meta: Meta


_LOCATED = re.compile(r"(?P<line>\d+)(?::(?P<column>\d+))?:\s*(?=\S)")


def message_location(path: str | None, message: str) -> tuple[int, int | None, str] | None:
    """`(line, column, rest)` of a message that starts `path:line[:column]: rest` — how issues
    about a place in a file name it; None for any other message (or no `path`)."""
    if not path or not message.startswith(f"{path}:"):
        return None
    match = _LOCATED.match(message, len(path) + 1)
    if match is None:
        return None
    column = int(match["column"]) if match["column"] else None
    return int(match["line"]), column, message[match.end() :]


def issue_place(issue: Issue) -> tuple[int, int, str]:
    """`(line, column, rest)` of where an issue's message says it is (see
    `message_location`); the file's start and the whole message when it says nowhere."""
    located = message_location(issue.path, issue.message)
    if located is None:
        return 1, 1, issue.message
    line, column, rest = located
    return line, column or 1, rest


def error(code: Code, message: str, path: str | None = None) -> Issue:
    return Issue(code=code, severity="error", message=message, path=path)


def warning(code: Code, message: str, path: str | None = None) -> Issue:
    return Issue(code=code, severity="warning", message=message, path=path)


def info(code: Code, message: str, path: str | None = None) -> Issue:
    return Issue(code=code, severity="info", message=message, path=path)


def has_errors(issues: list[Issue]) -> bool:
    return any(issue.severity == "error" for issue in issues)


def make_envelope(
    kind: str,
    data: Any,
    issues: list[Issue],
    *,
    started: float,
    ok: bool | None = None,
) -> Envelope:
    """Build an envelope for a run that began at `started` (a `time.perf_counter()` reading).

    `ok` defaults to "no issue is an error".
    """
    return Envelope(
        ok=not has_errors(issues) if ok is None else ok,
        kind=kind,
        data=data,
        issues=issues,
        meta=Meta(
            api_version=API_VERSION,
            cwd=os.getcwd(),
            version=__version__,
            duration_ms=round((time.perf_counter() - started) * 1000),
        ),
    )


class ProblemError(Exception):
    """A failure a user caused that ends the run before the op could produce data.

    Hosts turn it into an `ok:false` envelope carrying `issues` (config errors, an unreadable
    project root, a config file that cannot be read statically); `issue` is the first.
    """

    def __init__(self, issue: Issue, *more: Issue) -> None:
        super().__init__(issue.message)
        self.issue = issue
        self.issues = [issue, *more]


class NotEditableError(ProblemError):
    """A locale document refusing an edit it cannot spell back (`Code.LOCALE_NOT_EDITABLE`):
    `key`, the leaf path (or the path of a subtree) the refused edit was to, None when the
    refusal is the file's as a whole; `why`, the refusal's sentence (file:line, the key, why,
    what to do) without what became of the file, which the one who catches it says."""

    def __init__(self, issue: Issue, *, key: str | None, why: str) -> None:
        super().__init__(issue)
        self.key = key
        self.why = why
