"""BLAKE2b, SHA-1, SHA-256 and SHA-512 without importing `hashlib`, which loads OpenSSL's libcrypto
(~3.4 MB resident in each process that imports it) for algorithms these never need. The classes are
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


def _builtin_class(name: str, modules: tuple[str, ...]) -> Callable[[bytes], Digest]:
    """CPython's own implementation of `name` from the first of `modules` that has it, else
    `hashlib`'s."""
    for module in modules:
        try:
            found: Callable[[bytes], Digest] = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            continue
        return found
    import hashlib

    fallback: Callable[[bytes], Digest] = getattr(hashlib, name)
    return fallback


def _sha2_class(name: str) -> Callable[[bytes], Digest]:
    return _builtin_class(name, ("_sha2", f"_{name}"))  # the module's name since 3.12, and before


sha1 = _builtin_class("sha1", ("_sha1",))
"""`hashlib.sha1`'s algorithm (Angular's legacy message ids)."""

sha256 = _sha2_class("sha256")
"""`hashlib.sha256`'s algorithm: `sha256(data).hexdigest()`."""

sha512 = _sha2_class("sha512")
"""`hashlib.sha512`'s algorithm (content-hashed message ids)."""

__all__ = ["blake2b", "sha1", "sha256", "sha512"]
