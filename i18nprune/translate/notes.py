"""What providers may know of each text to translate besides the text: the key paths that show it
and its description (see `descriptions`).
"""

from __future__ import annotations

from collections.abc import Iterable

from i18nprune.pool.messages import NOTE_KEYS, TextNote
from i18nprune.translate.descriptions import Descriptions, describe
from i18nprune.translate.plan import PlannedLeaf


def text_notes(
    parts: Iterable[tuple[str | None, Iterable[PlannedLeaf]]], descriptions: Descriptions
) -> dict[str, TextNote]:
    """Source text → its note, for the leaves of a target that are translated: the first
    NOTE_KEYS key paths that show the text (`namespace:path` with namespaces), and the first
    description among them. `parts`: (namespace, planned leaves) per namespace."""
    notes: dict[str, TextNote] = {}
    for namespace, leaves in parts:
        for leaf in leaves:
            if leaf.action != "translate":
                continue
            shown = leaf.source_path if namespace is None else f"{namespace}:{leaf.source_path}"
            note = TextNote([shown], describe(descriptions, namespace, leaf.source_path))
            before = notes.get(leaf.text)
            if before is None:
                notes[leaf.text] = note
            elif len(before.keys) < NOTE_KEYS or before.description is None:
                notes[leaf.text] = before.merged(note)
    return notes
