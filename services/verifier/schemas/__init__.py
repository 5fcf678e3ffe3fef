"""The wire contract, shared by the server and the client (pydantic only, no server imports)."""

from services.verifier.schemas.code import (
    CodeItem,
    CodeRequest,
    CodeResponse,
    CodeResult,
    TestStatus,
    TestVerdict,
)
from services.verifier.schemas.common import (
    DomainHealth,
    ErrorInfo,
    ErrorResponse,
    HealthResponse,
    ItemResult,
    Status,
    WireModel,
)
from services.verifier.schemas.lean import LeanItem, LeanRequest, LeanResponse, LeanResult
from services.verifier.schemas.math import MathItem, MathRequest, MathResponse, MathResult

__all__ = [
    "CodeItem",
    "CodeRequest",
    "CodeResponse",
    "CodeResult",
    "DomainHealth",
    "ErrorInfo",
    "ErrorResponse",
    "HealthResponse",
    "ItemResult",
    "LeanItem",
    "LeanRequest",
    "LeanResponse",
    "LeanResult",
    "MathItem",
    "MathRequest",
    "MathResponse",
    "MathResult",
    "Status",
    "TestStatus",
    "TestVerdict",
    "WireModel",
]
