"""`i18nprune lsp`: the Language Server Protocol 3.17 over this process's stdio.

One trio loop reads framed messages and answers them (`lsp.session`, `lsp.methods`); CPU and
file work runs in worker threads, and the session shares `serve`'s engine: the scan index
(scans kept per root while inotify sees no change), the ops registry and the worker pool.
Read-only: edits go back to the editor as `WorkspaceEdit`s; only the translate command writes,
through `generate`, and only with `--allow-writes`. See docs/lsp.md.
"""

from __future__ import annotations

import sys
from functools import partial

import trio

from i18nprune.lsp.framing import FrameReader
from i18nprune.lsp.methods import NOTIFICATIONS, REQUESTS
from i18nprune.lsp.session import LspSettings, Session
from i18nprune.serve.session import host_stdio, run_session
from i18nprune.serve.shared_pool import SharedPool
from i18nprune.serve.transport import LineWriter, notice

__all__ = ["LspSettings", "serve_lsp"]


def serve_lsp(settings: LspSettings) -> int:
    """Serve LSP on this process's stdin/stdout until `exit`; the exit code (0 after
    `shutdown` then `exit`, 1 for `exit` without `shutdown` or end of input, 130 on Ctrl+C)."""
    sys.dont_write_bytecode = True
    return host_stdio(partial(_serve, settings))


async def _serve(settings: LspSettings, protocol_fd: int) -> int:
    def begin(writer: LineWriter, nursery: trio.Nursery) -> Session:
        session = Session(settings, writer, nursery, REQUESTS, NOTIFICATIONS)
        session.pools = SharedPool(nursery, settings.workers)
        nursery.start_soon(session.read_messages, FrameReader(0))
        notice(f"lsp: ready ({'writes enabled' if settings.allow_writes else 'read-only'})")
        return session

    session = await run_session(protocol_fd, begin)
    return session.exit_code
