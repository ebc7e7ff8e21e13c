"""The notes removal ops add about what their evidence kept or left out: keys kept because quoted
strings name them, and source folders that exclude rules kept out of the scan."""

from __future__ import annotations

from i18nprune.envelope import Code, Issue, info
from i18nprune.scan import LiteralSite, ScanResult

_NAMED = 3


def referenced_note(referenced: dict[str, list[LiteralSite]]) -> Issue | None:
    """Info naming the keys kept because the code names them in quoted strings (as data)."""
    if not referenced:
        return None
    keys = sorted(referenced)
    named = ", ".join(
        f"{key} ({referenced[key][0].file}:{referenced[key][0].line})" for key in keys[:_NAMED]
    )
    more = f" and {len(keys) - _NAMED} more" if len(keys) > _NAMED else ""
    return info(
        Code.REFERENCED_KEYS,
        f"{len(keys)} key(s) no call uses are named by quoted strings in the code and were kept "
        f"(used as data, e.g. `t(item.label)`): {named}{more}; see `data.referenced`",
    )


def excluded_folders_note(scan: ScanResult) -> Issue | None:
    """Info naming the source folders exclude rules kept out of the scan, so a rule that
    drops real code (`exclude.dirs: ["test"]` on `src/http/test/`) is visible."""
    folders = [folder for folder in scan.excluded if folder.files]
    if not folders:
        return None
    total = sum(folder.files for folder in folders)
    named = ", ".join(
        f"{folder.path} ({folder.files}, {folder.rule})" for folder in folders[:_NAMED]
    )
    more = f" and {len(folders) - _NAMED} more" if len(folders) > _NAMED else ""
    return info(
        Code.EXCLUDED_FOLDERS,
        f"exclude rules kept {len(folders)} folder(s) with {total} source file(s) out of the "
        f"scan: {named}{more}; keys used only there look unused",
        path=folders[0].path,
    )
