"""`quality`: the problems in existing translations, each target leaf compared with its source
leaf — placeholders, plural forms, glossary terms, untranslated text, length and edge
whitespace."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Annotated, Literal
from unicodedata import east_asian_width

import msgspec

from i18nprune.envelope import (
    Code,
    Envelope,
    Issue,
    ProblemError,
    Severity,
    has_errors,
    make_envelope,
)
from i18nprune.keys import KeySyntax
from i18nprune.locale_codes import language_of
from i18nprune.locales.catalog import PLURAL_CATEGORIES, ordinal_categories, plural_categories
from i18nprune.locales.leaves import is_text, is_translation
from i18nprune.locales.positions import locate_paths
from i18nprune.locales.view import LocaleView
from i18nprune.ops.engine.events import EventSink
from i18nprune.ops.engine.offload import run_blocking
from i18nprune.ops.review import find_marks
from i18nprune.ops.shared.targets import select_targets
from i18nprune.placeholders import (
    ChoiceSignature,
    PlaceholderSignature,
    placeholder_signature,
    protect_placeholders,
    verify_placeholders,
)
from i18nprune.project import Project, ProjectHandle
from i18nprune.translate.glossary import Glossary, TargetTerms, load_glossary
from i18nprune.translate.plurals import plural_plan

KIND = "quality"

FindingKind = Literal[
    "placeholders", "plural_forms", "glossary", "identical", "length", "whitespace", "needs_review"
]

# Texts shorter than this (source, in display columns) vary too much in length to compare.
_MIN_LENGTH = 4
_MAX_RATIO = 3.0
# Selectors of ICU plural branches that name a CLDR category (`=0` names a number).
_CATEGORY_SELECTORS = frozenset(PLURAL_CATEGORIES) - {"other"}
_CHOICE_PLURAL_KINDS = frozenset({"plural", "selectordinal"})
_LINE_BREAKS = re.compile(r"[ \t]*(?:\r\n|\r|\n)+[ \t]*")
_NOT_ASCII = re.compile("[^\x00-\x7f]")
"""Characters that may be East Asian wide or full-width (no ASCII one is)."""
# Summary issues name this many paths and count the rest.
_NAMED_PATHS = 5
# Findings are listed worst first.
_SEVERITY_ORDER: tuple[Severity, ...] = ("error", "warning", "info")

_CODES: dict[FindingKind, Code] = {
    "placeholders": Code.QUALITY_PLACEHOLDERS,
    "plural_forms": Code.QUALITY_PLURAL_FORMS,
    "glossary": Code.QUALITY_GLOSSARY,
    "identical": Code.QUALITY_IDENTICAL,
    "length": Code.QUALITY_LENGTH,
    "whitespace": Code.QUALITY_WHITESPACE,
    "needs_review": Code.REVIEW_PENDING,
}
_SUMMARIES: dict[FindingKind, str] = {
    "placeholders": "whose placeholders or ICU structure differ from the source",
    "plural_forms": "lacking plural forms the language needs",
    "glossary": "lacking the glossary's form of a term their source holds",
    "identical": "identical to the source (untranslated?)",
    "length": "far longer or shorter than the source",
    "whitespace": "whose leading or trailing whitespace differs from the source",
    "needs_review": "marked needsReview (see `review`)",
}


def finding_code(kind: FindingKind) -> str:
    """The issue code of a kind of finding (its summary issue's)."""
    return _CODES[kind]


class QualityOptions(msgspec.Struct, frozen=True, kw_only=True):
    target: Annotated[
        list[str] | None,
        msgspec.Meta(description="check these target locales (default: all targets)"),
    ] = None


class QualityFinding(msgspec.Struct, frozen=True, rename="camel"):
    """One problem of one target leaf; `path` is the key as code writes it."""

    target: str
    path: str
    kind: FindingKind
    severity: Severity
    message: str
    file: str | None = None
    """The target file holding the leaf, relative to the project root."""
    line: int | None = None
    column: int | None = None
    """Where that file spells the leaf's key (1-based), when it could be read."""


class TargetQuality(msgspec.Struct, frozen=True, rename="camel"):
    """The counts of one target: leaves compared with the source, and findings by severity."""

    target: str
    checked_leaves: int
    errors: int
    warnings: int
    infos: int


class QualityData(msgspec.Struct, frozen=True, rename="camel"):
    targets: list[TargetQuality]
    findings: list[QualityFinding]
    locale_names: dict[str, str] = {}
    """Each target (normalised: `pt-br`) → how the project spells it (`pt_BR`)."""


async def run(handle: ProjectHandle, options: QualityOptions, emit: EventSink) -> Envelope:
    """Compare every target leaf with its source leaf and report what looks wrong.

    Read-only. `ok` is false when a finding is an error (placeholders that differ) or a locale
    file cannot be read. Opening the project, reading and comparing run off the event loop.
    """
    return await run_blocking(_check, handle, options, time.perf_counter())


def _check(handle: ProjectHandle, options: QualityOptions, started: float) -> Envelope:
    project = handle.open()
    issues = project.readiness()
    targets, target_issues = select_targets(project, options.target)
    issues.extend(target_issues)
    if has_errors(issues):
        return make_envelope(KIND, QualityData([], []), issues, started=started)
    syntax = project.key_syntax()
    glossary = _glossary(project, issues)
    sources = project.load_namespaces(project.source_locale())
    for view in sources.values():
        issues.extend(view.issues)
    rows: list[TargetQuality] = []
    findings: list[QualityFinding] = []
    for target in targets:
        own: list[QualityFinding] = []
        checked = 0
        terms = glossary.for_target(target.code)
        for namespace, view in project.load_namespaces(target.code).items():
            issues.extend(view.issues)
            compared = _Comparison(project, syntax, namespace, sources[namespace], view, terms)
            own.extend(compared.findings())
            checked += compared.checked
        own.sort(key=lambda finding: _SEVERITY_ORDER.index(finding.severity))
        rows.append(_counts(target.code, checked, own))
        findings.extend(own)
        issues.extend(_summaries(target.name, own))
    names = {target.code: target.name for target in targets}
    return make_envelope(KIND, QualityData(rows, findings, names), issues, started=started)


def _glossary(project: Project, issues: list[Issue]) -> Glossary:
    """The project's glossary; a glossary file that cannot be read is reported in `issues` (as
    `generate` would refuse it) and the check goes on without its terms."""
    try:
        return load_glossary(project.config.translate, project.root)
    except ProblemError as problem:
        issues.append(problem.issue)
        return Glossary()


class _Comparison:
    """One target view of one namespace against the source's (with the glossary's terms for
    the target, if any); `checked` counts the leaves `findings` compared."""

    def __init__(
        self,
        project: Project,
        syntax: KeySyntax,
        namespace: str | None,
        source: LocaleView,
        target: LocaleView,
        terms: TargetTerms | None = None,
    ) -> None:
        self.project = project
        self.syntax = syntax
        self.namespace = namespace
        self.source = source
        self.target = target
        self.terms = terms
        self.checked = 0
        self._same_language = language_of(source.locale) == language_of(target.locale)

    def findings(self) -> list[QualityFinding]:
        """Every finding of the target view: leaf by leaf, then plural groups, then marks;
        each where its file spells the leaf's key."""
        found = self._found()
        spots = locate_paths(self.target, {holder for _, holder in found})
        located = []
        for finding, holder in found:
            spot = spots.get(holder)
            if spot is not None:
                finding = msgspec.structs.replace(finding, line=spot.line, column=spot.column)
            located.append(finding)
        return located

    def _found(self) -> list[tuple[QualityFinding, str]]:
        found: list[tuple[QualityFinding, str]] = []
        for path, ours in self.target.leaves.items():
            theirs = self.source.leaves.get(path)
            # a placeholder leaf or one queued for translation is missing's and generate's
            # business, not quality's
            if theirs is None or not is_translation(ours) or not is_text(theirs):
                continue
            assert isinstance(theirs.value, str) and isinstance(ours.value, str)  # is_text
            self.checked += 1
            problems = _leaf_problems(
                theirs.value,
                ours.value,
                self.target.name,
                same_language=self._same_language,
                terms=self.terms,
            )
            found += [self._finding(path, *problem, path) for problem in problems]
        for base, message, holder in _plural_gaps(self.source, self.target):
            found.append(self._finding(base, "plural_forms", "warning", message, holder))
        for mark in find_marks(self.project, self.target):
            found.append(
                self._finding(
                    mark,
                    "needs_review",
                    "info",
                    "marked needsReview: accept it with `review`",
                    mark,
                )
            )
        return found

    def _finding(
        self, path: str, kind: FindingKind, severity: Severity, message: str, holder: str
    ) -> tuple[QualityFinding, str]:
        """A finding at `path`, in the file of the leaf `holder` (returned with it)."""
        finding = QualityFinding(
            target=self.target.locale,
            path=self.syntax.display(self.namespace, path),
            kind=kind,
            severity=severity,
            message=message,
            file=self.target.leaf_segment.get(holder),
        )
        return finding, holder


def _leaf_problems(
    source: str, target: str, locale: str, *, same_language: bool, terms: TargetTerms | None
) -> Iterator[tuple[FindingKind, Severity, str]]:
    """What is wrong with `target` as a translation of `source` into `locale` (spelled as the
    project spells it; its glossary terms are `terms`)."""
    problem = _placeholder_problem(source, target)
    if problem is not None:
        yield "placeholders", "error", f"placeholders differ from the source: {problem}"
    yield from _icu_plural_gaps(target, locale)
    protected = protect_placeholders(source, terms)
    for form, count in protected.term_forms.items():
        if target.count(form) < count:
            yield (
                "glossary",
                "warning",
                f"lacks `{form}`, the glossary's form of a term the source holds",
            )
    # Nothing to translate (no letters, or glossary terms alone): the same text is right.
    if not protected.units:
        return
    if target == source:
        if not same_language:  # `en-GB` of an `en` source is mostly the same text
            severity: Severity = "warning" if _words(source) > 1 else "info"
            yield "identical", severity, "identical to the source text"
        return
    # A lost placeholder shortens a text: it is reported once, as the error it is.
    length = None if problem is not None else _length_problem(source, target)
    if length is not None:
        yield "length", "warning", length
    whitespace = _whitespace_problem(source, target)
    if whitespace is not None:
        yield "whitespace", "warning", whitespace


def _words(text: str) -> int:
    """How many words `text` has besides its placeholders (`{{count}} items` has one)."""
    for raw in placeholder_signature(text).placeholders:
        text = text.replace(raw, " ")
    return sum(1 for word in text.split() if any(char.isalpha() for char in word))


def _placeholder_problem(source: str, target: str) -> str | None:
    """`generate`'s verdict on `target` (`verify_placeholders`), except for plural branches
    and line breaks (generate keeps the source's; a person may break a line elsewhere, which
    the whitespace check reports as the style question it is).

    Generate keeps the source's ICU plural branches; a person translating into Russian adds
    `few` and `many`, into Japanese drops `one`, and may write `one {un article}` without `#`.
    So when the verifier objects, its objection stands only if the texts still differ with
    the CLDR-category branches (all but `other` and `=N`) of plural blocks left out.
    """
    source, target = _one_line(source), _one_line(target)
    problem = verify_placeholders(source, target)
    if problem is None or not _mentions_choice(source, target):
        return problem
    expected = _without_category_branches(placeholder_signature(source))
    actual = _without_category_branches(placeholder_signature(target))
    return None if expected == actual else problem


def _mentions_choice(*texts: str) -> bool:
    return any(kind in text for text in texts for kind in _CHOICE_PLURAL_KINDS)


def _without_category_branches(signature: PlaceholderSignature) -> PlaceholderSignature:
    return PlaceholderSignature(
        signature.placeholders,
        tuple(sorted(_trim_choice(choice) for choice in signature.choices)),
    )


def _trim_choice(choice: ChoiceSignature) -> ChoiceSignature:
    branches = tuple(
        (key, _without_category_branches(branch))
        for key, branch in choice.branches
        if choice.kind not in _CHOICE_PLURAL_KINDS or key not in _CATEGORY_SELECTORS
    )
    return msgspec.structs.replace(choice, branches=branches)


def _icu_plural_gaps(target: str, locale: str) -> Iterator[tuple[FindingKind, Severity, str]]:
    """ICU plural blocks of `target` without a branch for a category `locale` uses."""
    if not _mentions_choice(target):
        return
    pending = list(placeholder_signature(target).choices)
    while pending:
        choice = pending.pop(0)
        pending.extend(c for _, branch in choice.branches for c in branch.choices)
        if choice.kind not in _CHOICE_PLURAL_KINDS:
            continue
        needed = (
            plural_categories(locale)
            if choice.kind == "plural"
            else list(ordinal_categories(locale))
        )
        present = {key for key, _ in choice.branches}
        lacking = [category for category in needed if category not in present]
        if lacking:
            yield (
                "plural_forms",
                "warning",
                f"ICU {{{choice.argument}, {choice.kind}}} lacks {_listed(lacking)} "
                f"({locale} uses {', '.join(needed)})",
            )


def _plural_gaps(source: LocaleView, target: LocaleView) -> Iterator[tuple[str, str, str]]:
    """i18next plural groups (`items_one`, `items_other`) of the source that the target holds
    in part: (base path, message, a target path of the group). A group the target lacks
    entirely is missing, not a quality problem."""
    plan = plural_plan(list(source.leaves), source.locale, target.locale)
    groups: dict[str, list[str]] = {}
    for planned in plan:
        stem, _, category = planned.target_path.rpartition("_")
        if category and (planned.target_path != planned.source_path or _is_group(source, stem)):
            groups.setdefault(stem, []).append(planned.target_path)
    for stem, needed in groups.items():
        held = [path for path in needed if path in target.leaves]
        lacking = [path.rpartition("_")[2] for path in needed if path not in target.leaves]
        if held and lacking:
            base = stem.removesuffix("_ordinal")
            forms = ", ".join(path.rpartition("_")[2] for path in needed)
            yield (
                base,
                f"lacks plural form(s) {_listed(lacking)} ({target.name} uses {forms})",
                held[0],
            )


def _is_group(source: LocaleView, stem: str) -> bool:
    """Whether the source holds `stem_other` and another category form of `stem`."""
    forms = [category for category in PLURAL_CATEGORIES if f"{stem}_{category}" in source.leaves]
    return "other" in forms and len(forms) > 1


def _listed(names: list[str]) -> str:
    return ", ".join(f"`{name}`" for name in names)


def _width(text: str) -> int:
    """Display columns: East Asian wide and full-width characters count two, so that a CJK
    translation is not taken for a truncated one."""
    # Only characters beyond ASCII can be wide: asking `east_asian_width` of every
    # character was most of the length check.
    wide = sum(1 for char in _NOT_ASCII.findall(text) if east_asian_width(char) in "WF")
    return len(text) + wide


def _length_problem(source: str, target: str) -> str | None:
    expected, actual = _width(source.strip()), _width(target.strip())
    if expected < _MIN_LENGTH:
        return None
    if actual == 0:
        return "empty, while the source is not"
    if actual > expected * _MAX_RATIO:
        return f"{actual / expected:.1f}× the length of the source ({actual} vs {expected})"
    if actual * _MAX_RATIO < expected:
        return f"{actual / expected:.2f}× the length of the source ({actual} vs {expected})"
    return None


def _one_line(text: str) -> str:
    text = text.strip()
    if "\n" not in text and "\r" not in text:  # most texts: no need to search
        return text
    return _LINE_BREAKS.sub(" ", text)


def _whitespace_problem(source: str, target: str) -> str | None:
    if not target.strip():
        return None
    ends = []
    inner = [_line_break_count(text.strip()) for text in (target, source)]
    if inner[0] != inner[1]:
        ends.append(f"{inner[0]} line break(s) inside (source {inner[1]})")
    if _leading(source) != _leading(target):
        ends.append(f"leading {_shown(_leading(target))} (source {_shown(_leading(source))})")
    if _trailing(source) != _trailing(target):
        ends.append(f"trailing {_shown(_trailing(target))} (source {_shown(_trailing(source))})")
    return f"whitespace differs: {'; '.join(ends)}" if ends else None


def _line_break_count(text: str) -> int:
    return text.count("\n") + text.replace("\r\n", "").count("\r")


def _leading(text: str) -> str:
    return text[: len(text) - len(text.lstrip())]


def _trailing(text: str) -> str:
    return text[len(text.rstrip()) :]


def _shown(whitespace: str) -> str:
    return repr(whitespace) if whitespace else "none"


def _counts(target: str, checked: int, findings: list[QualityFinding]) -> TargetQuality:
    by_severity = {severity: 0 for severity in ("error", "warning", "info")}
    for finding in findings:
        by_severity[finding.severity] += 1
    return TargetQuality(
        target=target,
        checked_leaves=checked,
        errors=by_severity["error"],
        warnings=by_severity["warning"],
        infos=by_severity["info"],
    )


def _summaries(target: str, findings: list[QualityFinding]) -> list[Issue]:
    """One issue per kind of finding in `target` (as the project spells it), naming the first
    paths: what CI annotations and people's output show (the findings themselves are in
    `data`)."""
    grouped: dict[FindingKind, list[QualityFinding]] = {}
    for finding in findings:
        grouped.setdefault(finding.kind, []).append(finding)
    issues = []
    for kind, group in grouped.items():
        severity: Severity = max(
            (finding.severity for finding in group), key=("info", "warning", "error").index
        )
        paths = [finding.path for finding in group]
        named = ", ".join(paths[:_NAMED_PATHS])
        if len(paths) > _NAMED_PATHS:
            named += f" and {len(paths) - _NAMED_PATHS} more"
        files = {finding.file for finding in group}
        issues.append(
            Issue(
                code=_CODES[kind],
                severity=severity,
                message=f"{target}: {len(group)} leaf(s) {_SUMMARIES[kind]}: {named}",
                path=files.pop() if len(files) == 1 else None,
            )
        )
    return issues
