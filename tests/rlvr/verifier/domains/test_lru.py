"""The shared bounded LRU: entries and bytes bounds, recency, hits and misses, off at 0."""

from __future__ import annotations

import threading

from rlvr.verifier.domains.lru import BoundedLru


def test_least_recently_used_goes_first_when_over_the_entry_bound() -> None:
    lru: BoundedLru[str, int] = BoundedLru(2)
    lru.put("a", 1)
    lru.put("b", 2)
    assert lru.get("a") == 1  # "a" is now the most recent
    lru.put("c", 3)
    assert lru.get("b") is None and lru.get("a") == 1 and lru.get("c") == 3
    assert (lru.hits, lru.misses, len(lru)) == (3, 1, 2)


def test_byte_bound_evicts_until_it_fits_and_refuses_an_entry_heavier_than_all() -> None:
    lru: BoundedLru[str, str] = BoundedLru(100, max_bytes=10)
    lru.put("a", "x", size=4)
    lru.put("b", "y", size=4)
    lru.put("c", "z", size=4)  # 12 > 10: "a" goes
    assert lru.get("a") is None and lru.bytes == 8
    lru.put("huge", "w", size=11)
    assert lru.get("huge") is None and lru.bytes == 8 and len(lru) == 2
    lru.put("b", "y2", size=1)  # replacing an entry replaces its weight
    assert lru.get("b") == "y2" and lru.bytes == 5


def test_zero_turns_it_off() -> None:
    for lru in (BoundedLru[str, int](0), BoundedLru[str, int](5, max_bytes=0)):
        lru.put("a", 1)
        assert lru.get("a") is None and len(lru) == 0 and not lru.is_enabled


def test_concurrent_writers_keep_the_bounds() -> None:
    lru: BoundedLru[int, int] = BoundedLru(50, max_bytes=400)

    def writer(offset: int) -> None:
        for n in range(2000):
            lru.put(offset + n, n, size=7)
            lru.get(offset + n // 2)

    threads = [threading.Thread(target=writer, args=(k * 10_000,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(lru) <= 50 and lru.bytes == 7 * len(lru) <= 400
