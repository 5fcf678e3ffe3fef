"""Typed dependencies: how handlers reach the pools and settings kept in `app.state`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

from fastapi import Depends, Request

from services.verifier.errors import PayloadTooLarge
from services.verifier.metrics import ServiceMetrics
from services.verifier.settings import LimitsSettings, VerifierSettings


def get_settings(request: Request) -> VerifierSettings:
    settings: VerifierSettings = request.app.state.settings
    return settings


def get_metrics(request: Request) -> ServiceMetrics:
    metrics: ServiceMetrics = request.app.state.metrics
    return metrics


def get_limits(request: Request) -> LimitsSettings:
    return get_settings(request).limits


SettingsDep = Annotated[VerifierSettings, Depends(get_settings)]
MetricsDep = Annotated[ServiceMetrics, Depends(get_metrics)]
LimitsDep = Annotated[LimitsSettings, Depends(get_limits)]


def enforce_batch_limits(
    items: Sequence[Any], limits: LimitsSettings, text_fields: Sequence[str]
) -> None:
    """413 for a batch with too many items or an over-long text field, naming the limit."""
    if len(items) > limits.max_batch_items:
        raise PayloadTooLarge(
            f"batch has {len(items)} items; max_batch_items={limits.max_batch_items}"
        )
    for index, item in enumerate(items):
        for name in text_fields:
            value = getattr(item, name, None)
            if isinstance(value, str) and len(value) > limits.max_item_chars:
                raise PayloadTooLarge(
                    f"items[{index}].{name} has {len(value)} characters; "
                    f"max_item_chars={limits.max_item_chars}"
                )
