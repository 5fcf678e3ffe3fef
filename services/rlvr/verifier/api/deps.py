"""Typed dependencies: how handlers reach the pools and settings kept in `app.state`."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from functools import cache
from typing import Annotated, Any

from fastapi import Depends, Request

from rlvr.verifier.errors import PayloadTooLarge
from rlvr.verifier.metrics import ServiceMetrics
from rlvr.verifier.settings import LimitsSettings, VerifierSettings


def get_settings(request: Request) -> VerifierSettings:
    settings: VerifierSettings = request.app.state.settings
    return settings


def get_metrics(request: Request) -> ServiceMetrics:
    metrics: ServiceMetrics = request.app.state.metrics
    return metrics


def get_limits(request: Request) -> LimitsSettings:
    return get_settings(request).limits


def domain_verifier(name: str) -> Callable[[Request], Awaitable[Any]]:
    """A dependency returning the verifier the lifespan stored as `app.state.<name>`. Async,
    so FastAPI calls it on the loop: a sync dependency costs a thread hop per request (and the
    first one, the import of the thread pool's backend, held the loop ~150 ms)."""

    async def get(request: Request) -> Any:
        return getattr(request.app.state, name)

    get.__name__ = f"get_{name}_verifier"
    return get


async def _metrics_dependency(request: Request) -> ServiceMetrics:
    return get_metrics(request)


async def _limits_dependency(request: Request) -> LimitsSettings:
    return get_limits(request)


# Async dependencies, for the reason `domain_verifier` gives.
MetricsDep = Annotated[ServiceMetrics, Depends(_metrics_dependency)]
LimitsDep = Annotated[LimitsSettings, Depends(_limits_dependency)]


# Every text a test may carry, and the JSON values of a call test (measured as JSON text).
_TEST_TEXT_FIELDS = ("code", "stdin", "stdout", "input", "fn", "group")
_TEST_VALUE_FIELDS = ("args", "kwargs", "expected")
# Texts every item may carry besides its domain's own (`text_fields`): echoed or elaborated.
_ITEM_TEXT_FIELDS = ("id", "header")


def _too_long(where: str, value: object, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        raise PayloadTooLarge(f"{where} has {len(value)} characters; max_item_chars={limit}")


def _value_too_long(where: str, value: object, limit: int) -> None:
    """A JSON value (call args, expected) over `limit` characters once written as JSON
    (json.dumps is C, linear). One nested too deeply to write is left to the domain, which
    refuses it with its own message."""
    if isinstance(value, str):
        _too_long(where, value, limit)
    elif isinstance(value, list | dict) and value:
        try:
            size = len(json.dumps(value))
        except (RecursionError, ValueError, TypeError):
            return
        if size > limit:
            raise PayloadTooLarge(f"{where} is {size} characters as JSON; max_item_chars={limit}")


@cache
def _fields_of(kind: Any, text_fields: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The text fields and judge programs an item of class `kind` can hold: for a model, those
    it declares (looked up once per class: trying every name on every item, each miss a
    pydantic `__getattr__` raising, cost 14.5 us an item against 1.7 us, most of a cheap
    domain's per-item overhead); for anything else (extra fields allowed), every name.
    The third is `("tests",)` or `()`."""
    declared = getattr(kind, "model_fields", None)
    if getattr(kind, "model_config", {}).get("extra") == "allow":
        declared = None  # undeclared fields may hold text too
    names = (*text_fields, *_ITEM_TEXT_FIELDS)
    judges: tuple[str, ...] = ("checker", "interactor")
    tests: tuple[str, ...] = ("tests",)
    if isinstance(declared, dict):
        names = tuple(n for n in names if n in declared)
        judges = tuple(n for n in judges if n in declared)
        tests = tuple(n for n in tests if n in declared)
    return names, judges, tests


def _tests_of(item: Any, text_fields: tuple[str, ...]) -> Sequence[Any]:
    return getattr(item, "tests", None) or () if _fields_of(item.__class__, text_fields)[2] else ()


def enforce_batch_limits(
    items: Sequence[Any], limits: LimitsSettings, text_fields: Sequence[str]
) -> None:
    """413 for a batch with too many items or tests, or an over-long text field, naming the
    limit.

    Items of every domain pass through here (`/verify` too); a `tests` list, a checker's or an
    interactor's source are checked wherever an item has one.
    """
    if len(items) > limits.max_batch_items:
        raise PayloadTooLarge(
            f"batch has {len(items)} items; max_batch_items={limits.max_batch_items}"
        )
    fields = tuple(text_fields)
    total_tests = sum(len(_tests_of(item, fields)) for item in items)
    if total_tests > limits.max_tests_per_batch:
        raise PayloadTooLarge(
            f"batch has {total_tests} tests; max_tests_per_batch={limits.max_tests_per_batch}"
        )
    chars = limits.max_item_chars
    for index, item in enumerate(items):
        names, judges, _ = _fields_of(item.__class__, fields)
        for name in names:
            _too_long(f"items[{index}].{name}", getattr(item, name, None), chars)
        for judge in judges:
            program = getattr(item, judge, None)
            _too_long(f"items[{index}].{judge}.code", getattr(program, "code", None), chars)
        tests = _tests_of(item, fields)
        if len(tests) > limits.max_tests_per_item:
            raise PayloadTooLarge(
                f"items[{index}].tests has {len(tests)} tests; "
                f"max_tests_per_item={limits.max_tests_per_item}"
            )
        for number, test in enumerate(tests):
            where = f"items[{index}].tests[{number}]"
            for name in _TEST_TEXT_FIELDS:
                _too_long(f"{where}.{name}", getattr(test, name, None), chars)
            for name in _TEST_VALUE_FIELDS:
                _value_too_long(f"{where}.{name}", getattr(test, name, None), chars)
