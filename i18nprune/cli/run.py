"""Running an op from the command line: its command (the flags are the op's Options fields), the
run over one project or a workspace, the confirmation prompt, and the exit code.

`cli/app.py` imports this module when it first builds an op's command, so `--help` and
`--version` do not load what running an op needs (the config and project modules). Trio is
imported only for an op that needs an event loop (`OpSpec.inline`) or a workspace run.
"""

from __future__ import annotations

import contextlib
import gc
import inspect
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import click
import msgspec
import typer

from i18nprune.cli.exits import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, report_usage
from i18nprune.cli.globals import DOCUMENT_FORMATS, GlobalOptions
from i18nprune.cli.help import GlobalHelpCommand
from i18nprune.cli.output import consoles
from i18nprune.cli.progress import ProgressDisplay
from i18nprune.cli.report import Reported, emit
from i18nprune.config import ConfigOverrides
from i18nprune.envelope import Code, Envelope, Issue, ProblemError, error, make_envelope
from i18nprune.ops.engine.offload import run_inline
from i18nprune.ops.engine.options import OptionsError, decode_options, option_fields
from i18nprune.ops.engine.registry import OpSpec, execute
from i18nprune.ops.workspace import workspace_root
from i18nprune.project import ProjectHandle, ProjectRequest
from i18nprune.workspace import Workspace, find_workspace, has_workspace_file

# Errors that mean the command line asked for something impossible (exit 2, like a bad flag):
# a missing required choice, a target or language that does not exist, a root or config
# file that is not there.
_USAGE_CODES = frozenset(
    {
        Code.TARGET_REQUIRED,
        Code.TARGET_NOT_FOUND,
        Code.TARGET_IS_SOURCE,
        Code.UNSUPPORTED_LANGUAGE,
        Code.PROJECT_NOT_FOUND,
        Code.CONFIG_NOT_FOUND,
        Code.DOCTOR_UNKNOWN_AREA,
        Code.BASELINE_MISMATCH,
    }
)


def _project_request(options: GlobalOptions) -> ProjectRequest:
    cwd = Path.cwd()
    return ProjectRequest(
        cwd=cwd,
        project=(cwd / options.project) if options.project else None,
        config_file=(cwd / options.config) if options.config else None,
        overrides=ConfigOverrides(
            source=options.source,
            locales_dir=options.locales_dir,
            src=options.src,
            functions=options.functions,
            exclude=options.exclude,
        ),
        no_cache=options.no_cache,
    )


def run_op(spec: OpSpec, options: GlobalOptions, raw: dict[str, Any]) -> int:
    """Run one op for the command line (over every project in workspace mode); print its
    result; return the exit code."""
    out, err = consoles(options)
    misuse = _format_misuse(spec.name, options.format)
    if misuse is not None:
        return report_usage(misuse, options.json, spec.name)
    given = {key: value for key, value in raw.items() if value is not None}
    if "yes" in _field_names(spec):
        given["yes"] = options.yes
    try:
        op_options = decode_options(spec.options, given)
    except OptionsError as exc:
        return report_usage(str(exc), options.json, spec.name)
    handle = ProjectHandle(_project_request(options))
    try:
        workspace = _workspace_of(spec, handle, options)
    except ProblemError as exc:
        envelope = make_envelope(spec.name, None, exc.issues, started=time.perf_counter())
        emit(envelope, options, Reported(handle, None), (out, err))
        return EXIT_FAILED
    if workspace is not None and getattr(op_options, "ask", False):
        return report_usage("--ask works on one project: run it with -C <project>", options.json)
    reported = Reported(handle, workspace)
    try:
        if options.interactive and getattr(op_options, "ask", False):
            op_options = _choose_keys(spec, handle, options, op_options, out)
        envelope = _execute(spec, reported, options, op_options, err)
        if options.interactive and _awaits_confirmation(envelope, reported):
            emit(envelope, options, reported, (out, err), hide=Code.CONFIRMATION_REQUIRED)
            if not typer.confirm("Apply these changes?", default=False, err=True):
                err.print("Nothing was changed.")
                return EXIT_OK  # the user's choice, not a failure
            confirmed = msgspec.structs.replace(op_options, yes=True)
            envelope = _execute(spec, reported, options, confirmed, err)
    except (KeyboardInterrupt, BaseExceptionGroup) as exc:
        if not _is_interrupt(exc):
            raise
        interrupted = error(Code.INTERRUPTED, "interrupted; no file was left half-written")
        envelope = make_envelope(spec.name, None, [interrupted], started=time.perf_counter())
        emit(envelope, options, reported, (out, err))
        return EXIT_INTERRUPTED
    if spec.name == "report":
        return _emit_report(envelope, options, op_options, reported, (out, err))
    emit(envelope, options, reported, (out, err))
    if any(_is_usage_error(issue, given) for issue in envelope.issues):
        return EXIT_USAGE
    return EXIT_OK if envelope.ok else EXIT_FAILED


def _format_misuse(name: str, chosen: str) -> str | None:
    """Why `--format chosen` does not fit command `name`, if it does not."""
    if name == "report" and chosen in ("github", "sarif"):
        return f"report writes html, json, csv or text, not --format {chosen}"
    if name != "report" and chosen in DOCUMENT_FORMATS:
        return f"--format {chosen} is for `report`; {name} prints text, json, github or sarif"
    return None


def _emit_report(
    envelope: Envelope,
    options: GlobalOptions,
    op_options: Any,
    reported: Reported,
    consoles: tuple[Any, Any],
) -> int:
    """Print or write `report`'s document (`cli/report_output.py`)."""
    from i18nprune.cli.report_output import ReportOutputError, emit_report

    root: Path | None = None
    if reported.workspace is not None:
        root = Path(reported.workspace.root)
    else:
        with contextlib.suppress(ProblemError):
            root = reported.handle.open().root
    try:
        emit_report(envelope, options, op_options.out, root, consoles)
    except ReportOutputError as exc:
        return report_usage(str(exc), options.json, "report")
    if any(_is_usage_error(issue, {}) for issue in envelope.issues):
        return EXIT_USAGE  # a baseline that names none of the projects
    return EXIT_OK if envelope.ok else EXIT_FAILED


def _is_usage_error(issue: Issue, given: dict[str, Any]) -> bool:
    """Whether `issue` says the command line asked for something impossible: one of the usage
    codes, or an unknown provider that `--provider` named (one the config names is a broken
    config, exit 1)."""
    if issue.severity != "error":
        return False
    if issue.code == Code.UNKNOWN_PROVIDER:
        provider = given.get("provider")
        return isinstance(provider, str) and f"`{provider}`" in issue.message
    return issue.code in _USAGE_CODES


def _workspace_of(spec: OpSpec, handle: ProjectHandle, options: GlobalOptions) -> Workspace | None:
    """The workspace an op runs over: with `--workspace`, or when the root holds a workspace
    file and no config file was named; None for a one-project run. Raises ProblemError."""
    if not spec.needs_project or spec.name == "workspace":
        return None
    root = workspace_root(handle.request)
    if options.workspace or (options.config is None and has_workspace_file(root)):
        return find_workspace(root, handle.env)
    return None


def _is_interrupt(exc: BaseException) -> bool:
    """Ctrl+C, also when trio's nurseries have wrapped it in exception groups."""
    if isinstance(exc, BaseExceptionGroup):
        return exc.subgroup(KeyboardInterrupt) is not None
    return isinstance(exc, KeyboardInterrupt)


def _field_names(spec: OpSpec) -> set[str]:
    return set(spec.options.__struct_fields__)


def _execute(
    spec: OpSpec, reported: Reported, options: GlobalOptions, op_options: Any, err: Any
) -> Envelope:
    with ProgressDisplay(err, enabled=not options.quiet) as display:
        if reported.workspace is None and spec.inline:
            return run_inline(execute, spec, reported.handle, op_options, display)
        import trio

        # Importing trio and the op's modules (after `__main__` froze what the start-up
        # built) leaves cyclic garbage of class creation, and objects that live as long as
        # the process: frozen too, no collection during the op walks or collects them
        # (16–29 ms of a 2,000-leaf generate otherwise).
        gc.freeze()
        if reported.workspace is None:
            return trio.run(execute, spec, reported.handle, op_options, display)
        from i18nprune.fanout import run_workspace

        return trio.run(
            run_workspace, spec, reported.handle, reported.workspace, op_options, display
        )


def _awaits_confirmation(envelope: Envelope, reported: Reported) -> bool:
    issues = list(envelope.issues)
    if reported.workspace is not None:  # a workspace run imported the fan-out already
        from i18nprune.fanout import WorkspaceRun

        if isinstance(envelope.data, WorkspaceRun):
            issues += [issue for project in envelope.data.projects for issue in project.issues]
    return any(issue.code == Code.CONFIRMATION_REQUIRED for issue in issues)


def _choose_keys(
    spec: OpSpec, handle: ProjectHandle, options: GlobalOptions, op_options: Any, out: Any
) -> Any:
    """`--ask`: preview, then confirm each key; the op then removes only the chosen ones."""
    preview_options = msgspec.structs.replace(op_options, ask=False, dry_run=True)
    preview = _execute(spec, Reported(handle, None), options, preview_options, out)
    keys = preview.data.keys if preview.data is not None else []
    chosen = [key for key in keys if typer.confirm(f"remove {key}?", default=False, err=True)]
    return msgspec.structs.replace(op_options, ask=False, keys=chosen, yes=True)


def _command_for(spec: OpSpec) -> Callable[..., None]:
    """A Typer command whose parameters are the op's Options Struct fields."""

    def command(ctx: typer.Context, **raw: Any) -> None:
        raise typer.Exit(run_op(spec, ctx.obj, raw))

    parameters = [
        inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context)
    ]
    for field in option_fields(spec.options):
        if field.name == "yes":  # the global --yes flag feeds it
            continue
        annotation: Any = {bool: bool, int: int | None, list: list[str] | None}.get(
            field.kind, str | None
        )
        default = field.default if field.kind is bool else None
        parameters.append(
            inspect.Parameter(
                field.name,
                inspect.Parameter.KEYWORD_ONLY,
                default=default,
                annotation=Annotated[annotation, typer.Option(field.flag, help=field.help)],
            )
        )
    command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    return command


def op_command(spec: OpSpec, name: str, summary: str, epilog: str = "") -> click.Command:
    """The command `name` that runs `spec` (its help: `summary`, the global flags, `epilog`)."""
    single = typer.Typer(add_completion=False)
    single.command(name, help=summary, cls=GlobalHelpCommand, epilog=epilog or None)(
        _command_for(spec)
    )
    return typer.main.get_command(single)
