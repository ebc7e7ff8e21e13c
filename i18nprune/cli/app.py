"""The `i18nprune` command line: global flags, one command per op, exit codes (PRODUCT §4–§5)."""

from __future__ import annotations

import inspect
import math
import os
import shlex
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import click
import msgspec
import trio
import typer

from i18nprune import __version__
from i18nprune.cli.commands.demo import DemoError, write_demo
from i18nprune.cli.globals import FORMATS, GlobalOptions, hoist_global_flags, wants_json
from i18nprune.cli.output import consoles, write_json
from i18nprune.cli.progress import ProgressDisplay
from i18nprune.cli.report import Reported, emit
from i18nprune.config import ConfigOverrides
from i18nprune.envelope import Code, Envelope, ProblemError, error, make_envelope
from i18nprune.fanout import WorkspaceRun, run_workspace
from i18nprune.ops.options import OptionsError, decode_options, option_fields
from i18nprune.ops.registry import OPS, OpSpec, execute
from i18nprune.ops.workspace import workspace_root
from i18nprune.project import ProjectHandle, ProjectRequest
from i18nprune.workspace import Workspace, find_workspace, has_workspace_file

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
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
    }
)

app = typer.Typer(
    name="i18nprune",
    help="Keep translations honest: find the keys your code uses; validate, sync, prune and "
    "translate locale JSON files.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Click 8.2+ suggests a command for a typo itself; Typer's suggestion would repeat it.
    suggest_commands=not hasattr(click.exceptions, "NoSuchCommand"),
)
locales_app = typer.Typer(help="Inventory, dynamic key sites, and deletion of locales.")
app.add_typer(locales_app, name="locales")
workspace_app = typer.Typer(help="The projects of a monorepo workspace.")
app.add_typer(workspace_app, name="workspace")


def _comma_list(value: str | None) -> list[str] | None:
    return [part.strip() for part in value.split(",") if part.strip()] if value else None


def _print_version(value: bool) -> None:
    if value:
        typer.echo(__version__)
        raise typer.Exit(EXIT_OK)


@app.callback()
def main_callback(
    ctx: typer.Context,
    project: Annotated[
        Path | None, typer.Option("--project", "-C", help="Project root directory.")
    ] = None,
    config_file: Annotated[
        Path | None, typer.Option("--config", "-c", help="Config file to load.")
    ] = None,
    json_: Annotated[bool, typer.Option("--json", help="Print one JSON envelope.")] = False,
    json_compact: Annotated[
        bool, typer.Option("--json-compact", help="JSON envelope on one line.")
    ] = False,
    output_format: Annotated[
        str | None,
        typer.Option(
            "--format",
            click_type=click.Choice(FORMATS),
            help="text, json (= --json), github (workflow commands) or sarif (SARIF 2.1.0).",
        ),
    ] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Confirm destructive actions.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only errors.")] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="Plain output.")] = False,
    source: Annotated[str | None, typer.Option("--source", help="Source locale.")] = None,
    locales_dir: Annotated[
        str | None, typer.Option("--locales-dir", help="Locales directory.")
    ] = None,
    src: Annotated[
        str | None, typer.Option("--src", help="Source code directory (several: comma list).")
    ] = None,
    functions: Annotated[
        str | None, typer.Option("--functions", help="Translation functions, comma list.")
    ] = None,
    exclude: Annotated[
        str | None, typer.Option("--exclude", help="Extra names/globs to skip, comma list.")
    ] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Bypass every cache.")] = False,
    top: Annotated[int, typer.Option("--top", min=1, help="Rows shown in lists.")] = 20,
    full: Annotated[bool, typer.Option("--full", help="Show every row.")] = False,
    workspace: Annotated[
        bool,
        typer.Option(
            "--workspace",
            help="Run in every project below the root (its i18nprune.workspace.json, else "
            "every folder with an i18nprune config).",
        ),
    ] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version."
        ),
    ] = False,
) -> None:
    as_json = json_ or json_compact
    if as_json and output_format not in (None, "json"):
        raise click.UsageError(f"--json cannot be combined with --format {output_format}")
    chosen = "json" if as_json else (output_format or "text")
    ctx.obj = GlobalOptions(
        project=project,
        config=config_file,
        json=chosen == "json",
        json_compact=json_compact,
        format=chosen,
        yes=yes,
        quiet=quiet,
        no_color=no_color,
        source=source,
        locales_dir=locales_dir,
        src=src,
        functions=_comma_list(functions),
        exclude=_comma_list(exclude),
        no_cache=no_cache,
        top=top,
        full=full,
        workspace=workspace,
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
    given = {key: value for key, value in raw.items() if value is not None}
    if "yes" in _field_names(spec):
        given["yes"] = options.yes
    try:
        op_options = decode_options(spec.options, given)
    except OptionsError as exc:
        return _report_usage(str(exc), options.json, spec.name)
    handle = ProjectHandle(_project_request(options))
    try:
        workspace = _workspace_of(spec, handle, options)
    except ProblemError as exc:
        envelope = make_envelope(spec.name, None, exc.issues, started=time.perf_counter())
        emit(envelope, options, Reported(handle, None), (out, err))
        return EXIT_FAILED
    if workspace is not None and getattr(op_options, "ask", False):
        return _report_usage("--ask works on one project: run it with -C <project>", options.json)
    reported = Reported(handle, workspace)
    try:
        if options.interactive and getattr(op_options, "ask", False):
            op_options = _choose_keys(spec, handle, options, op_options, out)
        envelope = _execute(spec, reported, options, op_options, err)
        if options.interactive and _awaits_confirmation(envelope):
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
    emit(envelope, options, reported, (out, err))
    if any(issue.severity == "error" and issue.code in _USAGE_CODES for issue in envelope.issues):
        return EXIT_USAGE
    return EXIT_OK if envelope.ok else EXIT_FAILED


def _workspace_of(spec: OpSpec, handle: ProjectHandle, options: GlobalOptions) -> Workspace | None:
    """The workspace an op runs over: with `--workspace`, or when the root holds a workspace
    file and no config file was named; None for a one-project run. Raises ProblemError."""
    if not spec.needs_project or spec.name == "workspace":
        return None
    root = workspace_root(handle.request)
    if options.workspace or (options.config is None and has_workspace_file(root)):
        return find_workspace(root)
    return None


def _is_interrupt(exc: BaseException) -> bool:
    """Ctrl+C, also when trio's nurseries have wrapped it in exception groups."""
    if isinstance(exc, BaseExceptionGroup):
        return exc.subgroup(KeyboardInterrupt) is not None
    return isinstance(exc, KeyboardInterrupt)


def _field_names(spec: OpSpec) -> set[str]:
    return {field.name for field in option_fields(spec.options)}


def _execute(
    spec: OpSpec, reported: Reported, options: GlobalOptions, op_options: Any, err: Any
) -> Envelope:
    with ProgressDisplay(err, enabled=not options.quiet) as display:
        if reported.workspace is None:
            return trio.run(execute, spec, reported.handle, op_options, display)
        return trio.run(
            run_workspace, spec, reported.handle, reported.workspace, op_options, display
        )


def _awaits_confirmation(envelope: Envelope) -> bool:
    issues = list(envelope.issues)
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


def _report_usage(message: str, as_json: bool, kind: str = "usage") -> int:
    if as_json:
        issue = error(Code.USAGE_ERROR, message)
        write_json(make_envelope(kind, None, [issue], started=time.perf_counter()), False)
    else:
        print(f"i18nprune: {message} (see `i18nprune --help`)", file=sys.stderr)
    return EXIT_USAGE


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
    command.__doc__ = spec.summary
    return command


for _name, _spec in OPS.items():
    if not _spec.command_line:
        continue
    if _name.startswith("locales."):
        locales_app.command(_name.split(".", 1)[1])(_command_for(_spec))
    elif _name == "workspace":
        workspace_app.command("list")(_command_for(_spec))
    else:
        app.command(_name)(_command_for(_spec))
_langs = _command_for(OPS["languages"])
_langs.__doc__ = "The language catalog (short for `languages`)."
app.command("langs")(_langs)


@app.command("demo")
def demo_command(
    directory: Annotated[Path, typer.Argument(help="A new (or empty) directory to write it to.")],
) -> None:
    """Write the bundled example app to DIRECTORY, to try every command on."""
    try:
        written = write_demo(directory)
    except DemoError as exc:
        print(f"i18nprune demo: {exc}", file=sys.stderr)
        raise typer.Exit(EXIT_USAGE) from None
    print(f"wrote the example app ({len(written)} files) to {directory}", file=sys.stderr)
    where = shlex.quote(str(directory))
    for step in ("validate", "generate --target de --provider pseudo", "cleanup --dry-run"):
        print(f"  i18nprune -C {where} {step}", file=sys.stderr)
    raise typer.Exit(EXIT_OK)


@app.command("serve")
def serve_command(
    ctx: typer.Context,
    allow_writes: Annotated[
        bool,
        typer.Option("--allow-writes", help="Enable write ops and caches (default: read-only)."),
    ] = False,
    idle_timeout: Annotated[
        float,
        typer.Option("--idle-timeout", min=0, help="Exit after this many idle seconds; 0: never."),
    ] = 900.0,
    workers: Annotated[
        int | None, typer.Option("--workers", min=1, help="Translate worker processes.")
    ] = None,
) -> None:
    """Serve JSON-RPC 2.0 over stdio for editors and other hosts (--json does not apply)."""
    raise typer.Exit(_start_server(ctx.obj, allow_writes, idle_timeout, workers))


def _start_server(
    options: GlobalOptions, allow_writes: bool, idle_timeout: float, workers: int | None
) -> int:
    """Start `serve`, or explain on stderr why it cannot start (stdout stays empty)."""
    project_flags = {
        "--config": options.config,
        "--source": options.source,
        "--locales-dir": options.locales_dir,
        "--src": options.src,
        "--functions": options.functions,
        "--exclude": options.exclude,
        "--no-cache": options.no_cache,
    }
    unsupported = [flag for flag, value in project_flags.items() if value]
    if unsupported:
        return _serve_usage(
            f"{', '.join(unsupported)} cannot be used with serve: every request reads the "
            "project's own config file; set them there"
        )
    if not math.isfinite(idle_timeout):
        return _serve_usage("--idle-timeout must be a number of seconds (0 disables it)")
    sandbox = None
    if options.project is not None:
        sandbox = Path(os.path.realpath(Path.cwd() / options.project))
        if not sandbox.is_dir():
            what = "does not exist" if not sandbox.exists() else "is not a directory"
            return _serve_usage(f"--project {options.project}: {sandbox} {what}")
    # Imported here: a command that does not serve does not pay for the server's modules.
    from i18nprune.serve import ServeSettings, serve_stdio

    settings = ServeSettings(sandbox, allow_writes, idle_timeout, workers)
    return serve_stdio(settings)


def _serve_usage(message: str) -> int:
    print(f"i18nprune serve: {message}", file=sys.stderr)
    return EXIT_USAGE


def _is_serve_usage_error(exc: click.ClickException, args: list[str]) -> bool:
    """Whether a usage error belongs to `serve`, whose stdout carries only protocol lines."""
    ctx = getattr(exc, "ctx", None)
    if ctx is not None and ctx.command.name == "serve":
        return True
    return (ctx is None or ctx.parent is None) and "serve" in args


def main(argv: list[str] | None = None) -> None:
    """Console entry point: exit 0 ok, 1 `ok:false`, 2 usage error, 130 interrupted."""
    args = hoist_global_flags(list(sys.argv[1:] if argv is None else argv))
    command = typer.main.get_command(app)
    try:
        code = command.main(args=args, prog_name="i18nprune", standalone_mode=False)
    except click.exceptions.Exit as exc:
        code = exc.exit_code
    except (KeyboardInterrupt, click.exceptions.Abort):
        code = EXIT_INTERRUPTED
    except click.ClickException as exc:  # a usage error: unknown flag, command or bad value
        code = exc.exit_code
        if wants_json(args) and not _is_serve_usage_error(exc, args):
            _report_usage(exc.format_message(), as_json=True)
        else:
            exc.show()
    sys.exit(code if isinstance(code, int) else EXIT_OK)
