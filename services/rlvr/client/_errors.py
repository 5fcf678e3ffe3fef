"""The client's exceptions; the tree (what is retried, what is raised) is documented in the
package docstring, `rlvr.client`.
"""

from __future__ import annotations


class VerifierClientError(Exception):
    """Base of every error the client raises on purpose."""


class ConfigurationError(VerifierClientError, ValueError):
    """The client was built or called with something it cannot use."""


class TransportError(VerifierClientError):
    """The service could not be reached, even after retries."""


class DeadlineExceeded(VerifierClientError, TimeoutError):
    """The whole call (every chunk and retry) did not finish within its deadline."""


class ProtocolError(VerifierClientError):
    """A successful status with a body that does not match the contract."""


# The code of a ResponseError whose body is not the service's JSON error (a proxy's answer, or
# an answer from something that is not the service).
NOT_THE_SERVICES_BODY = "http_error"


class ResponseError(VerifierClientError):
    """The service answered with an error status; fields come from its JSON error body."""

    def __init__(
        self,
        status_code: int,
        code: str,
        message: str,
        request_id: str | None = None,
        retry_after_s: float | None = None,
    ) -> None:
        super().__init__(f"HTTP {status_code} {code}: {message}")
        self.status_code = status_code
        self.code = code
        self.message = message
        self.request_id = request_id
        self.retry_after_s = retry_after_s


class RequestRejected(ResponseError):
    """4xx: sending the same request again would get the same answer, so it is never retried."""


class AuthenticationError(RequestRejected):
    """401: missing or wrong API key (`api_key=` or `VERIFIER_API_KEY`)."""


class PayloadTooLarge(RequestRejected):
    """413: the batch or an item is over a server limit; lower `chunk_size`."""


class InvalidRequest(RequestRejected):
    """422: the items do not match the wire contract."""


class ServiceError(ResponseError):
    """5xx: the service's own failure."""


class ServiceOverloaded(ServiceError):
    """503: a pool's queue is full; retried after `Retry-After`."""


def error_for_status(
    status_code: int,
    code: str,
    message: str,
    request_id: str | None = None,
    retry_after_s: float | None = None,
) -> ResponseError:
    """The most specific `ResponseError` subclass for an HTTP status."""
    cls: type[ResponseError]
    if status_code == 401:
        cls = AuthenticationError
    elif status_code == 413:
        cls = PayloadTooLarge
    elif status_code == 422:
        cls = InvalidRequest
    elif 400 <= status_code < 500:
        cls = RequestRejected
    elif status_code == 503:
        cls = ServiceOverloaded
    elif status_code >= 500:
        cls = ServiceError
    else:
        cls = ResponseError
    return cls(status_code, code, message, request_id, retry_after_s)
