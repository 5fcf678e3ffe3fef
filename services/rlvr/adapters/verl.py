"""verl reward functions backed by the verifier service: `compute_score` and its variants.

Point verl's custom reward function at this file:

    custom_reward_function.path=pkg://rlvr.adapters.verl
    custom_reward_function.name=compute_score          # or compute_score_batch / _async

`ground_truth` uses the same label format as `/openrlhf`: a plain string is a math ground truth;
a JSON object (or a dict) with `domain` carries that domain's fields; an open-instruct
instruction-following ground truth (JSON or Python-literal string, list or dict) is an `ifeval`
item. A `data_source` naming an instruction-following set (`is_ifeval_source`: IFEval, IFBench,
RLVR-IFeval, open-instruct's IF sets) routes its ground truth to `/ifeval` whatever it looks
like, so a malformed label there is a clear error, not a math answer. verl's `data_source` also
routes a plain ground truth to the reference-answer domains (see `routed_label`):
`choice/<name>` (the correct label; `extra_info["options"]` when the row has them),
`answer/<name>` (a reference or a list of aliases), `gym/<task>` or `reasoning_gym/<task>` (the
reasoning-gym entry).

The result is a dict: `score` (the reward; `error_score`, default 0.0, for a verifier error
because verl cannot drop a sample) plus numeric verdict fields `passed`, `failed`, `timed_out`,
`verifier_error` (0/1) that verl collects into `reward_extra_info`. They are numbers, not
strings, so verl can average them.

The service URL and key come from `base_url=` / `api_key=` keyword arguments (verl passes
`custom_reward_function.reward_kwargs` through) or `$VERIFIER_URL` / `$VERIFIER_API_KEY`; one
client per process and URL (verl's reward workers are processes). `compute_score_batch` sends a
whole batch in one (chunked, concurrent) call, for verl's `BatchRewardManager`;
`compute_score_async` is for verl's async reward loop.

A math sample carries its problem text (`extra_info["question"]`, `"problem"` or `"prompt"`, where
verl's preprocessing puts it) as the item's `problem`: an answer that restates one of the
problem's expressions is refused.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import weakref
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from rlvr.adapters._coalesce import Coalescer
from rlvr.client import AsyncVerifierClient, ConfigurationError, VerifierClient
from rlvr.formats.ifeval import FormatError, constraints_from_ground_truth
from rlvr.schemas.common import ItemResult, Status
from rlvr.schemas.template_tokens import strip_end_tokens
from rlvr.schemas.verify import (
    VERIFY_ITEM_ADAPTER,
    LabelError,
    VerifyResult,
    item_from_label,
    label_text,
    with_problem,
)

_lock = threading.Lock()
_sync_clients: dict[tuple[int, str | None, str | None], VerifierClient] = {}
_coalescers: weakref.WeakKeyDictionary[
    asyncio.AbstractEventLoop,
    dict[tuple[str | None, str | None], Coalescer[dict[str, Any], VerifyResult]],
] = weakref.WeakKeyDictionary()


def _sync_client(base_url: str | None, api_key: str | None) -> VerifierClient:
    # Keyed by pid: a forked worker must not reuse its parent's connections.
    key = (os.getpid(), base_url, api_key)
    with _lock:
        client = _sync_clients.get(key)
        if client is None:
            client = _sync_clients[key] = VerifierClient(base_url, api_key=api_key)
        return client


def _coalescer(
    base_url: str | None, api_key: str | None
) -> Coalescer[dict[str, Any], VerifyResult]:
    """Per event loop and service: concurrent single-sample calls go out as one batch."""
    per_loop = _coalescers.setdefault(asyncio.get_running_loop(), {})
    coalescer = per_loop.get((base_url, api_key))
    if coalescer is None:
        client = AsyncVerifierClient(base_url, api_key=api_key)
        coalescer = per_loop[(base_url, api_key)] = Coalescer(client.verify)
    return coalescer


_IFEVAL_SOURCE_MARKS = ("ifeval", "ifbench", "if_multi_constraints", "instruction_following")


def is_ifeval_source(data_source: str | None) -> bool:
    """Whether a verl `data_source` names an instruction-following dataset."""
    name = (data_source or "").lower().replace("-", "_")
    return any(mark in name for mark in _IFEVAL_SOURCE_MARKS)


ROUTED_PREFIXES = {"choice": "choice", "answer": "answer", "gym": "gym", "reasoning_gym": "gym"}


def _plain(value: Any) -> Any:
    """numpy arrays (verl's parquet columns) as lists; everything else as is."""
    tolist = getattr(value, "tolist", None)
    return tolist() if callable(tolist) else value


def routed_label(
    data_source: str | None, ground_truth: Any, extra_info: Mapping[str, Any] | None = None
) -> Any:
    """The label for a sample whose `data_source` names a reference-answer domain (pure).

    `choice/mmlu` + `"B"` -> a `/choice` label (options from `extra_info["options"]`);
    `answer/triviaqa` + `["Paris", ...]` -> an `/answer` label; `gym/<task>` + an entry (a dict
    or its JSON) -> a `/gym` label. A structured ground truth (with `domain`) and any other
    data source are left as they are.
    """
    prefix, _, name = (data_source or "").partition("/")
    domain = ROUTED_PREFIXES.get(prefix)
    ground_truth = _plain(ground_truth)
    if domain is None or (isinstance(ground_truth, Mapping) and "domain" in ground_truth):
        return ground_truth
    if isinstance(ground_truth, str) and ground_truth.lstrip().startswith("{"):
        try:
            decoded = json.loads(ground_truth)
        except json.JSONDecodeError:
            decoded = None
        if isinstance(decoded, dict):
            if "domain" in decoded:
                return ground_truth
            ground_truth = decoded
    extra = dict(extra_info or {})
    if domain == "choice":
        label: dict[str, Any] = {"domain": "choice", "answer": str(ground_truth)}
        if extra.get("options") is not None:
            label["options"] = [str(option) for option in _plain(extra["options"])]
        return label
    if domain == "answer":
        aliases = ground_truth if isinstance(ground_truth, list) else str(ground_truth)
        return {"domain": "answer", "answer": aliases}
    if not isinstance(ground_truth, Mapping):
        raise ConfigurationError(
            f"data_source {data_source!r}: ground_truth must be the reasoning-gym entry "
            "(question, answer, metadata)"
        )
    entry = dict(ground_truth)
    task = name or (entry.get("metadata") or {}).get("source_dataset")
    return {"domain": "gym", "task": task, "entry": entry}


def item_for(
    solution_str: str,
    ground_truth: Any,
    data_source: str | None = None,
    extra_info: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The `/verify` item for one sample (pure). Trailing chat-template tokens (a response
    decoded with special tokens kept ends in `<|im_end|>`) are not the candidate's text."""
    response = strip_end_tokens(solution_str)
    is_tagged = isinstance(ground_truth, Mapping) and "domain" in ground_truth
    if is_ifeval_source(data_source) and not is_tagged:
        try:
            constraints = constraints_from_ground_truth(ground_truth)
        except FormatError as exc:
            raise LabelError(f"{data_source}: {exc}") from exc
        return {"domain": "ifeval", "response": response, "constraints": constraints}
    ground_truth = routed_label(data_source, ground_truth, extra_info)
    if isinstance(ground_truth, Mapping):
        ground_truth = dict(ground_truth)
    return with_problem(item_from_label(label_text(ground_truth), response), problem_of(extra_info))


# where verl's preprocessing scripts keep the problem text in `extra_info` (gsm8k: `question`)
PROBLEM_KEYS = ("question", "problem", "prompt")


def problem_of(extra_info: Mapping[str, Any] | None) -> str | None:
    """The problem text of a sample, from its `extra_info` (verl does not pass the prompt to a
    reward function; its data preprocessing keeps the question there), or None."""
    if not isinstance(extra_info, Mapping):
        return None
    for key in PROBLEM_KEYS:
        value = extra_info.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return None


def checked_item(
    solution_str: str,
    ground_truth: Any,
    data_source: str | None = None,
    extra_info: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """`item_for`, validated here so a bad label fails its own sample, not a coalesced batch."""
    try:
        item = item_for(solution_str, ground_truth, data_source, extra_info)
        VERIFY_ITEM_ADAPTER.validate_python(item)
    except (ValidationError, LabelError) as exc:
        raise ConfigurationError(f"bad ground_truth for the verifier: {exc}") from exc
    return item


def score_dict(result: ItemResult, error_score: float = 0.0) -> dict[str, Any]:
    """verl's result dict for one verdict (pure)."""
    return {
        "score": result.reward if result.reward is not None else error_score,
        "passed": float(result.status is Status.passed),
        "failed": float(result.status is Status.failed),
        "timed_out": float(result.status is Status.timed_out),
        "verifier_error": float(result.status is Status.error),
    }


def compute_score(
    data_source: str,
    solution_str: str,
    ground_truth: Any,
    extra_info: Mapping[str, Any] | None = None,
    error_score: float = 0.0,
    base_url: str | None = None,
    api_key: str | None = None,
    **_: Any,
) -> dict[str, Any]:
    """Score one sample (blocking; verl's naive reward manager calls it per sample)."""
    client = _sync_client(base_url, api_key)
    (result,) = client.verify([item_for(solution_str, ground_truth, data_source, extra_info)])
    return score_dict(result, error_score)


async def compute_score_async(
    data_source: str,
    solution_str: str,
    ground_truth: Any,
    extra_info: Mapping[str, Any] | None = None,
    error_score: float = 0.0,
    base_url: str | None = None,
    api_key: str | None = None,
    **_: Any,
) -> dict[str, Any]:
    """Score one sample without blocking the event loop (verl's async reward loop).

    Samples scored concurrently on one event loop are sent together as one `/verify` batch.
    """
    item = checked_item(solution_str, ground_truth, data_source, extra_info)
    result = await _coalescer(base_url, api_key).submit(item)
    return score_dict(result, error_score)


def compute_score_batch(
    data_sources: Sequence[str],
    solution_strs: Sequence[str],
    ground_truths: Sequence[Any],
    extra_infos: Sequence[Mapping[str, Any] | None] | None = None,
    error_score: float = 0.0,
    base_url: str | None = None,
    api_key: str | None = None,
    **_: Any,
) -> list[dict[str, Any]]:
    """Score a whole batch in one (chunked, concurrent) call: verl's `BatchRewardManager`."""
    extras = list(extra_infos) if extra_infos is not None else [None] * len(solution_strs)
    items = [
        item_for(s, g, d, e)
        for s, g, d, e in zip(solution_strs, ground_truths, data_sources, extras, strict=True)
    ]
    results = _sync_client(base_url, api_key).verify(items)
    return [score_dict(r, error_score) for r in results]


__all__ = ["compute_score", "compute_score_async", "compute_score_batch", "is_ifeval_source"]
