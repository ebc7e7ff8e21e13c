"""The `i18nprune` command line: global flags, one command per op, exit codes (README.md#commands,
docs/ci.md#exit-codes).

Start-up is part of every short command, so this module holds only the command tree: an op's
command (its flags are the op's Options fields) is built when it is run or shows its own help,
which imports that op and `cli/run.py` alone; `--help` lists commands from the registry.
"""

# No `from __future__ import annotations` here: Typer reads these functions' signatures at every
# start, and annotations kept as strings would be compiled and evaluated again each time.
import math
import os
import shlex
import sys
from pathlib import Path
from typing import Annotated, Any

import click
import typer
from typer.core import TyperGroup

from i18nprune import __version__
from i18nprune.cli.demo import DemoError, write_demo
from i18nprune.cli.exits import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, report_usage
from i18nprune.cli.globals import FORMATS, GlobalOptions, hoist_global_flags, wants_json
from i18nprune.cli.help import GlobalHelpCommand, example_epilog
from i18nprune.ops.engine.registry import OPS, load_every_op


def _op_commands() -> dict[str, dict[str, str]]:
    """Group name → command → op: every op with a command line, where `--help` lists it."""
    groups: dict[str, dict[str, str]] = {"i18nprune": {}, "locales": {}, "workspace": {}}
    for name, spec in OPS.items():
        if not spec.command_line:
            continue
        if name.startswith("locales."):
            groups["locales"][name.split(".", 1)[1]] = name
        elif name == "workspace":
            groups["workspace"]["list"] = name
        else:
            groups["i18nprune"][name] = name
    groups["i18nprune"]["langs"] = "languages"
    return groups


_OP_COMMANDS = _op_commands()
_SUMMARIES = {"langs": "The language catalog (short for `languages`)."}


class OpGroup(TyperGroup):
    """A command group whose op commands are built when first used, each importing only its op.

    Its help page lists them by name and summary without building them; an unknown command
    name builds them all, so that Click's error suggests the nearest of every name.
    """

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self._ops = _OP_COMMANDS.get(self.name or "", {})
        self._listing = False

    def list_commands(self, ctx: click.Context) -> list[str]:
        """The op commands in the registry's order, then the others (`demo`, `serve`, …)."""
        return [*self._ops, *(name for name in super().list_commands(ctx) if name not in self._ops)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self._ops and cmd_name not in self.commands:
            if self._listing:  # a row of the help page: the name and summary are enough
                return click.Command(cmd_name, help=self._summary(cmd_name))
            self._build(cmd_name)
        return super().get_command(ctx, cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        if args and args[0] not in self._ops and args[0] not in self.commands:
            for name in self._ops:  # a mistyped name: the suggestion needs every command
                self._build(name)
        return super().resolve_command(ctx, args)

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def _summary(self, name: str) -> str:
        return _SUMMARIES.get(name, OPS[self._ops[name]].summary)

    def _build(self, name: str) -> None:
        if name in self.commands:
            return
        from i18nprune.cli.run import op_command  # the lazy step: what running an op needs

        path = name if self.name == "i18nprune" else f"{self.name} {name}"
        command = op_command(OPS[self._ops[name]], name, self._summary(name), example_epilog(path))
        self.add_command(command, name)


app = typer.Typer(
    name="i18nprune",
    cls=OpGroup,
    help="Keep translations honest: find the keys your code uses; validate, sync, prune and "
    "translate locale JSON files.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Click 8.2+ suggests a command for a typo itself; Typer's suggestion would repeat it.
    suggest_commands=not hasattr(click.exceptions, "NoSuchCommand"),
)
locales_app = typer.Typer(
    cls=OpGroup, help="Inventory, dynamic key sites, and deletion of locales."
)
app.add_typer(locales_app, name="locales")
workspace_app = typer.Typer(cls=OpGroup, help="The projects of a monorepo workspace.")
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
            help="text, json (= --json), github (workflow commands) or sarif (SARIF 2.1.0); "
            "report also writes html or csv.",
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


@app.command("demo", cls=GlobalHelpCommand, epilog=example_epilog("demo"))
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


@app.command("init", cls=GlobalHelpCommand, epilog=example_epilog("init"))
def init_command(ctx: typer.Context) -> None:
    """Write down what discovery finds: i18nprune.config.json (a monorepo: one per project)."""
    from i18nprune.cli.renderers.init import run_init_command  # what init needs, when run

    raise typer.Exit(run_init_command(ctx.obj))


@app.command("serve", cls=GlobalHelpCommand, epilog=example_epilog("serve"))
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
    unsupported = _project_flags(options)
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

    # Every op before serving: an import on the event loop would hold up the requests queued
    # behind it, and the modules would miss the collector's freeze at start.
    load_every_op()
    settings = ServeSettings(sandbox, allow_writes, idle_timeout, workers)
    return serve_stdio(settings)


def _project_flags(options: GlobalOptions) -> list[str]:
    """The global flags given that shape one project's configuration (a server's requests
    read each project's own config file instead)."""
    given = {
        "--config": options.config,
        "--source": options.source,
        "--locales-dir": options.locales_dir,
        "--src": options.src,
        "--functions": options.functions,
        "--exclude": options.exclude,
        "--no-cache": options.no_cache,
    }
    return [flag for flag, value in given.items() if value]


def _serve_usage(message: str, command: str = "serve") -> int:
    print(f"i18nprune {command}: {message}", file=sys.stderr)
    return EXIT_USAGE


@app.command("lsp", cls=GlobalHelpCommand, epilog=example_epilog("lsp"))
def lsp_command(
    ctx: typer.Context,
    allow_writes: Annotated[
        bool,
        typer.Option(
            "--allow-writes", help="Enable the translate command (default: edits go to the editor)."
        ),
    ] = False,
    workers: Annotated[
        int | None, typer.Option("--workers", min=1, help="Translate worker processes.")
    ] = None,
) -> None:
    """Serve the Language Server Protocol over stdio, for any editor (see docs/editors.md)."""
    options: GlobalOptions = ctx.obj
    unsupported = ["--project"] * (options.project is not None) + _project_flags(options)
    if unsupported:
        raise typer.Exit(
            _serve_usage(
                f"{', '.join(unsupported)} cannot be used with lsp: the editor's workspace "
                "folders name the projects, and each reads its own config file",
                "lsp",
            )
        )
    from i18nprune.lsp import LspSettings, serve_lsp

    load_every_op()
    raise typer.Exit(serve_lsp(LspSettings(allow_writes=allow_writes, workers=workers)))


def _is_serve_usage_error(exc: click.ClickException, args: list[str]) -> bool:
    """Whether a usage error belongs to `serve`, whose stdout carries only protocol lines."""
    ctx = getattr(exc, "ctx", None)
    if ctx is not None and ctx.command.name in ("serve", "lsp"):
        return True
    return (ctx is None or ctx.parent is None) and ("serve" in args or "lsp" in args)


def _suggesting_every_flag(exc: click.NoSuchOption, root: click.Command) -> click.NoSuchOption:
    """The error for a mistyped flag, its "did you mean" taken from the command's own flags and
    the global ones, which may follow the command too (`validate --josn`)."""
    commands = {root, exc.ctx.command if exc.ctx is not None else root}
    names = sorted(
        {
            name
            for command in commands
            for param in command.params
            for name in (*param.opts, *param.secondary_opts)
            if name.startswith("--")
        }
        | {"--help"}
    )
    return click.NoSuchOption(exc.option_name, possibilities=names, ctx=exc.ctx)


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
        if isinstance(exc, click.NoSuchOption):
            exc = _suggesting_every_flag(exc, command)
        code = exc.exit_code
        if wants_json(args) and not _is_serve_usage_error(exc, args):
            report_usage(exc.format_message(), as_json=True)
        else:
            exc.show()
    sys.exit(code if isinstance(code, int) else EXIT_OK)
