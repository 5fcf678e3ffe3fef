"""Verdict identity (the dedup key), what may be cached, and the bounded LRU cache."""

from __future__ import annotations

import asyncio
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from rlvr.schemas.code import CodeItem, CodeResult, TestStatus, TestVerdict
from rlvr.schemas.common import Status
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.domains.code.dedup import (
    Batch,
    VerdictCache,
    VerdictReuse,
    is_cacheable,
    verdict_key,
)
from rlvr.verifier.domains.code.job_builder import build_job
from rlvr.verifier.domains.code.values import parse_reply, tree_matches
from rlvr.verifier.sandbox.wire.codec import encode_value
from rlvr.verifier.sandbox.wire.protocol import RunReport, SkipReason
from tests.support.run_reports import call, compile_error, skipped, stdio

SETTINGS = CodeSettings(is_enabled=False)
BASE: dict[str, Any] = {
    "id": "a",
    "code": "print(input())",
    "tests": [{"kind": "stdio", "stdin": "1", "stdout": "1"}],
}


def key_of(body: dict[str, Any], settings: CodeSettings = SETTINGS) -> bytes | None:
    item = CodeItem.model_validate(body)
    program = item.code if item.code is not None else "print(input())"
    return verdict_key(item, program, build_job(item, program, settings))


def test_id_and_response_wrapping_do_not_change_the_key() -> None:
    same = {**BASE, "id": "other"}
    wrapped = {**{k: v for k, v in BASE.items() if k != "code"}, "response": "any text"}
    assert key_of(BASE) == key_of(same) == key_of(wrapped)
    assert len(key_of(BASE) or b"") == 32  # SHA-256


@pytest.mark.parametrize(
    ("label", "patch"),
    [
        ("program", {"code": "print(input() )"}),
        ("language", {"language": "cpp"}),
        ("stdin", {"tests": [{"kind": "stdio", "stdin": "2", "stdout": "1"}]}),
        ("expected output", {"tests": [{"kind": "stdio", "stdin": "1", "stdout": "2"}]}),
        (
            "tolerance",
            {"tests": [{"kind": "stdio", "stdin": "1", "stdout": "1", "float_tolerance": 0.1}]},
        ),
        ("weight", {"tests": [{"kind": "stdio", "stdin": "1", "stdout": "1", "weight": 2}]}),
        ("group", {"tests": [{"kind": "stdio", "stdin": "1", "stdout": "1", "group": "g"}]}),
        ("scoring", {"scoring": "all"}),
        ("timeout", {"timeout_s": 1.5}),
        ("memory", {"memory_mb": 300}),
        ("stop on first failure", {"stop_on_first_failure": True}),
        ("one more test", {"tests": BASE["tests"] * 2}),
    ],
)
def test_anything_that_decides_the_verdict_changes_the_key(
    label: str, patch: dict[str, Any]
) -> None:
    assert key_of({**BASE, **patch}) != key_of(BASE), label


def test_server_limits_are_part_of_the_key() -> None:
    other = CodeSettings(is_enabled=False, default_timeout_s=1.0)
    assert key_of(BASE, other) != key_of(BASE)


def test_call_arguments_int_and_string_keys_differ() -> None:
    def call(kwargs_arg: Any) -> dict[str, Any]:
        test = {"kind": "call", "fn": "f", "args": [kwargs_arg], "expected": 1}
        return {"code": "def f(x): return 1", "tests": [test]}

    assert key_of(call({"1": 1})) != key_of(call({1: 1}))
    assert key_of(call(1)) != key_of(call(1.0))
    assert key_of(call(True)) != key_of(call(1))


def test_non_json_argument_gives_no_key() -> None:
    body = {"code": "def f(x): return 1", "tests": [{"kind": "call", "fn": "f", "expected": 1}]}
    item = CodeItem.model_validate(body)
    job: Any = build_job(item, "def f(x): return 1", SETTINGS)
    job["extra"] = object()
    assert verdict_key(item, "def f(x): return 1", job) is None


# JSON values as a caller may send them, with what pydantic's JSON mode used to fold into
# `null`: NaN and both infinities; ints, floats and bools side by side (1, 1.0, true).
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.sampled_from([0.0, 1.0, -1.0, 0.5, math.inf, -math.inf, math.nan])
    | st.text(max_size=2),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=3)
    ),
    max_leaves=6,
)


def call_item(expected: Any) -> dict[str, Any]:
    return {"code": "def f(): pass", "tests": [{"kind": "call", "fn": "f", "expected": expected}]}


def judge_tells_apart(a: Any, b: Any) -> bool:
    """Some reply (a candidate returning `a` or `b` itself) passes against one and not the other."""
    replies = [parse_reply(encode_value(a)), parse_reply(encode_value(b))]
    return any(tree_matches(a, reply) != tree_matches(b, reply) for reply in replies)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES, JSON_VALUES)
def test_items_the_judge_tells_apart_never_share_a_key(a: Any, b: Any) -> None:
    if judge_tells_apart(a, b):
        assert key_of(call_item(a)) != key_of(call_item(b)), (a, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (None, math.inf),
        (None, math.nan),
        (None, -math.inf),
        (math.inf, -math.inf),
        (math.nan, math.inf),
        (1, 1.0),
        (1, True),
        (1.0, True),
        (0, False),
        ([None], [math.nan]),
        ({"a": None}, {"a": math.inf}),
    ],
)
def test_nan_infinities_null_and_number_kinds_have_their_own_keys(a: Any, b: Any) -> None:
    assert judge_tells_apart(a, b)
    assert key_of(call_item(a)) != key_of(call_item(b))


def test_values_the_schema_refuses_give_a_422_not_a_key() -> None:
    deep: Any = 0
    for _ in range(400):
        deep = [deep]
    with pytest.raises(ValidationError, match="expected nest deeper"):
        CodeItem.model_validate(call_item(deep))
    for tolerance in (math.inf, -math.inf, math.nan):
        for test in (
            {"kind": "call", "fn": "f", "expected": 1.0, "float_tolerance": tolerance},
            {"kind": "stdio", "stdout": "1.0", "float_tolerance": tolerance},
        ):
            with pytest.raises(ValidationError):
                CodeItem.model_validate({"code": "x", "tests": [test]})
        with pytest.raises(ValidationError):
            CodeItem.model_validate({**call_item(1), "timeout_s": tolerance})


def test_a_key_that_json_cannot_write_is_no_key_not_a_crash() -> None:
    item = CodeItem.model_validate(call_item(1))
    deep: Any = 0
    for _ in range(100_000):
        deep = [deep]
    job: Any = build_job(item, "def f(): pass", SETTINGS)
    job["deep"] = deep
    assert verdict_key(item, "def f(): pass", job) is None


def result(
    *statuses: TestStatus, details: tuple[str, ...] = (), status: Status | None = None
) -> CodeResult:
    verdicts = [
        TestVerdict(status=s, elapsed_s=0.1, detail=details[i] if i < len(details) else "")
        for i, s in enumerate(statuses)
    ]
    passed = sum(s is TestStatus.passed for s in statuses)
    final = status or (Status.passed if passed == len(statuses) else Status.failed)
    reward = None if final is Status.error else passed / len(statuses)
    return CodeResult(id="x", status=final, reward=reward, detail="", elapsed_s=1.0, tests=verdicts)


P, F, T = TestStatus.passed, TestStatus.failed, TestStatus.timed_out


R, C = TestStatus.runtime_error, TestStatus.compile_error
NOT_CLEANED = "not run: the sandbox could not be cleaned after this program"


@pytest.mark.parametrize(
    ("label", "res", "reports", "cacheable"),
    [
        ("all passed", result(P, P), [stdio(), stdio()], True),
        ("a wrong answer", result(P, F), [stdio(), stdio()], True),
        ("memory", result(P, TestStatus.memory_exceeded), [stdio(), stdio(signal=9)], True),
        ("runtime error", result(R, details=("ZeroDivisionError",)), [stdio(exit_code=1)], True),
        ("compile error", result(C, details=("x.cpp:1: error",)), [compile_error()], True),
        ("a timed-out test", result(P, T, F), [stdio(), stdio(timed_out=True), stdio()], False),
        ("timed out item", result(T, T, status=Status.timed_out), [], False),
        ("verifier error", result(status=Status.error), [], False),
        (
            "compile timeout",
            result(C, details=("compilation timed out",)),
            [compile_error("compilation timed out", timed_out=True)],
            False,
        ),
        (
            "a compile error that only mentions a time-out",  # the words decide nothing
            result(C, details=("error: 'timed out' was not declared",)),
            [compile_error("error: 'timed out' was not declared")],
            True,
        ),
        (
            "sandbox could not run a test",
            result(P, R, details=("", NOT_CLEANED)),
            [stdio(), skipped(SkipReason.NOT_CLEANED)],
            False,
        ),
        (
            "spawner lost",
            result(R, details=("not run: the sandbox's process spawner was killed",)),
            [skipped(SkipReason.SPAWNER_LOST)],
            False,
        ),
        (
            "a judge failed on an earlier test",
            result(P, R),
            [stdio(), skipped(SkipReason.JUDGE_FAILED)],
            False,
        ),
        (
            "a runtime error whose stderr names the sandbox",  # the words decide nothing
            result(R, details=("exit code 1: sandbox.py: no such file",)),
            [stdio(exit_code=1, stderr="sandbox.py: no such file")],
            True,
        ),
        (
            "skipped after the program's own crash",
            result(R, F, details=("exit code 1", "not run: an earlier test failed")),
            [stdio(exit_code=1), skipped(SkipReason.AFTER_FAILURE)],
            True,
        ),
        (
            "a time-out hidden behind a wrong answer (stop_on_first_failure)",
            result(F, F),
            [stdio(stdout="wrong"), stdio(exit_code=None, timed_out=True)],
            False,
        ),
        (
            "a call that timed out with an answer too large",
            result(F, details=("return value too large",)),
            [call([{"ready": True}], timed_out=True, response_over=True)],
            False,
        ),
    ],
)
def test_what_may_serve_later_requests(
    label: str, res: CodeResult, reports: list[RunReport], cacheable: bool
) -> None:
    assert is_cacheable(res, reports) is cacheable, label


def test_cache_evicts_least_recently_used_by_count() -> None:
    cache = VerdictCache(max_items=2, max_bytes=10**9)
    a, b, c = b"a" * 32, b"b" * 32, b"c" * 32
    cache.put(a, result(P))
    cache.put(b, result(F))
    assert cache.get(a) is not None  # a is now the most recent
    cache.put(c, result(P))
    assert cache.get(b) is None
    assert cache.get(a) is not None and cache.get(c) is not None
    assert len(cache) == 2


def test_cache_evicts_by_bytes_and_never_exceeds_them() -> None:
    big = result(*([P] * 50), details=tuple("x" * 3000 for _ in range(50)))
    size = len(big.model_dump_json()) + 512
    cache = VerdictCache(max_items=100, max_bytes=int(size * 2.5))
    for n in range(5):
        cache.put(bytes([n]) * 32, big)
        assert cache.max_bytes is not None and cache.bytes <= cache.max_bytes
    assert len(cache) == 2
    cache.put(b"z" * 32, result(*([P] * 200), details=tuple("y" * 4000 for _ in range(200))))
    assert cache.get(b"z" * 32) is None  # larger than the whole cache: not kept
    assert len(cache) == 2


def test_replacing_a_key_does_not_count_its_bytes_twice() -> None:
    cache = VerdictCache(max_items=10, max_bytes=10**6)
    cache.put(b"k" * 32, result(P))
    once = cache.bytes
    cache.put(b"k" * 32, result(P))
    assert cache.bytes == once


def test_disabled_cache_keeps_nothing() -> None:
    cache = VerdictCache(max_items=0, max_bytes=10**6)
    cache.put(b"k" * 32, result(P))
    assert cache.get(b"k" * 32) is None and len(cache) == 0


def item_with_id(item_id: str) -> CodeItem:
    return CodeItem.model_validate({**BASE, "id": item_id})


def test_claims_in_a_batch_copy_the_first_verdict_and_cache_it() -> None:
    async def scenario() -> list[CodeResult]:
        reuse = VerdictReuse(CodeSettings(is_enabled=False))
        batch: Batch = {}
        key = b"k" * 32
        runs = 0

        async def one(item_id: str) -> CodeResult:
            nonlocal runs
            async with reuse.claim(key, item_with_id(item_id), batch) as claim:
                if claim.copied is not None:
                    return claim.copied
                runs += 1
                await asyncio.sleep(0.01)
                done = result(P).model_copy(update={"id": item_id})
                claim.publish(done, [stdio(stdout="ok\n")])
                return done

        results = list(await asyncio.gather(*(one(str(i)) for i in range(4))))
        assert runs == 1
        later = await one("later")
        assert runs == 1
        return [*results, later]

    results = asyncio.run(scenario())
    assert [r.id for r in results] == ["0", "1", "2", "3", "later"]
    assert [r.reused for r in results] == [None, "batch", "batch", "batch", "cache"]
    assert all(r.elapsed_s == 0.0 for r in results[1:])


def test_an_error_verdict_is_not_copied_nor_cached_and_copies_run_themselves() -> None:
    async def scenario() -> tuple[int, list[CodeResult], int]:
        reuse = VerdictReuse(CodeSettings(is_enabled=False))
        batch: Batch = {}
        key = b"e" * 32
        runs = 0

        async def one(item_id: str) -> CodeResult:
            nonlocal runs
            async with reuse.claim(key, item_with_id(item_id), batch) as claim:
                if claim.copied is not None:
                    return claim.copied
                runs += 1
                await asyncio.sleep(0.01)
                done = result(status=Status.error)
                claim.publish(done, [])
                return done

        results = list(await asyncio.gather(*(one(str(i)) for i in range(3))))
        return runs, results, len(reuse.cache)

    runs, results, cached = asyncio.run(scenario())
    assert runs == 3 and cached == 0
    assert all(r.reused is None for r in results)


def test_a_runner_that_fails_releases_the_waiters() -> None:
    async def scenario() -> list[Any]:
        reuse = VerdictReuse(CodeSettings(is_enabled=False))
        batch: Batch = {}
        key = b"f" * 32

        async def one(item_id: str, crash: bool) -> str:
            async with reuse.claim(key, item_with_id(item_id), batch) as claim:
                if claim.copied is not None:
                    return "copied"
                await asyncio.sleep(0.01)
                if crash:
                    raise RuntimeError("verifier fault")
                return "ran"

        return list(await asyncio.gather(one("0", True), one("1", False), return_exceptions=True))

    first, second = asyncio.run(scenario())
    assert isinstance(first, RuntimeError)
    assert second == "ran"


def test_timed_out_verdict_is_copied_in_the_batch_but_not_cached() -> None:
    async def scenario() -> tuple[list[CodeResult], int]:
        reuse = VerdictReuse(CodeSettings(is_enabled=False))
        batch: Batch = {}

        async def one(item_id: str) -> CodeResult:
            async with reuse.claim(b"t" * 32, item_with_id(item_id), batch) as claim:
                if claim.copied is not None:
                    return claim.copied
                await asyncio.sleep(0.01)
                done = result(T, status=Status.timed_out)
                claim.publish(done, [])
                return done

        results = list(await asyncio.gather(one("0"), one("1")))
        return results, len(reuse.cache)

    results, cached = asyncio.run(scenario())
    assert [r.reused for r in results] == [None, "batch"]
    assert cached == 0


def test_dedup_off_runs_every_item() -> None:
    async def scenario() -> int:
        reuse = VerdictReuse(CodeSettings(is_enabled=False, is_dedup_enabled=False, cache_items=0))
        batch: Batch = {}
        runs = 0

        async def one(item_id: str) -> None:
            nonlocal runs
            key = reuse.key(item_with_id(item_id), "p", {"tests": []})
            assert key is None
            async with reuse.claim(key, item_with_id(item_id), batch) as claim:
                assert claim.copied is None
                runs += 1
                await asyncio.sleep(0)

        await asyncio.gather(one("0"), one("1"))
        return runs

    assert asyncio.run(scenario()) == 2


def test_the_service_reuses_verdicts_by_default() -> None:
    settings = CodeSettings()
    assert settings.is_dedup_enabled is True
    assert settings.cache_items > 0 and settings.cache_mb > 0
