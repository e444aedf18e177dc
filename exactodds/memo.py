"""The one in-process cache of computed results: a small bounded, thread-safe LRU map.

Every module that keeps results between calls (the situation counts per qualifier, the
situation outcomes per paytable, the strategy cards, the table coach's games and session
odds) holds one
:class:`BoundedCache` under a typed, hashable key (a :class:`~exactodds.caribbean.profile.Profile`
is hashable by its :attr:`~exactodds.caribbean.profile.Profile.key`). Results that need no
progress reporting use :func:`functools.lru_cache` instead, which has the same bound-and-evict
behaviour. A hit reports no progress (there is no work to show).

>>> cache: BoundedCache[int, str] = BoundedCache(maxsize=2, name="example")
>>> cache.get(1, lambda: "one"), cache.get(2, lambda: "two"), cache.get(3, lambda: "three")
('one', 'two', 'three')
>>> cache.peek(1) is None, cache.peek(3), len(cache)
(True, 'three', 2)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """At most ``maxsize`` results, the least recently used evicted first.

    :meth:`get` computes a missing result once, under the cache's lock (a second thread asking
    for it waits for the first rather than counting it again); :meth:`peek` never blocks.
    """

    def __init__(self, *, maxsize: int, name: str) -> None:
        if maxsize < 1:
            raise ValueError(f"a cache holds at least one result, got maxsize={maxsize}")
        self.maxsize = maxsize
        self.name = name
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.RLock()

    def get(self, key: K, compute: Callable[[], V]) -> V:
        """The result under ``key``, computed by ``compute()`` on a miss."""
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
            value = compute()
            self._items[key] = value
            while len(self._items) > self.maxsize:
                self._items.popitem(last=False)
            return value

    def peek(self, key: K) -> V | None:
        """The result under ``key`` if it is already computed, else None (never waits)."""
        return self._items.get(key)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"BoundedCache({self.name!r}, {len(self)} of {self.maxsize})"
