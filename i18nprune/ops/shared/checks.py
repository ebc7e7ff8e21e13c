"""`--check`: the CI gate of a write op — it writes nothing and fails when anything would
change."""

from __future__ import annotations

from i18nprune.envelope import Code, Issue, error
from i18nprune.locales.editor import FileChange

_LISTED = 5


def check_failures(kind: str, changes: list[FileChange], fix: str) -> list[Issue]:
    """An error naming the files `kind` would change (none when no file's bytes would change);
    `fix` is the command that applies the changes."""
    changed = sorted(change.path for change in changes if change.changed)
    if not changed:
        return []
    shown = ", ".join(changed[:_LISTED])
    more = f" and {len(changed) - _LISTED} more" if len(changed) > _LISTED else ""
    return [
        error(
            Code.CHECK_WOULD_CHANGE,
            f"{kind} --check: {len(changed)} locale file(s) would change ({shown}{more}); run "
            f"`{fix}` to apply",
            changed[0],
        )
    ]
