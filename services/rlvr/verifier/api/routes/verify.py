"""`POST /verify` (a mixed-domain batch) and `POST /openrlhf` (OpenRLHF's remote reward contract).

Both split the batch by domain, run each domain's `verify_batch` concurrently and put the results
back in input order. The handlers stay thin: the grouping and mapping are pure functions below.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter, Request
from pydantic import ValidationError

from rlvr.schemas.common import ErrorResponse, ItemResult, Status
from rlvr.schemas.verify import (
    RESULT_TYPES,
    VERIFY_ITEM_ADAPTER,
    LabelError,
    OpenRLHFRequest,
    OpenRLHFResponse,
    VerifyItem,
    VerifyRequest,
    VerifyResponse,
    VerifyResult,
    item_from_label,
    label_text,
    response_of,
    with_problem,
)
from rlvr.verifier.api.batch import judge_batch
from rlvr.verifier.api.body import BoundedJsonRoute
from rlvr.verifier.api.cancel import cancel_on_disconnect
from rlvr.verifier.api.deps import LimitsDep, MetricsDep, enforce_batch_limits
from rlvr.verifier.domains.batching import MissingResultError, every_result
from rlvr.verifier.errors import VerifierError
from rlvr.verifier.metrics import ServiceMetrics

router = APIRouter(tags=["mixed"], route_class=BoundedJsonRoute)

_TEXT_FIELDS = ("response", "answer", "code", "proof", "statement", "prompt")
_ERRORS: dict[int | str, dict[str, Any]] = {
    413: {"model": ErrorResponse},
    422: {"model": ErrorResponse},
    503: {"model": ErrorResponse},
}


class InvalidLabels(VerifierError):
    status_code = 422
    code = "validation_error"


def group_by_domain(items: Sequence[VerifyItem]) -> dict[str, list[int]]:
    """Indices of the items of each domain, in input order."""
    groups: dict[str, list[int]] = {}
    for index, item in enumerate(items):
        groups.setdefault(item.domain, []).append(index)
    return groups


def tag_result(domain: str, result: ItemResult) -> VerifyResult:
    """A domain's result as a mixed result (the same fields plus `domain`).

    `model_construct`: the domain already validated the result; re-validating 1,000s per batch
    would only cost time.
    """
    fields = {**dict(result), "domain": domain}
    return RESULT_TYPES[domain].model_construct(set(fields), **fields)


async def verify_mixed(
    request: Request, items: Sequence[VerifyItem], metrics: ServiceMetrics
) -> list[VerifyResult]:
    """Fan the items out to their domains' verifiers concurrently; results in input order."""
    groups = group_by_domain(items)
    verifiers = request.app.state.verifiers

    async def run(domain: str, indices: list[int]) -> list[VerifyResult]:
        started = time.perf_counter()
        results = await judge_batch(domain, verifiers[domain], [items[i] for i in indices])
        elapsed_s = time.perf_counter() - started
        metrics.defer_batch(request.scope["state"], domain, results, elapsed_s)
        return [tag_result(domain, r) for r in results]

    tasks = [asyncio.ensure_future(run(d, idx)) for d, idx in groups.items()]
    try:
        per_domain = await asyncio.gather(*tasks)
    except BaseException:  # e.g. one domain's queue is full (503): stop the others' work too
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
    ordered: list[VerifyResult | None] = [None] * len(items)
    for indices, results in zip(groups.values(), per_domain, strict=True):
        for index, result in zip(indices, results, strict=True):
            ordered[index] = result
    return every_result(ordered, "mixed batch")


@router.post(
    "/verify",
    response_model=VerifyResponse,
    summary="Judge a mixed batch (math, code, lean, ifeval, choice, answer, gym items)",
    responses=_ERRORS,
)
async def verify(
    body: VerifyRequest, request: Request, limits: LimitsDep, metrics: MetricsDep
) -> VerifyResponse:
    """Each item carries `domain` plus that domain's fields; one result per item, in order.

    The domains' batches run concurrently; each result carries its item's `domain`.
    """
    enforce_batch_limits(body.items, limits, _TEXT_FIELDS)
    return VerifyResponse(
        results=await cancel_on_disconnect(request, verify_mixed(request, body.items, metrics))
    )


_PROMPT_MISMATCH = "verifier_prompt_mismatch"


def items_from_openrlhf(body: OpenRLHFRequest) -> list[VerifyItem | None]:
    """Mixed items from OpenRLHF's parallel lists, None where the query does not start with its
    prompt (that sample is an error: never judged with the prompt in it); a bad label is a 422
    naming its index. Pure, linear per sample; the handler runs it off the event loop."""
    if body.labels is None:
        raise InvalidLabels("no labels: start OpenRLHF with --label_key <ground-truth column>")
    if not (len(body.query) == len(body.prompts) == len(body.labels)):
        raise InvalidLabels(
            f"query, prompts and labels must have the same length; got {len(body.query)}, "
            f"{len(body.prompts)}, {len(body.labels)}"
        )
    items: list[VerifyItem | None] = []
    for index, (query, prompt, label) in enumerate(
        zip(body.query, body.prompts, body.labels, strict=True)
    ):
        response = response_of(query, prompt)
        try:
            # the prompt is the problem: an answer restating its expressions is refused
            raw = with_problem(item_from_label(label_text(label), response or ""), prompt)
            item = VERIFY_ITEM_ADAPTER.validate_python(raw)
        except LabelError as exc:
            raise InvalidLabels(f"labels[{index}]: {exc}") from exc
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()[:5]
            )
            raise InvalidLabels(f"labels[{index}]: {problems}") from exc
        items.append(item if response is not None else None)
    return items


def prompt_mismatch_result() -> ItemResult:
    return ItemResult(
        status=Status.error,
        reward=None,
        detail="the query does not start with its prompt: not judged (it would grade the prompt)",
        elapsed_s=0.0,
    )


def openrlhf_response(
    results: Sequence[ItemResult], mismatched: Sequence[bool] | None = None
) -> OpenRLHFResponse:
    """Rewards (a verifier error scores 0.0: OpenRLHF has no way to drop a sample) and logs:
    per-sample 0/1 indicators of each status, and of a query that did not start with its
    prompt (`verifier_prompt_mismatch`, also counted as `verifier_error`)."""
    rewards = [r.reward if r.reward is not None else 0.0 for r in results]
    extra_logs = {
        f"verifier_{status.value}": [float(r.status is status) for r in results]
        for status in Status
    }
    extra_logs[_PROMPT_MISMATCH] = [float(m) for m in (mismatched or [False] * len(results))]
    return OpenRLHFResponse(rewards=rewards, scores=list(rewards), extra_logs=extra_logs)


@router.post(
    "/openrlhf",
    response_model=OpenRLHFResponse,
    summary="OpenRLHF remote reward (`--remote_rm_url http://HOST:PORT/openrlhf`)",
    responses=_ERRORS,
)
async def openrlhf(
    body: OpenRLHFRequest, request: Request, limits: LimitsDep, metrics: MetricsDep
) -> OpenRLHFResponse:
    """`{"query", "prompts", "labels"}` → `{"rewards", "scores", "extra_logs"}`.

    The response judged is the query with its prompt removed (leading special tokens and
    whitespace differences tolerated; trailing chat-template tokens such as `<|im_end|>`
    dropped). A query that does not start with its prompt scores 0.0 and is flagged in
    `extra_logs` (`verifier_prompt_mismatch`, `verifier_error`). A label is a plain string (a
    math ground truth), a number, or a JSON object with `domain` and that domain's fields;
    anything else (a Python `repr` dict, a JSON object without `domain`) is a 422.
    `extra_logs` holds per-sample 0/1 indicators of each status (`verifier_passed`, …).
    """
    enforce_batch_limits(body.query, limits, ())  # the sample count, before any per-sample work
    maybe_items = await asyncio.to_thread(items_from_openrlhf, body)
    items = [item for item in maybe_items if item is not None]
    enforce_batch_limits(items, limits, _TEXT_FIELDS)
    judged = await cancel_on_disconnect(request, verify_mixed(request, items, metrics))
    results = rejoined(maybe_items, judged)
    return openrlhf_response(results, [item is None for item in maybe_items])


def rejoined(
    maybe_items: Sequence[VerifyItem | None], judged: Sequence[ItemResult]
) -> list[ItemResult]:
    """One result per sample, in order: the judged items' results where there was an item, the
    prompt-mismatch error where there was none. A count that does not match is the verifier's
    bug: MissingResultError (a 500 naming it), never a reward shifted onto another sample."""
    expected = sum(item is not None for item in maybe_items)
    if len(judged) != expected:
        raise MissingResultError(f"openrlhf batch: {len(judged)} results for {expected} items")
    answers = iter(judged)
    return [next(answers) if item is not None else prompt_mismatch_result() for item in maybe_items]
