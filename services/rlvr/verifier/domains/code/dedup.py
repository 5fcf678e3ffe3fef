"""No work done twice: identical items of a request run once, and a bounded cache of verdicts.

Two items are identical when everything that decides their verdict is: the program (after
extraction from the response), the language, the tests with their expected values, the
limits, the scoring, and whatever else the item or the sandbox job carries (checker,
interactor, budgets: the key is taken from the whole item and the whole job, so a field added
later is part of it without anyone remembering to add it here). The key is SHA-256 of a
canonical JSON serialization (sorted keys, no whitespace, ASCII).

What is copied, and what is not:
- within a request, any verdict of the first identical item is copied to the others
  (`reused: batch`), a timeout included: it is the same program, judged under the same load,
  at the same moment. An `error` (the verifier's fault) is never copied: each copy then runs
  on its own.
- across requests, the cache (LRU, bounded by count and by bytes) keeps only verdicts that do
  not depend on the machine's load or the verifier's health: never an `error`, never a result
  with a timed-out test (a borderline program that timed out under load must get its own
  chance later), never a compile timeout, and never a test skipped because the sandbox gave
  out (`not run: ...`). These are read from the executor's typed reports (`timed_out` flags,
  `SkipReason` codes), never from the verdicts' wording.

A program whose behaviour is random gets one sample per request (and one per cache lifetime):
the price of deduplication, which GRPO groups of identical completions pay gladly.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from rlvr.schemas.code import CodeItem, CodeResult, Reuse, TestStatus
from rlvr.schemas.common import Status
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.domains.lru import BoundedLru
from rlvr.verifier.sandbox.wire.protocol import RunReport, SkipReason

# Bumped when the meaning of a key changes (a cache is per process, but a key may be logged).
_KEY_VERSION = 2
# Bytes charged per cached entry beyond its serialized result (key, dict slot, model objects).
_ENTRY_OVERHEAD_BYTES = 512
# Item fields that do not decide the verdict: the echoed id, and the response (its program is
# keyed instead, so two responses with the same code block are identical items).
_NOT_VERDICT_FIELDS = {"id", "response", "code"}


def verdict_key(item: CodeItem, program: str, job: Mapping[str, Any]) -> bytes | None:
    """SHA-256 of what decides `item`'s verdict; None when it cannot be serialized canonically
    (a Python caller's non-JSON argument, a value nested past what `json` writes): such an
    item is simply never deduplicated.

    Injective over what the judge tells apart: the item is dumped as Python values (not
    pydantic's JSON mode, which writes NaN, Infinity and -Infinity all as `null`) and written
    by `json`, which keeps `NaN`, `Infinity`, `-Infinity`, `null`, `1`, `1.0` and `true`
    apart."""
    try:
        identity = {
            "version": _KEY_VERSION,
            "program": program,
            "item": item.model_dump(mode="python", exclude=_NOT_VERDICT_FIELDS),
            # The job as the sandbox gets it: the server's effective limits and flags, and the
            # arguments as encoded for the sandbox (which tells `{1: x}` from `{"1": x}`).
            "job": {k: v for k, v in job.items() if k not in ("id", "code")},
        }
        canonical = json.dumps(
            identity, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=_plain
        )
    except (TypeError, ValueError, RecursionError):
        return None
    return hashlib.sha256(canonical.encode("ascii")).digest()


def _plain(value: Any) -> Any:
    """The wire value of an enum (the only non-JSON type the schema itself produces)."""
    if isinstance(value, Enum):
        return {"enum": type(value).__name__, "value": value.value}
    raise TypeError(f"not JSON: {type(value).__name__}")


# Tests PID 1 did not run for a reason of the moment (the budget under this load, the sandbox's
# health, a judge that failed): only a skip after the program's own visible failure is lasting.
_LASTING_SKIPS = frozenset({SkipReason.AFTER_FAILURE})


def is_cacheable(result: CodeResult, reports: Sequence[RunReport]) -> bool:
    """Whether a verdict may serve later requests: it depends only on the program and the item,
    not on the load of the machine or the health of the sandbox (see the module docstring).

    Decided from typed facts, never from wording: the result's status, its tests' statuses, and
    the executor's reports the verdict was judged from (`reports`): any run that timed out, a
    compile that timed out (the `compile_error` report's `timed_out`), or a test skipped for a
    reason that is not the program's (its `SkipReason`). A run that timed out behind a wrong
    answer under `stop_on_first_failure` counts too (conservative: a miss, never a stale hit).
    """
    if result.status is Status.error or result.status is Status.timed_out:
        return False
    if any(test.status is TestStatus.timed_out for test in result.tests):
        return False
    for report in reports:
        if report["kind"] == "skipped":
            if report["reason"] not in _LASTING_SKIPS:
                return False
        elif report["timed_out"]:
            return False
    return True


def copied(result: CodeResult, item: CodeItem, how: Reuse) -> CodeResult:
    """`result` as the verdict of the identical `item`: its id, no time spent, marked copied."""
    return result.model_copy(
        update={"id": item.id, "elapsed_s": 0.0, "reused": how, "tests": list(result.tests)}
    )


class VerdictCache(BoundedLru[bytes, CodeResult]):
    """Verdicts of identical items, bounded by entries and by bytes (a result's JSON size)."""

    def __init__(self, max_items: int, max_bytes: int) -> None:
        super().__init__(max_items, max_bytes)

    def put(self, key: bytes, value: CodeResult, size: int = 0) -> None:
        """Kept weighing its JSON size (whatever `size` says)."""
        if self.is_enabled:
            super().put(key, value, len(value.model_dump_json()) + _ENTRY_OVERHEAD_BYTES)


@dataclass
class Claim:
    """What an item gets from `VerdictReuse.claim`: a copied verdict, or the duty to run (and,
    when `publish` is called, to share the verdict with the identical items waiting for it)."""

    copied: CodeResult | None = None
    key: bytes | None = None
    pending: asyncio.Future[CodeResult | None] | None = None
    result: CodeResult | None = field(default=None, repr=False)
    is_cacheable: bool = False

    def publish(self, result: CodeResult, reports: Sequence[RunReport]) -> None:
        """Share `result` with the waiting copies; it is cached if `is_cacheable` says so of it
        and of the executor's `reports` it was judged from (none: a verdict without a run)."""
        self.result = result
        self.is_cacheable = is_cacheable(result, reports)
        if self.pending is not None and not self.pending.done():
            self.pending.set_result(result)


# Identical items in flight within one request: key -> the first one's verdict, when it comes.
Batch = dict[bytes, "asyncio.Future[CodeResult | None]"]


class VerdictReuse:
    """The code verifier's memory of verdicts: per-request sharing and the cross-request cache."""

    def __init__(self, settings: CodeSettings) -> None:
        self.is_batch_enabled = settings.is_dedup_enabled
        self.cache = VerdictCache(settings.cache_items, int(settings.cache_mb * 1024 * 1024))
        self.copied_in_batch = 0
        self.copied_from_cache = 0
        self.items_run = 0  # claims that ran their item (copies are not counted)

    @property
    def is_enabled(self) -> bool:
        return self.is_batch_enabled or self.cache.is_enabled

    def key(self, item: CodeItem, program: str, job: Mapping[str, Any]) -> bytes | None:
        return verdict_key(item, program, job) if self.is_enabled else None

    @asynccontextmanager
    async def claim(self, key: bytes | None, item: CodeItem, batch: Batch) -> AsyncIterator[Claim]:
        """Yield a copy of an identical item's verdict, or a claim to run this one.

        The first of identical items in a request runs; the others wait for its verdict here
        (holding no sandbox). A verdict published by the runner is cached if `is_cacheable`.
        Leaving without publishing (a fault, a cancellation) releases the waiters, who then run
        themselves, as they do when the verdict was an `error`.
        """
        if key is None:
            self.items_run += 1
            yield Claim()
            return
        cached = self.cache.get(key)
        if cached is not None:
            self.copied_from_cache += 1
            yield Claim(copied=copied(cached, item, "cache"))
            return
        pending = batch.get(key) if self.is_batch_enabled else None
        if pending is not None:
            # shield: a waiter's cancellation must not cancel the verdict others wait for
            original = await asyncio.shield(pending)
            if original is not None and original.status is not Status.error:
                self.copied_in_batch += 1
                yield Claim(copied=copied(original, item, "batch"))
                return
            self.items_run += 1
            yield Claim()  # nothing to copy: run, without publishing to anyone
            return
        claim = Claim(key=key)
        self.items_run += 1
        if self.is_batch_enabled:
            claim.pending = asyncio.get_running_loop().create_future()
            batch[key] = claim.pending
        try:
            yield claim
        finally:
            if claim.pending is not None and not claim.pending.done():
                claim.pending.set_result(None)
            if claim.result is not None and claim.is_cacheable:
                self.cache.put(key, claim.result)

    def stats(self) -> dict[str, Any]:
        return {
            "items_run": self.items_run,
            "reused_in_batch": self.copied_in_batch,
            "reused_from_cache": self.copied_from_cache,
            "cache_items": len(self.cache),
            "cache_bytes": self.cache.bytes,
            "cache_hits": self.cache.hits,
            "cache_misses": self.cache.misses,
        }
