"""Python client of the rlvr verifier: `VerifierClient` (blocking) and `AsyncVerifierClient`.

    with VerifierClient("http://127.0.0.1:8000") as client:      # or $VERIFIER_URL
        results = client.math([{"response": "... \\boxed{4}", "answer": "4"}])
        results[0].status, results[0].reward                      # passed, 1.0

Items are pydantic models from `rlvr.schemas` or plain dicts; results are typed and
in input order. Big batches are split into `chunk_size` chunks sent `max_concurrency` at a time;
`deadline_s` bounds a whole call; transport errors and 502/503/504 are retried with exponential
backoff and jitter (honouring `Retry-After`), 4xx never.

Exceptions (all importable from here):

    VerifierClientError            base of everything the client raises on purpose
    ├── ConfigurationError         no base URL, bad arguments, items failing local validation
    ├── TransportError             the service could not be reached (connect, read, write);
    │                              retried, raised when the attempts run out
    ├── DeadlineExceeded           the call's whole deadline (all chunks, all retries) passed
    ├── ProtocolError              a 2xx answer that breaks the contract (bad JSON, wrong count)
    └── ResponseError              the service answered with an error status
        ├── RequestRejected        4xx: the request itself is wrong; NEVER retried
        │   ├── AuthenticationError    401: missing or wrong API key
        │   ├── PayloadTooLarge        413: batch or item over a server limit (lower chunk_size)
        │   └── InvalidRequest         422: items do not match the wire contract
        └── ServiceError           5xx: 502/503/504 are retried (honouring Retry-After) and
            │                      raised when the attempts run out; other 5xx at once
            └── ServiceOverloaded  503: a pool's queue is full

A candidate's failures are never exceptions: they come back as results with a `status`.

Stateful Python sessions (a persistent interpreter per rollout, for tool-integrated RL):

    with client.session(timeout_s=10) as s:                       # POST /sessions
        s.run("x = 6 * 7")                                        # POST /sessions/{id}/run
        s.run("x").value                                          # '42'
    # async: `async with client.session() as s: await s.run(...)`; DELETE on leaving the block

A session stays on the endpoint that opened it. Opening is retried (503 + `Retry-After` at
capacity); a cell never is (it is not idempotent). A cell's outcome, a lost session included
(its endpoint gone: `status == "session_lost"`), is a `CellResult`, never an exception.
Importing this package imports httpx, pydantic and tenacity only (no server code).
"""

from rlvr.client._async import AsyncSession, AsyncVerifierClient, OpeningSession
from rlvr.client._base import API_KEY_ENV, DEFAULT_TIMEOUT, URL_ENV
from rlvr.client._errors import (
    AuthenticationError,
    ConfigurationError,
    DeadlineExceeded,
    InvalidRequest,
    PayloadTooLarge,
    ProtocolError,
    RequestRejected,
    ResponseError,
    ServiceError,
    ServiceOverloaded,
    TransportError,
    VerifierClientError,
)
from rlvr.client._retry import RetryPolicy
from rlvr.client._sync import Session, VerifierClient

__all__ = [
    "API_KEY_ENV",
    "DEFAULT_TIMEOUT",
    "URL_ENV",
    "AsyncSession",
    "AsyncVerifierClient",
    "AuthenticationError",
    "ConfigurationError",
    "DeadlineExceeded",
    "InvalidRequest",
    "OpeningSession",
    "PayloadTooLarge",
    "ProtocolError",
    "RequestRejected",
    "ResponseError",
    "RetryPolicy",
    "ServiceError",
    "ServiceOverloaded",
    "Session",
    "TransportError",
    "VerifierClient",
    "VerifierClientError",
]
