"""The ids Angular's `$localize` gives a message: the 63-bit fingerprint of its message text
(and meaning) in decimal, as `@angular/localize` computes it, unless a custom `@@id` is given;
and the legacy ids `enableI18nLegacyMessageIdFormat` adds, by which `$localize` also looks a
translation up.
"""

from __future__ import annotations

import functools
import struct

from i18nprune.system.digests import sha1

_MASK32 = 0xFFFFFFFF
_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B9
_LOW_SEED = 102072


@functools.lru_cache(maxsize=4096)
def message_id(text: str, meaning: str = "") -> str:
    """The decimal id of the message whose `$localize` text is `text` (placeholders written
    `{$NAME}`), with `meaning` folded in when given. Remembered: a plain message's text is
    also its decimal legacy id's."""
    value = fingerprint(text)
    if meaning:
        rotated = ((value << 1) | (value >> 63)) & _MASK64
        value = (rotated + fingerprint(meaning)) & _MASK64
    return str(value & (_MASK64 >> 1))


def legacy_ids(serialized: str, without_switches: str, meaning: str = "") -> tuple[str, str]:
    """The two legacy ids of a message: the SHA-1 in hexadecimal of its legacy serialisation
    `serialized` followed by `[meaning]` (the id of XLIFF 1.2 units), and the decimal id of the
    same serialisation without ICU switch expressions, `without_switches`, with `meaning` folded
    in as `message_id` does (the id of XLIFF 2 units and XMB messages)."""
    digest = sha1(f"{serialized}[{meaning}]".encode("utf-8", "surrogatepass"))
    return digest.hexdigest(), message_id(without_switches, meaning)


def fingerprint(text: str) -> int:
    """The 64-bit fingerprint of `text`'s UTF-8 bytes: two Bob Jenkins hashes of 32 bits
    (seeds 0 and 102072), the first the high word, with the pair (0, 0 or 1) remapped."""
    data = text.encode("utf-8", "surrogatepass")
    # Little-endian words, three to a block; the last block is the tail, padded with zeros.
    blocks = list(_BLOCKS.iter_unpack(data + bytes(12 - len(data) % 12)))
    high = _hash32(blocks, len(data), 0)
    low = _hash32(blocks, len(data), _LOW_SEED)
    if high == 0 and low in (0, 1):
        high ^= 0x130F9BEF
        low ^= -0x6B5F56D8 & _MASK32
    return (high << 32) | low


_BLOCKS = struct.Struct("<3I")


def _hash32(blocks: list[tuple[int, int, int]], size: int, c: int) -> int:
    a = b = _GOLDEN
    for index in range(len(blocks) - 1):
        x, y, z = blocks[index]
        a, b, c = _mix((a + x) & _MASK32, (b + y) & _MASK32, (c + z) & _MASK32)
    x, y, z = blocks[-1]
    # The low byte of the last word is the length; the tail's fourth byte falls off.
    return _mix((a + x) & _MASK32, (b + y) & _MASK32, (c + size + (z << 8)) & _MASK32)[2]


def _mix(a: int, b: int, c: int) -> tuple[int, int, int]:
    a = ((a - b - c) & _MASK32) ^ (c >> 13)
    b = ((b - c - a) & _MASK32) ^ ((a << 8) & _MASK32)
    c = ((c - a - b) & _MASK32) ^ (b >> 13)
    a = ((a - b - c) & _MASK32) ^ (c >> 12)
    b = ((b - c - a) & _MASK32) ^ ((a << 16) & _MASK32)
    c = ((c - a - b) & _MASK32) ^ (b >> 5)
    a = ((a - b - c) & _MASK32) ^ (c >> 3)
    b = ((b - c - a) & _MASK32) ^ ((a << 10) & _MASK32)
    c = ((c - a - b) & _MASK32) ^ (b >> 15)
    return a, b, c
