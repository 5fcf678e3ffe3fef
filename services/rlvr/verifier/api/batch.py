"""The one way a single-domain batch endpoint runs: limits, cancel-on-disconnect, metrics."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from fastapi import Request, Response
from pydantic import BaseModel

from rlvr.schemas.common import ItemResult, Status, WireModel, is_unicode_text
from rlvr.schemas.lean import LeanResult
from rlvr.schemas.math import MathResult
from rlvr.verifier.api.cancel import cancel_on_disconnect
from rlvr.verifier.api.deps import enforce_batch_limits, get_limits, get_metrics
from rlvr.verifier.domains.base import DomainVerifier
from rlvr.verifier.domains.batching import item_result

ResultT = TypeVar("ResultT", bound=ItemResult)

# Domains whose verifiers expect valid Unicode in the candidate's text: an item whose text is
# not (a lone surrogate) is judged here, `failed`, like /code's domain judges its own.
_JUDGED_HERE: dict[str, type[ItemResult]] = {"math": MathResult, "lean": LeanResult}


def undecodable_field(item: Any) -> str | None:
    """The first of the item's candidate-text fields that is not valid Unicode, or None."""
    for name in type(item).candidate_text_fields if isinstance(item, WireModel) else ():
        value = getattr(item, name, None)
        if isinstance(value, str) and not is_unicode_text(value):
            return str(name)
    return None


async def judge_batch(
    domain: str, verifier: DomainVerifier[Any, Any], items: Sequence[Any]
) -> list[Any]:
    """`verifier.verify_batch(items)`, except that an item whose candidate text is not valid
    Unicode is `failed` here (its candidate wrote it); results in input order."""
    result_type = _JUDGED_HERE.get(domain)
    refused = {}
    for index, item in enumerate(items if result_type is not None else ()):
        name = undecodable_field(item)
        if name is not None:
            refused[index] = name
    if result_type is None or not refused:
        return list(await verifier.verify_batch(items))
    kept = [item for index, item in enumerate(items) if index not in refused]
    judged = iter(await verifier.verify_batch(kept) if kept else ())
    results = []
    for index, item in enumerate(items):
        if index in refused:
            detail = f"the {refused[index]} is not valid Unicode text (a lone surrogate)"
            results.append(item_result(result_type, item.id, Status.failed, detail, 0.0))
        else:
            results.append(next(judged))
    return results


# Below this many results a response is serialised on the loop: a thread hop would cost more.
OFFLOAD_RESULTS = 256


async def batch_response(
    response_type: Callable[..., BaseModel], results: Sequence[Any]
) -> Response:
    """The JSON response of a batch's results, built and serialised off the event loop when
    the batch is large (4,000 results cost the loop ~50 ms to validate and dump)."""

    def render() -> bytes:
        return response_type(results=results).model_dump_json().encode()

    body = await asyncio.to_thread(render) if len(results) > OFFLOAD_RESULTS else render()
    return Response(content=body, media_type="application/json")


async def run_domain_batch(
    request: Request,
    endpoint: str,
    verifier: DomainVerifier[Any, ResultT],
    items: Sequence[Any],
    text_fields: Sequence[str],
) -> list[ResultT]:
    """413 for a batch over the limits; else one result per item, in order, counted in metrics
    once the response is under way (a request that ends in a 500 counts no verdicts).

    A client that disconnects cancels the batch (ClientDisconnected).
    """
    enforce_batch_limits(items, get_limits(request), text_fields)
    started = time.perf_counter()
    results = list(await cancel_on_disconnect(request, judge_batch(endpoint, verifier, items)))
    elapsed_s = time.perf_counter() - started
    get_metrics(request).defer_batch(request.scope["state"], endpoint, results, elapsed_s)
    return results
