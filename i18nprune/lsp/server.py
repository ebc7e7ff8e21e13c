"""`i18nprune lsp`: the Language Server Protocol 3.17 over this process's stdio.

One trio loop reads framed messages and answers them (`lsp.session`, `lsp.methods`); CPU and
file work runs in worker threads, and the session shares `serve`'s engine: the scan index
(scans kept per root while inotify sees no change), the ops registry and the worker pool.
Read-only: edits go back to the editor as `WorkspaceEdit`s; only the translate command writes,
through `generate`, and only with `--allow-writes`. See docs/lsp.md.
"""

from __future__ import annotations

import sys

import trio

from i18nprune.lsp.framing import FrameReader
from i18nprune.lsp.methods import NOTIFICATIONS, REQUESTS
from i18nprune.lsp.session import EXIT_INTERRUPTED, LspSettings, Session
from i18nprune.serve.session import tune_collector
from i18nprune.serve.shared_pool import SharedPool
from i18nprune.serve.transport import LineWriter, notice
from i18nprune.system.descriptors import claim_stdout

GIL_SWITCH_SECONDS = 0.00025
"""As in `serve`: threads doing CPU work give the loop the GIL back often."""
FLUSH_GRACE_SECONDS = 2.0
"""How long queued messages may take to reach the client once the session has ended."""

__all__ = ["LspSettings", "serve_lsp"]


def serve_lsp(settings: LspSettings) -> int:
    """Serve LSP on this process's stdin/stdout until `exit`; the exit code (0 after
    `shutdown` then `exit`, 1 for `exit` without `shutdown` or end of input, 130 on Ctrl+C)."""
    sys.dont_write_bytecode = True
    protocol_fd = claim_stdout()
    sys.setswitchinterval(GIL_SWITCH_SECONDS)
    tune_collector()  # as serve: no long collection pauses over the engine's data
    try:
        return trio.run(_serve, settings, protocol_fd)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BaseExceptionGroup as group:
        if group.subgroup(KeyboardInterrupt) is None:
            raise
        return EXIT_INTERRUPTED


async def _serve(settings: LspSettings, protocol_fd: int) -> int:
    writer = LineWriter(protocol_fd)
    async with trio.open_nursery() as outer:
        outer.start_soon(writer.run)
        async with trio.open_nursery() as nursery:
            session = Session(settings, writer, nursery, REQUESTS, NOTIFICATIONS)
            session.pools = SharedPool(nursery, settings.workers)
            nursery.start_soon(session.read_messages, FrameReader(0))
            nursery.start_soon(_end_when_broken, writer, session)
            notice(f"lsp: ready ({'writes enabled' if settings.allow_writes else 'read-only'})")
            await session.ended.wait()
            nursery.cancel_scope.cancel()
        session.index.close()
        writer.close()
        with trio.move_on_after(FLUSH_GRACE_SECONDS):
            await writer.finished.wait()
        outer.cancel_scope.cancel()
    return session.exit_code


async def _end_when_broken(writer: LineWriter, session: Session) -> None:
    await writer.broken.wait()
    session.ended.set()
