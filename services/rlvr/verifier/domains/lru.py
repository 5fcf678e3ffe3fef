"""One bounded LRU map for every cache of the verifier: math's SymPy verdicts, code's verdicts of
identical items, code's compiled programs.

Bounded by entries and, where entries differ much in size, by bytes (the caller says what an
entry weighs). An entry heavier than the whole byte bound is not kept: it would evict everything
and still not fit. Thread-safe (math fills its cache from a worker thread); the lock is
uncontended on the event loop, where the code caches live.
"""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class BoundedLru(Generic[K, V]):
    """`max_items` entries at most (0 turns the cache off), and `max_bytes` of their declared
    sizes when given."""

    def __init__(self, max_items: int, max_bytes: int | None = None) -> None:
        self.max_items = max_items
        self.max_bytes = max_bytes
        self._data: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._lock = Lock()
        self.bytes = 0
        self.hits = 0
        self.misses = 0

    @property
    def is_enabled(self) -> bool:
        return self.max_items > 0 and (self.max_bytes is None or self.max_bytes > 0)

    def get(self, key: K) -> V | None:
        """The value kept for `key` (now the most recently used), counted as a hit or a miss."""
        if not self.is_enabled:
            return None
        with self._lock:
            entry = self._data.get(key)
            if entry is None:
                self.misses += 1
                return None
            self._data.move_to_end(key)
            self.hits += 1
            return entry[0]

    def put(self, key: K, value: V, size: int = 0) -> None:
        """Keep `value` (weighing `size` bytes), evicting the least recently used past a bound."""
        if not self.is_enabled or (self.max_bytes is not None and size > self.max_bytes):
            return
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            self._data[key] = (value, size)
            self.bytes += size
            while len(self._data) > self.max_items or (
                self.max_bytes is not None and self.bytes > self.max_bytes
            ):
                _, (_, evicted) = self._data.popitem(last=False)
                self.bytes -= evicted

    def __len__(self) -> int:
        return len(self._data)
