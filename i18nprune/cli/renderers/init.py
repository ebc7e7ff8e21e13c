"""`init`: show what discovery found and why, ask on a terminal, write it down, and print it."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import msgspec
import typer
from rich.console import Console
from rich.markup import escape

from i18nprune.cli.exits import EXIT_FAILED, EXIT_OK, EXIT_USAGE, report_usage
from i18nprune.cli.globals import GlobalOptions
from i18nprune.cli.output import consoles
from i18nprune.cli.report import Reported, emit
from i18nprune.config import ConfigOverrides
from i18nprune.envelope import Code, ProblemError, error, make_envelope
from i18nprune.ops.init import (
    KIND,
    InitData,
    InitPlan,
    ProjectPlan,
    init_envelope,
    plan_init,
    refused_envelope,
    write_init,
)
from i18nprune.project import ProjectHandle, ProjectRequest
from i18nprune.workspace import WORKSPACE_FILE

# The values a person is asked about on a terminal: (field, question, override it becomes).
_ASKED = (
    ("locales.source", "Source locale", "source"),
    ("locales.directory", "Locales directory", "locales_dir"),
    ("src", "Source folders (comma list)", "src"),
)


def run_init_command(options: GlobalOptions) -> int:
    """Run `init` for the command line; returns the exit code. On a terminal (no `--yes`, no
    `--json`) it asks about the main values, then for confirmation; elsewhere it writes what it
    found, except when no locale file was found at all (then `--yes` is needed)."""
    out, err = consoles(options)
    started = time.perf_counter()
    if options.config is not None:
        return report_usage(
            "init writes a new config file; -c/--config names an existing one", options.json, KIND
        )
    request = _request(options)
    reported = Reported(ProjectHandle(request), None)
    try:
        plan = plan_init(request)
    except ProblemError as exc:
        emit(make_envelope(KIND, None, exc.issues, started=started), options, reported, (out, err))
        usage = any(issue.code == Code.PROJECT_NOT_FOUND for issue in exc.issues)
        return EXIT_USAGE if usage else EXIT_FAILED
    held_too = False
    if plan.existing is None and options.interactive and not options.yes:
        asked = _ask(plan, request, err)
        if asked is None:
            err.print("Nothing was written.")
            return EXIT_OK  # the user's choice, not a failure
        plan, held_too = asked, True  # a held project was shown to the person, who said yes
    elif plan.existing is None and plan.nothing_found and not (options.yes or options.json):
        refusal = error(
            Code.INIT_NOTHING_FOUND,
            f"no locale files were found in {plan.root}, so every value would be a guess; "
            "name the folder with --locales-dir DIR, or pass --yes to write the guesses",
            str(plan.root),
        )
        emit(refused_envelope(plan, refusal, started=started), options, reported, (out, err))
        return EXIT_FAILED
    try:
        written, kept = write_init(plan, held_too=held_too)
    except OSError as exc:
        failure = error(Code.INIT_WRITE_FAILED, f"cannot write the config: {exc}", str(plan.root))
        emit(make_envelope(KIND, None, [failure], started=started), options, reported, (out, err))
        return EXIT_FAILED
    envelope = init_envelope(plan, written, kept, started=started)
    emit(envelope, options, reported, (out, err))
    return EXIT_OK if envelope.ok else EXIT_FAILED


def _request(options: GlobalOptions) -> ProjectRequest:
    cwd = Path.cwd()
    return ProjectRequest(
        cwd=cwd,
        project=(cwd / options.project) if options.project else None,
        overrides=ConfigOverrides(
            source=options.source,
            locales_dir=options.locales_dir,
            src=options.src,
            functions=options.functions,
            exclude=options.exclude,
        ),
    )


def _ask(plan: InitPlan, request: ProjectRequest, err: Any) -> InitPlan | None:
    """Show the plan; for one project ask about the main values (Enter keeps each) and plan
    again with the answers; then ask to write. None when the person declines."""
    if plan.workspace is None:
        project = plan.projects[0]
        _print_project(err, project, heading=f"Found in {plan.root}:")
        answers = {
            override: typer.prompt(question, default=_text(project.config, field), err=True)
            for field, question, override in _ASKED
        }
        changed = {
            override: answer.strip()
            for (field, _, override), answer in zip(_ASKED, answers.values(), strict=True)
            if answer.strip() and answer.strip() != _text(project.config, field)
        }
        if changed:
            overrides = msgspec.structs.replace(request.overrides, **changed)
            plan = plan_init(msgspec.structs.replace(request, overrides=overrides))
            _print_changes(err, project, plan.projects[0])
    else:
        err.print(f"{escape(str(plan.root))} is a monorepo root; its projects:")
        for project in plan.projects:
            _print_project(err, project, heading=f"[bold]{escape(project.rel)}[/]")
    if plan.nothing_found:
        err.print("[yellow]No locale files were found: every value above is a guess.[/]")
        return plan if typer.confirm("Write them anyway?", default=False, err=True) else None
    held = [project for project in plan.projects if project.held]
    if held:
        for project in held:
            where = "" if plan.workspace is None else f"{project.rel}: "
            err.print(f"[yellow]{escape(where)}{escape(project.thin_evidence or '')}[/]")
        err.print("Pinning these values would let `cleanup` act on them.")
        question = f"Write {', '.join(_files_to_write(plan))} anyway?"
        return plan if typer.confirm(question, default=False, err=True) else None
    files = _files_to_write(plan)
    if not files:
        return plan  # every file is there already: init says so and writes nothing
    question = f"Write {', '.join(files)}?"
    return plan if typer.confirm(question, default=True, err=True) else None


def _files_to_write(plan: InitPlan) -> list[str]:
    files = (
        [] if plan.workspace is None or plan.workspace_existing else ["i18nprune.workspace.json"]
    )
    for project in plan.projects:
        if project.existing is None:
            prefix = "" if project.rel == "." else f"{project.rel}/"
            files.append(f"{prefix}i18nprune.config.json")
    return files


def _print_project(console: Any, project: ProjectPlan, heading: str) -> None:
    console.print(heading)
    if project.existing is not None:
        console.print(f"  [dim]{escape(project.existing.name)} already there; kept[/]")
        return
    _print_values(console, project.config, project.origins, project.guessed)


def _print_changes(console: Any, before: ProjectPlan, after: ProjectPlan) -> None:
    """The values an answer changed (a new locale folder may change its layout too)."""
    console.print("With your answers:")
    changed = {
        field: origin
        for field, origin in after.origins.items()
        if field not in before.origins
        or _text(after.config, field) != _text(before.config, field)
        or origin != before.origins[field]
    }
    _print_values(console, after.config, changed, after.guessed)


def _print_values(
    console: Any, config: dict[str, Any], origins: dict[str, str], guessed: list[str]
) -> None:
    """One line a field: its value, where it came from, and whether it is a guess."""
    if not origins:
        return
    width = max(len(field) for field in origins)
    for field, origin in origins.items():
        mark = " [yellow](guess)[/]" if field in guessed and origin != "guessed" else ""
        value = escape(_text(config, field))
        console.print(f"  {field:<{width}}  {value}  [dim]← {escape(origin)}[/]{mark}")


def _text(config: dict[str, Any], dotted: str) -> str:
    """A config value as a person types it: a list as a comma list, others as JSON."""
    node: Any = config
    for part in dotted.split("."):
        node = node[part]
    if isinstance(node, str):
        return node
    if isinstance(node, list) and all(isinstance(item, str) for item in node):
        return ", ".join(node)
    return msgspec.json.encode(node).decode()


def render(data: InitData, out: Console, options: GlobalOptions) -> None:
    """What was written, where each value came from, and the command to run next."""
    if WORKSPACE_FILE in data.written:
        projects = ", ".join((data.workspace or {}).get("projects", []))
        out.print(f"wrote {WORKSPACE_FILE} (projects: {escape(projects)})")
    for project in data.projects:
        if project.written:
            out.print(f"wrote {escape(project.config_path)}")
            _print_values(out, project.config, project.origins, project.guessed)
    if not data.written:
        out.print("[dim]nothing written[/]")
    out.print(f"next: {escape(data.next)}")
