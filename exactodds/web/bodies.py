"""Request bodies of a web table: small JSON objects, capped in size and in time.

Every request body of the tables' APIs is a small JSON object: one over :data:`MAX_BODY` bytes
is refused as soon as that is known (by its ``Content-Length``, or as it streams in, chunked
bodies too: 413), one that does not arrive in time is refused (408), and one that is not a JSON
object is a 400 naming what was wrong.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from starlette.requests import Request

from exactodds.errors import ExactOddsError

MAX_BODY = 4096  # bytes; every request body of the API is a small JSON object
BODY_TIMEOUT = 10.0  # seconds a request body may take to arrive


class BadRequest(ExactOddsError):
    """A request that is not a JSON object of the expected form."""


class BodyTooLarge(ExactOddsError):
    """A request body over MAX_BODY bytes (refused as soon as it is known: 413)."""


class BodyTimeout(ExactOddsError):
    """A request body that did not arrive in time (408)."""


async def read_body(request: Request, *, timeout: float) -> bytes:
    """The request's body, refused past MAX_BODY bytes (by its Content-Length, or as it streams in,
    chunked bodies too) and past ``timeout`` seconds between two pieces."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.strip().isdigit() or int(declared) > MAX_BODY):
        raise BodyTooLarge(f"request body of {declared[:20]} bytes is too large (at most {MAX_BODY:,})")
    chunks, size = [], 0
    stream = request.stream().__aiter__()
    while True:
        try:
            chunk = await asyncio.wait_for(stream.__anext__(), timeout)
        except StopAsyncIteration:
            break
        except TimeoutError:
            raise BodyTimeout(f"request body did not arrive within {timeout:g} s") from None
        size += len(chunk)
        if size > MAX_BODY:
            raise BodyTooLarge(f"request body is too large (more than {MAX_BODY:,} bytes)")
        chunks.append(chunk)
    return b"".join(chunks)


async def json_object(request: Request, *, timeout: float) -> dict[str, Any]:
    """The request's body as a JSON object (an empty body is ``{}``); BadRequest otherwise."""
    raw = await read_body(request, timeout=timeout)
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as exc:
        raise BadRequest(f"request body is not valid JSON: {str(exc)[:80]}") from None
    if not isinstance(body, dict):
        raise BadRequest(f"request body must be a JSON object, got {type(body).__name__}")
    return body


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")
