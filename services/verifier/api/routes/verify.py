"""`POST /verify` and `POST /openrlhf`: PLACEHOLDER until the client issue lands."""

from fastapi import APIRouter

router = APIRouter(tags=["mixed"])
