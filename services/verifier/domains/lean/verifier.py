"""LeanVerifier: PLACEHOLDER until the lean domain lands."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from services.verifier.domains.lean.config import LeanSettings
from services.verifier.schemas.common import DomainHealth


class LeanVerifier:
    def __init__(self, settings: LeanSettings) -> None:
        self.settings = settings

    def health(self) -> DomainHealth:
        return DomainHealth(ok=False, detail="not implemented yet")


@asynccontextmanager
async def open_lean_verifier(settings: LeanSettings) -> AsyncIterator[LeanVerifier]:
    yield LeanVerifier(settings)
