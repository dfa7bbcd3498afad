"""BLAKE2b, the digest of every cache key, without loading OpenSSL for it.

`hashlib.blake2b` is CPython's `_blake2.blake2b` (the same object on every supported version),
but importing `hashlib` loads OpenSSL's library first: 4 ms of a run that answers from the cache
in 100."""

from __future__ import annotations

try:
    from _blake2 import blake2b
except ImportError:  # an interpreter without CPython's own module
    from hashlib import blake2b

__all__ = ["blake2b"]
