"""Python client of the rlvr verifier: `VerifierClient` (blocking) and `AsyncVerifierClient`.

    with VerifierClient("http://127.0.0.1:8000") as client:      # or $VERIFIER_URL
        results = client.math([{"response": "... \\boxed{4}", "answer": "4"}])
        results[0].status, results[0].reward                      # passed, 1.0

Items are pydantic models from `services.verifier.schemas` or plain dicts; results are typed and
in input order. Big batches are split into `chunk_size` chunks sent `max_concurrency` at a time;
`deadline_s` bounds a whole call; transport errors and 502/503/504 are retried with exponential
backoff and jitter (honouring `Retry-After`), 4xx never. The exception tree is documented in
`services.verifier.client._errors`; all of it is re-exported here.

Importing this package imports httpx, pydantic and tenacity only (no server code).
"""

from services.verifier.client._async import AsyncVerifierClient
from services.verifier.client._base import API_KEY_ENV, DEFAULT_TIMEOUT, URL_ENV
from services.verifier.client._errors import (
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
from services.verifier.client._retry import RetryPolicy
from services.verifier.client._sync import VerifierClient

__all__ = [
    "API_KEY_ENV",
    "DEFAULT_TIMEOUT",
    "URL_ENV",
    "AsyncVerifierClient",
    "AuthenticationError",
    "ConfigurationError",
    "DeadlineExceeded",
    "InvalidRequest",
    "PayloadTooLarge",
    "ProtocolError",
    "RequestRejected",
    "ResponseError",
    "RetryPolicy",
    "ServiceError",
    "ServiceOverloaded",
    "TransportError",
    "VerifierClient",
    "VerifierClientError",
]
