"""Typed dependencies: how handlers reach the pools and settings kept in `app.state`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
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


def domain_verifier(name: str) -> Callable[[Request], Any]:
    """A dependency returning the verifier the lifespan stored as `app.state.<name>`."""

    def get(request: Request) -> Any:
        return getattr(request.app.state, name)

    get.__name__ = f"get_{name}_verifier"
    return get


SettingsDep = Annotated[VerifierSettings, Depends(get_settings)]
MetricsDep = Annotated[ServiceMetrics, Depends(get_metrics)]
LimitsDep = Annotated[LimitsSettings, Depends(get_limits)]


_TEST_TEXT_FIELDS = ("code", "stdin", "stdout")


def _too_long(where: str, value: object, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        raise PayloadTooLarge(f"{where} has {len(value)} characters; max_item_chars={limit}")


def enforce_batch_limits(
    items: Sequence[Any], limits: LimitsSettings, text_fields: Sequence[str]
) -> None:
    """413 for a batch with too many items, tests or an over-long text field, naming the limit.

    Items of every domain pass through here (`/verify` too); a `tests` list is checked wherever
    an item has one.
    """
    if len(items) > limits.max_batch_items:
        raise PayloadTooLarge(
            f"batch has {len(items)} items; max_batch_items={limits.max_batch_items}"
        )
    for index, item in enumerate(items):
        for name in text_fields:
            _too_long(f"items[{index}].{name}", getattr(item, name, None), limits.max_item_chars)
        tests = getattr(item, "tests", None) or ()
        if len(tests) > limits.max_tests_per_item:
            raise PayloadTooLarge(
                f"items[{index}].tests has {len(tests)} tests; "
                f"max_tests_per_item={limits.max_tests_per_item}"
            )
        for number, test in enumerate(tests):
            for name in _TEST_TEXT_FIELDS:
                where = f"items[{index}].tests[{number}].{name}"
                _too_long(where, getattr(test, name, None), limits.max_item_chars)
