"""The one way a single-domain batch endpoint runs: limits, cancel-on-disconnect, metrics."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, TypeVar

from fastapi import Request

from rlvr.schemas.common import ItemResult
from rlvr.verifier.api.cancel import cancel_on_disconnect
from rlvr.verifier.api.deps import enforce_batch_limits, get_limits, get_metrics
from rlvr.verifier.domains.base import DomainVerifier

ResultT = TypeVar("ResultT", bound=ItemResult)


async def run_domain_batch(
    request: Request,
    endpoint: str,
    verifier: DomainVerifier[Any, ResultT],
    items: Sequence[Any],
    text_fields: Sequence[str],
) -> list[ResultT]:
    """413 for a batch over the limits; else one result per item, in order, counted in metrics.

    A client that disconnects cancels the batch (ClientDisconnected).
    """
    enforce_batch_limits(items, get_limits(request), text_fields)
    started = time.perf_counter()
    results = list(await cancel_on_disconnect(request, verifier.verify_batch(items)))
    get_metrics(request).observe_batch(endpoint, results, time.perf_counter() - started)
    return results
