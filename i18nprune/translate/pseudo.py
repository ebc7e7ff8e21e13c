"""Pseudo-localisation: an offline, deterministic "translation" that accents letters, grows the
text by about 35 % and brackets it, so layouts can be checked without a network.
"""

from __future__ import annotations

import math
import re

_TOKEN = re.compile(r'(<x id="\d+"/>)')
_LOOK_ALIKES = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçðéƒĝĥíĵķļɱñóþǫŕšţúṽŵẋýžÁƁÇÐÉƑĜĤÍĴĶĻṀÑÓÞǪŔŠŢÚṼŴẊÝŽ",
)
_GROWTH = 0.35
_PAD = "~"


def pseudo_localize(text: str) -> str:
    """`text` (masked) pseudo-localised: `Save <x id="0"/> now` → `[Šáṽé <x id="0"/> ñóŵ~~]`.

    Letters become accented look-alikes, tokens stay untouched, and `~` padding plus the
    brackets make the visible text about 35 % longer than the original.
    """
    if "<x" in text:
        parts = _TOKEN.split(text)
        visible = sum(len(part) for part in parts[::2])
        parts[::2] = [part.translate(_LOOK_ALIKES) for part in parts[::2]]
        accented = "".join(parts)
    else:
        visible = len(text)
        accented = text.translate(_LOOK_ALIKES)
    padding = _PAD * max(0, math.ceil(visible * _GROWTH) - 2)
    return f"[{accented}{padding}]"
