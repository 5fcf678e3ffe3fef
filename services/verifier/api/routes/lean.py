"""`POST /lean`: PLACEHOLDER until the lean domain lands."""

from fastapi import APIRouter

router = APIRouter(tags=["lean"])
