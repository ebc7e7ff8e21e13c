"""The notes removal ops add about what their evidence kept or left out: keys kept because quoted
strings name them or the messages of used keys do, and source folders that exclude rules kept
out of the scan."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from i18nprune.envelope import Code, Issue, info
from i18nprune.keys import KeySyntax
from i18nprune.locales.positions import locate_paths
from i18nprune.locales.view import LocaleView
from i18nprune.reference import NamingMessage
from i18nprune.scan import LiteralSite, ScanResult

_NAMED = 3


class NamingSite(msgspec.Struct, frozen=True):
    """A message that names a key: the key it is the message of (`ns:path` with namespaces),
    and where a locale file defines that key (`file` relative to the project root)."""

    message: str
    file: str
    line: int
    column: int


class NamedKey(msgspec.Struct, frozen=True):
    """A key named inside the messages of used keys, with those messages."""

    key: str
    sites: list[NamingSite]


def naming_sites(
    messages: Iterable[NamingMessage], views: Iterable[LocaleView], syntax: KeySyntax
) -> list[NamingSite]:
    """Where each message is (in the view of its locale and namespace), in file order."""
    by_slot = {(view.locale, view.namespace): view for view in views}
    sites = []
    for message in messages:
        view = by_slot.get((message.locale, message.namespace))
        location = locate_paths(view, [message.path]).get(message.path) if view else None
        if location is not None:
            sites.append(
                NamingSite(
                    syntax.display(message.namespace, message.path),
                    location.file,
                    location.line,
                    location.column,
                )
            )
    return sorted(sites, key=lambda site: (site.file, site.line, site.column))


def named_note(named: list[NamedKey]) -> Issue | None:
    """Info naming the keys kept because the messages of used keys name them."""
    if not named:
        return None
    shown = []
    for entry in named[:_NAMED]:
        first = entry.sites[0] if entry.sites else None
        where = f" (in `{first.message}`, {first.file}:{first.line})" if first else ""
        shown.append(f"{entry.key}{where}")
    more = f" and {len(named) - _NAMED} more" if len(named) > _NAMED else ""
    return info(
        Code.NAMED_IN_MESSAGES,
        f"{len(named)} key(s) no call uses are named inside the message of a used key "
        "(i18next `$t(key)`, vue-i18n `@:key`, Transloco `{{ key }}`) and were kept: "
        f"{', '.join(shown)}{more}; see `data.namedInMessages`",
    )


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
