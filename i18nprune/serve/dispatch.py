"""`op.<name>` requests: params checked against the op's Options Struct, the project root
resolved and confined for the session's root mode, and the op run on a fresh project.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from i18nprune.envelope import Envelope
from i18nprune.ops.engine.events import EventSink
from i18nprune.ops.engine.options import OptionsError, decode_options
from i18nprune.ops.engine.registry import OPS, OpSpec, execute
from i18nprune.ops.engine.scanning import BufferReader, Scanner, Snapshots, scanning_with
from i18nprune.pool.lease import PoolLease, lending
from i18nprune.project import ProjectHandle, ProjectRequest
from i18nprune.serve.protocol import ErrorCode, Request, RpcError, named_params, param_value

OP_PREFIX = "op."
PARAM_KEYS = ("projectRoot", "options")
ROOTLESS_IN_HUB = frozenset({"languages"})
"""Ops a hub-mode request may send without `projectRoot` (docs/serve.md#5-root-modes)."""


@dataclass(frozen=True)
class OpCall:
    """An `op.*` request that passed every check: what to run, where, with which options."""

    spec: OpSpec
    root: Path | None
    """The project root; None for an op that needs no project and was given none."""
    options: msgspec.Struct
    in_sandbox: bool = False
    """`root` is a folder below the sandbox's root: the op runs only if it is one of the
    projects of the workspace there (checked before the op runs)."""

    @property
    def method(self) -> str:
        return OP_PREFIX + self.spec.name


def find_op(method: str) -> OpSpec | None:
    """The op an `op.<name>` method names, or None."""
    if not method.startswith(OP_PREFIX):
        return None
    return OPS.get(method[len(OP_PREFIX) :])


def prepare_call(
    spec: OpSpec, request: Request, *, sandbox: Path | None, allow_writes: bool
) -> OpCall:
    """Check an `op.*` request: writes gate, params, options, root. Raises RpcError."""
    method = OP_PREFIX + spec.name
    if spec.writes and not allow_writes:
        raise RpcError(
            ErrorCode.WRITES_DISABLED,
            f"`{method}` changes files and this server is read-only; start it with "
            "--allow-writes to enable write operations.",
        )
    params = named_params(request)
    for key in params:
        if key not in PARAM_KEYS:
            raise RpcError(
                ErrorCode.INVALID_PARAMS,
                f"Unknown parameter `{key}` for `{method}`; expected `projectRoot` and `options`.",
                key=key,
            )
    raw_options = param_value(params, "options", dict[str, Any], "a JSON object") or {}
    try:
        options = decode_options(spec.options, raw_options)
    except OptionsError as exc:
        raise RpcError(
            ErrorCode.INVALID_PARAMS, f"Invalid options for `{method}`: {exc}.", key=exc.key
        ) from None
    named = param_value(params, "projectRoot", str, "a string (an absolute directory)")
    root = resolve_root(named, sandbox, method, needs_root=spec.name not in ROOTLESS_IN_HUB)
    return OpCall(spec, root, options, in_sandbox=sandbox is not None and root != sandbox)


def resolve_root(
    named: str | None, sandbox: Path | None, method: str, *, needs_root: bool
) -> Path | None:
    """The root a request runs in (docs/serve.md#5-root-modes). In sandbox mode the pinned root,
    which a named root must resolve to — or a directory below it, which the caller must then find to
    be a project of the workspace there (`sandbox_project_mismatch` else); in hub mode the named
    root, an existing absolute directory. Raises RpcError (root required / invalid / mismatch)."""
    if named is None:
        if sandbox is None and needs_root:
            raise RpcError(
                ErrorCode.ROOT_REQUIRED,
                f"`{method}` needs `projectRoot` (an absolute project directory): this server "
                "runs in hub mode, without --project.",
            )
        return sandbox
    if not os.path.isabs(named):
        raise RpcError(
            ErrorCode.ROOT_INVALID,
            f"`projectRoot` must be an absolute path; got `{named}`.",
            key="projectRoot",
        )
    try:
        real = Path(os.path.realpath(named))
        is_dir = real.is_dir()
    except (OSError, ValueError) as exc:  # a NUL byte, a name too long for the system, …
        raise RpcError(
            ErrorCode.ROOT_INVALID, f"`projectRoot` cannot be used: {exc}.", key="projectRoot"
        ) from None
    if sandbox is not None:
        if real != sandbox and not (is_dir and sandbox in real.parents):
            raise sandbox_project_mismatch(named, sandbox)
        return real
    if not is_dir:
        what = "is not a directory" if real.exists() else "does not exist"
        raise RpcError(
            ErrorCode.ROOT_INVALID,
            f"`projectRoot` {named} {what}.",
            key="projectRoot",
        )
    return real


def sandbox_project_mismatch(named: str, sandbox: Path) -> RpcError:
    """The error for a `projectRoot` that is neither the sandbox's root nor one of the
    projects of the workspace there."""
    return RpcError(
        ErrorCode.ROOT_MISMATCH,
        f"`projectRoot` {named} is not this server's project {sandbox} nor one of the projects "
        "of its workspace; a sandboxed server never switches projects — start another server "
        "for that one.",
        key="projectRoot",
    )


async def run_call(
    call: OpCall,
    *,
    read_only: bool,
    pools: PoolLease,
    scanner: Scanner,
    emit: EventSink,
    snapshots: Snapshots | None = None,
    buffers: BufferReader | None = None,
) -> Envelope:
    """Run the op on the project as it is on disk now (a fresh ProjectHandle per request;
    `scanner` answers for the files as they are now, and `snapshots` keeps what ops derive
    from them while none changes, see `serve.index`).

    A user's mistake comes back as an `ok:false` envelope; bugs raise. Cancellation
    propagates (only generate checks for it while translating; its writes have no checkpoint).
    """
    cwd = call.root if call.root is not None else Path.cwd()
    request = ProjectRequest(cwd=cwd, project=call.root, read_only=read_only)
    handle = ProjectHandle(request, long_lived=True)
    with lending(pools), scanning_with(scanner, snapshots, buffers):
        envelope = await execute(call.spec, handle, call.options, emit)
    # The server's own working directory means nothing to a client: report the request's root.
    envelope.meta = msgspec.structs.replace(envelope.meta, cwd=str(cwd))
    return envelope
