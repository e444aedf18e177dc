"""Unguessable ids and links: 128 bits from the operating system's CSPRNG, compared in constant time.

>>> len(new_token()), same_token("abc", "abc"), same_token("abc", "abd")
(22, True, False)
"""

from __future__ import annotations

import hmac
import secrets

TOKEN_BYTES = 16  # 128 bits: guessing one of a server's links is out of reach


def new_token() -> str:
    """A fresh URL-safe token of TOKEN_BYTES random bytes (22 characters)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def same_token(given: str, expected: str) -> bool:
    """Whether ``given`` is ``expected``, in time that does not depend on where they differ."""
    return hmac.compare_digest(given.encode(), expected.encode())
