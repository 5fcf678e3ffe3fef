"""Compile each distinct program once: a bounded cache of compile outcomes on the trusted side.

GRPO sends 8-16 completions per prompt and many are identical; javac, rustc and `go build` take
seconds. The host keys an outcome by a hash of (language, source, exact compile command and
environment, image) — `languages.ProgramSpec.cache_key` — and keeps the artefact (the tar the
compile wrote to its stdout) in this process's memory, where no candidate can write: a run
gets a copy of it in a fresh work dir of its own. Concurrent requests for the same key wait
for the one compile in flight (single flight), so a batch of identical completions costs one
compile even when they all arrive at once.

What is cached: an artefact, or a compile error (the compiler's diagnostics). What is not: a
compile that timed out (a loaded machine is not the program's fault forever) and a compile the
sandbox could not finish (the verifier's fault): the waiting duplicates share that outcome,
the next request compiles again.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from rlvr.verifier.domains.lru import BoundedLru
from rlvr.verifier.sandbox.wire.protocol import Job


@dataclass(frozen=True)
class CompileOutcome:
    """An artefact (base64 of the tar, as the executor takes it back), or why there is none."""

    artefact_b64: str | None
    detail: str = ""
    elapsed_s: float = 0.0
    is_cacheable: bool = True
    cached: bool = False
    fault: bool = False  # the sandbox failed (the verifier's error), not the compiler
    is_timed_out: bool = False  # the compiler ran past its deadline (never cached)

    @property
    def size(self) -> int:
        return len(self.artefact_b64 or "") + len(self.detail)


class CompileCache:
    """An LRU of outcomes bounded in bytes and entries, with single flight per key."""

    def __init__(self, max_bytes: int, max_entries: int = 4096) -> None:
        self._entries: BoundedLru[str, CompileOutcome] = BoundedLru(max_entries, max_bytes)
        self._in_flight: dict[str, asyncio.Future[CompileOutcome]] = {}
        self.shared = 0

    def stats(self) -> dict[str, int]:
        return {
            "entries": len(self._entries),
            "bytes": self._entries.bytes,
            "hits": self._entries.hits,
            "misses": self._entries.misses,
            "shared": self.shared,
        }

    async def outcome(
        self, key: str, compile_fn: Callable[[], Awaitable[CompileOutcome]]
    ) -> CompileOutcome:
        """The cached outcome of `key`, the one being computed, or a new one from `compile_fn`."""
        waiting = self._in_flight.get(key)  # (never also cached: stored when it completes)
        if waiting is not None:
            self.shared += 1
            return _as_cached(await asyncio.shield(waiting))
        found = self._entries.get(key)  # counts the hit or the miss
        if found is not None:
            return _as_cached(found)
        future: asyncio.Future[CompileOutcome] = asyncio.get_running_loop().create_future()
        self._in_flight[key] = future
        try:
            result = await compile_fn()
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: no "never retrieved" warning when nobody waits
            raise
        else:
            future.set_result(result)
            if result.is_cacheable:
                self._entries.put(key, result, result.size)
            return result
        finally:
            self._in_flight.pop(key, None)


def _as_cached(outcome: CompileOutcome) -> CompileOutcome:
    return CompileOutcome(
        artefact_b64=outcome.artefact_b64,
        detail=outcome.detail,
        elapsed_s=0.0,
        is_cacheable=outcome.is_cacheable,
        cached=True,
        fault=outcome.fault,
        is_timed_out=outcome.is_timed_out,
    )


def compile_key(job: Job, image: str) -> str:
    """What a job's artefact depends on: language, source, compile command and environment,
    the image holding the toolchain, and the job's files, which the compiler sees beside the
    source (`/run_code`'s `files`: a header the program includes)."""
    program = job["program"]
    material: list[object] = [
        job["language"],
        job["code"],
        program["compile_argv"],
        program["compile_env"],
    ]
    if job.get("files"):
        material.append(sorted(job["files"].items()))
    encoded = json.dumps([*material, image], ensure_ascii=False)
    return hashlib.sha256(encoded.encode("utf-8", "surrogatepass")).hexdigest()
