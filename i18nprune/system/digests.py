"""BLAKE2b and SHA-256 without importing `hashlib`, which loads OpenSSL's libcrypto (~3.4 MB
resident in each process that imports it) for algorithms these never need. The classes are
CPython's own implementations, as `hashlib` falls back to them: digests are identical."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Protocol


class Digest(Protocol):
    """What callers use of a hash object."""

    def update(self, data: bytes, /) -> None: ...

    def digest(self) -> bytes: ...

    def hexdigest(self) -> str: ...


try:
    from _blake2 import blake2b
except ImportError:  # an interpreter built without it: hashlib's then
    from hashlib import blake2b


def _sha256_class() -> Callable[[bytes], Digest]:
    for module in ("_sha2", "_sha256"):  # the module's name since 3.12, and before
        try:
            found: Callable[[bytes], Digest] = importlib.import_module(module).sha256
        except (ImportError, AttributeError):
            continue
        return found
    from hashlib import sha256

    return sha256


sha256 = _sha256_class()
"""`hashlib.sha256`'s algorithm: `sha256(data).hexdigest()`."""

__all__ = ["blake2b", "sha256"]
