"""Idempotency keys: a request sent again with the same ``Idempotency-Key`` gets the first answer.

A client that does not know whether its request arrived (a timeout, a dropped connection) sends
it again with the same key: the server applies it once and answers every copy the same. A key
used for a different request is refused (422), so a client cannot confuse two requests.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from exactodds.errors import ExactOddsError

IDEMPOTENCY_HEADER = "idempotency-key"
MAX_KEY_LENGTH = 128


class IdempotencyKeyError(ExactOddsError):
    """An idempotency key that is malformed or was already used for a different request."""


@dataclass(frozen=True)
class Idempotency:
    """A request's idempotency key and the fingerprint of what it asked for."""

    key: str
    fingerprint: str


def idempotency(key: str | None, request: dict[str, Any]) -> Idempotency | None:
    """The key of a request (None without one) with the fingerprint of ``request`` (what it asks
    for, as JSON). Raises IdempotencyKeyError for a key that is not 1 to 128 printable ASCII
    characters."""
    if key is None:
        return None
    if not 1 <= len(key) <= MAX_KEY_LENGTH or not key.isascii() or not key.isprintable():
        raise IdempotencyKeyError(f"Idempotency-Key must be 1 to {MAX_KEY_LENGTH} printable ASCII characters")
    text = json.dumps(request, sort_keys=True, default=str)
    return Idempotency(key=key, fingerprint=hashlib.sha256(text.encode()).hexdigest())


def check_replay(marker: Idempotency, stored: tuple[str, str] | None) -> str | None:
    """The first answer to the request of ``marker`` (``stored``: its fingerprint and answer, or
    None when the key is new), or None; IdempotencyKeyError when the key served another request."""
    if stored is None:
        return None
    fingerprint, response = stored
    if fingerprint != marker.fingerprint:
        raise IdempotencyKeyError(f"Idempotency-Key {marker.key[:40]!r} was already used for a different "
                                  "request; send a new key for a new request")
    return response
