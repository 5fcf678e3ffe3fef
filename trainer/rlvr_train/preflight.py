"""Checks that run before a model loads: the verifier answers, the domains the rewards need are
ready, the API key is accepted, and every row has the columns its rewards read.

A run that would fail at its first reward call (minutes in, after loading and generating) fails
here instead, in one line that says what is missing and what was found.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import httpx
from pydantic import ValidationError

from rlvr.adapters.trl import DOMAIN_COLUMNS
from rlvr.client._base import resolve_api_key, resolve_base_urls
from rlvr.schemas.common import HealthResponse
from rlvr_train.errors import UsageError

# A reward's name -> the verifier domain it sends every row to; `verify` routes by each row's
# `domain`. A verifiable reward the adapter adds is routed like its domain when the names match.
ROUTED_BY_ROW = "verify"
# Rewards that never call the verifier (they still read columns, see `COLUMNS_READ`).
LOCAL_REWARDS = frozenset({"format", "think_format", "reward_model"})
COLUMNS_READ: dict[str, tuple[str, ...]] = {"format": ("domain",)}
START_HINT = "start it with `rlvr-verifier serve` (or `docker compose up -d`), or point "
START_HINT += "--verifier_url / $VERIFIER_URL at a running one"


def domains_needed(reward_names: Sequence[str], rows: Sequence[Mapping[str, Any]]) -> set[str]:
    """Verifier domains the rewards will call on these rows."""
    needed: set[str] = set()
    for name in reward_names:
        if name in LOCAL_REWARDS:
            continue
        if name == ROUTED_BY_ROW:
            needed |= {str(row.get("domain")) for row in rows}
        else:
            needed.add(name)
    return needed


def columns_found(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """Columns that hold a value in at least one row."""
    found: dict[str, None] = {}
    for row in rows:
        found |= {key: None for key, value in row.items() if value is not None}
    return list(found)


def missing_columns(reward_names: Sequence[str], rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """One message per (reward, column) that some rows lack, with the count and a first row."""
    problems: list[str] = []
    for name in reward_names:
        for column, row_filter in _columns_of(name):
            lacking = [row for row in rows if row_filter(row) and row.get(column) in (None, "", [])]
            if lacking:
                first = lacking[0].get("id") or "?"
                problems.append(
                    f"reward `{name}` needs column `{column}`: {len(lacking)} of {len(rows)} "
                    f"rows lack it (first: {first})"
                )
    return problems


def _columns_of(name: str) -> list[tuple[str, Any]]:
    if name == ROUTED_BY_ROW:
        return [("domain", lambda row: True)] + [
            (required, lambda row, d=domain: row.get("domain") == d)
            for domain, (required, _) in DOMAIN_COLUMNS.items()
        ]
    if name in DOMAIN_COLUMNS:
        return [(DOMAIN_COLUMNS[name][0], lambda row: True)]
    return [(column, lambda row: True) for column in COLUMNS_READ.get(name, ())]


def check_data(reward_names: Sequence[str], rows: Sequence[Mapping[str, Any]]) -> None:
    """Raise a `UsageError` naming what is missing and listing the columns found."""
    if not rows:
        raise UsageError("data: no rows to train on (check --datasets and --dataset_size)")
    problems = missing_columns(reward_names, rows)
    if problems:
        raise UsageError(
            f"data: {'; '.join(problems)}; columns found: {', '.join(columns_found(rows))}"
        )


def fetch_health(url: str, timeout_s: float = 10.0) -> HealthResponse:
    """`GET /health` of one endpoint; an unreachable or strange answer is a `UsageError`."""
    try:
        response = httpx.get(url.rstrip("/") + "/health", timeout=timeout_s)
    except httpx.HTTPError as exc:
        raise UsageError(f"verifier not reachable at {url} ({_reason(exc)}): {START_HINT}") from exc
    if response.status_code != 200:
        raise UsageError(f"verifier at {url}: /health answered HTTP {response.status_code}")
    try:
        return HealthResponse.model_validate_json(response.content)
    except ValidationError as exc:
        raise UsageError(f"{url} answered /health, but not as the rlvr verifier does") from exc


def _reason(exc: httpx.HTTPError) -> str:
    text = str(exc) or type(exc).__name__
    return text.splitlines()[0]


def check_domains(url: str, health: HealthResponse, needed: set[str]) -> None:
    """Every needed domain is served and ready."""
    for domain in sorted(needed):
        state = health.domains.get(domain)
        if state is None:
            served = ", ".join(sorted(health.domains)) or "none"
            raise UsageError(
                f"verifier at {url} does not serve `{domain}` (it serves: {served}); "
                "enable it there or drop the rows/rewards that need it"
            )
        if not state.ok:
            raise UsageError(
                f"verifier at {url}: domain `{domain}` is not ready: {state.detail or 'no reason'}"
            )


def check_api_key(url: str, api_key: str | None, timeout_s: float = 10.0) -> None:
    """An empty batch to `/verify` with the key: a 401 means the key is missing or wrong (any
    other answer means it got past the key check; an empty batch verifies nothing)."""
    headers = {"x-api-key": api_key} if api_key else {}
    try:
        response = httpx.post(
            url.rstrip("/") + "/verify", json={"items": []}, headers=headers, timeout=timeout_s
        )
    except httpx.HTTPError as exc:
        raise UsageError(f"verifier not reachable at {url} ({_reason(exc)}): {START_HINT}") from exc
    if response.status_code == 401:
        what = "rejected the API key" if api_key else "needs an API key"
        raise UsageError(f"verifier at {url} {what}: set $VERIFIER_API_KEY to the service's key")


def check_verifier(
    reward_names: Sequence[str], rows: Sequence[Mapping[str, Any]], verifier_url: str | None
) -> list[str]:
    """Check every endpoint the rewards will call; return the URLs checked (none: the rewards
    do not call the verifier)."""
    needed = domains_needed(reward_names, rows)
    if not needed:
        return []
    urls = resolve_base_urls(verifier_url)
    api_key = resolve_api_key(None)
    for url in urls:
        check_domains(url, fetch_health(url), needed)
        check_api_key(url, api_key)
    return urls


def run_preflight(
    reward_names: Sequence[str], rows: Sequence[Mapping[str, Any]], verifier_url: str | None
) -> str:
    """Data first (no network), then the verifier; the line printed when all is well."""
    check_data(reward_names, rows)
    urls = check_verifier(reward_names, rows, verifier_url)
    domains = sorted(domains_needed(reward_names, rows))
    where = f"verifier {', '.join(urls)} ready for {', '.join(domains)}" if urls else "no verifier"
    return f"preflight: {len(rows)} rows, rewards {', '.join(reward_names)}; {where}"
