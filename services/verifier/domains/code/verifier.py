"""CodeVerifier: PLACEHOLDER until the code domain lands."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from services.verifier.domains.code.config import CodeSettings
from services.verifier.schemas.common import DomainHealth


class CodeVerifier:
    def __init__(self, settings: CodeSettings) -> None:
        self.settings = settings

    def health(self) -> DomainHealth:
        return DomainHealth(ok=False, detail="not implemented yet")


@asynccontextmanager
async def open_code_verifier(settings: CodeSettings) -> AsyncIterator[CodeVerifier]:
    yield CodeVerifier(settings)
