"""`init`: what a zero-config run finds, written down — `i18nprune.config.json` with every value
that decides what the project means, or at a monorepo root `i18nprune.workspace.json` plus one
config per project — so that a later release's discovery cannot change it. Never overwrites.

The plan (what would be written, and where each value came from) and the writing are apart: a
host shows the plan, may ask for other values (given back as overrides), then writes it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import msgspec

from i18nprune.config import ConfigOverrides, LoadedConfig, load_config, resolve_root
from i18nprune.config.detect.workspace import discover_projects, has_locales
from i18nprune.config.loading import NATIVE_CONFIG_NAME
from i18nprune.config.lookup import CONFIG_FILE_NAMES
from i18nprune.envelope import Code, Envelope, Issue, error, info, make_envelope, warning
from i18nprune.project import ProjectRequest, command_line
from i18nprune.system.atomic import create_atomically
from i18nprune.workspace import WORKSPACE_FILE, find_workspace

KIND = "init"

PINNED_FIELDS = (
    "locales.source",
    "locales.directory",
    "locales.mode",
    "locales.structure",
    "locales.namespaces",
    "locales.defaultNamespace",
    "locales.fallbackNamespaces",
    "locales.scopes",
    "locales.nsSeparator",
    "locales.keySeparator",
    "locales.contextSeparator",
    "locales.pluralSeparator",
    "locales.returnObjects",
    "locales.root",
    "src",
    "functions",
)
"""The fields `init` writes, in the order of the configuration reference: every value that
decides which keys the code names and where they live."""
_OMITTED_WHEN_EMPTY = frozenset(
    {"locales.fallbackNamespaces", "locales.scopes", "locales.returnObjects", "locales.root"}
)
_OMITTED_WHEN_DEFAULT = {"locales.pluralSeparator": "_"}
"""Written only when set otherwise: i18next's own default, which few apps change."""

_LAYER_ORIGINS = {
    "default": "default",
    "discovery": "guessed",
    "env": "environment",
    "flag": "given",
    "file": "config file",
}


class InitProject(msgspec.Struct, frozen=True, rename="camel"):
    """One project's config, as written (or as it would be)."""

    root: str
    """Relative to the folder `init` ran in, `/`-separated (`.`: that folder)."""
    config_path: str
    """The config file, relative to the same folder."""
    config: dict[str, Any]
    origins: dict[str, str]
    """Each written field (dotted camelCase) → where its value came from: what discovery read
    it from (`next-i18next.config.js:5: defaultNS`), `default`, `guessed` (found by looking at
    the folders, not read from the app's set-up), `given` (a flag or an answer), `environment`
    or the libraries whose preset added functions."""
    guessed: list[str]
    """The fields whose value is a guess: found from the folders' shape, or, when no locale
    file was found, every field still at its default."""
    found_locales: bool
    """Whether the configuration finds locale files."""
    written: bool
    """False when a config file was already there (it is kept as it is), or the project was
    held."""
    thin_evidence: str | None = None
    """What `validate` says when the code proves too little with these values for `cleanup`
    to act (the project is then `held`); None when it proves enough."""
    held: bool = False
    """Not written without a person's yes: the evidence is thin, and pinning would end the
    protection a guessed configuration has."""


class InitData(msgspec.Struct, frozen=True, rename="camel"):
    root: str
    """The folder `init` ran in (absolute)."""
    written: list[str]
    """The files written, relative to `root`."""
    kept: list[str]
    """Files that were already there and were left as they are, relative to `root`."""
    config: dict[str, Any] | None
    """The config written for the project at `root`; None at a monorepo root (see `projects`)
    and when a config was already there."""
    origins: dict[str, str]
    """Where each value of `config` came from (see `InitProject.origins`)."""
    workspace: dict[str, Any] | None
    """At a monorepo root: the workspace file (`{"projects": [...]}`); else None."""
    projects: list[InitProject]
    """Every project a config was written (or kept) for: the one at `root`, or each project of
    the workspace."""
    next: str
    """The command to run next."""


@dataclass(frozen=True)
class ProjectPlan:
    """What `init` would write for one project."""

    root: Path
    rel: str
    existing: Path | None
    """A config file already there: nothing is written for this project."""
    config: dict[str, Any]
    origins: dict[str, str]
    guessed: list[str]
    found_locales: bool
    thin_evidence: str | None = None
    held: bool = False


@dataclass(frozen=True)
class InitPlan:
    """Everything `init` would write in the folder it runs in."""

    root: Path
    cwd: Path
    workspace: list[str] | None
    """The project folders of a monorepo root (what its workspace file lists); None for one
    project."""
    workspace_existing: bool
    projects: list[ProjectPlan]
    existing: Path | None
    """A config file in the folder itself: `init` writes nothing at all."""

    @property
    def nothing_found(self) -> bool:
        """True when no project finds locale files: every value is a default or a guess."""
        return not any(project.found_locales for project in self.projects)


def plan_init(request: ProjectRequest, env: Mapping[str, str] | None = None) -> InitPlan:
    """What `init` would write at the request's root: nothing when that folder has a config
    file; at a monorepo root (a workspace file, or workspace packages holding locale files) the
    workspace file and a config per project; else one config. Values come from a zero-config
    load with the request's overrides (answers or flags; at a monorepo root, for every
    project). Raises ProblemError (a missing root,
    a workspace file that is not valid)."""
    environ = os.environ if env is None else env
    root = resolve_root(request.cwd, request.project, None)
    existing = _config_in(root)
    if existing is not None:
        return InitPlan(root, request.cwd, None, False, [], existing)
    has_file = (root / WORKSPACE_FILE).is_file()
    if has_file:
        folders = [project.rel for project in find_workspace(root, environ).projects]
    else:
        folders = [project.rel for project in discover_projects(root, environ)]
    if not folders:
        own = load_config(root, env=environ, overrides=request.overrides)
        single = _guarded(_project_plan(root, ".", own), request, environ)
        return InitPlan(root, request.cwd, None, False, [single], None)
    plans = [_member_plan(root, rel, environ, request.overrides) for rel in folders]
    if not has_file and "." not in folders:
        own = load_config(root, env=environ, overrides=request.overrides)
        if has_locales(own) and not _in_a_package(root, own):
            plans.insert(0, _project_plan(root, ".", own))
    plans = [_guarded(plan, request, environ) for plan in plans]
    return InitPlan(root, request.cwd, [plan.rel for plan in plans], has_file, plans, None)


def _guarded(plan: ProjectPlan, request: ProjectRequest, env: Mapping[str, str]) -> ProjectPlan:
    """`plan`, safe to pin: when the code proves too little with the values found for
    `cleanup` to act (`validate`'s thin-evidence warning), a guessed configuration is what
    keeps `cleanup` from acting on them, and a file would end that — so the project is held
    for a person's yes. (Leaving the guesses out of the file would not keep them guesses:
    with a config file, discovery does not fill the source locale, namespaces or separators,
    so they would silently become the defaults.)"""
    if plan.existing is not None or not plan.found_locales:
        return plan
    thin = _thin_evidence(plan.root, request, env)
    if thin is None:
        return plan
    return replace(plan, thin_evidence=thin, held=True)


def _thin_evidence(folder: Path, request: ProjectRequest, env: Mapping[str, str]) -> str | None:
    """`validate`'s thin-evidence warning on a zero-config run of the project at `folder`
    (with the request's overrides), or None when the code proves enough."""
    from i18nprune.ops.events import discard
    from i18nprune.ops.offload import run_inline
    from i18nprune.ops.registry import VALIDATE, execute
    from i18nprune.project import ProjectHandle

    member = ProjectRequest(cwd=request.cwd, project=folder, overrides=request.overrides)
    envelope = run_inline(
        execute, VALIDATE, ProjectHandle(member, env), VALIDATE.options(), discard
    )
    return next(
        (issue.message for issue in envelope.issues if issue.code == Code.VALIDATE_THIN_EVIDENCE),
        None,
    )


def write_init(plan: InitPlan, *, held_too: bool = False) -> tuple[list[str], list[str]]:
    """Write what `plan` says, never over an existing file: (written, kept), relative to the
    plan's root; a held project's config only when `held_too` (a person said yes to it). Each
    file is made atomically. Raises OSError when a file cannot be written (the files written
    before it stay)."""
    written: list[str] = []
    kept: list[str] = []
    if plan.existing is not None:
        return [], [_rel(plan.root, plan.existing)]
    if plan.workspace is not None:
        name = WORKSPACE_FILE
        content = _json_bytes({"projects": plan.workspace})
        if plan.workspace_existing or not create_atomically(plan.root / name, content):
            kept.append(name)
        else:
            written.append(name)
    for project in plan.projects:
        if project.existing is not None:
            kept.append(_rel(plan.root, project.existing))
            continue
        if project.held and not held_too:
            continue
        target = project.root / NATIVE_CONFIG_NAME
        if create_atomically(target, _json_bytes(project.config)):
            written.append(_rel(plan.root, target))
        else:
            kept.append(_rel(plan.root, target))
    return written, kept


def init_envelope(
    plan: InitPlan, written: list[str], kept: list[str], *, started: float
) -> Envelope:
    """The envelope of an `init` run that wrote `written` and kept `kept`."""
    issues = _issues(plan, written)
    single = plan.workspace is None and plan.existing is None
    own = plan.projects[0] if single else None
    data = InitData(
        root=str(plan.root),
        written=written,
        kept=kept,
        config=own.config if own is not None else None,
        origins=own.origins if own is not None else {},
        workspace={"projects": plan.workspace} if plan.workspace is not None else None,
        projects=[_shown(plan, project, written) for project in plan.projects],
        next=command_line(plan.root, plan.cwd, "validate"),
    )
    return make_envelope(KIND, data, issues, started=started)


def refused_envelope(plan: InitPlan, issue: Issue, *, started: float) -> Envelope:
    """The envelope of an `init` that wrote nothing because of `issue` (an error)."""
    data = InitData(
        root=str(plan.root),
        written=[],
        kept=[],
        config=None,
        origins={},
        workspace={"projects": plan.workspace} if plan.workspace is not None else None,
        projects=[_shown(plan, project, []) for project in plan.projects],
        next=command_line(plan.root, plan.cwd, "init --yes"),
    )
    return make_envelope(KIND, data, [issue], started=started)


def _member_plan(
    root: Path, rel: str, env: Mapping[str, str], overrides: ConfigOverrides
) -> ProjectPlan:
    folder = root / rel
    existing = _config_in(folder)
    if existing is not None:
        return ProjectPlan(folder, rel, existing, {}, {}, [], True)
    return _project_plan(folder, rel, load_config(folder, env=env, overrides=overrides))


def _project_plan(root: Path, rel: str, loaded: LoadedConfig) -> ProjectPlan:
    """The config that pins what `loaded` resolved to, and where each value came from."""
    resolved = msgspec.to_builtins(loaded.config)
    findings: dict[str, Any] = getattr(loaded, "findings", {})
    found_locales = has_locales(loaded)
    config: dict[str, Any] = {}
    origins: dict[str, str] = {}
    guessed: list[str] = []
    for field in PINNED_FIELDS:
        value = _value_at(resolved, field)
        if field in _OMITTED_WHEN_EMPTY and not value:
            continue
        if field in _OMITTED_WHEN_DEFAULT and value == _OMITTED_WHEN_DEFAULT[field]:
            continue
        _put(config, field, value)
        finding = findings.get(field)
        source = loaded.field_sources.get(field, "default")
        if finding is not None:
            origins[field] = finding.origin
        elif field == "functions" and source == "preset":
            origins[field] = _preset_origin(loaded)
        else:
            origins[field] = _LAYER_ORIGINS.get(source, source)
        inferred = finding is not None and not finding.read
        if inferred or origins[field] == "guessed" or (not found_locales and source == "default"):
            guessed.append(field)
    return ProjectPlan(root, rel, None, config, origins, guessed, found_locales)


def _preset_origin(loaded: LoadedConfig) -> str:
    """`default, package.json: vue-i18n`: the layers and libraries that named the functions."""
    named = dict.fromkeys(loaded.function_sources.values())
    return ", ".join(_LAYER_ORIGINS.get(origin, origin) for origin in named)


def _issues(plan: InitPlan, written: list[str]) -> list[Issue]:
    root = str(plan.root)
    if plan.existing is not None:
        return [
            info(
                Code.INIT_CONFIG_EXISTS,
                f"{plan.existing.name} already exists in {plan.root}; init never overwrites a "
                "config (edit it, or see what it resolves to with `i18nprune config`)",
                str(plan.existing),
            )
        ]
    issues: list[Issue] = []
    for project in plan.projects:
        where = f"{project.rel}: " if plan.workspace is not None else ""
        if project.existing is not None:
            issues.append(
                info(
                    Code.INIT_CONFIG_EXISTS,
                    f"{where}{project.existing.name} already exists; kept as it is",
                    str(project.existing),
                )
            )
        elif project.thin_evidence is not None:
            mine = _rel(plan.root, project.root / NATIVE_CONFIG_NAME) in written
            issues.append(_thin_issue(project, where, mine))
        elif not project.found_locales:
            issues.append(
                warning(
                    Code.INIT_GUESSED,
                    f"{where}no locale files were found, so these values are guesses: "
                    f"{', '.join(project.guessed)}; check them in {NATIVE_CONFIG_NAME} (or run "
                    "init again with --locales-dir DIR)",
                    str(project.root),
                )
            )
        elif project.guessed:
            issues.append(
                info(
                    Code.INIT_GUESSED,
                    f"{where}found by looking at the folders rather than read from the app's "
                    f"i18n set-up: {', '.join(project.guessed)}; check them",
                    str(project.root),
                )
            )
    if plan.workspace_existing:
        issues.append(
            info(
                Code.INIT_CONFIG_EXISTS,
                f"{WORKSPACE_FILE} already exists; kept as it is",
                str(plan.root / WORKSPACE_FILE),
            )
        )
    if not written and not issues:
        issues.append(info(Code.INIT_CONFIG_EXISTS, "nothing to write", root))
    return issues


def _thin_issue(project: ProjectPlan, where: str, written: bool) -> Issue:
    why = project.thin_evidence
    if written:
        return warning(
            Code.INIT_THIN_EVIDENCE,
            f"{where}written on your yes, although {why}",
            str(project.root),
        )
    return error(
        Code.INIT_THIN_EVIDENCE,
        f"{where}not written: {why}. Pinning these values would let `cleanup` act on them; "
        "fix the values (flags, or on a terminal) and run init again",
        str(project.root),
    )


def _shown(plan: InitPlan, project: ProjectPlan, written: list[str]) -> InitProject:
    config_path = project.existing or project.root / NATIVE_CONFIG_NAME
    path = _rel(plan.root, config_path)
    return InitProject(
        root=project.rel,
        config_path=path,
        config=project.config,
        origins=project.origins,
        guessed=project.guessed,
        found_locales=project.found_locales,
        thin_evidence=project.thin_evidence,
        held=project.held,
        written=path in written,
    )


def _in_a_package(root: Path, loaded: LoadedConfig) -> bool:
    """Whether the root's own locale folder lies in a folder below it with its own
    `package.json` (a package's, found from the root: not the root's own)."""
    directory = Path(os.path.realpath(root / loaded.config.locales.directory))
    return any(
        (folder / "package.json").is_file()
        for folder in (directory, *directory.parents)
        if root in folder.parents
    )


def _value_at(resolved: dict[str, Any], dotted: str) -> Any:
    node: Any = resolved
    for part in dotted.split("."):
        node = node[part]
    return node


def _put(config: dict[str, Any], dotted: str, value: Any) -> None:
    *parents, leaf = dotted.split(".")
    node = config
    for part in parents:
        node = node.setdefault(part, {})
    node[leaf] = value


def _json_bytes(document: dict[str, Any]) -> bytes:
    encoded = msgspec.json.format(msgspec.json.encode(document), indent=2)
    return encoded + b"\n"


def _config_in(folder: Path) -> Path | None:
    return next((folder / name for name in CONFIG_FILE_NAMES if (folder / name).is_file()), None)


def _rel(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix() if path != root else "."
