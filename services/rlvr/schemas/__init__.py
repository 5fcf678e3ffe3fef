"""The wire contract, shared by the server and the client (pydantic only, no server imports)."""

from rlvr.schemas.code import (
    CodeItem,
    CodeRequest,
    CodeResponse,
    CodeResult,
    TestStatus,
    TestVerdict,
)
from rlvr.schemas.common import (
    DomainHealth,
    ErrorInfo,
    ErrorResponse,
    HealthResponse,
    ItemResult,
    Status,
    WireModel,
)
from rlvr.schemas.lean import LeanItem, LeanRequest, LeanResponse, LeanResult
from rlvr.schemas.math import MathItem, MathRequest, MathResponse, MathResult

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
