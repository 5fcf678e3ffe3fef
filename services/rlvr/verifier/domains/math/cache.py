"""A bounded LRU map of SymPy verdicts, keyed by the normalised (answer, extracted) pair."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from threading import Lock
from typing import Generic, TypeVar

from rlvr.verifier.domains.math.verdict import Verdict

K = TypeVar("K")
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class TimedOut:
    """A cached timeout: reused only for requests whose deadline is no longer than this one."""

    timeout_s: float


CachedOutcome = Verdict | TimedOut


class LruCache(Generic[K, V]):
    """Thread-safe (the batch is prepared on a worker thread, results stored on the loop)."""

    def __init__(self, max_size: int) -> None:
        self.max_size = max_size
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: K) -> V | None:
        if self.max_size == 0:
            return None
        with self._lock:
            value = self._data.get(key)
            if value is None:
                self.misses += 1
                return None
            self._data.move_to_end(key)
            self.hits += 1
            return value

    def put(self, key: K, value: V) -> None:
        if self.max_size == 0:
            return
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.max_size:
                self._data.popitem(last=False)

    def __len__(self) -> int:
        return len(self._data)
