"""Split a batch into chunks and put the chunks' results back in input order (pure functions)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from rlvr.client._errors import ProtocolError

T = TypeVar("T")
R = TypeVar("R")


def split(items: Sequence[T], chunk_size: int) -> list[Sequence[T]]:
    """Consecutive slices of at most `chunk_size` items; an empty batch gives no chunks."""
    if chunk_size < 1:
        raise ValueError("chunk_size must be >= 1")
    return [items[start : start + chunk_size] for start in range(0, len(items), chunk_size)]


def join(chunks: Sequence[Sequence[T]], results: Sequence[Sequence[R]]) -> list[R]:
    """Concatenate per-chunk results, checking each chunk got exactly one result per item."""
    joined: list[R] = []
    for index, (chunk, chunk_results) in enumerate(zip(chunks, results, strict=True)):
        if len(chunk_results) != len(chunk):
            raise ProtocolError(
                f"chunk {index}: sent {len(chunk)} items, got {len(chunk_results)} results"
            )
        joined.extend(chunk_results)
    return joined
