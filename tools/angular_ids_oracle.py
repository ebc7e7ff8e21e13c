"""Compare the Angular i18n ids i18nprune derives from an app's code with the ids Angular's
extractor wrote to its XLIFF source (`messages.xlf`): recall (units derived), derived ids the
file lacks, unread places, and sites at a line the file lists for them.

    python tools/angular_ids_oracle.py /work/apps/ghostfolio apps/client/src/locales/messages.xlf
"""

from __future__ import annotations

import os
import sys
import xml.etree.ElementTree as ElementTree
from collections import defaultdict

from i18nprune.scan.angular_i18n import localize_messages, template_messages
from i18nprune.syntax_tree import parse

_XLIFF = "{urn:oasis:names:tc:xliff:document:1.2}"
_SKIPPED = ("node_modules", ".git", "dist")


def units(path: str) -> dict[str, set[tuple[str, int]]]:
    """Each unit id of an XLIFF 1.2 file with the (file, line) places it lists."""
    found: dict[str, set[tuple[str, int]]] = {}
    for unit in ElementTree.parse(path).getroot().iter(f"{_XLIFF}trans-unit"):
        places = set()
        for group in unit.findall(f"{_XLIFF}context-group"):
            file = group.find(f"{_XLIFF}context[@context-type='sourcefile']")
            line = group.find(f"{_XLIFF}context[@context-type='linenumber']")
            if file is not None and line is not None and file.text and line.text:
                places.add((file.text, int(line.text)))
        found[unit.get("id") or ""] = places
    return found


def derived(root: str) -> tuple[dict[str, list[tuple[str, int]]], list[tuple[str, int]]]:
    """Every message id derived under `root` with its places, and the unread places."""
    ids: dict[str, list[tuple[str, int]]] = defaultdict(list)
    unread: list[tuple[str, int]] = []
    for folder, folders, files in os.walk(root):
        folders[:] = [name for name in folders if name not in _SKIPPED]
        for name in files:
            path = os.path.join(folder, name)
            relpath = os.path.relpath(path, root)
            if name.endswith(".html"):
                with open(path, encoding="utf-8-sig") as file:
                    for message in template_messages(file.read()):
                        place = (relpath, message.line)
                        (unread if message.id is None else ids[message.id]).append(place)
            elif name.endswith(".ts"):
                with open(path, "rb") as file:
                    content = file.read()
                if b"$localize" not in content:
                    continue
                for found in localize_messages(parse(content, "typescript").root_node):
                    place = (relpath, found.node.start_point[0] + 1)
                    (unread if found.id is None else ids[found.id]).append(place)
    return ids, unread


def main(root: str, catalog: str) -> None:
    expected = units(os.path.join(root, catalog))
    ids, unread = derived(root)
    matched = [unit for unit in expected if unit in ids]
    extra = sorted(unit for unit in ids if unit not in expected)
    sites = [(unit, place) for unit, places in ids.items() for place in places]
    located = sum(1 for unit, place in sites if place in expected.get(unit, ()))
    print(f"units {len(expected)}, derived {len(matched)} ({len(matched) / len(expected):.1%})")
    print(f"derived ids the file lacks: {len(extra)} {extra[:10]}")
    print(f"unread places: {len(unread)} {unread[:10]}")
    print(f"sites at a line the file lists: {located} of {len(sites)}")
    for unit in [unit for unit in expected if unit not in ids][:20]:
        print("not derived:", unit, sorted(expected[unit])[:2])


if __name__ == "__main__":
    main(*sys.argv[1:3])
